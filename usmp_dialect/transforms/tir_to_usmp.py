"""`tir-to-usmp`: the plannable `tir.alloc_buffer`s of a TIR module become
`usmp.alloc_offset`s (whose result is the same `!tir.buffer`) that carry their live
intervals, with one `usmp.liveness` saying they are known.

Liveness is TVM's buffer-info extraction over the inlined call tree from the entry
function (see `analysis/tir_liveness.py`). Candidate pools are left to
`usmp-assign-pools`, which also gives a buffer of TVM's default alignment (64) its pool's
alignment; a buffer is named by its TIR
name (made unique across functions with a `.N` suffix), and keeps that name as `tir.name`
where the two differ, for `usmp-to-tir` to give its view. Allocations that
cannot be planned stay, marked `usmp.unplanned = "why"`. A module without TIR allocations
is left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from usmp_dialect.analysis.tir_liveness import Allocation, aliases, tir_liveness
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import IO_ATTR, AllocOffsetOp
from usmp_dialect.transforms.allocations_to_usmp import lower_allocations

DEFAULT_TIR_ALIGNMENT = 64
WORKSPACE_LEFT_OUT = "operator workspace (tir-to-usmp{workspaces=false})"


def in_pool(t: tir.BufferType, alignment: int | None = None) -> tir.BufferType:
    """The type of a buffer placed in a pool: in the pool's `global` scope (a tag such
    as `global.workspace` said where to plan it; a view's scope is its pointer's, in TVM
    too), with `alignment` when given."""
    return tir.BufferType(
        t.dims,
        t.element_type,
        strides=t.stride_values,
        elem_offset=t.elem_offset.data,
        scope="global",
        alignment=t.alignment.data if alignment is None else alignment,
        offset_factor=t.offset_factor.data,
        index_type=t.index_type,
    )


def _lower_allocation(allocation: Allocation, name: str) -> AllocOffsetOp:
    return lower_alloc_buffer(allocation.op, name)


def lower_alloc_buffer(op: tir.AllocBufferOp, name: str) -> AllocOffsetOp:
    """`op` as a `usmp.alloc_offset` named `name`, without candidate pools."""
    buffer_type = op.buffer.type
    assert isinstance(buffer_type, tir.BufferType)
    placed = AllocOffsetOp(name, [], in_pool(buffer_type), buffer_type.alignment.data)
    if IO_ATTR in op.attributes:
        placed.attributes[IO_ATTR] = op.attributes[IO_ATTR]
    if op.buffer_name is not None and op.buffer_name.data != name:
        placed.attributes[tir.NAME_ATTR] = op.buffer_name
    tir.set_readable_hint(placed.buffer, name)
    placed.location = op.location
    Rewriter.replace_op(op, placed)
    if buffer_type.scope.data != "global":
        _move_to_pool_scope(placed.buffer, buffer_type.scope.data)
    return placed


def _move_to_pool_scope(buffer: SSAValue, scope: str) -> None:
    """The pointers and views derived from a buffer planned out of a tagged scope
    (`global.workspace`) move with it to the pool's `global` scope: TVM requires a bound
    var to have its value's type."""
    for value in list(aliases(buffer))[1:]:
        t = value.type
        if isinstance(t, tir.PointerType) and t.scope.data == scope:
            moved = Rewriter.replace_value_with_new_type(value, tir.PointerType(t.pointee))
        elif isinstance(t, tir.BufferType) and t.scope.data == scope:
            moved = Rewriter.replace_value_with_new_type(value, in_pool(t))
        else:
            continue
        moved.name_hint = value.name_hint


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
