"""Live intervals of `tir.alloc_buffer`s over the inlined call tree of a TIR module.

TVM's USMP buffer-info extraction, re-created:

- One timeline: walking from the entry function, every statement gets the next index, and
  a call of a module function (`tir.call`, or `tirx.call_extern`, `tirx.tvm_call_cpacked`
  or `tirx.tvm_call_packed` naming one, as TVM's own USMP tests call operators) is
  descended into at its call site, so the callee's statements are numbered between the
  caller's neighbours. Expression ops take the index of the statement that follows them
  (the statement they belong to).
- Call arguments are aliased to the callee's params: a pointer or buffer passed in carries
  the caller's buffers (followed back through `tir.buffer_data`, `tir.bind`,
  `tir.decl_buffer` views and `tir.address_of`), so the callee's loads and stores extend
  the caller buffer's interval, and nothing else does: handing a buffer to a module
  function is not a use, and the call's result (a status) carries no buffer.
- A buffer is live from its first to its last use. A use inside a loop (`tir.for`,
  `scf.while`) makes the buffer live for the whole outermost loop nest around the use
  that the buffer's allocation is outside of (the loops of callers included); a buffer
  allocated inside a loop body is allocated afresh each iteration and is not extended.
- An allocation in a function called several times gets one interval per call.
- An entry function's input or output turned allocation (`usmp.io`, see
  `tir-io-to-allocations`): an input is live from the start of the program (the
  application filled it before the call), an output to its end (the application reads it
  afterwards), an `input_output` throughout, and so is a state variable
  (`tir-state-to-allocations`).
- A buffer never used has no interval: it conflicts with nothing (TVM's rule).

Planned: non-empty allocations of a `global` rank scope (`global`, `global.workspace`, any
`global.<tag>`) reachable from the entry with no parallel, vectorized, unrolled or thread
loop (or thread attr) anywhere around them, in their own function or any caller's (TVM
looked at the innermost loop only, a data race when a serial loop sits inside a parallel
one). The rest keep a reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue

from usmp_dialect.analysis import call_tree
from usmp_dialect.analysis.call_tree import (
    CallStack,
    ProgramLiveness,
    allocs_by_function,
    unreachable_allocations,
)
from usmp_dialect.analysis.tir_entry import choose_entry, module_callee, prim_funcs
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import IO_ATTR, AllocOffsetOp, IOAttr, IOKind

CONCURRENT_LOOP_KINDS = ("parallel", "vectorized", "unrolled", "thread_binding")
THREAD_ATTR_KEYS = ("thread_extent", "virtual_thread")
_STATEMENT_OPS = (tir.AllocBufferOp, tir.DeclBufferOp, tir.BindOp, AllocOffsetOp)


@dataclass
class Allocation(call_tree.Allocation[tir.AllocBufferOp]):
    """One `tir.alloc_buffer` and what the timeline knows about it."""

    read: bool = False
    written: bool = False


def _is_statement(op: Operation) -> bool:
    return not op.results or bool(op.regions) or isinstance(op, _STATEMENT_OPS)


def _derives_alias(op: Operation) -> bool:
    """Whether the op only names memory (a data pointer, a view, an element's address, a
    bound pointer var) without touching it: the timeline counts accesses only."""
    return (
        bool(op.results)
        and all(isinstance(r.type, tir.PointerType | tir.BufferType) for r in op.results)
        and not isinstance(op, tir.CallOp | tir.CallIntrinOp)
    )


def _access(op: Operation, operand: SSAValue) -> tuple[bool, bool]:
    """Whether `op` reads and whether it writes the buffers `operand` carries. A value
    computed from loads only carries reads; memory an unknown op is handed may be both."""
    if isinstance(op, tir.StoreOp) and operand is op.buffer:
        return False, True
    if isinstance(op, tir.LoadOp) or not isinstance(operand.type, tir.PointerType | tir.BufferType):
        return True, False
    return True, True


def io_mark(op: Operation) -> tuple[str, str] | None:
    """The `(name, kind)` of an allocation marked `usmp.io`, else None."""
    attr = op.attributes.get(IO_ATTR)
    if attr is None:
        return None
    if not isinstance(attr, IOAttr):
        raise UsmpError(f'{IO_ATTR} must be #usmp.io<"param", {" | ".join(IOKind)}>', op)
    return attr.param_name.data, attr.kind.data


def _article(word: str) -> str:
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"


def _is_global_scope(scope: str) -> bool:
    """Whether a storage scope has TVM's `global` rank: `global` or `global.<tag>`."""
    return scope in ("", "global") or scope.startswith("global.")


def _static_reason(op: tir.AllocBufferOp) -> str | None:
    buffer_type = op.buffer.type
    assert isinstance(buffer_type, tir.BufferType)
    if not _is_global_scope(buffer_type.scope.data):
        return f"storage scope '{buffer_type.scope.data}'"
    if buffer_type.size_in_bytes() == 0:
        return "empty buffer"
    return None


@dataclass(eq=False)
class _Instance:
    """One execution of an allocation (one per call of the function that holds it)."""

    allocation: Allocation
    alloc_index: int
    start: int | None = None
    end: int | None = None

    def use(self, start: int, end: int) -> None:
        self.start = start if self.start is None else min(self.start, start)
        self.end = end if self.end is None else max(self.end, end)

    def stretch_io(self, kind: str, last_index: int) -> None:
        """An I/O buffer's value crosses the program's boundary: inputs in, outputs out."""
        if kind in ("input", "input_output", "state"):
            self.use(0, 0)
        if kind in ("output", "input_output", "state"):
            self.use(last_index, last_index)


@dataclass(eq=False)
class _Loop:
    enter: int
    used: set[_Instance] = field(default_factory=set)


Env = dict[SSAValue, frozenset[_Instance]]


class _Timeline:
    def __init__(self, functions: dict[str, tir.PrimFuncOp]):
        self.functions = functions
        self.next_index = 0
        self.allocations: dict[tir.AllocBufferOp, Allocation] = {}
        self.instances: list[_Instance] = []
        self.call_stack = CallStack()
        self.loops: list[_Loop] = []
        self.operators: list[tuple[str, int, int]] = []

    def visit_function(
        self, function: tir.PrimFuncOp, env: Env, context: str | None, call: Operation | None
    ) -> None:
        name = function.sym_name.data
        with self.call_stack.entered(name, call or function):
            self.visit_block(function.body.block, name, env, context)

    def visit_block(self, block: Block, function: str, env: Env, context: str | None) -> None:
        for op in block.ops:
            self.visit_op(op, function, env, context)

    def use(
        self, instances: frozenset[_Instance], index: int, read: bool = True, written: bool = True
    ) -> None:
        for instance in instances:
            instance.use(index, index)
            instance.allocation.read |= read
            instance.allocation.written |= written
        for loop in self.loops:
            loop.used |= instances

    def visit_op(self, op: Operation, function: str, env: Env, context: str | None) -> None:
        index = self.next_index
        callee = module_callee(op, self.functions)
        # A module call is numbered as the statement it is (`tir.evaluate` of an intrinsic
        # call then adds none): every call form has the same timeline.
        if (_is_statement(op) or callee is not None) and not self._wraps_module_call(op):
            self.next_index += 1
        passed: set[SSAValue] = set()
        if callee is not None:
            name, args = callee
            target = self.functions[name]
            params = target.body.block.args
            if len(args) != len(params):
                form = op.op_name.data if isinstance(op, tir.CallIntrinOp) else op.name
                raise UsmpError(
                    f"{form} of @{name} passes {len(args)} arguments; @{name} takes {len(params)}",
                    op,
                )
            callee_env: Env = {}
            for param, arg in zip(params, args, strict=True):
                if arg in env and isinstance(arg.type, tir.PointerType | tir.BufferType):
                    callee_env[param] = env[arg]
                    passed.add(arg)
            for arg in args:
                if arg in env and arg not in passed:
                    self.use(env[arg], index, *_access(op, arg))
            self.visit_function(target, callee_env, context, op)
            if len(self.call_stack.names) == 1:
                self.operators.append((name, index, self.next_index - 1))
        elif not _derives_alias(op):
            for operand in op.operands:
                if operand in env:
                    self.use(env[operand], index, *_access(op, operand))
        carried = frozenset().union(*(env.get(o, frozenset()) for o in op.operands))
        if carried and callee is None:
            # An expression's value carries the buffers it reads to the statement that
            # uses it; a statement's result only when it is a pointer or a buffer view.
            expression = not _is_statement(op)
            for result in op.results:
                if expression or isinstance(result.type, tir.PointerType | tir.BufferType):
                    env[result] = carried
        if isinstance(op, tir.AllocBufferOp):
            self._allocate(op, function, env, context, index)
        nested = context
        if isinstance(op, tir.ForOp) and op.kind.data in CONCURRENT_LOOP_KINDS:
            nested = context or f"inside {_article(op.kind.data)} loop"
        if isinstance(op, tir.AttrOp) and op.key.data in THREAD_ATTR_KEYS:
            nested = context or f"inside {_article(op.key.data)} attr"
        is_loop = isinstance(op, tir.ForOp | scf.WhileOp)
        if is_loop:
            self.loops.append(_Loop(index))
        for region in op.regions:
            for block in region.blocks:
                self.visit_block(block, function, env, nested)
        if is_loop:
            loop = self.loops.pop()
            exit_index = self.next_index - 1
            for instance in loop.used:
                if instance.alloc_index < loop.enter:
                    instance.use(loop.enter, exit_index)

    def _wraps_module_call(self, op: Operation) -> bool:
        return (
            isinstance(op, tir.EvaluateOp)
            and isinstance(op.value.owner, Operation)
            and (module_callee(op.value.owner, self.functions) is not None)
        )

    def _allocate(
        self,
        op: tir.AllocBufferOp,
        function: str,
        env: Env,
        context: str | None,
        index: int,
    ) -> None:
        allocation = self.allocations.setdefault(op, Allocation(op, function))
        if allocation.unplanned_reason is None:
            reason = _static_reason(op) or context
            if reason is None:
                reason = _escape_reason(op)
            allocation.unplanned_reason = reason
        instance = _Instance(allocation, index)
        self.instances.append(instance)
        env[op.buffer] = frozenset([instance])


def aliases(value: SSAValue):
    """The buffer and the pointers and views derived from it within its function."""
    pending, seen = [value], set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        yield current
        for use in current.uses:
            user = use.operation
            if isinstance(user, tir.CallOp | tir.CallIntrinOp):
                continue
            pending.extend(
                r for r in user.results if isinstance(r.type, tir.PointerType | tir.BufferType)
            )


def _escape_reason(op: tir.AllocBufferOp) -> str | None:
    for alias in aliases(op.buffer):
        for use in alias.uses:
            user = use.operation
            if isinstance(user, tir.ReturnOp):
                return "escapes through tir.return"
            if isinstance(user, tir.StoreOp) and user.value is alias:
                return "its address is stored in memory"
    return None


def unplannable_reason(op: tir.AllocBufferOp) -> str | None:
    """Why an allocation could not be placed in a pool wherever it ran (its scope, size
    or an escape), or None."""
    return _static_reason(op) or _escape_reason(op)


def entry_operators(module: ModuleOp, entry: str = "") -> list[tuple[str, int, int]]:
    """The calls of the program's entry function in order, each with its first and last
    step of the timeline `tir_liveness` numbers; none for a module without TIR or without
    an entry (a picture's labels, not worth a diagnostic)."""
    functions = prim_funcs(module)
    if not functions:
        return []
    timeline = _Timeline(functions)
    try:
        timeline.visit_function(choose_entry(functions, entry), {}, None, None)
    except UsmpError:
        return []
    return timeline.operators


def tir_liveness(module: ModuleOp, entry: str = "") -> ProgramLiveness[Allocation] | None:
    """The allocations of the program run from its entry function, or None when no
    function of the module allocates."""
    found = timed_liveness(module, entry)
    return None if found is None else found[0]


def timed_liveness(
    module: ModuleOp, entry: str = ""
) -> tuple[ProgramLiveness[Allocation], list[tuple[str, int, int]]] | None:
    """`tir_liveness` and, on the same timeline, `entry_operators`."""
    functions = prim_funcs(module)
    all_allocs = allocs_by_function(functions, tir.AllocBufferOp)
    if not all_allocs:
        return None
    entry_function = choose_entry(functions, entry)
    timeline = _Timeline(functions)
    timeline.visit_function(entry_function, {}, None, None)
    for instance in timeline.instances:
        if (mark := io_mark(instance.allocation.op)) is not None:
            instance.stretch_io(mark[1], timeline.next_index - 1)
        if instance.start is not None and instance.end is not None:
            instance.allocation.intervals.append((instance.start, instance.end + 1))
    unreachable = unreachable_allocations(all_allocs, timeline.allocations, Allocation)
    liveness = ProgramLiveness(
        entry_function.sym_name.data, list(timeline.allocations.values()), unreachable
    )
    return liveness, timeline.operators
