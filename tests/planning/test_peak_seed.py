"""The peak seed (`peak_seed`): the buffers around the busiest time packed by the search,
the rest placed around them; never an invalid plan, never a worse one than `default` had,
the same plan on every run."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from test_exact import assert_valid

from usmp_dialect.planning.algorithms.peak_seed import peak_seeded_plan
from usmp_dialect.planning.algorithms.placement import Fit, geometry_of, place_in_order
from usmp_dialect.planning.algorithms.portfolio import ORDERS, Candidate, order_of, run_peak_seed
from usmp_dialect.planning.algorithms.work import TimeCap
from usmp_dialect.planning.conflicts import conflicts_from_intervals, max_live
from usmp_dialect.planning.problem import Intervals, Problem


def _problem(starts, ends, sizes, alignments=None) -> Problem:
    n = len(sizes)
    intervals = Intervals.from_lists(range(n), starts, ends)
    return Problem(
        tuple(f"b{i}" for i in range(n)),
        np.asarray(sizes, dtype=np.int64),
        np.asarray(alignments if alignments is not None else [1] * n, dtype=np.int64),
        conflicts_from_intervals(intervals, n),
        intervals=intervals,
    )


@st.composite
def one_pool_problems(draw) -> Problem:
    n = draw(st.integers(1, 30))
    starts = draw(st.lists(st.integers(0, 20), min_size=n, max_size=n))
    lengths = draw(st.lists(st.integers(0, 10), min_size=n, max_size=n))
    return _problem(
        starts,
        [s + d for s, d in zip(starts, lengths, strict=True)],
        draw(st.lists(st.integers(0, 100), min_size=n, max_size=n)),
        draw(st.lists(st.sampled_from([1, 2, 8]), min_size=n, max_size=n)),
    )


def _size_first_misses_max_live() -> Problem:
    return _problem(
        [6, 5, 4, 2, 9, 0, 2, 7, 6, 0, 9, 3],
        [9, 7, 10, 8, 12, 1, 9, 14, 10, 3, 10, 5],
        [3, 2, 4, 5, 5, 8, 3, 1, 8, 5, 7, 3],
    )


def test_the_seed_packs_the_peak_where_size_first_does_not():
    problem = _size_first_misses_max_live()
    geometry = geometry_of(problem)
    order = order_of(problem, geometry, ORDERS[0])
    size_first = place_in_order(problem, geometry, order, Fit.FIRST)
    seeded, _ = peak_seeded_plan(
        problem, geometry, order, Fit.FIRST, 10**6, TimeCap(float("inf")), window_buffers=4
    )
    assert seeded is not None
    assert_valid(problem, seeded)
    assert size_first.total_size(problem) > max_live(problem)
    assert seeded.total_size(problem) == max_live(problem)


@settings(max_examples=80, deadline=None)
@given(one_pool_problems(), st.integers(1, 12), st.sampled_from(list(Fit)))
def test_a_seeded_plan_is_valid_and_reproducible(problem, window_buffers, fit):
    geometry = geometry_of(problem)
    order = order_of(problem, geometry, ORDERS[0])
    plans = [
        peak_seeded_plan(
            problem, geometry, order, fit, 10**5, TimeCap(float("inf")), window_buffers
        )
        for _ in range(2)
    ]
    (first, first_steps), (second, second_steps) = plans
    assert first_steps == second_steps
    if first is None:
        assert second is None
        return
    assert second is not None
    assert first.offset.tobytes() == second.offset.tobytes()
    assert_valid(problem, first)
    assert first.total_size(problem) >= max_live(problem)


@settings(max_examples=60, deadline=None)
@given(one_pool_problems())
def test_the_seed_step_never_returns_a_worse_plan(problem):
    geometry = geometry_of(problem)
    order = order_of(problem, geometry, ORDERS[3])
    start = place_in_order(problem, geometry, order, Fit.BEST)
    best = Candidate(start, start.total_size(problem), order, Fit.BEST, "start")
    seeded, worth = run_peak_seed(
        problem, geometry, max_live(problem), best, float("inf"), TimeCap(float("inf"))
    )
    assert_valid(problem, seeded.plan)
    assert seeded.total <= best.total
    assert seeded.total == seeded.plan.total_size(problem)
    assert worth >= 0


def test_the_seed_step_spends_nothing_it_was_not_given():
    problem = _size_first_misses_max_live()
    geometry = geometry_of(problem)
    order = order_of(problem, geometry, ORDERS[0])
    start = place_in_order(problem, geometry, order, Fit.FIRST)
    best = Candidate(start, start.total_size(problem), order, Fit.FIRST, "start")
    seeded, worth = run_peak_seed(
        problem, geometry, max_live(problem), best, 1.0, TimeCap(float("inf"))
    )
    assert seeded is best and worth == 0.0
