"""`exact`: the `default` plan, then the canonical branch and bound for the rest of the budget.

Anytime: it returns the best plan found when its work budget (`work`: search nodes worth
`_SECONDS` reference seconds, the `default` portfolio's included, and `_DESCENT_SECONDS`
more where the search leaves a pool unproven) or the time cap runs out, never worse than
`default`'s, and `proven_optimal` says whether the search proved it (a plan at max-live,
or the search space exhausted with every buffer's pool fixed).
"""

from __future__ import annotations

from usmp_dialect.planning.algorithms.canonical_search import MAX_SEARCH_BUFFERS, improve_plan
from usmp_dialect.planning.algorithms.placement import geometry_of
from usmp_dialect.planning.algorithms.pool_choice import Undecided, decide_pools
from usmp_dialect.planning.algorithms.portfolio import (
    plan_default,
    plan_portfolio,
    portfolio_seconds,
)
from usmp_dialect.planning.algorithms.work import TimeCap, placements_in
from usmp_dialect.planning.budget import Budget
from usmp_dialect.planning.problem import Plan, PlanningError, Problem
from usmp_dialect.planning.size_hints import check_size_hints, proven_out_of_space

_SECONDS = 10.0
"""Reference seconds of work at effort 1: the time limit `exact` ran to before plans had to
be reproducible."""

_DESCENT_SECONDS = 30.0
"""Reference seconds of a descent at effort 1, after the bisection (`improve_plan`), in the
pools it left unproven: on MiniMalloc's D and J its first plans below the bisection's take
about 10-20 s."""

_ASSIGNMENTS = 100_000
"""Pool choices `exact` tries at effort 1 when `default` found no plan within the hints."""


def exact(problem: Problem, budget: Budget) -> Plan:
    check_size_hints(problem)
    cap = TimeCap.after(budget.time_limit, budget.progress)
    default_seconds = portfolio_seconds(problem, budget.effort)
    seconds = max(budget.effort * _SECONDS - default_seconds, 0.0)
    try:
        start_plan = plan_default(problem, budget.effort, cap)
    except PlanningError as failure:
        return improve_plan(problem, _plan_within_hints(problem, budget, failure, cap), 0.0, cap)
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
    return improve_plan(
        problem,
        start_plan,
        seconds,
        cap,
        restarts=True,
        descent_seconds=budget.effort * _DESCENT_SECONDS if seconds else 0.0,
    )


def _plan_within_hints(
    problem: Problem, budget: Budget, failure: PlanningError, cap: TimeCap
) -> Plan:
    """A plan that fits the size hints `default` found none within, or the error saying
    that none exists or that none was found within the work budget."""
    if failure.buffer is None or proven_out_of_space(problem, failure.buffer):
        raise failure
    try:
        plan = decide_pools(
            problem,
            geometry_of(problem),
            budget.effort * _SECONDS,
            int(budget.effort * _ASSIGNMENTS),
            cap,
        )
    except Undecided:
        raise PlanningError(
            "algorithm 'exact' found no plan within the size hints in its work budget, and "
            f"did not prove that none exists ({_hints(problem)}); raise effort, or increase "
            "the size hints",
            failure.buffer,
        ) from None
    if plan is None:
        raise PlanningError(
            f"no plan fits the size hints ({_hints(problem)}): algorithm 'exact' proved it; "
            "increase the size hints",
            failure.buffer,
        )
    return plan


def _hints(problem: Problem) -> str:
    return ", ".join(
        f"{pool.name}: size hint {pool.size_hint} bytes"
        for pool in problem.pools
        if pool.size_hint is not None
    )
