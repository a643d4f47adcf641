"""`usmp-translate --export-csv`: a planned module as MiniMalloc's output format, so a
plan can be compared with other tools on the same instance."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from usmp_dialect.backends.report import plan_report
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.frontends.csv_instance import write_csv_instance


def module_to_csv(module: ModuleOp) -> str:
    report = plan_report(module)
    buffers = report["buffers"]
    for buffer in buffers:
        if len(buffer["live"]) != 1:
            raise UsmpError(
                f"buffer '{buffer['name']}' has {len(buffer['live'])} live intervals; the "
                "CSV format holds exactly one per buffer"
            )
    if len(report["pools"]) > 1:
        raise UsmpError("the CSV format holds one pool; this module has several")
    return write_csv_instance(
        [b["name"] for b in buffers],
        [b["live"][0][0] for b in buffers],
        [b["live"][0][1] for b in buffers],
        [b["size"] for b in buffers],
        [b["offset"] for b in buffers],
    )
