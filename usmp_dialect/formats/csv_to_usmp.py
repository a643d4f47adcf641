"""A benchmark instance (`id,lower,upper,size`) as usmp IR: one unrestricted workspace
pool, one byte buffer per row, and the rows' intervals as the liveness."""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType, ModuleOp, i8

from usmp_dialect.dialects.usmp import AllocOffsetOp, LivenessOp, PoolOp
from usmp_dialect.dialects.usmp_syntax import live_by_buffer
from usmp_dialect.formats.csv_instance import CsvInstance, read_csv_instance

CSV_POOL = "global_workspace"


def csv_instance_to_module(instance: CsvInstance) -> ModuleOp:
    # The format has no alignment: byte granularity is what other tools plan with.
    pool = PoolOp(CSV_POOL, alignment=1)
    # One type a size, shared: a trace has few sizes (Y_1: 62 in 62185 rows), and building
    # a memref type costs more than the rest of its op.
    types: dict[int, MemRefType] = {}
    intervals = instance.intervals
    lives = live_by_buffer(len(instance.names), intervals.owner, intervals.start, intervals.end)
    allocs = [
        AllocOffsetOp(
            name,
            [CSV_POOL],
            types.get(size) or types.setdefault(size, MemRefType(i8, [size])),
            alignment=1,
            live=live,
        )
        for name, size, live in zip(instance.names, instance.sizes.tolist(), lives, strict=True)
    ]
    return ModuleOp([pool, *allocs, LivenessOp()])


def read_csv_module(text: str, name: str) -> ModuleOp:
    """CSV text as usmp IR; a fault is a `CsvInstanceError` at its cell."""
    return csv_instance_to_module(read_csv_instance(text, name))
