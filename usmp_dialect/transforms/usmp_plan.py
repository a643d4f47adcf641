"""`usmp-plan`: fill in every buffer's offset and every pool's size.

The rewrite reads pools, allocations and liveness as arrays, asks a registered algorithm
for a plan, has the independent validator check it, and only then writes it back, with
how it was found as the module's `usmp.plan` attribute (the algorithm, whether the plan is
proven optimal, whether the time limit cut the work short, the pool sizes a search proved
no plan goes below; `usmp-report` shows it), and on each buffer that went past its first
candidate pools which ones (`usmp.overflowed_from`, for the report's overflow lines). It
only plans: a buffer without candidate pools is an error saying to run
`usmp-assign-pools` first. A module that is already planned is left alone, so the pattern
stops matching once applied.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    SymbolRefAttr,
    i64,
)
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from usmp_dialect.analysis.module_problem import ModuleProblem, build_problem
from usmp_dialect.analysis.traffic import buffer_traffic
from usmp_dialect.diagnostics import UsmpError, warn
from usmp_dialect.dialects.usmp import (
    FILL_ATTR,
    OVERFLOW_ATTR,
    PLAN_ATTR,
    LivenessOp,
    PlanAttr,
    module_liveness,
    module_pools,
    module_usmp_ops,
)
from usmp_dialect.dialects.usmp_syntax import i64_attr
from usmp_dialect.lowering.allocations_to_usmp import pending_allocations
from usmp_dialect.planning.budget import (
    DEFAULT_ALGORITHM,
    DEFAULT_EFFORT,
    DEFAULT_TIME_LIMIT,
    PLANNING_PROGRESS,
    Budget,
)
from usmp_dialect.planning.fill import FILL_RULES, planned_by_traffic, traffic_served
from usmp_dialect.planning.problem import Plan, PlanningError, Problem
from usmp_dialect.planning.registry import get_algorithm
from usmp_dialect.planning.validator import validate

MAX_EFFORT = 1e6
"""Effort 1 buys seconds of work, so 1e6 buys weeks: past it a budget is never reached
before the time limit, and the step counts the algorithms derive from it would no longer
fit their int64 counters (`--effort 1e300` overflowed). Rejected rather than clamped: a
clamped effort would give a plan the user did not ask for, silently."""


def plan_module_problem(
    planned: ModuleProblem, algorithm: str, budget: Budget, fill: str = "first"
) -> tuple[Plan, Plan | None]:
    """Run the algorithm and the validator; errors point at the buffer they are about.
    With `fill="traffic"`, the plan that fills the size-hinted pools by traffic
    (`planning/fill.py`), and TVM's rule's plan to compare it with; else the plan alone."""

    def plan_of(problem: Problem) -> Plan:
        return get_algorithm(algorithm)(problem, budget)

    first: Plan | None = None
    try:
        if fill == "traffic":
            traffic = buffer_traffic(planned.allocs, planned.problem.sizes.tolist())
            plan, first = planned_by_traffic(plan_of, planned.problem, traffic)
        else:
            plan = plan_of(planned.problem)
    except PlanningError as error:
        op = planned.allocs[error.buffer] if error.buffer is not None else None
        raise UsmpError(str(error), op) from error
    errors = validate(planned.problem, plan)
    if errors:
        raise UsmpError(f"algorithm '{algorithm}' produced an invalid plan: {errors[0]}")
    return plan, first


def plan_summary(algorithm: str, plan: Plan) -> PlanAttr:
    return PlanAttr(algorithm, plan.proven_optimal, plan.time_capped, plan.lower_bound_by_pool())


def write_plan(planned: ModuleProblem, plan: Plan, rewriter: PatternRewriter) -> None:
    # One list per pool and one attribute per offset, shared by the buffers that have it
    # (attributes are immutable): a large problem has tens of thousands of buffers, Y_1
    # 62k at 18k offsets.
    placed_in = [ArrayAttr([SymbolRefAttr(pool.sym_name)]) for pool in planned.pools]
    pool_of, offsets = plan.pool.tolist(), plan.offset.tolist()
    offset_attrs: dict[int, IntegerAttr] = {}
    for index, op in enumerate(planned.allocs):
        pool = planned.pools[pool_of[index]]
        if len(op.pools.data) > 1:
            passed_over = op.pools.data[: op.pool_names.index(pool.sym_name.data)]
            if passed_over:
                op.attributes[OVERFLOW_ATTR] = ArrayAttr(passed_over)
        op.properties["pools"] = placed_in[pool_of[index]]
        offset = offsets[index]
        offset_attr = offset_attrs.get(offset)
        if offset_attr is None:
            offset_attr = offset_attrs[offset] = i64_attr(offset)
        op.properties["offset"] = offset_attr
        rewriter.notify_op_modified(op)
    for pool, size in zip(planned.pools, plan.pool_sizes(planned.problem), strict=True):
        pool.properties["size"] = IntegerAttr(int(size), i64)
        rewriter.notify_op_modified(pool)


def fill_comparison(planned: ModuleProblem, plan: Plan, first: Plan) -> DictionaryAttr:
    """Per pool, `[traffic, size under TVM's rule, traffic under TVM's rule]`: the bytes
    read and written of the buffers `plan` puts there, and `first`'s figures."""
    problem = planned.problem
    traffic = buffer_traffic(planned.allocs, problem.sizes.tolist())
    figures = zip(
        traffic_served(problem, plan, traffic).tolist(),
        first.pool_sizes(problem).tolist(),
        traffic_served(problem, first, traffic).tolist(),
        strict=True,
    )
    return DictionaryAttr(
        {
            pool.sym_name.data: ArrayAttr([i64_attr(v) for v in values])
            for pool, values in zip(planned.pools, figures, strict=True)
        }
    )


@dataclass
class PlanPools(RewritePattern):
    """Matches the module's `usmp.liveness`, the anchor of its planning problem, while any
    buffer or pool of the module is still unplanned."""

    algorithm: str
    budget: Budget
    fill: str = "first"

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: LivenessOp, rewriter: PatternRewriter) -> None:
        module = op.parent_op()
        if module is None:
            return
        allocs, pools, liveness = module_usmp_ops(module)
        if liveness is not op:
            return
        if all("offset" in a.properties for a in allocs) and all(
            pool.size is not None for pool in pools
        ):
            return
        planned = build_problem(allocs, pools)
        plan, first = plan_module_problem(planned, self.algorithm, self.budget, self.fill)
        if first is not None:
            module.attributes[FILL_ATTR] = fill_comparison(planned, plan, first)
        write_plan(planned, plan, rewriter)
        module.attributes[PLAN_ATTR] = plan_summary(self.algorithm, plan)
        rewriter.notify_op_modified(module)
        if plan.time_capped:
            warn(
                f"the time limit ({self.budget.time_limit:g} s) stopped "
                f"'{self.algorithm}' before its work budget did: another run may give "
                "another plan; raise time-limit, or lower effort, for a reproducible one",
                op,
                "usmp-plan",
            )


@dataclass(frozen=True)
class UsmpPlan(ModulePass):
    """Place every buffer in a pool with the named algorithm (see `usmp-opt --help`)."""

    name = "usmp-plan"

    algorithm: str = DEFAULT_ALGORITHM
    time_limit: int | float = DEFAULT_TIME_LIMIT
    """Seconds: a safety cap. When it ends an algorithm before its work budget does, the
    plan may differ between runs; a warning and `usmp.plan` say so."""
    fill: str = "first"
    """Which buffers a size-hinted pool holds: `first`, TVM's rule (the first candidate
    with room, in the algorithm's order); `traffic`, those serving the most memory traffic
    per byte, fastest pool first (`planning/fill.py`)."""
    effort: int | float = DEFAULT_EFFORT
    """Scales the work an algorithm allots itself (search nodes, greedy orders, climb
    rounds) as a function of the problem: the same effort gives the same plan on any run."""

    def __post_init__(self):
        # Options are checked when the pipeline is built, before any input is read.
        try:
            get_algorithm(self.algorithm)
        except PlanningError as error:
            raise UsmpError(str(error)) from error
        if self.fill not in FILL_RULES:
            raise UsmpError(f"fill must be one of {', '.join(FILL_RULES)}, got '{self.fill}'")
        if self.time_limit < 0:
            raise UsmpError(f"time-limit must not be negative, got {self.time_limit}")
        if not self.effort > 0:
            raise UsmpError(f"effort must be positive, got {self.effort}")
        if self.effort > MAX_EFFORT:
            raise UsmpError(
                f"effort {self.effort:g} is past the limit of {MAX_EFFORT:g}: effort 1 is "
                "seconds of work, so a larger budget could only be ended by the time limit"
            )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        allocs, _, liveness = module_usmp_ops(op)
        if not allocs and (pending := pending_allocations(op)):
            raise UsmpError("nothing to plan: run memref-to-usmp or tir-to-usmp first", pending[0])
        if allocs and liveness is None:
            raise UsmpError(
                "the module has buffers but no usmp.liveness: run memref-to-usmp or "
                "tir-to-usmp first, or write the live intervals",
                allocs[0],
            )
        if not allocs:
            # Nothing to place: every pool is planned empty (size 0), so the lowerings
            # know it is done with.
            for pool in module_pools(op):
                if pool.size is None:
                    pool.properties["size"] = IntegerAttr(0, i64)
            return
        if unassigned := [a for a in allocs if not a.pools.data]:
            raise UsmpError(
                f"buffer '{unassigned[0].buffer_name.data}' has no candidate pools: run "
                "usmp-assign-pools first (--plan-pools does)",
                unassigned[0],
            )
        budget = Budget(
            time_limit=float(self.time_limit),
            effort=float(self.effort),
            progress=PLANNING_PROGRESS.get(),
        )
        # Applied at its anchor rather than by PatternRewriteWalker, whose error path
        # prints the whole module into the error (docs/architecture.md, measured).
        if (liveness := module_liveness(op)) is not None:
            PlanPools(self.algorithm, budget, self.fill).match_and_rewrite(
                liveness, PatternRewriter(liveness)
            )
