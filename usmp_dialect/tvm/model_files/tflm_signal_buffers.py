"""TFLM's signal operators that keep samples in circular buffers from run to run
(SignalDelay, SignalFramer, SignalStacker, SignalOverlapAdd of `tflm_signal`): the kept
samples a variable, first zeros, and how full a buffer is a second one where TFLM counts."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from tvm import relax, te, tirx
from tvm.script.ir_builder import IRBuilder
from tvm.script.ir_builder import tirx as T

from usmp_dialect.tvm.model_files.onnx_operators import OperatorRejected
from usmp_dialect.tvm.model_files.tflite_options import flex_options
from usmp_dialect.tvm.model_files.tflm_signal_operands import (
    States,
    checked_tensors,
    const,
    emit_in_place,
    emit_kernel,
    flat_rows,
    option,
    relax_reshape,
    set_outputs,
    shape_of,
    tuple_item,
)


class _Carried:
    """An operator over rows of int16 samples that keeps the last `carried` samples of each
    row from run to run (TFLM's circular buffers, first zeros): each run reads the kept
    samples, then its row, as one sequence; it gives out `output_shape` ([rows, ...]),
    element (r, *index) sample `position(*index)` of row r's, and keeps the `carried`
    after its first `consumed`."""

    def __init__(self, carried: int, consumed: int) -> None:
        self.carried, self.consumed = carried, consumed
        self.kept_width = max(carried, 1)

    def sample(self, data: Any, kept: Any, r: Any, at: Any) -> Any:

        return tirx.Select(
            at < self.carried,
            kept[r, tirx.min(at, self.kept_width - 1)],
            data[r, tirx.max(at - self.carried, 0)],
        )

    def kept_after(self, data: Any, kept: Any) -> Any:
        """The samples kept after the run (element i reads element `consumed` + i of the
        sequence, ahead of it: computed in place)."""
        last = self.carried + self.consumed - 1

        def at(r: Any, i: Any) -> Any:
            return self.sample(data, kept, r, tirx.min(i + self.consumed, last))

        return te.compute((int(data.shape[0]), self.kept_width), at, name="kept")

    def emit(
        self,
        converter: Any,
        rows_of: Any,
        before: Any,
        output_shape: list[int],
        position: Callable[..., Any],
        name: str,
    ) -> tuple[Any, Any]:
        """(the output, the kept samples after the run), two kernels: the first reads the
        kept samples before, the second updates them in place."""

        def given(data: Any, kept: Any) -> Any:
            return te.compute(
                output_shape,
                lambda r, *index: self.sample(data, kept, r, position(*index)),
                name=name,
            )

        result = emit_kernel(converter, given, rows_of, before, primfunc_name_hint=f"signal_{name}")
        # The samples kept after (param 2) may be those before's buffer (param 1).
        after = emit_in_place(
            converter,
            self.kept_after,
            rows_of,
            before,
            pairs=[[1, 2]],
            primfunc_name_hint=f"signal_{name}_state",
        )
        return result, after


def convert_delay(
    converter: Any, op: Any, state: Callable[[Any, np.ndarray], Any]
) -> tuple[States, Any]:
    """SignalDelay: each row of the int16 input (its last dim a frame) delayed by
    `delay_length` samples, the samples not yet given out kept from run to run (TFLM's
    circular buffers, first zeros). Returns ([(the output tensor, the kept samples after
    the run)], the output); `state(tensor, initial)` as for convert_spectral_subtraction,
    the kept samples [rows, delay_length] named after the output."""
    (x,), (out,) = checked_tensors(
        converter, op, [("input", "int16", None)], [("output", "int16", None)]
    )
    shape = shape_of(x)
    if not shape or shape_of(out) != shape:
        raise OperatorRejected(f"its output is {shape_of(out)}, its input {shape}")
    delay = option(flex_options(op), "delay_length")
    if delay < 0:
        raise OperatorRejected(f"its delay_length {delay} is negative")
    frame = shape[-1]
    carried = _Carried(delay, frame)
    rows, rows_of = flat_rows(converter, x, shape)
    before = state(out, np.zeros((rows, carried.kept_width), np.int16))
    result, after = carried.emit(converter, rows_of, before, [rows, frame], lambda i: i, "delayed")
    return [(out, after)], converter.bb.emit(relax_reshape(result, shape))


def _written_when(
    valid: Callable[[list[Any], Any], Any],
    count: int,
    shape: list[int],
    place: Callable[..., tuple[Any, ...]],
    value: Callable[..., Any],
) -> Callable[..., Any]:
    """A TE extern body whose second output is the bool `valid(ins, 0)` (of its inputs'
    buffers) and whose first output gets, for each of `count` frames f with `valid(ins, f)`
    and each index of `shape`, `value(ins, f, *index)` at `place(f, *index)`: an invalid
    frame is left unwritten, as TFLM's kernels leave it."""

    def body(ins: Any, outs: Any) -> Any:
        with IRBuilder() as builder:
            given = [T.buffer_proxy(b) for b in ins]
            out, flag = T.buffer_proxy(outs[0]), T.buffer_proxy(outs[1])
            with T.serial(0, 1):  # one frame holding the statements
                flag[()] = valid(given, 0)
                with (
                    T.serial(0, count) as f,
                    T.If(valid(given, f)),
                    T.Then(),
                    T.grid(*shape) as grid,
                ):
                    index = [grid] if len(shape) == 1 else list(grid)
                    out[place(f, *index)] = value(given, f, *index)
            return builder.get()

    return body


def _emit_counted(
    converter: Any, given: Any, state_after: Any, args: list[Any], name: str
) -> tuple[Any, Any, Any, Any]:
    """A filling buffer's two kernels, each of (the run's input, the values kept, the count
    of how full): `given`, its values and output_valid from the state before the run;
    `state_after`, the kept values and the count after it, in place. Returns (values,
    output_valid, kept values after, count after)."""
    both = emit_kernel(converter, given, *args, primfunc_name_hint=f"signal_{name}")
    # The kept values and the count after (params 3, 4) may be those before's (1, 2).
    after = emit_in_place(
        converter,
        state_after,
        *args,
        pairs=[[1, 3], [2, 4]],
        primfunc_name_hint=f"signal_{name}_state",
    )
    return (
        tuple_item(converter, both, 0),
        tuple_item(converter, both, 1),
        tuple_item(converter, after, 0),
        tuple_item(converter, after, 1),
    )


def convert_framer(
    converter: Any, op: Any, state: Callable[[Any, np.ndarray], Any]
) -> tuple[States, Any]:
    """SignalFramer: each row of int16 samples (n x frame_step of them) written into TFLM's
    circular buffer a step at a time, each step's frame the oldest frame_size samples of
    the buffer once it holds them, the last frame_step discarded. `prefill`: the buffer
    first holds frame_size - frame_step zeros, every frame is valid, and output_valid is
    true. Without it the buffer fills over ceil(frame_size / frame_step) steps: a count of
    the steps seen so far (saturating there; state named after output_valid) says which
    frames are valid; output_valid is false while any of the run's is not, and an invalid
    frame is left unwritten, as TFLM leaves it. Either way the samples the buffer keeps
    are state named after the frames (first zeros). Returns (the states, None: it sets
    its outputs)."""

    (x,), (out, valid) = checked_tensors(
        converter,
        op,
        [("input", "int16", None)],
        [("output", "int16", None), ("output_valid", "bool", 0)],
    )
    options = flex_options(op)
    size, step = option(options, "frame_size"), option(options, "frame_step")
    prefill = bool(options.get("prefill", False))
    shape = shape_of(x)
    if not shape or step <= 0 or size <= 0 or shape[-1] < step or shape[-1] % step:
        raise OperatorRejected(
            f"its input {shape}, frame_size {size} and frame_step {step}: TFLM's framer "
            "takes rows of whole steps"
        )
    if prefill and size < step:
        raise OperatorRejected(
            f"its frame_size {size} is less than its frame_step {step}: TFLM's prefill "
            "(frame_size - frame_step zeros) would be negative"
        )
    count = shape[-1] // step
    expected = [*shape[:-1], count, size]
    if shape_of(out) != expected:
        raise OperatorRejected(f"its output is {shape_of(out)}, its options make {expected}")
    steps = -(-size // step)  # TFLM's buffer: frame_size rounded up to whole steps
    carried = _Carried(size - step if prefill else (steps - 1) * step, count * step)
    rows, rows_of = flat_rows(converter, x, shape)
    before = state(out, np.zeros((rows, carried.kept_width), np.int16))
    if prefill:
        result, after = carried.emit(
            converter, rows_of, before, [rows, count, size], lambda f, j: f * step + j, "frames"
        )
        frames = converter.bb.emit(relax_reshape(result, expected))
        set_outputs(converter, [out, valid], [frames, relax.const(True, "bool")])
        return [(out, after)], None
    seen = state(valid, np.zeros(1, np.int32))

    def frame_valid(ins: Any, f: Any) -> Any:
        return ins[2][0] + f + 1 >= steps

    def framed(data: Any, kept: Any, counted: Any) -> Any:
        def sample(ins: Any, f: Any, r: Any, j: Any) -> Any:
            return carried.sample(ins[0], ins[1], r, f * step + j)

        body = _written_when(frame_valid, count, [rows, size], lambda f, r, j: (r, f, j), sample)
        return te.extern(
            [(rows, count, size), ()],
            [data, kept, counted],
            body,
            dtype=["int16", "bool"],
            name="frames",
        )

    def state_after(data: Any, kept: Any, counted: Any) -> Any:
        saturated = te.compute(
            (1,), lambda i: tirx.min(counted[i] + count, steps), name="steps_seen"
        )
        return [carried.kept_after(data, kept), saturated]

    values, flag, kept, counted = _emit_counted(
        converter, framed, state_after, [rows_of, before, seen], "framer"
    )
    frames = converter.bb.emit(relax_reshape(values, expected))
    set_outputs(converter, [out, valid], [frames, flag])
    return [(out, kept), (valid, counted)], None


def convert_stacker(
    converter: Any, op: Any, state: Callable[[Any, np.ndarray], Any]
) -> tuple[States, None]:
    """SignalStacker: each run's num_channels values (a frame) written into TFLM's circular
    buffer of left + right + 1 frames, the first run's frame left_context times more;
    once the buffer is full its frames are the output, output_valid true, and the oldest
    `stacker_step` frames are discarded; an output not valid is left unwritten. The full
    buffer's frames are always the latest ones written, so the state is the latest
    left + right of them (state named after the output, first zeros; before the first
    run, read as the first frame's copies) and a count (named after output_valid, first
    0): 0 before the first run, then the frames the buffer holds plus one. Returns (the
    states, None: it sets its outputs)."""

    (x,), (out, valid) = checked_tensors(
        converter,
        op,
        [("input", "int16", 1)],
        [("output", "int16", 1), ("output_valid", "bool", 0)],
    )
    options = flex_options(op)
    channels = option(options, "num_channels")
    left = option(options, "stacker_left_context")
    right = option(options, "stacker_right_context")
    step = option(options, "stacker_step")
    width = left + right + 1
    if channels <= 0 or left < 0 or right < 0 or not 0 < step <= width:
        raise OperatorRejected(
            f"its num_channels {channels}, contexts {left} and {right} and step {step}: "
            "TFLM's circular buffer asserts channels and a step of 1 to left + right + 1"
        )
    if shape_of(x) != [channels]:
        raise OperatorRejected(f"its input is {shape_of(x)}, its num_channels makes [{channels}]")
    if shape_of(out) != [width * channels]:
        raise OperatorRejected(
            f"its output is {shape_of(out)}, its options make [{width * channels}]"
        )
    kept_length = (width - 1) * channels
    before = state(out, np.zeros(max(kept_length, 1), np.int16))
    counted = state(valid, np.zeros(1, np.int32))

    def held(ins: Any) -> Any:
        """The frames the buffer holds once this run's are written."""
        count = ins[2][0]
        return tirx.Select(count == 0, const(left + 1, "int32"), count)

    def sequence(ins: Any, i: Any) -> Any:
        """Value i of the kept frames (the first run: its frame's copies), then the run's."""
        data, kept, count = ins[0], ins[1], ins[2][0]
        own = data[tirx.max(i - kept_length, 0)]
        earlier = tirx.Select(
            count == 0, data[i % channels], kept[tirx.min(i, max(kept_length, 1) - 1)]
        )
        return tirx.Select(i < kept_length, earlier, own)

    def stacked(data: Any, kept: Any, count: Any) -> Any:
        body = _written_when(
            lambda ins, _: held(ins) >= width,
            1,
            [width * channels],
            lambda _, i: (i,),
            lambda ins, _, i: sequence(ins, i),
        )
        return te.extern(
            [(width * channels,), ()],
            [data, kept, count],
            body,
            dtype=["int16", "bool"],
            name="stacked",
        )

    def state_after(data: Any, kept: Any, count: Any) -> Any:
        ins = [data, kept, count]
        shifted = te.compute(
            (max(kept_length, 1),),
            lambda i: sequence(ins, tirx.min(i + channels, width * channels - 1)),
            name="kept",
        )
        frames = held(ins)
        after = te.compute(
            (1,),
            lambda _: tirx.Select(frames >= width, frames - step, frames) + 1,
            name="frames_held",
        )
        return [shifted, after]

    data = converter.get_tensor_expr(x)
    values, flag, kept, count = _emit_counted(
        converter, stacked, state_after, [data, before, counted], "stacker"
    )
    set_outputs(converter, [out, valid], [values, flag])
    return [(out, kept), (valid, count)], None


def _overlap_add(frames: Any, kept: Any, step: int) -> Any:
    """(output [rows, n_frames x step], kept samples after [rows, frame]): for each row,
    frame after frame, TFLM's OverlapAdd: the frame added to the kept samples (int16
    saturated), the first `step` of them given out, the rest moved to the front, zeros
    after. The kept samples are updated in the second output (first a copy of those
    before: the same buffer once `usmp.in_place` makes it one)."""

    rows, count, size = (int(d) for d in frames.shape)
    dtype = frames.dtype

    def added(a: Any, b: Any) -> Any:
        if dtype == "float32":
            return a + b
        total = a.astype("int32") + b.astype("int32")
        return tirx.max(tirx.min(total, 32767), -32768).astype("int16")

    def body(ins: Any, outs: Any) -> Any:
        with IRBuilder() as builder:
            data, before = T.buffer_proxy(ins[0]), T.buffer_proxy(ins[1])
            out, buffer = T.buffer_proxy(outs[0]), T.buffer_proxy(outs[1])
            with T.serial(0, rows) as r:
                with T.serial(0, size) as i:
                    buffer[r, i] = before[r, i]
                with T.serial(0, count) as f:
                    with T.serial(0, size) as i:
                        buffer[r, i] = added(data[r, f, i], buffer[r, i])
                    with T.serial(0, step) as i:
                        out[r, f * step + i] = buffer[r, i]
                    with T.serial(0, size - step) as i:
                        buffer[r, i] = buffer[r, i + step]
                    with T.serial(size - step, size) as i:
                        buffer[r, i] = tirx.const(0, dtype)
            return builder.get()

    return te.extern(
        [(rows, count * step), (rows, size)],
        [frames, kept],
        body,
        dtype=[dtype, dtype],
        name="overlap_add",
    )


def convert_overlap_add(
    converter: Any, op: Any, state: Callable[[Any, np.ndarray], Any]
) -> tuple[States, Any]:
    """SignalOverlapAdd (int16 or float32): frames [..., n_frames, frame_size] overlapped
    `frame_step` apart into [..., n_frames x frame_step], the samples not yet given out
    kept from run to run (first zeros). Returns ([(the output tensor, the kept samples
    after the run)], the output); `state` as for convert_delay."""

    options = flex_options(op)
    dtype = {7: "int16", 0: "float32"}.get(option(options, "T"))
    if dtype is None:
        raise OperatorRejected(f"its T is TensorType {options['T']}: TFLM's takes int16, float32")
    (x,), (out,) = checked_tensors(
        converter, op, [("input", dtype, None)], [("output", dtype, None)]
    )
    shape, out_shape = shape_of(x), shape_of(out)
    step = option(options, "frame_step")
    if len(shape) < 2 or not 0 < step <= shape[-1]:
        raise OperatorRejected(f"its input {shape} and frame_step {step}")
    count, size = shape[-2:]
    expected = [*shape[:-2], count * step]
    if out_shape != expected:
        raise OperatorRejected(
            f"its output is {out_shape}, its input and frame_step make {expected}"
        )
    rows = math.prod(shape[:-2])
    before = state(out, np.zeros((rows, size), dtype))
    bb = converter.bb
    frames = bb.emit(relax_reshape(converter.get_tensor_expr(x), [rows, count, size]))
    # The kept samples after (param 3) may be those before's buffer (param 1).
    both = emit_in_place(
        converter,
        lambda a, k: _overlap_add(a, k, step),
        frames,
        before,
        pairs=[[1, 3]],
        primfunc_name_hint="signal_overlap_add",
    )
    result = tuple_item(converter, both, 0)
    return [(out, tuple_item(converter, both, 1))], bb.emit(relax_reshape(result, out_shape))
