"""Every registered algorithm on random problems: several pools with size hints and
candidate orders, mixed alignments, liveness as intervals or as explicit conflicts."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from problems import draw_pools, listed_problem

from usmp_dialect.planning.conflicts import conflicts_from_intervals, max_live
from usmp_dialect.planning.problem import (
    Conflicts,
    Intervals,
    PlanningError,
    Problem,
)
from usmp_dialect.planning.registry import Budget, available_algorithms, get_algorithm
from usmp_dialect.planning.validator import validate


@st.composite
def problems(draw) -> Problem:
    n = draw(st.integers(1, 10))
    pools, candidates = draw_pools(draw, n, max_hint=300)
    sizes = draw(st.lists(st.integers(0, 64), min_size=n, max_size=n))
    alignments = draw(st.lists(st.sampled_from([1, 2, 4, 8, 16]), min_size=n, max_size=n))
    intervals = None
    if draw(st.booleans()):
        rows = draw(
            st.lists(
                st.tuples(st.integers(0, n - 1), st.integers(0, 12), st.integers(1, 6)),
                max_size=2 * n,
            )
        )
        intervals = Intervals.from_lists(
            [o for o, _, _ in rows],
            [s for _, s, _ in rows],
            [s + d for _, s, d in rows],
        )
        conflicts = conflicts_from_intervals(intervals, n)
    else:
        pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))))
        lists = [
            sorted({b for a, b in pairs if a == i} | {a for a, b in pairs if b == i} - {i})
            for i in range(n)
        ]
        conflicts = Conflicts.from_lists(lists)
    return Problem(
        names=tuple(f"b{i}" for i in range(n)),
        sizes=np.asarray(sizes, dtype=np.int64),
        alignments=np.asarray(alignments, dtype=np.int64),
        conflicts=conflicts,
        pools=pools,
        candidates=candidates,
        intervals=intervals,
    )


def every_buffer_has_an_unrestricted_pool(problem: Problem) -> bool:
    return all(
        any(problem.pools[p].size_hint is None for p in candidates)
        for candidates in problem.candidates
    )


@pytest.mark.parametrize("algorithm", available_algorithms())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem=problems())
def test_plans_are_valid_and_above_max_live(algorithm, problem):
    try:
        plan = get_algorithm(algorithm)(problem, Budget(time_limit=0.1))
    except PlanningError:
        # Only size hints can make a problem impossible.
        assert not every_buffer_has_an_unrestricted_pool(problem)
        return
    assert validate(problem, plan) == []
    assert plan.total_size(problem) >= max_live(problem)


TVM_ONE_SIDED = {"greedy_by_size", "greedy_by_conflicts"}
"""Read each buffer's own list only, as TVM did (`test_tvm_reads_one_sided_lists_one_sided`)."""


@pytest.mark.parametrize("algorithm", sorted(set(available_algorithms()) - TVM_ONE_SIDED))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_one_sided_conflict_lists_give_valid_plans(algorithm, data):
    """A conflict listed by one of the two buffers only (as TVM's tests list them) still
    keeps them apart."""
    n = data.draw(st.integers(2, 8))
    sizes = data.draw(st.lists(st.integers(1, 64), min_size=n, max_size=n))
    lists = [
        sorted(data.draw(st.sets(st.integers(0, n - 1).filter(lambda b, i=i: b != i))))
        for i in range(n)
    ]
    problem = listed_problem(sizes, lists)
    plan = get_algorithm(algorithm)(problem, Budget(time_limit=1.0))
    assert validate(problem, plan) == []
