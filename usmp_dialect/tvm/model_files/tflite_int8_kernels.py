"""int8 TFLite operators computed as TensorFlow Lite Micro's kernels compute them, in
integers, where TVM 0.27's frontend dequantizes, computes in float32 and quantizes (its
outputs then a step off TFLM's here and there, and more after a few layers):

    Int8KernelConverters        converters of the operators below, a base of
                                `tflite_operators.corrected_converter()`'s class

AVERAGE_POOL_2D: the int8 values of a window summed as they are (input and output share
a scale and zero point), over the cells inside the input only, divided by their count
rounding half away from zero, clamped to the fused activation's range. MEAN: the sum less
count x zero point, multiplied by the input-to-output scale over the count as TFLM folds
them into one fixed-point multiplier (its shift bounded as TFLM bounds it). QUANTIZE of
an int8 or uint8 tensor (a requantize): the value less its zero point multiplied by the
input-to-output scale in fixed point; of a float32 tensor: the value divided by the scale
in float32, rounded half away from zero. Each is one `call_tir` of a TE compute
(`fixed_point`'s multiply for the multipliers). Per-channel (de)quantization and other
types are left to TVM's converters.
"""

from __future__ import annotations

from typing import Any

_OPAQUE = 8  # TVM's OpPatternKind kOpaque: FuseOps fuses it with nothing
_INT_RANGES = {"int8": (-128, 127), "uint8": (0, 255), "int16": (-32768, 32767)}


def _scalar_quantization(tensor: Any) -> tuple[float, int] | None:
    """A tensor's one scale and zero point, None if it has none or one per channel."""
    quantization = tensor.tensor.Quantization()
    if quantization is None or quantization.ScaleLength() != 1:
        return None
    zero_point = int(quantization.ZeroPoint(0)) if quantization.ZeroPointLength() else 0
    return float(quantization.Scale(0)), zero_point


def _broadcast(shape: list[int], index: tuple[Any, ...]) -> tuple[Any, ...]:
    """The element of a tensor of `shape` that numpy's broadcasting reads at the output's
    `index` (dims aligned from the last; a dim of 1 read at 0)."""
    tail = index[len(index) - len(shape) :] if shape else ()
    return tuple(0 if size == 1 else i for size, i in zip(shape, tail, strict=True))


def _clamped(value: Any, low: int, high: int, dtype: str) -> Any:
    from tvm import tirx

    bounded = tirx.min(tirx.max(value, tirx.const(low, "int32")), tirx.const(high, "int32"))
    return bounded.astype(dtype)


# The class these methods are mixed into: TVM's converter, untyped.
_Converter: Any = object


class Int8KernelConverters(_Converter):
    """TVM's TFLite `OperatorConverter` methods for the operators above, TVM's own
    (`self.tvm_converters`) kept for a float or per-channel tensor. A base class placed
    before `OperatorConverter`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        ours = {
            "ADD": self.convert_int8_add,
            "AVERAGE_POOL_2D": self.convert_int8_average_pool,
            "MEAN": self.convert_int8_mean,
            "QUANTIZE": self.convert_int8_quantize,
        }
        self.tvm_converters = {name: self.convert_map[name] for name in ours}
        self.convert_map.update(ours)

    def _emit_te(self, compute: Any, expr: Any, name: str) -> Any:
        return self.bb.emit_te(compute, expr, primfunc_name_hint=name)

    def convert_int8_add(self, op: Any) -> Any:
        from tflite.AddOptions import AddOptions
        from tvm import te, tirx

        from usmp_dialect.tvm.model_files.fixed_point import (
            multiply_by_quantized_multiplier,
            quantize_multiplier,
        )
        from usmp_dialect.tvm.model_files.tflite_operators import activation_range, tensor_shape

        lhs, rhs = self.get_input_tensors(op)
        (out,) = self.get_output_tensors(op)
        quantizations = [_scalar_quantization(t) for t in (lhs, rhs, out)]
        types = {self.get_tensor_type_str(t.tensor.Type()) for t in (lhs, rhs, out)}
        if types != {"int8"} or None in quantizations:
            return self.tvm_converters["ADD"](op)
        (s1, z1), (s2, z2), (so, zo) = (q for q in quantizations if q is not None)
        options = AddOptions()
        table = op.BuiltinOptions()
        options.Init(table.Bytes, table.Pos)
        low, high = activation_range(options.FusedActivationFunction(), so, zo, "int8")
        # TFLM's AddFunc: each input less its zero point, in 20 more bits, scaled to twice
        # the larger input scale; their sum scaled to the output's.
        left_shift = 20
        twice_max = 2 * max(s1, s2)
        inputs = [
            (tensor_shape(t.tensor), zero_point, *quantize_multiplier(scale / twice_max))
            for t, scale, zero_point in [(lhs, s1, z1), (rhs, s2, z2)]
        ]
        mo, shift_out = quantize_multiplier(twice_max / ((1 << left_shift) * so))
        out_shape = tensor_shape(out.tensor)

        def compute(*tensors: Any) -> Any:
            def scaled(term: int, index: tuple[Any, ...]) -> Any:
                shape, zero_point, multiplier, shift = inputs[term]
                value = tensors[term][_broadcast(shape, index)].astype("int32")
                shifted = (value - tirx.const(zero_point, "int32")) * (1 << left_shift)
                return multiply_by_quantized_multiplier(shifted, multiplier, shift)

            # The scaled inputs summed as a reduction of two terms: the lowering keeps a
            # reduction's value in a local accumulator, where an elementwise stage is
            # inlined into the final multiply, which reads its operand seven times (three
            # multiplies then make an expression TVM simplifies for seconds).
            term = te.reduce_axis((0, 2), "term")
            total = te.compute(
                out_shape,
                lambda *i: te.sum(tirx.Select(term == 0, scaled(0, i), scaled(1, i)), axis=term),
                name="scaled_sum",
            )

            def element(*index: Any) -> Any:
                value = multiply_by_quantized_multiplier(total[index], mo, shift_out)
                return _clamped(value + tirx.const(zo, "int32"), low, high, "int8")

            return te.compute(out_shape, element, name="add")

        summed = self.bb.emit_te(
            compute,
            self.get_tensor_expr(lhs),
            self.get_tensor_expr(rhs),
            primfunc_name_hint="add_int8",
        )
        # Fused with nothing, as TFLM runs it: in its producer's group its sum stage keeps
        # a convolution's whole float32 sum alive (TVM's fusion kept the dequantized
        # inputs of the float32 add apart alike: `temporaries.widening_kept_apart`).
        callee = self.bb.lookup_binding(summed).args[0]
        self.bb.update_func(callee, self.bb.get()[callee].with_attr("op_pattern", _OPAQUE))
        return summed

    def convert_int8_average_pool(self, op: Any) -> Any:
        from tflite.Padding import Padding
        from tflite.Pool2DOptions import Pool2DOptions
        from tvm import te, tirx

        from usmp_dialect.tvm.model_files.tflite_operators import (
            _padding,
            activation_range,
            tensor_shape,
        )

        (data,) = self.get_input_tensors(op)
        (out,) = self.get_output_tensors(op)
        quantization = _scalar_quantization(out)
        if _scalar_quantization(data) is None or quantization is None:
            return self.tvm_converters["AVERAGE_POOL_2D"](op)
        options = Pool2DOptions()
        table = op.BuiltinOptions()
        options.Init(table.Bytes, table.Pos)
        fh, fw = options.FilterHeight(), options.FilterWidth()
        sh, sw = options.StrideH(), options.StrideW()
        _, height, width, _ = tensor_shape(data.tensor)
        out_shape = tensor_shape(out.tensor)
        top = left = 0
        if options.Padding() == Padding.SAME:
            top = _padding(sh, height, fh, out_shape[1])
            left = _padding(sw, width, fw, out_shape[2])
        dtype = self.get_tensor_type_str(out.tensor.Type())
        low, high = activation_range(options.FusedActivationFunction(), *quantization, dtype)

        def compute(x: Any) -> Any:
            ky, kx = te.reduce_axis((0, fh), "ky"), te.reduce_axis((0, fw), "kx")
            zero = tirx.const(0, "int32")

            def cell(n: Any, y: Any, xx: Any, c: Any) -> Any:
                row, column = y * sh - top + ky, xx * sw - left + kx
                inside = tirx.all(row >= 0, row < height, column >= 0, column < width)
                return tirx.if_then_else(inside, x[n, row, column, c].astype("int32"), zero)

            total = te.compute(
                out_shape, lambda *i: te.sum(cell(*i), axis=[ky, kx]), name="window_sum"
            )

            def average(n: Any, y: Any, xx: Any, c: Any) -> Any:
                rows = tirx.min(fh, height - (y * sh - top)) - tirx.max(0, top - y * sh)
                columns = tirx.min(fw, width - (xx * sw - left)) - tirx.max(0, left - xx * sw)
                count = rows * columns
                acc = total[n, y, xx, c]
                half = tirx.truncdiv(count, 2)
                rounded = tirx.Select(
                    acc > zero, tirx.truncdiv(acc + half, count), tirx.truncdiv(acc - half, count)
                )
                return _clamped(rounded, low, high, dtype)

            return te.compute(out_shape, average, name="average_pool")

        return self._emit_te(compute, self.get_tensor_expr(data), "average_pool_int8")

    def convert_int8_mean(self, op: Any) -> Any:
        import numpy as np
        from tflite.ReducerOptions import ReducerOptions
        from tvm import te, tirx

        from usmp_dialect.tvm.model_files.fixed_point import (
            multiply_by_quantized_multiplier,
            quantize_multiplier,
        )
        from usmp_dialect.tvm.model_files.tflite_operators import tensor_shape

        data, axes_tensor = self.get_input_tensors(op)
        (out,) = self.get_output_tensors(op)
        source, target = _scalar_quantization(data), _scalar_quantization(out)
        dtype = self.get_tensor_type_str(out.tensor.Type())
        if source is None or target is None or dtype not in _INT_RANGES:
            return self.tvm_converters["MEAN"](op)
        shape = tensor_shape(data.tensor)
        rank = len(shape)
        listed = np.asarray(self.get_tensor_value(axes_tensor)).reshape(-1)
        axes = sorted({int(a) % rank for a in listed})
        keep_dims = False
        if op.BuiltinOptionsType():
            options = ReducerOptions()
            table = op.BuiltinOptions()
            options.Init(table.Bytes, table.Pos)
            keep_dims = bool(options.KeepDims())
        count = int(np.prod([shape[a] for a in axes]))
        multiplier, shift = quantize_multiplier(source[0] / target[0])
        # TFLM folds 1/count into the multiplier: shifted left by log2(count) (at most 32,
        # and no further than a shift of -31) and divided by count, truncated.
        extra = min(count.bit_length() - 1, 32, 31 + shift)
        multiplier = (multiplier << extra) // count
        shift -= extra
        kept = [i for i in range(rank) if i not in axes]
        out_shape = [1 if i in axes else shape[i] for i in range(rank)]
        if not keep_dims:
            out_shape = [shape[i] for i in kept]
        low, high = _INT_RANGES[dtype]

        def compute(x: Any) -> Any:
            reduced = {a: te.reduce_axis((0, shape[a]), f"r{a}") for a in axes}

            def element(*index: Any) -> Any:
                # The output's index at the kept dims, the reduced axes at the others.
                at = dict(zip(kept, [index[i] for i in kept] if keep_dims else index, strict=True))
                at.update(reduced)
                read = x[tuple(at[i] for i in range(rank))].astype("int32")
                return te.sum(read, axis=list(reduced.values()))

            total = te.compute(out_shape, element, name="sum")

            def mean(*index: Any) -> Any:
                shifted = total[index] - tirx.const(source[1] * count, "int32")
                value = multiply_by_quantized_multiplier(shifted, multiplier, shift)
                return _clamped(value + tirx.const(target[1], "int32"), low, high, dtype)

            return te.compute(out_shape, mean, name="mean")

        return self._emit_te(compute, self.get_tensor_expr(data), "mean_int8")

    def convert_int8_quantize(self, op: Any) -> Any:
        from tvm import te, tirx

        from usmp_dialect.tvm.model_files.fixed_point import (
            multiply_by_quantized_multiplier,
            quantize_multiplier,
        )

        (data,) = self.get_input_tensors(op)
        (out,) = self.get_output_tensors(op)
        source_type = self.get_tensor_type_str(data.tensor.Type())
        dtype = self.get_tensor_type_str(out.tensor.Type())
        target = _scalar_quantization(out)
        source = _scalar_quantization(data) if source_type in _INT_RANGES else (1.0, 0)
        if target is None or source is None or dtype not in _INT_RANGES:
            return self.tvm_converters["QUANTIZE"](op)
        low, high = _INT_RANGES[dtype]
        scale, zero_point = target
        if source_type == "float32":

            def compute(x: Any) -> Any:
                def element(*index: Any) -> Any:
                    # float32 division as TFLM divides, then std::round (half away from 0).
                    q = x[index] / tirx.const(scale, "float32")
                    magnitude = tirx.Select(q < 0, -q, q)  # no fabs in TVM's C target
                    whole = tirx.floor(magnitude)
                    half = tirx.const(0.5, "float32")
                    away = tirx.Select(magnitude - whole >= half, whole + 1.0, whole)
                    # Bounded before the cast: the clamp below decides past int8's range.
                    bound = tirx.const(2.0**30, "float32")
                    rounded = tirx.min(tirx.Select(q < 0, -away, away), bound)
                    value = tirx.max(rounded, -bound).astype("int32")
                    return _clamped(value + tirx.const(zero_point, "int32"), low, high, dtype)

                return te.compute(x.shape, element, name="quantize")

            return self._emit_te(compute, self.get_tensor_expr(data), "quantize_int8")
        if source_type not in _INT_RANGES:
            return self.tvm_converters["QUANTIZE"](op)
        multiplier, shift = quantize_multiplier(source[0] / scale)

        def requantize(x: Any) -> Any:
            def element(*index: Any) -> Any:
                value = x[index].astype("int32") - tirx.const(source[1], "int32")
                scaled = multiply_by_quantized_multiplier(value, multiplier, shift)
                return _clamped(scaled + tirx.const(zero_point, "int32"), low, high, dtype)

            return te.compute(x.shape, element, name="requantize")

        return self._emit_te(requantize, self.get_tensor_expr(data), "requantize_int8")
