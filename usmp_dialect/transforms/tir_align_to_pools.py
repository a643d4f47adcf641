"""`tir-align-to-pools`: a TIR buffer that asks for no alignment of its own is planned at
its pools' alignment, as TVM's USMP planned it.

TVM gives every buffer `data_alignment` 64 unless told otherwise, while its USMP placed
workspace buffers at the pool's alignment (16 by default). So a TIR buffer's 64 counts as
"not asked for": each unplanned `usmp.alloc_offset` whose `!tir.buffer` has TVM's default
alignment, and whose own alignment is the one `usmp-assign-pools` gives that default
(64, or its pools' when stricter), is planned at the strictest alignment of its candidate
pools instead, and its type says so (a type must not promise an alignment the plan does
not give). Other buffers, memref ones among them, keep theirs.

Runs once every buffer has its candidates (`usmp-assign-pools`, and
`tir-constants-to-buffers` for the constants) and before `usmp-plan`; the `--plan-pools`
pipeline runs it there. Without it, a TIR buffer is planned at 64 bytes or stricter.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from usmp_dialect.analysis.pool_candidates import pools_alignment
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import AllocOffsetOp, module_allocs


def _align_to_pools(op: AllocOffsetOp) -> None:
    buffer_type = op.buffer.type
    if (
        op.offset is not None
        or not isinstance(buffer_type, tir.BufferType)
        or buffer_type.alignment.data != tir.DEFAULT_ALIGNMENT
    ):
        return
    if not op.pools.data:
        raise UsmpError(
            f"buffer '{op.buffer_name.data}' has no candidate pools yet: "
            "tir-align-to-pools runs after usmp-assign-pools",
            op,
        )
    alignment = pools_alignment(op.pool_ops())
    if op.alignment_bytes != max(tir.DEFAULT_ALIGNMENT, alignment):
        return
    op.properties["alignment"] = IntegerAttr(alignment, i64)
    if (aligned := tir.in_pool(buffer_type, alignment)) != buffer_type:
        Rewriter.replace_value_with_new_type(op.buffer, aligned)


@dataclass(frozen=True)
class TirAlignToPools(ModulePass):
    name = "tir-align-to-pools"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for alloc in module_allocs(op):
            _align_to_pools(alloc)
