"""Filling the fast pools by memory traffic, instead of TVM's first-come overflow.

TVM's rule puts a buffer in its first candidate pool when that pool has room for it
beside the buffers already placed there; which buffers those are follows the algorithm's
order (largest first), so a small fast memory may keep a few buffers and leave most of its
bytes unused. `fill_by_traffic` chooses, pool by pool in the order given (the fastest
first), which buffers a size-hinted pool holds, weighing each by the bytes the operators
read and write of it (`traffic`).

The choice is a knapsack over time: the buffers a pool holds must fit together under its
size hint at every moment, with their offsets. It is solved greedily: buffers by traffic
per byte (equal densities once the larger first, once the smaller first, then index:
deterministic; the order whose kept buffers serve more traffic wins), each kept when it
fits. A buffer is
first tried at the lowest gap among the kept buffers it meets; when there is none, the
kept set and it are packed again, largest first (`first_fit`), and it is kept when that
packing fits (at most `REPACKS` times a pool, so a large problem stays near linear). The
packing found is the one kept, so the fit is checked by a planner, not estimated. A buffer
whose only candidate is the pool is tried first; one that finds no room is left to the
planner, which names it.

Why greedy by density: for buffers that all meet (one moment) this is the classic
knapsack greedy; over time it keeps the buffers that serve most traffic for the bytes they
occupy. TVM's rule, by contrast, weighs nothing. The result is a narrowed problem: the
kept buffers fixed at their offsets in the pool, the others without it among their
candidates, for the chosen algorithm to plan the rest; the registry's first-candidate
rule then still moves any buffer into a gap of an earlier pool that has room.

Greedy choices can lose to TVM's rule on some instances (a dense small buffer kept early
may block a larger, slightly less dense pair), so `planned_by_traffic` plans both ways and
keeps the fill only when its fast pools serve at least as much traffic, pool by pool in
the order given: the result never serves the fastest pool less than TVM's rule does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from usmp_dialect.planning.algorithms.fit import first_fit
from usmp_dialect.planning.algorithms.placement import Geometry, geometry_of
from usmp_dialect.planning.budget import Budget
from usmp_dialect.planning.problem import Plan, PlanningError, Problem
from usmp_dialect.planning.rules import first_candidates_honoured, lowest_place, restricted

REPACKS = 64
"""Full re-packings of the kept set a pool may try: each is a `first_fit` of the kept
buffers, so the bound keeps a pool's choice at a few dozen plannings."""

FILL_RULES = ("first", "traffic")
"""`first`: TVM's rule, first candidate that fits in the algorithm's order. `traffic`: the
fast pools filled by traffic per byte (this module)."""


def traffic_served(problem: Problem, plan: Plan, traffic: np.ndarray) -> np.ndarray:
    """Per pool, the traffic of the buffers `plan` puts there."""
    served = np.zeros(len(problem.pools), dtype=np.int64)
    np.add.at(served, np.asarray(plan.pool, dtype=np.int64), traffic)
    return served


def planned_by_traffic(
    plan_of: Callable[[Problem], Plan], problem: Problem, traffic: np.ndarray
) -> tuple[Plan, Plan]:
    """The plan by traffic, and TVM's (`plan_of(problem)`): the fill's plan when it serves
    the pools, in order, at least as much traffic as TVM's, else TVM's (also when the
    narrowed problem has no plan)."""
    first = plan_of(problem)
    try:
        filled = first_candidates_honoured(problem, plan_of(fill_by_traffic(problem, traffic)))
    except PlanningError:  # the buffers fixed leave no room for one that has no other pool
        return first, first
    better = tuple(traffic_served(problem, filled, traffic).tolist()) >= tuple(
        traffic_served(problem, first, traffic).tolist()
    )
    return (filled if better else first), first


def fill_by_traffic(problem: Problem, traffic: np.ndarray) -> Problem:
    """`problem` narrowed so that each size-hinted pool holds the buffers chosen for it,
    fixed at their offsets there."""
    fixed = problem.fixed_offsets().copy()
    candidates = [tuple(c) for c in problem.candidates]
    geometry = geometry_of(problem)
    for pool, spec in enumerate(problem.pools):
        if spec.size_hint is None:
            continue
        wanting = [
            b for b in range(problem.num_buffers) if fixed[b] < 0 and candidates[b][0] == pool
        ]
        if not wanting:
            continue
        kept = max(
            (
                _choose(problem, geometry, pool, wanting, candidates, fixed, order)
                for order in _orders(wanting, candidates, problem.sizes, traffic)
            ),
            key=lambda chosen: sum(int(traffic[b]) for b in chosen),
        )
        for buffer in wanting:
            if buffer in kept:
                candidates[buffer], fixed[buffer] = (pool,), kept[buffer]
            elif len(candidates[buffer]) > 1:
                candidates[buffer] = tuple(c for c in candidates[buffer] if c != pool)
    return dataclasses.replace(
        problem,
        candidates=tuple(candidates),
        fixed=fixed if (fixed >= 0).any() else None,
    )


def _choose(
    problem: Problem,
    geometry: Geometry,
    pool: int,
    wanting: list[int],
    candidates: list[tuple[int, ...]],
    fixed: np.ndarray,
    order: list[int],
) -> dict[int, int]:
    """The buffers of `wanting` the pool holds, with their offsets, tried in `order`."""
    pool_of = np.full(problem.num_buffers, -1, dtype=np.int64)
    offset = np.zeros(problem.num_buffers, dtype=np.int64)
    already = np.flatnonzero(fixed >= 0)
    already = already[[candidates[b][0] == pool for b in already.tolist()]]
    pool_of[already], offset[already] = pool, fixed[already]
    kept: dict[int, int] = {}
    only_here = {b for b in wanting if len(candidates[b]) == 1}
    repacks = REPACKS if not len(already) else 0
    for buffer in order:
        place = lowest_place(problem, geometry, pool_of, offset, buffer, pool)
        if place is not None:
            pool_of[buffer], offset[buffer] = pool, place
            kept[buffer] = place
        elif repacks and buffer not in only_here:
            repacks -= 1
            packed = _packed(problem, pool, [*kept, buffer])
            if packed is not None:
                kept = packed
                offset[list(kept)] = list(kept.values())
                pool_of[buffer] = pool
    return kept


def _orders(
    wanting: list[int],
    candidates: list[tuple[int, ...]],
    sizes: np.ndarray,
    traffic: np.ndarray,
) -> list[list[int]]:
    """The orders the greedy tries: buffers with no other candidate first, then by
    traffic per byte, equal densities the larger first, or the smaller first (two
    buffers of 2 KiB that never meet serve more than one of 3 KiB that meets both)."""
    only_here = [b for b in wanting if len(candidates[b]) == 1]
    others = [b for b in wanting if len(candidates[b]) > 1]

    def density(b: int) -> float:
        return -int(traffic[b]) / max(int(sizes[b]), 1)

    return [
        [*only_here, *sorted(others, key=lambda b: (density(b), -int(traffic[b]), b))],
        [*only_here, *sorted(others, key=lambda b: (density(b), int(traffic[b]), b))],
    ]


def _packed(problem: Problem, pool: int, buffers: list[int]) -> dict[int, int] | None:
    """`buffers` packed alone in `pool`, largest first, when they fit its size hint."""
    order = np.array(sorted(buffers), dtype=np.int64)
    alone = restricted(problem, order)
    alone = dataclasses.replace(alone, candidates=((pool,),) * len(order))
    try:
        plan = first_fit(alone, Budget())
    except PlanningError:
        return None
    return dict(zip(order.tolist(), plan.offset.tolist(), strict=True))
