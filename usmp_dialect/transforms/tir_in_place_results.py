"""`tir-in-place-results`: an operator's result is written over an input that dies at
that operator, where the operator computes correctly so.

First every operator the entry can call that provably computes an output in the buffer of
an input (`analysis/in_place.py`: each element of the input read only in the iteration
that writes the same element of the output, before it writes it: elementwise operators,
activations, requantizes, an ADD of either operand) declares so in `usmp.in_place = [[i,
j], ...]`, the record `tir-state-to-allocations` reads; an operator that declares pairs
already keeps its own. Then, in the entry's order, a call passing buffers X as such an i
and Y as its j gets Y made a view of X's bytes (`tir.decl_buffer "Y"` over X's data, in
the place of Y's allocation) when:

- X and Y are allocations of the entry (not its inputs, outputs or state, whose bytes the
  application owns), of one element type and scope, Y no larger than X;
- the call is the last to touch X (it dies there) and the first to touch Y, and passes
  neither as another argument.

`tir-to-usmp` then sees one buffer, X, live until Y's last use: the plan gives Y no bytes
of its own. The entry records each such result in `usmp.in_place_results =
#usmp.in_place_results<Y = "X">` (the report lists them). A view made this way may be an
X of a later call: a chain of activations shares one buffer. Runs before `tir-to-usmp`,
after `tir-reorder-for-memory` (the order decides where an input dies).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    IntegerAttr,
    ModuleOp,
    i64,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from usmp_dialect.analysis.entry_calls import statement_call
from usmp_dialect.analysis.in_place import can_share, elementwise_pairs, in_place_pairs
from usmp_dialect.analysis.tir_liveness import aliases
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import IN_PLACE_ATTR, IN_PLACE_RESULTS_ATTR, InPlaceResultsAttr
from usmp_dialect.lowering.allocations_to_usmp import (
    takes_its_pools,
    tir_program_before_lowering,
)

_NAMING_OPS = (tir.BufferDataOp, tir.DeclBufferOp, tir.AddressOfOp)
"""Ops that name memory without touching it."""


def _top_level(op: Operation, block: Block) -> Operation:
    while op.parent_block() is not block:
        parent = op.parent_op()
        assert parent is not None
        op = parent
    return op


def _owners(block: Block) -> dict[SSAValue, tir.AllocBufferOp]:
    """Each value naming the memory of an allocation of `block`, with that allocation."""
    owner: dict[SSAValue, tir.AllocBufferOp] = {}
    for op in block.ops:
        if isinstance(op, tir.AllocBufferOp):
            for alias in aliases(op.buffer):
                owner.setdefault(alias, op)
    return owner


def _accesses(
    allocation: tir.AllocBufferOp, block: Block, position: dict[Operation, int]
) -> list[int]:
    """The positions in `block` of the statements that touch `allocation`'s memory."""
    return [
        position[_top_level(use.operation, block)]
        for alias in aliases(allocation.buffer)
        for use in alias.uses
        if not isinstance(use.operation, _NAMING_OPS)
    ]


def _share(x: tir.AllocBufferOp, y: tir.AllocBufferOp, block: Block) -> None:
    """Makes `y` a view of `x`'s data, placed after the later of the two allocations."""
    later = max(x, y, key=lambda op: list(block.ops).index(op))
    data = tir.BufferDataOp(x.buffer)
    view = tir.DeclBufferOp(data.data, y.buffer.type, tir.allocation_name(y))
    Rewriter.insert_op([data, view], InsertPoint.after(later))
    y.buffer.replace_all_uses_with(view.buffer)
    Rewriter.erase_op(y)


@dataclass(frozen=True)
class TirInPlaceResults(ModulePass):
    name = "tir-in-place-results"

    entry: str = ""
    """The function whose calls are looked at (default: `tir-to-usmp`'s entry)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Planning a planned module again (--plan-pools on its TVMScript) keeps what the
        # first plan chose: its buffers are already parts of its pools.
        if takes_its_pools(op):
            return
        program = tir_program_before_lowering(op, self.entry, self.name)
        if program is None:
            return
        functions, entry = program
        for function in functions.values():
            if function is entry or IN_PLACE_ATTR in function.attributes:
                continue
            if pairs := elementwise_pairs(function):
                function.attributes[IN_PLACE_ATTR] = ArrayAttr(
                    [ArrayAttr([IntegerAttr(i, i64), IntegerAttr(j, i64)]) for i, j in pairs]
                )
        block = entry.body.block
        shared: dict[str, str] = {}
        for statement in list(block.ops):
            callee = statement_call(statement, functions)
            if callee is None:
                continue
            name, args = callee
            for i, j in in_place_pairs(functions[name]):
                if (found := self._pair(block, statement, args, i, j)) is not None:
                    x, y = found
                    shared[tir.allocation_name(y) or ""] = tir.allocation_name(x) or ""
                    _share(x, y, block)
                    break
        if shared:
            entry.attributes[IN_PLACE_RESULTS_ATTR] = InPlaceResultsAttr(shared)

    def _pair(
        self, block: Block, call: Operation, args: list[SSAValue], i: int, j: int
    ) -> tuple[tir.AllocBufferOp, tir.AllocBufferOp] | None:
        owner = _owners(block)
        x, y = owner.get(args[i]), owner.get(args[j])
        if x is None or y is None or not can_share(x, y):
            return None
        if any(owner.get(a) in (x, y) for k, a in enumerate(args) if k not in (i, j)):
            return None
        position = {op: index for index, op in enumerate(block.ops)}
        here = position[call]
        if max(_accesses(x, block, position)) != here or min(_accesses(y, block, position)) != here:
            return None
        return x, y
