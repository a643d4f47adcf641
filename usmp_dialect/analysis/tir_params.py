"""An entry function's params as the buffers they hold: which are constants, what buffer
a param (or a pointer param's views) holds, the allocations that take params' places
(`tir-io-to-allocations` for inputs and outputs, `tir-state-to-allocations` for state,
`tir-constants-to-buffers` for constants), how the operators use a param (the liveness of
its allocation), and whether an I/O param is an input or an output."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from usmp_dialect.analysis.tir_entry import prim_funcs
from usmp_dialect.analysis.tir_liveness import Allocation, tir_liveness
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import CONSTANTS_ATTR, OUTPUTS_ATTR, IOKind


def _listed_params(function: tir.PrimFuncOp, attr_name: str) -> set[str] | None:
    """The params `function`'s attribute `attr_name` names, each one of its params; None
    without the attribute."""
    attr = function.attributes.get(attr_name)
    if attr is None:
        return None
    if not isinstance(attr, ArrayAttr) or not all(isinstance(a, StringAttr) for a in attr):
        raise UsmpError(f"{attr_name} must be an array of param names", function)
    listed = {a.data for a in attr if isinstance(a, StringAttr)}
    if unknown := sorted(listed - set(function.param_names())):
        raise UsmpError(
            f"{attr_name} names {', '.join(unknown)}, not a param of @{function.sym_name.data}",
            function,
        )
    return listed


def constant_params(function: tir.PrimFuncOp) -> set[str]:
    """The params `function`'s `usmp.constants` names, each one of its params."""
    return _listed_params(function, CONSTANTS_ATTR) or set()


def output_params(function: tir.PrimFuncOp) -> set[str] | None:
    """The params `function`'s `usmp.outputs` names, each one of its params; None when the
    entry does not say which of its params are outputs."""
    return _listed_params(function, OUTPUTS_ATTR)


def io_kind(name: str, outputs: set[str] | None, read: bool, written: bool) -> IOKind:
    """The kind of the entry's I/O param `name`: as the entry's `usmp.outputs` (`outputs`)
    says when it has one. Else TVM's rule, by how the operators use it (`read`, `written`):
    read means input, written output; a param never touched is an input (the application
    may write it; nothing depends on it); one both read and written, which TVM refused,
    carries its value in and out."""
    if outputs is not None:
        return IOKind.OUTPUT if name in outputs else IOKind.INPUT
    if read and written:
        return IOKind.INPUT_OUTPUT
    return IOKind.OUTPUT if written else IOKind.INPUT


def param_views(param: SSAValue) -> list[tir.DeclBufferOp]:
    return [use.operation for use in param.uses if isinstance(use.operation, tir.DeclBufferOp)]


def param_buffer_type(
    param: SSAValue, name: str | None, views: list[tir.DeclBufferOp]
) -> tir.BufferType | None:
    """The buffer a param holds: its own type, or the one type its views give it; None
    for a scalar or a pointer never viewed."""
    if isinstance(param.type, tir.BufferType):
        return param.type
    types = {view.buffer.type for view in views}
    if len(types) > 1:
        raise UsmpError(
            f"param '{name}' is viewed as {len(types)} different buffers "
            f"({', '.join(sorted(map(str, types)))}); the buffer it holds is ambiguous",
            views[-1],
        )
    buffer_type = next(iter(types), None)
    return buffer_type if isinstance(buffer_type, tir.BufferType) else None


def param_allocation(
    param: BlockArgument,
    name: str,
    buffer_type: tir.BufferType,
    views: list[tir.DeclBufferOp],
    entry: tir.PrimFuncOp,
) -> list[Operation]:
    """The allocation that replaces a param (and its views), with the data pointer that
    stands for a pointer param where it is used directly."""
    alloc = tir.AllocBufferOp(buffer_type, name=name)
    alloc.location = entry.location
    for view in views:
        view.buffer.replace_all_uses_with(alloc.buffer)
        Rewriter.erase_op(view)
    if isinstance(param.type, tir.BufferType):
        param.replace_all_uses_with(alloc.buffer)
        return [alloc]
    if not param.uses:
        return [alloc]
    assert isinstance(param.type, tir.PointerType)
    data = tir.BufferDataOp(alloc.buffer, param.type)
    param.replace_all_uses_with(data.data)
    return [alloc, data]


def params_to_allocations(
    entry: tir.PrimFuncOp, types: Mapping[str, tir.BufferType]
) -> dict[str, tir.AllocBufferOp]:
    """The params `types` names as allocations of those types (their views too) at the top
    of the entry's body, in the params' order, by name; the params leave the signature."""
    block = entry.body.block
    moved: list[tuple[BlockArgument, list[Operation]]] = []
    for arg, name in list(zip(block.args, entry.param_names(), strict=True)):
        if name is not None and name in types:
            created = param_allocation(arg, name, types[name], param_views(arg), entry)
            moved.append((arg, created))
    Rewriter.insert_op([op for _, created in moved for op in created], InsertPoint.at_start(block))
    for arg, _ in reversed(moved):
        entry.erase_param(arg)
    allocs = {}
    for _, (alloc, *_) in moved:
        assert isinstance(alloc, tir.AllocBufferOp) and alloc.buffer_name is not None
        allocs[alloc.buffer_name.data] = alloc
    return allocs


def allocation_uses(
    module: ModuleOp, entry: tir.PrimFuncOp, allocs: Mapping[str, tir.AllocBufferOp]
) -> dict[str, Allocation]:
    """How the program run from `entry` uses each allocation of `allocs` (read, written,
    live intervals), by the same name."""
    liveness = tir_liveness(module, entry.sym_name.data)
    found = {a.op: a for a in (liveness.allocations if liveness else [])}
    function = entry.sym_name.data
    return {name: found.get(op, Allocation(op, function)) for name, op in allocs.items()}


Prepare = Callable[[ModuleOp, tir.PrimFuncOp, dict[str, tir.AllocBufferOp]], None]
"""A change to the copy `param_uses` analyses, given its module, entry and allocations."""


def param_uses(
    module: ModuleOp,
    entry: str,
    types: Mapping[str, tir.BufferType],
    prepare: Prepare | None = None,
) -> dict[str, Allocation]:
    """How the program uses the entry's params `types` names, by name: the liveness of
    each as an allocation, on a copy of `module` (`prepare` may change the copy first);
    `module` stays as it is."""
    copy = module.clone()
    copied = prim_funcs(copy)[entry]
    allocs = params_to_allocations(copied, types)
    if prepare is not None:
        prepare(copy, copied, allocs)
    return allocation_uses(copy, copied, allocs)
