"""`default`: the best plan of a portfolio of greedy placements, improved in a small budget.

No single buffer order wins everywhere: size-descending is best on most real graphs, orders
by lifetime or live pressure win on the synthetic MiniMalloc suite. So the portfolio runs
several orders under first fit and best fit, keeps the smallest plan, moves the buffers
that set a pool's size earlier in the winning order (TVM's hill climb, aimed at the top
instead of at random), and gives the rest of its budget to the canonical branch and bound,
which often closes the gap to max-live on problems of a few hundred buffers. Past the
search's reach (single live intervals, more than `MAX_SEARCH_BUFFERS` buffers), the
buffers around the busiest time are packed by the search and the rest placed around them
(`peak_seed`: a training graph's peak then often stays at max-live); short-lived traces get
MiniMalloc's first dive too (`skyline`) and up to a quarter of the budget for repairs
around the peaks (`repair`), cheaper than whole placements there; training graphs keep the
orders. The budget is work, not time (`work`): the same problem gets the same plan on every
run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from usmp_dialect.planning.algorithms.canonical_search import (
    MAX_SEARCH_BUFFERS,
    improve_plan,
    search_notes,
)
from usmp_dialect.planning.algorithms.peak_seed import peak_seeded_plan
from usmp_dialect.planning.algorithms.placement import (
    Fit,
    Geometry,
    geometry_of,
    lifetime_area,
    place_in_order,
    single_spans,
)
from usmp_dialect.planning.algorithms.pool_choice import with_pool_last, with_room_made
from usmp_dialect.planning.algorithms.repair import RepairWork, repair_peaks
from usmp_dialect.planning.algorithms.skyline import DIVE_KEYS, dive
from usmp_dialect.planning.algorithms.work import (
    SEARCH_STEP_SECONDS,
    SKYLINE_SECONDS_PER_LOOKUP,
    TimeCap,
    placement_seconds,
    placement_seconds_measured,
    placements_in,
    repair_lookups_in,
)
from usmp_dialect.planning.budget import Budget
from usmp_dialect.planning.conflicts import max_live
from usmp_dialect.planning.problem import Plan, PlanningError, Problem
from usmp_dialect.planning.size_hints import check_size_hints

_BASE_SECONDS = 1.5
_SECONDS_PER_BUFFER = 1.2e-4
"""The portfolio's budget in reference seconds (`work`) grows with the problem: a few
orders of a 60k-buffer trace take seconds, an A–K-sized problem gets well under two."""

_GREEDY_SHARE = 0.3
"""The share of the budget for greedy orders and the hill climb when the search can run."""

_PROOF_SHARE = 0.25
"""Where the search can run, the share of the budget added to it for the question at the
pool's lower bound: a plan there ends the search, proven optimal, where the bisection's
questions only narrow the gap. MiniMalloc's B and E need 0.37 and 0.33 reference seconds
there (82M and 72M steps), more than their quarter of the search (0.27)."""

_HILL_CLIMB_SEED = 0

_LARGE_GREEDY_SHARE = 0.5
"""On a problem too large for the search, the share of the work for whole placements
(orders and dives); repairs get the rest (up to `_LARGE_REPAIR_SHARE`)."""

_LARGE_REPAIR_SHARE = 0.25
"""On a problem too large for the search and short-lived enough for dives, the most of the
work repairs may take: a repair stops at max-live, so more work only pays where it does
not get there, and there it is mostly lost on windows that cannot be lowered; the whole
placements keep most of the work (figures in BENCHMARKS.md, "Scaling")."""

_DIVE_MAX_MEAN_DEGREE = 200
"""Dives run when buffers meet at most this many others on average. Long-lived buffers
among many short ones go back to a dive's heap each time the skyline under them rises:
random traces (mean degree 100) take 25-28 skyline lookups a buffer and gain most from a
dive, training graphs (1300-5800) take 40-1100 and gain nothing over the orders."""

_SEED_PLACEMENTS = 1.0
"""Placements' worth of search steps the peak window may take (`peak_seed`)."""

_DIVE_LOOKUPS_PER_BUFFER = 40
"""A dive that needs more skyline lookups than this a buffer is given up."""


@dataclass(frozen=True)
class Order:
    name: str
    keys: Callable[[Problem, Geometry], list[np.ndarray]]
    """Sort keys, most significant first, each ascending; ties keep buffer order."""


ORDERS: tuple[Order, ...] = (
    Order("size", lambda p, g: [-p.sizes]),
    Order("size-length", lambda p, g: [-p.sizes, -g.length, g.start]),
    Order("pressure-length-area", lambda p, g: [-g.pressure, -g.length, -lifetime_area(p, g)]),
    Order("length-area-pressure", lambda p, g: [-g.length, -lifetime_area(p, g), -g.pressure]),
    Order("area", lambda p, g: [-lifetime_area(p, g), -p.sizes]),
    Order("conflicts", lambda p, g: [-g.degree, -p.sizes]),
    Order("pressure-size", lambda p, g: [-g.pressure, -p.sizes]),
    Order("start", lambda p, g: [g.start, -p.sizes]),
)


def order_of(problem: Problem, geometry: Geometry, order: Order) -> np.ndarray:
    keys = order.keys(problem, geometry)
    # lexsort sorts by its last key first and is stable.
    return np.lexsort([np.arange(problem.num_buffers), *keys[::-1]])


@dataclass
class Candidate:
    plan: Plan
    total: int
    order: np.ndarray
    fit: Fit
    name: str


def portfolio_seconds(problem: Problem, effort: float) -> float:
    return effort * (_BASE_SECONDS + _SECONDS_PER_BUFFER * problem.num_buffers)


RUNS: tuple[tuple[str, Fit], ...] = tuple(
    dict.fromkeys(
        (
            ("length-area-pressure", Fit.BEST),
            ("size", Fit.FIRST),
            ("conflicts", Fit.BEST),
            ("pressure-length-area", Fit.BEST),
            ("size-length", Fit.FIRST),
            ("size-length", Fit.BEST),
            *((order.name, fit) for fit in Fit for order in ORDERS),
        )
    )
)
"""Which order under which fit, best first, each once: on the large training graphs one
run takes seconds, and long-lived buffers first under best fit win there (S_1: 1.0025x
max-live against 1.04x for size-first first fit)."""

LARGE_RUNS = (RUNS[3], *RUNS[0:3], *RUNS[4:])
"""`RUNS` with the live-pressure order first, for problems past the search's reach: on
traces like Y_1 it reaches max-live at once where the three runs before it in `RUNS` do
not, and a whole placement there costs half a second. S_1, pangu_2.6B and random traces
of 4k and 64k buffers get the same plans as with `RUNS`; a random 16k trace gets another
plan at max-live without a dive."""


WINDOW_RUNS = 6
"""The runs a repair tries on a window first (`repair`): the best of the portfolio."""


def window_orders(problem: Problem, geometry: Geometry) -> list[tuple[np.ndarray, Fit]]:
    """The first `WINDOW_RUNS` runs' orders of a repair window's buffers."""
    orders = {order.name: order for order in ORDERS}
    return [(order_of(problem, geometry, orders[name]), fit) for name, fit in RUNS[:WINDOW_RUNS]]


def run_portfolio(
    problem: Problem,
    geometry: Geometry,
    lower_bound: int,
    placements: int,
    cap: TimeCap,
    runs: Sequence[tuple[str, Fit]] = RUNS,
    best: Candidate | None = None,
) -> tuple[Candidate, int]:
    """The best greedy plan over the first `placements` of `runs` and `best` (the first
    always runs; none after a plan at `lower_bound`), and how many ran."""
    orders = {order.name: order for order in ORDERS}
    first_failure: PlanningError | None = None
    done = 0
    for name, fit in runs:
        if best is not None and best.total <= lower_bound:
            break
        if done and (done >= placements or cap.reached()):
            break
        done += 1
        sequence = order_of(problem, geometry, orders[name])
        try:
            plan = place_in_order(problem, geometry, sequence, fit)
        except PlanningError as failure:
            first_failure = first_failure or failure
            continue
        total = plan.total_size(problem)
        if best is None or total < best.total:
            best = Candidate(plan, total, sequence, fit, f"{name}/{fit.value}")
    if best is None:
        assert first_failure is not None
        raise first_failure
    return best, done


def run_dives(
    problem: Problem,
    geometry: Geometry,
    lower_bound: int,
    best: Candidate,
    placements: float,
    cap: TimeCap,
) -> tuple[Candidate, float]:
    """`best` or a better bottom-up plan, the dives given at most `placements` placements'
    worth of work (each at most `_DIVE_LOOKUPS_PER_BUFFER` lookups a buffer), and the
    placements' worth spent."""
    per_placement = placement_seconds(problem, geometry) / SKYLINE_SECONDS_PER_LOOKUP
    spent = 0.0
    for name in DIVE_KEYS:
        limit = min(
            int((placements - spent) * per_placement),
            _DIVE_LOOKUPS_PER_BUFFER * problem.num_buffers,
        )
        if best.total <= lower_bound or limit <= 0 or cap.reached():
            break
        plan, lookups = dive(problem, geometry, name, limit)
        spent += lookups / per_placement
        if plan is None:
            continue
        total = plan.total_size(problem)
        if total < best.total:
            by_offset = np.lexsort((np.arange(problem.num_buffers), plan.offset))
            best = Candidate(plan, total, by_offset, Fit.FIRST, name)
    return best, spent


def run_peak_seed(
    problem: Problem,
    geometry: Geometry,
    lower_bound: int,
    best: Candidate,
    placements: float,
    cap: TimeCap,
) -> tuple[Candidate, float]:
    """`best` or the plan seeded at the peak (`peak_seed`, size-first first fit around it)
    if smaller, and the placements' worth spent (the search's steps and one placement):
    nothing when `placements` cannot pay for both."""
    if best.total <= lower_bound or placements < _SEED_PLACEMENTS + 1:
        return best, 0.0
    per_placement = placement_seconds(problem, geometry)
    steps = int(_SEED_PLACEMENTS * per_placement / SEARCH_STEP_SECONDS)
    order = order_of(problem, geometry, ORDERS[0])
    plan, spent = peak_seeded_plan(problem, geometry, order, Fit.FIRST, steps, cap)
    worth = spent * SEARCH_STEP_SECONDS / per_placement
    if plan is None:
        return best, worth
    total = plan.total_size(problem)
    if total < best.total:
        best = Candidate(
            plan, total, order, Fit.FIRST, f"peak-seeded/{ORDERS[0].name}/{Fit.FIRST.value}"
        )
    return best, worth + 1


def _pool_setters(problem: Problem, plan: Plan) -> np.ndarray:
    """The buffers whose top is their pool's size: lowering the pools means moving them."""
    pool_sizes = plan.pool_sizes(problem)
    tops = plan.offset + problem.sizes
    return np.flatnonzero(tops == pool_sizes[plan.pool])


def move_pool_setters_earlier(
    problem: Problem,
    geometry: Geometry,
    start: Candidate,
    lower_bound: int,
    rounds: int,
    cap: TimeCap,
) -> tuple[Candidate, int]:
    """Up to `rounds` times, move a buffer that sets a pool's size to a random earlier place
    in the order, or (half the time, when it has other candidates) make its pool its last
    choice, and keep the change when the plan is no larger (equal moves let the climb
    cross plateaus); returns the plan and the rounds run."""
    if start.total <= lower_bound or rounds <= 0:
        return start, 0  # nothing to climb: numpy's random module (30 ms) is not loaded
    rng = np.random.default_rng(_HILL_CLIMB_SEED)
    current = start
    done = 0
    while done < rounds and current.total > lower_bound and not cap.reached():
        done += 1
        setters = _pool_setters(problem, current.plan)
        moved = int(rng.choice(setters))
        preferred = problem
        sequence = current.order
        if len(problem.candidates[moved]) > 1 and rng.random() < 0.5:
            preferred = with_pool_last(problem, moved, int(current.plan.pool[moved]))
        else:
            position = int(np.flatnonzero(current.order == moved)[0])
            if position == 0:
                continue
            target = int(rng.integers(0, position))
            sequence = np.insert(np.delete(current.order, position), target, moved)
        try:
            plan = place_in_order(preferred, geometry, sequence, current.fit)
        except PlanningError:
            continue
        total = plan.total_size(problem)
        if total <= current.total:
            current = Candidate(plan, total, sequence, current.fit, current.name)
            problem = preferred
    return current, done


def plan_portfolio(problem: Problem, seconds: float, cap: TimeCap) -> Plan:
    """The best greedy plan, hill-climbed (or, beyond the search's reach, repaired around
    its peaks), in `seconds` reference seconds of placements."""
    if problem.num_buffers == 0:
        empty = np.zeros(0, dtype=np.int64)
        return Plan(pool=empty, offset=empty, proven_optimal=True)
    geometry = geometry_of(problem)
    lower_bound = max_live(problem)
    placements = placements_in(seconds, problem, geometry)
    large = geometry.spans is not None and problem.num_buffers > MAX_SEARCH_BUFFERS
    try:
        if large:
            best, notes = _large_portfolio(problem, geometry, lower_bound, placements, cap)
        else:
            best, notes = _climbed_portfolio(problem, geometry, lower_bound, placements, cap)
    except PlanningError as failure:
        # The first order again, with buffers in the way sent to their other pools.
        problem = with_room_made(
            problem,
            geometry,
            failure,
            lambda preferred: run_portfolio(preferred, geometry, lower_bound, 1, cap)[0].plan,
            placements,
        )
        best, notes = _climbed_portfolio(problem, geometry, lower_bound, placements, cap)
    return Plan(
        pool=best.plan.pool,
        offset=best.plan.offset,
        proven_optimal=best.total <= lower_bound,
        time_capped=cap.hit,
        notes={**notes, "order": best.name, "lower_bound": lower_bound},
    )


def _climbed_portfolio(
    problem: Problem, geometry: Geometry, lower_bound: int, placements: int, cap: TimeCap
) -> tuple[Candidate, dict[str, object]]:
    """The portfolio's orders, then the hill climb with the placements left."""
    best, runs = run_portfolio(problem, geometry, lower_bound, placements, cap)
    improved, rounds = move_pool_setters_earlier(
        problem, geometry, best, lower_bound, max(placements - runs, 0), cap
    )
    return improved, {"greedy_runs": runs, "hill_climb_rounds": rounds, "greedy_size": best.total}


def _large_portfolio(
    problem: Problem, geometry: Geometry, lower_bound: int, placements: int, cap: TimeCap
) -> tuple[Candidate, dict[str, object]]:
    """The first order, the peak seed (`peak_seed`), the dives (when the buffers are
    short-lived enough), more orders (up to `_LARGE_GREEDY_SHARE` of the work after dives),
    then repairs around the peaks with the rest: a whole placement of a large problem costs
    a second, a repair milliseconds. On training graphs the orders get the work after the
    seed: there neither dives nor repairs gained on the best order."""
    best, runs = run_portfolio(problem, geometry, lower_bound, 1, cap, LARGE_RUNS)
    placements = _repriced(placements, problem, geometry, best.plan)
    # Placements' worth of work spent on other things than whole orders.
    best, other = run_peak_seed(problem, geometry, lower_bound, best, placements - runs, cap)
    share = 1.0
    repairs = float(placements)
    dives = bool(geometry.degree.mean() <= _DIVE_MAX_MEAN_DEGREE)
    if dives:
        left = placements - runs - other
        best, dived = run_dives(problem, geometry, lower_bound, best, left, cap)
        other += dived
        share = _LARGE_GREEDY_SHARE
        repairs = _LARGE_REPAIR_SHARE * placements
    greedy = max(int(share * placements - runs - other), 0)
    if greedy:
        best, more = run_portfolio(
            problem, geometry, lower_bound, greedy, cap, LARGE_RUNS[1:], best
        )
        runs += more
    left = min(placements - runs - other, repairs)
    work = RepairWork(repair_lookups_in(left, problem, geometry))
    assert geometry.spans is not None
    offset = repair_peaks(
        problem,
        geometry.spans,
        best.plan.pool,
        best.plan.offset,
        lower_bound,
        window_orders,
        work,
        cap,
        dives,
    )
    repaired = Plan(pool=best.plan.pool, offset=offset)
    notes: dict[str, object] = {
        "greedy_runs": runs,
        "greedy_size": best.total,
        "repaired_windows": work.windows_lowered,
    }
    return Candidate(repaired, repaired.total_size(problem), best.order, best.fit, best.name), notes


def _repriced(placements: int, problem: Problem, geometry: Geometry, first: Plan) -> int:
    """`placements` in the model's price, in the price the `first` whole placement counted
    (a dense trace's gap searches pass many more intervals than its pairs say): the rest
    of the work (orders, seed, dives, repairs) is counted in placements of that price."""
    if "placement_steps" not in first.notes:
        return placements
    modelled = placement_seconds(problem, geometry)
    measured = placement_seconds_measured(problem, geometry, first)
    return int(placements * modelled / measured)


def plan_default(problem: Problem, effort: float, cap: TimeCap) -> Plan:
    seconds = portfolio_seconds(problem, effort)
    if problem.num_buffers > MAX_SEARCH_BUFFERS:
        return improve_plan(problem, plan_portfolio(problem, seconds, cap), 0.0, cap)
    # Buffers live in several intervals (an operator's workspace shared by its calls) make
    # the static preorders' runs fail alike at every node limit: no-fusion MobileNetV2 and
    # ResNet-18 spent the whole budget undecided at 1.06x and 1.08x max-live, where Luby's
    # restarts reach max-live in a tenth of it. Single spans keep the doubling limits, which
    # do better on MiniMalloc's D and J.
    greedy = _GREEDY_SHARE * seconds
    search = partial(
        improve_plan,
        problem,
        seconds=seconds - greedy,
        cap=cap,
        restarts=single_spans(problem) is None,
        proof_seconds=_PROOF_SHARE * seconds,
    )
    asked = None
    if len(problem.pools) == 1:
        # The question at max-live first, from the first order's plan: where it finds a
        # plan (most small problems) no other order, climb round or question runs, and a
        # search that short runs in plain Python (numba is not loaded). Its answer does not
        # depend on the plan it starts from, so the rest is the same work either way.
        try:
            first = plan_portfolio(problem, 0.0, cap)
        except PlanningError:
            first = None  # over a size hint: the other orders may fit it
        if first is not None:
            probe = search(first, only_lower_bound=True)
            if probe.proven_optimal:
                return probe
            asked = search_notes(probe)
    return search(plan_portfolio(problem, greedy, cap), asked=asked)


def default(problem: Problem, budget: Budget) -> Plan:
    check_size_hints(problem)
    return plan_default(problem, budget.effort, TimeCap.after(budget.time_limit))
