"""Choosing each buffer's pool when the size hints bind.

A placement puts each buffer in its first candidate pool with room, so a bounded pool can
fill up with buffers that could have gone elsewhere, until a buffer that cannot finds no
room. Two answers to that, for `default` and for `exact`:

- `with_room_made`: the largest buffer in the way (one that conflicts with the buffer
  that found no room, could go elsewhere, and prefers a pool that buffer wants) gets that
  pool last in its preferences, and the placement runs again, up to a number of attempts.
- `decide_pools`: whether any plan fits the hints at all. Moving a buffer out of a pool never
  makes that pool's buffers harder to fit, so a buffer with an unbounded candidate goes
  there; the others' pools are searched depth first, a branch cut as soon as some pool's
  buffers need more bytes live at once than its hint, each complete assignment asking
  the canonical search whether every bounded pool's buffers fit in its hint.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from usmp_dialect.planning.algorithms.canonical_search import fit_in_pool
from usmp_dialect.planning.algorithms.placement import (
    Fit,
    Geometry,
    PlacementFailure,
    place_in_order,
)
from usmp_dialect.planning.algorithms.work import SEARCH_STEP_SECONDS, TimeCap
from usmp_dialect.planning.conflicts import max_live_of
from usmp_dialect.planning.problem import Plan, PlanningError, Problem


def with_room_made(
    problem: Problem,
    geometry: Geometry,
    failure: PlanningError,
    place: Callable[[Problem], Plan],
    attempts: int,
) -> Problem:
    """`problem` with candidate preferences under which `place` (which raised `failure`
    on `problem`) places every buffer; raises the last failure when `attempts` ran out or
    nothing is in the way."""
    for _ in range(attempts):
        if failure.buffer is None:
            break
        preferred = _in_way_elsewhere(problem, geometry, failure)
        if preferred is None:
            break
        problem = preferred
        try:
            place(problem)
            return problem
        except PlanningError as error:
            failure = error
    raise failure


def _in_way_elsewhere(
    problem: Problem, geometry: Geometry, failure: PlanningError
) -> Problem | None:
    """`problem` with the largest buffer in the way of the failed one sent elsewhere.
    When the failure says where the buffers before it went, only those placed in a pool
    it wanted are in the way: moving any other leaves the placement, and its failure, as
    they were."""
    assert failure.buffer is not None
    wanted = set(problem.candidates[failure.buffer])
    placed = failure.pool if isinstance(failure, PlacementFailure) else None
    movable = [
        other
        for other in geometry.conflicting(failure.buffer).tolist()
        if len(problem.candidates[other]) > 1
        and problem.candidates[other][0] in wanted
        and (placed is None or int(placed[other]) in wanted)
    ]
    if not movable:
        return None
    blocker = max(movable, key=lambda other: (int(problem.sizes[other]), -other))
    return with_pool_last(problem, blocker, problem.candidates[blocker][0])


def with_pool_last(problem: Problem, buffer: int, pool: int) -> Problem:
    """`problem` with `pool` the buffer's last choice."""
    candidates = list(problem.candidates)
    candidates[buffer] = (*(p for p in candidates[buffer] if p != pool), pool)
    return dataclasses.replace(problem, candidates=tuple(candidates))


class Undecided(Exception):
    """The work budget ran out before the pools were decided."""


@dataclass
class _PoolSearch:
    problem: Problem
    steps: int
    """Search steps left."""
    branches: int
    """Assignments left to try."""
    cap: TimeCap
    answers: dict[tuple[int, frozenset[int]], tuple[bool | None, np.ndarray | None]] = field(
        default_factory=dict
    )
    undecided: bool = False

    def bound_exceeded(self, pool: np.ndarray, index: int) -> bool:
        hint = self.problem.pools[index].size_hint
        if hint is None:
            return False
        sizes = np.where(pool == index, self.problem.sizes, 0)
        return max_live_of(self.problem, sizes) > hint

    def fits(self, pool: np.ndarray, index: int) -> np.ndarray | None:
        """The offsets of the pool's buffers within its hint, or `None` when they do not
        fit or it is not known."""
        buffers = np.flatnonzero(pool == index)
        key = (index, frozenset(buffers.tolist()))
        if key not in self.answers:
            hint = self.problem.pools[index].size_hint
            assert hint is not None, "only pools with a size hint are searched"
            answer, offsets, spent = fit_in_pool(
                self.problem, buffers, hint, max(self.steps, 1), self.cap
            )
            self.steps -= spent
            self.answers[key] = (answer, offsets)
        answer, offsets = self.answers[key]
        self.undecided |= answer is None
        return offsets if answer else None

    def all_fit(self, pool: np.ndarray, hinted: list[int]) -> dict[int, np.ndarray] | None:
        offsets = {}
        for index in hinted:
            found = self.fits(pool, index)
            if found is None:
                return None
            offsets[index] = found
        return offsets


def decide_pools(
    problem: Problem, geometry: Geometry, seconds: float, branches: int, cap: TimeCap
) -> Plan | None:
    """A plan within the size hints, or `None` when none exists; raises `Undecided` when
    `seconds` reference seconds of search or `branches` assignments ran out first."""
    pool = np.full(problem.num_buffers, -1, dtype=np.int64)
    open_buffers = []
    for buffer, candidates in enumerate(problem.candidates):
        if not candidates:
            return None
        unbounded = [p for p in candidates if problem.pools[p].size_hint is None]
        if unbounded or len(candidates) == 1:
            pool[buffer] = unbounded[0] if unbounded else candidates[0]
        else:
            open_buffers.append(buffer)
    open_buffers.sort(key=lambda b: (-int(problem.sizes[b]), b))
    search = _PoolSearch(problem, int(seconds / SEARCH_STEP_SECONDS), branches, cap)
    hinted = [i for i, p in enumerate(problem.pools) if p.size_hint is not None]
    if any(search.bound_exceeded(pool, index) for index in hinted):
        return None
    plan = _assign(search, pool, open_buffers, hinted)
    if plan is None and search.undecided:
        raise Undecided
    return plan if plan is None else _placed(problem, geometry, *plan)


def _assign(
    search: _PoolSearch, pool: np.ndarray, open_buffers: list[int], hinted: list[int]
) -> tuple[np.ndarray, dict[int, np.ndarray]] | None:
    """Depth first over the open buffers' candidates (a stack, not recursion: there may be
    thousands): the first assignment whose bounded pools all fit, with their offsets."""
    tried = [0] * len(open_buffers)
    depth = 0
    while depth >= 0:
        if depth == len(open_buffers):
            offsets = search.all_fit(pool, hinted)
            if offsets is not None:
                return pool.copy(), offsets
            depth -= 1
            continue
        buffer = open_buffers[depth]
        candidates = search.problem.candidates[buffer]
        if tried[depth] == len(candidates):
            tried[depth] = 0
            pool[buffer] = -1
            depth -= 1
            continue
        if search.branches <= 0 or search.cap.reached():
            search.undecided = True
            return None
        search.branches -= 1
        index = candidates[tried[depth]]
        tried[depth] += 1
        pool[buffer] = index
        if not search.bound_exceeded(pool, index):
            depth += 1
    return None


def _placed(
    problem: Problem, geometry: Geometry, pool: np.ndarray, offsets: dict[int, np.ndarray]
) -> Plan:
    """The plan with each buffer in `pool`: the searched offsets in the bounded pools,
    first fit in the others."""
    fixed = dataclasses.replace(
        problem,
        pools=tuple(dataclasses.replace(p, size_hint=None) for p in problem.pools),
        candidates=tuple((int(p),) for p in pool),
    )
    order = np.argsort(-problem.sizes, kind="stable")
    offset = place_in_order(fixed, geometry, order, Fit.FIRST).offset.copy()
    for index, found in offsets.items():
        offset[pool == index] = found
    return Plan(pool=pool, offset=offset)
