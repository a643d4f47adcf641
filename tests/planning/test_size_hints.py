"""Size hints that bind: no algorithm says a plan does not exist unless it is proven, and
`exact` (and `default`) find a plan whenever one exists (issue 19)."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.planning.problems import interval_problem, intervals_problem, listed_problem
from usmp_dialect.planning.algorithms.placement import Fit, geometry_of, place_in_order
from usmp_dialect.planning.problem import Intervals, PlanningError, PoolSpec
from usmp_dialect.planning.registry import Budget, get_algorithm
from usmp_dialect.planning.size_hints import check_size_hints
from usmp_dialect.planning.validator import validate

TVM_ALGORITHMS = ["greedy_by_size", "greedy_by_conflicts", "hill_climb", "first_fit", "best_fit"]
FINDING_ALGORITHMS = ["default", "exact"]


def hinted_and_open_pools():
    """Issue 19's case: `b39` fits in `p1`, but placed first it fills `p0`, where `b24`
    then finds no room."""
    return intervals_problem(
        Intervals.from_lists([0, 1, 2], [0, 0, 0], [10, 10, 10]),
        [1512, 1386, 15456],
        names=("b8", "b24", "b39"),
        alignments=[64, 128, 1],
        pools=(PoolSpec("p0", size_hint=17869), PoolSpec("p1")),
        candidates=((0,), (0,), (0, 1)),
    )


def three_in_two_small_pools():
    """Three buffers of 10 bytes live together, two pools of 15: two share a pool, which
    no plan can give them."""
    return interval_problem(
        [(0, 10)] * 3,
        [10, 10, 10],
        pools=(PoolSpec("p0", size_hint=15), PoolSpec("p1", size_hint=15)),
        candidates=((0, 1),) * 3,
    )


@pytest.mark.parametrize("algorithm", TVM_ALGORITHMS)
def test_greedy_algorithms_say_they_found_no_place_not_that_none_exists(algorithm):
    with pytest.raises(PlanningError) as error:
        get_algorithm(algorithm)(hinted_and_open_pools(), Budget())
    message = str(error.value)
    assert message.startswith(f"algorithm '{algorithm}' found no place for buffer 'b24'")
    assert "a plan may exist: try algorithm 'exact'" in message
    assert "does not fit" not in message


@pytest.mark.parametrize("algorithm", FINDING_ALGORITHMS)
def test_default_and_exact_send_the_flexible_buffer_elsewhere(algorithm):
    problem = hinted_and_open_pools()
    plan = get_algorithm(algorithm)(problem, Budget())
    assert validate(problem, plan) == []
    assert plan.pool.tolist() == [0, 0, 1]


def test_exact_proves_that_no_plan_fits():
    with pytest.raises(PlanningError) as error:
        get_algorithm("exact")(three_in_two_small_pools(), Budget())
    assert str(error.value) == (
        "no plan fits the size hints (p0: size hint 15 bytes, p1: size hint 15 bytes): "
        "algorithm 'exact' proved it; increase the size hints"
    )


def test_exact_says_when_its_budget_ran_out_before_a_proof():
    with pytest.raises(PlanningError) as error:
        get_algorithm("exact")(three_in_two_small_pools(), Budget(effort=1e-9))
    assert str(error.value).startswith(
        "algorithm 'exact' found no plan within the size hints in its work budget, and did "
        "not prove that none exists"
    )


def test_a_buffer_larger_than_every_hint_does_not_fit():
    problem = interval_problem(
        [(0, 1)], [32], pools=(PoolSpec("p0", size_hint=16),), candidates=((0,),)
    )
    for algorithm in TVM_ALGORITHMS + FINDING_ALGORITHMS:
        with pytest.raises(PlanningError, match=r"'b0' \(32 bytes\) does not fit in any candidate"):
            get_algorithm(algorithm)(problem, Budget())


def test_thousands_of_small_pools_are_named_three_and_counted():
    """Issue 33: 5000 pools of 8 bytes and three 16-byte buffers; the error names three
    pools and counts the rest, whatever the algorithm that searches."""
    pools = tuple(PoolSpec(f"p{i}", size_hint=8) for i in range(5000))
    problem = interval_problem(
        [(0, 10)] * 3, [16] * 3, pools=pools, candidates=((*range(5000),),) * 3
    )
    for algorithm in FINDING_ALGORITHMS:
        with pytest.raises(PlanningError) as error:
            get_algorithm(algorithm)(problem, Budget())
        assert str(error.value) == (
            "buffer 'b0' (16 bytes) does not fit in any candidate pool (p0: size hint 8 bytes, "
            "needs 16, 8 bytes missing; p1: size hint 8 bytes, needs 16, 8 bytes missing; p2: "
            "size hint 8 bytes, needs 16, 8 bytes missing; and 4997 more); increase the size "
            "hints"
        )


def test_buffers_that_only_a_set_of_pools_holds_need_its_hints_together():
    """Each buffer fits `p` or `q`; together they need more than both; `r` is too small
    for any of them, and the buffer with an unbounded pool does not count."""
    problem = interval_problem(
        [(0, 4), (0, 4), (1, 3), (1, 3)],
        [30, 30, 20, 40],
        pools=(PoolSpec("p", 32), PoolSpec("q", 32), PoolSpec("r", 8), PoolSpec("s")),
        candidates=((0, 1, 2), (2, 1, 0), (0, 1), (0, 3)),
    )
    with pytest.raises(PlanningError) as error:
        check_size_hints(problem)
    assert str(error.value) == (
        "no plan fits the size hints: buffer 'b0' (30 bytes) and the buffers live with it "
        "that can go nowhere but pools p, q need 80 bytes at once, and those pools' size "
        "hints add up to 64 bytes; increase the size hints"
    )
    assert error.value.buffer == 0


def test_a_pool_bound_from_conflict_lists_alone():
    """Without intervals the bytes at once are a clique's: `a`, `b` and `c` conflict
    pairwise and only `p` holds them."""
    problem = listed_problem(
        [8, 8, 8],
        [[1, 2], [2], []],
        names=("a", "b", "c"),
        pools=(PoolSpec("p", 20), PoolSpec("q", 4)),
        candidates=((0,), (1, 0), (0, 1)),
    )
    with pytest.raises(PlanningError, match=r"needs 24, 4 bytes missing"):
        check_size_hints(problem)


@st.composite
def problems_with_a_hand_plan(draw):
    """Buffers live over random spans, each assigned a pool by hand and placed there first
    fit; each pool's hint is what that plan needs (some pools unbounded), and each buffer's
    candidates hold its hand pool among others, in a random order."""
    n = draw(st.integers(2, 7))
    num_pools = draw(st.integers(2, 3))
    spans = [
        (s, s + draw(st.integers(1, 6)))
        for s in draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
    ]
    sizes = draw(st.lists(st.integers(1, 64), min_size=n, max_size=n))
    hand = draw(st.lists(st.integers(0, num_pools - 1), min_size=n, max_size=n))
    unbounded = draw(st.lists(st.booleans(), min_size=num_pools, max_size=num_pools))
    fixed = interval_problem(
        spans,
        sizes,
        pools=tuple(PoolSpec(f"p{i}") for i in range(num_pools)),
        candidates=tuple((p,) for p in hand),
    )
    hand_plan = place_in_order(fixed, geometry_of(fixed), np.arange(n), Fit.FIRST)
    needs = hand_plan.pool_sizes(fixed).tolist()
    pools = tuple(
        PoolSpec(f"p{i}", size_hint=None if unbounded[i] else needs[i]) for i in range(num_pools)
    )
    candidates = []
    for buffer in range(n):
        others = draw(st.lists(st.integers(0, num_pools - 1), max_size=num_pools, unique=True))
        choice = list(dict.fromkeys([*others, hand[buffer]]))
        candidates.append(tuple(draw(st.permutations(choice))))
    return interval_problem(spans, sizes, pools=pools, candidates=tuple(candidates))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem=problems_with_a_hand_plan())
def test_the_bounds_never_reject_a_problem_with_a_plan(problem):
    check_size_hints(problem)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem=problems_with_a_hand_plan())
def test_exact_finds_a_plan_when_a_hand_plan_exists(problem):
    plan = get_algorithm("exact")(problem, Budget(effort=0.05))
    assert validate(problem, plan) == []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem=problems_with_a_hand_plan())
def test_default_plans_or_says_a_plan_may_exist(problem):
    """`default` moves buffers in the way to their other pools, one step at a time; where
    that is not enough it must not claim that no plan exists."""
    _default_plans_or_says_a_plan_may_exist(problem)


def _default_plans_or_says_a_plan_may_exist(problem):
    try:
        plan = get_algorithm("default")(problem, Budget(effort=0.05))
    except PlanningError as error:
        assert "though a plan may exist" in str(error)
    else:
        assert validate(problem, plan) == []


def test_default_says_a_plan_may_exist_when_a_chain_of_moves_is_needed():
    """A plan exists (b5 in p1, b6 in p0) but needs two moves; `default` makes one."""
    problem = interval_problem(
        [(0, 1)] * 6 + [(0, 2)],
        [1, 1, 1, 1, 1, 2, 1],
        pools=(PoolSpec("p0", 6), PoolSpec("p1", 2)),
        candidates=((0,), (0,), (0,), (0,), (0,), (0, 1), (1, 0)),
    )
    plan = get_algorithm("exact")(problem, Budget(effort=0.05))
    assert validate(problem, plan) == []
    _default_plans_or_says_a_plan_may_exist(problem)


def test_hill_climb_says_how_many_bytes_its_rule_missed():
    """`b2` conflicts with `b1` only, which its first round places above `b0`: a gap lies
    below `b1`, but TVM's rule drops a pool the buffer does not fit above its highest
    conflict in, so the pool lacks 50 bytes (it once said "-170 bytes missing")."""
    problem = interval_problem(
        [(0, 4), (0, 10), (5, 10)], [120, 100, 50], pools=(PoolSpec("sram", size_hint=220),)
    )
    with pytest.raises(PlanningError) as error:
        # No time for a second round: the first round's failure is the answer.
        get_algorithm("hill_climb")(problem, Budget(time_limit=0))
    assert "(sram: size hint 220 bytes, needs 270, 50 bytes missing)" in str(error.value)
