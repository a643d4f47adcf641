"""Bottom-up placement: the first dive of MiniMalloc's canonical search, without the search.

The `default` portfolio's orders pick a buffer, then its offset. MiniMalloc (Moffitt,
ASPLOS 2024) goes the other way: of the buffers not placed yet, the one that can sit
lowest goes next (each sits right on top of the highest placed buffer it meets in time, the
skyline over its lifetime), ties broken by a static order (by lifetime, area and the
bytes live at its busiest time, in turn). Its search does this at every node and takes
back what fails; on random traces of a thousand buffers its first dive already reaches
max-live, where every order of the portfolio stays 5-10 % above. The search's nodes cost
time linear in the buffers, so it is kept to 2000 buffers a pool; the dive alone, with the
skyline in a segment tree (range maximum, raised in place) and the buffers in a heap by
their last known offset (offsets only rise, so a stale key is a lower bound: a popped
buffer whose offset rose goes back with the new one), costs O(log T) per placement and per
such return.
"""

from __future__ import annotations

import numpy as np

from usmp_dialect.planning.algorithms.kernel import kernel
from usmp_dialect.planning.algorithms.placement import Geometry, lifetime_area
from usmp_dialect.planning.problem import Plan, Problem, unique_values

DIVE_KEYS = {
    "bottom-up/pressure-length-area": lambda p, g: [-g.pressure, -g.length, -lifetime_area(p, g)],
    "bottom-up/pressure-area-length": lambda p, g: [-g.pressure, -lifetime_area(p, g), -g.length],
    "bottom-up/rounded-pressure-length-area": lambda p, g: [
        -_rounded_pressure(g),
        -g.length,
        -lifetime_area(p, g),
    ],
}
"""Tie-breaking orders of the dives, best first (MiniMalloc's TWA and TAW, then TWA with
buffers of nearly the same pressure taken by lifetime): on random traces of 4k / 64k
buffers, 1.057x / 1.014x, 1.080x / 1.050x and 1.037x / 1.035x max-live, against 1.088x /
1.066x for the best order of the portfolio. Which wins is close to chance: each is a ticket."""

_PRESSURE_STEPS = 64


def _rounded_pressure(geometry: Geometry) -> np.ndarray:
    """Pressure in steps of 1/64 of the busiest time's bytes."""
    step = max(int(geometry.pressure.max(initial=0)) // _PRESSURE_STEPS, 1)
    return geometry.pressure // step


def dive(
    problem: Problem, geometry: Geometry, name: str, max_lookups: int
) -> tuple[Plan | None, int]:
    """The bottom-up plan with ties broken by `DIVE_KEYS[name]`, each buffer in its first
    candidate pool (`None` when that passes a pool's size hint, or the lookups ran out),
    and the skyline lookups it took. Needs single spans."""
    assert geometry.spans is not None
    span_start, span_end = (s.astype(np.int64) for s in geometry.spans)
    keys = DIVE_KEYS[name](problem, geometry)
    order = np.lexsort([np.arange(problem.num_buffers), *keys[::-1]])
    rank = np.empty(problem.num_buffers, dtype=np.int64)
    rank[order] = np.arange(problem.num_buffers)
    sizes = np.asarray(problem.sizes, dtype=np.int64)
    alignments = np.maximum(np.asarray(problem.alignments, dtype=np.int64), 1)
    pool = np.array([c[0] for c in problem.candidates], dtype=np.int64)
    offset = np.zeros(problem.num_buffers, dtype=np.int64)
    spent = 0
    for index in unique_values(pool).tolist():
        members = np.flatnonzero(pool == index)
        placed, lookups = place_bottom_up(
            span_start[members],
            span_end[members],
            sizes[members],
            alignments[members],
            rank[members],
            max_lookups - spent,
        )
        if lookups < 0:
            return None, max_lookups
        spent += lookups
        offset[members] = placed
        hint = problem.pools[index].size_hint
        if hint is not None and int((placed + sizes[members]).max(initial=0)) > hint:
            return None, spent
    return Plan(pool=pool, offset=offset), spent


@kernel
def _skyline_height(highest, raised, tree, start, end):
    """The highest top over time ranks `[start, end)`: the nodes covering them exactly,
    and what was raised over a whole node above them (an ancestor of either end)."""
    height = 0
    low, high = start + tree, end + tree
    first, last = low >> 1, (high - 1) >> 1
    while low < high:
        if low & 1:
            height = max(height, highest[low])
            low += 1
        if high & 1:
            high -= 1
            height = max(height, highest[high])
        low >>= 1
        high >>= 1
    while first >= 1:
        height = max(height, raised[first])
        first >>= 1
    while last >= 1:
        height = max(height, raised[last])
        last >>= 1
    return height


@kernel
def _raise_skyline(highest, raised, tree, start, end, top):
    """Raise the skyline over `[start, end)` to `top` (no lower than it was there)."""
    low, high = start + tree, end + tree
    first, last = low >> 1, (high - 1) >> 1
    while low < high:
        if low & 1:
            raised[low] = max(raised[low], top)
            highest[low] = max(highest[low], top)
            low += 1
        if high & 1:
            high -= 1
            raised[high] = max(raised[high], top)
            highest[high] = max(highest[high], top)
        low >>= 1
        high >>= 1
    while first >= 1:
        highest[first] = max(highest[first], top)
        first >>= 1
    while last >= 1:
        highest[last] = max(highest[last], top)
        last >>= 1


@kernel
def _before(key, rank, a, b):
    return key[a] < key[b] or (key[a] == key[b] and rank[a] < rank[b])


@kernel
def heap_push(heap, count, key, rank, buffer):
    position = count
    heap[position] = buffer
    while position > 0:
        parent = (position - 1) >> 1
        if not _before(key, rank, heap[position], heap[parent]):
            break
        heap[position], heap[parent] = heap[parent], heap[position]
        position = parent
    return count + 1


@kernel
def heap_pop(heap, count, key, rank):
    top = heap[0]
    count -= 1
    heap[0] = heap[count]
    position = 0
    while True:
        child = 2 * position + 1
        if child >= count:
            break
        if child + 1 < count and _before(key, rank, heap[child + 1], heap[child]):
            child += 1
        if not _before(key, rank, heap[child], heap[position]):
            break
        heap[position], heap[child] = heap[child], heap[position]
        position = child
    return top, count


@kernel
def place_bottom_up(span_start, span_end, sizes, alignments, rank, max_lookups):
    """Each buffer's offset: lowest-sitting first, ties by `rank` (lowest first), each on
    top of the skyline over its lifetime, aligned up; and the skyline lookups done (one
    per placement and one per return to the heap), or -1 when `max_lookups` ran out
    first."""
    n = len(sizes)
    leaves = max(int(span_end.max()) if n else 1, 1)
    tree = 1
    while tree < leaves:
        tree *= 2
    highest = np.zeros(2 * tree, np.int64)
    raised = np.zeros(2 * tree, np.int64)
    key = np.zeros(n, np.int64)
    heap = np.empty(n, np.int64)
    offset = np.zeros(n, np.int64)
    count = 0
    for buffer in range(n):
        count = heap_push(heap, count, key, rank, buffer)
    lookups = 0
    while count:
        buffer, count = heap_pop(heap, count, key, rank)
        start, end = span_start[buffer], span_end[buffer]
        if sizes[buffer] == 0 or end <= start:
            continue
        lookups += 1
        if lookups > max_lookups:
            return offset, -1
        height = _skyline_height(highest, raised, tree, start, end)
        height = -(-height // alignments[buffer]) * alignments[buffer]
        if height > key[buffer]:
            key[buffer] = height
            count = heap_push(heap, count, key, rank, buffer)
            continue
        offset[buffer] = height
        _raise_skyline(highest, raised, tree, start, end, height + sizes[buffer])
    return offset, lookups
