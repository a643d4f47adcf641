"""TensorFlow Lite Micro's signal library (its `signal/` kernels, the custom operators of
micro_speech's audio front end) as TFLM computes them, integer for integer:

    signal_converters(converter) -> {code: convert}   for TVM's TFLite frontend
    CARRYING_SIGNAL_CONVERTERS                         those whose kernels keep state

Written from TFLM's kernel sources (signal/micro/kernels, signal/src); each operator's
options are a FlexBuffer map in its custom options. Every kernel is a TE kernel of ours:

- SignalWindow: each int16 sample times its window weight (int32), shifted right by
  `shift`, saturated to int16.
- SignalFftAutoScale: the largest magnitude of the int16 frame (TFLM's MaxAbs16, read in
  order, its wrap of -32768 included), the left shift that leaves it below 2^15 (0 for a
  silent frame: GCC's MostSignificantBit32(0) is 32), and the frame shifted by it.
- SignalRfft: kissfft 1.3.0's real FFT (`kiss_fftr`) in the type TFLM builds it for
  the options' T: int16 (FIXED_POINT 16: each stage's inputs halved or quartered,
  every product rounded from Q15), int32 (FIXED_POINT 32: Q31, products in int64),
  float32. Each row (any leading dims) zero-padded to `fft_length`, a complex FFT of
  half that length by kissfft's butterflies (radix 4, 2, 3 and 5, in kf_factor's
  order; TFLM's kissfft crashes on its generic one, which is refused), then the split
  into the real transform's spectrum. Its twiddles (kissfft's `kf_cexp`: cosines, rounded to Q15 or
  Q31 when fixed) are constants computed at import.
- SignalEnergy: real^2 + imag^2 of each bin from `start_index` to `end_index` (uint32;
  TFLM leaves the other bins unwritten, ours are 0).
- SignalFilterBank: each channel the sum of its bins times its weights plus the previous
  channel's bins times their unweights, in uint64 (the int16 weights widened as C
  widens them).
- SignalFilterBankSquareRoot: each channel's square root rounded to nearest (TFLM's
  Sqrt64: floor, then up where the remainder exceeds the root, but past 0xFFFF below
  2^32), shifted right by the scale bits the auto scale chose.
- SignalFilterBankSpectralSubtraction: the noise estimate (kernel state TFLM keeps from
  run to run; here a variable in the state pool, first 0, as every kernel's state)
  smoothed towards each channel (even and odd channels by their own coefficients),
  clamped to the signal if `clamping`; the output the signal less the estimate, at least
  `min_signal_remaining` of it. Its second output is the estimate after the run.
- SignalPCAN: per-channel automatic gain control: a gain from the noise estimate by the
  file's interpolated lookup table (TFLM's WideDynamicFunction), the SNR shifted by
  `snr_shift`, compressed by PcanShrink.
- SignalFilterBankLog: `output_scale` x ln(x << `input_correction_bits`), TFLM's Log32
  (log2 by a 129-entry correction table of log2(1 + f) - f, in Q16), saturated to int16.
- SignalIrfft: kissfft's `kiss_fftri` in the same three types: the bins folded into a
  half-length complex buffer, then the inverse complex FFT (its twiddles' phases
  negated, kf_bfly4's turn the other way); float32 then divided by fft_length, as
  TFLM's IrfftFloatApply divides it.
- SignalDelay, SignalFramer, SignalOverlapAdd (int16 saturating, float32), SignalStacker:
  the samples TFLM's circular buffers keep from run to run are a variable, first zeros.
  A framer without prefill and a stacker give a frame only once the buffer holds one:
  how full it is is a second variable (an int32 count), their output_valid says whether
  the run's frames are, and an invalid frame is left unwritten, as TFLM leaves it.

A signal operator whose tensors contradict its options or TFLM's kernel (ranks, types, a
filter bank's channel count, an FFT length) is an `OperatorRejected` naming the tensor.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from tvm import relax, te, tirx
from tvm.relax.frontend.tflite.tflite_frontend import get_tensor_name
from tvm.script.ir_builder import IRBuilder
from tvm.script.ir_builder import tirx as T

from usmp_dialect.dialects.usmp import IN_PLACE_ATTR
from usmp_dialect.tvm.model_files.int8_unweighted_kernels import OPAQUE
from usmp_dialect.tvm.model_files.onnx_operators import OperatorRejected
from usmp_dialect.tvm.model_files.tflite_options import flex_options
from usmp_dialect.tvm.model_files.tflite_tensors import tensor_shape
from usmp_dialect.tvm.relax.temporaries import SIGNAL_KERNEL_ATTR

_Q15_MAX = 32767  # kissfft's SAMP_MAX for FIXED_POINT 16
_PCAN_SNR_BITS = 12
_PCAN_OUTPUT_BITS = 6
_LOG_SEGMENTS_LOG2 = 7
_LOG_SCALE_LOG2 = 16
_LOG_COEFF = 45426  # ln(2) in Q16

# What a carrying converter returns first: each state's (tensor it is named after, value
# after the run).
_States = list[tuple[Any, Any]]


def log2_correction_table() -> np.ndarray:
    """TFLM's kLogLut: (log2(1 + i/128) - i/128) in Q16 for i <= 128, rounded, and a 0
    past the end (the interpolation reads entry i + 1)."""
    steps = np.arange(129) / 128.0
    table = np.floor((np.log2(1.0 + steps) - steps) * 65536.0 + 0.5).astype(np.int32)
    return np.concatenate([table, [0]]).astype(np.int32)


def kiss_factors(n: int) -> list[int]:
    """kissfft's kf_factor: the radices of an `n`-point FFT, 4s first, then 2, 3, 5, ..."""
    radices = []
    p, limit = 4, math.floor(math.sqrt(n))
    while n > 1:
        while n % p:
            p = {4: 2, 2: 3}.get(p, p + 2)
            if p > limit:
                p = n
        n //= p
        radices.append(p)
    return radices


def _shape_of(tensor: Any) -> list[int]:
    return tensor_shape(tensor.tensor)


def _type_of(converter: Any, tensor: Any) -> str:
    return str(converter.get_tensor_type_str(tensor.tensor.Type()))


def _emit(converter: Any, kernel: Any, *args: Any, primfunc_name_hint: str) -> Any:
    """`kernel`'s call emitted as one operator fused with no other (as TFLM runs it; its
    expressions read their operands several times, which fusion would multiply)."""
    return converter.bb.emit_te(
        kernel,
        *args,
        primfunc_name_hint=primfunc_name_hint,
        primfunc_attrs={"op_pattern": OPAQUE, SIGNAL_KERNEL_ATTR: 1},
    )


def _check_tensors(
    converter: Any,
    op: Any,
    inputs: list[tuple[str, str, int | None]],
    outputs: list[tuple[str, str, int | None]],
) -> tuple[list[Any], list[Any]]:
    """The operator's input and output tensors, each (name, type, rank or None) as TFLM's
    Prepare checks them; OperatorRejected naming the first that differs."""
    found_in, found_out = converter.get_input_tensors(op), converter.get_output_tensors(op)
    if len(found_in) != len(inputs) or len(found_out) != len(outputs):
        raise OperatorRejected(
            f"it has {len(found_in)} inputs and {len(found_out)} outputs (TFLM's kernel "
            f"takes {len(inputs)} and {len(outputs)})"
        )
    for tensors, expected in ((found_in, inputs), (found_out, outputs)):
        for tensor, (name, dtype, rank) in zip(tensors, expected, strict=True):
            if _type_of(converter, tensor) != dtype:
                raise OperatorRejected(
                    f"its {name} is {_type_of(converter, tensor)}, TFLM's kernel takes {dtype}"
                )
            shape = _shape_of(tensor)
            if rank is not None and len(shape) != rank:
                raise OperatorRejected(f"its {name} is of rank {len(shape)}, TFLM's is {rank}")
    return found_in, found_out


def _option(options: dict[str, Any], name: str) -> int:
    if name not in options:
        raise OperatorRejected(f"its options have no '{name}'")
    return int(options[name])


def _same_length(name: str, shape: list[int], length: int, what: str) -> None:
    if math.prod(shape) != length:
        raise OperatorRejected(f"its {name} is {shape}, {what} makes [{length}]")


def _u32(value: Any) -> Any:
    return value.astype("uint32")


def _const(value: int, dtype: str) -> Any:

    return tirx.const(value, dtype)


def _most_significant_bit(x: Any) -> Any:
    """GCC's MostSignificantBit32 of the uint32 `x`: 32 - its leading zeros, 32 for 0,
    as int32: floor(log2(x)) + 1, x as a double (exact: a power of two's log2 is exact,
    and 2^k - 1's is 2^-k below k, a billion ulps at least). TIR has no count of leading
    zeros, and TE shares no subexpression: a search's nested selects grow exponentially,
    a count of bits 32-fold in each place the result is read."""

    positive = tirx.max(x, _const(1, "uint32"))
    exponent = tirx.floor(tirx.log2(positive.astype("float64"))).astype("int32")
    return tirx.Select(x == _const(0, "uint32"), _const(32, "int32"), exponent + 1)


def _window(x: Any, weights: Any, shift: int) -> Any:

    shape = [int(d) for d in x.shape]
    size = int(weights.shape[0])

    def windowed(*index: Any) -> Any:
        flat = _const(0, "int32")
        for dim, i in zip(shape, index, strict=True):
            flat = flat * dim + i
        raw = (x[index].astype("int32") * weights[flat % size].astype("int32")) >> shift
        return tirx.max(tirx.min(raw, _const(32767, "int32")), _const(-32768, "int32")).astype(
            "int16"
        )

    return te.compute(shape, windowed, name="window")


def convert_window(converter: Any, op: Any) -> Any:
    (x, weights), (out,) = _check_tensors(
        converter,
        op,
        [("input", "int16", None), ("weights", "int16", 1)],
        [("output", "int16", None)],
    )
    shape, size = _shape_of(x), _shape_of(weights)[0]
    if not shape or _shape_of(out) != shape:
        raise OperatorRejected(f"its output is {_shape_of(out)}, its input {shape}")
    if size == 0 or math.prod(shape) % size:
        raise OperatorRejected(f"its input {shape} is not whole windows of {size} weights")
    shift = _option(flex_options(op), "shift")
    return _emit(
        converter,
        lambda a, w: _window(a, w, shift),
        converter.get_tensor_expr(x),
        converter.get_tensor_expr(weights),
        primfunc_name_hint="signal_window",
    )


def _max_abs_scale(x: Any) -> Any:
    """FftAutoScale's shift: TFLM's MaxAbs16 read in order into the scalar output (as
    int16, -32768 wrapping as in C), then 16 - 1 - MostSignificantBit32, 0 if negative."""

    length = int(x.shape[0])

    def scan(ins: Any, outs: Any) -> Any:
        with IRBuilder() as builder:
            data, best = T.buffer_proxy(ins[0]), T.buffer_proxy(outs[0])
            with T.serial(0, 1):  # one frame holding the statements
                best[()] = _const(0, "int32")
                with T.serial(0, length) as i:
                    value = data[i].astype("int32")
                    negated = (-value).astype("int16").astype("int32")
                    best[()] = tirx.Select(
                        value > best[()], value, tirx.Select(-value > best[()], negated, best[()])
                    )
                msb = _most_significant_bit(best[()].astype("uint32"))
                best[()] = tirx.max(_const(15, "int32") - msb, _const(0, "int32"))
            return builder.get()

    return te.extern([()], [x], scan, dtype="int32", name="fft_auto_scale")


def convert_fft_auto_scale(converter: Any, op: Any) -> None:

    (x,), (out, bits) = _check_tensors(
        converter,
        op,
        [("input", "int16", 1)],
        [("output", "int16", 1), ("scale_bit", "int32", 0)],
    )
    if _shape_of(out) != _shape_of(x):
        raise OperatorRejected(f"its output is {_shape_of(out)}, its input {_shape_of(x)}")
    data = converter.get_tensor_expr(x)
    scale = _emit(converter, _max_abs_scale, data, primfunc_name_hint="signal_fft_auto_scale")

    def scaled(a: Any, s: Any) -> Any:
        return te.compute(
            a.shape,
            lambda i: (a[i].astype("int32") << s[()]).astype("int16"),
            name="auto_scaled",
        )

    shifted = _emit(
        converter, scaled, data, scale, primfunc_name_hint="signal_fft_auto_scale_apply"
    )
    _set_outputs(converter, [out, bits], [shifted, scale])


class _KissScalars:
    """kissfft's arithmetic in one of the types TFLM builds it for (kiss_fft_scalar):
    int16 (FIXED_POINT 16: products of int32 rounded from Q15, sums stored wrapping to
    int16), int32 (FIXED_POINT 32: products of int64 rounded from Q31), float32 (plain
    float arithmetic, each operation rounded to float as C computes it). Values are
    computed as `compute` (int32, or float32)."""

    def __init__(self, dtype: str) -> None:
        self.dtype = dtype
        self.fixed = dtype != "float32"
        self.compute = "int32" if self.fixed else "float32"
        self.product = {"int16": "int32", "int32": "int64"}.get(dtype, "float32")
        self.bits = {"int16": 15, "int32": 31}.get(dtype, 0)
        self.most = (1 << self.bits) - 1  # SAMP_MAX

    def twiddles(self, phases: np.ndarray) -> np.ndarray:
        """kf_cexp: [cos, sin] of each phase, floor(0.5 + SAMP_MAX x) when fixed."""
        parts = np.stack([np.cos(phases), np.sin(phases)], axis=-1)
        if self.fixed:
            parts = np.floor(0.5 + self.most * parts)
        return parts.astype(self.dtype)

    def load(self, buffer: Any, at: Any) -> tuple[Any, Any]:
        return buffer[at * 2].astype(self.compute), buffer[at * 2 + 1].astype(self.compute)

    def store(self, buffer: Any, at: Any, value: tuple[Any, Any]) -> None:
        buffer[at * 2] = value[0].astype(self.dtype)
        buffer[at * 2 + 1] = value[1].astype(self.dtype)

    def zero(self) -> Any:
        return tirx.const(0, self.compute)

    def wrap(self, value: Any) -> Any:
        """A sum stored into a kiss_fft_scalar (an int16 wraps)."""
        return value.astype(self.dtype).astype(self.compute) if self.dtype == "int16" else value

    def _round(self, product: Any) -> Any:
        """sround: (x + 2^(bits - 1)) >> bits, as a kiss_fft_scalar."""
        shifted = (product + tirx.const(1 << (self.bits - 1), self.product)) >> self.bits
        return shifted.astype(self.dtype).astype(self.compute)

    def _widened(self, value: Any) -> Any:
        return value.astype(self.product)

    def times(self, a: tuple[Any, Any], b: tuple[Any, Any]) -> tuple[Any, Any]:
        """C_MUL (each part's products summed, then rounded)."""
        if not self.fixed:
            return a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]
        w = self._widened
        return (
            self._round(w(a[0]) * w(b[0]) - w(a[1]) * w(b[1])),
            self._round(w(a[0]) * w(b[1]) + w(a[1]) * w(b[0])),
        )

    def scaled(self, a: Any, b: Any) -> Any:
        """S_MUL: a real product, rounded when fixed."""
        if not self.fixed:
            return a * b
        return self._round(self._widened(a) * self._widened(b))

    def divided(self, value: tuple[Any, Any], k: int) -> tuple[Any, Any]:
        """C_FIXDIV: each part times SAMP_MAX / k, rounded (float: unchanged)."""
        if not self.fixed:
            return value
        scale = tirx.const(self.most // k, self.product)
        return (
            self._round(self._widened(value[0]) * scale),
            self._round(self._widened(value[1]) * scale),
        )

    def half(self, value: Any) -> Any:
        """HALF_OF: x >> 1, or x x 0.5."""
        return value >> 1 if self.fixed else value * tirx.const(0.5, "float32")


_KISS_TYPES = {7: "int16", 2: "int32", 0: "float32"}  # the options' T, TensorType


def rfft_twiddles(
    fft_length: int, dtype: str = "int16", inverse: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """The real FFT's twiddles (kiss_fftr_alloc's) in `dtype`: the complex FFT's (half the
    length) and the split's (`super_twiddles`), [n, 2] each; `inverse`: their phases
    negated."""
    scalars = _KissScalars(dtype)
    half = fft_length // 2
    sign = -1.0 if inverse else 1.0
    twiddles = scalars.twiddles(sign * -2.0 * math.pi * np.arange(half) / half)
    split = scalars.twiddles(sign * -math.pi * ((np.arange(half // 2) + 1) / half + 0.5))
    return twiddles, split


def _set_outputs(converter: Any, tensors: list[Any], values: list[Any]) -> None:

    for tensor, value in zip(tensors, values, strict=True):
        converter.exp_tab.set_expr(get_tensor_name(converter.subgraph, tensor.tensor_idx), value)


class _KissPlan:
    """kf_work's plan for a complex FFT of `half` points: its radices (kf_factor), and at
    each level the stride between the twiddles it reads and the span of its blocks."""

    def __init__(self, half: int) -> None:
        self.half = half
        self.radices = kiss_factors(half)
        levels = range(len(self.radices))
        self.strides = [math.prod(self.radices[:level]) for level in levels]
        self.spans = [half // math.prod(self.radices[: level + 1]) for level in levels]

    def digit_reversed_copy(
        self, scalars: _KissScalars, out: Any, base: Any, value: Callable[[Any], Any]
    ) -> None:
        """kf_work's first step: complex element j of the FFT's buffer (complex offset
        `base`) is `value(source)`, the FFT's input at sum over levels of
        (j // span % radix) x stride (the mixed-radix digits reversed)."""

        with T.serial(0, self.half) as j:
            source = _const(0, "int32")
            for radix, span, stride in zip(self.radices, self.spans, self.strides, strict=True):
                source = source + (j // span % radix) * stride
            scalars.store(out, base + j, value(source))

    def transform(self, scalars: _KissScalars, out: Any, tw: Any, base: Any, inverse: bool) -> None:
        """The butterflies of every level, last first, in place."""
        for level in reversed(range(len(self.radices))):
            _butterflies(
                scalars,
                out,
                tw,
                base,
                self.half,
                self.radices[level],
                self.spans[level],
                self.strides[level],
                inverse,
            )


def _bind(value: tuple[Any, Any]) -> tuple[Any, Any]:
    """A complex value computed once, before the stores that follow overwrite what it
    reads (sums of such values are left to be computed where read: TVM's CSE would leave
    their copies unused)."""

    return T.Bind(value[0]), T.Bind(value[1])


def _butterflies(
    scalars: _KissScalars,
    out: Any,
    tw: Any,
    base: Any,
    half: int,
    radix: int,
    span: int,
    stride: int,
    inverse: bool,
) -> None:
    """One level of kf_work: for each block of radix x span complex values (from complex
    offset `base`), kissfft's butterflies of the radix (kf_bfly2, 3, 4 or 5), each input
    first divided by the radix (C_FIXDIV)."""

    with T.serial(0, half // (radix * span)) as block, T.serial(0, span) as k:
        first = block * radix * span + k
        at = [base + first + q * span for q in range(radix)]
        values = [_bind(scalars.divided(scalars.load(out, p), radix)) for p in at]

        def turned(q: int) -> tuple[Any, Any]:
            return _bind(scalars.times(values[q], scalars.load(tw, k * stride * q)))

        b = _Butterfly(scalars, out, at, values, [turned(q) for q in range(1, radix)])
        if radix == 2:
            (v0r, v0i), (tr, ti) = values[0], b.turns[0]
            b.store(1, (v0r - tr, v0i - ti))
            b.store(0, (v0r + tr, v0i + ti))
        elif radix == 3:
            _radix_3(b, tw, stride * span)
        elif radix == 4:
            _radix_4(b, inverse)
        else:
            _radix_5(b, tw, stride * span)


_Complex = tuple[Any, Any]


@dataclass
class _Butterfly:
    """One butterfly of kf_work: its points' complex offsets in `out`, their values divided
    by the radix, and each but the first turned by its twiddle."""

    scalars: _KissScalars
    out: Any
    at: list[Any]
    values: list[_Complex]
    turns: list[_Complex]

    def store(self, q: int, value: _Complex) -> None:
        self.scalars.store(self.out, self.at[q], value)


def _radix_3(b: _Butterfly, tw: Any, third: Any) -> None:
    """kf_bfly3's stores, from the divided points and the second and third turned;
    `third` the twiddle of a third of a turn (its sine scales the difference)."""
    wrap, half = b.scalars.wrap, b.scalars.half
    (v0r, v0i), (s1r, s1i), (s2r, s2i) = b.values[0], b.turns[0], b.turns[1]
    s3 = (wrap(s1r + s2r), wrap(s1i + s2i))
    s0 = (wrap(s1r - s2r), wrap(s1i - s2i))
    middle = (wrap(v0r - half(s3[0])), wrap(v0i - half(s3[1])))
    sine = b.scalars.load(tw, third)[1]
    s0 = (b.scalars.scaled(s0[0], sine), b.scalars.scaled(s0[1], sine))
    b.store(0, (v0r + s3[0], v0i + s3[1]))
    b.store(2, (middle[0] + s0[1], middle[1] - s0[0]))
    b.store(1, (middle[0] - s0[1], middle[1] + s0[0]))


def _radix_4(b: _Butterfly, inverse: bool) -> None:
    """kf_bfly4's stores, from the divided points and the last three turned."""
    wrap = b.scalars.wrap
    v0, (s0, s1, s2) = b.values[0], b.turns
    s5 = (wrap(v0[0] - s1[0]), wrap(v0[1] - s1[1]))
    f0 = (wrap(v0[0] + s1[0]), wrap(v0[1] + s1[1]))
    s3 = (wrap(s0[0] + s2[0]), wrap(s0[1] + s2[1]))
    s4 = (wrap(s0[0] - s2[0]), wrap(s0[1] - s2[1]))
    b.store(2, (f0[0] - s3[0], f0[1] - s3[1]))
    b.store(0, (f0[0] + s3[0], f0[1] + s3[1]))
    turn = -1 if inverse else 1  # kf_bfly4 turns s4 by -i forwards, +i backwards
    b.store(1, (s5[0] + turn * s4[1], s5[1] - turn * s4[0]))
    b.store(3, (s5[0] - turn * s4[1], s5[1] + turn * s4[0]))


def _radix_5(b: _Butterfly, tw: Any, fifth: Any) -> None:
    """kf_bfly5's stores, from the divided points and the last four turned; `fifth` the
    index of the twiddle of a fifth of a turn (ya; yb is twice as far)."""
    wrap, mul = b.scalars.wrap, b.scalars.scaled
    v0, (s1, s2, s3, s4) = b.values[0], b.turns
    ya, yb = b.scalars.load(tw, fifth), b.scalars.load(tw, fifth * 2)
    s7 = (wrap(s1[0] + s4[0]), wrap(s1[1] + s4[1]))
    s10 = (wrap(s1[0] - s4[0]), wrap(s1[1] - s4[1]))
    s8 = (wrap(s2[0] + s3[0]), wrap(s2[1] + s3[1]))
    s9 = (wrap(s2[0] - s3[0]), wrap(s2[1] - s3[1]))
    b.store(0, (v0[0] + (s7[0] + s8[0]), v0[1] + (s7[1] + s8[1])))
    s5 = (
        wrap(v0[0] + mul(s7[0], ya[0]) + mul(s8[0], yb[0])),
        wrap(v0[1] + mul(s7[1], ya[0]) + mul(s8[1], yb[0])),
    )
    s6 = (
        wrap(mul(s10[1], ya[1]) + mul(s9[1], yb[1])),
        wrap(-mul(s10[0], ya[1]) - mul(s9[0], yb[1])),
    )
    b.store(1, (s5[0] - s6[0], s5[1] - s6[1]))
    b.store(4, (s5[0] + s6[0], s5[1] + s6[1]))
    s11 = (
        wrap(v0[0] + mul(s7[0], yb[0]) + mul(s8[0], ya[0])),
        wrap(v0[1] + mul(s7[1], yb[0]) + mul(s8[1], ya[0])),
    )
    s12 = (
        wrap(-mul(s10[1], yb[1]) + mul(s9[1], ya[1])),
        wrap(mul(s10[0], yb[1]) - mul(s9[0], ya[1])),
    )
    b.store(2, (s11[0] + s12[0], s11[1] + s12[1]))
    b.store(3, (s11[0] - s12[0], s11[1] - s12[1]))


def _split(scalars: _KissScalars, out: Any, sp: Any, base: Any, half: int) -> None:
    """kiss_fftr's last step, in place (from complex offset `base`): bins 0 and half from
    the FFT's first value, then bins k and half - k from its values k and half - k and
    super twiddle k - 1."""

    wrap = scalars.wrap
    dc = _bind(scalars.divided(scalars.load(out, base), 2))
    scalars.store(out, base + half, (dc[0] - dc[1], scalars.zero()))
    scalars.store(out, base, (dc[0] + dc[1], scalars.zero()))
    with T.serial(1, half // 2 + 1) as k:
        fpk = _bind(scalars.divided(scalars.load(out, base + k), 2))
        far_r, far_i = scalars.load(out, base + half - k)
        fpnk = _bind(scalars.divided((far_r, wrap(-far_i)), 2))
        f1k = (wrap(fpk[0] + fpnk[0]), wrap(fpk[1] + fpnk[1]))
        f2k = (wrap(fpk[0] - fpnk[0]), wrap(fpk[1] - fpnk[1]))
        tw = _bind(scalars.times(f2k, scalars.load(sp, k - 1)))
        scalars.store(out, base + k, (scalars.half(f1k[0] + tw[0]), scalars.half(f1k[1] + tw[1])))
        scalars.store(
            out,
            base + half - k,
            (scalars.half(f1k[0] - tw[0]), scalars.half(tw[1] - f1k[1])),
        )


def _rfft(x: Any, twiddles: Any, split: Any, fft_length: int, scalars: _KissScalars) -> Any:
    """kiss_fftr of each row of `x` ([rows, length]) zero-padded to `fft_length`: the
    complex FFT of the row read as fft_length / 2 complex samples, computed in the
    output's row (TFLM's kiss_fft_state's tmpbuf), then split in place into the
    fft_length / 2 + 1 bins of the real transform ([rows x (fft_length + 2)])."""

    rows, length = (int(d) for d in x.shape)
    plan = _KissPlan(fft_length // 2)
    half = plan.half

    def body(ins: Any, outs: Any) -> Any:
        with IRBuilder() as builder:
            data = T.buffer_proxy(ins[0])
            tw, sp = T.buffer_proxy(ins[1]), T.buffer_proxy(ins[2])
            out = T.buffer_proxy(outs[0])
            with T.serial(0, rows) as row:
                base = row * (half + 1)

                def sample(source: Any) -> tuple[Any, Any]:
                    # The frame zero-padded to fft_length, read as complex pairs.
                    pair = []
                    for part in (0, 1):
                        at = source * 2 + part
                        read = data[row, tirx.min(at, length - 1)].astype(scalars.compute)
                        pair.append(tirx.Select(at < length, read, scalars.zero()))
                    return pair[0], pair[1]

                plan.digit_reversed_copy(scalars, out, base, sample)
                plan.transform(scalars, out, tw, base, inverse=False)
                _split(scalars, out, sp, base, half)
            return builder.get()

    return te.extern(
        [(rows * (half + 1) * 2,)], [x, twiddles, split], body, dtype=scalars.dtype, name="rfft"
    )


def _irfft(x: Any, twiddles: Any, split: Any, fft_length: int, scalars: _KissScalars) -> Any:
    """kiss_fftri of each row of `x` ([rows, fft_length + 2], fft_length / 2 + 1 bins):
    the half-length complex buffer its first step makes of them (each read where the
    FFT's first step reads it, in digit-reversed order), then the inverse complex FFT, in
    the output's row ([rows x fft_length]); a float32 one then divided by fft_length
    (TFLM's IrfftFloatApply)."""

    rows = int(x.shape[0])
    plan = _KissPlan(fft_length // 2)
    half = plan.half
    wrap = scalars.wrap

    def body(ins: Any, outs: Any) -> Any:
        with IRBuilder() as builder:
            data, sp = T.buffer_proxy(ins[0]), T.buffer_proxy(ins[2])
            tw, out = T.buffer_proxy(ins[1]), T.buffer_proxy(outs[0])
            with T.serial(0, rows) as row:
                bins = row * (half + 1)

                def unsplit(m: Any) -> tuple[Any, Any]:
                    """kiss_fftri's tmpbuf[m]: from bins k and half - k (k = m or half - m),
                    the sum for m below half / 2, the conjugated difference from it on (bin
                    half / 2 is written twice, the difference last); tmpbuf[0] from bins 0
                    and half."""
                    k = tirx.Select(m < half // 2, m, half - m)
                    fk = scalars.divided(scalars.load(data, bins + k), 2)
                    far_r, far_i = scalars.load(data, bins + half - k)
                    fnkc = scalars.divided((far_r, wrap(-far_i)), 2)
                    fek = (wrap(fk[0] + fnkc[0]), wrap(fk[1] + fnkc[1]))
                    diff = (wrap(fk[0] - fnkc[0]), wrap(fk[1] - fnkc[1]))
                    fok = scalars.times(diff, scalars.load(sp, tirx.max(k - 1, 0)))
                    low = (wrap(fek[0] + fok[0]), wrap(fek[1] + fok[1]))
                    high = (wrap(fek[0] - fok[0]), wrap(-wrap(fek[1] - fok[1])))
                    first_r = scalars.load(data, bins)[0]
                    last_r = scalars.load(data, bins + half)[0]
                    ends = (wrap(first_r + last_r), wrap(first_r - last_r))
                    dc = scalars.divided(ends, 2)
                    below = m < half // 2
                    parts = []
                    for part in (0, 1):
                        picked = tirx.Select(below, low[part], high[part])
                        parts.append(tirx.Select(m == 0, dc[part], picked))
                    return parts[0], parts[1]

                base = row * half
                plan.digit_reversed_copy(scalars, out, base, unsplit)
                plan.transform(scalars, out, tw, base, inverse=True)
                if not scalars.fixed:
                    length = tirx.const(fft_length, "float32")
                    with T.serial(0, fft_length) as i:
                        at = row * fft_length + i
                        out[at] = out[at] / length
            return builder.get()

    return te.extern(
        [(rows * fft_length,)], [x, twiddles, split], body, dtype=scalars.dtype, name="irfft"
    )


def _fft_scalars(op: Any) -> tuple[_KissScalars, int]:
    """A SignalRfft's or SignalIrfft's kissfft type (its T) and fft_length;
    OperatorRejected for another type, an odd length or a radix past 5."""
    options = flex_options(op)
    fft_length = _option(options, "fft_length")
    dtype = _KISS_TYPES.get(_option(options, "T"))
    if dtype is None:
        raise OperatorRejected(
            f"its T is TensorType {options.get('T')}: TFLM's FFTs take int16, int32, float32"
        )
    if fft_length < 4 or fft_length % 2:
        raise OperatorRejected(
            f"its fft_length {fft_length} is not an even length of 4 or more (kissfft's "
            "real FFT takes even lengths)"
        )
    for radix in kiss_factors(fft_length // 2):
        if radix > 5:
            raise OperatorRejected(
                f"its fft_length {fft_length} takes kissfft's generic radix-{radix} "
                "butterfly, which TFLM's kissfft cannot run (its scratch allocation is "
                "patched to NULL): lengths of factors 2, 3 and 5 run"
            )
    return _KissScalars(dtype), fft_length


def _fft_rows(
    converter: Any, op: Any, inner: Callable[[int, int], tuple[int, int]]
) -> tuple[_KissScalars, int, Any, Any, list[int], int]:
    """A SignalRfft's or SignalIrfft's (scalars, fft_length, output tensor, its rows as a
    [rows, n] value, the output's shape, rows) once its tensors agree with its options:
    each of the same rank, the last dim of the input n and of the output m with
    `inner(fft_length, n)` (m, or the n it must be; -1: any n up to fft_length)."""
    scalars, fft_length = _fft_scalars(op)
    dtype = scalars.dtype
    (x,), (out,) = _check_tensors(
        converter, op, [("input", dtype, None)], [("output", dtype, None)]
    )
    shape, out_shape = _shape_of(x), _shape_of(out)
    if not shape or len(out_shape) != len(shape):
        raise OperatorRejected(f"its input is {shape}, its output {out_shape}: TFLM's ranks agree")
    made, needed = inner(fft_length, shape[-1])
    if needed >= 0 and shape[-1] != needed:
        raise OperatorRejected(
            f"its input is {shape}, its fft_length {fft_length} makes [..., {needed}]"
        )
    if needed < 0 and shape[-1] > fft_length:
        raise OperatorRejected(
            f"its input's {shape[-1]} samples are more than fft_length {fft_length}"
        )
    expected = [*shape[:-1], made]
    if out_shape != expected:
        raise OperatorRejected(
            f"its output is {out_shape}, its fft_length {fft_length} makes {expected}"
        )
    rows, rows_of = _rows(converter, x, shape)
    return scalars, fft_length, out, rows_of, expected, rows


def _emit_fft(converter: Any, op: Any, kernel: Callable[..., Any], inverse: bool, name: str) -> Any:
    """A SignalRfft (`inverse` False: rows of up to fft_length samples into fft_length / 2
    + 1 bins) or SignalIrfft (bins into fft_length samples), by `kernel` (_rfft or
    _irfft), its twiddles constants."""

    def inner(fft_length: int, _: int) -> tuple[int, int]:
        bins = fft_length + 2
        return (fft_length, bins) if inverse else (bins, -1)

    scalars, fft_length, _, rows_of, shape, _ = _fft_rows(converter, op, inner)
    twiddles, split = rfft_twiddles(fft_length, scalars.dtype, inverse)
    flat = _emit(
        converter,
        lambda a, t, s: kernel(a, t, s, fft_length, scalars),
        rows_of,
        relax.const(twiddles.reshape(-1), scalars.dtype),
        relax.const(split.reshape(-1), scalars.dtype),
        primfunc_name_hint=name,
    )
    return converter.bb.emit(relax_reshape(flat, shape))


def convert_rfft(converter: Any, op: Any) -> Any:
    return _emit_fft(converter, op, _rfft, False, "signal_rfft")


def convert_irfft(converter: Any, op: Any) -> Any:
    return _emit_fft(converter, op, _irfft, True, "signal_irfft")


def convert_energy(converter: Any, op: Any) -> Any:

    (x,), (out,) = _check_tensors(converter, op, [("input", "int16", 1)], [("output", "uint32", 1)])
    options = flex_options(op)
    start, end = _option(options, "start_index"), _option(options, "end_index")
    bins = _shape_of(x)[0] // 2
    if _shape_of(out) != [bins]:
        raise OperatorRejected(
            f"its output is {_shape_of(out)}, its input's {bins} bins make [{bins}]"
        )
    if not 0 <= start <= end <= bins:
        raise OperatorRejected(f"its bins {start} to {end} are not within its {bins} bins")

    def energy(a: Any) -> Any:
        def at(i: Any) -> Any:
            real, imag = a[i * 2].astype("int32"), a[i * 2 + 1].astype("int32")
            value = _u32(real * real) + _u32(imag * imag)
            return tirx.Select(tirx.all(i >= start, i < end), value, _const(0, "uint32"))

        return te.compute((bins,), at, name="energy")

    return _emit(
        converter, energy, converter.get_tensor_expr(x), primfunc_name_hint="signal_energy"
    )


_FILTER_BANK_TABLES = (
    "weights",
    "unweights",
    "channel_frequency_starts",
    "channel_weight_starts",
    "channel_widths",
)


def convert_filter_bank(converter: Any, op: Any) -> Any:

    (x, *tables), (out,) = _check_tensors(
        converter,
        op,
        [("input", "uint32", 1), *((name, "int16", 1) for name in _FILTER_BANK_TABLES)],
        [("output", "uint64", 1)],
    )
    channels = _option(flex_options(op), "num_channels")
    if _shape_of(out) != [channels]:
        raise OperatorRejected(
            f"its output is {_shape_of(out)}, its num_channels {channels} makes [{channels}]"
        )
    named = dict(zip(_FILTER_BANK_TABLES, tables, strict=True))
    for name in _FILTER_BANK_TABLES[2:]:
        _same_length(name, _shape_of(named[name]), channels + 1, f"num_channels {channels} + 1")
    if _shape_of(named["unweights"]) != _shape_of(named["weights"]):
        raise OperatorRejected(
            f"its unweights are {_shape_of(named['unweights'])}, its weights "
            f"{_shape_of(named['weights'])}"
        )
    if any(converter.has_expr(t.tensor_idx) for t in tables):
        raise OperatorRejected("its channel tables are not constants of the file")
    values = {
        n: np.asarray(converter.get_tensor_value(t)).astype(np.int64) for n, t in named.items()
    }
    bins, weight_count = _shape_of(x)[0], _shape_of(named["weights"])[0]
    starts, offsets, widths = (values[n] for n in _FILTER_BANK_TABLES[2:])
    if (
        np.any(widths < 0)
        or np.any(starts < 0)
        or np.any(starts + widths > bins)
        or np.any(offsets < 0)
        or np.any(offsets + widths > weight_count)
    ):
        raise OperatorRejected(
            f"its channel tables read past its input's {bins} bins or its {weight_count} weights"
        )
    widest = int(widths.max()) if widths.size else 0

    def bank(
        spectrum: Any, weights: Any, unweights: Any, freq: Any, offset: Any, width: Any
    ) -> Any:
        r = te.reduce_axis((0, 2 * max(widest, 1)), "r")

        def channel(c: Any) -> Any:
            # r < widest: channel c + 1's bins by its weights; then channel c's by its unweights.
            own = r < widest
            ch = tirx.Select(own, c + 1, c)
            j = tirx.Select(own, r, r - widest)
            inside = j < width[ch].astype("int32")
            at = tirx.min(offset[ch].astype("int32") + j, weight_count - 1)
            table = tirx.Select(own, weights[at], unweights[at])
            sample = spectrum[tirx.min(freq[ch].astype("int32") + j, bins - 1)].astype("uint64")
            term = table.astype("int64").astype("uint64") * sample
            return te.sum(tirx.Select(inside, term, _const(0, "uint64")), axis=r)

        return te.compute((channels,), channel, name="filter_bank")

    return _emit(
        converter,
        bank,
        converter.get_tensor_expr(x),
        *(converter.get_tensor_expr(named[name]) for name in _FILTER_BANK_TABLES),
        primfunc_name_hint="signal_filter_bank",
    )


def _rounded_sqrt(x: Any) -> Any:
    """TFLM's Sqrt64 of the uint64 `x` (uint32): the floor of its square root, from the
    double's square root corrected by one either way (exact below 2^64), plus one where
    the remainder exceeds it, unless it is 0xFFFF (x below 2^32) or 0xFFFFFFFF."""

    top = _const(0xFFFFFFFF, "uint64")
    guess = tirx.min(tirx.sqrt(x.astype("float64")).astype("uint64"), top)
    guess = tirx.Select(guess * guess > x, guess - _const(1, "uint64"), guess)
    above = guess + _const(1, "uint64")
    root = tirx.Select(tirx.all(guess < top, above * above <= x), above, guess)
    cap = tirx.Select(
        x >> _const(32, "uint64") == _const(0, "uint64"), _const(0xFFFF, "uint64"), top
    )
    rounded = tirx.Select(
        tirx.all(x - root * root > root, root != cap), root + _const(1, "uint64"), root
    )
    return rounded.astype("uint32")


def convert_filter_bank_square_root(converter: Any, op: Any) -> Any:

    (x, bits), (out,) = _check_tensors(
        converter,
        op,
        [("input", "uint64", 1), ("scale_bits", "int32", 0)],
        [("output", "uint32", 1)],
    )
    if _shape_of(out) != _shape_of(x):
        raise OperatorRejected(f"its output is {_shape_of(out)}, its input {_shape_of(x)}")

    def root(a: Any, s: Any) -> Any:
        return te.compute(
            a.shape, lambda i: _rounded_sqrt(a[i]) >> s[()].astype("uint32"), name="square_root"
        )

    return _emit(
        converter,
        root,
        converter.get_tensor_expr(x),
        converter.get_tensor_expr(bits),
        primfunc_name_hint="signal_filter_bank_square_root",
    )


class _Subtraction:
    """SignalFilterBankSpectralSubtraction's options."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.smoothing = (_option(options, "smoothing"), _option(options, "alternate_smoothing"))
        self.one_minus = (
            _option(options, "one_minus_smoothing"),
            _option(options, "alternate_one_minus_smoothing"),
        )
        self.min_signal_remaining = _option(options, "min_signal_remaining")
        self.smoothing_bits = _option(options, "smoothing_bits")
        self.bits = _option(options, "spectral_subtraction_bits")
        self.clamping = bool(options.get("clamping", False))
        self.channels = _option(options, "num_channels")

    def coefficient(self, pair: tuple[int, int], channel: Any) -> Any:

        even, odd = (_const(v & 0xFFFFFFFF, "uint64") for v in pair)
        return tirx.Select(channel % 2 == 0, even, odd)

    def scaled_up(self, signal: Any) -> Any:
        return signal << _const(self.smoothing_bits, "uint32")

    def estimate(self, signal: Any, before: Any) -> Any:
        """The noise estimate after the run, of channel i, TFLM's state update."""

        def at(i: Any) -> Any:
            up = self.scaled_up(signal[i])
            smoothed = (
                up.astype("uint64") * self.coefficient(self.smoothing, i)
                + before[i].astype("uint64") * self.coefficient(self.one_minus, i)
            ) >> _const(self.bits, "uint64")
            smoothed = smoothed.astype("uint32")
            return tirx.min(smoothed, up) if self.clamping else smoothed

        return te.compute(signal.shape, at, name="noise_estimate")

    def output(self, signal: Any, after: Any) -> Any:

        def at(i: Any) -> Any:
            up = self.scaled_up(signal[i])
            estimate = tirx.min(after[i], up)
            floor = (
                signal[i].astype("uint64")
                * _const(self.min_signal_remaining & 0xFFFFFFFF, "uint64")
            ) >> _const(self.bits, "uint64")
            subtracted = (up - estimate) >> _const(self.smoothing_bits, "uint32")
            return tirx.max(subtracted, floor.astype("uint32"))

        return te.compute(signal.shape, at, name="subtracted")


def convert_spectral_subtraction(
    converter: Any, op: Any, state: Callable[[Any, np.ndarray], Any]
) -> tuple[_States, None]:
    """The operator's outputs set; returns ([(its noise estimate tensor, the estimate after
    the run)], None). `state(tensor, initial)` is the estimate before the run, a variable
    of the import whose first value is `initial` (TFLM's reset: zeros), its next value
    the estimate after."""
    (x,), (out, noise) = _check_tensors(
        converter,
        op,
        [("input", "uint32", 1)],
        [("output", "uint32", 1), ("noise_estimate", "uint32", 1)],
    )
    options = _Subtraction(flex_options(op))
    for name, tensor in (("input", x), ("output", out), ("noise_estimate", noise)):
        _same_length(
            name, _shape_of(tensor), options.channels, f"its num_channels {options.channels}"
        )
    signal = converter.get_tensor_expr(x)
    before = state(noise, np.zeros(options.channels, np.uint32))
    # The estimate after (param 2) may be the estimate before's buffer (param 1).
    after = _emit_in_place(
        converter,
        options.estimate,
        signal,
        before,
        pairs=[[1, 2]],
        primfunc_name_hint="signal_spectral_subtraction_state",
    )
    result = _emit(
        converter, options.output, signal, after, primfunc_name_hint="signal_spectral_subtraction"
    )
    _set_outputs(converter, [out, noise], [result, after])
    return [(noise, after)], None


def _emit_in_place(
    converter: Any, kernel: Any, *args: Any, pairs: list[list[int]], primfunc_name_hint: str
) -> Any:
    """`kernel`'s call emitted as `_emit` does, its `usmp.in_place` `pairs`: the state it
    updates (an output param) computed correctly in the buffer of its value before (an
    input param), which `tir-state-to-allocations` then makes one buffer."""
    return converter.bb.emit(
        converter.bb.call_te(
            kernel,
            *args,
            primfunc_name_hint=primfunc_name_hint,
            primfunc_attrs={IN_PLACE_ATTR: pairs, "op_pattern": OPAQUE, SIGNAL_KERNEL_ATTR: 1},
        )
    )


def _item(converter: Any, value: Any, index: int) -> Any:
    return converter.bb.emit(relax.TupleGetItem(value, index))


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

        result = _emit(converter, given, rows_of, before, primfunc_name_hint=f"signal_{name}")
        # The samples kept after (param 2) may be those before's buffer (param 1).
        after = _emit_in_place(
            converter,
            self.kept_after,
            rows_of,
            before,
            pairs=[[1, 2]],
            primfunc_name_hint=f"signal_{name}_state",
        )
        return result, after


def _rows(converter: Any, x: Any, shape: list[int]) -> tuple[int, Any]:
    rows = math.prod(shape[:-1])
    data = converter.get_tensor_expr(x)
    return rows, converter.bb.emit(relax_reshape(data, [rows, shape[-1]]))


def convert_delay(
    converter: Any, op: Any, state: Callable[[Any, np.ndarray], Any]
) -> tuple[_States, Any]:
    """SignalDelay: each row of the int16 input (its last dim a frame) delayed by
    `delay_length` samples, the samples not yet given out kept from run to run (TFLM's
    circular buffers, first zeros). Returns ([(the output tensor, the kept samples after
    the run)], the output); `state(tensor, initial)` as for convert_spectral_subtraction,
    the kept samples [rows, delay_length] named after the output."""
    (x,), (out,) = _check_tensors(
        converter, op, [("input", "int16", None)], [("output", "int16", None)]
    )
    shape = _shape_of(x)
    if not shape or _shape_of(out) != shape:
        raise OperatorRejected(f"its output is {_shape_of(out)}, its input {shape}")
    delay = _option(flex_options(op), "delay_length")
    if delay < 0:
        raise OperatorRejected(f"its delay_length {delay} is negative")
    frame = shape[-1]
    carried = _Carried(delay, frame)
    rows, rows_of = _rows(converter, x, shape)
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
    both = _emit(converter, given, *args, primfunc_name_hint=f"signal_{name}")
    # The kept values and the count after (params 3, 4) may be those before's (1, 2).
    after = _emit_in_place(
        converter,
        state_after,
        *args,
        pairs=[[1, 3], [2, 4]],
        primfunc_name_hint=f"signal_{name}_state",
    )
    return (
        _item(converter, both, 0),
        _item(converter, both, 1),
        _item(converter, after, 0),
        _item(converter, after, 1),
    )


def convert_framer(
    converter: Any, op: Any, state: Callable[[Any, np.ndarray], Any]
) -> tuple[_States, Any]:
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

    (x,), (out, valid) = _check_tensors(
        converter,
        op,
        [("input", "int16", None)],
        [("output", "int16", None), ("output_valid", "bool", 0)],
    )
    options = flex_options(op)
    size, step = _option(options, "frame_size"), _option(options, "frame_step")
    prefill = bool(options.get("prefill", False))
    shape = _shape_of(x)
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
    if _shape_of(out) != expected:
        raise OperatorRejected(f"its output is {_shape_of(out)}, its options make {expected}")
    steps = -(-size // step)  # TFLM's buffer: frame_size rounded up to whole steps
    carried = _Carried(size - step if prefill else (steps - 1) * step, count * step)
    rows, rows_of = _rows(converter, x, shape)
    before = state(out, np.zeros((rows, carried.kept_width), np.int16))
    if prefill:
        result, after = carried.emit(
            converter, rows_of, before, [rows, count, size], lambda f, j: f * step + j, "frames"
        )
        frames = converter.bb.emit(relax_reshape(result, expected))
        _set_outputs(converter, [out, valid], [frames, relax.const(True, "bool")])
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
    _set_outputs(converter, [out, valid], [frames, flag])
    return [(out, kept), (valid, counted)], None


def convert_stacker(
    converter: Any, op: Any, state: Callable[[Any, np.ndarray], Any]
) -> tuple[_States, None]:
    """SignalStacker: each run's num_channels values (a frame) written into TFLM's circular
    buffer of left + right + 1 frames, the first run's frame left_context times more;
    once the buffer is full its frames are the output, output_valid true, and the oldest
    `stacker_step` frames are discarded; an output not valid is left unwritten. The full
    buffer's frames are always the latest ones written, so the state is the latest
    left + right of them (state named after the output, first zeros; before the first
    run, read as the first frame's copies) and a count (named after output_valid, first
    0): 0 before the first run, then the frames the buffer holds plus one. Returns (the
    states, None: it sets its outputs)."""

    (x,), (out, valid) = _check_tensors(
        converter,
        op,
        [("input", "int16", 1)],
        [("output", "int16", 1), ("output_valid", "bool", 0)],
    )
    options = flex_options(op)
    channels = _option(options, "num_channels")
    left = _option(options, "stacker_left_context")
    right = _option(options, "stacker_right_context")
    step = _option(options, "stacker_step")
    width = left + right + 1
    if channels <= 0 or left < 0 or right < 0 or not 0 < step <= width:
        raise OperatorRejected(
            f"its num_channels {channels}, contexts {left} and {right} and step {step}: "
            "TFLM's circular buffer asserts channels and a step of 1 to left + right + 1"
        )
    if _shape_of(x) != [channels]:
        raise OperatorRejected(f"its input is {_shape_of(x)}, its num_channels makes [{channels}]")
    if _shape_of(out) != [width * channels]:
        raise OperatorRejected(
            f"its output is {_shape_of(out)}, its options make [{width * channels}]"
        )
    kept_length = (width - 1) * channels
    before = state(out, np.zeros(max(kept_length, 1), np.int16))
    counted = state(valid, np.zeros(1, np.int32))

    def held(ins: Any) -> Any:
        """The frames the buffer holds once this run's are written."""
        count = ins[2][0]
        return tirx.Select(count == 0, _const(left + 1, "int32"), count)

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
    _set_outputs(converter, [out, valid], [values, flag])
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
) -> tuple[_States, Any]:
    """SignalOverlapAdd (int16 or float32): frames [..., n_frames, frame_size] overlapped
    `frame_step` apart into [..., n_frames x frame_step], the samples not yet given out
    kept from run to run (first zeros). Returns ([(the output tensor, the kept samples
    after the run)], the output); `state` as for convert_delay."""

    options = flex_options(op)
    dtype = {7: "int16", 0: "float32"}.get(_option(options, "T"))
    if dtype is None:
        raise OperatorRejected(f"its T is TensorType {options['T']}: TFLM's takes int16, float32")
    (x,), (out,) = _check_tensors(
        converter, op, [("input", dtype, None)], [("output", dtype, None)]
    )
    shape, out_shape = _shape_of(x), _shape_of(out)
    step = _option(options, "frame_step")
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
    both = _emit_in_place(
        converter,
        lambda a, k: _overlap_add(a, k, step),
        frames,
        before,
        pairs=[[1, 3]],
        primfunc_name_hint="signal_overlap_add",
    )
    result = _item(converter, both, 0)
    return [(out, _item(converter, both, 1))], bb.emit(relax_reshape(result, out_shape))


def relax_reshape(value: Any, shape: list[int]) -> Any:

    return relax.op.reshape(value, shape)


def _wide_dynamic_gain(x: Any, lut: Any) -> Any:
    """TFLM's WideDynamicFunction of the uint32 `x` by the int16 `lut`, as the uint32
    TFLM's PCAN widens its int16 result to."""

    interval = _most_significant_bit(x)
    low = tirx.min(x, _const(2, "uint32")).astype("int32")
    at = tirx.max(interval * 4 - 6, 0)
    left = x << (_const(11, "int32") - tirx.min(interval, 11)).astype("uint32")
    right = x >> (tirx.max(interval, 11) - _const(11, "int32")).astype("uint32")
    frac = (tirx.Select(interval < 11, left, right) & _const(0x3FF, "uint32")).astype("int32")
    result = (lut[at + 2].astype("int32") * frac) >> 5
    result = result + lut[at + 1].astype("int32") * 32
    result = result * frac
    result = (result + _const(1 << 14, "int32")) >> 15
    result = result + lut[at].astype("int32")
    gain = tirx.Select(x <= _const(2, "uint32"), lut[low].astype("int32"), result)
    return gain.astype("int16").astype("int32").astype("uint32")


def _pcan_shrink(snr: Any) -> Any:

    small = (snr * snr) >> _const(2 + 2 * _PCAN_SNR_BITS - _PCAN_OUTPUT_BITS, "uint32")
    large = (snr >> _const(_PCAN_SNR_BITS - _PCAN_OUTPUT_BITS, "uint32")) - _const(
        1 << _PCAN_OUTPUT_BITS, "uint32"
    )
    return tirx.Select(snr < _const(2 << _PCAN_SNR_BITS, "uint32"), small, large)


def convert_pcan(converter: Any, op: Any) -> Any:

    (x, noise, lut), (out,) = _check_tensors(
        converter,
        op,
        [("input", "uint32", 1), ("noise_estimate", "uint32", 1), ("gain_lut", "int16", 1)],
        [("output", "uint32", 1)],
    )
    channels = _shape_of(x)
    for name, tensor in (("noise_estimate", noise), ("output", out)):
        if _shape_of(tensor) != channels:
            raise OperatorRejected(f"its {name} is {_shape_of(tensor)}, its input {channels}")
    # The table is read at 4 x 32 - 6 + 2 at most (an estimate of 2^32 - 1).
    if _shape_of(lut)[0] < 4 * 32 - 3:
        raise OperatorRejected(f"its gain_lut has {_shape_of(lut)[0]} entries, TFLM's reads 125")
    shift = _option(flex_options(op), "snr_shift")

    def pcan(signal: Any, estimate: Any, table: Any) -> Any:
        def at(i: Any) -> Any:
            gain = _wide_dynamic_gain(estimate[i], table)
            snr = (signal[i].astype("uint64") * gain.astype("uint64")) >> _const(shift, "uint64")
            return _pcan_shrink(snr.astype("uint32"))

        return te.compute(signal.shape, at, name="pcan")

    return _emit(
        converter,
        pcan,
        *(converter.get_tensor_expr(t) for t in (x, noise, lut)),
        primfunc_name_hint="signal_pcan",
    )


def _log32(x: Any, table: Any, out_scale: int) -> Any:
    """TFLM's Log32 of the uint32 `x` (above 1): out_scale x ln(x), in uint32."""

    integer = _most_significant_bit(x) - 1
    frac = (x.astype("int64") - (_const(1, "int64") << integer.astype("int64"))).astype("int32")
    frac = tirx.Select(
        integer < _LOG_SCALE_LOG2,
        frac << (_LOG_SCALE_LOG2 - tirx.min(integer, _LOG_SCALE_LOG2)),
        frac >> (tirx.max(integer, _LOG_SCALE_LOG2) - _LOG_SCALE_LOG2),
    )
    segment = frac >> (_LOG_SCALE_LOG2 - _LOG_SEGMENTS_LOG2)
    c0, c1 = table[segment].astype("int32"), table[segment + 1].astype("int32")
    relative = ((c1 - c0) * (frac - segment * (1 << (_LOG_SCALE_LOG2 - _LOG_SEGMENTS_LOG2)))) >> 16
    fraction = _u32(frac + c0 + relative)
    log2 = (_u32(integer) << _const(_LOG_SCALE_LOG2, "uint32")) + fraction
    loge = (
        (_const(_LOG_COEFF, "uint64") * log2.astype("uint64") + _const(32768, "uint64"))
        >> _const(16, "uint64")
    ).astype("uint32")
    return (_const(out_scale & 0xFFFFFFFF, "uint32") * loge + _const(32768, "uint32")) >> _const(
        16, "uint32"
    )


def convert_filter_bank_log(converter: Any, op: Any) -> Any:

    (x,), (out,) = _check_tensors(converter, op, [("input", "uint32", 1)], [("output", "int16", 1)])
    if _shape_of(out) != _shape_of(x):
        raise OperatorRejected(f"its output is {_shape_of(out)}, its input {_shape_of(x)}")
    options = flex_options(op)
    correction = _option(options, "input_correction_bits")
    scale = _option(options, "output_scale")

    def log(signal: Any, table: Any) -> Any:
        def at(i: Any) -> Any:
            scaled = signal[i] << _const(correction, "uint32")
            value = tirx.min(_log32(scaled, table, scale), _const(32767, "uint32"))
            return tirx.Select(scaled > _const(1, "uint32"), value, _const(0, "uint32")).astype(
                "int16"
            )

        return te.compute(signal.shape, at, name="log")

    return _emit(
        converter,
        log,
        converter.get_tensor_expr(x),
        relax.const(log2_correction_table().astype(np.uint16), "uint16"),
        primfunc_name_hint="signal_filter_bank_log",
    )


def signal_converters(converter: Any) -> dict[str, Any]:
    """Each stateless signal operator's converter for TVM's TFLite `converter` (called with
    the operator as `op`); those of CARRYING_SIGNAL_CONVERTERS keep state, which the caller
    gives them."""

    def bound(convert: Callable[..., Any]) -> Callable[..., Any]:
        return lambda op: convert(converter, op)

    return {
        "SignalWindow": bound(convert_window),
        "SignalFftAutoScale": bound(convert_fft_auto_scale),
        "SignalRfft": bound(convert_rfft),
        "SignalIrfft": bound(convert_irfft),
        "SignalEnergy": bound(convert_energy),
        "SignalFilterBank": bound(convert_filter_bank),
        "SignalFilterBankSquareRoot": bound(convert_filter_bank_square_root),
        "SignalPCAN": bound(convert_pcan),
        "SignalFilterBankLog": bound(convert_filter_bank_log),
    }


# The signal operators whose kernels keep state from run to run, each converter called as
# `convert(converter, op, state)` -> ([(the tensor each state is named after, its value
# after the run)], the output or None where it set its outputs itself).
CARRYING_SIGNAL_CONVERTERS = {
    "SignalFilterBankSpectralSubtraction": convert_spectral_subtraction,
    "SignalDelay": convert_delay,
    "SignalFramer": convert_framer,
    "SignalOverlapAdd": convert_overlap_add,
    "SignalStacker": convert_stacker,
}
