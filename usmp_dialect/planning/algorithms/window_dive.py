"""A bottom-up dive among pinned buffers: how a repair window (`repair`) is placed again.

The dive of `skyline` puts each buffer on top of the skyline over its lifetime, which is
right when nothing is placed yet. A repair window keeps the buffers crossing its edges
where they are, at any height, and a skyline would waste every hole below them; here a
buffer's place is its lowest gap among the placed buffers it meets (first fit), and the
buffer that can sit lowest goes next, ties by a static rank, as in the dive. On random
64k-buffer traces this lowers windows around the peak where the portfolio's orders (first
and best fit, squeaky wheel) lowered none: a peak window packed bottom-up is the dive's
plan of that peak, with the window's edges as they are.

A gap only closes as buffers are placed, so a buffer's last computed offset is a lower
bound of its next: buffers wait in a heap by it, and a popped buffer whose gap moved up
goes back with the new offset (as in `skyline`). A window is small (hundreds to a few
thousand buffers), so its conflict lists are built from the spans.
"""

from __future__ import annotations

import numpy as np

from usmp_dialect.planning.algorithms.kernel import kernel
from usmp_dialect.planning.algorithms.skyline import heap_pop, heap_push


@kernel
def place_lowest_first(
    span_start, span_end, sizes, alignments, rank, pinned, ceiling, max_work, entries_per_lookup
):
    """Each buffer's offset: a pinned one (`pinned` not -1) at its pinned offset, the others
    lowest-sitting first, ties by `rank`, each in its lowest gap among the placed buffers
    it meets, aligned up; the work done, in gap lookups (one per placement and one per
    return to the heap), or in conflict list entries built, read and moved by
    `_lowest_gap`, `entries_per_lookup` to a lookup, when they come to more (a lookup's
    price covers that many); and whether every buffer was placed: the dive stops when a
    buffer would reach above `ceiling`, or once `max_work` is done (the work reported is at
    most `max_work`: the last lookup's overrun, one buffer's neighbours, goes uncharged)."""
    n = len(sizes)
    nb_ptr, nb_idx = _neighbours(span_start, span_end)
    most = 1
    for buffer in range(n):
        most = max(most, nb_ptr[buffer + 1] - nb_ptr[buffer])
    low = np.empty(most, np.int64)
    high = np.empty(most, np.int64)
    placed = pinned >= 0
    offset = np.maximum(pinned, 0)
    key = np.zeros(n, np.int64)
    heap = np.empty(n, np.int64)
    count = 0
    for buffer in range(n):
        if not placed[buffer]:
            count = heap_push(heap, count, key, rank, buffer)
    lookups = 0
    entries = nb_ptr[n]
    while count:
        buffer, count = heap_pop(heap, count, key, rank)
        if max(lookups, entries // entries_per_lookup) >= max_work:
            return offset, max_work, False
        lookups += 1
        at, scanned = _lowest_gap(
            buffer, nb_ptr, nb_idx, placed, offset, sizes, alignments, low, high
        )
        entries += scanned
        if at > key[buffer]:
            key[buffer] = at
            count = heap_push(heap, count, key, rank, buffer)
            continue
        if at + sizes[buffer] > ceiling:
            return offset, min(max(lookups, entries // entries_per_lookup), max_work), False
        offset[buffer] = at
        placed[buffer] = True
    return offset, min(max(lookups, entries // entries_per_lookup), max_work), True


@kernel
def _neighbours(span_start, span_end):
    """Conflict lists `(indptr, indices)` of buffers live during `[start, end)`: a sweep by
    start counts each buffer's neighbours, a second one files them."""
    n = len(span_start)
    by_start = np.argsort(span_start, kind="mergesort")
    degree = np.zeros(n, np.int64)
    _sweep(span_start, span_end, by_start, degree, degree, True)
    nb_ptr = np.zeros(n + 1, np.int64)
    nb_ptr[1:] = np.cumsum(degree)
    nb_idx = np.empty(nb_ptr[n], np.int64)
    _sweep(span_start, span_end, by_start, nb_ptr[:-1].copy(), nb_idx, False)
    return nb_ptr, nb_idx


@kernel
def _sweep(span_start, span_end, by_start, fill, filed, counting):
    """For each pair of buffers meeting in time, each is filed in `filed` at the other's
    `fill` position, which moves on (only counted in `fill` when `counting`)."""
    for at in range(len(by_start)):
        first = by_start[at]
        if span_end[first] <= span_start[first]:
            continue
        for later in range(at + 1, len(by_start)):
            second = by_start[later]
            if span_start[second] >= span_end[first]:
                break
            if span_end[second] <= span_start[second]:
                continue
            if not counting:
                filed[fill[first]] = second
                filed[fill[second]] = first
            fill[first] += 1
            fill[second] += 1


@kernel
def _lowest_gap(buffer, nb_ptr, nb_idx, placed, offset, sizes, alignments, low, high):
    """The lowest aligned offset where `buffer` overlaps none of its placed neighbours
    (gathered by insertion, sorted by offset: a few dozen, cheaper than a sort call), and
    the entries read and moved to find it."""
    count = 0
    scanned = nb_ptr[buffer + 1] - nb_ptr[buffer]
    for entry in range(nb_ptr[buffer], nb_ptr[buffer + 1]):
        other = nb_idx[entry]
        if placed[other] and sizes[other] > 0:
            start, end = offset[other], offset[other] + sizes[other]
            at = count
            while at > 0 and low[at - 1] > start:
                low[at] = low[at - 1]
                high[at] = high[at - 1]
                at -= 1
                scanned += 1
            low[at] = start
            high[at] = end
            count += 1
    alignment = alignments[buffer]
    at = 0
    for index in range(count):
        if low[index] >= at + sizes[buffer]:
            break
        if high[index] > at:
            at = -(-high[index] // alignment) * alignment
    return at, scanned
