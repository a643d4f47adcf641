"""A pipeline of planned models (each one's outputs the next one's inputs) planned again as
one program (`usmp-translate --emit-c-models --pipeline`):

    plan_pipeline(stages, alignment) -> the joint workspace's size

Each stage is a planned entry whose workspace buffers are views at constant offsets of its
one workspace pool (`usmp-to-tir`'s form). Their lifetimes are read back from the entry, one
step per operation of its body (a buffer lives from the first operation that uses it to the
last; inputs from the stage's start, outputs to its end), the stages' timelines one after
another. A stage's outputs and the next one's inputs are one buffer each, live from the
operation that writes it in the one to the last that reads it in the other: it stays in the
pool, no copy. The planner core plans that one problem (`get_algorithm`, checked by its
validator), and every stage's views, `usmp.io_offsets` and pool size are rewritten to the
joint offsets, so each stage's library reads the shared workspace from its start.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from usmp_dialect.diagnostics import LocatedError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import (
    IO_OFFSETS_ATTR,
    POOLS_ATTR,
    IOOffsetAttr,
    IOOffsetsAttr,
    PoolSizesAttr,
    placed_io,
    planned_pool_sizes,
)
from usmp_dialect.planning.budget import DEFAULT_ALGORITHM, Budget
from usmp_dialect.planning.conflicts import conflicts_from_intervals
from usmp_dialect.planning.problem import Intervals, Problem
from usmp_dialect.planning.registry import get_algorithm
from usmp_dialect.planning.validator import validate

_VIEWS = (tir.DeclBufferOp, tir.BufferDataOp, tir.AddressOfOp)
"""Operations that only name bytes another value names: not a use of them."""


@dataclass(frozen=True)
class Stage:
    """One model of the pipeline: its name, its planned entry, the name of its workspace
    pool, and its inputs and outputs in order (the outputs are the next stage's inputs)."""

    model: str
    entry: tir.PrimFuncOp
    pool: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    origin: str
    """Where the model came from, for diagnostics."""


@dataclass
class _View:
    """A buffer the plan put in the workspace pool: its `tir.address_of`, its size, and the
    steps (operations of the entry's body) that use it."""

    address: tir.AddressOfOp
    name: str
    size: int
    steps: list[int] = field(default_factory=list)


def plan_pipeline(stages: list[Stage], alignment: int) -> int:
    """Plans `stages` as one program (see the module's docstring) and rewrites each entry
    to its joint offsets, every buffer aligned at `alignment`; the joint workspace's size."""
    views = [_views(stage) for stage in stages]
    owner: list[tuple[int, str]] = []  # (stage, view name) of each joint buffer
    index: dict[tuple[int, str], int] = {}
    starts: list[int] = []
    ends: list[int] = []
    sizes: list[int] = []
    begin = 0
    for k, (stage, found) in enumerate(zip(stages, views, strict=True)):
        length = len(stage.entry.body.block.ops)
        for name, view in found.items():
            first = 0 if name in stage.inputs else min(view.steps, default=0)
            last = length if name in stage.outputs else max(view.steps, default=0) + 1
            if k and name in stage.inputs:
                # The one before wrote it: one buffer, from its writer to the last reader here.
                handed = index[(k - 1, stages[k - 1].outputs[stage.inputs.index(name)])]
                ends[handed] = begin + last
                index[(k, name)] = handed
                continue
            index[(k, name)] = len(owner)
            owner.append((k, name))
            starts.append(begin + first)
            ends.append(begin + last)
            sizes.append(view.size)
        begin += length
    count = len(owner)
    intervals = Intervals.from_lists(np.arange(count), starts, ends)
    problem = Problem(
        names=tuple(f"{stages[k].model}:{name}" for k, name in owner),
        sizes=np.asarray([-(-s // alignment) * alignment for s in sizes], dtype=np.int64),
        alignments=np.full(count, alignment, dtype=np.int64),
        conflicts=conflicts_from_intervals(intervals, count),
        intervals=intervals,
    )
    plan = get_algorithm(DEFAULT_ALGORITHM)(problem, Budget())
    if errors := validate(problem, plan):
        raise AssertionError(f"the joint plan is wrong: {errors}")
    size = plan.total_size(problem)
    for k, (stage, found) in enumerate(zip(stages, views, strict=True)):
        offsets = {name: int(plan.offset[index[(k, name)]]) for name in found}
        _rewrite(stage, found, offsets, size)
    return size


def _views(stage: Stage) -> dict[str, _View]:
    """The buffers of `stage` in its workspace pool, by name, with the steps that use them;
    a `LocatedError` when a buffer there is not a view at a constant offset in the entry."""
    entry = stage.entry
    (pool,) = (
        arg
        for name, arg in zip(entry.param_names(), entry.body.block.args, strict=True)
        if name == stage.pool
    )

    def refuse(why: str) -> LocatedError:
        return LocatedError(
            f"{stage.model} cannot be planned with the other models: {why}",
            stage.origin,
        )

    views: dict[str, _View] = {}
    owners: dict[SSAValue, _View] = {}
    for step, top in enumerate(entry.body.block.ops):
        for op in top.walk():
            for operand in op.operands:
                if operand == pool and not isinstance(op, tir.AddressOfOp):
                    raise refuse(f"'{op.name}' uses its pool '{stage.pool}' as a whole")
                if (view := owners.get(operand)) is None:
                    continue
                if isinstance(op, _VIEWS):
                    owners.update((result, view) for result in op.results)
                else:
                    view.steps.append(step)
            if isinstance(op, tir.AddressOfOp) and op.buffer == pool:
                view = _view(op, refuse)
                if view.name in views:
                    raise refuse(f"two buffers in its pool are named '{view.name}'")
                views[view.name] = owners[op.result] = view
    placed = [n for n, io in placed_io(entry).items() if io.pool.data == stage.pool]
    for name in (*stage.inputs, *stage.outputs, *placed):
        if name not in views:
            raise refuse(f"'{name}' is no buffer of its body in pool '{stage.pool}'")
    return views


def _view(address: tir.AddressOfOp, refuse: Callable[[str], LocatedError]) -> _View:
    """The buffer that `address`, a pointer into the pool, is the data of."""
    (offset,) = address.indices
    if not isinstance(offset.owner, arith.ConstantOp):
        raise refuse("a buffer in its pool lies at an offset that is no constant")
    users = [use.operation for use in address.result.uses]
    if len(users) != 1 or not isinstance(decl := users[0], tir.DeclBufferOp):
        raise refuse("a pointer into its pool is used otherwise than as one buffer's data")
    buffer_type = decl.buffer.type
    assert isinstance(buffer_type, tir.BufferType)
    name = decl.buffer_name.data if decl.buffer_name else decl.buffer.name_hint or ""
    return _View(address, name, buffer_type.size_in_bytes())


def _rewrite(stage: Stage, views: dict[str, _View], offsets: dict[str, int], size: int) -> None:
    """Moves each view of `stage` to its joint offset, and records them and the pool's
    joint size on the entry."""
    entry = stage.entry
    for name, view in views.items():
        (old,) = view.address.indices
        assert isinstance(old.type, IntegerType | IndexType)
        constant = arith.ConstantOp(IntegerAttr(offsets[name], old.type))
        Rewriter.insert_op(constant, InsertPoint.before(view.address))
        view.address.operands = [view.address.buffer, constant.result]
        if not old.uses and isinstance(old.owner, Operation):
            Rewriter.erase_op(old.owner)
    placed = {
        name: IOOffsetAttr(io.kind.data.value, io.pool.data, offsets[name], io.buffer_type)
        if io.pool.data == stage.pool
        else io
        for name, io in placed_io(entry).items()
    }
    entry.attributes[IO_OFFSETS_ATTR] = IOOffsetsAttr(placed)
    pools = planned_pool_sizes(entry) or {}
    entry.attributes[POOLS_ATTR] = PoolSizesAttr({**pools, stage.pool: size})
