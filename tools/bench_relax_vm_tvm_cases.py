"""`PlanMemory()` as a drop-in for StaticPlanBlockMemory (no target in scope) on the
constructs of TVM's own tests of that pass (tests/relax/static_plan_cases.py), one row a
Relax function:

    python tools/bench_relax_vm_tvm_cases.py [--write BENCHMARKS.md]

Each module is planned by TVM's pass and by ours; a row says what ours did (planned, kept
TVM's plan and why, nothing to plan), the bytes of each plan's storages, and the overlap
check of our pools (`relax_vm.overlap_check`). With `--write` the section "Relax VM: TVM's planner
tests" of that file is replaced.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "relax"))
sys.path.insert(0, str(ROOT / "tools"))

from benchmark_sections import add_write_option, markdown_section, publish  # noqa: E402

from usmp_dialect.tvm.relax_vm.overlap_check import (  # noqa: E402
    Overlap,
    check_no_overlap,
    storage_bytes,
    storages,
)
from usmp_dialect.tvm.relax_vm.plan_memory import PlanMemory  # noqa: E402

# tests/relax/static_plan_cases.py, the modules the tests plan too.
cases = importlib.import_module("static_plan_cases")
COMMAND = "python tools/bench_relax_vm_tvm_cases.py --write BENCHMARKS.md"


def rows_of(name: str) -> list[list[str]]:
    from tvm import relax

    mod = cases.case_module(name)
    plan = PlanMemory()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ours = plan(mod)
    theirs = relax.transform.StaticPlanBlockMemory()(mod)
    rows = []
    for report in plan.report:
        func = ours[report.function]
        pools = {label.replace(".", "_") for label in report.pools}
        try:
            check_no_overlap(func, {v for v in storages(func) if v.name in pools})
            checked = "no overlap"
        except Overlap as error:
            checked = f"OVERLAP: {error}"
        if report.kept_tvm_plan is not None:
            outcome = f"kept TVM's: {report.kept_tvm_plan}"
        elif report.pools:
            outcome = "planned"
        else:
            outcome = "nothing to plan"
        rows.append(
            [
                name,
                report.function,
                outcome,
                str(storage_bytes(theirs[report.function])),
                str(storage_bytes(func)),
                checked,
                str(len(caught)),
            ]
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_write_option(parser)
    args = parser.parse_args()
    rows = [row for name in cases.CASES for row in rows_of(name)]
    outcomes = [row[2].split(":")[0] for row in rows]
    kept = outcomes.count("kept TVM's")
    preamble = [
        f"`{COMMAND}` (one process). Each module of tests/relax/static_plan_cases.py (the "
        "constructs of TVM's tests/python/relax/test_transform_static_plan_block_memory.py, "
        "written anew; operators are stubs here) planned by "
        "`relax.transform.StaticPlanBlockMemory()` and by `PlanMemory()`, no target in "
        "scope (virtual device 0 is the host, as TVM's planner takes it). Bytes are the "
        "function's static `alloc_storage` bytes after each pass (the returned tensors, "
        "which neither plans, are not in them). *Check* is the overlap check of our pools "
        "that the pass runs before returning a plan, run again here. "
        f"{outcomes.count('planned')} functions planned, "
        f"{kept} kept TVM's plan, "
        f"{outcomes.count('nothing to plan')} with nothing to plan."
    ]
    header = ["module", "function", "ours", "TVM bytes", "ours bytes", "check", "warnings"]
    body = markdown_section("## Relax VM: TVM's planner tests", preamble, header, rows)
    publish(body, args, complete=all(row[5] == "no overlap" for row in rows))


if __name__ == "__main__":
    main()
