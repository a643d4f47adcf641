"""`first_fit` and `best_fit` reuse the gaps that TVM's greedy rule leaves empty."""

import numpy as np
from problems import listed_problem

from usmp_dialect.planning.algorithms.fit import place_in_gaps
from usmp_dialect.planning.algorithms.greedy import place_above_conflicts
from usmp_dialect.planning.algorithms.placement import gap_starts
from usmp_dialect.planning.problem import Problem
from usmp_dialect.planning.validator import validate


def test_gaps_between_blocks_lowest_first():
    offsets, tops = np.array([30, 0, 55]), np.array([40, 10, 60])
    starts, room = gap_starts(offsets, tops, size=12, alignment=1)
    assert starts.tolist() == [10, 40, 60]
    assert room[:2].tolist() == [20, 15]
    # Aligned to 16, [10, 30) starts at 16 and holds 14 bytes; [40, 55) starts at 48.
    assert gap_starts(offsets, tops, size=12, alignment=16)[0].tolist() == [16, 64]
    assert gap_starts(offsets, tops, size=15, alignment=16)[0].tolist() == [64]


def gapped_problem() -> Problem:
    """Placed in index order, `a` to `d` stack up to 60 bytes and leave [10, 30) and
    [40, 55) free for `new`, which conflicts with `a`, `c` and `d` only."""
    lists = [
        [1, 2, 3, 4, 5],
        [0, 2, 3, 4],
        [0, 1, 3, 4, 5],
        [0, 1, 2, 4],
        [0, 1, 2, 3, 5],
        [0, 2, 4],
    ]
    return listed_problem([10, 20, 10, 15, 5, 12], lists, names=("a", "b", "c", "e", "d", "new"))


ORDER = list(range(6))


def test_tvm_greedy_climbs_over_the_gaps():
    problem = gapped_problem()
    plan = place_above_conflicts(problem, ORDER, "greedy_by_size")
    assert plan.offset.tolist() == [0, 10, 30, 40, 55, 60]


def test_first_fit_takes_the_lowest_gap():
    problem = gapped_problem()
    plan = place_in_gaps(problem, ORDER, problem.conflicts, tightest=False, algorithm="first_fit")
    assert plan.offset.tolist() == [0, 10, 30, 40, 55, 10]
    assert validate(problem, plan) == []


def test_best_fit_takes_the_tightest_gap():
    problem = gapped_problem()
    plan = place_in_gaps(problem, ORDER, problem.conflicts, tightest=True, algorithm="best_fit")
    assert plan.offset.tolist() == [0, 10, 30, 40, 55, 40]
    assert validate(problem, plan) == []
