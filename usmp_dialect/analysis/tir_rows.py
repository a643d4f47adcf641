"""Row operators in TIR: an operator function that computes its output row by row from
a window of rows of one input, the form `tir-band-stages` can run band by band.

Such a function has one outermost loop (`rows`), over the output's rows from 0 (dim 1 of
an NHWC buffer), stores into the output only at that row, and reads its one activation
input (the other buffer params are weights) at rows `stride * row + c`, where `c` runs
over loops inside `rows` with constant bounds. Both buffers are touched only by loads
and stores. Padding stays right: the function's bounds checks read the loop's row, which
stays the absolute row; only the buffers' row index is what a band rewrites.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import BlockArgument, Operation, SSAValue

from usmp_dialect.dialects import tir

__all__ = ["RowAccess", "affine_terms", "buffer_type", "multiplications", "row_access"]

ROW = 1
"""The row dimension of an NHWC buffer."""


@dataclass(frozen=True)
class RowAccess:
    """How a row operator reads and writes: params `input` and `output` (indices), the
    loop over rows, and which rows of the input output row `y` reads:
    `stride * y + low` to `stride * y + high`."""

    input: int
    output: int
    rows: tir.ForOp
    stride: int
    low: int
    high: int


def buffer_type(value: SSAValue) -> tir.BufferType:
    assert isinstance(value.type, tir.BufferType)
    return value.type


def affine_terms(value: SSAValue) -> dict[SSAValue | None, int] | None:
    """`value` as a sum of integer multiples of SSA values (the key None: the constant),
    through `arith` constants, additions, subtractions and multiplications by a
    constant; None for anything else."""
    op = value.owner
    if isinstance(op, arith.ConstantOp):
        attr = op.value
        return {None: int(attr.value.data)} if isinstance(attr, IntegerAttr) else None
    if isinstance(op, arith.AddiOp | arith.SubiOp):
        left, right = affine_terms(op.lhs), affine_terms(op.rhs)
        if left is None or right is None:
            return None
        sign = 1 if isinstance(op, arith.AddiOp) else -1
        for key, coefficient in right.items():
            left[key] = left.get(key, 0) + sign * coefficient
        return left
    if isinstance(op, arith.MuliOp):
        left, right = affine_terms(op.lhs), affine_terms(op.rhs)
        if left is None or right is None:
            return None
        if set(right) == {None}:
            left, right = right, left
        if set(left) != {None}:
            return None
        return {key: left[None] * c for key, c in right.items()}
    return {value: 1}


def _constant(value: SSAValue) -> int | None:
    terms = affine_terms(value)
    return terms.get(None, 0) if terms is not None and set(terms) <= {None} else None


def _outermost_loops(function: tir.PrimFuncOp) -> list[tir.ForOp]:
    loops: list[tir.ForOp] = []

    def visit(op: Operation) -> None:
        if isinstance(op, tir.ForOp):
            loops.append(op)
            return
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    visit(inner)

    for op in function.body.block.ops:
        visit(op)
    return loops


def _loop_range(var: SSAValue) -> tuple[int, int] | None:
    """The first and last value of a loop var with constant bounds, else None."""
    if not isinstance(var, BlockArgument):
        return None
    loop = var.block.parent_op()
    if not isinstance(loop, tir.ForOp) or loop.loop_var is not var or loop.step is not None:
        return None
    first, extent = _constant(loop.min), _constant(loop.extent)
    if first is None or extent is None or extent < 1:
        return None
    return first, first + extent - 1


def row_access(function: tir.PrimFuncOp, activations: Sequence[int]) -> RowAccess | str:
    """How `function` reads and writes rows, given the params that hold activations (the
    others hold weights); else why it is not a row operator."""
    views: dict[int, tir.DeclBufferOp] = {}
    for op in function.body.block.ops:
        if isinstance(op, tir.DeclBufferOp) and op.data in function.body.block.args:
            views[op.data.index] = op  # type: ignore[attr-defined]
    written = [
        i
        for i in activations
        if i in views and any(isinstance(u.operation, tir.StoreOp) for u in views[i].buffer.uses)
    ]
    read = [i for i in activations if i in views and i not in written]
    if len(written) != 1 or len(read) != 1 or len(activations) != 2:
        return f"reads {len(read)} and writes {len(written)} of its {len(activations)} tensors"
    output, input = views[written[0]], views[read[0]]
    for view in (output, input):
        shape = buffer_type(view.buffer).dims
        if len(shape) != 4 or shape[0] != 1:
            return f"'{view.buffer_name.data if view.buffer_name else '?'}' is not an NHWC tensor"
        if any(not isinstance(u.operation, tir.LoadOp | tir.StoreOp) for u in view.buffer.uses):
            return "passes a tensor on to another call"
    loops = _outermost_loops(function)
    rows = buffer_type(output.buffer).dims[ROW]
    if rows < 2:
        return "its output has one row: nothing to band"
    if len(loops) != 1:
        return f"has {len(loops)} outermost loops, not one loop over its output's rows"
    loop = loops[0]
    if _constant(loop.min) != 0 or _constant(loop.extent) != rows or loop.step is not None:
        return "its outermost loop does not run over its output's rows (a global operator)"
    if any(
        isinstance(op, tir.AllocBufferOp) and not loop.is_ancestor(op) for op in function.walk()
    ):
        return "allocates a buffer outside its loop over rows, which rows may share"
    for use in output.buffer.uses:
        access = use.operation
        assert isinstance(access, tir.LoadOp | tir.StoreOp)
        if access.indices[ROW] is not loop.loop_var:
            return "writes its output at a row other than its loop's (a global operator)"
    window = _window(input, loop)
    if isinstance(window, str):
        return window
    stride, low, high = window
    return RowAccess(read[0], written[0], loop, stride, low, high)


def _window(input: tir.DeclBufferOp, loop: tir.ForOp) -> tuple[int, int, int] | str:
    strides: set[int] = set()
    low, high = None, None
    for use in input.buffer.uses:
        assert isinstance(use.operation, tir.LoadOp)
        terms = affine_terms(use.operation.indices[ROW])
        if terms is None:
            return "reads its input at rows that are not an affine function of its loops"
        stride = terms.pop(loop.loop_var, 0)
        first = last = terms.pop(None, 0)
        for var, coefficient in terms.items():
            assert var is not None
            bounds = _loop_range(var)
            if bounds is None:
                return "reads its input at rows that depend on more than its loops"
            ends = (coefficient * bounds[0], coefficient * bounds[1])
            first, last = first + min(ends), last + max(ends)
        strides.add(stride)
        low = first if low is None else min(low, first)
        high = last if high is None else max(high, last)
    if len(strides) != 1 or low is None or high is None or min(strides) < 1:
        return (
            "reads its input's rows independently of its output's row (a global operator, "
            "or dim 1 is not rows: an NCHW layout)"
        )
    return strides.pop(), low, high


def multiplications(op: Operation) -> int:
    """The products of two values (no constant factor: index arithmetic is left out)
    that `op`'s body computes, each counted as often as the constant-extent loops around
    it inside `op` run it: an operator's multiply-accumulates."""
    total = 0
    for inner in op.walk():
        if not isinstance(inner, arith.MuliOp | arith.MulfOp):
            continue
        if any(isinstance(v.owner, arith.ConstantOp) for v in (inner.lhs, inner.rhs)):
            continue
        count, parent = 1, inner.parent_op()
        while parent is not None and parent is not op:
            if isinstance(parent, tir.ForOp):
                count *= _constant(parent.extent) or 1
            parent = parent.parent_op()
        total += count
    return total
