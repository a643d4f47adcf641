"""Two rules every algorithm's plan keeps, applied around any algorithm by the registry.

- A buffer the user placed by hand (`Problem.fixed`) stays where it is. The algorithm
  plans the other buffers alone; when one of them then shares bytes with a fixed buffer
  it conflicts with, they are packed again around the fixed ones, lowest first in the
  algorithm's layout, each at the lowest gap with room.
- First candidate that fits (TVM's rule): a buffer is in a later candidate pool only if
  no earlier one has room for it beside the buffers placed there. An algorithm that
  minimises the total bytes may leave a buffer in `dram` where it costs nothing; it moves
  to the lowest gap of its earliest candidate with room, until no buffer can move.

Both only move buffers into gaps among their placed conflicts, under the size hints, so
the plan stays valid; the validator checks both rules too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from usmp_dialect.planning.algorithms.placement import Fit, Geometry, geometry_of, lowest_fit
from usmp_dialect.planning.budget import Budget
from usmp_dialect.planning.conflicts import conflicts_from_intervals
from usmp_dialect.planning.problem import (
    Conflicts,
    Intervals,
    Plan,
    PlanningError,
    Problem,
)
from usmp_dialect.planning.size_hints import out_of_space

Algorithm = Callable[[Problem, Budget], Plan]


def planned_by_rules(algorithm: Algorithm, name: str, problem: Problem, budget: Budget) -> Plan:
    """`algorithm`'s plan of `problem`, with the fixed buffers kept and every buffer in
    the first candidate pool that has room for it."""
    fixed = problem.fixed_offsets()
    if (fixed >= 0).any():
        plan = _around_fixed(algorithm, name, problem, budget, fixed)
    else:
        plan = algorithm(problem, budget)
    return first_candidates_honoured(problem, plan)


def _around_fixed(
    algorithm: Algorithm, name: str, problem: Problem, budget: Budget, fixed: np.ndarray
) -> Plan:
    free = np.flatnonzero(fixed < 0)
    pool = np.array([c[0] for c in problem.candidates], dtype=np.int64)
    offset = fixed.copy()
    time_capped = False
    if len(free):
        try:
            free_plan = algorithm(restricted(problem, free), budget)
        except PlanningError as error:
            buffer = None if error.buffer is None else int(free[error.buffer])
            raise PlanningError(str(error), buffer) from None
        pool[free], offset[free] = free_plan.pool, free_plan.offset
        time_capped = free_plan.time_capped
    geometry = geometry_of(problem)
    sizes = np.asarray(problem.sizes, dtype=np.int64)
    pinned = fixed >= 0
    if not any(
        _overlaps(geometry.conflicting(int(b)), pinned, pool, offset, sizes, int(b)) for b in free
    ):
        return Plan(pool, offset, time_capped=time_capped)
    # Packed again around the fixed buffers, lowest first in the algorithm's own layout
    # (each in the pool it chose, else its other candidates in order): the layout's
    # order survives, only shifted past the fixed bytes.
    planned_pool = pool.copy()
    pool[free] = -1
    for buffer in sorted(free.tolist(), key=lambda b: (int(offset[b]), -int(sizes[b]), b)):
        chosen = int(planned_pool[buffer])
        order = [chosen, *(c for c in problem.candidates[buffer] if c != chosen)]
        for candidate in order:
            place = lowest_place(problem, geometry, pool, offset, buffer, candidate)
            if place is not None:
                pool[buffer], offset[buffer] = candidate, place
                break
        else:
            raise out_of_space(problem, buffer, name)
    return Plan(pool, offset, time_capped=time_capped)


def _overlaps(
    neighbours: np.ndarray,
    among: np.ndarray,
    pool: np.ndarray,
    offset: np.ndarray,
    sizes: np.ndarray,
    buffer: int,
) -> bool:
    """Whether `buffer` shares a byte of its pool with a conflicting buffer of `among`."""
    others = neighbours[among[neighbours] & (pool[neighbours] == pool[buffer])]
    low, high = offset[buffer], offset[buffer] + sizes[buffer]
    return bool(
        high > low
        and (
            (offset[others] < high) & (offset[others] + sizes[others] > low) & (sizes[others] > 0)
        ).any()
    )


def lowest_place(
    problem: Problem,
    geometry: Geometry,
    pool: np.ndarray,
    offset: np.ndarray,
    buffer: int,
    candidate: int,
) -> int | None:
    """The lowest aligned offset of `candidate` free of `buffer`'s placed conflicts there,
    if the pool's size hint has room for it."""
    neighbours = geometry.conflicting(buffer)
    placed = neighbours[pool[neighbours] == candidate]
    sizes = np.asarray(problem.sizes, dtype=np.int64)
    size = int(sizes[buffer])
    alignment = max(int(problem.alignments[buffer]), 1)
    place = lowest_fit(offset[placed], offset[placed] + sizes[placed], size, alignment, Fit.FIRST)
    hint = problem.pools[candidate].size_hint
    return place if hint is None or place + size <= hint else None


def first_candidates_honoured(problem: Problem, plan: Plan) -> Plan:
    """`plan` with each buffer moved to its earliest candidate pool that has room for it."""
    pool = np.asarray(plan.pool, dtype=np.int64)
    first = np.fromiter((c[0] if c else -1 for c in problem.candidates), np.int64, len(pool))
    if not (pool != first).any():
        return plan
    pool, offset = pool.copy(), np.asarray(plan.offset, dtype=np.int64).copy()
    geometry = geometry_of(problem)
    left: set[int] = set()
    moved = True
    while moved:
        moved = False
        for buffer in np.flatnonzero(pool != first).tolist():
            candidates = problem.candidates[buffer]
            if int(pool[buffer]) not in candidates:
                continue  # an invalid plan: the validator names it
            for candidate in candidates[: candidates.index(int(pool[buffer]))]:
                place = lowest_place(problem, geometry, pool, offset, buffer, candidate)
                if place is not None:
                    left.add(int(pool[buffer]))
                    pool[buffer], offset[buffer] = candidate, place
                    moved = True
                    break
    if not left:
        return plan
    return _after_moves(problem, plan, pool, offset, left)


def _after_moves(
    problem: Problem, plan: Plan, pool: np.ndarray, offset: np.ndarray, left: set[int]
) -> Plan:
    """The moved plan: optimal only if no larger; a search's lower bound kept only for
    the pools no buffer left (more buffers never make a pool smaller)."""
    moved = Plan(pool, offset)
    notes = dict(plan.notes)
    emptied = {problem.pools[p].name for p in left}
    searched = notes.get("search")
    if isinstance(searched, dict):
        notes["search"] = {name: n for name, n in searched.items() if name not in emptied}
    return dataclasses.replace(
        moved,
        proven_optimal=plan.proven_optimal
        and moved.total_size(problem) <= plan.total_size(problem),
        time_capped=plan.time_capped,
        lower_bounds=tuple(b for b in plan.lower_bounds if b.pool not in emptied),
        notes=notes,
    )


def restricted(problem: Problem, buffers: np.ndarray) -> Problem:
    """The problem of `buffers` alone (indices in that order), fixed ones none."""
    local = np.full(problem.num_buffers, -1, dtype=np.int64)
    local[buffers] = np.arange(len(buffers))
    intervals = problem.intervals
    conflicts: Conflicts
    if intervals is not None:
        owner = local[np.asarray(intervals.owner, dtype=np.int64)]
        kept = owner >= 0
        intervals = Intervals(owner[kept], intervals.start[kept], intervals.end[kept])
        sub_intervals = intervals
        conflicts = Conflicts.lazy(lambda: conflicts_from_intervals(sub_intervals, len(buffers)))
    else:
        lists = []
        for buffer in buffers.tolist():
            mapped = local[problem.conflicts.of(buffer)]
            lists.append(mapped[mapped >= 0].tolist())
        conflicts = Conflicts.from_lists(lists)
    return Problem(
        names=tuple(problem.names[b] for b in buffers.tolist()),
        sizes=np.asarray(problem.sizes)[buffers],
        alignments=np.asarray(problem.alignments)[buffers],
        conflicts=conflicts,
        pools=problem.pools,
        candidates=tuple(problem.candidates[b] for b in buffers.tolist()),
        intervals=intervals,
    )
