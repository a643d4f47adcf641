"""`memref-to-usmp`: statically shaped `memref.alloc`s become `usmp.alloc_offset`s.

Each planned buffer gets its live intervals (see `analysis/memref_liveness.py`), its
own alignment, and no candidate pools (`usmp-assign-pools` decides those); one
`usmp.liveness` says the intervals are known. Allocations that cannot be planned safely
stay as they are, marked with a `usmp.unplanned` attribute that says why.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from usmp_dialect.analysis.memref_liveness import Allocation, program_liveness
from usmp_dialect.dialects.usmp import AllocOffsetOp
from usmp_dialect.lowering.allocations_to_usmp import lower_allocations


def _lower_allocation(allocation: Allocation, name: str) -> AllocOffsetOp:
    op = allocation.op
    alignment = op.alignment.value.data if op.alignment is not None else 1
    placed = AllocOffsetOp(name, [], op.memref.type, alignment)
    placed.buffer.name_hint = op.memref.name_hint
    placed.location = op.location
    for alias_use in list(op.memref.uses):
        if isinstance(alias_use.operation, memref.DeallocOp):
            Rewriter.erase_op(alias_use.operation)
    Rewriter.replace_op(op, placed)
    return placed


@dataclass(frozen=True)
class MemrefToUsmp(ModulePass):
    name = "memref-to-usmp"

    entry: str = ""
    """The function the program starts from (default: `main`, else the one root)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        liveness = program_liveness(op, self.entry)
        if liveness is None:
            return
        lower_allocations(
            op,
            self.name,
            liveness.unreachable + liveness.allocations,
            lambda allocation: allocation.op.memref.name_hint,
            _lower_allocation,
        )
