"""`usmp-translate --export-csv`: a planned module as MiniMalloc's output format, so a
plan can be compared with other tools on the same instance."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects.usmp import AllocOffsetOp, module_allocs
from usmp_dialect.formats.csv_instance import is_csv_id, write_csv_instance
from usmp_dialect.reports.report import plan_report


def module_to_csv(module: ModuleOp) -> str:
    report = plan_report(module, "ir")
    buffers = report["buffers"]
    for buffer in buffers:
        if len(buffer["live"]) != 1:
            raise UsmpError(
                f"buffer '{buffer['name']}' has {len(buffer['live'])} live intervals; the "
                "CSV format holds exactly one per buffer"
            )
    for buffer in buffers:
        if not is_csv_id(buffer["name"]):
            raise UsmpError(
                f"buffer '{buffer['name']}' cannot be a CSV id: the format is not quoted, so "
                "an id holds no comma or line break and no space at its ends",
                _alloc_named(module, buffer["name"]),
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


def _alloc_named(module: ModuleOp, name: str) -> AllocOffsetOp | None:
    return next((op for op in module_allocs(module) if op.buffer_name.data == name), None)
