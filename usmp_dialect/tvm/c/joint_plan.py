"""A pipeline of planned models (each one's outputs the next one's inputs) planned again as
one program (`usmp-translate --emit-c-models --pipeline`):

    plan_pipeline(stages, alignment, algorithm, budget)
        -> JointPlan (the joint workspace's size, its stacks)

Each stage is a planned entry whose workspace buffers are views at constant offsets of its
one workspace pool (`usmp-to-tir`'s form). Their lifetimes are read back from the entry, one
step per operation of its body (a buffer lives from the first operation that uses it to the
last; inputs from the stage's start, outputs to its end), the stages' timelines one after
another. A stage's outputs and the next one's inputs are one buffer each, live from the
operation that writes it in the one to the last that reads it in the other: it stays in the
pool, no copy. The planner core plans that one problem (`get_algorithm`, checked by its
validator), and every stage's views, `usmp.io_offsets` and pool size are rewritten to the
joint offsets, so each stage's library reads the shared workspace from its start.

A kernel handed the whole pool (`tir.buffer_data` of it, an argument of a `tir.call`) places
its own buffers in it, views at constant offsets in the callee: they live at the steps
that call it, and move with the others.

A stage whose outputs the next reads `stack` runs at a time (`Stage.stack`; micro_speech's
front end, one 40-feature frame a run, and its classifier reading 49) hands over a stack:
the next stage's input, `stack` outputs long, oldest first, live for the whole pipeline
(no buffer of any stage shares its bytes, so it keeps them from run to run, as state), the
stage's output view its last output's place. Before each run of the stage the caller moves
the stack one output toward its start (`JointPlan.stacks`; models.c's `models_NAME_run`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable

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
    stack: int = 1
    """How many of its runs' outputs the next stage reads at once (1: each run's)."""


@dataclass(frozen=True)
class Stack:
    """The outputs of `count` runs of `model` where the next model reads them: `size`
    bytes at `offset` in the joint workspace, each run's output `step` bytes."""

    model: str
    offset: int
    size: int
    step: int
    count: int


@dataclass(frozen=True)
class JointPlan:
    size: int
    """The joint workspace's bytes."""
    stacks: tuple[Stack, ...]


@dataclass
class _View:
    """A buffer the plan put in the workspace pool: its `tir.address_of`, its size, and the
    steps (operations of the entry's body) that use it."""

    address: tir.AddressOfOp
    name: str
    size: int
    alignment: int
    steps: list[int] = field(default_factory=list)


def plan_pipeline(
    stages: list[Stage],
    alignment: int,
    algorithm: str = DEFAULT_ALGORITHM,
    budget: Budget | None = None,
) -> JointPlan:
    """Plans `stages` as one program (see the module's docstring) with `algorithm` and
    rewrites each entry to its joint offsets, every buffer aligned at `alignment`."""
    views = [_views(stage) for stage in stages]
    owner: list[tuple[int, str]] = []  # (stage, view name) of each joint buffer
    index: dict[tuple[int, str], int] = {}
    within: dict[tuple[int, str], int] = {}  # a stacked output's place in its stack
    stacked: list[tuple[int, str]] = []  # (stage, output) of each stack
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
                output = stages[k - 1].outputs[stage.inputs.index(name)]
                handed = index[(k - 1, output)]
                index[(k, name)] = handed
                if stages[k - 1].stack == 1:
                    ends[handed] = begin + last
                    continue
                # A stack: this input's bytes, the output the last of them.
                sizes[handed] = view.size
                written = views[k - 1][output]
                within[(k - 1, output)] = _stacked_place(stages[k - 1], written, view)
                stacked.append((k - 1, output))
                continue
            index[(k, name)] = len(owner)
            owner.append((k, name))
            starts.append(begin + first)
            ends.append(begin + last)
            sizes.append(view.size)
        begin += length
    for k, output in stacked:
        # Kept from run to run: live over every step of every stage.
        starts[index[(k, output)]], ends[index[(k, output)]] = 0, begin
    count = len(owner)
    intervals = Intervals.from_lists(np.arange(count), starts, ends)
    problem = Problem(
        names=tuple(f"{stages[k].model}:{name}" for k, name in owner),
        sizes=np.asarray([-(-s // alignment) * alignment for s in sizes], dtype=np.int64),
        alignments=np.full(count, alignment, dtype=np.int64),
        conflicts=conflicts_from_intervals(intervals, count),
        intervals=intervals,
    )
    plan = get_algorithm(algorithm)(problem, budget or Budget())
    if errors := validate(problem, plan):
        raise AssertionError(f"the joint plan is wrong: {errors}")
    size = plan.total_size(problem)
    for k, (stage, found) in enumerate(zip(stages, views, strict=True)):
        offsets = {
            name: int(plan.offset[index[(k, name)]]) + within.get((k, name), 0) for name in found
        }
        _rewrite(stage, found, offsets, size)
    stacks = tuple(
        Stack(
            stages[k].model,
            int(plan.offset[index[(k, output)]]),
            sizes[index[(k, output)]],
            views[k][output].size,
            stages[k].stack,
        )
        for k, output in stacked
    )
    return JointPlan(size, stacks)


def _stacked_place(stage: Stage, written: _View, stack: _View) -> int:
    """Where `stage`'s output `written` lies in the `stack` the next stage reads: its last
    place; a `LocatedError` where that breaks the output's alignment."""
    assert stack.size == stage.stack * written.size
    place = stack.size - written.size
    if place % written.alignment:
        raise LocatedError(
            f"{stage.model}'s output '{written.name}' would lie {place} bytes into the stack of "
            f"its {stage.stack} runs, no multiple of its alignment {written.alignment}",
            stage.origin,
        )
    return place


def _views(stage: Stage) -> dict[str, _View]:
    """The buffers of `stage` in its workspace pool, by name (a callee's own as
    'CALLEE/NAME'), with the steps that use them; a `LocatedError` when a buffer there is
    not a view at a constant offset in the entry or in a callee handed the whole pool."""
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
    whole: set[SSAValue] = set()  # pointers to the whole pool
    handed: dict[tuple[str, int], list[_View]] = {}  # views a callee places in the pool

    def add(view: _View, key: str) -> None:
        if key in views:
            raise refuse(f"two buffers in its pool are named '{key}'")
        views[key] = view

    for step, top in enumerate(entry.body.block.ops):
        for op in top.walk():
            for position, operand in enumerate(op.operands):
                if operand in whole:
                    if not isinstance(op, tir.CallOp):
                        raise refuse(f"'{op.name}' uses its pool '{stage.pool}' as a whole")
                    callee = (op.callee.string_value(), position)
                    if callee not in handed:
                        handed[callee] = _callee_views(entry, *callee, refuse)
                        for placed in handed[callee]:
                            add(placed, f"{callee[0]}/{placed.name}")
                    for placed in handed[callee]:
                        placed.steps.append(step)
                    continue
                if operand == pool and not isinstance(op, tir.AddressOfOp):
                    if isinstance(op, tir.BufferDataOp):  # handed to a callee, looked at there
                        whole.update(op.results)
                        continue
                    raise refuse(f"'{op.name}' uses its pool '{stage.pool}' as a whole")
                if (view := owners.get(operand)) is None:
                    continue
                if isinstance(op, _VIEWS):
                    owners.update((result, view) for result in op.results)
                else:
                    view.steps.append(step)
            if isinstance(op, tir.AddressOfOp) and op.buffer == pool:
                view = _view(op, refuse)
                add(view, view.name)
                owners[op.result] = view
    given = [n for n, io in placed_io(entry).items() if io.pool.data == stage.pool]
    for name in (*stage.inputs, *stage.outputs, *given):
        if name not in views:
            raise refuse(f"'{name}' is no buffer of its body in pool '{stage.pool}'")
    return views


def _callee_views(
    entry: tir.PrimFuncOp, callee: str, position: int, refuse: Callable[[str], LocatedError]
) -> list[_View]:
    """The buffers that function `callee`, handed the whole pool as argument `position`,
    places in it: views at constant offsets of it, as the entry's."""
    function = SymbolTable.lookup_symbol(entry, callee)
    assert isinstance(function, tir.PrimFuncOp)  # the call verifies it
    pools: set[SSAValue] = {function.body.block.args[position]}
    views = []
    for op in function.body.walk():
        if isinstance(op, tir.AddressOfOp) and op.buffer in pools:
            views.append(_view(op, refuse))
        elif isinstance(op, tir.DeclBufferOp) and op.data in pools:
            pools.add(op.buffer)
        elif any(operand in pools for operand in op.operands):
            raise refuse(f"@{callee} uses the pool it is handed as a whole ('{op.name}')")
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
    return _View(address, name, buffer_type.size_in_bytes(), buffer_type.alignment.data)


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
