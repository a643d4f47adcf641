"""Filling the fast pools by traffic (issue 47, `planning/fill.py`): over random
instances the plan is valid (sizes under the hints, no overlaps, fixed buffers kept, the
first-candidate rule of the validator), the same on every run, and never serves the
fastest pool less traffic than TVM's rule on the same pools; the greedy's own choice
always fits its pool."""

import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.planning.problems import draw_pools, interval_instances, interval_problem
from tests.planning.test_rules import assert_rules_kept, problems_with_fixed_buffers
from usmp_dialect.planning.fill import fill_by_traffic, planned_by_traffic, traffic_served
from usmp_dialect.planning.problem import Conflicts, Plan, PlanningError, PoolSpec, Problem
from usmp_dialect.planning.registry import Budget, get_algorithm
from usmp_dialect.planning.validator import validate

SMALL = Budget(effort=0.05)
ALGORITHMS = ("default", "first_fit", "greedy_by_size")


@st.composite
def instances(draw):
    """Random spans and sizes, 1-3 pools with random hints and candidate orders, and each
    buffer's traffic: its size times 1-4 calls."""
    spans, sizes = draw(interval_instances((1, 10), 8, (1, 6), (0, 96)))
    pools, candidates = draw_pools(draw, len(sizes), 256)
    calls = draw(st.lists(st.integers(1, 4), min_size=len(sizes), max_size=len(sizes)))
    problem = interval_problem(spans, sizes, pools=pools, candidates=candidates)
    return problem, np.array(sizes, dtype=np.int64) * np.array(calls, dtype=np.int64)


@st.composite
def instances_with_fixed_buffers(draw):
    problem = draw(problems_with_fixed_buffers())
    calls = draw(st.lists(st.integers(1, 4), min_size=problem.num_buffers))
    return problem, np.asarray(problem.sizes) * np.array(calls[: problem.num_buffers])


def check_fill(algorithm: str, problem: Problem, traffic: np.ndarray) -> None:
    def plan_of(narrowed: Problem):
        return get_algorithm(algorithm)(narrowed, SMALL)

    try:
        first = plan_of(problem)
    except PlanningError:
        # No plan under TVM's rule: the sizes do not fit the hints; the fill says so too.
        with pytest.raises(PlanningError):
            planned_by_traffic(plan_of, problem, traffic)
        return
    plan, compared = planned_by_traffic(plan_of, problem, traffic)
    assert_rules_kept(problem, plan)
    sizes = plan.pool_sizes(problem)
    for pool, spec in enumerate(problem.pools):
        assert spec.size_hint is None or sizes[pool] <= spec.size_hint
    served = tuple(traffic_served(problem, plan, traffic).tolist())
    assert served >= tuple(traffic_served(problem, first, traffic).tolist())
    assert (compared.pool == first.pool).all() and (compared.offset == first.offset).all()
    again, _ = planned_by_traffic(plan_of, problem, traffic)
    assert (again.pool == plan.pool).all() and (again.offset == plan.offset).all()


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instance=instances())
def test_fill_is_valid_deterministic_and_never_below_tvms_rule(algorithm, instance):
    check_fill(algorithm, *instance)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instance=instances_with_fixed_buffers())
def test_fill_keeps_buffers_placed_by_hand(instance):
    check_fill("first_fit", *instance)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instance=instances())
def test_the_greedys_choice_fits_its_pool(instance):
    """Without TVM's plan to fall back on: the buffers the greedy fixes in a hinted pool
    neither overlap a conflict nor pass the hint (the validator of the narrowed problem's
    fixed buffers alone)."""
    problem, traffic = instance
    narrowed = fill_by_traffic(problem, traffic)
    fixed = narrowed.fixed_offsets()
    kept = np.flatnonzero(fixed >= 0)
    pool = np.array([narrowed.candidates[b][0] for b in kept.tolist()], dtype=np.int64)
    alone = dataclasses.replace(
        narrowed,
        names=tuple(narrowed.names[b] for b in kept.tolist()),
        sizes=np.asarray(narrowed.sizes)[kept],
        alignments=np.asarray(narrowed.alignments)[kept],
        candidates=tuple((int(p),) for p in pool),
        fixed=None,
        intervals=None,
        conflicts=_conflicts_among(narrowed, kept),
    )
    assert validate(alone, Plan(pool, fixed[kept])) == []


def _conflicts_among(problem: Problem, kept: np.ndarray) -> Conflicts:
    index = {int(b): i for i, b in enumerate(kept.tolist())}
    return Conflicts.from_lists(
        [
            [index[int(c)] for c in problem.conflicts.of(int(b)).tolist() if int(c) in index]
            for b in kept.tolist()
        ]
    )


def test_two_buffers_that_never_meet_beat_the_one_that_meets_both():
    """TVM's rule keeps the largest buffer, `b` (3 KiB, meeting `a` and `c`); by traffic
    the pool keeps `a` and `c`, 4 KiB read and written, and overflows `b`."""
    pools = (PoolSpec("sram", 4096), PoolSpec("dram"))
    problem = interval_problem(
        [(0, 2), (1, 3), (2, 4)], [2048, 3072, 2048], pools=pools, candidates=((0, 1),) * 3
    )
    traffic = np.asarray(problem.sizes) * 2

    def plan_of(narrowed: Problem):
        return get_algorithm("default")(narrowed, SMALL)

    plan, first = planned_by_traffic(plan_of, problem, traffic)
    assert first.pool.tolist() == [1, 0, 1]
    assert plan.pool.tolist() == [0, 1, 0]
    assert traffic_served(problem, plan, traffic).tolist() == [8192, 6144]


def test_a_fill_the_planner_cannot_complete_falls_back_to_tvms_rule():
    """The buffers the greedy fixes in sram leave `first_fit` no room there for a buffer
    that has no other pool, where TVM's rule plans them all: the fill gives TVM's plan,
    it does not refuse the problem ("increase the size hints")."""
    pools = (PoolSpec("sram", 40), PoolSpec("dram"))
    problem = interval_problem(
        [(3, 5), (2, 6), (0, 1), (0, 3), (6, 8), (5, 6)],
        [2, 34, 13, 5, 36, 8],
        pools=pools,
        candidates=((0,), (0,), (0, 1), (0,), (0,), (0, 1)),
    )
    traffic = np.array([4, 68, 39, 20, 144, 16], dtype=np.int64)
    check_fill("first_fit", problem, traffic)
