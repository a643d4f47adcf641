"""`tir-to-usmp`: the plannable `tir.alloc_buffer`s of a TIR module become
`usmp.alloc_offset`s (whose result is the same `!tir.buffer`) that carry their live
intervals, with one `usmp.liveness` saying they are known.

Liveness is TVM's buffer-info extraction over the inlined call tree from the entry
function (see `analysis/tir_liveness.py`). Candidate pools are left to
`usmp-assign-pools` (and a buffer of TVM's default alignment, 64, its pools' alignment to
`tir-align-to-pools`); a buffer is named by its TIR
name (made unique across functions with a `.N` suffix), and keeps that name as `tir.name`
where the two differ, for `usmp-to-tir` to give its view. Allocations that
cannot be planned stay, marked `usmp.unplanned = "why"`. A module without TIR allocations
is left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from usmp_dialect.analysis.tir_liveness import Allocation, tir_liveness
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import IO_ATTR, AllocOffsetOp
from usmp_dialect.lowering.allocations_to_usmp import lower_alloc_buffer, lower_allocations

WORKSPACE_LEFT_OUT = "operator workspace (tir-to-usmp{workspaces=false})"


def _lower_allocation(allocation: Allocation, name: str) -> AllocOffsetOp:
    return lower_alloc_buffer(allocation.op, name)


@dataclass(frozen=True)
class TirToUsmp(ModulePass):
    name = "tir-to-usmp"

    entry: str = ""
    """The function the program starts from (default: the one with `runner_function`,
    else `__tvm_main__`, `main` or `run_model`)."""

    workspaces: bool = True
    """Plan operator workspaces too; `false` plans only the entry function's buffers (the
    intermediate tensors), as memory planners that never see workspaces do."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        liveness = tir_liveness(op, self.entry)
        if liveness is None:
            return
        if not self.workspaces:
            for allocation in liveness.allocations:
                if allocation.function != liveness.entry and allocation.unplanned_reason is None:
                    allocation.unplanned_reason = WORKSPACE_LEFT_OUT
        for allocation in liveness.allocations:
            if IO_ATTR in allocation.op.attributes and allocation.unplanned_reason is not None:
                raise UsmpError(
                    f"the entry's I/O buffer cannot be placed in a pool "
                    f"({allocation.unplanned_reason}); plan without tir-io-to-allocations",
                    allocation.op,
                )
        lower_allocations(
            op,
            self.name,
            liveness.unreachable + liveness.allocations,
            lambda allocation: tir.allocation_name(allocation.op),
            _lower_allocation,
        )
