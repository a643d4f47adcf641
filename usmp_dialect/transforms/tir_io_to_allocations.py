"""`tir-io-to-allocations`: the entry function's input and output buffers become
allocations, so that the planner can place them in a workspace pool too.

TVM's `CreateAllocatesForIO` (USMP's `use_workspace_io`): every buffer param of the
entry function becomes a `tir.alloc_buffer {usmp.io = #usmp.io<"x", input>}` at
the top of its body and leaves the signature; the kind is TVM's rule (read: input,
written: output), through the calls that hand the buffer to operators. A pointer param
that the entry views as a buffer (`x = T.decl_buffer(shape, dtype, data=p)`, the form of
TVM's own tests) is a buffer param of the view's type: the views become the allocation.
Params named in the entry's `usmp.constants` attribute (a model's weights) stay params;
scalar params and pointers never viewed (their size is unknown) stay too. `tir-to-usmp`
then plans the I/O buffers with the rest: an input is live from the start of the program (the
application wrote it before the call) to its last use, an output from its first use to
the end (the application reads it after). After planning, `usmp-to-tir` publishes where
each one lives as the entry's `usmp.io_offsets`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from usmp_dialect.analysis.tir_liveness import (
    Allocation,
    check_entry_not_called,
    tir_liveness,
)
from usmp_dialect.analysis.tir_params import (
    constant_params,
    param_allocation,
    param_buffer_type,
    param_views,
)
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import IO_ATTR, IOAttr
from usmp_dialect.lowering.allocations_to_usmp import tir_program_before_lowering


def _io_kind(allocation: Allocation) -> str:
    """TVM's rule: read means input, written means output. A buffer never touched is an
    input (the application may write it; nothing depends on it); one both read and
    written, which TVM refused, carries its value in and out."""
    if allocation.read and allocation.written:
        return "input_output"
    return "output" if allocation.written else "input"


def _mark_io(module: ModuleOp, entry: tir.PrimFuncOp, allocs: list[tir.AllocBufferOp]) -> None:
    liveness = tir_liveness(module, entry.sym_name.data)
    assert liveness is not None
    by_op = {a.op: a for a in liveness.allocations}
    for alloc in allocs:
        assert alloc.buffer_name is not None
        alloc.attributes[IO_ATTR] = IOAttr(alloc.buffer_name.data, _io_kind(by_op[alloc]))


@dataclass(frozen=True)
class TirIoToAllocations(ModulePass):
    name = "tir-io-to-allocations"

    entry: str = ""
    """The entry function (default: as tir-to-usmp chooses it)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        program = tir_program_before_lowering(op, self.entry, self.name)
        if program is None:
            return
        functions, entry = program
        check_entry_not_called(entry, functions, "whose I/O params would go")
        constants = constant_params(entry)
        block = entry.body.block
        io_params = []
        for index, (arg, name) in enumerate(
            list(zip(block.args, entry.param_names(), strict=True))
        ):
            views = param_views(arg)
            buffer_type = param_buffer_type(arg, name, views)
            if buffer_type is None or name in constants:
                continue
            if not name:
                raise UsmpError(
                    f"param {index} of @{entry.sym_name.data} has no name to publish "
                    "its offset under",
                    entry,
                )
            io_params.append((arg, name, buffer_type, views))
        if not io_params:
            return
        created = [
            new
            for arg, name, buffer_type, views in io_params
            for new in param_allocation(arg, name, buffer_type, views, entry)
        ]
        for arg, *_ in reversed(io_params):
            entry.erase_param(arg)
        Rewriter.insert_op(created, InsertPoint.at_start(block))
        _mark_io(op, entry, [new for new in created if isinstance(new, tir.AllocBufferOp)])
