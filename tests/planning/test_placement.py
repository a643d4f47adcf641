"""The span placement (segment tree of byte ranges) gives the plans of the conflict-list
placement, which finds the blockers from the lists and their gaps by a sort."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from problems import draw_pools

from usmp_dialect.planning.algorithms.placement import (
    Fit,
    _graph_geometry,
    geometry_of,
    place_in_order,
)
from usmp_dialect.planning.algorithms.placement_kernel import (
    ARENA_SLOTS_PER_BUFFER,
    NO_HINT,
    PENDING_FROM,
    place_spans,
)
from usmp_dialect.planning.conflicts import conflicts_from_intervals
from usmp_dialect.planning.problem import Intervals, PlanningError, Problem


@st.composite
def span_problems(draw) -> tuple[Problem, np.ndarray]:
    """One live interval (maybe empty) a buffer, several pools with hints, mixed sizes
    (zero too) and alignments; and a buffer order."""
    n = draw(st.integers(1, 40))
    pools, candidates = draw_pools(draw, n, max_hint=2000)
    starts = draw(st.lists(st.integers(0, 30), min_size=n, max_size=n))
    lengths = draw(st.lists(st.integers(0, 12), min_size=n, max_size=n))
    intervals = Intervals.from_lists(
        range(n), starts, [s + d for s, d in zip(starts, lengths, strict=True)]
    )
    problem = Problem(
        names=tuple(f"b{i}" for i in range(n)),
        sizes=np.asarray(draw(st.lists(st.integers(0, 100), min_size=n, max_size=n))),
        alignments=np.asarray(
            draw(st.lists(st.sampled_from([1, 2, 8, 16]), min_size=n, max_size=n))
        ),
        conflicts=conflicts_from_intervals(intervals, n),
        pools=pools,
        candidates=candidates,
        intervals=intervals,
    )
    return problem, np.asarray(draw(st.permutations(range(n))))


def _placed(problem: Problem, geometry, order: np.ndarray, fit: Fit, gaps_compared=None):
    try:
        plan = place_in_order(problem, geometry, order, fit, gaps_compared=gaps_compared)
    except PlanningError as error:
        return str(error)
    return plan.pool.tolist(), plan.offset.tolist()


@settings(max_examples=300, deadline=None)
@given(span_problems(), st.sampled_from(list(Fit)))
def test_span_placement_equals_the_conflict_list_placement(instance, fit):
    problem, order = instance
    spans = geometry_of(problem)
    assert spans.has_spans
    assert _placed(problem, spans, order, fit) == _placed(
        problem, _graph_geometry(problem), order, fit
    )


@st.composite
def long_traces(draw) -> tuple[Problem, np.ndarray]:
    """Up to 250 buffers live between two random times of a long trace (up to 2000
    ranks: the time tree has merged levels, `covering` sets and levels under them, and the
    byte ranges' arena fills and is compacted), mixed sizes and alignments, one pool; and a
    buffer order."""
    n = draw(st.integers(1, 250))
    horizon = draw(st.integers(1, 2000))
    times = st.tuples(st.integers(0, horizon), st.integers(0, horizon))
    ends = np.sort(np.asarray(draw(st.lists(times, min_size=n, max_size=n))), axis=1)
    intervals = Intervals.from_lists(range(n), ends[:, 0], ends[:, 1] + 1)
    problem = Problem(
        names=tuple(f"b{i}" for i in range(n)),
        sizes=np.asarray(draw(st.lists(st.integers(0, 5000), min_size=n, max_size=n))),
        alignments=np.asarray(draw(st.lists(st.sampled_from([1, 16]), min_size=n, max_size=n))),
        conflicts=conflicts_from_intervals(intervals, n),
        intervals=intervals,
    )
    return problem, np.asarray(draw(st.permutations(range(n))))


@settings(max_examples=60, deadline=None)
@given(long_traces(), st.sampled_from(list(Fit)))
def test_long_trace_placement_equals_the_conflict_list_placement(instance, fit):
    problem, order = instance
    assert _placed(problem, geometry_of(problem), order, fit) == _placed(
        problem, _graph_geometry(problem), order, fit
    )


@settings(max_examples=60, deadline=None)
@given(long_traces(), st.integers(1, 4))
def test_bounded_best_fit_equals_the_conflict_list_placement(instance, gaps_compared):
    """Best fit over the lowest few fitting gaps (huge dense traces) picks the same gaps."""
    problem, order = instance
    assert _placed(problem, geometry_of(problem), order, Fit.BEST, gaps_compared) == _placed(
        problem, _graph_geometry(problem), order, Fit.BEST, gaps_compared
    )


def _kernel_arguments(problem: Problem, order: np.ndarray, fit: Fit) -> tuple:
    """`place_spans`'s arguments up to the arena's slots, one pool, nothing pinned."""
    n = problem.num_buffers
    span_start, span_end = geometry_of(problem).spans
    return (
        span_start.astype(np.int64),
        span_end.astype(np.int64),
        np.asarray(problem.sizes, dtype=np.int64),
        np.maximum(np.asarray(problem.alignments, dtype=np.int64), 1),
        order.astype(np.int64),
        fit is Fit.BEST,
        np.arange(n + 1, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.array([NO_HINT], dtype=np.int64),
        1,
        np.full(n, -1, dtype=np.int64),
    )


@settings(max_examples=30, deadline=None)
@given(long_traces(), st.sampled_from(list(Fit)))
def test_an_arena_that_must_be_copied_to_grow_gives_the_same_offsets(instance, fit):
    problem, order = instance
    arguments = _kernel_arguments(problem, order, fit)
    bounds = (NO_HINT, PENDING_FROM)
    reserved = place_spans(*arguments, ARENA_SLOTS_PER_BUFFER * problem.num_buffers, *bounds)
    copied = place_spans(*arguments, 0, *bounds)
    assert copied[1].tolist() == reserved[1].tolist()


@settings(max_examples=60, deadline=None)
@given(
    long_traces(),
    st.sampled_from(list(Fit)),
    st.sampled_from([1, 4, int(NO_HINT)]),
    st.integers(0, 40),
    st.booleans(),
)
def test_pending_sets_give_the_offsets_of_the_conflict_list_placement(
    instance, fit, gaps_compared, pending_from, arena_copied
):
    """Large sets of the merged levels take their writes in small pending sets, merged in
    when they fill (huge dense traces, `PENDING_FROM` intervals on): here from a few
    intervals on, the arena copied to grow or not, the offsets are still those of the
    placement that reads the blockers from the conflict lists."""
    problem, order = instance
    n = problem.num_buffers
    arguments = _kernel_arguments(problem, order, fit)
    slots = 0 if arena_copied else ARENA_SLOTS_PER_BUFFER * n
    pending = place_spans(*arguments, slots, gaps_compared, pending_from)
    listed = _placed(problem, _graph_geometry(problem), order, fit, gaps_compared)
    assert (pending[0].tolist(), pending[1].tolist()) == listed
