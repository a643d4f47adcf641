"""`exact`: the `default` plan, then the canonical branch and bound for the rest of the budget.

Anytime: it returns the best plan found when the time limit hits, never worse than
`default`'s, and `proven_optimal` says whether the search proved it (a plan at max-live, or
the search space exhausted with every buffer's pool fixed).
"""

from __future__ import annotations

import time

from usmp_dialect.planning.algorithms.canonical_search import (
    MAX_SEARCH_BUFFERS,
    compile_seconds,
    improve_plan,
)
from usmp_dialect.planning.algorithms.portfolio import default, plan_portfolio
from usmp_dialect.planning.problem import Plan, Problem
from usmp_dialect.planning.registry import Budget, register_algorithm


@register_algorithm("exact")
def exact(problem: Problem, budget: Budget) -> Plan:
    started = time.perf_counter()
    compiled = compile_seconds()
    start_plan = default(problem, budget)
    # The budget is for planning: compiling the search loop (first run only) is not in it.
    deadline = started + budget.time_limit + compile_seconds() - compiled
    if problem.num_buffers > MAX_SEARCH_BUFFERS and not start_plan.proven_optimal:
        # Too large for the search: the whole portfolio and hill climb get the time.
        wider = plan_portfolio(problem, deadline)
        if wider.total_size(problem) < start_plan.total_size(problem):
            start_plan = wider
    plan = improve_plan(problem, start_plan, deadline)
    plan.notes["seconds"] = round(time.perf_counter() - started, 3)
    return plan
