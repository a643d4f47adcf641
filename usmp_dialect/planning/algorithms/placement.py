"""Placing buffers one at a time, in a given order, at the lowest (or tightest) free offset.

This is the engine under the `default` portfolio and the incumbent of `exact`. When every
buffer has one live interval, the placed buffers are kept in a segment tree over time
(`placement_kernel`): memory stays linear in the buffers (a 62k-buffer trace has 180M
conflicting pairs) and a placement costs O(log T) set operations plus a step per gap it
passes, not a scan over every placed buffer. Other problems (several intervals per buffer,
or explicit conflicts) read the blockers from the symmetric conflict lists.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from usmp_dialect.planning.algorithms.placement_kernel import (
    ARENA_SLOTS_PER_BUFFER,
    NO_HINT,
    PENDING_FROM,
    place_spans,
)
from usmp_dialect.planning.conflicts import symmetric_conflicts
from usmp_dialect.planning.problem import Plan, PlanningError, Problem, unique_values
from usmp_dialect.planning.size_hints import out_of_space


class PlacementFailure(PlanningError):
    """A placement's out-of-space error, with the pool of each buffer placed before the
    one that found no room (-1 for the others)."""

    def __init__(self, error: PlanningError, pool: np.ndarray):
        super().__init__(str(error), error.buffer)
        self.pool = pool


class Fit(Enum):
    FIRST = "first-fit"
    """The lowest offset where the buffer fits."""
    BEST = "best-fit"
    """The smallest gap the buffer fits in (of the lowest `gaps_compared_in` such gaps);
    the pool's top only when no gap fits."""


BOUNDED_BEST_FIT_PAIRS = 2**28
"""Past this many conflicting pairs, best fit compares the lowest `BEST_FIT_GAPS` gaps that
hold a buffer, not all of them. Comparing every one is quadratic on dense traces (about n/80
gaps hold a buffer there, a best-fit order walks about 0.32 gaps a pair: 440M steps, 11.7
CPU s, at 64k buffers and 1.37G pairs); every benchmark instance has at most 180M pairs
(Y_1, whose order walks 20M steps) and dense traces below about 28k buffers stay under it,
so their plans are those of exact best fit. Dense 64k and 256k traces end nearer max-live
with the bound (figures in BENCHMARKS.md, "Scaling")."""

BEST_FIT_GAPS = 64
"""The fitting gaps a bounded best fit compares: a dense 64k best-fit order walked 119M /
134M / 186M steps with 32 / 64 / 256 (1.00496x / 1.00512x / 1.00530x max-live, 1.00532x
comparing all), a dense 16k one the same plan size as exact best fit with 64 (1.00451x)."""


def gaps_compared_in(geometry: Geometry) -> int:
    """How many fitting gaps best fit compares for a buffer of a problem like `geometry`."""
    if float(geometry.degree.sum()) / 2 > BOUNDED_BEST_FIT_PAIRS:
        return BEST_FIT_GAPS
    return int(NO_HINT)


@dataclass(frozen=True)
class Geometry:
    """What placement needs to know about who conflicts with whom, computed once."""

    span_start: np.ndarray | None
    """Per buffer, the rank of the start of its single live interval (`None` when some
    buffer has several intervals or there are no intervals)."""
    span_end: np.ndarray | None
    neighbours: tuple[np.ndarray, np.ndarray] | None
    """Symmetric conflict lists `(indptr, indices)`, when there are no single spans."""
    start: np.ndarray
    """Per buffer, a time its lifetime starts at (ranks; 0 without intervals)."""
    length: np.ndarray
    """Per buffer, how many distinct time points its lifetime covers."""
    degree: np.ndarray
    """Per buffer, how many buffers it conflicts with."""
    pressure: np.ndarray
    """Per buffer, the most bytes live at one time during its lifetime (its own size
    without intervals)."""

    @property
    def spans(self) -> tuple[np.ndarray, np.ndarray] | None:
        """`(span_start, span_end)`, when every buffer has a single span."""
        if self.span_start is None or self.span_end is None:
            return None
        return self.span_start, self.span_end

    @property
    def has_spans(self) -> bool:
        return self.spans is not None

    def neighbours_of(self, buffer: int) -> np.ndarray:
        assert self.neighbours is not None
        indptr, indices = self.neighbours
        return indices[indptr[buffer] : indptr[buffer + 1]]

    def conflicting(self, buffer: int) -> np.ndarray:
        """The buffers whose lifetimes meet `buffer`'s."""
        if self.spans is None:
            return self.neighbours_of(buffer)
        span_start, span_end = self.spans
        start, end = span_start[buffer], span_end[buffer]
        if end <= start:
            return np.empty(0, dtype=np.intp)
        live = np.flatnonzero((span_start < end) & (span_end > start))
        return live[live != buffer]


def lifetime_area(problem: Problem, geometry: Geometry) -> np.ndarray:
    """Per buffer, its bytes times its lifetime's length: its area in a plan's picture."""
    return problem.sizes.astype(np.float64) * geometry.length


def geometry_of(problem: Problem) -> Geometry:
    spans = single_spans(problem)
    if spans is not None:
        return _span_geometry(problem, *spans)
    return _graph_geometry(problem)


def single_spans(problem: Problem) -> tuple[np.ndarray, np.ndarray] | None:
    """Per buffer `(start, end)` time ranks of its one non-empty live interval, or `None`
    when a buffer has several; a buffer without any gets an empty span that meets nothing.
    Ranks keep the scans on small integers and equal times equal."""
    intervals = problem.intervals
    if intervals is None:
        return None
    owner = np.asarray(intervals.owner, dtype=np.int64)
    start = np.asarray(intervals.start, dtype=np.int64)
    end = np.asarray(intervals.end, dtype=np.int64)
    live = end > start
    owner, start, end = owner[live], start[live], end[live]
    if np.bincount(owner, minlength=problem.num_buffers).max(initial=0) > 1:
        return None
    _, ranks = np.unique(np.concatenate((start, end)), return_inverse=True)
    span_start = np.zeros(problem.num_buffers, dtype=np.int32)
    span_end = np.zeros(problem.num_buffers, dtype=np.int32)
    span_start[owner] = ranks[: len(owner)]
    span_end[owner] = ranks[len(owner) :]
    return span_start, span_end


def _span_geometry(problem: Problem, span_start: np.ndarray, span_end: np.ndarray) -> Geometry:
    starts = np.sort(span_start)
    ends = np.sort(span_end)
    nonempty = span_end > span_start
    # Intervals overlapping [s, e): those starting before e minus those ending by s.
    degree = np.searchsorted(starts, span_end, "left") - np.searchsorted(ends, span_start, "right")
    degree = np.where(nonempty, degree - 1, 0)
    return Geometry(
        span_start=span_start,
        span_end=span_end,
        neighbours=None,
        start=span_start.astype(np.int64),
        length=(span_end - span_start).astype(np.int64),
        degree=degree.astype(np.int64),
        pressure=_span_pressure(problem.sizes, span_start, span_end),
    )


def _span_pressure(sizes: np.ndarray, span_start: np.ndarray, span_end: np.ndarray) -> np.ndarray:
    """The live bytes at the busiest time of each buffer's lifetime (MiniMalloc's "total"
    preordering key): range maxima over the live-bytes profile from a sparse table."""
    num_times = int(max(span_end.max(initial=0), 1))
    sizes = np.asarray(sizes, dtype=np.int64)
    change = np.zeros(num_times + 1, dtype=np.int64)
    np.add.at(change, span_start, sizes)
    np.add.at(change, span_end, -sizes)
    # table[k][t] is the maximum over times [t, t + 2**k).
    table = [np.cumsum(change)[:num_times]]
    while 1 << len(table) <= num_times:
        half = 1 << (len(table) - 1)
        table.append(np.maximum(table[-1][:-half], table[-1][half:]))
    start = span_start.astype(np.int64)
    length = (span_end - span_start).astype(np.int64)
    pressure = sizes.copy()
    live = length > 0
    level = np.zeros(len(sizes), dtype=np.int64)
    level[live] = np.floor(np.log2(length[live])).astype(np.int64)
    for k in unique_values(level[live]).tolist():
        chosen = live & (level == k)
        lower = table[k][start[chosen]]
        upper = table[k][start[chosen] + length[chosen] - (1 << k)]
        pressure[chosen] = np.maximum(lower, upper)
    return pressure


def _graph_geometry(problem: Problem) -> Geometry:
    neighbours = symmetric_conflicts(problem.conflicts)
    degree = neighbours.counts()
    start = np.zeros(problem.num_buffers, dtype=np.int64)
    length = np.ones(problem.num_buffers, dtype=np.int64)
    if problem.intervals is not None:
        intervals = problem.intervals
        owner = np.asarray(intervals.owner, dtype=np.int64)
        live = intervals.end > intervals.start
        start = np.full(problem.num_buffers, np.iinfo(np.int64).max, dtype=np.int64)
        np.minimum.at(start, owner[live], intervals.start[live])
        start = np.where(start == np.iinfo(np.int64).max, 0, start)
        np.add.at(length, owner[live], (intervals.end - intervals.start)[live])
    return Geometry(
        span_start=None,
        span_end=None,
        neighbours=(neighbours.indptr, neighbours.indices),
        start=start,
        length=length,
        degree=degree,
        pressure=np.asarray(problem.sizes, dtype=np.int64).copy(),
    )


def gap_starts(
    offsets: np.ndarray, tops: np.ndarray, size: int, alignment: int
) -> tuple[np.ndarray, np.ndarray]:
    """`(start, room)` of every aligned gap that holds `size` bytes among blocks occupying
    `[offset, top)`, lowest first; the last is the unbounded space above all blocks.

    Below block k (in offset order) and above every block before it the bytes are free, so
    the gaps are `[running max of earlier tops, offset of k)`.
    """
    by_offset = np.argsort(offsets, kind="stable")
    start = np.zeros(len(offsets) + 1, dtype=np.int64)
    np.maximum.accumulate(tops[by_offset], out=start[1:])
    if alignment > 1:
        start = -(-start // alignment) * alignment
    end = np.append(offsets[by_offset], np.iinfo(np.int64).max)
    room = end - start
    holds = np.flatnonzero(room >= size)
    return start[holds], room[holds]


def lowest_fit(
    blocker_offsets: np.ndarray,
    blocker_tops: np.ndarray,
    size: int,
    alignment: int,
    fit: Fit,
    gaps_compared: int = int(NO_HINT),
) -> int:
    """The offset for a buffer of `size` bytes among blockers occupying
    `[offset, top)`: the lowest free aligned one, or the one in the tightest of the lowest
    `gaps_compared` gaps below the top."""
    if len(blocker_offsets) == 0 or size == 0:
        return 0
    starts, room = gap_starts(blocker_offsets, blocker_tops, size, alignment)
    compared = min(len(starts) - 1, gaps_compared)
    if fit is Fit.BEST and compared > 0:
        return int(starts[np.argmin(room[:compared])])
    return int(starts[0])


def place_in_order(
    problem: Problem,
    geometry: Geometry,
    order: np.ndarray,
    fit: Fit,
    pinned: np.ndarray | None = None,
    gaps_compared: int | None = None,
) -> Plan:
    """Each buffer in `order` goes to its first candidate pool where it fits under the
    pool's size hint; best fit compares `gaps_compared` fitting gaps (by default
    `gaps_compared_in(geometry)`). Raises the out-of-space error for the first buffer that fits in
    none. With single spans, a buffer whose `pinned` offset is not -1 stays at that offset
    in its first candidate pool: it must overlap no other buffer placed there; the plan's
    notes then say the gap search's steps and the sets written (`placement_steps`,
    `placement_writes`: its work, `work`)."""
    notes: dict[str, object] = {}
    if gaps_compared is None:
        gaps_compared = gaps_compared_in(geometry)
    if geometry.spans is not None:
        if pinned is None:
            pinned = np.full(problem.num_buffers, -1, dtype=np.int64)
        pool, offset, failed, steps, writes = _place_spans(
            problem, geometry.spans, order, fit, pinned, gaps_compared
        )
        notes["placement_steps"] = steps
        notes["placement_writes"] = writes
    else:
        assert pinned is None, "pinned offsets need single spans"
        pool, offset, failed = _place_by_conflict_lists(
            problem, geometry, order, fit, gaps_compared
        )
    if failed >= 0:
        needed = _bytes_needed(problem, geometry, pool, offset, failed)
        raise PlacementFailure(out_of_space(problem, failed, "default", needed), pool)
    return Plan(pool=pool, offset=offset, notes=notes)


def _bytes_needed(
    problem: Problem, geometry: Geometry, pool_of: np.ndarray, offset_of: np.ndarray, buffer: int
) -> dict[int, int]:
    """Per candidate pool of a buffer that fit in none, the size that pool would need to
    take it at its lowest gap among the buffers placed before it (for the error)."""
    neighbours = geometry.conflicting(buffer)
    sizes = np.asarray(problem.sizes, dtype=np.int64)
    size = int(sizes[buffer])
    needed = {}
    for pool in problem.candidates[buffer]:
        placed = neighbours[pool_of[neighbours] == pool]
        offsets = offset_of[placed]
        alignment = int(problem.alignments[buffer])
        needed[pool] = lowest_fit(offsets, offsets + sizes[placed], size, alignment, Fit.FIRST)
        needed[pool] += size
    return needed


def _place_spans(
    problem: Problem,
    spans: tuple[np.ndarray, np.ndarray],
    order: np.ndarray,
    fit: Fit,
    pinned: np.ndarray,
    gaps_compared: int,
) -> tuple[np.ndarray, np.ndarray, int, int, int]:
    candidates = problem.candidates
    indptr = np.zeros(problem.num_buffers + 1, dtype=np.int64)
    np.cumsum([len(c) for c in candidates], out=indptr[1:])
    pools = np.fromiter((p for c in candidates for p in c), dtype=np.int64, count=indptr[-1])
    hints = np.array(
        [NO_HINT if pool.size_hint is None else pool.size_hint for pool in problem.pools],
        dtype=np.int64,
    )
    pool, offset, failed, steps, writes = place_spans(
        spans[0].astype(np.int64),
        spans[1].astype(np.int64),
        np.asarray(problem.sizes, dtype=np.int64),
        np.maximum(np.asarray(problem.alignments, dtype=np.int64), 1),
        np.asarray(order, dtype=np.int64),
        fit is Fit.BEST,
        indptr,
        pools,
        hints,
        len(problem.pools),
        np.asarray(pinned, dtype=np.int64),
        ARENA_SLOTS_PER_BUFFER * problem.num_buffers,
        gaps_compared,
        PENDING_FROM,
    )
    return pool, offset, int(failed), int(steps), int(writes)


def _place_by_conflict_lists(
    problem: Problem, geometry: Geometry, order: np.ndarray, fit: Fit, gaps_compared: int
) -> tuple[np.ndarray, np.ndarray, int]:
    """The placed conflicts of each buffer from its list, their gaps found by a sort."""
    sizes = np.asarray(problem.sizes, dtype=np.int64)
    pool_of = np.full(problem.num_buffers, -1, dtype=np.int64)
    offset_of = np.zeros(problem.num_buffers, dtype=np.int64)
    hints = [pool.size_hint for pool in problem.pools]
    alignments = problem.alignments.tolist()
    for buffer in order.tolist():
        size = int(sizes[buffer])
        neighbours = geometry.neighbours_of(buffer)
        for pool in problem.candidates[buffer]:
            placed = neighbours[pool_of[neighbours] == pool]
            offsets = offset_of[placed]
            offset = lowest_fit(
                offsets, offsets + sizes[placed], size, alignments[buffer], fit, gaps_compared
            )
            hint = hints[pool]
            if hint is None or offset + size <= hint:
                pool_of[buffer] = pool
                offset_of[buffer] = offset
                break
        else:
            return pool_of, offset_of, buffer
    return pool_of, offset_of, -1
