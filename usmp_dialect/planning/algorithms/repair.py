"""Lowering a plan where it is highest: the buffers around a pool's peak placed again.

A greedy plan of a long trace is tight almost everywhere and too high at a few places, and
only those places set the pool's size. Placing all n buffers again in another order costs
a second at 64k buffers; repair instead takes a time window around a buffer that sets the
pool's size, frees the pool's buffers whose lifetimes lie inside it, keeps those crossing
its edges where they are (so nothing outside the window can change), and places the freed
ones again bottom-up among them (`window_dive`), by the dives' orders (`skyline`), then by
shaken copies of them. A try costs the window's gap lookups, not the problem's
placements. It is kept when the window's highest byte falls; when no try lowers it, the
window widens, up to `_MAX_WINDOW_MEMBERS`; then the next round comes back with other
dives. Every kept try lowers a pool or leaves fewer buffers at its top, so the plan only
gets better.

The portfolio's orders under first and best fit, with the squeaky wheel, did this before,
and got stuck on one window: on random 64k-buffer traces (seeds 0-9) the worst plan was
1.0303x max-live, 1.0183x with the dives (seed 1: 1.0271x, now 1.0104x; seed 8 is the one
worse, 1.0073x, now 1.0183x).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from usmp_dialect.planning.algorithms.canonical_search import ranks_of, shaken
from usmp_dialect.planning.algorithms.placement import Geometry, geometry_of
from usmp_dialect.planning.algorithms.skyline import DIVE_KEYS
from usmp_dialect.planning.algorithms.window_dive import place_lowest_first
from usmp_dialect.planning.algorithms.work import (
    TimeCap,
)
from usmp_dialect.planning.problem import Conflicts, Intervals, Problem

_FIRST_HALF_WIDTH = 4
"""Time ranks the first window reaches beyond the setter's lifetime on each side."""
_MAX_WINDOW_MEMBERS = 800
"""A window stops widening past this many members: on random 64k-buffer traces most
windows lowered had 150-750 members, and a dive of a thousand more costs 25 lookups a
member for a whole dive's gamble again (seeds 1 and 4: 1.0059x and 1.0027x max-live with
this limit, 1.0061x and 1.0050x with 1500, for the same work)."""
_TICKETS_PER_ROUND = 6
"""Dives a round tries on each window: the `DIVE_KEYS` orders, then shaken copies."""
_TICKET_NOISE = 4.0
"""Standard deviation, in ranks, of the noise that shakes a ticket's order."""


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


def highest(window: Window, offsets: np.ndarray) -> tuple[int, int]:
    """The window's highest byte and how many members reach it (fewer is better too)."""
    tops = offsets + window.problem.sizes
    top = int(tops.max(initial=0))
    return top, int(np.count_nonzero(tops == top))


@dataclass
class RepairWork:
    """The work a repair may spend (gap lookups, and each window's members once), and what
    it did with it."""

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
    work: RepairWork,
    cap: TimeCap,
) -> np.ndarray:
    """`offset` with windows around each pool's top placed again while `work` lasts. When
    no window around a buffer at a pool's top can be lowered, the pool's next round tries
    other dives (`_TICKETS_PER_ROUND` more); a pool is left alone once a round spends
    nothing (every window is held at its top by a buffer crossing its edges)."""
    offset = offset.copy()
    sizes = np.asarray(problem.sizes, dtype=np.int64)
    num_times = int(spans[1].max(initial=0))
    rounds = dict.fromkeys(np.unique(pool).tolist(), 0)
    while work.left > 0 and not cap.reached():
        pool_sizes = np.zeros(len(problem.pools), dtype=np.int64)
        np.maximum.at(pool_sizes, pool, offset + sizes)
        if int(pool_sizes.sum()) <= lower_bound:
            break
        open_pools = [p for p, done in rounds.items() if done >= 0]
        if not open_pools:
            break
        at = min(open_pools, key=lambda p: rounds[p])
        in_pool = np.flatnonzero(pool == at)
        setter = int(in_pool[np.argmax(offset[in_pool] + sizes[in_pool])])
        tickets = range(rounds[at] * _TICKETS_PER_ROUND, (rounds[at] + 1) * _TICKETS_PER_ROUND)
        spent = work.spent
        if _lower_around(problem, spans, in_pool, offset, setter, num_times, tickets, work):
            continue
        rounds[at] = rounds[at] + 1 if work.spent > spent else -1
    return offset


def _lower_around(
    problem: Problem,
    spans: tuple[np.ndarray, np.ndarray],
    in_pool: np.ndarray,
    offset: np.ndarray,
    setter: int,
    num_times: int,
    tickets: range,
    work: RepairWork,
) -> bool:
    """Lower the window around `setter` (in place in `offset`) with the dives `tickets`,
    widening it until one works, the window is the whole program or has more than
    `_MAX_WINDOW_MEMBERS` members, or the work runs out."""
    half = _FIRST_HALF_WIDTH
    while work.left > 0:
        first = max(int(spans[0][setter]) - half, 0)
        last = min(int(spans[1][setter]) + half, num_times)
        window = window_around(problem, spans, in_pool, offset, first, last)
        if len(window.members) > min(work.left, _MAX_WINDOW_MEMBERS):
            return False
        work.spent += len(window.members)
        lowered = _lowered(window, offset[window.members], tickets, work)
        if lowered is not None:
            offset[window.members] = lowered
            work.windows_lowered += 1
            return True
        if first == 0 and last == num_times:
            return False
        half *= 2
    return False


def _lowered(
    window: Window, current: np.ndarray, tickets: range, work: RepairWork
) -> np.ndarray | None:
    """The members' offsets from the first dive of `tickets` that lowers the window's top
    (or leaves fewer members at it), or None."""
    old = highest(window, current)
    free = window.pinned < 0
    pinned_tops = (current + window.problem.sizes)[~free]
    if not free.any() or int(pinned_tops.max(initial=0)) == old[0]:
        return None  # a pinned buffer reaches the top: only a wider window can help
    return _dived(window, old, tickets, work)


def _dived(
    window: Window, old: tuple[int, int], tickets: range, work: RepairWork
) -> np.ndarray | None:
    """The members' offsets from the first dive of `tickets` that lowers the window below
    `old`, or None."""
    sub, geometry = window.problem, window.geometry
    assert geometry.spans is not None
    span_start, span_end = (np.asarray(s, dtype=np.int64) for s in geometry.spans)
    sizes = np.asarray(sub.sizes, dtype=np.int64)
    alignments = np.maximum(np.asarray(sub.alignments, dtype=np.int64), 1)
    ranks = [ranks_of(tuple(keys(sub, geometry))) for keys in DIVE_KEYS.values()]
    for ticket in tickets:
        rank = ranks[ticket % len(ranks)]
        if ticket >= len(ranks):
            rank = shaken(rank, ticket, _TICKET_NOISE)
        offsets, lookups, placed = place_lowest_first(
            span_start, span_end, sizes, alignments, rank, window.pinned, old[0], work.left
        )
        work.spent += lookups
        if placed and highest(window, offsets) < old:
            return offsets
    return None
