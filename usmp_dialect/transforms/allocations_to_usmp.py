"""What `memref-to-usmp` and `tir-to-usmp` share: pool candidates, buffer names, and the
one way a program's allocations and their live intervals become usmp IR.

Each front-end pass supplies its liveness analysis and how one allocation op becomes a
`usmp.alloc_offset`; this module marks what stays unplanned, picks the pools, names the
buffers and writes the single `usmp.liveness`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from xdsl.dialects import memref
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation

from usmp_dialect.analysis.call_tree import Allocation
from usmp_dialect.analysis.tir_liveness import choose_entry, prim_funcs
from usmp_dialect.analysis.usmp_problem import module_liveness, module_pools
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import UNPLANNED_ATTR, AllocOffsetOp, LivenessOp, PoolOp
from usmp_dialect.transforms.usmp_to_tir import POOLS_ATTR

DEFAULT_POOL = "global_workspace"
TARGET_ATTR = "usmp.target"
"""A function's target; a pool with targets serves only functions of those targets."""


def workspace_pools(module: ModuleOp) -> list[PoolOp]:
    """The module's workspace pools in declaration order; an unrestricted
    `@global_workspace` is added when there is none, as TVM did."""
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


def candidate_pools(function: Operation, pools: list[PoolOp]) -> list[PoolOp]:
    target = function.attributes.get(TARGET_ATTR)
    target_name = target.data if isinstance(target, StringAttr) else None
    return [p for p in pools if not p.target_names or target_name in p.target_names]


def serving_pools(allocation: Allocation, function: Operation, pools: list[PoolOp]):
    candidates = candidate_pools(function, pools)
    if not candidates:
        raise UsmpError(
            f"no workspace pool serves the target of @{allocation.function}", allocation.op
        )
    return candidates


_NAME = re.compile(r"[A-Za-z_][\w.$-]*")


class BufferNames:
    """Readable, unique buffer names: the source's name when there is one."""

    def __init__(self):
        self.used: set[str] = set()

    def unique(self, hint: str | None, fallback: str) -> str:
        """`hint` if it is a readable name, else `fallback`; a repeated name gets TVM's
        suffix (`T_softmax_exp`, then `T_softmax_exp2`, `T_softmax_exp3`), so plans and
        reports name buffers as TVM's USMP named them."""
        base = hint if hint and _NAME.fullmatch(hint) else fallback
        name, suffix = base, 2
        while name in self.used:
            name, suffix = f"{base}{suffix}", suffix + 1
        self.used.add(name)
        return name


def lower_allocations(
    module: ModuleOp,
    pass_name: str,
    allocations: Sequence[Allocation],
    source_name: Callable[[Allocation], str | None],
    lower: Callable[[Allocation, str, list[PoolOp]], None],
) -> None:
    """Marks the unplanned allocations, lowers the others with `lower(allocation, name,
    pools)` and records their intervals in one new `usmp.liveness`."""
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
    pools = workspace_pools(module)
    names = BufferNames()
    buffer_names: list[str] = []
    owners: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    for index, allocation in enumerate(planned):
        name = names.unique(source_name(allocation), f"{allocation.function}.alloc{index}")
        lower(allocation, name, pools)
        buffer_names.append(name)
        for start, end in allocation.intervals:
            owners.append(index)
            starts.append(start)
            ends.append(end)
    module.body.block.add_op(LivenessOp(buffer_names, (owners, starts, ends)))


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
