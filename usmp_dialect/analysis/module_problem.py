"""A module of usmp IR as a planning problem: the planner core sees arrays only, and this
is the one place that turns pools, allocations and liveness into those arrays for the
passes and reports, as `usmp.liveness`'s verifier does (both through
`planning/buffer_table.py`), so that they agree on what a module means."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xdsl.ir import Operation

from usmp_dialect.dialects.usmp import AllocOffsetOp, PoolOp, buffer_table, module_usmp_ops
from usmp_dialect.planning import buffer_table as table
from usmp_dialect.planning.problem import Intervals, Plan, Problem


@dataclass(frozen=True)
class ModuleProblem:
    """A problem together with the ops its buffers and pools came from."""

    problem: Problem
    allocs: tuple[AllocOffsetOp, ...]
    pools: tuple[PoolOp, ...]
    live: Intervals
    """The live intervals written in the IR (the problem holds them only when explicit
    conflicts add nothing to them)."""


def build_problem(allocs: Sequence[AllocOffsetOp], pools: Sequence[PoolOp]) -> ModuleProblem:
    problem, live = table.table_problem(buffer_table(allocs, pools))
    return ModuleProblem(problem, tuple(allocs), tuple(pools), live)


def module_problem(module: Operation) -> ModuleProblem:
    allocs, pools, _ = module_usmp_ops(module)
    return build_problem(allocs, pools)


def written_plan(placed: ModuleProblem) -> Plan:
    """The plan the IR holds, when every buffer has its offset: each in its one pool."""
    # Read from the properties directly, as `usmp.buffer_table` reads them.
    offsets: list[Any] = [op.properties["offset"] for op in placed.allocs]
    return table.written_plan(placed.problem, [offset.value.data for offset in offsets])
