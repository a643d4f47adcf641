"""The `default` portfolio: valid plans, never below max-live, honest optimality."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from problems import interval_instances, interval_problem, intervals_problem
from test_exact import assert_valid, brute_force_optimum

from usmp_dialect.formats.csv_instance import read_csv_instance
from usmp_dialect.planning.conflicts import max_live
from usmp_dialect.planning.problem import Intervals, PlanningError, PoolSpec
from usmp_dialect.planning.registry import Budget, get_algorithm

DATA = Path(__file__).resolve().parent / "data"

instances = interval_instances((1, 40), 30, (0, 12), (1, 1000))


@settings(max_examples=40, deadline=None)
@given(instances)
def test_default_gives_valid_plans_at_least_max_live(instance):
    problem = interval_problem(*instance)
    plan = get_algorithm("default")(problem, Budget(time_limit=0.2))
    assert_valid(problem, plan)
    assert plan.total_size(problem) >= max_live(problem)
    if plan.proven_optimal and problem.num_buffers <= 6:
        assert plan.total_size(problem) == brute_force_optimum(problem)


def test_a_chain_of_operators_reaches_max_live():
    # Each operator's output lives until the next one has run: two live at a time.
    sizes = [64, 128, 32, 256, 16, 512]
    problem = interval_problem([(i, i + 2) for i in range(len(sizes))], sizes)
    plan = get_algorithm("default")(problem, Budget())
    assert_valid(problem, plan)
    assert plan.total_size(problem) == max_live(problem) == 16 + 512
    assert plan.proven_optimal


def test_buffers_with_several_intervals():
    owner, start, end = [0, 0, 1, 2, 2], [0, 6, 2, 1, 7], [2, 8, 7, 3, 9]
    intervals = Intervals.from_lists(owner, start, end)
    problem = intervals_problem(intervals, [10, 20, 30], names="abc")
    plan = get_algorithm("default")(problem, Budget(time_limit=0.5))
    assert_valid(problem, plan)
    # Every two of them meet at some time, though the three are never live together.
    assert plan.total_size(problem) == 60


def test_size_hints_spill_to_the_next_candidate_pool():
    problem = interval_problem(
        [(0, 4)] * 4,
        [100] * 4,
        pools=(PoolSpec("sram", size_hint=250), PoolSpec("dram")),
        candidates=((0, 1),) * 4,
    )
    plan = get_algorithm("default")(problem, Budget(time_limit=0.5))
    assert_valid(problem, plan)
    assert sorted(plan.pool.tolist()) == [0, 0, 1, 1]


def test_hints_that_cannot_hold_the_buffers_are_an_error():
    problem = interval_problem([(0, 4)] * 3, [100] * 3, pools=(PoolSpec("sram", size_hint=250),))
    with pytest.raises(PlanningError):
        get_algorithm("default")(problem, Budget(time_limit=0.5))


def test_many_buffers_plan_quickly_and_validly():
    rng = np.random.default_rng(7)
    n = 3000
    start = rng.integers(0, 5000, n)
    spans = list(zip(start.tolist(), (start + rng.integers(1, 200, n)).tolist(), strict=True))
    problem = interval_problem(spans, rng.integers(1, 1 << 20, n).tolist())
    plan = get_algorithm("default")(problem, Budget(time_limit=2.0))
    assert_valid(problem, plan)
    assert plan.total_size(problem) <= 1.25 * max_live(problem)


@pytest.mark.parametrize("name", ["B", "E"])
def test_minimalloc_instances_the_greedy_plans_miss_are_proven_at_max_live(name):
    """MiniMalloc's B and E: the greedy plans, hill climb and bisection stop 5-8 % above
    max-live; the search's question at max-live, under restarts and with the steps of a
    proof, finds a plan there within `default`'s budget."""
    problem = read_csv_instance(DATA / "minimalloc" / f"{name}.1048576.csv").problem()
    plan = get_algorithm("default")(problem, Budget())
    assert_valid(problem, plan)
    assert plan.total_size(problem) == max_live(problem) == 1048576
    assert plan.proven_optimal
    assert not plan.time_capped


def test_a_hint_the_first_order_overflows_is_met_by_the_others():
    """One pool with a size hint at max-live: the first order's plan goes over it, a later
    order's fits, and `default` goes on to it rather than failing on the first."""
    spans = [(4, 6), (6, 8), (6, 10), (0, 4), (4, 7), (3, 6), (2, 6), (3, 6)]
    sizes = [3, 1, 5, 2, 5, 1, 7, 8]
    problem = interval_problem(spans, sizes, pools=(PoolSpec("sram", size_hint=24),))
    assert max_live(problem) == 24
    plan = get_algorithm("default")(problem, Budget())
    assert_valid(problem, plan)
    assert plan.total_size(problem) == 24
