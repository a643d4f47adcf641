"""Live intervals of `memref.alloc` buffers over the call tree of a `func` program.

Every op gets the next index on one timeline that walks the entry function and descends
into each `func.call` at its call site, so a callee's ops are numbered between the
caller's neighbours (TVM's USMP numbered statements the same way). A buffer is live from
its allocation to the end of its last use, where a use nested in a region (an `scf.for`
body, a call's inlined callee) counts as a use by the whole op that holds it in the
buffer's own block. A function called several times gives its buffers one interval per
call.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.dialects import func, memref
from xdsl.dialects.builtin import MemRefType, ModuleOp, NoneAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import IsTerminator

from usmp_dialect.analysis import call_tree
from usmp_dialect.analysis.call_tree import (
    CallStack,
    ProgramLiveness,
    allocs_by_function,
    requested_entry,
    unreachable_allocations,
)
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.xdsl_compat import block_ops

PARALLEL_OPS = ("scf.parallel", "scf.forall", "omp.parallel", "omp.wsloop")
"""Ops whose body runs concurrently: one slot for an allocation inside would be shared."""


@dataclass
class OpSpan:
    enter: int
    exit: int


class Allocation(call_tree.Allocation[memref.AllocOp]):
    """One `memref.alloc` and what the timeline knows about it."""


def module_functions(module: ModuleOp) -> dict[str, func.FuncOp]:
    # By exact type (`isinstance` on an op class goes through `ABCMeta`) over
    # `block_ops`: a large problem's module holds tens of thousands of ops.
    return {op.sym_name.data: op for op in block_ops(module.body.block) if type(op) is func.FuncOp}


def _callee(call: func.CallOp, functions: dict[str, func.FuncOp]) -> func.FuncOp | None:
    target = functions.get(call.callee.root_reference.data)
    if target is None:
        raise UsmpError(f"call to unknown function @{call.callee.root_reference.data}", call)
    return None if target.is_declaration else target


def choose_entry(functions: dict[str, func.FuncOp], requested: str) -> func.FuncOp:
    """The option's function, else `main`, else the one defined function nobody calls."""
    if (chosen := requested_entry(functions, requested)) is not None:
        return chosen
    if "main" in functions:
        return functions["main"]
    called = {
        op.callee.root_reference.data
        for f in functions.values()
        for op in f.walk()
        if isinstance(op, func.CallOp)
    }
    roots = [f for name, f in functions.items() if name not in called and not f.is_declaration]
    if len(roots) != 1:
        names = ", ".join(f"@{f.sym_name.data}" for f in roots) or "none"
        raise UsmpError(
            f"cannot tell the entry function (candidates: {names}); name it with "
            "memref-to-usmp{entry=NAME}",
            roots[0] if roots else next(iter(functions.values()), None),
        )
    return roots[0]


def _static_reason(op: memref.AllocOp) -> str | None:
    memref_type = op.memref.type
    assert isinstance(memref_type, MemRefType)
    if op.dynamic_sizes or op.symbol_operands:
        return "dynamic shape"
    if not isinstance(memref_type.layout, NoneAttr):
        return "non-identity layout"
    if not isinstance(memref_type.memory_space, NoneAttr):
        return f"memory space {memref_type.memory_space}"
    return None


def _aliases(value: SSAValue) -> Iterator[SSAValue]:
    """The buffer and every memref derived from it (views, casts, subviews)."""
    pending = [value]
    while pending:
        current = pending.pop()
        yield current
        for use in current.uses:
            pending.extend(r for r in use.operation.results if isinstance(r.type, MemRefType))


ADDRESS_OPS = ("memref.extract_aligned_pointer_as_index",)
"""Ops that turn a buffer into a plain number, whose later uses the timeline cannot see."""


def _escape_reason(op: memref.AllocOp) -> str | None:
    block = op.parent_block()
    for alias in _aliases(op.memref):
        for use in alias.uses:
            user = use.operation
            if user.has_trait(IsTerminator):
                return f"escapes through {user.name}"
            if user.name in ADDRESS_OPS:
                return f"address taken by {user.name}"
            if block is not None and _ancestor_in(block, user) is None:
                return "used in another block (unstructured control flow)"
    return None


def _ancestor_in(block: Block, op: Operation) -> Operation | None:
    return block.find_ancestor_op_in_block(op)


class _Timeline:
    def __init__(self, functions: dict[str, func.FuncOp]):
        self.functions = functions
        self.next_index = 0
        self.allocations: dict[memref.AllocOp, Allocation] = {}
        self.call_stack = CallStack()

    def visit_function(self, function: func.FuncOp, under_parallel: bool) -> None:
        name = function.sym_name.data
        with self.call_stack.entered(name, function):
            for block in function.body.blocks:
                self.visit_block(block, name, under_parallel)

    def visit_block(self, block: Block, function: str, under_parallel: bool) -> None:
        spans: dict[Operation, OpSpan] = {}
        for op in block.ops:
            spans[op] = self.visit_op(op, function, under_parallel)
        for op in block.ops:
            if isinstance(op, memref.AllocOp):
                self._record(op, function, spans, under_parallel)

    def visit_op(self, op: Operation, function: str, under_parallel: bool) -> OpSpan:
        enter = self.next_index
        self.next_index += 1
        nested_parallel = under_parallel or op.name in PARALLEL_OPS
        if isinstance(op, func.CallOp) and (callee := _callee(op, self.functions)):
            self.visit_function(callee, nested_parallel)
        for region in op.regions:
            for block in region.blocks:
                self.visit_block(block, function, nested_parallel)
        return OpSpan(enter, self.next_index - 1)

    def _record(
        self,
        op: memref.AllocOp,
        function: str,
        spans: dict[Operation, OpSpan],
        under_parallel: bool,
    ) -> None:
        allocation = self.allocations.setdefault(op, Allocation(op, function))
        if allocation.unplanned_reason is None:
            allocation.unplanned_reason = (
                _static_reason(op)
                or _escape_reason(op)
                or ("inside a parallel loop" if under_parallel else None)
            )
        block = op.parent_block()
        assert block is not None
        end = spans[op].exit
        for alias in _aliases(op.memref):
            for use in alias.uses:
                holder = _ancestor_in(block, use.operation)
                if holder is None:
                    continue
                if spans[holder].enter < spans[op].enter:
                    # xDSL's verifier does not check that a value is defined before its
                    # uses (our parser does, IR built in Python has no parser); a buffer
                    # read before it exists has no live range to plan.
                    raise UsmpError(
                        f"buffer %{op.memref.name_hint or '?'} is used before its "
                        "memref.alloc defines it",
                        use.operation,
                    )
                end = max(end, spans[holder].exit)
        allocation.intervals.append((spans[op].enter, end + 1))


def program_liveness(module: ModuleOp, entry: str = "") -> ProgramLiveness[Allocation] | None:
    """The allocations of the program run from its entry function, or None when the
    module has no function that allocates."""
    functions = module_functions(module)
    all_allocs = allocs_by_function(functions, memref.AllocOp)
    if not all_allocs:
        return None
    entry_function = choose_entry(functions, entry)
    timeline = _Timeline(functions)
    timeline.visit_function(entry_function, under_parallel=False)
    unreachable = unreachable_allocations(all_allocs, timeline.allocations, Allocation)
    return ProgramLiveness(
        entry_function.sym_name.data, list(timeline.allocations.values()), unreachable
    )
