"""The two rules every algorithm's plan keeps (issue 33, `planning/rules.py`): a buffer
placed by hand stays where it is, and a buffer is in a later candidate pool only when no
earlier one has room for it. Checked over random instances, for every algorithm; the
independent validator checks the fixed offsets too."""

import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.planning.problems import interval_problem, listed_problem
from usmp_dialect.planning.algorithms.placement import Fit, geometry_of, place_in_order
from usmp_dialect.planning.problem import Plan, PoolSpec, Problem
from usmp_dialect.planning.registry import Budget, available_algorithms, get_algorithm
from usmp_dialect.planning.validator import validate

ALGORITHMS = available_algorithms()
SMALL = Budget(effort=0.05)


@st.composite
def problems_with_fixed_buffers(draw):
    """Buffers over random spans in `sram` (hinted) and `dram` (not); a random subset is
    fixed where a first-fit plan put it (so the fixed ones agree with each other). Every
    buffer to plan may go to `dram`, so a plan always exists."""
    n = draw(st.integers(1, 8))
    spans = [
        (s, s + draw(st.integers(1, 6)))
        for s in draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
    ]
    sizes = draw(st.lists(st.sampled_from([0, 8, 16, 24, 64, 100]), min_size=n, max_size=n))
    pools = (PoolSpec("sram", size_hint=draw(st.sampled_from([64, 128, 256]))), PoolSpec("dram"))
    candidates = tuple(draw(st.sampled_from([(0, 1), (1,), (1, 0)])) for _ in range(n))
    problem = interval_problem(spans, sizes, pools=pools, candidates=candidates)
    seed = place_in_order(problem, geometry_of(problem), np.arange(n), Fit.FIRST)
    is_fixed = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    fixed = np.where(is_fixed, seed.offset, -1)
    return dataclasses.replace(
        problem,
        candidates=tuple((int(seed.pool[b]),) if is_fixed[b] else candidates[b] for b in range(n)),
        fixed=fixed,
    )


def earlier_pool_with_room(problem: Problem, plan: Plan, buffer: int) -> str | None:
    """An earlier candidate than the buffer's pool with an aligned gap for it among its
    conflicts placed there, under the hint; found by a plain scan."""
    candidates = problem.candidates[buffer]
    neighbours = set(problem.conflicts.of(buffer).tolist())
    neighbours |= {b for b in range(problem.num_buffers) if buffer in problem.conflicts.of(b)}
    size, alignment = int(problem.sizes[buffer]), int(problem.alignments[buffer])
    for pool in candidates[: candidates.index(int(plan.pool[buffer]))]:
        taken = sorted(
            (int(plan.offset[c]), int(plan.offset[c] + problem.sizes[c]))
            for c in neighbours - {buffer}
            if plan.pool[c] == pool and problem.sizes[c] > 0
        )
        place = 0
        for low, high in taken:
            if size == 0 or place + size <= low:
                break
            place = max(place, -(-high // alignment) * alignment)
        hint = problem.pools[pool].size_hint
        if hint is None or place + size <= hint:
            return problem.pools[pool].name
    return None


def assert_rules_kept(problem: Problem, plan: Plan) -> None:
    assert validate(problem, plan) == []
    fixed = problem.fixed_offsets()
    assert (plan.offset[fixed >= 0] == fixed[fixed >= 0]).all()
    for buffer in range(problem.num_buffers):
        assert earlier_pool_with_room(problem, plan, buffer) is None, problem.names[buffer]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem=problems_with_fixed_buffers())
def test_every_algorithm_keeps_fixed_buffers_and_first_candidates(algorithm, problem):
    assert_rules_kept(problem, get_algorithm(algorithm)(problem, SMALL))


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_fixed_buffer_kept_with_explicit_conflicts(algorithm):
    """Conflicts given as one-sided lists, no intervals: `b1` is placed by hand at 16,
    `b0` and `b2` conflict with it."""
    problem = dataclasses.replace(
        listed_problem([16, 16, 32], [[1], [], [1]], alignments=16),
        fixed=np.array([-1, 16, -1]),
    )
    plan = get_algorithm(algorithm)(problem, SMALL)
    assert_rules_kept(problem, plan)
    assert plan.offset[1] == 16


def test_validator_names_a_moved_fixed_buffer():
    problem = dataclasses.replace(
        interval_problem([(0, 1)], [16]), fixed=np.array([16], dtype=np.int64)
    )
    (fault,) = validate(problem, Plan(np.array([0]), np.array([0])))
    assert fault == (
        "buffer 'b0' was placed by hand at offset 16 of pool 'global_workspace', but the plan "
        "moves it to offset 0 of pool #0"
    )
