"""`tir-io-to-allocations`: the entry function's input and output buffers become
allocations, so that the planner can place them in a workspace pool too.

TVM's `CreateAllocatesForIO` (USMP's `use_workspace_io`): every buffer param of the
entry function becomes a `tir.alloc_buffer {usmp.io = {name = "x", kind = "input"}}` at
the top of its body and leaves the signature; the kind is TVM's rule (read: input,
written: output), through the calls that hand the buffer to operators. Params named in the entry's `usmp.constants` attribute (a model's
weights) stay params; pointer and scalar params stay too. `tir-to-usmp` then plans the
I/O buffers with the rest: an input is live from the start of the program (the
application wrote it before the call) to its last use, an output from its first use to
the end (the application reads it after). After planning, `usmp-to-tir` publishes where
each one lives as the entry's `usmp.io_offsets`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, StringAttr
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from usmp_dialect.analysis.tir_liveness import (
    Allocation,
    choose_entry,
    module_callee,
    prim_funcs,
    tir_liveness,
)
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import CONSTANTS_ATTR, IO_ATTR

def constant_params(function: tir.PrimFuncOp) -> set[str]:
    attr = function.attributes.get(CONSTANTS_ATTR)
    if attr is None:
        return set()
    if not isinstance(attr, ArrayAttr) or not all(isinstance(a, StringAttr) for a in attr):
        raise UsmpError(f"{CONSTANTS_ATTR} must be an array of param names", function)
    return {a.data for a in attr}  # type: ignore[union-attr]


def _check_not_called(entry: tir.PrimFuncOp, functions: dict[str, tir.PrimFuncOp]) -> None:
    name = entry.sym_name.data
    for function in functions.values():
        for op in function.walk():
            callee = module_callee(op, functions)
            if callee is not None and callee[0] == name:
                raise UsmpError(
                    f"@{function.sym_name.data} calls the entry function @{name}, whose I/O "
                    "params would go",
                    op,
                )


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
        alloc.attributes[IO_ATTR] = DictionaryAttr(
            {
                "name": alloc.buffer_name or StringAttr(""),
                "kind": StringAttr(_io_kind(by_op[alloc])),
            }
        )


@dataclass(frozen=True)
class TirIoToAllocations(ModulePass):
    name = "tir-io-to-allocations"

    entry: str = ""
    """The entry function (default: as tir-to-usmp chooses it)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        functions = prim_funcs(op)
        if not functions:
            return
        entry = choose_entry(functions, self.entry, self.name)
        _check_not_called(entry, functions)
        constants = constant_params(entry)
        block = entry.body.block
        names = set(entry.param_names())
        if unknown := sorted(constants - names):
            raise UsmpError(
                f"{CONSTANTS_ATTR} names {', '.join(unknown)}, not a param of "
                f"@{entry.sym_name.data}",
                entry,
            )
        allocs = []
        for index, (arg, name) in enumerate(list(zip(block.args, entry.param_names()))):
            if not isinstance(arg.type, tir.BufferType) or name in constants:
                continue
            if not name:
                raise UsmpError(
                    f"param {index} of @{entry.sym_name.data} has no name to publish "
                    "its offset under",
                    entry,
                )
            alloc = tir.AllocBufferOp(arg.type, name=name)
            alloc.location = entry.location
            arg.replace_all_uses_with(alloc.buffer)
            entry.erase_param(arg)
            allocs.append(alloc)
        Rewriter.insert_op(allocs, InsertPoint.at_start(block))
        _mark_io(op, entry, allocs)
