"""`memref-to-usmp`: statically shaped `memref.alloc`s become `usmp.alloc_offset`s.

Each planned buffer gets its live intervals (see `analysis/memref_liveness.py`) in one
`usmp.liveness` op, and the workspace pools that serve its function as candidates, in the
order the pools are declared. A module without a workspace pool gets one unrestricted
`@global_workspace`, as TVM made. Allocations that cannot be planned safely stay as they
are, marked with a `usmp.unplanned` attribute that says why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from usmp_dialect.analysis.memref_liveness import Allocation, program_liveness
from usmp_dialect.analysis.usmp_problem import module_liveness, module_pools
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects.usmp import UNPLANNED_ATTR, AllocOffsetOp, LivenessOp, PoolOp

DEFAULT_POOL = "global_workspace"
TARGET_ATTR = "usmp.target"
"""A function's target; a pool with targets serves only functions of those targets."""


def workspace_pools(module: ModuleOp) -> list[PoolOp]:
    pools = [p for p in module_pools(module) if p.kind.data == "workspace"]
    if not pools:
        pool = PoolOp(DEFAULT_POOL)
        block = module.body.block
        if block.first_op is None:
            block.add_op(pool)
        else:
            block.insert_op_before(pool, block.first_op)
        pools = [pool]
    return pools


def candidate_pools(function: func.FuncOp, pools: list[PoolOp]) -> list[PoolOp]:
    target = function.attributes.get(TARGET_ATTR)
    target_name = target.data if isinstance(target, StringAttr) else None
    return [p for p in pools if not p.target_names or target_name in p.target_names]


_NAME = re.compile(r"[A-Za-z_][\w.$-]*")


class BufferNames:
    """Readable, unique buffer names: the SSA name when there is one."""

    def __init__(self):
        self.used: set[str] = set()

    def name(self, allocation: Allocation, index: int) -> str:
        return self.unique(allocation.op.memref.name_hint, f"{allocation.function}.alloc{index}")

    def unique(self, hint: str | None, fallback: str) -> str:
        """`hint` if it is a readable name, else `fallback`; a suffix makes it unique."""
        base = hint if hint and _NAME.fullmatch(hint) else fallback
        name, suffix = base, 1
        while name in self.used:
            name, suffix = f"{base}.{suffix}", suffix + 1
        self.used.add(name)
        return name


def _lower_allocation(
    allocation: Allocation, name: str, pools: list[PoolOp], functions: dict[str, func.FuncOp]
) -> AllocOffsetOp:
    op = allocation.op
    candidates = candidate_pools(functions[allocation.function], pools)
    if not candidates:
        raise UsmpError(
            f"no workspace pool serves the target of @{allocation.function}", op
        )
    requested = op.alignment.value.data if op.alignment is not None else 1
    alignment = max(requested, *(p.alignment.value.data for p in candidates))
    placed = AllocOffsetOp(name, [p.sym_name.data for p in candidates], op.memref.type, alignment)
    placed.buffer.name_hint = op.memref.name_hint
    placed.location = op.location
    for alias_use in list(op.memref.uses):
        if isinstance(alias_use.operation, memref.DeallocOp):
            Rewriter.erase_op(alias_use.operation)
    Rewriter.replace_op(op, placed)
    return placed


@dataclass(frozen=True)
class MemrefToUsmp(ModulePass):
    name = "memref-to-usmp"

    entry: str = ""
    """The function the program starts from (default: `main`, else the one root)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        liveness = program_liveness(op, self.entry)
        if liveness is None:
            return
        planned = [a for a in liveness.allocations if a.unplanned_reason is None]
        for allocation in liveness.unreachable + liveness.allocations:
            if allocation.unplanned_reason is not None:
                allocation.op.attributes[UNPLANNED_ATTR] = StringAttr(allocation.unplanned_reason)
        if not planned:
            return
        if module_liveness(op) is not None:
            raise UsmpError(
                "the module already has a usmp.liveness: memref-to-usmp runs once, before "
                "planning",
                module_liveness(op),
            )
        pools = workspace_pools(op)
        functions = {f.sym_name.data: f for f in op.ops if isinstance(f, func.FuncOp)}
        names = BufferNames()
        owners: list[int] = []
        starts: list[int] = []
        ends: list[int] = []
        buffer_names: list[str] = []
        for index, allocation in enumerate(planned):
            name = names.name(allocation, index)
            _lower_allocation(allocation, name, pools, functions)
            buffer_names.append(name)
            for start, end in allocation.intervals:
                owners.append(index)
                starts.append(start)
                ends.append(end)
        op.body.block.add_op(LivenessOp(buffer_names, (owners, starts, ends)))
