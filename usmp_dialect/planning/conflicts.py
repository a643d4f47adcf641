"""Conflicts and the max-live lower bound, computed from live intervals.

Intervals are half-open `[start, end)`: one that ends at `t` and one that starts at `t` do
not overlap, and an empty interval (`end <= start`) overlaps nothing. Everything here is
vectorised with numpy: the 62k-buffer Y_1 trace (360M conflict entries) takes ~5 s.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from usmp_dialect.planning.problem import (
    Conflicts,
    Intervals,
    Plan,
    Problem,
    distinct_sorted,
    unique_values,
)

_BLOCK_ROWS = 256
"""Buffers whose overlaps are computed together: large enough that numpy's per-call cost
vanishes, small enough that a block's overlap matrix stays a few megabytes."""

_CLIQUE_SEEDS = 256
"""How many buffers `max_live` grows a greedy clique from when there are no intervals:
any clique is a valid lower bound, so the cap only trades tightness for time."""


def conflicts_from_intervals(intervals: Intervals, num_buffers: int) -> Conflicts:
    """The symmetric conflict lists of buffers whose intervals overlap.

    Each list is sorted by buffer index, holds no duplicates (a buffer may own several
    intervals) and never the buffer itself. Indices are 32-bit when the buffers allow.
    """
    spans = _Spans.of(intervals)
    degrees = (
        _degrees_of_single_spans(spans, num_buffers)
        if spans.one_per_owner
        else _degrees_by_rows(spans, num_buffers)
    )
    indptr = np.zeros(num_buffers + 1, dtype=np.int64)
    np.cumsum(degrees, out=indptr[1:])
    indices = np.empty(int(indptr[-1]), dtype=_index_dtype(num_buffers))
    for row, conflicting in _conflict_rows(spans):
        indices[indptr[row] : indptr[row + 1]] = conflicting
    return Conflicts(indptr, indices)


def _index_dtype(num_buffers: int) -> type[np.signedinteger]:
    # Conflict lists dominate a large problem's memory (a 62k-buffer trace has 360M
    # entries); 32-bit indices halve them and the time spent writing them.
    return np.int32 if num_buffers <= np.iinfo(np.int32).max else np.int64


@dataclass(frozen=True)
class _Spans:
    """Each buffer's intervals merged into disjoint ones, sorted by owner and start."""

    owner: np.ndarray
    start: np.ndarray
    end: np.ndarray
    one_per_owner: bool

    @staticmethod
    def of(intervals: Intervals) -> _Spans:
        # Who conflicts with whom depends only on the union of each buffer's intervals.
        owner, start, end = _merge_per_owner(intervals)
        return _Spans(owner, start, end, bool(np.all(owner[1:] != owner[:-1])))


def _degrees_of_single_spans(spans: _Spans, num_buffers: int) -> np.ndarray:
    """With one interval per buffer, `j` overlaps `i` exactly when `j` starts before `i`
    ends and does not end by the time `i` starts; the second set lies inside the first."""
    starts = np.sort(spans.start)
    ends = np.sort(spans.end)
    overlapping = (
        np.searchsorted(starts, spans.end, side="left")
        - np.searchsorted(ends, spans.start, side="right")
        - 1
    )
    degrees = np.zeros(num_buffers, dtype=np.int64)
    degrees[spans.owner] = overlapping
    return degrees


def _degrees_by_rows(spans: _Spans, num_buffers: int) -> np.ndarray:
    degrees = np.zeros(num_buffers, dtype=np.int64)
    for row, conflicting in _conflict_rows(spans):
        degrees[row] = len(conflicting)
    return degrees


def _conflict_rows(spans: _Spans) -> Iterator[tuple[int, np.ndarray]]:
    """`(buffer, its conflicts sorted)` for every buffer with an interval."""
    for rows, row_begin, columns, overlaps in _overlap_blocks(spans):
        row_end = np.r_[row_begin[1:], len(overlaps)]
        for row, begin, end in zip(
            rows.tolist(), row_begin.tolist(), row_end.tolist(), strict=True
        ):
            if spans.one_per_owner:
                yield row, columns[overlaps[begin]]
                continue
            # A buffer met through several of its intervals repeats in a row.
            yield row, distinct_sorted(columns[overlaps[begin:end].any(axis=0)])


def _overlap_blocks(
    spans: _Spans,
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """`(rows, row_begin, columns, overlaps)` for blocks of buffers that cover every buffer
    with an interval once: the intervals of buffer `rows[k]` are the rows of `overlaps`
    from `row_begin[k]` on, and `overlaps[i, c]` tells whether that interval overlaps one
    of buffer `columns[c]` (sorted; its own intervals left out).

    Buffers are taken in order of their first start, so a block spans a short time window
    and its columns are only the intervals in that window: the work is close to the number
    of conflicts rather than the square of the number of buffers.
    """
    if not len(spans.owner):
        return
    group_begin = np.flatnonzero(np.r_[True, spans.owner[1:] != spans.owner[:-1]])
    group_end = np.r_[group_begin[1:], len(spans.owner)]
    by_first_start = np.argsort(spans.start[group_begin], kind="stable")
    for first in range(0, len(by_first_start), _BLOCK_ROWS):
        groups = by_first_start[first : first + _BLOCK_ROWS]
        lengths = group_end[groups] - group_begin[groups]
        row_begin = np.cumsum(lengths) - lengths
        row_spans = np.repeat(group_begin[groups] - row_begin, lengths)
        row_spans += np.arange(len(row_spans))
        row_start, row_end = spans.start[row_spans], spans.end[row_spans]
        window = np.flatnonzero((spans.start < row_end.max()) & (spans.end > row_start.min()))
        rows = spans.owner[group_begin[groups]]
        columns = spans.owner[window]
        overlaps = (
            (row_start[:, None] < spans.end[window])
            & (row_end[:, None] > spans.start[window])
            & (columns != np.repeat(rows, lengths)[:, None])
        )
        yield rows, row_begin, columns, overlaps


def max_live(problem: Problem) -> int:
    """A lower bound on the total pool size of every plan of `problem`.

    With intervals, it is the largest sum of sizes of buffers live at one time (a buffer
    counted once however many of its intervals cover that time): the buffers live at one
    time pairwise conflict, so even spread over several pools they need that many bytes.
    Conflicts given on top of the intervals only raise the true optimum, so the bound
    stays valid.

    Without intervals (explicit conflicts only), it is the heaviest of the cliques grown
    greedily, heaviest buffer first, from the `_CLIQUE_SEEDS` buffers with the most weight
    among their conflicts (either direction of the lists): the buffers of a clique must
    occupy disjoint bytes, so any clique's weight is a lower bound. It is never below the
    largest buffer.
    """
    return _max_live(problem, np.asarray(problem.sizes, dtype=np.int64))


def max_live_of(problem: Problem, sizes: np.ndarray) -> int:
    """`max_live` with the buffers weighed by `sizes` (0 leaves a buffer out)."""
    return _max_live(problem, np.asarray(sizes, dtype=np.int64))


def max_live_by_group(
    problem: Problem, buffers: np.ndarray, groups: np.ndarray, num_groups: int
) -> np.ndarray:
    """Per group, `max_live` of its buffers, where `buffers[k]` belongs to `groups[k]` (a
    buffer may be in several groups): with intervals, one sweep over all groups at once,
    so that thousands of groups cost what one does."""
    buffers = np.asarray(buffers, dtype=np.int64)
    groups = np.asarray(groups, dtype=np.int64)
    sizes = np.asarray(problem.sizes, dtype=np.int64)
    largest = np.zeros(num_groups, dtype=np.int64)
    np.maximum.at(largest, groups, sizes[buffers])
    intervals = _intervals(problem)
    if intervals is None:
        neighbours = symmetric_conflicts(problem.conflicts)
        for group in unique_values(groups).tolist():
            members = buffers[groups == group]
            weights = np.zeros(problem.num_buffers, dtype=np.int64)
            weights[members] = sizes[members]
            largest[group] = _greedy_clique_weight(neighbours, weights)
        return largest
    owner, start, end = _merge_per_owner(intervals)
    first = np.searchsorted(owner, np.arange(problem.num_buffers + 1))
    count = np.diff(first)[buffers]
    # Each (group, buffer) pair takes every merged interval of its buffer.
    pair = np.repeat(np.arange(len(buffers)), count)
    span = np.repeat(first[buffers] - np.cumsum(count) + count, count) + np.arange(len(pair))
    if len(span) == 0:
        return largest
    times, rank = np.unique(np.concatenate((start[span], end[span])), return_inverse=True)
    group_of = np.tile(groups[pair], 2)
    weight = sizes[buffers[pair]]
    keys, slot = np.unique(group_of * len(times) + rank, return_inverse=True)
    change = np.zeros(len(keys), dtype=np.int64)
    # Changes at one time summed before the running total: the intervals are half-open.
    # Every group's changes add up to zero, so one running total serves all groups.
    np.add.at(change, slot, np.concatenate((weight, -weight)))
    live = np.cumsum(change)
    key_group = keys // len(times)
    group_begin = np.flatnonzero(np.r_[True, key_group[1:] != key_group[:-1]])
    peaks = np.maximum.reduceat(live, group_begin)
    np.maximum.at(largest, key_group[group_begin], peaks)
    return largest


def live_at_peak(problem: Problem, buffers: np.ndarray) -> np.ndarray:
    """Those of `buffers` live at the time the most of their bytes are (all of them
    without intervals: a clique is not a time)."""
    buffers = np.asarray(buffers, dtype=np.int64)
    intervals = _intervals(problem)
    if intervals is None:
        return buffers
    owner, start, end = _merge_per_owner(intervals)
    mine = np.isin(owner, buffers)
    owner, start, end = owner[mine], start[mine], end[mine]
    if len(owner) == 0:
        return buffers
    weight = np.asarray(problem.sizes, dtype=np.int64)[owner]
    times, slot = np.unique(np.concatenate((start, end)), return_inverse=True)
    change = np.zeros(len(times), dtype=np.int64)
    np.add.at(change, slot, np.concatenate((weight, -weight)))
    peak = times[int(np.argmax(np.cumsum(change)))]
    return unique_values(owner[(start <= peak) & (end > peak)])


def max_live_per_pool(problem: Problem, plan: Plan) -> np.ndarray:
    """`max_live` of the buffers that `plan` put in each pool: a lower bound on that
    pool's size under the plan's assignment of buffers to pools."""
    bounds = np.zeros(len(problem.pools), dtype=np.int64)
    pool = np.asarray(plan.pool, dtype=np.int64)
    sizes = np.asarray(problem.sizes, dtype=np.int64)
    neighbours = None if _intervals(problem) else symmetric_conflicts(problem.conflicts)
    for index in unique_values(pool).tolist():
        bounds[index] = _max_live(problem, np.where(pool == index, sizes, 0), neighbours)
    return bounds


def _intervals(problem: Problem) -> Intervals | None:
    """The problem's live intervals, or None when it has only a conflict list."""
    intervals = problem.intervals
    return intervals if intervals is not None and len(intervals.owner) > 0 else None


def _max_live(
    problem: Problem,
    sizes: np.ndarray,
    neighbours: Conflicts | None = None,
) -> int:
    intervals = _intervals(problem)
    if intervals is not None:
        return _max_live_of(intervals, sizes)
    if neighbours is None:
        neighbours = symmetric_conflicts(problem.conflicts)
    return _greedy_clique_weight(neighbours, sizes)


def _max_live_of(intervals: Intervals, sizes: np.ndarray) -> int:
    largest = int(np.max(sizes, initial=0))
    owner, start, end = _merge_per_owner(intervals)
    if len(owner) == 0:
        return largest
    weight = np.asarray(sizes, dtype=np.int64)[owner]
    times, slot = np.unique(np.concatenate((start, end)), return_inverse=True)
    # Summing every change at one time before taking the running total treats the
    # intervals as half-open: what ends at t is gone when what starts at t arrives.
    change = np.zeros(len(times), dtype=np.int64)
    np.add.at(change, slot, np.concatenate((weight, -weight)))
    # A buffer never live still needs its bytes somewhere.
    return max(int(np.cumsum(change).max()), largest)


def _merge_per_owner(intervals: Intervals) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each buffer's intervals merged into disjoint ones (sorted by owner and start), so
    that a buffer whose intervals overlap is counted once; empty intervals are dropped."""
    owner = np.asarray(intervals.owner, dtype=np.int64)
    start = np.asarray(intervals.start, dtype=np.int64)
    end = np.asarray(intervals.end, dtype=np.int64)
    keep = end > start
    owner, start, end = owner[keep], start[keep], end[keep]
    if len(owner) == 0:
        return owner, start, end
    order = np.lexsort((start, owner))
    owner, start, end = owner[order], start[order], end[order]
    # The furthest end reached so far within each owner's run, by one running maximum over
    # keys that put each owner in its own band (times ranked to keep the keys small).
    times, rank = np.unique(np.concatenate((start, end)), return_inverse=True)
    end_rank = rank[len(start) :]
    band = np.int64(len(times))
    reach = np.maximum.accumulate(owner * band + end_rank) - owner * band
    start_rank = rank[: len(start)]
    same_owner = np.concatenate(([False], owner[1:] == owner[:-1]))
    continues = same_owner & (start_rank <= np.concatenate(([0], reach[:-1])))
    run_begin = np.flatnonzero(~continues)
    run_end = np.maximum.reduceat(end, run_begin)
    return owner[run_begin], start[run_begin], run_end


def _greedy_clique_weight(neighbours: Conflicts, weights: np.ndarray) -> int:
    if len(weights) == 0:
        return 0
    indptr, indices = neighbours.indptr, neighbours.indices
    source = np.repeat(np.arange(len(weights)), np.diff(indptr))
    # Seeds: the buffers with the most weight around them, where heavy cliques can be.
    around = weights + np.bincount(source, weights=weights[indices], minlength=len(weights)).astype(
        np.int64
    )
    seeds = np.argsort(-around, kind="stable")[:_CLIQUE_SEEDS]
    best = int(weights.max())
    for seed in seeds.tolist():
        candidates = indices[indptr[seed] : indptr[seed + 1]]
        candidates = candidates[np.lexsort((candidates, -weights[candidates]))]
        # Take the heaviest candidate that conflicts with the whole clique so far, then
        # keep only the candidates that conflict with it too.
        extendable = weights[candidates] > 0
        weight = int(weights[seed])
        while extendable.any():
            chosen = int(candidates[np.argmax(extendable)])
            weight += int(weights[chosen])
            chosen_neighbours = indices[indptr[chosen] : indptr[chosen + 1]]
            extendable &= np.isin(candidates, chosen_neighbours)
        best = max(best, weight)
    return best


def conflicts_either_direction(problem: Problem) -> Conflicts:
    """Who may not share a byte with whom: the conflict lists closed under symmetry,
    sorted, without duplicates or self conflicts.

    Lists that came from intervals are symmetric already (`conflicts_from_intervals` and
    the IR's problem builder make them so) and are returned as they are: closing 360M
    entries would cost more than any algorithm using them. One-sided lists, as TVM's
    tests give them, are closed."""
    if problem.intervals is not None:
        return problem.conflicts
    return symmetric_conflicts(problem.conflicts)


def symmetric_conflicts(conflicts: Conflicts) -> Conflicts:
    """The lists closed under symmetry, each sorted, without duplicates or self
    conflicts."""
    num_buffers = len(conflicts.indptr) - 1
    source = np.repeat(np.arange(num_buffers, dtype=np.int64), conflicts.counts())
    target = np.asarray(conflicts.indices, dtype=np.int64)
    distinct = source != target
    source, target = source[distinct], target[distinct]
    return conflicts_from_pairs(
        num_buffers, np.concatenate((source, target)), np.concatenate((target, source))
    )


def conflicts_from_pairs(num_buffers: int, source: np.ndarray, target: np.ndarray) -> Conflicts:
    """The lists holding `target[k]` in the list of `source[k]`, each sorted and without
    duplicates; a caller wanting symmetric lists passes both directions of a pair."""
    keys = unique_values(source * num_buffers + target)
    rows, columns = np.divmod(keys, max(num_buffers, 1))
    indptr = np.zeros(num_buffers + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=num_buffers), out=indptr[1:])
    return Conflicts(indptr, columns)
