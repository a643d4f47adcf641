"""Seeding a large plan at its peak: the buffers around the busiest time packed exactly
first, the rest placed greedily around them.

A greedy order decides the busiest time's layout one buffer at a time, among buffers
placed for other times, and a training graph's peak then ends up a few per cent above
max-live (pangu_2.6B: 1.0076x under every order). The buffers meeting a short window
around the peak are few enough for the canonical search (`canonical_search`), which
usually packs them at max-live at once: their lifetimes are cut to the window, so a
packing of them is a layout of the peak that the rest must respect. Pinned there, with the
other buffers placed around them in a greedy order, the whole plan often stays at max-live
(pangu_2.6B: 1.0000x, proven optimal, from a window of 978 buffers).

The window is the widest around the peak holding at most `_WINDOW_BUFFERS` buffers, the
search gets a fixed number of steps, so the seed is a function of the problem alone.
"""

from __future__ import annotations

import numpy as np

from usmp_dialect.planning.algorithms.canonical_search import fit_in_pool
from usmp_dialect.planning.algorithms.placement import Fit, Geometry, place_in_order
from usmp_dialect.planning.algorithms.repair import window_around
from usmp_dialect.planning.algorithms.work import TimeCap
from usmp_dialect.planning.problem import Plan, PlanningError, Problem

_WINDOW_BUFFERS = 1000
"""At most this many buffers in the window: small enough for the search to pack a training
graph's peak at max-live in a few million steps (pangu_2.6B's 978)."""


def peak_seeded_plan(
    problem: Problem,
    geometry: Geometry,
    order: np.ndarray,
    fit: Fit,
    steps: int,
    cap: TimeCap,
    window_buffers: int = _WINDOW_BUFFERS,
) -> tuple[Plan | None, int]:
    """A plan with the peak window's buffers (at most `window_buffers`, unless the busiest
    time alone has more) packed by the search and the rest placed in `order` under `fit`
    (None when the window does not fit its max-live within `steps` search steps, or the
    rest does not fit the hints), and the steps spent. Single spans and one pool only
    (None otherwise)."""
    spans = geometry.spans
    if spans is None or any(candidates != (0,) for candidates in problem.candidates):
        return None, 0
    first, last, peak_bytes = _peak_window(problem, spans, window_buffers)
    everyone = np.arange(problem.num_buffers)
    window = window_around(problem, spans, everyone, np.zeros_like(everyone), first, last)
    members = len(window.members)
    fits, offsets, spent = fit_in_pool(window.problem, np.arange(members), peak_bytes, steps, cap)
    if not fits or offsets is None:
        return None, spent
    pinned = np.full(problem.num_buffers, -1, dtype=np.int64)
    pinned[window.members] = offsets
    sequence = np.concatenate((window.members, order[pinned[order] < 0]))
    try:
        plan = place_in_order(problem, geometry, sequence, fit, pinned)
    except PlanningError:
        return None, spent
    return plan, spent


def _peak_window(
    problem: Problem, spans: tuple[np.ndarray, np.ndarray], window_buffers: int
) -> tuple[int, int, int]:
    """The widest window of time ranks around the busiest one that at most
    `window_buffers` buffers meet (at least the busiest rank itself), and the bytes live
    at the busiest (max-live, of the window's buffers too)."""
    start, end = spans
    sizes = np.asarray(problem.sizes, dtype=np.int64)
    change = np.zeros(int(end.max(initial=0)) + 1, dtype=np.int64)
    np.add.at(change, start, sizes)
    np.add.at(change, end, -sizes)
    live = np.cumsum(change)
    peak = int(np.argmax(live))
    num_times = len(change) - 1
    starts, ends = np.sort(start), np.sort(end)

    def meeting(first: int, last: int) -> int:
        return int(np.searchsorted(starts, last, "left") - np.searchsorted(ends, first, "right"))

    half = 0
    while half < num_times:
        wider = 2 * half + 1
        if meeting(max(peak - wider, 0), min(peak + wider + 1, num_times)) > window_buffers:
            break
        half = wider
    return max(peak - half, 0), min(peak + half + 1, num_times), int(live[peak])
