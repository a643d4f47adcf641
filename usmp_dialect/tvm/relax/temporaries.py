"""Temporaries inlined: a lowered Relax module whose operators hold no whole tensor they
can compute element by element where it is used (`--temporaries=inline`).

    inline_temporaries(lowered, fuse_producers) -> lowered      after `lower_relax`'s fusion
    widening_kept_apart() -> pass           before TVM's `FuseOps`, so it fuses no widening

TVM's fusion leaves two kinds of tensor that the kernels of a microcontroller runtime
(TensorFlow Lite Micro's) never hold:

- between operators, the output of an injective operator that FuseOps does not fuse into
  its consumer (it never fuses a producer into a convolution or a matmul): the float32
  `dequantize` of an int8 activation, the reshape feeding a matmul. Such a producer is
  fused into its consumer (`relax.transform.FuseOpsByPattern` on the `R.call_tir`s, then
  `FuseTIR`, as MLC-LLM fuses a weight's decoding into its matmul) when its result has no
  other use and its tensor inputs are no larger than its output: the consumer then reads
  the inputs, and the tensors between operators stay as small as the model's own (int8
  where the model is int8).
  TVM's `FuseOps` itself appends an elementwise operator to its producer's group, and
  so ends a convolution's group with the `dequantize` of the next operator's int8 input:
  the tensor between them would be the float32 one. `widening_kept_apart` marks each
  operator that widens a computed tensor (an int8 one into float32) opaque to `FuseOps`
  first; it is then fused into its consumer here, and the int8 tensor the model names is
  the one between operators.
- inside an operator, the temporaries of its blocks: the padded input of a convolution, a
  dequantized input, the output plus bias, each as large as a tensor. Every spatial block
  writing one is inlined into its readers (`Schedule.compute_inline`), and a reduction
  whose result one spatial block reads element by element is computed where that element
  is read (`Schedule.compute_at` under the reader's innermost loop): its accumulator
  shrinks to one element when the allocations are compacted, in `local` scope (a
  register, as in a hand-written kernel; `tir-to-usmp` leaves it to the compiler).

Both keep every value's arithmetic as it was: each element is computed by the same
expression, and a reduction accumulates in the same order; only where the values live
changes (the numerics equal the Relax VM's, which `tests/support/model_check.py` checks). An inlined
producer is computed again for each read, which costs time, never memory.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import tvm
from tvm import relax, s_tir, tirx
from tvm.relax.dpl.pattern import GlobalVarPattern, TuplePattern, is_op, wildcard

from usmp_dialect.dialects.usmp import IN_PLACE_ATTR
from usmp_dialect.tvm.relax.fused_names import named_fusion
from usmp_dialect.tvm.relax.names import ENTRY
from usmp_dialect.tvm.relax.nodes import nodes_of

# Consumers of up to this many arguments are matched (TVM's patterns match a tuple of a
# fixed length): a producer of a consumer with more stays unfused, a saving missed.
_MAX_CONSUMER_ARGS = 8
_SPATIAL = 0  # IterVar.iter_type of a data-parallel axis
# OpPatternKind, the "op_pattern" attr of a PrimFunc `FuseOps` reads
_BROADCAST = 1
_OPAQUE = 8  # fused with nothing
# A PrimFunc attribute: an operator of TFLM's signal library, fused with no producer.
SIGNAL_KERNEL_ATTR = "usmp.signal_kernel"


def inline_temporaries(lowered: Any, fuse_producers: bool = True) -> Any:
    """`lowered` (`lower_relax`'s module, before `RewriteDataflowReshape`) with injective
    producers fused into their consumers (unless not `fuse_producers`: `--fusion=none`
    keeps one operator per op) and every operator's temporaries inlined."""
    fused = _fuse_producers(lowered) if fuse_producers else lowered
    return tvm.IRModule(
        {g: _inlined(f) if isinstance(f, tirx.PrimFunc) else f for g, f in fused.functions.items()},
        attrs=fused.attrs,
    )


# ------------------------------------------------------------------ between operators


def _fuse_producers(mod: Any) -> Any:
    """Injective producers fused into their single consumers, until none is left (a chain
    of them is fused one at a time)."""
    while True:
        patterns = _producer_patterns(mod)
        if not patterns:
            return mod
        fuse = relax.transform.FuseOpsByPattern(patterns, bind_constants=False)
        fused = tvm.transform.Sequential([named_fusion(fuse, ENTRY), relax.transform.FuseTIR()])(
            mod
        )
        if len(_bindings(fused[ENTRY])) == len(_bindings(mod[ENTRY])):
            return mod
        mod = fused


def _producer_patterns(mod: Any) -> list[Any]:
    """`R.call_tir(consumer, (..., R.call_tir(producer, ...), ...))` for each tuple length
    and producer position some call of `mod`'s entry has with an elementwise producer (TVM
    tries every pattern on every binding: one per length and position up to
    `_MAX_CONSUMER_ARGS`, most never matching, made the fusion of an int8 model 10x its
    float32 twin's), checked by `_fusable` against `mod`; first, for a consumer of several
    such producers (a convolution of a dequantized input and a dequantized weight), all of
    them at once where each is fusable by its sizes alone, a decision the others' fusion
    does not change (one round of fusion, not one a producer)."""
    spatial = _spatial_callees(mod)
    in_place = _in_place_callees(mod)
    found: list[_Lifetimes] = []  # built at the first producer its tensors' sizes do not settle

    def lifetimes() -> _Lifetimes:
        if not found:
            found.append(_Lifetimes(mod[ENTRY]))
        return found[0]

    def check_one(context: Any) -> bool:
        if context.matched_expr.args[0] in in_place:
            return False
        return _fusable(context.annotated_expr["producer0"], context, spatial, lifetimes)

    def check_all(context: Any) -> bool:
        return context.matched_expr.args[0] not in in_place and all(
            _sole_elementwise(producer, context, spatial) and _no_larger_inputs(producer)
            for producer in context.annotated_expr.values()
            if producer is not context.matched_expr
        )

    places = _producer_places(mod[ENTRY], spatial)
    several = sorted({p for p in places if len(p[1]) > 1}, key=lambda p: (-len(p[1]), p))
    single = sorted({(length, (i,)) for length, positions in places for i in positions})
    patterns = []
    for (length, positions), check in [(p, check_all) for p in several] + [
        (p, check_one) for p in single
    ]:
        producers = {i: is_op("relax.call_tir")(GlobalVarPattern(), wildcard()) for i in positions}
        fields = [producers.get(i, wildcard()) for i in range(length)]
        consumer = is_op("relax.call_tir")(GlobalVarPattern(), TuplePattern(fields))
        annotations = {f"producer{n}": producer for n, producer in enumerate(producers.values())}
        patterns.append(("fused_producer", consumer, annotations, check))
    return patterns


def _call_tirs(func: Any) -> list[Any]:
    """The bindings of `func` to an `R.call_tir`."""
    call_tir = tvm.ir.Op.get("relax.call_tir")
    return [
        b
        for b in _bindings(func)
        if isinstance(b.value, relax.Call) and b.value.op.same_as(call_tir)
    ]


def _spatial_callees(mod: Any) -> set[Any]:
    """The PrimFuncs `mod`'s entry calls that compute element by element (no reduction),
    but those a converter marked opaque (TFLM's signal kernels read their operands several
    times: inlined, a producer's expression would be copied into each read)."""
    callees = {b.value.args[0] for b in _call_tirs(mod[ENTRY])}
    return {c for c in callees if _all_spatial(mod[c]) and not _signal_kernel(mod[c])}


def _signal_kernel(func: Any) -> bool:
    return (func.attrs or {}).get(SIGNAL_KERNEL_ATTR) is not None


def _in_place_callees(mod: Any) -> set[Any]:
    """The PrimFuncs `mod`'s entry calls that update an input in place (`usmp.in_place`, an
    SVDF's state): fused with a producer, FuseTIR's function would lose the attribute
    (its params renumbered), and the state would become an input and an output."""
    callees = {b.value.args[0] for b in _call_tirs(mod[ENTRY])}
    return {c for c in callees if IN_PLACE_ATTR in (mod[c].attrs or {})}


def _producer_places(func: Any, spatial: set[Any]) -> set[tuple[int, tuple[int, ...]]]:
    """(tuple length, positions) of the arguments of each `call_tir` of `func` that another
    `call_tir` of it computes with a PrimFunc of `spatial`, the length at most
    `_MAX_CONSUMER_ARGS`."""
    calls = _call_tirs(func)
    elementwise = {b.var for b in calls if b.value.args[0] in spatial}
    places = set()
    for binding in calls:
        if not isinstance(binding.value.args[1], relax.Tuple):
            continue
        fields = list(binding.value.args[1].fields)
        positions = tuple(i for i, a in enumerate(fields) if a in elementwise)
        if positions and len(fields) <= _MAX_CONSUMER_ARGS:
            places.add((len(fields), positions))
    return places


def _sole_elementwise(producer: Any, context: Any, spatial: set[Any]) -> bool:
    """The producer computes element by element (its PrimFunc is in `spatial`) and its
    result is read by the consumer only."""
    var = context.value_to_bound_var[producer]
    return len(context.var_usages.get(var, [])) == 1 and producer.args[0] in spatial


def _no_larger_inputs(producer: Any) -> bool:
    """The producer's tensor inputs (constants aside: they are not in the workspace) are no
    larger than its output."""
    return sum(tensor_bytes(a.ty) for a in _tensor_inputs(producer)) <= tensor_bytes(producer.ty)


def _tensor_inputs(producer: Any) -> list[Any]:
    return [a for a in producer.args[1].fields if not isinstance(a, tvm.ir.Constant)]


def _fusable(
    producer: Any, context: Any, spatial: set[Any], lifetimes: Callable[[], _Lifetimes]
) -> bool:
    """`_sole_elementwise`, and fusing it makes no live tensor larger: its inputs are no
    larger than its output (`_no_larger_inputs`), or the consumer comes right after
    it with an output no larger than its (the inputs and the consumer's output, live
    together at the consumer, are then no more than the inputs and the producer's output
    were), or each computed input is live at the consumer anyway (a slice of a streaming
    state that other operators read too) and the model inputs it would keep live longer
    raise no peak between the two (`_Lifetimes.raises_no_peak`: the float32 input of an
    int8 model's QUANTIZE held while a convolution writes a larger output costs more than
    the int8 copy)."""
    if not _sole_elementwise(producer, context, spatial):
        return False
    if _no_larger_inputs(producer):
        return True
    var = context.value_to_bound_var[producer]
    inputs = _tensor_inputs(producer)
    order = lifetimes().order
    consumer = context.value_to_bound_var.get(context.matched_expr)
    if consumer is None:
        return False
    if order[consumer] == order[var] + 1 and tensor_bytes(consumer.ty) <= tensor_bytes(var.ty):
        return True  # the inputs then outlive the output by the consumer alone
    computed_live = all(
        any(order[u] >= order[consumer] for u in context.var_usages[a])
        for a in inputs
        if a in order
    )
    if not computed_live:
        return False
    params = [a for a in inputs if a not in order]
    return not params or lifetimes().raises_no_peak(var, consumer, params)


class _Lifetimes:
    """When each tensor of `ENTRY` is live, by binding: a model input from the start to
    its last reader, a computed tensor from its binding to its last reader, an output to
    the end; the inputs and outputs counted, as a microcontroller's arena (and
    `--use-workspace-io`) holds them. A tensor is live together with those its binding
    reads."""

    def __init__(self, func: Any) -> None:
        bindings = _bindings(func)
        self.order = {b.var: i for i, b in enumerate(bindings)}
        end = len(bindings)
        self.bytes: dict[Any, int] = {}
        self.first: dict[Any, int] = {}
        self.last: dict[Any, int] = {}
        for param in func.params:
            self._add(param, 0)
        for i, binding in enumerate(bindings):
            self._add(binding.var, i)
            for read in relax.analysis.free_vars(binding.value):
                if read in self.last:
                    self.last[read] = max(self.last[read], i)
        for output in relax.analysis.free_vars(func.body.body):
            if output in self.last:
                self.last[output] = end
        self.end = end

    def _add(self, var: Any, at: int) -> None:
        shape = getattr(var.ty, "shape", None)
        dims = getattr(shape, "values", None)
        if dims is None or not all(isinstance(getattr(d, "value", None), int) for d in dims):
            return  # a tuple, or a dynamic shape: no bytes of its own to weigh
        self.bytes[var] = tensor_bytes(var.ty)
        self.first[var] = self.last[var] = at

    def _peak(
        self, first: dict[Any, int], last: dict[Any, int], span: tuple[int, int] | None = None
    ) -> int:
        """The most bytes live at once, over the bindings of `span` (first, last) if given."""
        change = np.zeros(self.end + 2, dtype=np.int64)
        for var, begin in first.items():
            change[begin] += self.bytes[var]
            change[last[var] + 1] -= self.bytes[var]
        live = np.cumsum(change)
        if span is not None:
            live = live[span[0] : span[1] + 1]
        return int(live.max(initial=0))

    def raises_no_peak(self, producer: Any, consumer: Any, inputs: list[Any]) -> bool:
        """Whether fusing `producer` into `consumer` (its result gone, `inputs` read by the
        consumer) leaves no more bytes live at once from the producer's binding to the
        consumer's than before. Weighed there, not against the model's peak: that peak may
        be held by tensors a later fusion removes (an int8 AVERAGE_POOL_2D's int32 copy of
        its input), which would let this fusion raise the peak it leaves."""
        span = (self.order[producer], self.order[consumer])
        first = {v: b for v, b in self.first.items() if not v.same_as(producer)}
        last = dict(self.last)
        for var in inputs:
            if var in last:
                last[var] = max(last[var], self.order[consumer])
        return self._peak(first, last, span) <= self._peak(self.first, self.last, span)


def _bindings(func: Any) -> list[Any]:
    return [b for block in func.body.blocks for b in block.bindings]


def tensor_bytes(ty: Any) -> int:
    elements = math.prod(int(d) for d in ty.shape.values)
    return elements * tvm.DataType(ty.dtype).bits // 8


def widening_kept_apart() -> Any:
    """A pass, between TVM's `AnnotateTIROpPattern` and `FuseOps`: each elementwise or
    broadcast PrimFunc that `ENTRY` calls on a tensor it computes, with a result of wider
    elements than any of its inputs (a `dequantize` of an int8 activation), marked opaque,
    so that `FuseOps` leaves it out of its producer's group."""

    def mark(mod: Any, _: Any) -> Any:
        widening = _widening_callees(mod)
        if not widening:
            return mod
        out = mod.clone()
        for callee in widening:
            out[callee] = mod[callee].with_attr("op_pattern", _OPAQUE)
        return out

    return tvm.transform.module_pass(mark, opt_level=0, name="WideningKeptApart")


def _widening_callees(mod: Any) -> list[Any]:
    call_tir = tvm.ir.Op.get("relax.call_tir")
    bindings = _bindings(mod[ENTRY])
    computed = {b.var for b in bindings}
    widening: list[Any] = []
    for binding in bindings:
        value = binding.value
        if not (isinstance(value, relax.Call) and value.op.same_as(call_tir)):
            continue
        callee, inputs = value.args[0], list(value.args[1].fields)
        pattern = (mod[callee].attrs or {}).get("op_pattern")
        if pattern is None or int(pattern) > _BROADCAST or callee in widening:
            continue
        if not all(hasattr(t, "dtype") for t in [binding.var.ty, *(a.ty for a in inputs)]):
            continue  # a tuple in or out: not one tensor widened
        if any(a in computed for a in inputs) and _bits(binding.var.ty) > max(
            _bits(a.ty) for a in inputs
        ):
            widening.append(callee)
    return widening


def _bits(ty: Any) -> int:
    return int(tvm.DataType(ty.dtype).bits)


# ------------------------------------------------------------------ inside an operator


def _blocks(func: Any) -> list[Any]:
    """The blocks of a block-based PrimFunc, the root aside, in program order."""
    return nodes_of(s_tir.SBlock, func.body)[1:]


def _spatial(block: Any) -> bool:
    return all(v.iter_type == _SPATIAL for v in block.iter_vars)


def _all_spatial(func: Any) -> bool:
    return all(_spatial(b) for b in _blocks(func))


def _inlined(func: Any) -> Any:
    """`func` with each spatial temporary inlined into its readers, then each reduction read
    element by element by one spatial block computed where it is read."""
    # A block that cannot be inlined (it writes a param) is one caught error: not rendered.
    schedule = s_tir.Schedule(tvm.IRModule({"main": func}), error_render_level="none")
    while _inline_spatial(schedule):
        pass
    for block in _blocks(schedule.mod["main"]):
        if _spatial(block):
            continue
        rv = schedule.get_sblock(block.name_hint)
        readers = schedule.get_consumers(rv)
        if len(readers) != 1 or not _reads_elementwise(schedule.get(readers[0]), block):
            continue
        loops = schedule.get_loops(readers[0])
        if not loops:  # a scalar's reader: the sum is one element already
            continue
        try:
            schedule.compute_at(rv, loops[-1])
        except s_tir.ScheduleError:  # its result is an output, or its reader is not a loop nest
            continue
        # One element now: a register, as a kernel's accumulator is, not a buffer to plan.
        schedule.set_scope(rv, 0, "local")
    return schedule.mod["main"]


def _inline_spatial(schedule: Any) -> bool:
    """Inlines each spatial block writing a temporary, in program order (a reduction or a
    block writing a param is never inlined: it is not tried, a failed try costs as much as
    an inlining); whether one was."""
    func = schedule.mod["main"]
    params = list(func.params)
    inlined = False
    for block in _blocks(func):
        if not _spatial(block) or any(w.source.same_as(p) for w in block.writes for p in params):
            continue
        try:
            schedule.compute_inline(schedule.get_sblock(block.name_hint))
        except s_tir.ScheduleError:  # its reader cannot take it inlined
            continue
        inlined = True
    return inlined


def _reads_elementwise(reader: Any, block: Any) -> bool:
    """Whether each instance of `reader` reads one element of what `block` writes, a
    different one for each (indices: distinct spatial iter vars of the reader, covering
    every one of extent > 1), so computing it there computes each element once."""
    if len(block.writes) != 1 or not _spatial(reader):
        return False
    written = block.writes[0].source
    regions = [r for r in reader.reads if r.source.same_as(written)]
    if len(regions) != 1:
        return False
    indices: list[Any] = []
    for r in regions[0].region:
        if not (_is_one(r.extent) and any(r.min.same_as(v.var) for v in reader.iter_vars)):
            return False
        if any(r.min.same_as(i) for i in indices):
            return False
        indices.append(r.min)
    wide = [v.var for v in reader.iter_vars if not _is_one(v.dom.extent)]
    return all(any(i.same_as(v) for i in indices) for v in wide)


def _is_one(value: Any) -> bool:
    return getattr(value, "value", None) == 1
