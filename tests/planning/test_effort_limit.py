"""The largest effort `usmp-plan` accepts (`MAX_EFFORT`) is one every algorithm can work
with: its step and placement counts fit their integer counters (`--effort 1e300` was an
OverflowError in the search's step count, issue 33), and the time limit ends the run."""

import random

import pytest
from problems import listed_problem

from usmp_dialect.planning.budget import Budget
from usmp_dialect.planning.registry import available_algorithms, get_algorithm
from usmp_dialect.planning.validator import validate
from usmp_dialect.transforms.usmp_plan import MAX_EFFORT


@pytest.mark.parametrize("name", available_algorithms())
def test_every_algorithm_plans_at_the_largest_effort(name: str):
    rng = random.Random(5)
    n = 40  # dense random conflicts: no algorithm proves its first plan optimal
    pairs = {(i, j) for i in range(n) for j in range(i + 1, n) if rng.random() < 0.5}
    lists = [[j for j in range(n) if (i, j) in pairs or (j, i) in pairs] for i in range(n)]
    problem = listed_problem([rng.randint(1, 1000) for _ in range(n)], lists)
    plan = get_algorithm(name)(problem, Budget(time_limit=0.5, effort=MAX_EFFORT))
    assert validate(problem, plan) == []
