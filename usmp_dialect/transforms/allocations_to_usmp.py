"""What `memref-to-usmp` and `tir-to-usmp` share: buffer names, and the one way a
program's allocations and their live intervals become usmp IR.

Each front-end pass supplies its liveness analysis and how one allocation op becomes a
`usmp.alloc_offset` (without candidate pools: `usmp-assign-pools` decides those); this
module marks what stays unplanned, names the buffers and writes the single `usmp.liveness`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from xdsl.dialects.builtin import ModuleOp, StringAttr

from usmp_dialect.analysis.call_tree import Allocation
from usmp_dialect.analysis.usmp_problem import module_liveness
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects.usmp import UNPLANNED_ATTR, LivenessOp

AllocationT = TypeVar("AllocationT", bound=Allocation)


_NAME = re.compile(r"[A-Za-z_][\w.$-]*")


class BufferNames:
    """Readable, unique buffer names: the source's name when there is one."""

    def __init__(self) -> None:
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
    allocations: Sequence[AllocationT],
    source_name: Callable[[AllocationT], str | None],
    lower: Callable[[AllocationT, str], None],
) -> None:
    """Marks the unplanned allocations, lowers the others with `lower(allocation, name)`
    and records their intervals in one new `usmp.liveness`."""
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
    buffer_names: list[str] = []
    owners: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    for index, allocation in enumerate(planned):
        name = names.unique(source_name(allocation), f"{allocation.function}.alloc{index}")
        lower(allocation, name)
        buffer_names.append(name)
        for start, end in allocation.intervals:
            owners.append(index)
            starts.append(start)
            ends.append(end)
    module.body.block.add_op(LivenessOp(buffer_names, (owners, starts, ends)))
