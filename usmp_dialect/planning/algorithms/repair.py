"""Lowering a plan where it is highest: the buffers around a pool's peak placed again.

A greedy plan of a long trace is tight almost everywhere and too high at a few places, and
only those places set the pool's size. Placing all n buffers again in another order costs
a second at 64k buffers; repair instead takes a time window around a buffer that sets the
pool's size, frees the pool's buffers whose lifetimes lie inside it, keeps those crossing
its edges where they are (so nothing outside the window can change), and places the freed
ones again: in the portfolio's first orders, then by the squeaky wheel (the buffers that
reached the old top go first, in random order among themselves). A try costs the window's
buffers, not the problem's. It is kept when the window's highest byte falls; when no try
lowers it, the window widens. Every kept try lowers a pool or leaves fewer buffers at its
top, so the plan only gets better.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from usmp_dialect.planning.algorithms.placement import (
    Fit,
    Geometry,
    geometry_of,
    place_in_order,
)
from usmp_dialect.planning.algorithms.work import TimeCap
from usmp_dialect.planning.problem import Conflicts, Intervals, Problem

_FIRST_HALF_WIDTH = 4
"""Time ranks the first window reaches beyond the setter's lifetime on each side."""
_SQUEAKY_TRIES = 32
"""Squeaky-wheel tries after the fixed orders fail: on random 64k traces fewer, or wider
first windows, lowered fewer windows for the same work."""
_SEED = 0


@dataclass(frozen=True)
class Window:
    """A pool's buffers that meet a time window, as a problem of their own."""

    members: np.ndarray
    """The buffers, pinned ones first."""
    pinned: np.ndarray
    """Per member, its offset when it crosses the window's edges, else -1."""
    problem: Problem
    geometry: Geometry

    @property
    def num_free(self) -> int:
        return int(np.count_nonzero(self.pinned < 0))


def window_around(
    problem: Problem,
    spans: tuple[np.ndarray, np.ndarray],
    in_pool: np.ndarray,
    offset: np.ndarray,
    first: int,
    last: int,
) -> Window:
    """The buffers of `in_pool` live during time ranks `[first, last)`; those not wholly
    inside are pinned at `offset`."""
    span_start, span_end = spans
    meets = in_pool[(span_start[in_pool] < last) & (span_end[in_pool] > first)]
    inside = (span_start[meets] >= first) & (span_end[meets] <= last)
    members = np.concatenate((meets[~inside], meets[inside]))
    pinned = np.concatenate((offset[meets[~inside]], np.full(np.count_nonzero(inside), -1)))
    start = np.maximum(span_start[members], first) - first
    end = np.minimum(span_end[members], last) - first
    sub = Problem(
        tuple(problem.names[b] for b in members.tolist()),
        np.asarray(problem.sizes, dtype=np.int64)[members],
        np.asarray(problem.alignments, dtype=np.int64)[members],
        Conflicts.lazy(_never_built),
        intervals=Intervals.from_lists(np.arange(len(members)), start, end),
    )
    return Window(members, pinned, sub, geometry_of(sub))


def _never_built() -> Conflicts:
    raise AssertionError("a window is placed from its spans")


def place_window(window: Window, free_order: np.ndarray, fit: Fit) -> np.ndarray:
    """The members' offsets with the pinned ones kept and the free ones (member indices,
    in `free_order`) placed after them."""
    pinned_count = len(window.members) - window.num_free
    sequence = np.concatenate((np.arange(pinned_count), free_order))
    plan = place_in_order(window.problem, window.geometry, sequence, fit, window.pinned)
    return plan.offset


def highest(window: Window, offsets: np.ndarray) -> tuple[int, int]:
    """The window's highest byte and how many members reach it (fewer is better too)."""
    tops = offsets + window.problem.sizes
    top = int(tops.max(initial=0))
    return top, int(np.count_nonzero(tops == top))


WindowOrders = Callable[[Problem, Geometry], list[tuple[np.ndarray, Fit]]]
"""The orders (of all of a window's buffers) and fits to try on a window, best first."""


@dataclass
class RepairWork:
    """The member placements a repair may spend, and what it did with them."""

    budget: int
    spent: int = 0
    windows_lowered: int = 0

    @property
    def left(self) -> int:
        return self.budget - self.spent


def repair_peaks(
    problem: Problem,
    spans: tuple[np.ndarray, np.ndarray],
    pool: np.ndarray,
    offset: np.ndarray,
    lower_bound: int,
    orders: WindowOrders,
    work: RepairWork,
    cap: TimeCap,
) -> np.ndarray:
    """`offset` with windows around each pool's top placed again while `work` lasts; a
    pool is left alone once a buffer at its top cannot be lowered in any window."""
    offset = offset.copy()
    sizes = np.asarray(problem.sizes, dtype=np.int64)
    num_times = int(spans[1].max(initial=0))
    rng = np.random.default_rng(_SEED)
    stuck: set[int] = set()
    while work.left > 0 and not cap.reached():
        pool_sizes = np.zeros(len(problem.pools), dtype=np.int64)
        np.maximum.at(pool_sizes, pool, offset + sizes)
        if int(pool_sizes.sum()) <= lower_bound:
            break
        open_pools = [p for p in np.unique(pool).tolist() if p not in stuck]
        if not open_pools:
            break
        at = open_pools[0]
        in_pool = np.flatnonzero(pool == at)
        setter = int(in_pool[np.argmax(offset[in_pool] + sizes[in_pool])])
        if not _lower_around(problem, spans, in_pool, offset, setter, num_times, orders, rng, work):
            stuck.add(at)
    return offset


def _lower_around(
    problem: Problem,
    spans: tuple[np.ndarray, np.ndarray],
    in_pool: np.ndarray,
    offset: np.ndarray,
    setter: int,
    num_times: int,
    orders: WindowOrders,
    rng: np.random.Generator,
    work: RepairWork,
) -> bool:
    """Lower the window around `setter` (in place in `offset`), widening it until a try
    works, the window is the whole program or the work runs out."""
    half = _FIRST_HALF_WIDTH
    while work.left > 0:
        first = max(int(spans[0][setter]) - half, 0)
        last = min(int(spans[1][setter]) + half, num_times)
        window = window_around(problem, spans, in_pool, offset, first, last)
        if len(window.members) > work.left:
            return False
        lowered = _lowered(window, offset[window.members], orders, rng, work)
        if lowered is not None:
            offset[window.members] = lowered
            work.windows_lowered += 1
            return True
        if first == 0 and last == num_times:
            return False
        half *= 2
    return False


def _lowered(
    window: Window,
    current: np.ndarray,
    orders: WindowOrders,
    rng: np.random.Generator,
    work: RepairWork,
) -> np.ndarray | None:
    """The members' offsets from the first try that lowers the window's top (or leaves
    fewer members at it), or None."""
    old = highest(window, current)
    free = window.pinned < 0
    pinned_tops = (current + window.problem.sizes)[~free]
    if not free.any() or int(pinned_tops.max(initial=0)) == old[0]:
        return None  # a pinned buffer reaches the top: only a wider window can help
    best: tuple[tuple[int, int], np.ndarray, Fit, np.ndarray] | None = None
    for sequence, fit in orders(window.problem, window.geometry):
        if work.left < len(window.members):
            return None
        free_order = sequence[free[sequence]]
        offsets = _try(window, free_order, fit, work)
        score = highest(window, offsets)
        if score < old:
            return offsets
        if best is None or score < best[0]:
            best = (score, free_order, fit, offsets)
    assert best is not None
    _, free_order, fit, offsets = best
    for _ in range(_SQUEAKY_TRIES):
        if work.left < len(window.members):
            return None
        free_order = _squeaked(window, free_order, offsets, old[0], rng)
        offsets = _try(window, free_order, fit, work)
        if highest(window, offsets) < old:
            return offsets
    return None


def _try(window: Window, free_order: np.ndarray, fit: Fit, work: RepairWork) -> np.ndarray:
    work.spent += len(window.members)
    return place_window(window, free_order, fit)


def _squeaked(
    window: Window,
    free_order: np.ndarray,
    offsets: np.ndarray,
    limit: int,
    rng: np.random.Generator,
) -> np.ndarray:
    """`free_order` with the free members reaching `limit` moved to the front (the squeaky
    wheel), in random order among themselves so that repeats differ."""
    tops = offsets + window.problem.sizes
    high = (tops >= limit)[free_order]
    return np.concatenate((rng.permutation(free_order[high]), free_order[~high]))
