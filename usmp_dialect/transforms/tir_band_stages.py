"""`tir-band-stages`: chains of row operators run band by band, their intermediates in
rolling buffers of a few rows (MCUNetV2's patch-based inference, halo rows kept).

The entry's calls are read as a program: a call of a row operator (`analysis/tir_rows.py`:
a convolution, depthwise convolution, pooling or elementwise operator whose output rows
each read a window of its input's rows) whose input is the output of the call just before
it, used by nothing else, continues that call's chain. `planning/bands.py` chooses the
stages of the chains and their band heights that lower the program's peak most (the
bytes live at once, the bound the planner reaches on a chain: each buffer live at the
statements that use it, those an operator allocates for itself too, which a band call
holds in the rows it computes, so that an operator alone is a stage where they are the
peak), counted as
`tir-in-place-results`, which runs next in `--plan-pools`, leaves them (a result written
over an input that dies at its operator takes no bytes of its own; `in-place=false`
counts each apart); where no stage lowers that peak, nothing is banded (bands cost index
arithmetic and calls on the device) and each chain's operators are recorded as "no
gain". Each chosen stage is then rewritten in place:

- each operator the stage calls gets a copy (`<name>_band`, one per buffer shape) with two
  more params, `row_begin` and `row_end`, the output rows its loop now runs over; its
  intermediate input or output is declared with the rolling buffer's rows and indexed at
  `row % rows` (`row & (rows - 1)` for a power of two). Its bounds checks still read the
  absolute row, so padding stays exact;
- each intermediate `tir.alloc_buffer` becomes `<name>_band`, the rolling buffer, which the
  planner places like any other buffer;
- the stage's calls become the schedule's: step by step, each operator over the rows the
  next one needs, straight-line calls with constant rows.

Every output row is computed once, so the stage's multiply-accumulates are the unbanded
ones (1.0x, within any `budget`). The entry records what was banded and what could not be
in `usmp.bands` (the plan report prints it). Runs before `tir-to-usmp`, after
`tir-io-to-allocations` (whose input buffer then counts in the peak).
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from usmp_dialect.analysis.in_place import can_share, result_pairs
from usmp_dialect.analysis.tir_entry import module_calls, prim_funcs
from usmp_dialect.analysis.tir_liveness import timed_liveness
from usmp_dialect.analysis.tir_params import constant_params
from usmp_dialect.analysis.tir_rows import RowAccess, RowNest, buffer_type, row_accesses
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.lowering.allocations_to_usmp import (
    BufferNames,
    takes_its_pools,
    tir_program_before_lowering,
)
from usmp_dialect.planning.bands import (
    BANDS_ATTR,
    Program,
    RowOperator,
    Stage,
    Workspace,
    choose_stages,
)

ROW_PARAM_TYPE = i32
"""The type of an operator's `row_begin` and `row_end`."""

NHWC_ROW = 1
"""The row dimension of the NHWC tensors the C library's band kernels take."""


@dataclass
class _Call:
    """One top-level call of the entry: its op, callee, and the entry buffer behind each
    pointer argument (None for other arguments)."""

    op: tir.CallOp
    callee: tir.PrimFuncOp
    buffers: list[SSAValue | None]
    access: RowAccess | str | None = None
    options: tuple[RowAccess, ...] = ()
    """Each row dimension it is a row operator along, the one it prefers first."""


def _entry_calls(entry: tir.PrimFuncOp, functions: dict[str, tir.PrimFuncOp]) -> list[_Call]:
    calls = []
    for op in entry.body.block.ops:
        if isinstance(op, tir.CallOp) and op.callee.root_reference.data in functions:
            buffers = [
                arg.owner.buffer if isinstance(arg.owner, tir.BufferDataOp) else None
                for arg in op.args
            ]
            calls.append(_Call(op, functions[op.callee.root_reference.data], buffers))
    return calls


def _buffer_name(buffer: SSAValue) -> str:
    op = buffer.owner
    if isinstance(op, tir.AllocBufferOp):
        return tir.allocation_name(op) or "buffer"
    return buffer.name_hint or "buffer"


def _row_bytes(buffer_type: tir.BufferType, dim: int) -> int:
    return buffer_type.size_in_bytes() // buffer_type.dims[dim]


@dataclass(frozen=True)
class TirBandStages(ModulePass):
    name = "tir-band-stages"

    entry: str = ""
    """The entry function (default: as tir-to-usmp chooses it)."""
    band_height: int = 0
    """Rows of a stage's output computed a step; 0 chooses, per stage, the height of
    the least peak (then of the fewest calls)."""
    budget: int | float = 1.3
    """The most multiply-accumulates a banded program may do, relative to the unbanded
    one. Kept halo rows make every stage 1.0x, so any budget of at least 1.0 is met."""
    in_place: bool = True
    """Count the bytes as `tir-in-place-results` (which `--plan-pools` runs after this
    pass, unless `--no-in-place`) leaves them: a result written over an input that dies
    at its operator takes no bytes of its own."""

    def __post_init__(self):
        if self.band_height < 0:
            raise UsmpError(f"band-height must not be negative, got {self.band_height}")
        if not self.budget >= 1.0:
            raise UsmpError(
                f"budget must be at least 1.0 (the unbanded program's multiply-accumulates), "
                f"got {self.budget:g}"
            )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Planning a planned module again (--plan-pools on its TVMScript) keeps what the
        # first plan chose: its buffers are already parts of its pools.
        if takes_its_pools(op):
            return
        program = tir_program_before_lowering(op, self.entry, self.name)
        if program is None:
            return
        functions, entry = program
        calls, model = _read_program(op, entry, functions, self.in_place)
        buffers = _program_buffers(calls)
        self._check_band_height(calls, entry)
        heights = [self.band_height] if self.band_height else None
        stages = choose_stages(model, heights)
        rewriter = _StageRewriter(op, entry, functions)
        records = []
        for stage in stages:
            chain = [calls[s] for s in model.steps[stage.chain][stage.first : stage.last + 1]]
            records.append(_record(stage, chain, model))
            rewriter.rewrite(stage, chain)
        rewriter.erase_uncalled()
        entry.attributes[BANDS_ATTR] = DictionaryAttr(
            {
                "peak": IntegerAttr(model.peak_bytes([]), i64),
                "banded_peak": IntegerAttr(model.peak_bytes(stages), i64),
                "stages": ArrayAttr(records),
                "unbanded": DictionaryAttr(_reasons(calls, model, stages, self.band_height)),
                "in_place": DictionaryAttr(_counted_in_place(model, stages, buffers)),
            }
        )

    def _check_band_height(self, calls: Sequence[_Call], entry: tir.PrimFuncOp) -> None:
        rows = [
            c.buffers[c.access.output].type.dims[c.access.dim]  # type: ignore[union-attr]
            for c in calls
            if isinstance(c.access, RowAccess)
        ]
        if self.band_height and self.band_height > max(rows, default=0):
            raise UsmpError(
                f"band-height={self.band_height} is larger than every tensor it could band "
                f"(the most rows an operator of @{entry.sym_name.data} computes: "
                f"{max(rows, default=0)})",
                entry,
            )


def band_program(module: ModuleOp, entry: str = "") -> Program | None:
    """What the chooser sees of `module`'s entry, as `tir-band-stages` reads it where it
    runs (after `tir-io-to-allocations`); None for a module without TIR."""
    program = tir_program_before_lowering(module, entry, TirBandStages.name)
    if program is None:
        return None
    return _read_program(module, program[1], program[0], True)[1]


def _read_program(
    module: ModuleOp, entry: tir.PrimFuncOp, functions: dict[str, tir.PrimFuncOp], in_place: bool
) -> tuple[list[_Call], Program]:
    calls = _entry_calls(entry, functions)
    constants = constant_params(entry)
    weights = {arg for arg in entry.body.block.args if entry.param_name(arg.index) in constants}
    for call in calls:
        activations = [
            i
            for i, buffer in enumerate(call.buffers)
            if buffer is not None and buffer not in weights
        ]
        options = row_accesses(call.callee, activations)
        call.options = () if isinstance(options, str) else tuple(options)
        call.access = options if isinstance(options, str) else options[0]
    chains = [c for linked in _chains(calls) for c in _along_one_dim(linked, calls)]
    return calls, _program(module, entry, calls, chains, in_place)


def _chains(calls: Sequence[_Call]) -> list[list[int]]:
    """Runs of row operators called one right after the other (nothing with an effect in
    between), each reading the one before's output, a buffer of the entry that only
    those two calls use."""
    chains: list[list[int]] = []
    for i, call in enumerate(calls):
        if not isinstance(call.access, RowAccess):
            continue
        if chains and chains[-1][-1] == i - 1:
            before = calls[i - 1]
            assert isinstance(before.access, RowAccess)
            link = before.buffers[before.access.output]
            if (
                link is call.buffers[call.access.input]
                and isinstance(link.owner, tir.AllocBufferOp)  # type: ignore[union-attr]
                and _used_only_by(link, (before.op, call.op))  # type: ignore[arg-type]
                and _nothing_between(before.op, call.op)
            ):
                chains[-1].append(i)
                continue
        chains.append([i])
    return [c for c in chains if _bandable(c, calls)]


def _bandable(chain: Sequence[int], calls: Sequence[_Call]) -> bool:
    """Whether a run of row operators may be a stage: two or more, or one whose buffers
    of its own a band holds in fewer rows."""
    access = calls[chain[0]].access
    return len(chain) > 1 or (isinstance(access, RowAccess) and bool(access.allocated))


def _along_one_dim(chain: Sequence[int], calls: Sequence[_Call]) -> list[list[int]]:
    """`chain` cut where its operators share no row dimension, each part's calls set to
    their access along the dim of the part's first call that all share (NCHW's H for a
    convolution and the elementwise operators around it)."""
    parts: list[tuple[list[int], set[int]]] = []
    for step in chain:
        dims = {a.dim for a in calls[step].options}
        if parts and dims & parts[-1][1]:
            parts[-1][0].append(step)
            parts[-1][1].intersection_update(dims)
        else:
            parts.append(([step], dims))
    for steps, dims in parts:
        dim = next(a.dim for a in calls[steps[0]].options if a.dim in dims)
        for step in steps:
            calls[step].access = next(a for a in calls[step].options if a.dim == dim)
    return [steps for steps, _ in parts if _bandable(steps, calls)]


def _used_only_by(buffer: SSAValue, calls: tuple[tir.CallOp, ...]) -> bool:
    """Whether every use of `buffer` is a data pointer that only `calls` take."""
    for use in buffer.uses:
        data = use.operation
        if not isinstance(data, tir.BufferDataOp):
            return False
        if any(u.operation not in calls for u in data.data.uses):
            return False
    return True


def _nothing_between(first: tir.CallOp, second: tir.CallOp) -> bool:
    """Whether only pure ops (data pointers, constants) and the evaluation of `first`'s
    result lie between the two calls: banding interleaves them."""
    op = first.next_op
    while op is not None and op is not second:
        if not isinstance(op, tir.BufferDataOp | arith.ConstantOp | tir.EvaluateOp):
            return False
        if isinstance(op, tir.EvaluateOp) and op.value.owner is not first:
            return False
        op = op.next_op
    return op is second


def _base(buffer: SSAValue) -> SSAValue:
    """The buffer whose bytes `buffer` names: a view (`tir.decl_buffer` over a buffer's
    data, as `tir-in-place-results` makes) is its base's bytes."""
    while isinstance(view := buffer.owner, tir.DeclBufferOp) and isinstance(
        data := view.data.owner, tir.BufferDataOp
    ):
        buffer = data.buffer
    return buffer


def _program_buffers(calls: Sequence[_Call]) -> list[SSAValue]:
    """The allocations of the entry its calls pass (views read as their bases), in the
    order of their first calls: the program's buffers, by index."""
    bases = (_base(b) for call in calls for b in call.buffers if b is not None)
    return list(dict.fromkeys(b for b in bases if isinstance(b.owner, tir.AllocBufferOp)))


def _program(
    module: ModuleOp,
    entry: tir.PrimFuncOp,
    calls: Sequence[_Call],
    chains: Sequence[Sequence[int]],
    in_place: bool,
) -> Program:
    buffers = _program_buffers(calls)
    known = set(buffers)
    first: dict[SSAValue, int] = {}
    last: dict[SSAValue, int] = {}
    for step, call in enumerate(calls):
        for view in call.buffers:
            if view is not None and (buffer := _base(view)) in known:
                first.setdefault(buffer, step)
                last[buffer] = step
    index = {b: i for i, b in enumerate(buffers)}
    timeline = _Timeline(module, entry, calls, [(b, first[b], last[b]) for b in buffers])
    operators = []
    for chain in chains:
        row_operators = []
        for step in chain:
            call = calls[step]
            assert isinstance(call.access, RowAccess)
            output = buffer_type(call.buffers[call.access.output])  # type: ignore[arg-type]
            input = buffer_type(call.buffers[call.access.input])  # type: ignore[arg-type]
            dim = call.access.dim
            workspaces = tuple(
                Workspace(
                    timeline.own[step, nest.buffer.owner],
                    buffer_type(nest.buffer).dims[dim],
                    _row_bytes(buffer_type(nest.buffer), dim),
                    nest.stride,
                    nest.high - nest.low + 1,
                )
                for nest in call.access.allocated
                if (step, nest.buffer.owner) in timeline.own
            )
            row_operators.append(
                RowOperator(
                    call.callee.sym_name.data,
                    output.dims[dim],
                    _row_bytes(output, dim),
                    input.dims[dim],
                    _row_bytes(input, dim),
                    call.access.stride,
                    call.access.low,
                    call.access.high,
                    workspaces,
                )
            )
        operators.append(tuple(row_operators))
    return Program(
        timeline.live,
        timeline.sizes,
        tuple(operators),
        tuple(tuple(c) for c in chains),
        tuple(
            tuple(
                index.get(_base(calls[s].buffers[calls[s].access.output]), -1)  # type: ignore[union-attr, arg-type]
                for s in chain
            )
            for chain in chains
        ),
        _shares(calls, index, first, last) if in_place else (),
        timeline.points,
    )


class _Timeline:
    """The program's points as the planner sees them (`tir_liveness`): each call's
    moments where a buffer's life begins, and the buffers live at each, the entry's
    `buffers` (indices as theirs) and the buffers each call allocates for itself (`own`:
    `(step, alloc op)` to their index, from `len(buffers)` on), each live from the
    statement that first uses it to the one that last does. `buffers`: each with its
    first and last call."""

    def __init__(
        self,
        module: ModuleOp,
        entry: tir.PrimFuncOp,
        calls: Sequence[_Call],
        buffers: Sequence[tuple[SSAValue, int, int]],
    ):
        found = timed_liveness(module, entry.sym_name.data)
        if found is None:  # nothing allocates: no buffers, a point a call
            self.sizes: tuple[int, ...] = ()
            self.own: dict[tuple[int, object], int] = {}
            self.points = tuple(range(s, s + 1) for s in range(len(calls)))
            self.live: tuple[frozenset[int], ...] = tuple(frozenset() for _ in calls)
            return
        allocations, operators = found[0].allocations, found[1]
        spans = _call_spans(calls, operators)
        intervals: list[tuple[int, int]] = []
        sizes: list[int] = []
        self.own = {}
        index = {b: i for i, (b, _, _) in enumerate(buffers)}
        entry_intervals: dict[int, tuple[int, int]] = {}
        owned: list[tuple[int, Operation, tuple[int, int]]] = []
        starts = [a for a, _ in spans]
        for allocation in allocations:
            if allocation.op.buffer in index:
                if allocation.intervals:
                    entry_intervals[index[allocation.op.buffer]] = (
                        min(a for a, _ in allocation.intervals),
                        max(b for _, b in allocation.intervals),
                    )
            elif allocation.function != entry.sym_name.data and not allocation.unplanned_reason:
                for interval in allocation.intervals:
                    step = bisect_right(starts, interval[0]) - 1
                    if step >= 0 and interval[0] <= spans[step][1]:
                        owned.append((step, allocation.op, interval))
        for i, (buffer, first, last) in enumerate(buffers):
            sizes.append(buffer.type.size_in_bytes())  # type: ignore[attr-defined]
            # A buffer the timeline missed lives over its calls, whole.
            whole = (spans[first][0], spans[last][1] + 1)
            intervals.append(entry_intervals.get(i, whole))
        for step, op, interval in owned:
            self.own[step, op] = len(sizes)
            sizes.append(op.buffer.type.size_in_bytes())  # type: ignore[attr-defined]
            intervals.append(interval)
        self.sizes = tuple(sizes)
        points: list[int] = []
        ranges: list[range] = []
        for a, b in spans:
            moments = sorted({a} | {start for start, _ in intervals if a <= start <= b})
            ranges.append(range(len(points), len(points) + len(moments)))
            points += moments
        self.points = tuple(ranges)
        self.live = tuple(
            frozenset(i for i, (start, end) in enumerate(intervals) if start <= t < end)
            for t in points
        )


def _call_spans(
    calls: Sequence[_Call], operators: Sequence[tuple[str, int, int]]
) -> list[tuple[int, int]]:
    """Each call's first and last statement on the timeline (`operators`: the entry's
    calls of module functions, in order, each with its own)."""
    spans = []
    found = iter(operators)
    for call in calls:
        name = call.callee.sym_name.data
        spans.append(next((a, b) for n, a, b in found if n == name))
    return spans


def _shares(
    calls: Sequence[_Call],
    index: dict[SSAValue, int],
    first: dict[SSAValue, int],
    last: dict[SSAValue, int],
) -> tuple[tuple[int, int, int], ...]:
    """The program's `(step, x, y)` where `tir-in-place-results` writes buffer `y` over
    buffer `x` (by its rules: the callee computes the pair in place, `x` dies at the call
    and `y` is born there, neither passed twice, `can_share`), unbanded. A buffer written
    over `x` extends `x`'s bytes to its own last call."""
    pairs: dict[str, list[tuple[int, int]]] = {}
    owner: dict[SSAValue, SSAValue] = {}
    ends: dict[SSAValue, int] = dict(last)
    shares = []
    for step, call in enumerate(calls):
        name = call.callee.sym_name.data
        if name not in pairs:
            pairs[name] = result_pairs(call.callee)
        for i, j in pairs[name]:
            x, y = (None if b is None else _base(b) for b in (call.buffers[i], call.buffers[j]))
            if x is None or y is None or x not in index or y not in index:
                continue
            root = owner.get(x, x)
            others = {
                owner.get(_base(b), _base(b))
                for k, b in enumerate(call.buffers)
                if k not in (i, j) and b is not None
            }
            if (
                ends[root] == step
                and first[y] == step
                and not others & {root, y}
                and can_share(root.owner, y.owner)  # type: ignore[arg-type]
            ):
                owner[y] = root
                ends[root] = last[y]
                shares.append((step, index[x], index[y]))
                break
    return tuple(shares)


def _record(stage: Stage, chain: Sequence[_Call], model: Program) -> DictionaryAttr:
    operators = [c.callee.sym_name.data for c in chain]
    intermediates = [_buffer_name(c.buffers[c.access.output]) for c in chain[:-1]]  # type: ignore[union-attr, arg-type]
    return DictionaryAttr(
        {
            "operators": ArrayAttr(StringAttr(o) for o in operators),
            "band_height": IntegerAttr(stage.plan.band_height, i64),
            "steps": IntegerAttr(len(stage.plan.steps), i64),
            "calls": IntegerAttr(stage.plan.calls(), i64),
            "buffers": DictionaryAttr(
                {
                    f"{name}_band": IntegerAttr(rows, i64)
                    for name, rows in zip(intermediates, stage.plan.buffer_rows, strict=True)
                }
            ),
            "band_bytes": IntegerAttr(model.band_bytes(stage), i64),
            "macs": StringAttr("1.0x (halo rows kept, none recomputed)"),
        }
    )


def _counted_in_place(
    model: Program, stages: Sequence[Stage], buffers: Sequence[SSAValue]
) -> dict[str, Attribute]:
    """The results the count took as written over a dying input, `{result: input}` by
    name as `tir-in-place-results` records them (the input the first of a run of
    shares): those at the steps no chosen stage bands."""
    banded = {t for stage in stages for t in model.steps_of(stage)}
    root: dict[int, int] = {}
    counted: dict[str, Attribute] = {}
    for step, x, y in model.shares:
        if step not in banded:
            root[y] = root.get(x, x)
            counted[_buffer_name(buffers[y])] = StringAttr(_buffer_name(buffers[root[y]]))
    return counted


def _no_gain(band_height: int) -> str:
    """Why an operator of a chain is not banded when it could be; with the height the
    pass was told to use, when it was told one."""
    height = f" at band height {band_height}" if band_height else ""
    return f"no gain{height}: no band of its chain lowers the bytes live at once"


def _reasons(
    calls: Sequence[_Call], model: Program, stages: Sequence[Stage], band_height: int
) -> dict[str, Attribute]:
    """Why each operator not banded is not: one that is no row operator, and one of a
    chain that no chosen stage takes (each named once, the first reason its calls
    give)."""
    banded = {calls[t].callee.sym_name.data for stage in stages for t in model.steps_of(stage)}
    chained = {t for steps in model.steps for t in steps}
    reasons: dict[str, Attribute] = {}
    for step, call in enumerate(calls):
        name = call.callee.sym_name.data
        if isinstance(call.access, str):
            reasons.setdefault(name, StringAttr(call.access))
        elif step in chained and name not in banded:
            reasons.setdefault(name, StringAttr(_no_gain(band_height)))
    return reasons


class _StageRewriter:
    """Rewrites stages of the entry's calls into their band schedules."""

    def __init__(
        self, module: ModuleOp, entry: tir.PrimFuncOp, functions: dict[str, tir.PrimFuncOp]
    ):
        self.module = module
        self.entry = entry
        self.names = BufferNames()
        self.names.used.update(functions)
        self.copies: dict[tuple[str, int, int, tuple[int, ...]], tir.PrimFuncOp] = {}

    def rewrite(self, stage: Stage, chain: Sequence[_Call]) -> None:
        bands: dict[SSAValue, SSAValue] = {}
        for call, rows in zip(chain, stage.plan.buffer_rows, strict=False):
            assert isinstance(call.access, RowAccess)
            old = call.buffers[call.access.output]
            assert old is not None and isinstance(old.owner, tir.AllocBufferOp)
            band = tir.AllocBufferOp(
                _with_rows(old.type, call.access.dim, rows),  # type: ignore[arg-type]
                dict(old.owner.annotations.data),
                f"{_buffer_name(old)}_band",
            )
            band.location = old.owner.location
            Rewriter.insert_op(band, InsertPoint.before(old.owner))
            bands[old] = band.buffer
        at = InsertPoint.before(_first_argument_op(chain[0].op))
        steps = stage.plan.steps
        heights = [max(step[k][1] - step[k][0] for step in steps) for k in range(len(chain))]
        for step in stage.plan.steps:
            for k, (begin, end) in enumerate(step):
                if end > begin:
                    self._call_rows(chain[k], bands, (begin, end, heights[k]), at)
        for call in chain:
            _erase_call(call.op)
        for old in bands:
            assert isinstance(old.owner, tir.AllocBufferOp)
            Rewriter.erase_op(old.owner)

    def erase_uncalled(self) -> None:
        """Erases the operators the band copies replaced, where nothing calls them now."""
        functions = prim_funcs(self.module)
        called = {
            callee
            for function in functions.values()
            for _, callee in module_calls(function, functions)
        }
        for name, *_ in self.copies:
            if name not in called and name in functions:
                Rewriter.erase_op(functions[name])

    def _call_rows(
        self,
        call: _Call,
        bands: dict[SSAValue, SSAValue],
        rows: tuple[int, int, int],
        at: InsertPoint,
    ) -> None:
        """Calls `call`'s band copy over output rows `[begin, end)` of `rows`, the
        third the most rows any of its calls computes."""
        begin, end, height = rows
        access = call.access
        assert isinstance(access, RowAccess)
        input = call.buffers[access.input]
        output = call.buffers[access.output]
        in_rows = buffer_type(bands[input]).dims[access.dim] if input in bands else 0
        out_rows = buffer_type(bands[output]).dims[access.dim] if output in bands else 0
        callee = self._copy(call.callee, access, (in_rows, out_rows), height)
        row_type = ROW_PARAM_TYPE
        new_ops: list[Operation] = []
        args: list[SSAValue] = []
        for arg, buffer in zip(call.op.args, call.buffers, strict=True):
            if buffer is None:
                args.append(arg)
                continue
            data = tir.BufferDataOp(bands.get(buffer, buffer), arg.type)  # type: ignore[arg-type]
            new_ops.append(data)
            args.append(data.data)
        bounds = [arith.ConstantOp(IntegerAttr(r, row_type)) for r in (begin, end)]
        new_call = tir.CallOp(
            callee.sym_name.data,
            [*args, *(b.result for b in bounds)],
            None if call.op.result is None else call.op.result.type,
        )
        new_ops += [*bounds, new_call]
        if call.op.result is not None:
            new_ops.append(tir.EvaluateOp(new_call.result))  # type: ignore[arg-type]
        for new_op in new_ops:
            new_op.location = call.op.location
        Rewriter.insert_op(new_ops, at)

    def _copy(
        self,
        callee: tir.PrimFuncOp,
        access: RowAccess,
        rows: tuple[int, int],
        height: int,
    ) -> tir.PrimFuncOp:
        """The band copy of `callee` whose input and output hold `rows` rows (0: all),
        each buffer it allocates the rows `height` output rows need."""
        in_rows, out_rows = rows
        allocated = tuple(_rows_held(n, access.dim, height) for n in access.allocated)
        key = (callee.sym_name.data, in_rows, out_rows, allocated)
        if key in self.copies:
            return self.copies[key]
        copy = callee.clone()
        name = self.names.unique(f"{callee.sym_name.data}_band", "band")
        copy.properties["sym_name"] = StringAttr(name)
        Rewriter.insert_op(copy, InsertPoint.after(callee))
        options = row_accesses(copy, [access.input, access.output])
        assert not isinstance(options, str)
        fresh = next(a for a in options if a.dim == access.dim)
        _run_over_rows(copy, fresh, copy_rows(copy, fresh))
        _band_kernel(copy, fresh, in_rows, out_rows)
        views = copy.body.block.args
        for arg, held in ((views[fresh.input], in_rows), (views[fresh.output], out_rows)):
            if held:
                _roll(_view(arg), fresh.dim, held)
        for nest, held in zip(fresh.allocated, allocated, strict=True):
            if held < buffer_type(nest.buffer).dims[fresh.dim]:
                _roll(nest.buffer, fresh.dim, held)
        self.copies[key] = copy
        return copy


def _band_kernel(copy: tir.PrimFuncOp, access: RowAccess, in_rows: int, out_rows: int) -> None:
    """The band copy's `usmp.kernel` record (where the operator has one) with its `band`:
    the params `row_begin` and `row_end` (indices) and the rows of its input's and output's
    buffers (0: every row), for a kernel that computes a range of output rows; dropped
    where the kernel's data and output are not the rows the band reads and writes."""
    attr = copy.attributes.pop(tir.KERNEL_ATTR, None)
    if not isinstance(attr, StringAttr):
        return
    record = json.loads(attr.data)
    operands = record.get("operands", {})
    rows = (operands.get("data"), operands.get("output"))
    if record.get("kind") not in tir.BAND_KERNELS or rows != (access.input, access.output):
        return
    if access.dim != NHWC_ROW or access.allocated:
        return
    params = len(copy.body.block.args)
    record["band"] = {"rows": [params - 2, params - 1], "in_rows": in_rows, "out_rows": out_rows}
    copy.attributes[tir.KERNEL_ATTR] = StringAttr(json.dumps(record, sort_keys=True))


def copy_rows(function: tir.PrimFuncOp, access: RowAccess) -> int:
    """The rows of the output of a row operator."""
    return buffer_type(_view(function.body.block.args[access.output])).dims[access.dim]


def _view(param: SSAValue) -> SSAValue:
    """The buffer a function declares over its pointer param `param`."""
    return next(u.operation.buffer for u in param.uses if isinstance(u.operation, tir.DeclBufferOp))


def _rows_held(nest: RowNest, dim: int, height: int) -> int:
    """The rows of its buffer a nest computes for `height` output rows, at most all."""
    rows = nest.stride * (height - 1) + nest.high - nest.low + 1
    return min(rows, buffer_type(nest.buffer).dims[dim])


def _with_rows(buffer_type: tir.BufferType, dim: int, rows: int) -> tir.BufferType:
    dims = list(buffer_type.dims)
    dims[dim] = rows
    return tir.BufferType(
        dims,
        buffer_type.element_type,
        strides=buffer_type.stride_values,
        elem_offset=buffer_type.elem_offset.data,
        scope=buffer_type.scope.data,
        alignment=buffer_type.alignment.data,
        offset_factor=buffer_type.offset_factor.data,
        index_type=buffer_type.index_type,
    )


def _run_over_rows(function: tir.PrimFuncOp, access: RowAccess, rows: int) -> None:
    """The loop over output rows runs from the new param `row_begin` to `row_end`, and
    each other nest's loop over the rows of its buffer that those rows read: 32-bit
    params, each bound clamped to the buffer's rows, bounds TVM can prove, so that its
    index arithmetic stays in 32 bits (64-bit params made it 64-bit: 1.2x the
    instructions on a Cortex-M55)."""
    at = len(function.body.block.args)
    begin = function.insert_param(at, ROW_PARAM_TYPE, "row_begin")
    end = function.insert_param(at + 1, ROW_PARAM_TYPE, "row_end")
    ops: list[Operation] = []
    first, last = _clamped(ops, begin, end, rows)
    for nest in access.nests:
        held = buffer_type(nest.buffer).dims[access.dim]
        if (nest.stride, nest.low, nest.high, held) == (1, 0, 0, rows):
            low, high = first, last
        else:
            low = _affine(ops, first, nest.stride, nest.low)
            high = _affine(ops, last, nest.stride, nest.high + 1 - nest.stride)
            low, high = _clamped(ops, low, high, held)
        extent = arith.SubiOp(high, low)
        ops.append(extent)
        bounds: list[SSAValue] = [low, extent.result]
        if nest.loop.min.type != ROW_PARAM_TYPE:
            casts = [tir.CastOp(b, nest.loop.min.type) for b in bounds]
            ops += casts
            bounds = [c.result for c in casts]
        nest.loop.operands[0] = bounds[0]
        nest.loop.operands[1] = bounds[1]
    Rewriter.insert_op(ops, InsertPoint.before(_top_level(function, access.nests[0].loop)))


def _clamped(
    ops: list[Operation], begin: SSAValue, end: SSAValue, rows: int
) -> tuple[SSAValue, SSAValue]:
    """`begin` and `end` clamped to `[0, rows]`, `end` to at least `begin`."""
    zero = arith.ConstantOp(IntegerAttr(0, ROW_PARAM_TYPE))
    limit = arith.ConstantOp(IntegerAttr(rows, ROW_PARAM_TYPE))
    at_least_zero = arith.MaxSIOp(begin, zero.result)
    first = arith.MinSIOp(at_least_zero.result, limit.result)
    at_least_first = arith.MaxSIOp(end, first.result)
    last = arith.MinSIOp(at_least_first.result, limit.result)
    ops += [zero, limit, at_least_zero, first, at_least_first, last]
    return first.result, last.result


def _affine(ops: list[Operation], value: SSAValue, scale: int, offset: int) -> SSAValue:
    """`scale * value + offset`."""
    factor = arith.ConstantOp(IntegerAttr(scale, ROW_PARAM_TYPE))
    constant = arith.ConstantOp(IntegerAttr(offset, ROW_PARAM_TYPE))
    product = arith.MuliOp(value, factor.result)
    total = arith.AddiOp(product.result, constant.result)
    ops += [factor, constant, product, total]
    return total.result


def _top_level(function: tir.PrimFuncOp, op: Operation) -> Operation:
    while op.parent_op() is not function:
        parent = op.parent_op()
        assert parent is not None
        op = parent
    return op


def _roll(buffer: SSAValue, dim: int, rows: int) -> None:
    """`buffer` (a param's view or an allocated buffer) holds `rows` rows of `dim`, row
    `r` at `r % rows`."""
    old = buffer.owner
    rolled_type = _with_rows(buffer_type(buffer), dim, rows)
    rolled: tir.DeclBufferOp | tir.AllocBufferOp
    if isinstance(old, tir.DeclBufferOp):
        name = None if old.buffer_name is None else old.buffer_name.data
        rolled = tir.DeclBufferOp(old.data, rolled_type, name)
    else:
        assert isinstance(old, tir.AllocBufferOp)
        name = None if old.buffer_name is None else old.buffer_name.data
        rolled = tir.AllocBufferOp(rolled_type, dict(old.annotations.data), name)
    Rewriter.replace_op(old, rolled)
    for use in list(rolled.buffer.uses):
        access = use.operation
        assert isinstance(access, tir.LoadOp | tir.StoreOp)
        row = access.indices[dim]
        assert isinstance(row.type, IntegerType)
        if rows & (rows - 1) == 0:
            mask = arith.ConstantOp(IntegerAttr(rows - 1, row.type))
            slot: Operation = arith.AndIOp(row, mask.result)
        else:
            mask = arith.ConstantOp(IntegerAttr(rows, row.type))
            slot = arith.RemSIOp(row, mask.result)
        Rewriter.insert_op([mask, slot], InsertPoint.before(access))
        first_index = 1 if isinstance(access, tir.LoadOp) else 2
        access.operands[first_index + dim] = slot.results[0]


def _first_argument_op(call: tir.CallOp) -> Operation:
    """The first of the ops just before `call` that make its arguments."""
    first: Operation = call
    while (before := first.prev_op) is not None and any(r in call.args for r in before.results):
        first = before
    return first


def _erase_call(call: tir.CallOp) -> None:
    makers = [a.owner for a in call.args if isinstance(a.owner, Operation)]
    if call.result is not None:
        for use in list(call.result.uses):
            Rewriter.erase_op(use.operation)
    Rewriter.erase_op(call)
    for maker in makers:
        if maker.parent is not None and not any(r.uses for r in maker.results):
            Rewriter.erase_op(maker)
