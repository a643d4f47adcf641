"""Reading a module's `usmp` ops as a planning problem, and checking a plan written in IR.

The planner core sees arrays only; this module is the one place that turns pools,
allocations and liveness into those arrays, so the planning pass and the planned-IR
verifier agree on what a module means.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from usmp_dialect.analysis.block_ops import block_ops
from usmp_dialect.diagnostics import MAX_TOTAL_BYTES, UsmpError
from usmp_dialect.dialects.usmp import (
    AllocOffsetOp,
    LivenessOp,
    PoolOp,
    buffer_size_in_bytes,
    register_module_plan_check,
)
from usmp_dialect.planning.conflicts import conflicts_from_intervals, conflicts_from_pairs
from usmp_dialect.planning.problem import (
    Conflicts,
    Intervals,
    Plan,
    PoolSpec,
    Problem,
)
from usmp_dialect.planning.validator import validate


@dataclass(frozen=True)
class ModuleProblem:
    """A problem together with the ops its buffers and pools came from."""

    problem: Problem
    allocs: tuple[AllocOffsetOp, ...]
    pools: tuple[PoolOp, ...]
    live: Intervals
    """The live intervals written in the IR (the problem holds them only when explicit
    conflicts add nothing to them)."""


# A large problem's module holds tens of thousands of ops, and a run looks for its pools,
# allocations and liveness a dozen times: the ops are matched by exact type (`isinstance`
# on an op class goes through `ABCMeta`, three times slower), and blocks walked as
# `block_ops` does, not by `Operation.walk`'s chain of generators.


def module_pools(module: Operation) -> list[PoolOp]:
    return [op for op in block_ops(module.regions[0].block) if type(op) is PoolOp]


def module_allocs(module: Operation) -> list[AllocOffsetOp]:
    """Every `usmp.alloc_offset` in the module, nested ones too, in `walk` order."""
    return [op for op in nested_ops(module) if type(op) is AllocOffsetOp]


def nested_ops(parent: Operation) -> list[Operation]:
    """Every op inside `parent`, in `walk` order."""
    found: list[Operation] = []
    _collect_ops(parent, found)
    return found


def _collect_ops(parent: Operation, found: list[Operation]) -> None:
    for region in parent.regions:
        for block in region.blocks:
            for op in block_ops(block):
                found.append(op)
                if op.regions:
                    _collect_ops(op, found)


def module_liveness(module: Operation) -> LivenessOp | None:
    block = module.regions[0].block
    return _the_liveness([op for op in block_ops(block) if type(op) is LivenessOp])


def _the_liveness(found: list[LivenessOp]) -> LivenessOp | None:
    if len(found) > 1:
        raise VerifyException("a module holds at most one usmp.liveness")
    return found[0] if found else None


def module_usmp_ops(
    module: Operation,
) -> tuple[list[AllocOffsetOp], list[PoolOp], LivenessOp | None]:
    """`module_allocs`, `module_pools` and `module_liveness` in one walk."""
    allocs: list[AllocOffsetOp] = []
    pools: list[PoolOp] = []
    livenesses: list[LivenessOp] = []
    for op in block_ops(module.regions[0].block):
        if type(op) is AllocOffsetOp:
            allocs.append(op)
        elif type(op) is PoolOp:
            pools.append(op)
        elif type(op) is LivenessOp:
            livenesses.append(op)
        if op.regions:
            allocs.extend(nested for nested in nested_ops(op) if type(nested) is AllocOffsetOp)
    return allocs, pools, _the_liveness(livenesses)


def _merged_conflicts(
    num_buffers: int, from_intervals: Conflicts, explicit: np.ndarray
) -> Conflicts:
    """Interval conflicts (symmetric already) plus explicit ones in both directions."""
    rows = np.repeat(np.arange(num_buffers, dtype=np.int64), from_intervals.counts())
    columns = np.asarray(from_intervals.indices, dtype=np.int64)
    first, second = explicit[:, 0], explicit[:, 1]
    return conflicts_from_pairs(
        num_buffers,
        np.concatenate((rows, first, second)),
        np.concatenate((columns, second, first)),
    )


def _candidate_indices(
    allocs: Sequence[AllocOffsetOp], pool_index: dict[str, int]
) -> tuple[tuple[int, ...], ...]:
    # Buffers share their candidate lists (attributes are immutable): each list is read once.
    known: dict[int, tuple[int, ...]] = {}
    candidates: list[tuple[int, ...]] = []
    for op in allocs:
        listed = op.properties["pools"]
        indices = known.get(id(listed))
        if indices is None:
            for name in op.pool_names:
                if name not in pool_index:
                    raise VerifyException(f"buffer '{op.buffer_name.data}': unknown pool @{name}")
            indices = known[id(listed)] = tuple(pool_index[name] for name in op.pool_names)
        candidates.append(indices)
    return tuple(candidates)


def _liveness_to_buffers(
    liveness: LivenessOp, names: tuple[str, ...], position: dict[str, int]
) -> np.ndarray:
    """Liveness indices mapped to buffer indices (-1 where the buffer is not selected)."""
    listed = liveness.buffer_names
    if listed == names and len(position) == len(names):
        # The usual case, the same distinct names in the same order: compared whole.
        return np.arange(len(names), dtype=np.int64)
    return np.fromiter((position.get(name, -1) for name in listed), np.int64, len(listed))


def _check_total(allocs: Sequence[AllocOffsetOp], sizes: list[int], alignments: list[int]) -> None:
    """The sum of sizes and alignments within `MAX_TOTAL_BYTES`."""
    if sum(sizes) + sum(alignments) <= MAX_TOTAL_BYTES:
        return
    total = 0
    for op, size, alignment in zip(allocs, sizes, alignments, strict=True):
        total += size + alignment
        if total > MAX_TOTAL_BYTES:
            raise UsmpError(
                f"buffer '{op.buffer_name.data}' brings the sum of buffer sizes and "
                f"alignments to {total} bytes, past the limit of 2**60",
                op,
            )


def _size_in_bytes(op: AllocOffsetOp) -> int:
    """The buffer's size; a planning pass may meet an unverified op, so a size past the
    limit is a diagnostic at it."""
    try:
        return buffer_size_in_bytes(op.results[0].type)
    except VerifyException as error:
        raise UsmpError(str(error), op) from None


def _buffer_columns(
    allocs: Sequence[AllocOffsetOp],
) -> tuple[tuple[str, ...], list[int], list[int]]:
    """Each buffer's name, size and alignment, in one pass over the ops."""
    names: list[str] = []
    sizes: list[int] = []
    alignments: list[int] = []
    # Buffers share their type objects (attributes are immutable): a lookup here instead of
    # a call to `buffer_size_in_bytes` (itself cached) per op, 0.1 s of a 62k-buffer run.
    size_of_type: dict[int, int] = {}
    # The properties read directly, not through their typed accessors: at tens of
    # thousands of buffers, three times a run, the accessors' calls were most of the work.
    for op in allocs:
        properties: dict[str, Any] = op.properties
        names.append(properties["buffer_name"].data)
        alignments.append(properties["alignment"].value.data)
        buffer_type = op.results[0].type
        size = size_of_type.get(id(buffer_type))
        if size is None:
            size = size_of_type[id(buffer_type)] = _size_in_bytes(op)
        sizes.append(size)
    return tuple(names), sizes, alignments


def build_problem(
    allocs: Sequence[AllocOffsetOp], pools: Sequence[PoolOp], liveness: LivenessOp | None
) -> ModuleProblem:
    names, sizes, alignments = _buffer_columns(allocs)
    position = {name: i for i, name in enumerate(names)}
    pool_index = {pool.sym_name.data: i for i, pool in enumerate(pools)}
    _check_total(allocs, sizes, alignments)
    candidates = _candidate_indices(allocs, pool_index)
    owners = starts = ends = np.zeros(0, dtype=np.int64)
    explicit = np.zeros((0, 2), dtype=np.int64)
    if liveness is not None:
        to_buffer = _liveness_to_buffers(liveness, names, position)
        owners, starts, ends = liveness.intervals()
        owners = to_buffer[owners]
        keep = owners >= 0
        owners, starts, ends = owners[keep], starts[keep], ends[keep]
        explicit = to_buffer[liveness.conflicts()]
        explicit = explicit[(explicit >= 0).all(axis=1)]
    intervals = Intervals(owners, starts, ends)
    if len(explicit):
        conflicts = _merged_conflicts(
            len(names), conflicts_from_intervals(intervals, len(names)), explicit
        )
    else:
        conflicts = Conflicts.lazy(lambda: conflicts_from_intervals(intervals, len(names)))
    offsets: list[Any] = [op.properties.get("offset") for op in allocs]
    fixed = None
    if any(offset is not None for offset in offsets):
        # Buffers already placed (by hand, or in an earlier plan) stay where they are.
        fixed = np.array([-1 if o is None else o.value.data for o in offsets], dtype=np.int64)
        candidates = tuple(
            c[:1] if o is not None else c for c, o in zip(candidates, offsets, strict=True)
        )
    problem = Problem(
        names=names,
        sizes=np.array(sizes, dtype=np.int64),
        alignments=np.array(alignments, dtype=np.int64),
        conflicts=conflicts,
        pools=tuple(PoolSpec(p.sym_name.data, p.size_hint_bytes) for p in pools),
        candidates=candidates,
        intervals=None if len(explicit) else intervals,
        fixed=fixed,
    )
    return ModuleProblem(problem, tuple(allocs), tuple(pools), intervals)


def module_problem(module: Operation) -> ModuleProblem:
    return build_problem(*module_usmp_ops(module))


def written_plan(placed: ModuleProblem) -> Plan:
    """The plan the IR holds, when every buffer has its offset: each in its one pool."""
    offsets: list[Any] = [op.properties["offset"] for op in placed.allocs]
    return Plan(
        pool=np.fromiter((c[0] for c in placed.problem.candidates), np.int64, len(offsets)),
        offset=np.fromiter((offset.value.data for offset in offsets), np.int64, len(offsets)),
    )


def _check_names(allocs: Sequence[AllocOffsetOp], liveness: LivenessOp) -> None:
    # Read from the properties directly, as `_buffer_columns` does.
    properties: list[dict[str, Any]] = [op.properties for op in allocs]
    names: list[str] = [p["buffer_name"].data for p in properties]
    seen = set(names)
    if len(seen) < len(names):
        earlier: set[str] = set()
        for name in names:
            if name in earlier:
                raise VerifyException(f"two usmp.alloc_offset ops are named '{name}'")
            earlier.add(name)
    listed_names = liveness.buffer_names
    listed = set(listed_names)
    # Whole sets compared first; the name to report is looked for only when one differs.
    if not listed <= seen:
        for name in listed_names:
            if name not in seen:
                raise VerifyException(
                    f"liveness names buffer '{name}' that no usmp.alloc_offset defines"
                )
    if not seen <= listed:
        for name in names:
            if name not in listed:
                raise VerifyException(f"buffer '{name}' has no entry in usmp.liveness")


@register_module_plan_check
def verify_module_plan(module: Operation, liveness: LivenessOp) -> None:
    """The facts that span the module: names match, and no two planned buffers that are
    live at the same time share a byte of the same pool."""
    allocs, pools, found = module_usmp_ops(module)
    if found is not liveness:
        return
    _check_names(allocs, liveness)
    planned = [op for op in allocs if "offset" in op.properties]
    if not planned:
        return
    placed = build_problem(planned, pools, liveness)
    errors = validate(placed.problem, written_plan(placed))
    if errors:
        raise VerifyException(errors[0])
