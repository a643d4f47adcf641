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
from typing import Any

import numpy as np
from tvm import relax, te, tirx
from tvm.script.ir_builder import IRBuilder
from tvm.script.ir_builder import tirx as T

from usmp_dialect.tvm.model_files.onnx_operators import OperatorRejected
from usmp_dialect.tvm.model_files.tflite_options import flex_options
from usmp_dialect.tvm.model_files.tflm_signal_buffers import (
    convert_delay,
    convert_framer,
    convert_overlap_add,
    convert_stacker,
)
from usmp_dialect.tvm.model_files.tflm_signal_fft import (
    convert_irfft,
    convert_rfft,
)
from usmp_dialect.tvm.model_files.tflm_signal_operands import (
    States,
    as_u32,
    check_same_length,
    checked_tensors,
    const,
    emit_in_place,
    emit_kernel,
    most_significant_bit,
    option,
    set_outputs,
    shape_of,
)

_PCAN_SNR_BITS = 12


_PCAN_OUTPUT_BITS = 6


_LOG_SEGMENTS_LOG2 = 7


_LOG_SCALE_LOG2 = 16


_LOG_COEFF = 45426  # ln(2) in Q16


def log2_correction_table() -> np.ndarray:
    """TFLM's kLogLut: (log2(1 + i/128) - i/128) in Q16 for i <= 128, rounded, and a 0
    past the end (the interpolation reads entry i + 1)."""
    steps = np.arange(129) / 128.0
    table = np.floor((np.log2(1.0 + steps) - steps) * 65536.0 + 0.5).astype(np.int32)
    return np.concatenate([table, [0]]).astype(np.int32)


def _window(x: Any, weights: Any, shift: int) -> Any:

    shape = [int(d) for d in x.shape]
    size = int(weights.shape[0])

    def windowed(*index: Any) -> Any:
        flat = const(0, "int32")
        for dim, i in zip(shape, index, strict=True):
            flat = flat * dim + i
        raw = (x[index].astype("int32") * weights[flat % size].astype("int32")) >> shift
        return tirx.max(tirx.min(raw, const(32767, "int32")), const(-32768, "int32")).astype(
            "int16"
        )

    return te.compute(shape, windowed, name="window")


def convert_window(converter: Any, op: Any) -> Any:
    (x, weights), (out,) = checked_tensors(
        converter,
        op,
        [("input", "int16", None), ("weights", "int16", 1)],
        [("output", "int16", None)],
    )
    shape, size = shape_of(x), shape_of(weights)[0]
    if not shape or shape_of(out) != shape:
        raise OperatorRejected(f"its output is {shape_of(out)}, its input {shape}")
    if size == 0 or math.prod(shape) % size:
        raise OperatorRejected(f"its input {shape} is not whole windows of {size} weights")
    shift = option(flex_options(op), "shift")
    return emit_kernel(
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
                best[()] = const(0, "int32")
                with T.serial(0, length) as i:
                    value = data[i].astype("int32")
                    negated = (-value).astype("int16").astype("int32")
                    best[()] = tirx.Select(
                        value > best[()], value, tirx.Select(-value > best[()], negated, best[()])
                    )
                msb = most_significant_bit(best[()].astype("uint32"))
                best[()] = tirx.max(const(15, "int32") - msb, const(0, "int32"))
            return builder.get()

    return te.extern([()], [x], scan, dtype="int32", name="fft_auto_scale")


def convert_fft_auto_scale(converter: Any, op: Any) -> None:

    (x,), (out, bits) = checked_tensors(
        converter,
        op,
        [("input", "int16", 1)],
        [("output", "int16", 1), ("scale_bit", "int32", 0)],
    )
    if shape_of(out) != shape_of(x):
        raise OperatorRejected(f"its output is {shape_of(out)}, its input {shape_of(x)}")
    data = converter.get_tensor_expr(x)
    scale = emit_kernel(converter, _max_abs_scale, data, primfunc_name_hint="signal_fft_auto_scale")

    def scaled(a: Any, s: Any) -> Any:
        return te.compute(
            a.shape,
            lambda i: (a[i].astype("int32") << s[()]).astype("int16"),
            name="auto_scaled",
        )

    shifted = emit_kernel(
        converter, scaled, data, scale, primfunc_name_hint="signal_fft_auto_scale_apply"
    )
    set_outputs(converter, [out, bits], [shifted, scale])


def convert_energy(converter: Any, op: Any) -> Any:

    (x,), (out,) = checked_tensors(
        converter, op, [("input", "int16", 1)], [("output", "uint32", 1)]
    )
    options = flex_options(op)
    start, end = option(options, "start_index"), option(options, "end_index")
    bins = shape_of(x)[0] // 2
    if shape_of(out) != [bins]:
        raise OperatorRejected(
            f"its output is {shape_of(out)}, its input's {bins} bins make [{bins}]"
        )
    if not 0 <= start <= end <= bins:
        raise OperatorRejected(f"its bins {start} to {end} are not within its {bins} bins")

    def energy(a: Any) -> Any:
        def at(i: Any) -> Any:
            real, imag = a[i * 2].astype("int32"), a[i * 2 + 1].astype("int32")
            value = as_u32(real * real) + as_u32(imag * imag)
            return tirx.Select(tirx.all(i >= start, i < end), value, const(0, "uint32"))

        return te.compute((bins,), at, name="energy")

    return emit_kernel(
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

    (x, *tables), (out,) = checked_tensors(
        converter,
        op,
        [("input", "uint32", 1), *((name, "int16", 1) for name in _FILTER_BANK_TABLES)],
        [("output", "uint64", 1)],
    )
    channels = option(flex_options(op), "num_channels")
    if shape_of(out) != [channels]:
        raise OperatorRejected(
            f"its output is {shape_of(out)}, its num_channels {channels} makes [{channels}]"
        )
    named = dict(zip(_FILTER_BANK_TABLES, tables, strict=True))
    for name in _FILTER_BANK_TABLES[2:]:
        check_same_length(name, shape_of(named[name]), channels + 1, f"num_channels {channels} + 1")
    if shape_of(named["unweights"]) != shape_of(named["weights"]):
        raise OperatorRejected(
            f"its unweights are {shape_of(named['unweights'])}, its weights "
            f"{shape_of(named['weights'])}"
        )
    if any(converter.has_expr(t.tensor_idx) for t in tables):
        raise OperatorRejected("its channel tables are not constants of the file")
    values = {
        n: np.asarray(converter.get_tensor_value(t)).astype(np.int64) for n, t in named.items()
    }
    bins, weight_count = shape_of(x)[0], shape_of(named["weights"])[0]
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
            return te.sum(tirx.Select(inside, term, const(0, "uint64")), axis=r)

        return te.compute((channels,), channel, name="filter_bank")

    return emit_kernel(
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

    top = const(0xFFFFFFFF, "uint64")
    guess = tirx.min(tirx.sqrt(x.astype("float64")).astype("uint64"), top)
    guess = tirx.Select(guess * guess > x, guess - const(1, "uint64"), guess)
    above = guess + const(1, "uint64")
    root = tirx.Select(tirx.all(guess < top, above * above <= x), above, guess)
    cap = tirx.Select(x >> const(32, "uint64") == const(0, "uint64"), const(0xFFFF, "uint64"), top)
    rounded = tirx.Select(
        tirx.all(x - root * root > root, root != cap), root + const(1, "uint64"), root
    )
    return rounded.astype("uint32")


def convert_filter_bank_square_root(converter: Any, op: Any) -> Any:

    (x, bits), (out,) = checked_tensors(
        converter,
        op,
        [("input", "uint64", 1), ("scale_bits", "int32", 0)],
        [("output", "uint32", 1)],
    )
    if shape_of(out) != shape_of(x):
        raise OperatorRejected(f"its output is {shape_of(out)}, its input {shape_of(x)}")

    def root(a: Any, s: Any) -> Any:
        return te.compute(
            a.shape, lambda i: _rounded_sqrt(a[i]) >> s[()].astype("uint32"), name="square_root"
        )

    return emit_kernel(
        converter,
        root,
        converter.get_tensor_expr(x),
        converter.get_tensor_expr(bits),
        primfunc_name_hint="signal_filter_bank_square_root",
    )


class _Subtraction:
    """SignalFilterBankSpectralSubtraction's options."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.smoothing = (option(options, "smoothing"), option(options, "alternate_smoothing"))
        self.one_minus = (
            option(options, "one_minus_smoothing"),
            option(options, "alternate_one_minus_smoothing"),
        )
        self.min_signal_remaining = option(options, "min_signal_remaining")
        self.smoothing_bits = option(options, "smoothing_bits")
        self.bits = option(options, "spectral_subtraction_bits")
        self.clamping = bool(options.get("clamping", False))
        self.channels = option(options, "num_channels")

    def coefficient(self, pair: tuple[int, int], channel: Any) -> Any:

        even, odd = (const(v & 0xFFFFFFFF, "uint64") for v in pair)
        return tirx.Select(channel % 2 == 0, even, odd)

    def scaled_up(self, signal: Any) -> Any:
        return signal << const(self.smoothing_bits, "uint32")

    def estimate(self, signal: Any, before: Any) -> Any:
        """The noise estimate after the run, of channel i, TFLM's state update."""

        def at(i: Any) -> Any:
            up = self.scaled_up(signal[i])
            smoothed = (
                up.astype("uint64") * self.coefficient(self.smoothing, i)
                + before[i].astype("uint64") * self.coefficient(self.one_minus, i)
            ) >> const(self.bits, "uint64")
            smoothed = smoothed.astype("uint32")
            return tirx.min(smoothed, up) if self.clamping else smoothed

        return te.compute(signal.shape, at, name="noise_estimate")

    def output(self, signal: Any, after: Any) -> Any:

        def at(i: Any) -> Any:
            up = self.scaled_up(signal[i])
            estimate = tirx.min(after[i], up)
            floor = (
                signal[i].astype("uint64") * const(self.min_signal_remaining & 0xFFFFFFFF, "uint64")
            ) >> const(self.bits, "uint64")
            subtracted = (up - estimate) >> const(self.smoothing_bits, "uint32")
            return tirx.max(subtracted, floor.astype("uint32"))

        return te.compute(signal.shape, at, name="subtracted")


def convert_spectral_subtraction(
    converter: Any, op: Any, state: Callable[[Any, np.ndarray], Any]
) -> tuple[States, None]:
    """The operator's outputs set; returns ([(its noise estimate tensor, the estimate after
    the run)], None). `state(tensor, initial)` is the estimate before the run, a variable
    of the import whose first value is `initial` (TFLM's reset: zeros), its next value
    the estimate after."""
    (x,), (out, noise) = checked_tensors(
        converter,
        op,
        [("input", "uint32", 1)],
        [("output", "uint32", 1), ("noise_estimate", "uint32", 1)],
    )
    options = _Subtraction(flex_options(op))
    for name, tensor in (("input", x), ("output", out), ("noise_estimate", noise)):
        check_same_length(
            name, shape_of(tensor), options.channels, f"its num_channels {options.channels}"
        )
    signal = converter.get_tensor_expr(x)
    before = state(noise, np.zeros(options.channels, np.uint32))
    # The estimate after (param 2) may be the estimate before's buffer (param 1).
    after = emit_in_place(
        converter,
        options.estimate,
        signal,
        before,
        pairs=[[1, 2]],
        primfunc_name_hint="signal_spectral_subtraction_state",
    )
    result = emit_kernel(
        converter, options.output, signal, after, primfunc_name_hint="signal_spectral_subtraction"
    )
    set_outputs(converter, [out, noise], [result, after])
    return [(noise, after)], None


def _wide_dynamic_gain(x: Any, lut: Any) -> Any:
    """TFLM's WideDynamicFunction of the uint32 `x` by the int16 `lut`, as the uint32
    TFLM's PCAN widens its int16 result to."""

    interval = most_significant_bit(x)
    low = tirx.min(x, const(2, "uint32")).astype("int32")
    at = tirx.max(interval * 4 - 6, 0)
    left = x << (const(11, "int32") - tirx.min(interval, 11)).astype("uint32")
    right = x >> (tirx.max(interval, 11) - const(11, "int32")).astype("uint32")
    frac = (tirx.Select(interval < 11, left, right) & const(0x3FF, "uint32")).astype("int32")
    result = (lut[at + 2].astype("int32") * frac) >> 5
    result = result + lut[at + 1].astype("int32") * 32
    result = result * frac
    result = (result + const(1 << 14, "int32")) >> 15
    result = result + lut[at].astype("int32")
    gain = tirx.Select(x <= const(2, "uint32"), lut[low].astype("int32"), result)
    return gain.astype("int16").astype("int32").astype("uint32")


def _pcan_shrink(snr: Any) -> Any:

    small = (snr * snr) >> const(2 + 2 * _PCAN_SNR_BITS - _PCAN_OUTPUT_BITS, "uint32")
    large = (snr >> const(_PCAN_SNR_BITS - _PCAN_OUTPUT_BITS, "uint32")) - const(
        1 << _PCAN_OUTPUT_BITS, "uint32"
    )
    return tirx.Select(snr < const(2 << _PCAN_SNR_BITS, "uint32"), small, large)


def convert_pcan(converter: Any, op: Any) -> Any:

    (x, noise, lut), (out,) = checked_tensors(
        converter,
        op,
        [("input", "uint32", 1), ("noise_estimate", "uint32", 1), ("gain_lut", "int16", 1)],
        [("output", "uint32", 1)],
    )
    channels = shape_of(x)
    for name, tensor in (("noise_estimate", noise), ("output", out)):
        if shape_of(tensor) != channels:
            raise OperatorRejected(f"its {name} is {shape_of(tensor)}, its input {channels}")
    # The table is read at 4 x 32 - 6 + 2 at most (an estimate of 2^32 - 1).
    if shape_of(lut)[0] < 4 * 32 - 3:
        raise OperatorRejected(f"its gain_lut has {shape_of(lut)[0]} entries, TFLM's reads 125")
    shift = option(flex_options(op), "snr_shift")

    def pcan(signal: Any, estimate: Any, table: Any) -> Any:
        def at(i: Any) -> Any:
            gain = _wide_dynamic_gain(estimate[i], table)
            snr = (signal[i].astype("uint64") * gain.astype("uint64")) >> const(shift, "uint64")
            return _pcan_shrink(snr.astype("uint32"))

        return te.compute(signal.shape, at, name="pcan")

    return emit_kernel(
        converter,
        pcan,
        *(converter.get_tensor_expr(t) for t in (x, noise, lut)),
        primfunc_name_hint="signal_pcan",
    )


def _log32(x: Any, table: Any, out_scale: int) -> Any:
    """TFLM's Log32 of the uint32 `x` (above 1): out_scale x ln(x), in uint32."""

    integer = most_significant_bit(x) - 1
    frac = (x.astype("int64") - (const(1, "int64") << integer.astype("int64"))).astype("int32")
    frac = tirx.Select(
        integer < _LOG_SCALE_LOG2,
        frac << (_LOG_SCALE_LOG2 - tirx.min(integer, _LOG_SCALE_LOG2)),
        frac >> (tirx.max(integer, _LOG_SCALE_LOG2) - _LOG_SCALE_LOG2),
    )
    segment = frac >> (_LOG_SCALE_LOG2 - _LOG_SEGMENTS_LOG2)
    c0, c1 = table[segment].astype("int32"), table[segment + 1].astype("int32")
    relative = ((c1 - c0) * (frac - segment * (1 << (_LOG_SCALE_LOG2 - _LOG_SEGMENTS_LOG2)))) >> 16
    fraction = as_u32(frac + c0 + relative)
    log2 = (as_u32(integer) << const(_LOG_SCALE_LOG2, "uint32")) + fraction
    loge = (
        (const(_LOG_COEFF, "uint64") * log2.astype("uint64") + const(32768, "uint64"))
        >> const(16, "uint64")
    ).astype("uint32")
    return (const(out_scale & 0xFFFFFFFF, "uint32") * loge + const(32768, "uint32")) >> const(
        16, "uint32"
    )


def convert_filter_bank_log(converter: Any, op: Any) -> Any:

    (x,), (out,) = checked_tensors(
        converter, op, [("input", "uint32", 1)], [("output", "int16", 1)]
    )
    if shape_of(out) != shape_of(x):
        raise OperatorRejected(f"its output is {shape_of(out)}, its input {shape_of(x)}")
    options = flex_options(op)
    correction = option(options, "input_correction_bits")
    scale = option(options, "output_scale")

    def log(signal: Any, table: Any) -> Any:
        def at(i: Any) -> Any:
            scaled = signal[i] << const(correction, "uint32")
            value = tirx.min(_log32(scaled, table, scale), const(32767, "uint32"))
            return tirx.Select(scaled > const(1, "uint32"), value, const(0, "uint32")).astype(
                "int16"
            )

        return te.compute(signal.shape, at, name="log")

    return emit_kernel(
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
