"""kissfft 1.3.0's real FFT and its inverse (SignalRfft, SignalIrfft of `tflm_signal`), in
the types TFLM builds kissfft for: int16 (FIXED_POINT 16), int32 (FIXED_POINT 32) and
float32, by its butterflies (radix 4, 2, 3 and 5, in kf_factor's order)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from tvm import relax, te, tirx
from tvm.script.ir_builder import IRBuilder
from tvm.script.ir_builder import tirx as T

from usmp_dialect.tvm.model_files.onnx_operators import OperatorRejected
from usmp_dialect.tvm.model_files.tflite_options import flex_options
from usmp_dialect.tvm.model_files.tflm_signal_operands import (
    checked_tensors,
    const,
    emit_kernel,
    flat_rows,
    option,
    relax_reshape,
    shape_of,
)


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
            source = const(0, "int32")
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
    fft_length = option(options, "fft_length")
    dtype = _KISS_TYPES.get(option(options, "T"))
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
    (x,), (out,) = checked_tensors(
        converter, op, [("input", dtype, None)], [("output", dtype, None)]
    )
    shape, out_shape = shape_of(x), shape_of(out)
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
    rows, rows_of = flat_rows(converter, x, shape)
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
    flat = emit_kernel(
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
