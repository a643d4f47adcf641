"""`tir-io-to-allocations`: the entry function's input and output buffers become
allocations, so that the planner can place them in a workspace pool too.

TVM's `CreateAllocatesForIO` (USMP's `use_workspace_io`): every buffer param of the
entry function becomes a `tir.alloc_buffer {usmp.io = #usmp.io<"x", input>}` at
the top of its body and leaves the signature; the kind is what the entry's `usmp.outputs`
says (an importer's record of the model's outputs; the attribute goes with the params),
else TVM's rule (read: input, written: output), through the calls that hand the buffer to
operators. A pointer param
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

from usmp_dialect.analysis.tir_entry import check_entry_not_called
from usmp_dialect.analysis.tir_params import (
    allocation_uses,
    constant_params,
    io_kind,
    output_params,
    param_buffer_type,
    param_views,
    params_to_allocations,
)
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import IO_ATTR, OUTPUTS_ATTR, IOAttr
from usmp_dialect.lowering.allocations_to_usmp import tir_program_before_lowering


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
        constants, outputs = constant_params(entry), output_params(entry)
        io_types: dict[str, tir.BufferType] = {}
        params = zip(entry.body.block.args, entry.param_names(), strict=True)
        for index, (arg, name) in enumerate(params):
            buffer_type = param_buffer_type(arg, name, param_views(arg))
            if buffer_type is None or name in constants:
                continue
            if not name:
                raise UsmpError(
                    f"param {index} of @{entry.sym_name.data} has no name to publish "
                    "its offset under",
                    entry,
                )
            io_types[name] = buffer_type
        if not io_types:
            return
        allocs = params_to_allocations(entry, io_types)
        # The kinds go onto the allocations: the names left no param to list.
        entry.attributes.pop(OUTPUTS_ATTR, None)
        for name, use in allocation_uses(op, entry, allocs).items():
            kind = io_kind(name, outputs, use.read, use.written)
            allocs[name].attributes[IO_ATTR] = IOAttr(name, kind)
