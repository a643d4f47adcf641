"""What `memref-to-usmp` and `tir-to-usmp` share: buffer names, and the one way a
program's allocations and their live intervals become usmp IR.

Each front-end pass supplies its liveness analysis and how one allocation op becomes a
`usmp.alloc_offset` (without candidate pools: `usmp-assign-pools` decides those); this
module marks what stays unplanned, names the buffers and writes the single `usmp.liveness`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from xdsl.dialects import memref
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from usmp_dialect.analysis.call_tree import Allocation
from usmp_dialect.analysis.tir_entry import choose_entry, prim_funcs
from usmp_dialect.analysis.tir_liveness import aliases
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import (
    IO_ATTR,
    POOLS_ATTR,
    UNPLANNED_ATTR,
    AllocOffsetOp,
    LivenessOp,
    module_liveness,
)

AllocationT = TypeVar("AllocationT", bound=Allocation)


class BufferNames:
    """Readable, unique buffer names: the source's name when there is one."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def unique(self, hint: str | None, fallback: str) -> str:
        """`hint`, the user's name whatever its characters, else `fallback`; a repeated
        name gets TVM's suffix (`T_softmax_exp`, then `T_softmax_exp2`, `T_softmax_exp3`),
        so plans and reports name buffers as TVM's USMP named them."""
        base = hint or fallback
        name, suffix = base, 2
        while name in self.used:
            name, suffix = f"{base}{suffix}", suffix + 1
        self.used.add(name)
        return name


def lower_allocations(
    module: ModuleOp,
    pass_name: str,
    allocations: Sequence[AllocationT],
    source_name: Callable[[AllocationT], str | None],
    lower: Callable[[AllocationT, str], AllocOffsetOp],
) -> None:
    """Marks the unplanned allocations, lowers the others with `lower(allocation, name)`,
    gives each its intervals and says with a new `usmp.liveness` that they are known."""
    for allocation in allocations:
        if allocation.unplanned_reason is not None:
            allocation.op.attributes[UNPLANNED_ATTR] = StringAttr(allocation.unplanned_reason)
    planned = [a for a in allocations if a.unplanned_reason is None]
    if not planned:
        return
    if (existing := module_liveness(module)) is not None:
        raise UsmpError(
            f"the module already has a usmp.liveness: {pass_name} runs once, before planning",
            existing,
        )
    names = BufferNames()
    for index, allocation in enumerate(planned):
        name = names.unique(source_name(allocation), f"{allocation.function}.alloc{index}")
        placed = lower(allocation, name)
        placed.set_live([bound for interval in allocation.intervals for bound in interval])
    module.body.block.add_op(LivenessOp())


def pending_allocations(module: ModuleOp) -> list[Operation]:
    """The allocations no lowering has seen yet: `memref-to-usmp` and `tir-to-usmp` turn
    each into a `usmp.alloc_offset` or mark it `usmp.unplanned`."""
    return [
        op
        for op in module.walk()
        if isinstance(op, memref.AllocOp | tir.AllocBufferOp)
        and UNPLANNED_ATTR not in op.attributes
    ]


def tir_program_before_lowering(
    module: ModuleOp, requested_entry: str, pass_name: str
) -> tuple[dict[str, tir.PrimFuncOp], tir.PrimFuncOp] | None:
    """The module's functions and its entry, for a pass that rewrites the TIR allocations
    the plan is about and so runs before `tir-to-usmp` (an error after it); None when the
    module has no TIR."""
    functions = prim_funcs(module)
    if not functions:
        return None
    _check_not_lowered(module, pass_name)
    return functions, choose_entry(functions, requested_entry, pass_name)


def takes_its_pools(module: ModuleOp) -> bool:
    """Whether a function of `module` takes its pools: the module was planned and lowered
    back (`usmp-to-tir`), as a planned TVMScript imported again is."""
    return any(isinstance(op, tir.PrimFuncOp) and POOLS_ATTR in op.attributes for op in module.ops)


def _check_not_lowered(module: ModuleOp, pass_name: str) -> None:
    """Raises at the first sign that `tir-to-usmp` has run."""
    for op in module.walk():
        if isinstance(op, LivenessOp):
            found = "the module already has a usmp.liveness"
        elif isinstance(op, AllocOffsetOp):
            found = f"buffer '{op.buffer_name.data}' is already a usmp.alloc_offset"
        elif UNPLANNED_ATTR in op.attributes:
            found = f"this allocation is already marked {UNPLANNED_ATTR}"
        elif isinstance(op, tir.PrimFuncOp) and POOLS_ATTR in op.attributes:
            found = f"@{op.sym_name.data} already takes its pools (usmp-to-tir has run)"
        else:
            continue
        raise UsmpError(f"{pass_name} runs before tir-to-usmp, but {found}", op)


def lower_alloc_buffer(op: tir.AllocBufferOp, name: str) -> AllocOffsetOp:
    """`op` as a `usmp.alloc_offset` named `name`, without candidate pools."""
    buffer_type = op.buffer.type
    assert isinstance(buffer_type, tir.BufferType)
    placed = AllocOffsetOp(name, [], tir.in_pool(buffer_type), buffer_type.alignment.data)
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
            moved = Rewriter.replace_value_with_new_type(value, tir.in_pool(t))
        else:
            continue
        moved.name_hint = value.name_hint
