"""MLIR's SSA dominance rule, which xDSL 0.75 does not check: in a region with SSA dominance
(every region but a `builtin.module`'s, a graph region), a value's definition dominates
each use. In the same block it comes earlier; in another block of its region, its block
dominates the use's; a use in a nested region counts as a use by the op holding that
region. The parser checks only the uses that may break the rule (`candidate_uses`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue

Use = tuple[SSAValue, Operation, int]
"""A value, the op that uses it, and the operand's index there."""


@dataclass(frozen=True)
class DominanceViolation:
    user: Operation
    index: int
    note: str
    """Where the operand is defined, as mlir-opt's note says it."""
    definition: Operation | None
    """The op defining the operand, or the one holding its block (a block argument)."""


class _DominatorTree:
    """The dominator tree of a region's blocks (Cooper, Harvey and Kennedy's iteration
    over reverse postorder), numbered so that a query is two comparisons."""

    def __init__(self, region: Region):
        order = _reverse_postorder(region.blocks.first)
        number = {block: i for i, block in enumerate(order)}
        predecessors: dict[Block, list[Block]] = {block: [] for block in order}
        for block in order:
            for successor in _successors(block):
                predecessors[successor].append(block)
        idom = [0] + [-1] * (len(order) - 1)
        changed = True
        while changed:
            changed = False
            for i in range(1, len(order)):
                new = -1
                for predecessor in predecessors[order[i]]:
                    p = number[predecessor]
                    if idom[p] >= 0:
                        new = p if new < 0 else _intersect(idom, p, new)
                if new >= 0 and idom[i] != new:
                    idom[i], changed = new, True
        children: list[list[int]] = [[] for _ in order]
        for i in range(1, len(order)):
            children[idom[i]].append(i)
        self._enter: dict[Block, int] = {}
        self._leave: dict[Block, int] = {}
        clock = 0
        stack: list[tuple[int, bool]] = [(0, False)] if order else []
        while stack:
            i, done = stack.pop()
            if done:
                self._leave[order[i]] = clock
            else:
                self._enter[order[i]] = clock
                stack.append((i, True))
                stack.extend((child, False) for child in children[i])
            clock += 1

    def dominates(self, a: Block, b: Block) -> bool:
        """Whether block `a` dominates block `b`; a block no path reaches is dominated by
        every block, as in MLIR."""
        if b not in self._enter:
            return True
        if a not in self._enter:
            return False
        return self._enter[a] <= self._enter[b] and self._leave[b] <= self._leave[a]


def _intersect(idom: list[int], a: int, b: int) -> int:
    while a != b:
        while a > b:
            a = idom[a]
        while b > a:
            b = idom[b]
    return a


def _successors(block: Block) -> Sequence[Block]:
    last = block.last_op
    return () if last is None else last.successors


def _reverse_postorder(entry: Block | None) -> list[Block]:
    if entry is None:
        return []
    postorder: list[Block] = []
    seen = {entry}
    stack: list[tuple[Block, Iterator[Block]]] = [(entry, iter(_successors(entry)))]
    while stack:
        block, successors = stack[-1]
        for successor in successors:
            if successor not in seen:
                seen.add(successor)
                stack.append((successor, iter(_successors(successor))))
                break
        else:
            stack.pop()
            postorder.append(block)
    postorder.reverse()
    return postorder


def candidate_uses(
    forward_uses: Iterable[Use], multi_block_regions: Iterable[Region]
) -> Iterator[Use]:
    """The uses that may break the rule: those written before their definition, and those
    in another block than the definition's (where the order of blocks says nothing)."""
    yield from forward_uses
    for region in multi_block_regions:
        for block in region.blocks:
            for value in _defined_in(block):
                for use in value.uses:
                    if use.operation.parent_block() is not block:
                        yield value, use.operation, use.index


def _defined_in(block: Block) -> Iterator[SSAValue]:
    yield from block.args
    for op in block.ops:
        yield from op.results


def first_violation(uses: Iterable[Use]) -> DominanceViolation | None:
    """The first, in the order of the text, of `uses` whose definition does not dominate
    it (the one mlir-opt's verifier reports)."""
    trees: dict[Region, _DominatorTree] = {}
    positions: dict[Block, dict[Operation, int]] = {}
    violations = [
        (value, user, index)
        for value, user, index in uses
        if not _dominates(value, user, trees, positions)
    ]
    if not violations:
        return None
    value, user, index = min(violations, key=_text_order)
    owner = value.owner
    definition = owner if isinstance(owner, Operation) else owner.parent_op()
    return DominanceViolation(user, index, _note(value, user), definition)


def _text_order(use: Use) -> tuple[int, int, int]:
    location = use[1].location
    if isinstance(location, FileLineColLoc):
        return location.line.data, location.column.data, use[2]
    return 0, 0, use[2]


def _dominates(
    value: SSAValue,
    user: Operation,
    trees: dict[Region, _DominatorTree],
    positions: dict[Block, dict[Operation, int]],
) -> bool:
    owner = value.owner
    definer = owner if isinstance(owner, Operation) else None
    block = owner.parent_block() if isinstance(owner, Operation) else owner
    region = None if block is None else block.parent
    if block is None or region is None:
        return True
    user_here = _ancestor_in(region, user)
    if user_here is None:
        return False
    if isinstance(region.parent, ModuleOp):
        return True  # a graph region
    if user_here.parent is not block:
        if region not in trees:
            trees[region] = _DominatorTree(region)
        return trees[region].dominates(block, user_here.parent_block() or block)
    if definer is None:
        return True
    if block not in positions:
        positions[block] = {op: i for i, op in enumerate(block.ops)}
    return positions[block][definer] < positions[block][user_here]


def _ancestor_in(region: Region, op: Operation) -> Operation | None:
    """`op`, or the op holding the region it is in, and so on, that is in `region`."""
    ancestor: Operation | None = op
    while ancestor is not None and ancestor.parent_region() is not region:
        ancestor = ancestor.parent_op()
    return ancestor


def _note(value: SSAValue, user: Operation) -> str:
    """mlir-opt's note on where the operand is defined, relative to the use."""
    use_block = user.parent_block()
    use_region = None if use_block is None else use_block.parent
    owner = value.owner
    if isinstance(owner, Operation):
        def_block = owner.parent_block()
        note, same_block = "operand defined here", " (op in the same block)"
        kinds = (
            " (op in the same region)",
            " (op in a parent region)",
            " (op is in a child region)",
        )
        other = " (op is neither in a parent nor in a child region)"
    else:
        def_block = owner
        position = owner.parent.blocks.index(owner) if owner.parent is not None else 0
        note = f"operand defined as a block argument (block #{position}"
        same_block = " in the same region)"
        kinds = (" in the same region)", " in a parent region)", " in a child region)")
        other = " neither in a parent nor in a child region)"
    def_region = None if def_block is None else def_block.parent
    if def_block is use_block:
        return note + same_block
    if def_region is use_region:
        return note + kinds[0]
    if def_region is not None and use_region is not None:
        if _is_proper_ancestor(def_region, use_region):
            return note + kinds[1]
        if _is_proper_ancestor(use_region, def_region):
            return note + kinds[2]
    return note + other


def _is_proper_ancestor(outer: Region, inner: Region) -> bool:
    op = inner.parent
    while op is not None:
        region = op.parent_region()
        if region is outer:
            return True
        op = region.parent if region is not None else None
    return False
