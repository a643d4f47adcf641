"""Row operators in TIR: an operator function that computes its output row by row from
a window of rows of one input, the form `tir-band-stages` can run band by band.

The row dimension is read from the function, not assumed: it is the dim of its 4-d
tensors (one image) that a loop over the output's rows indexes, dim 1 of an NHWC tensor
and dim 2 of an NCHW one, the same dim in its input, its output and every buffer it
allocates. The function is a sequence of loop nests (TVM's NCHW operators: a padded
copy, the convolution, the bias, the activation, each with the channel loop outermost),
each nest computing one buffer (its output, or a buffer it allocates and a later nest
reads) over a loop on that buffer's rows, at any depth of the nest. Each nest stores its
buffer only at that loop's row and reads every other buffer at rows `stride * row + c`,
where `c` runs over loops with constant bounds; so output rows `[b, e)` need, of every
buffer, rows `[stride * b + low, stride * (e - 1) + high]` (`RowNest`), and of the input
the window `RowAccess` records. Both activations are touched only by loads and stores.
Padding stays right: bounds checks read the loop's row, which stays the absolute row;
only the buffers' row index is what a band rewrites.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import BlockArgument, Operation, SSAValue

from usmp_dialect.dialects import tir

__all__ = [
    "RowAccess",
    "RowNest",
    "affine_terms",
    "buffer_type",
    "multiplications",
    "row_access",
    "row_accesses",
]


@dataclass(frozen=True)
class RowNest:
    """One loop nest of a row operator: `loop` runs over the rows of `buffer` (the
    output's view or a buffer the function allocates); for output rows `[b, e)` it
    computes rows `stride * b + low` to `stride * (e - 1) + high` of it."""

    loop: tir.ForOp
    buffer: SSAValue
    stride: int
    low: int
    high: int


@dataclass(frozen=True)
class RowAccess:
    """How a row operator reads and writes: params `input` and `output` (indices), the
    row dimension `dim` of its tensors, its loop nests in program order (the last
    computes the output), and which rows of the input output row `y` reads:
    `stride * y + low` to `stride * y + high`."""

    input: int
    output: int
    dim: int
    nests: tuple[RowNest, ...]
    stride: int
    low: int
    high: int

    @property
    def rows(self) -> tir.ForOp:
        """The loop over the output's rows."""
        return self.nests[-1].loop

    @property
    def allocated(self) -> tuple[RowNest, ...]:
        """The nests that compute a buffer the function allocates."""
        return tuple(n for n in self.nests if isinstance(n.buffer.owner, tir.AllocBufferOp))


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


ROW_DIMS = (1, 2)
"""The dims a row dimension may be: H of an NHWC tensor (1) or of an NCHW one (2)."""

GLOBAL_OUTPUT = "no loop of it runs over its output's rows (a global operator)"


def row_access(function: tir.PrimFuncOp, activations: Sequence[int]) -> RowAccess | str:
    """How `function` reads and writes rows, given the params that hold activations (the
    others hold weights), along the row dimension its loops prefer; else why it is not a
    row operator."""
    accesses = row_accesses(function, activations)
    return accesses if isinstance(accesses, str) else accesses[0]


def row_accesses(function: tir.PrimFuncOp, activations: Sequence[int]) -> list[RowAccess] | str:
    """Each way `function` is a row operator, one a row dimension, the dim of its outer
    loop over the output first (an elementwise operator is one along H and along C of
    NCHW, a convolution only along H); else why it is not one along the dim it prefers."""
    operands = _operands(function, activations)
    if isinstance(operands, str):
        return operands
    input, output = operands
    accesses: list[RowAccess] = []
    reasons: list[str] = []
    for dim in _preferred_dims(output.buffer):
        access = _access_along(function, input, output, dim)
        if isinstance(access, str):
            reasons.append(access)
        else:
            accesses.append(access)
    return accesses or reasons[0]


def _operands(
    function: tir.PrimFuncOp, activations: Sequence[int]
) -> tuple[tir.DeclBufferOp, tir.DeclBufferOp] | str:
    """The views of the activation `function` reads and of the one it writes."""
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
        if not _is_image(view.buffer):
            name = view.buffer_name.data if view.buffer_name else "?"
            return f"'{name}' is not one image (NHWC or NCHW)"
        if any(not isinstance(u.operation, tir.LoadOp | tir.StoreOp) for u in view.buffer.uses):
            return "passes a tensor on to another call"
    return input, output


def _is_image(buffer: SSAValue) -> bool:
    shape = buffer_type(buffer).dims
    return len(shape) == 4 and shape[0] == 1


def _preferred_dims(output: SSAValue) -> list[int]:
    """`ROW_DIMS`, those the output's first store indexes by a loop in the order of their
    loops (the outer first), then the others."""
    store = next(u.operation for u in output.uses if isinstance(u.operation, tir.StoreOp))
    depth = {}
    for dim in ROW_DIMS:
        loop = _loop_of(store.indices[dim])
        if loop is not None:
            depth[dim] = sum(1 for _ in _enclosing_loops(loop))
    return sorted(depth, key=depth.__getitem__) + [d for d in ROW_DIMS if d not in depth]


def _loop_of(var: SSAValue) -> tir.ForOp | None:
    if not isinstance(var, BlockArgument):
        return None
    loop = var.block.parent_op()
    return loop if isinstance(loop, tir.ForOp) and loop.loop_var is var else None


def _enclosing_loops(op: Operation):
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, tir.ForOp):
            yield parent
        parent = parent.parent_op()


def _name(buffer: SSAValue) -> str:
    op = buffer.owner
    name = getattr(op, "buffer_name", None)
    return name.data if name is not None else "?"


def _access_along(
    function: tir.PrimFuncOp, input: tir.DeclBufferOp, output: tir.DeclBufferOp, dim: int
) -> RowAccess | str:
    rows = buffer_type(output.buffer).dims[dim]
    if rows < 2:
        return "its output has one row: nothing to band"
    nests = _outermost_loops(function)
    computed = _computed_buffers(function, nests, output.buffer, dim)
    if isinstance(computed, str):
        return computed
    needs = _needed_rows(nests, computed, input.buffer, output.buffer, dim)
    if isinstance(needs, str):
        return needs
    if input.buffer not in needs:
        return "reads its input's rows independently of its output's row (a global operator)"
    stride, low, high = needs[input.buffer]
    return RowAccess(
        input.data.index,  # type: ignore[attr-defined]
        output.data.index,  # type: ignore[attr-defined]
        dim,
        tuple(RowNest(loop, buffer, *needs[buffer]) for buffer, loop in computed),
        stride,
        low,
        high,
    )


def _computed_buffers(
    function: tir.PrimFuncOp, nests: Sequence[tir.ForOp], output: SSAValue, dim: int
) -> list[tuple[SSAValue, tir.ForOp]] | str:
    """The buffer each nest computes and its loop over that buffer's rows, in order."""
    computed: list[tuple[SSAValue, tir.ForOp]] = []
    for nest in nests:
        # A buffer the nest allocates is scratch of one iteration (TVM's accumulator of
        # one output element): it must lie inside the loop over rows, checked below.
        written = {
            op.buffer
            for op in nest.walk()
            if isinstance(op, tir.StoreOp) and not nest.is_ancestor(op.buffer.owner)
        }
        if len(written) != 1:
            return f"writes {len(written)} buffers in one loop nest, not one"
        (buffer,) = written
        if any(buffer is b for b, _ in computed):
            return f"writes '{_name(buffer)}' in two loop nests"
        if not _is_image(buffer):
            return f"'{_name(buffer)}' is not one image (NHWC or NCHW)"
        loop = _row_loop(buffer, dim, buffer is output)
        if isinstance(loop, str):
            return loop
        computed.append((buffer, loop))
    if not computed or computed[-1][0] is not output:
        return GLOBAL_OUTPUT
    stored = sum(1 for op in function.walk() if isinstance(op, tir.StoreOp))
    if stored != sum(1 for n in nests for op in n.walk() if isinstance(op, tir.StoreOp)):
        return "stores outside its loop nests"
    for op in function.walk():
        if not isinstance(op, tir.AllocBufferOp):
            continue
        inside = any(b is op.buffer or lp.is_ancestor(op) for b, lp in computed)
        if not inside:
            return "allocates a buffer outside its loop over rows, which rows may share"
    return computed


def _row_loop(buffer: SSAValue, dim: int, is_output: bool) -> tir.ForOp | str:
    """The loop over `buffer`'s rows: every store and load of `buffer` in its nest is at
    its var, which runs over all of its rows."""
    rows = buffer_type(buffer).dims[dim]
    stores = [u.operation for u in buffer.uses if isinstance(u.operation, tir.StoreOp)]
    loop = _loop_of(stores[0].indices[dim])
    if loop is None:
        return "writes its output at a row other than its loop's (a global operator)"
    if _constant(loop.min) != 0 or _constant(loop.extent) != rows or loop.step is not None:
        if is_output:
            return GLOBAL_OUTPUT
        return f"computes '{_name(buffer)}' over no loop on its rows"
    for use in buffer.uses:
        access = use.operation
        if not isinstance(access, tir.LoadOp | tir.StoreOp):
            return f"passes '{_name(buffer)}' on to another call"
        inside = loop.is_ancestor(access)
        if (inside or isinstance(access, tir.StoreOp)) and access.indices[dim] is not loop.loop_var:
            return "writes its output at a row other than its loop's (a global operator)"
    return loop


def _needed_rows(
    nests: Sequence[tir.ForOp],
    computed: Sequence[tuple[SSAValue, tir.ForOp]],
    input: SSAValue,
    output: SSAValue,
    dim: int,
) -> dict[SSAValue, tuple[int, int, int]] | str:
    """For each buffer a nest computes and the input, the rows output rows `[b, e)` read
    of it, `stride * b + low` to `stride * (e - 1) + high`, from the last nest back."""
    needs: dict[SSAValue, tuple[int, int, int]] = {output: (1, 0, 0)}
    order = {id(b): k for k, (b, _) in enumerate(computed)}
    for k in reversed(range(len(nests))):
        buffer, loop = computed[k]
        if buffer not in needs:
            return f"computes '{_name(buffer)}', which its output does not read"
        stride, low, high = needs[buffer]
        for load in nests[k].walk():
            if not isinstance(load, tir.LoadOp) or load.buffer is buffer:
                continue
            source = load.buffer
            if source is not input and id(source) not in order:
                continue  # a weight, or a buffer of each row
            if source is output or order.get(id(source), -1) > k:
                return f"reads '{_name(source)}' before a later loop nest computes it"
            window = _window(load.indices[dim], loop)
            if isinstance(window, str):
                return window
            s, first, last = window
            need = (s * stride, s * low + first, s * high + last)
            if source in needs:
                known = needs[source]
                if known[0] != need[0]:
                    return f"reads '{_name(source)}' at two strides"
                need = (need[0], min(known[1], need[1]), max(known[2], need[2]))
            needs[source] = need
    return needs


def _window(row: SSAValue, loop: tir.ForOp) -> tuple[int, int, int] | str:
    """`row` as `stride * loop + c`, c from `low` to `high`: (stride, low, high)."""
    terms = affine_terms(row)
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
    if stride < 1:
        return "reads its input's rows independently of its output's row (a global operator)"
    return stride, first, last


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
