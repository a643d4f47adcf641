"""`tir-hoist-workspaces`: an operator's workspaces are allocated by its callers, one
buffer per call.

TVM's USMP planned an operator's workspace (a `tir.alloc_buffer` inside a function the
entry calls) as one buffer with one interval per call, so one offset served every call and
the bytes stayed reserved wherever any call needed them. This pass moves the workspace to
the call sites instead:

- each `tir.alloc_buffer` at the top of an operator's body that a pool can hold becomes a
  `!tir.ptr` param of the operator (named `<name>_var`), which the body re-declares as the
  buffer (`tir.decl_buffer`), the form TVM builds operators in;
- every call of the operator (`tir.call`, or the `tirx.call_extern`,
  `tirx.tvm_call_cpacked` and `tirx.tvm_call_packed` of module functions) allocates a
  buffer of its own, under the workspace's name, just before the call and passes its
  pointer on.

Operators are visited callees first, so a workspace hoisted into an operator that is
itself called moves on up to the entry: every call path gets its own buffer. Run before
`tir-to-usmp`, which then gives each call's buffer its own interval and offset (repeated
names get TVM's suffixes: `ws`, `ws2`, ...). Allocations inside loops or other regions of
an operator, and those a pool cannot hold (a non-global scope, an empty buffer, an
address that escapes), stay where they are.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from usmp_dialect.analysis.call_tree import CallStack
from usmp_dialect.analysis.tir_entry import module_calls
from usmp_dialect.analysis.tir_liveness import unplannable_reason
from usmp_dialect.dialects import tir
from usmp_dialect.lowering.allocations_to_usmp import BufferNames, tir_program_before_lowering


def _callees_first(
    entry: tir.PrimFuncOp, functions: dict[str, tir.PrimFuncOp]
) -> list[tir.PrimFuncOp]:
    """The functions the entry reaches, each after every function it calls."""
    order: list[tir.PrimFuncOp] = []
    stack = CallStack()

    def visit(function: tir.PrimFuncOp, at: Operation) -> None:
        with stack.entered(function.sym_name.data, at):
            for call, callee in module_calls(function, functions):
                if functions[callee] not in order:
                    visit(functions[callee], call)
        if function not in order:
            order.append(function)

    visit(entry, entry)
    return order


def _workspaces(function: tir.PrimFuncOp) -> list[tir.AllocBufferOp]:
    """The allocations made once per call of `function` that a pool can hold."""
    return [
        op
        for op in function.body.block.ops
        if isinstance(op, tir.AllocBufferOp) and unplannable_reason(op) is None
    ]


@dataclass(frozen=True)
class _Hoisted:
    """A workspace as its callers allocate it."""

    name: str | None
    buffer_type: tir.BufferType
    annotations: dict
    pointer_type: tir.PointerType


def _hoist_to_param(function: tir.PrimFuncOp, workspace: tir.AllocBufferOp) -> _Hoisted:
    buffer_type = workspace.buffer.type
    assert isinstance(buffer_type, tir.BufferType)
    name = tir.allocation_name(workspace)
    pointer_type = tir.PointerType(buffer_type.element_type, buffer_type.scope.data)
    param_names = BufferNames()
    param_names.used.update(n for n in function.param_names() if n is not None)
    param_name = param_names.unique(f"{name or 'workspace'}_var", "workspace_var")
    param = function.insert_param(len(function.body.block.args), pointer_type, param_name)
    name_prop = workspace.buffer_name
    view = tir.DeclBufferOp(param, buffer_type, None if name_prop is None else name_prop.data)
    view.location = workspace.location
    Rewriter.replace_op(workspace, view)
    return _Hoisted(name, buffer_type, dict(workspace.annotations.data), pointer_type)


def _allocate_at(call: Operation, hoisted: list[_Hoisted]) -> None:
    new_ops: list[Operation] = []
    pointers = []
    for workspace in hoisted:
        alloc = tir.AllocBufferOp(workspace.buffer_type, workspace.annotations, workspace.name)
        data = tir.BufferDataOp(alloc.buffer, workspace.pointer_type)
        alloc.location = data.location = call.location
        new_ops += [alloc, data]
        pointers.append(data.data)
    Rewriter.insert_op(new_ops, InsertPoint.before(call))
    call.operands = [*call.operands, *pointers]


@dataclass(frozen=True)
class TirHoistWorkspaces(ModulePass):
    name = "tir-hoist-workspaces"

    entry: str = ""
    """The entry function, whose own allocations stay (default: as tir-to-usmp chooses
    it)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        program = tir_program_before_lowering(op, self.entry, self.name)
        if program is None:
            return
        functions, entry = program
        calls: dict[str, list[Operation]] = defaultdict(list)
        for function in functions.values():
            for call, callee in module_calls(function, functions):
                calls[callee].append(call)
        for function in _callees_first(entry, functions):
            name = function.sym_name.data
            if function is entry or not calls[name]:
                continue
            hoisted = [_hoist_to_param(function, ws) for ws in _workspaces(function)]
            if hoisted:
                for call in calls[name]:
                    _allocate_at(call, hoisted)
