"""The entry function's operator calls as a graph: which buffers each call reads and
writes, which calls must stay before which, and the ops each call needs moved with it.

The entry's body must be a straight sequence: allocations and views first, then calls of
module functions (`tir.call`, or `tir.evaluate` of a call intrinsic naming one), each
preceded by the side-effect-free ops whose results only it uses (`tir.buffer_data`,
`tir.address_of`, constants, and the workspaces `tir-hoist-workspaces` allocates for it
alone), and nothing but a return after the last call. Any other
statement among the calls (a loop, a store, a call of something outside the module)
makes the body a program that only its own order is known to run correctly, and
`entry_calls` says why instead.

A call reads a buffer it passes to a callee param the callee loads from, and writes one
the callee stores to (a param handed on to another call or to an extern function counts
as both). Calls keep the file's order where one writes a buffer the other reads or
writes; calls that only read a buffer may swap.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.ir import Block, Operation, SSAValue

from usmp_dialect.analysis.tir_liveness import aliases, io_mark, module_callee
from usmp_dialect.dialects import tir
from usmp_dialect.planning.schedule import OperatorGraph

_FREE_OPS = (
    arith.ConstantOp,
    tir.BufferDataOp,
    tir.AddressOfOp,
    tir.StringOp,
    tir.ConstOp,
    tir.CastOp,
    tir.BinaryOp,
)
"""Ops a call's arguments are computed with: they touch no memory."""


@dataclass
class EntryCalls:
    groups: list[list[Operation]]
    """Each call with the ops computing its arguments, in the file's order."""
    callees: list[str]
    """The function each call runs."""
    buffers: list[SSAValue]
    """The entry's allocations and buffer params, the graph's tensors."""
    graph: OperatorGraph


def statement_call(
    op: Operation, functions: dict[str, tir.PrimFuncOp]
) -> tuple[str, list[SSAValue]] | None:
    """The module function a statement calls (`tir.call`, or `tir.evaluate` of a call
    intrinsic naming one) and its arguments, else None."""
    if isinstance(op, tir.EvaluateOp) and isinstance(op.value.owner, Operation):
        op = op.value.owner
    return module_callee(op, functions)


def param_access(function: tir.PrimFuncOp) -> list[tuple[bool, bool]]:
    """Whether `function` reads and whether it writes each of its params' memory."""
    access = []
    for param in function.body.block.args:
        read = written = False
        for alias in aliases(param):
            for use in alias.uses:
                user = use.operation
                if isinstance(user, tir.StoreOp) and user.buffer is alias:
                    written = True
                elif isinstance(user, tir.LoadOp):
                    read = True
                elif isinstance(user, tir.CallOp | tir.CallIntrinOp):
                    read = written = True
        access.append((read, written))
    return access


def workspace_bytes(function: tir.PrimFuncOp) -> int:
    """Bytes of the buffers `function` allocates (all at once, an upper bound)."""
    total = 0
    for op in function.walk():
        if isinstance(op, tir.AllocBufferOp):
            assert isinstance(op.buffer.type, tir.BufferType)
            total += op.buffer.type.size_in_bytes()
    return total


def _groups(block: Block, functions: dict[str, tir.PrimFuncOp]) -> list[list[Operation]] | str:
    ops = list(block.ops)
    calls = [i for i, op in enumerate(ops) if statement_call(op, functions) is not None]
    if not calls:
        return "the entry calls no operator"
    groups: list[list[Operation]] = []
    start_of_next = len(ops)
    for index in reversed(calls):
        members = {ops[index]}
        start = index
        while start > 0 and start - 1 not in calls:
            candidate = ops[start - 1]
            users = {use.operation for r in candidate.results for use in r.uses}
            movable = isinstance(candidate, (*_FREE_OPS, tir.AllocBufferOp))
            if not movable or not users or not users <= members:
                break
            members.add(candidate)
            start -= 1
        for op in ops[index + 1 : start_of_next]:
            if groups or not isinstance(op, tir.ReturnOp):
                return f"'{op.name}' between the operator calls"
        groups.append(ops[start : index + 1])
        start_of_next = start
    for op in ops[:start_of_next]:
        if not isinstance(op, tir.AllocBufferOp | tir.DeclBufferOp | tir.BufferDataOp):
            return f"'{op.name}' before the operator calls"
    groups.reverse()
    return groups


def entry_calls(entry: tir.PrimFuncOp, functions: dict[str, tir.PrimFuncOp]) -> EntryCalls | str:
    """The entry's calls as a graph, or why they cannot be reordered."""
    block = entry.body.block
    groups = _groups(block, functions)
    if isinstance(groups, str):
        return groups
    roots: list[SSAValue] = [a for a in block.args if isinstance(a.type, tir.BufferType)]
    roots += [op.buffer for op in block.ops if isinstance(op, tir.AllocBufferOp)]
    owner: dict[SSAValue, int] = {}
    for index, root in enumerate(roots):
        for alias in aliases(root):
            owner.setdefault(alias, index)
    for param in block.args:
        if isinstance(param.type, tir.PointerType):
            roots.append(param)
            for alias in aliases(param):
                owner.setdefault(alias, len(roots) - 1)
    sizes, live_in, live_out = [], set(), set()
    for index, root in enumerate(roots):
        owner_op = root.owner
        if isinstance(owner_op, tir.AllocBufferOp):
            assert isinstance(root.type, tir.BufferType)
            sizes.append(root.type.size_in_bytes())
            if (mark := io_mark(owner_op)) is not None:
                if mark[1] in ("input", "input_output", "state"):
                    live_in.add(index)
                if mark[1] in ("output", "input_output", "state"):
                    live_out.add(index)
        else:
            sizes.append(0)
    access_of = {name: param_access(f) for name, f in functions.items()}
    touches, reads, writes, workspaces, callees = [], [], [], [], []
    for group in groups:
        callee = statement_call(group[-1], functions)
        assert callee is not None
        name, args = callee
        callees.append(name)
        read, written = set(), set()
        for arg, (r, w) in zip(args, access_of[name], strict=True):
            if (tensor := owner.get(arg)) is not None:
                if r:
                    read.add(tensor)
                if w:
                    written.add(tensor)
        touches.append(frozenset(read | written))
        reads.append(read)
        writes.append(written)
        workspaces.append(workspace_bytes(functions[name]))
    predecessors: list[frozenset[int]] = []
    last_writer: dict[int, int] = {}
    readers: dict[int, list[int]] = {}
    for op in range(len(groups)):
        before: set[int] = set()
        for tensor in touches[op]:
            if tensor in last_writer:
                before.add(last_writer[tensor])
            if tensor in writes[op]:
                before.update(readers.get(tensor, []))
        for tensor in touches[op]:
            if tensor in writes[op]:
                last_writer[tensor] = op
                readers[tensor] = []
            else:
                readers.setdefault(tensor, []).append(op)
        before.discard(op)
        predecessors.append(frozenset(before))
    graph = OperatorGraph(
        tuple(sizes),
        tuple(touches),
        tuple(predecessors),
        tuple(workspaces),
        frozenset(live_in),
        frozenset(live_out),
    )
    return EntryCalls(groups, callees, roots, graph)
