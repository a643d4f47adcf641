"""Lowering a plan where it is highest: the buffers around a pool's peak placed again.

A greedy plan of a long trace is tight almost everywhere and too high at a few places, and
only those places set the pool's size. Placing all n buffers again in another order costs
a second at 64k buffers; repair instead takes a time window around a buffer that sets the
pool's size, frees the pool's buffers whose lifetimes lie inside it, keeps those crossing
its edges where they are (so nothing outside the window can change), and places the freed
ones again. A try costs the window's work, not the problem's. It is kept when the
window's highest byte falls, so every kept try lowers a pool or leaves fewer buffers at
its top, and the plan only gets better. The tries, in turn:

- packing (`_packed_around`): the buffers meeting the setter's lifetime (a few hundred at
  most) packed exactly by the canonical search at their own max-live, pinned, and the
  rest of a window around them placed bottom-up among the pinned ones (`window_dive`). A
  window whose busiest time is packed at max-live cannot be beaten there;
- the portfolio's orders, then the squeaky wheel (the buffers that reached the old top
  first), widening the window, with up to `_ORDERS_SHARE` of the work;
- rounds of bottom-up dives (`window_dive`) by the dives' orders (`skyline`), then by
  shaken copies of them, widening the window up to `_MAX_WINDOW_MEMBERS`.

The orders alone (and the squeaky wheel) get stuck on a window: each places the window's
busiest time much as the plan did, since its buffers and their edges are the same. The
packing and the dives build the peak another way, bottom-up among the pinned buffers
(what each try gained on random traces is in BENCHMARKS.md, "Scaling").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from usmp_dialect.planning.algorithms.canonical_search import fit_in_pool, ranks_of, shaken
from usmp_dialect.planning.algorithms.placement import Fit, Geometry, geometry_of, place_in_order
from usmp_dialect.planning.algorithms.skyline import DIVE_KEYS
from usmp_dialect.planning.algorithms.window_dive import place_lowest_first
from usmp_dialect.planning.algorithms.work import (
    REPAIR_SECONDS_PER_ENTRY,
    REPAIR_SECONDS_PER_LOOKUP,
    REPAIR_SECONDS_PER_MEMBER,
    SEARCH_STEP_SECONDS,
    TimeCap,
)
from usmp_dialect.planning.conflicts import max_live
from usmp_dialect.planning.problem import Conflicts, Intervals, Problem, unique_values

_FIRST_HALF_WIDTH = 4
"""Time ranks the first window reaches beyond the setter's lifetime on each side."""
_MAX_WINDOW_MEMBERS = 800
"""A window stops widening past this many members: a window lowers by a better peak,
which a few hundred buffers around it decide, and a dive of a wider one pays tens of
lookups a member for the same gamble; the work goes further on other windows."""
_CORE_REACHES = (0, 8, 16, 32, 64, 96)
"""Time ranks a packed core reaches beyond the setter's lifetime, in turn: which core's
packing the rest of the window fits around is luck, so cores narrow (cheap to pack) to
wide (more of the peak fixed) are each a ticket."""
_MAX_CORE_MEMBERS = 400
"""The most buffers a core may have: the search packs cores of a couple of hundred buffers
at their max-live within `_CORE_STEPS`, and seldom larger ones, whose steps would be lost."""
_CORE_STEPS = 2_000_000
"""Search steps a core may take (9 ms): on random 64k-buffer traces, cores of 100-180
buffers packed at their max-live in 60k-160k."""
_ORDERS_SHARE = 0.4
"""The share of a repair's work its first round (the orders) may spend."""
_SQUEAKY_TRIES = 32
"""Squeaky-wheel tries after the fixed orders fail: on random 64k traces fewer, or wider
first windows, lowered fewer windows for the same work."""
_SEED = 0
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


WindowOrders = Callable[[Problem, Geometry], list[tuple[np.ndarray, Fit]]]
"""The orders (of all of a window's buffers) and fits to try on a window, best first."""

_MEMBER_LOOKUPS = REPAIR_SECONDS_PER_MEMBER / REPAIR_SECONDS_PER_LOOKUP
"""A member placed in an order costs this many gap lookups' work."""
_LOOKUP_STEPS = REPAIR_SECONDS_PER_LOOKUP / SEARCH_STEP_SECONDS
"""A gap lookup's work in steps of the canonical search."""
ENTRIES_PER_LOOKUP = int(REPAIR_SECONDS_PER_LOOKUP / REPAIR_SECONDS_PER_ENTRY)
"""The conflict list entries a gap lookup's price covers in a window's dive."""


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
    orders: WindowOrders,
    work: RepairWork,
    cap: TimeCap,
    dives: bool = True,
) -> np.ndarray:
    """`offset` with windows around each pool's top placed again while `work` lasts: the
    buffers at the top packed exactly (`_packed_around`, once a pool is lowered), else
    windows placed in `orders` first (at most `_ORDERS_SHARE` of the work), then by
    dives, round after round (`_round`). A pool is left alone once a round spends nothing
    (every window is held at its top by a buffer crossing its edges: seen before a dive is
    paid for). Without `dives`
    (buffers too long-lived for them: their windows are dense, and a gap lookup costs
    more than it is priced) only the orders try, with all the work."""
    offset = offset.copy()
    sizes = np.asarray(problem.sizes, dtype=np.int64)
    num_times = int(spans[1].max(initial=0))
    rounds = dict.fromkeys(unique_values(pool).tolist(), 0)
    orders_left = int(_ORDERS_SHARE * work.left) if dives else work.left
    rng = np.random.default_rng(_SEED)
    # Pools whose top the packing failed at since they were lowered (all, without dives).
    unpackable = set() if dives else set(rounds)
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
        around = PoolSpans(problem, spans, in_pool, num_times)
        if at not in unpackable:
            if _packed_around(around, offset, setter, work, cap):
                continue
            unpackable.add(at)
        tries = _round(rounds[at], orders, rng) if dives or rounds[at] == 0 else None
        if tries is None:
            rounds[at] = -1
            continue
        share = RepairWork(min(work.left, orders_left) if tries.orders else work.left)
        lowered = _lower_around(around, offset, setter, tries, share)
        work.spent += share.spent
        work.windows_lowered += share.windows_lowered
        if tries.orders:
            orders_left -= share.spent
        if lowered:
            unpackable.discard(at)
        else:
            rounds[at] = rounds[at] + 1 if share.spent or tries.orders else -1
    return offset


@dataclass(frozen=True)
class PoolSpans:
    """A pool's buffers with the problem's spans: where the tries around its top look."""

    problem: Problem
    spans: tuple[np.ndarray, np.ndarray]
    members: np.ndarray
    num_times: int


@dataclass(frozen=True)
class Tries:
    """What a round tries on each window around a pool's top."""

    orders: WindowOrders | None
    """The portfolio's orders, then the squeaky wheel on the best of them."""
    rng: np.random.Generator
    """The squeaky wheel's, one for the whole repair."""
    tickets: range
    """The dives, numbered (`_dived`)."""
    max_members: int
    """A window stops widening past this many members."""


def _round(number: int, orders: WindowOrders, rng: np.random.Generator) -> Tries:
    """Round 0 places windows in `orders` (a few placements of each window: cheaper than
    dives, and where they lower a window, dives need not); the later rounds dive,
    `_TICKETS_PER_ROUND` new dives each."""
    if number == 0:
        return Tries(orders, rng, range(0), np.iinfo(np.int64).max)
    tickets = range((number - 1) * _TICKETS_PER_ROUND, number * _TICKETS_PER_ROUND)
    return Tries(None, rng, tickets, _MAX_WINDOW_MEMBERS)


def _lower_around(
    pool: PoolSpans, offset: np.ndarray, setter: int, tries: Tries, work: RepairWork
) -> bool:
    """Lower the window around `setter` (in place in `offset`) by `tries`, widening it
    until one works, the window is the whole program or has too many members, or the
    work runs out."""
    problem, spans, in_pool, num_times = pool.problem, pool.spans, pool.members, pool.num_times
    half = _FIRST_HALF_WIDTH
    while work.left > 0:
        first = max(int(spans[0][setter]) - half, 0)
        last = min(int(spans[1][setter]) + half, num_times)
        window = window_around(problem, spans, in_pool, offset, first, last)
        if len(window.members) > min(work.left, tries.max_members):
            return False
        lowered = _lowered(window, offset[window.members], tries, work)
        if lowered is not None:
            offset[window.members] = lowered
            work.windows_lowered += 1
            return True
        if first == 0 and last == num_times:
            return False
        half *= 2
    return False


def _packed_around(
    pool: PoolSpans, offset: np.ndarray, setter: int, work: RepairWork, cap: TimeCap
) -> bool:
    """Lower the top at `setter` (in place in `offset`): the buffers meeting its lifetime
    (the core) packed by the canonical search at their max-live, pinned there, and the
    rest of a window around them dived (`_dived`): the window reaches 5/4 of the core's
    longest lifetime beyond it, so that buffers crossing its edges seldom meet the core."""
    problem, spans, in_pool, num_times = pool.problem, pool.spans, pool.members, pool.num_times
    span_start, span_end = spans
    for reach in _CORE_REACHES:
        first = int(span_start[setter]) - reach
        last = int(span_end[setter]) + reach
        live = span_end[in_pool] > span_start[in_pool]
        core = in_pool[live & (span_start[in_pool] < last) & (span_end[in_pool] > first)]
        if not 0 < len(core) <= _MAX_CORE_MEMBERS:
            return False
        core_first, core_last = int(span_start[core].min()), int(span_end[core].max())
        packing = window_around(problem, spans, core, offset, core_first, core_last)
        steps = min(_CORE_STEPS, int(work.left * _LOOKUP_STEPS))
        if steps <= 0:
            return False
        fits, packed, spent = fit_in_pool(
            packing.problem, np.arange(len(core)), max_live(packing.problem), steps, cap
        )
        work.spent += min(-(-spent // int(_LOOKUP_STEPS)), work.left)
        if not fits or packed is None:
            continue
        margin = int((span_end[core] - span_start[core]).max()) * 5 // 4
        first = max(core_first - margin, 0)
        last = min(core_last + margin, num_times)
        window = window_around(problem, spans, in_pool, offset, first, last)
        if len(window.members) > _MAX_WINDOW_MEMBERS:
            continue  # a long-lived buffer in the core: the window is most of the program
        pinned = _with_core(window, packing.members, packed)
        if pinned is None:
            continue
        old = highest(window, offset[window.members])
        crossing_tops = (offset[window.members] + window.problem.sizes)[window.pinned >= 0]
        if int(crossing_tops.max(initial=0)) == old[0]:
            continue  # a buffer crossing the edges reaches the top
        around = dataclasses.replace(window, pinned=pinned)
        lowered = _dived(around, old, range(len(DIVE_KEYS)), work)
        if lowered is not None:
            offset[window.members] = lowered
            work.windows_lowered += 1
            return True
    return False


def _with_core(window: Window, core: np.ndarray, packed: np.ndarray) -> np.ndarray | None:
    """The window's pinned offsets with the `core` buffers pinned at `packed` too, or None
    when one of them would overlap a buffer crossing the window's edges."""
    position = {buffer: index for index, buffer in enumerate(window.members.tolist())}
    at = np.array([position[buffer] for buffer in core.tolist()], dtype=np.int64)
    crossing = np.flatnonzero(window.pinned >= 0)
    geometry = window.geometry
    assert geometry.spans is not None
    start, end = geometry.spans
    sizes = window.problem.sizes
    low, high = window.pinned[crossing], window.pinned[crossing] + sizes[crossing]
    meets = (start[at][:, None] < end[crossing]) & (start[crossing] < end[at][:, None])
    overlaps = (packed[:, None] < high) & (low < (packed + sizes[at])[:, None])
    if (meets & overlaps & (sizes[at][:, None] > 0) & (sizes[crossing] > 0)).any():
        return None
    pinned = window.pinned.copy()
    pinned[at] = packed
    return pinned


def _lowered(
    window: Window, current: np.ndarray, tries: Tries, work: RepairWork
) -> np.ndarray | None:
    """The members' offsets from the first try that lowers the window's top (or leaves
    fewer members at it), or None."""
    old = highest(window, current)
    free = window.pinned < 0
    pinned_tops = (current + window.problem.sizes)[~free]
    if not free.any() or int(pinned_tops.max(initial=0)) == old[0]:
        return None  # a pinned buffer reaches the top: only a wider window can help
    if tries.orders is not None:
        return _ordered(window, old, tries.orders, tries.rng, work)
    return _dived(window, old, tries.tickets, work)


def _ordered(
    window: Window,
    old: tuple[int, int],
    orders: WindowOrders,
    rng: np.random.Generator,
    work: RepairWork,
) -> np.ndarray | None:
    """The members' offsets from the first of `orders` (of the free members, after the
    pinned ones), then of the best one's squeaky-wheel variants, that lowers the window
    below `old`, or None."""
    free = window.pinned < 0
    best: tuple[tuple[int, int], np.ndarray, Fit, np.ndarray] | None = None
    for sequence, fit in orders(window.problem, window.geometry):
        free_order = sequence[free[sequence]]
        offsets = _placed(window, free_order, fit, work)
        if offsets is None:
            return None
        score = highest(window, offsets)
        if score < old:
            return offsets
        if best is None or score < best[0]:
            best = (score, free_order, fit, offsets)
    assert best is not None
    _, free_order, fit, offsets = best
    for _ in range(_SQUEAKY_TRIES):
        free_order = _squeaked(window, free_order, offsets, old[0], rng)
        offsets = _placed(window, free_order, fit, work)
        if offsets is None:
            return None
        if highest(window, offsets) < old:
            return offsets
    return None


def _placed(
    window: Window, free_order: np.ndarray, fit: Fit, work: RepairWork
) -> np.ndarray | None:
    """The members' offsets with the pinned ones kept and the free ones (member indices)
    placed after them in `free_order`, or None when the work is short of it."""
    cost = int(len(window.members) * _MEMBER_LOOKUPS)
    if work.left < cost:
        return None
    work.spent += cost
    order = np.concatenate((np.flatnonzero(window.pinned >= 0), free_order))
    return place_in_order(window.problem, window.geometry, order, fit, window.pinned).offset


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


def _dived(
    window: Window, old: tuple[int, int], tickets: range, work: RepairWork
) -> np.ndarray | None:
    """The members' offsets from the first dive of `tickets` that lowers the window below
    `old`, or None. The dives pay for the window's members, once they run."""
    sub, geometry = window.problem, window.geometry
    if len(window.members) > work.left:
        return None
    work.spent += len(window.members)
    assert geometry.spans is not None
    span_start, span_end = (np.asarray(s, dtype=np.int64) for s in geometry.spans)
    sizes = np.asarray(sub.sizes, dtype=np.int64)
    alignments = np.maximum(np.asarray(sub.alignments, dtype=np.int64), 1)
    ranks = [ranks_of(tuple(keys(sub, geometry))) for keys in DIVE_KEYS.values()]
    for ticket in tickets:
        rank = ranks[ticket % len(ranks)]
        if ticket >= len(ranks):
            rank = shaken(rank, ticket, _TICKET_NOISE)
        offsets, spent, placed = place_lowest_first(
            span_start,
            span_end,
            sizes,
            alignments,
            rank,
            window.pinned,
            old[0],
            work.left,
            ENTRIES_PER_LOOKUP,
        )
        work.spent += spent
        if placed and highest(window, offsets) < old:
            return offsets
    return None
