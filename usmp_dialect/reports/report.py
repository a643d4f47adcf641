"""`-t usmp-report`: what a plan costs, as a table for people or JSON for scripts.

Each pool's size is shown beside its max-live lower bound (the most bytes its buffers
ever need at one time), so a user sees at once how far a plan is from the best possible,
and below the tables how the plan was found (`usmp.plan`): by which algorithm, whether it
is proven optimal, whether the time limit stopped the algorithm (only then may the plan
differ between runs), and the best lower bound known per pool (what `exact`'s search
proved no plan goes below, else max-live), how far the plan is above it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import IO, Literal, NotRequired, TypedDict

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
)
from xdsl.ir import Operation
from xdsl.utils.target import Target

from usmp_dialect.analysis.module_problem import ModuleProblem, module_problem, written_plan
from usmp_dialect.analysis.tir_liveness import io_mark
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import (
    FILL_ATTR,
    IN_PLACE_RESULTS_ATTR,
    OVERFLOW_ATTR,
    PLAN_ATTR,
    SCHEDULE_ATTR,
    UNPLANNED_ATTR,
    AllocOffsetOp,
    InPlaceResultsAttr,
    PlanAttr,
    ScheduleAttr,
    nested_ops,
)
from usmp_dialect.planning.conflicts import max_live, max_live_per_pool
from usmp_dialect.planning.problem import Plan, Problem, unique_values
from usmp_dialect.reports.bands import Bands, band_lines, module_bands
from usmp_dialect.reports.names import short_names


def _planned(planned: ModuleProblem) -> Plan:
    unplanned = [op for op in planned.allocs if "offset" not in op.properties]
    if unplanned:
        raise UsmpError(
            f"buffer '{unplanned[0].buffer_name.data}' is not planned yet: run usmp-plan "
            "(or --plan-pools) before asking for a report",
            unplanned[0],
        )
    return written_plan(planned)


class PoolSummary(TypedDict):
    name: str
    size: int
    size_hint: int | None
    max_live: int
    overflowed: int
    """How many buffers came here because they did not fit an earlier candidate."""
    largest_overflowed: list[str]
    """The largest of them, largest first (at most `LARGEST_SHOWN`)."""


class BufferSummary(TypedDict):
    name: str
    pool: str
    offset: int
    size: int
    live: list[list[int]]
    """Half-open `[start, end)` intervals; none for a buffer never used."""
    io: str | None
    """`input`, `output` or `input_output` for one of the program's own buffers."""
    overflowed_from: list[str]
    """The earlier candidate pools whose size hints it did not fit."""
    label: NotRequired[str]
    """For a name longer than 63 characters, the name the text report, the picture and
    the page show (`short_names`); `name` stays the full one."""


def buffer_label(buffer: BufferSummary) -> str:
    """The buffer's name as shown: at most 63 characters."""
    return buffer.get("label", buffer["name"])


class Unplanned(TypedDict):
    name: str
    reason: str


PlanSummary = dict[str, bool | str | dict[str, int]]
"""`usmp.plan` as data: `algorithm`, `proven_optimal`, `time_limit_reached`, and
`lower_bounds` when a search proved some."""


class PlanReport(TypedDict):
    pools: list[PoolSummary]
    buffers: list[BufferSummary]
    lower_bounds: dict[str, int]
    """Per pool, the best size known that no plan goes below (given the buffers in it):
    its size when the plan is proven optimal, else the larger of its max-live and what a
    search proved."""
    max_live: int
    unplanned: list[Unplanned]
    plan: PlanSummary | None
    fill: NotRequired[list[PoolFill]]
    bands: NotRequired[Bands]
    """What `tir-band-stages` banded, when it ran."""
    """For a plan made with `fill=traffic`, per pool against TVM's rule on the same pools."""
    schedule: NotRequired[Schedule]
    """What `tir-reorder-for-memory` and `tir-in-place-results` changed, where they did."""


class Schedule(TypedDict):
    order: str | None
    """`usmp.schedule`: the new order of the entry's calls, its peak against the file's."""
    in_place: dict[str, str]
    """Each result computed in the bytes of an input, by name: `{result: input}`."""


def _schedule(module: ModuleOp) -> Schedule | None:
    for op in module.body.block.ops:
        order = op.attributes.get(SCHEDULE_ATTR)
        shared = op.attributes.get(IN_PLACE_RESULTS_ATTR)
        if order is None and shared is None:
            continue
        return {
            "order": order.text if isinstance(order, ScheduleAttr) else None,
            "in_place": shared.over if isinstance(shared, InPlaceResultsAttr) else {},
        }
    return None


def _schedule_lines(report: PlanReport) -> list[str]:
    if "schedule" not in report:
        return []
    schedule = report["schedule"]
    lines = [""]
    if schedule["order"] is not None:
        lines.append(f"schedule: {schedule['order']}")
    if schedule["in_place"]:
        pairs = ", ".join(f"{r} over {x}" for r, x in schedule["in_place"].items())
        lines.append(f"in place (a result over an input that dies there): {pairs}")
    return lines


class PoolFill(TypedDict):
    pool: str
    size: int
    size_hint: int | None
    traffic_share: float
    """Of the bytes the calls read and write of all planned buffers, the share of its."""
    first_rule_size: int
    first_rule_traffic_share: float


def _fill(module: ModuleOp, pools: list[PoolSummary]) -> list[PoolFill] | None:
    found = module.attributes.get(FILL_ATTR)
    if not isinstance(found, DictionaryAttr):
        return None
    figures = {
        name: [v.value.data for v in value.data]  # type: ignore[attr-defined]
        for name, value in found.data.items()
    }
    total = max(sum(f[0] for f in figures.values()), 1)
    return [
        {
            "pool": pool["name"],
            "size": pool["size"],
            "size_hint": pool["size_hint"],
            "traffic_share": round(figures[pool["name"]][0] / total, 4),
            "first_rule_size": figures[pool["name"]][1],
            "first_rule_traffic_share": round(figures[pool["name"]][2] / total, 4),
        }
        for pool in pools
        if pool["name"] in figures
    ]


def _fill_lines(report: PlanReport) -> list[str]:
    if "fill" not in report:
        return []

    def used(size: int, hint: int | None) -> str:
        if hint is None:
            return f"{size} bytes"
        return f"{size} of {hint} bytes" + (f" ({size / hint:.0%})" if hint else "")

    lines = [
        f"  {f['pool']}: {used(f['size'], f['size_hint'])}, {f['traffic_share']:.0%} of the "
        f"traffic; TVM's rule: {used(f['first_rule_size'], f['size_hint'])}, "
        f"{f['first_rule_traffic_share']:.0%}"
        for f in report["fill"]
    ]
    return [
        "",
        "fill by traffic (bytes calls read and write), against TVM's rule on the same pools:",
        *lines,
    ]


ReportOrder = Literal["pool", "name", "size", "live", "ir"]
"""How buffers are listed: by pool then offset (the pools' layout, bottom up), by name, by
size (largest first), by the start of their live range, or in IR order."""


def _sorted_buffers(buffers: list[BufferSummary], order: ReportOrder, pools: list[str]):
    position = {name: index for index, name in enumerate(pools)}
    keys = {
        "pool": lambda b: (position[b["pool"]], b["offset"], b["name"]),
        "name": lambda b: b["name"],
        "size": lambda b: (-b["size"], b["name"]),
        "live": lambda b: (b["live"][0][0] if b["live"] else -1, b["name"]),
    }
    return buffers if order == "ir" else sorted(buffers, key=keys[order])


def plan_report(module: ModuleOp, order: ReportOrder = "pool") -> PlanReport:
    """The report as plain data: `{"pools", "buffers", "lower_bounds", "max_live",
    "unplanned", "plan"}`, buffers listed in `order`; a buffer that is one of the program's
    inputs or outputs says so in `io`; `plan` is how the plan was found, or None when the
    input came planned without saying."""
    planned = module_problem(module)
    problem = planned.problem
    plan = _planned(planned)
    pool_live = max_live_per_pool(problem, plan)
    pool_sizes = plan.pool_sizes(problem)
    intervals = planned.live
    live: list[list[list[int]]] = [[] for _ in planned.allocs]
    # Python ints from the start: numpy's element access is slow at 60k buffers.
    owners, starts, ends = (a.tolist() for a in (intervals.owner, intervals.start, intervals.end))
    for owner, start, end in zip(owners, starts, ends, strict=True):
        live[owner].append([start, end])
    pool_names = [pool.sym_name.data for pool in planned.pools]
    pool_of, offsets, sizes = plan.pool.tolist(), plan.offset.tolist(), problem.sizes.tolist()
    buffers: list[BufferSummary] = [
        {
            "name": name,
            "pool": pool_names[pool],
            "offset": offset,
            "size": size,
            "live": intervals_of,
            "io": (mark := io_mark(op)) and mark[1] if op.attributes else None,
            "overflowed_from": _overflowed_from(op) if op.attributes else [],
        }
        for name, pool, offset, size, intervals_of, op in zip(
            problem.names, pool_of, offsets, sizes, live, planned.allocs, strict=True
        )
    ]
    labels = short_names(b["name"] for b in buffers)
    for buffer in buffers:
        if labels[buffer["name"]] != buffer["name"]:
            buffer["label"] = labels[buffer["name"]]
    pools: list[PoolSummary] = []
    for index, (pool, size) in enumerate(zip(planned.pools, pool_sizes, strict=True)):
        name = pool.sym_name.data
        overflowed = sorted(
            (b for b in buffers if b["pool"] == name and b["overflowed_from"]),
            key=lambda b: (-b["size"], b["name"]),
        )
        pools.append(
            {
                "name": name,
                "size": int(pool.planned_size if pool.planned_size is not None else size),
                "size_hint": pool.size_hint_bytes,
                "max_live": int(pool_live[index]),
                "overflowed": len(overflowed),
                "largest_overflowed": [b["name"] for b in overflowed[:LARGEST_SHOWN]],
            }
        )
    how_planned = _how_planned(module)
    report: PlanReport = {
        "pools": pools,
        "buffers": _sorted_buffers(buffers, order, pool_names),
        "lower_bounds": _lower_bounds(pools, how_planned),
        "max_live": _whole_max_live(problem, plan, pool_live),
        "unplanned": _unplanned(module),
        "plan": how_planned,
    }
    if (fill := _fill(module, pools)) is not None:
        report["fill"] = fill
    if (schedule := _schedule(module)) is not None:
        report["schedule"] = schedule
    if (bands := module_bands(module)) is not None:
        report["bands"] = bands
    return report


def _whole_max_live(problem: Problem, plan: Plan, pool_live: np.ndarray) -> int:
    """`max_live` of the whole problem: with every buffer in one pool, that pool's, which
    weighs the same buffers the same way (the sweep is not run twice on a large trace)."""
    used = unique_values(plan.pool)
    if len(used) == 1:
        return int(pool_live[used[0]])
    return int(max_live(problem))


def _lower_bounds(pools: list[PoolSummary], plan: PlanSummary | None) -> dict[str, int]:
    proven = plan is not None and plan.get("proven_optimal") is True
    searched = plan.get("lower_bounds", {}) if plan is not None else {}
    assert isinstance(searched, dict)
    return {
        pool["name"]: pool["size"]
        if proven
        else max(pool["max_live"], searched.get(pool["name"], 0))
        for pool in pools
    }


LARGEST_SHOWN = 3


def _overflowed_from(op: AllocOffsetOp) -> list[str]:
    passed_over = op.attributes.get(OVERFLOW_ATTR)
    if not isinstance(passed_over, ArrayAttr):
        return []
    return [p.root_reference.data for p in passed_over.data if isinstance(p, SymbolRefAttr)]


def _overflow_lines(report: PlanReport) -> list[str]:
    """Per pool that took buffers an earlier candidate could not hold: how many, and the
    largest."""
    overflowed = [pool for pool in report["pools"] if pool["overflowed"]]
    if not overflowed:
        return []
    sizes = {b["name"]: b["size"] for b in report["buffers"]}
    labels = {b["name"]: buffer_label(b) for b in report["buffers"]}
    lines = []
    for pool in overflowed:
        largest = ", ".join(
            f"{labels[name]} ({sizes[name]} bytes)" for name in pool["largest_overflowed"]
        )
        lines.append(
            f"  {pool['name']}: {pool['overflowed']} buffer(s) overflowed into it; "
            f"largest: {largest}"
        )
    return ["", "overflow (buffers past an earlier candidate's size hint):", *lines]


def _how_planned(module: ModuleOp) -> PlanSummary | None:
    summary = module.attributes.get(PLAN_ATTR)
    if not isinstance(summary, PlanAttr):
        return None
    how: PlanSummary = {
        "algorithm": summary.algorithm.data,
        "proven_optimal": bool(summary.proven_optimal.value.data),
        "time_limit_reached": bool(summary.time_limit_reached.value.data),
    }
    if summary.bounds:
        how["lower_bounds"] = summary.bounds
    return how


def _unplanned(module: ModuleOp) -> list[Unplanned]:
    """Allocations the planner left alone, and why: each buffer once (one allocated in a
    loop, or by several calls of one operator, has an op each)."""
    found: dict[tuple[str, str], Unplanned] = {}
    for op in (module, *nested_ops(module)):
        reason = op.attributes.get(UNPLANNED_ATTR) if op.attributes else None
        if isinstance(reason, StringAttr):
            name = _unplanned_name(op)
            found.setdefault((name, reason.data), {"name": name, "reason": reason.data})
    return list(found.values())


def _unplanned_name(op: Operation) -> str:
    """A TIR buffer's TIR name; a memref, which has none, by its SSA name."""
    if isinstance(op, tir.AllocBufferOp):
        return tir.allocation_name(op) or op.name
    return (op.results[0].name_hint if op.results else None) or op.name


def _ratio(size: int, bound: int) -> str:
    return f"{size / bound:.3f}x" if bound else "-"


def text_table(header: list[str], rows: list[list[str]], numeric: set[int]) -> list[str]:
    """Rows as aligned columns, each as wide as its widest cell: numbers right-aligned, text
    left-aligned, the last column unpadded."""
    # Column by column: a 60k-buffer report has one row a buffer.
    *padded_columns, last = zip(header, *rows, strict=True)
    padded = []
    for i, column in enumerate(padded_columns):
        width = max(map(len, column))
        padded.append([cell.rjust(width) if i in numeric else cell.ljust(width) for cell in column])
    return ["  ".join(cells).rstrip() for cells in zip(*padded, last, strict=True)]


def format_text_report(report: PlanReport) -> str:
    pools = [
        [
            pool["name"],
            str(pool["size"]),
            str(pool["max_live"]),
            _ratio(pool["size"], pool["max_live"]),
            "-" if pool["size_hint"] is None else str(pool["size_hint"]),
        ]
        for pool in report["pools"]
    ]
    lines = text_table(["pool", "size", "max-live", "ratio", "size-hint"], pools, {1, 2, 3})
    lines += _overflow_lines(report)
    lines += _fill_lines(report)
    lines += _schedule_lines(report)
    buffers = [
        [
            buffer_label(buffer),
            buffer["pool"],
            str(buffer["offset"]),
            str(buffer["size"]),
            (" ".join([f"[{s}, {e})" for s, e in buffer["live"]]) or "-")
            + (f"  ({buffer['io']})" if buffer["io"] else ""),
        ]
        for buffer in report["buffers"]
    ]
    lines += ["", *text_table(["buffer", "pool", "offset", "size", "live"], buffers, {2, 3})]
    if report["unplanned"]:
        lines += ["", "not planned:"]
        unplanned = [[entry["name"], entry["reason"]] for entry in report["unplanned"]]
        lines += ["  " + line for line in text_table(["name", "reason"], unplanned, set())[1:]]
    total = sum(pool["size"] for pool in report["pools"])
    lines.append("")
    lines.append(
        f"total {total} bytes in {len(report['pools'])} pool(s); max-live "
        f"{report['max_live']} bytes ({_ratio(total, report['max_live'])})"
    )
    if report["plan"] is not None:
        lines += _plan_lines(report["plan"], report)
        lines.append(_lower_bound_line(report))
    if "bands" in report:
        lines += band_lines(report["bands"])
    return "\n".join(lines) + "\n"


def _lower_bound_line(report: PlanReport) -> str:
    """The best lower bound known per pool, and how far the plan is above it."""
    sizes = {pool["name"]: pool["size"] for pool in report["pools"]}
    bounds = [
        f"{name} {bound} bytes ({_ratio(sizes[name], bound)} of it)"
        for name, bound in report["lower_bounds"].items()
    ]
    return "lower bound: " + ", ".join(bounds)


def proof_of(report: PlanReport) -> str:
    """Whether the plan is optimal: the algorithm proved it, or every pool is as small as
    its lower bound (1.000x of it: nothing can be smaller)."""
    plan = report["plan"]
    if plan is not None and plan.get("proven_optimal"):
        return "proven optimal"
    bounds = report["lower_bounds"]
    if report["pools"] and all(p["size"] <= bounds[p["name"]] for p in report["pools"]):
        return "proven optimal (every pool at its lower bound)"
    return "not proven optimal"


def _plan_lines(plan: PlanSummary, report: PlanReport) -> list[str]:
    proof = proof_of(report)
    lines = [f"planned by '{plan.get('algorithm')}': {proof}"]
    if plan.get("time_limit_reached"):
        lines.append(
            "the time limit stopped the algorithm before its work budget: another run "
            "may give another plan"
        )
    return lines


@dataclass(frozen=True)
class UsmpReport(Target):
    name = "usmp-report"

    format: Literal["text", "json"] = "text"
    sort: ReportOrder = "pool"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        report = plan_report(module, self.sort)
        if self.format == "json":
            output.write(json.dumps(report) + "\n")
        else:
            output.write(format_text_report(report))
