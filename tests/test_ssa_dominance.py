"""The parser's dominance check (`usmp_dialect.analysis.ssa_dominance`) against the
definition of dominance on random control-flow graphs: block `a` dominates block `b` when
every path from the entry to `b` passes through `a` (and any block dominates one that no
path reaches, as in MLIR)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects import arith, cf, test
from xdsl.dialects.builtin import IndexType, ModuleOp, i1
from xdsl.ir import Block, Region

from usmp_dialect.analysis.ssa_dominance import first_violation

Successors = list[tuple[int, ...]]


@st.composite
def control_flow(draw: st.DrawFn) -> Successors:
    """Each block's successors (none, a branch, or a conditional branch)."""
    count = draw(st.integers(1, 7))
    block = st.integers(0, count - 1)
    return [draw(st.tuples() | st.tuples(block) | st.tuples(block, block)) for _ in range(count)]


def _reachable(successors: Successors, removed: int | None) -> set[int]:
    seen: set[int] = set()
    pending = [0] if removed != 0 else []
    while pending:
        block = pending.pop()
        if block not in seen:
            seen.add(block)
            pending.extend(s for s in successors[block] if s != removed)
    return seen


def _dominates(successors: Successors, a: int, b: int) -> bool:
    return a == b or b not in _reachable(successors, None) or b not in _reachable(successors, a)


def _function(successors: Successors) -> tuple[Region, list[Block], list[arith.ConstantOp]]:
    """A region of the blocks, each defining one value and ending in its branches."""
    blocks = [Block(arg_types=[i1]) for _ in successors]
    condition = blocks[0].args[0]
    values = []
    for block, targets in zip(blocks, successors, strict=True):
        value = arith.ConstantOp.from_int_and_width(1, IndexType())
        block.add_op(value)
        values.append(value)
        if len(targets) == 1:
            block.add_op(cf.BranchOp(blocks[targets[0]], condition))
        elif len(targets) == 2:
            then, other = (blocks[t] for t in targets)
            block.add_op(cf.ConditionalBranchOp(condition, then, [condition], other, [condition]))
    return Region(blocks), blocks, values


@settings(max_examples=150, deadline=None)
@given(control_flow())
def test_a_use_in_another_block_is_checked_against_dominance(successors: Successors):
    _, blocks, values = _function(successors)
    for a, value in enumerate(values):
        for b, block in enumerate(blocks):
            if a == b:
                continue
            user = test.TestOp(operands=[value.result])
            block.insert_op_before(user, block.last_op) if block.last_op else block.add_op(user)
            violation = first_violation([(value.result, user, 0)])
            assert (violation is None) == _dominates(successors, a, b), (a, b)
            user.detach()
            user.erase()


def test_a_use_before_its_definition_in_a_block_is_reported_with_mlir_opt_note():
    region, (block,), (value,) = _function([()])
    user = test.TestOp(operands=[value.result])
    block.insert_op_before(user, value)
    violation = first_violation([(value.result, user, 0)])
    assert violation is not None
    assert (violation.user, violation.index) == (user, 0)
    assert violation.note == "operand defined here (op in the same block)"
    assert violation.definition is value
    assert region.parent is None


def test_builtin_module_is_a_graph_region():
    value = arith.ConstantOp.from_int_and_width(1, IndexType())
    user = test.TestOp(operands=[value.result])
    ModuleOp([user, value])
    assert first_violation([(value.result, user, 0)]) is None
