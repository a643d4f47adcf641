"""`exact`: the `default` plan, then the canonical branch and bound for the rest of the budget.

Anytime: it returns the best plan found when its work budget (`work`: search nodes worth
`_SECONDS` reference seconds, the `default` portfolio's included) or the time cap runs
out, never worse than `default`'s, and `proven_optimal` says whether the search proved it
(a plan at max-live, or the search space exhausted with every buffer's pool fixed).
"""

from __future__ import annotations

from usmp_dialect.planning.algorithms.canonical_search import MAX_SEARCH_BUFFERS, improve_plan
from usmp_dialect.planning.algorithms.placement import geometry_of
from usmp_dialect.planning.algorithms.portfolio import (
    plan_default,
    plan_portfolio,
    portfolio_seconds,
)
from usmp_dialect.planning.algorithms.work import TimeCap, placements_in
from usmp_dialect.planning.problem import Plan, Problem
from usmp_dialect.planning.registry import Budget, register_algorithm

_SECONDS = 10.0
"""Reference seconds of work at effort 1: the time limit `exact` ran to before plans had to
be reproducible."""


@register_algorithm("exact")
def exact(problem: Problem, budget: Budget) -> Plan:
    cap = TimeCap.after(budget.time_limit)
    start_plan = plan_default(problem, budget.effort, cap)
    default_seconds = portfolio_seconds(problem, budget.effort)
    seconds = max(budget.effort * _SECONDS - default_seconds, 0.0)
    if problem.num_buffers > MAX_SEARCH_BUFFERS and not start_plan.proven_optimal:
        # Too large for the search: the portfolio and hill climb get all the work, which
        # repeats the default's placements first (the same plans), then goes on.
        geometry = geometry_of(problem)
        total = default_seconds + seconds
        if placements_in(total, problem, geometry) > placements_in(
            default_seconds, problem, geometry
        ):
            wider = plan_portfolio(problem, total, cap)
            if wider.total_size(problem) < start_plan.total_size(problem):
                start_plan = wider
        seconds = 0.0
    return improve_plan(problem, start_plan, seconds, cap)
