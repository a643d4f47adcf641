"""The Relax VM's tensors planned through usmp IR, so that what `PlanMemory` plans can be
printed, edited, planned by `usmp-opt` and read back.

    problem_module(tensors) -> ModuleOp           one `usmp.alloc_offset` a tensor, `?` offsets
    plan_problem(module, algorithm, pools, ...)   `usmp-assign-pools`, `usmp-plan` in place
    read_plan(module, tensors) -> VmPlan          the pools and offsets, checked by the validator

A buffer is a byte memref at TVM's allocation alignment (64), live over its binding range.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import MemRefType, ModuleOp, i8

from usmp_dialect.dialects.usmp import AllocOffsetOp, LivenessOp, PoolOp
from usmp_dialect.pipeline import plan_pools, plan_pools_pipeline
from usmp_dialect.planning.conflicts import conflicts_from_intervals
from usmp_dialect.planning.problem import Intervals, Plan, PlanningError, PoolSpec, Problem
from usmp_dialect.planning.validator import check_plan
from usmp_dialect.tvm.relax_vm.tensors import TVM_ALLOC_ALIGNMENT, VmTensor


@dataclass(frozen=True)
class VmPlan:
    pool_sizes: dict[str, int]
    """Bytes of each pool the plan uses, in the order the pools are declared."""
    placements: dict[str, tuple[str, int]]
    """Each tensor's pool and byte offset, by tensor name."""


def problem_module(tensors: Sequence[VmTensor]) -> ModuleOp:
    allocs = [
        AllocOffsetOp(
            t.name,
            [],
            MemRefType(i8, [t.size]),
            alignment=TVM_ALLOC_ALIGNMENT,
            live=[t.start, t.end],
        )
        for t in tensors
    ]
    return ModuleOp([*allocs, LivenessOp()])


def plan_problem(
    module: ModuleOp, algorithm: str, pools: str, effort: float, time_limit: float
) -> None:
    plan_pools(
        module,
        # The VM runs its own kernels over whole tensors: never banded.
        plan_pools_pipeline(
            algorithm, time_limit, lower=False, effort=effort, pools=pools, band_stages=False
        ),
    )


def read_plan(module: ModuleOp, tensors: Sequence[VmTensor]) -> VmPlan:
    """The plan `module` holds for `tensors`; a `PlanningError` if it is not a complete,
    valid plan of exactly those tensors (a hand-edited file may not be)."""
    pools = [op for op in module.walk() if isinstance(op, PoolOp)]
    allocs = {op.buffer_name.data: op for op in module.walk() if isinstance(op, AllocOffsetOp)}
    index = {p.sym_name.data: i for i, p in enumerate(pools)}
    placed = []
    for t in tensors:
        alloc = allocs.pop(t.name, None)
        if alloc is None:
            raise PlanningError(f"the plan has no buffer '{t.name}'")
        if alloc.offset_bytes is None or len(alloc.pool_names) != 1:
            raise PlanningError(f"buffer '{t.name}' is not planned")
        if alloc.size_in_bytes != t.size:
            raise PlanningError(
                f"buffer '{t.name}' has {alloc.size_in_bytes} bytes in the plan, {t.size} here"
            )
        placed.append((alloc.pool_names[0], alloc.offset_bytes))
    if allocs:
        raise PlanningError(f"the plan has a buffer '{next(iter(allocs))}' this function lacks")
    _check(tensors, pools, index, placed)
    sizes = {p.sym_name.data: 0 for p in pools}
    for t, (pool, offset) in zip(tensors, placed, strict=True):
        sizes[pool] = max(sizes[pool], offset + t.size)
    return VmPlan(
        {name: size for name, size in sizes.items() if size},
        {t.name: where for t, where in zip(tensors, placed, strict=True)},
    )


def _check(
    tensors: Sequence[VmTensor],
    pools: Sequence[PoolOp],
    index: dict[str, int],
    placed: Sequence[tuple[str, int]],
) -> None:
    """The validator's check of the placements against the tensors' own sizes and live
    ranges (not the file's, which an edit may have changed)."""
    n = len(tensors)
    intervals = Intervals.from_lists(range(n), [t.start for t in tensors], [t.end for t in tensors])
    problem = Problem(
        tuple(t.name for t in tensors),
        np.array([t.size for t in tensors], dtype=np.int64),
        np.full(n, TVM_ALLOC_ALIGNMENT, dtype=np.int64),
        conflicts_from_intervals(intervals, n),
        tuple(PoolSpec(p.sym_name.data, p.size_hint_bytes) for p in pools),
        (tuple(range(len(pools))),) * n,
        intervals,
    )
    for pool, _ in placed:
        if pool not in index:
            raise PlanningError(f"the plan names an undeclared pool '{pool}'")
    plan = Plan(
        np.array([index[pool] for pool, _ in placed], dtype=np.int64),
        np.array([offset for _, offset in placed], dtype=np.int64),
    )
    check_plan(problem, plan)
