"""MediaPipe's custom operators (mediapipe/util/tflite/operations), by their published
definitions: Convolution2DTransposeBias, TFLite's TRANSPOSE_CONV with a bias and the
output shape its kernel computes (MediaPipe's selfie segmentation ends in one);
MaxPoolingWithArgmax2D, MAX_POOL_2D with where each max is in its window; MaxUnpooling2D,
each value put back there (windows that do not overlap only); the version-2 operators of
the face mesh with attention: Landmarks2TransformMatrix (a crop's 4x4 matrix from
landmarks), TransformTensorBilinear (a bilinear crop of a tensor by it) and
TransformLandmarks (points moved by it). Their options are a C struct of int32 fields
(TfLiteTransposeConvParams, TfLitePoolParams) or a FlexBuffer map (the landmark ones).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from tvm import relax
from tvm.relax.frontend.tflite.tflite_frontend import OperatorConverter

from usmp_dialect.tvm.model_files.tflite_options import (
    compute_padding,
    custom_options,
    flex_options,
    pool_options,
)
from usmp_dialect.tvm.model_files.tflite_tensors import tensor_shape

# TFLite's fused activations (TfLiteFusedActivation) that clamp: RELU, RELU_N1_TO_1, RELU6.
_CLAMPS = {1: (0.0, None), 2: (-1.0, 1.0), 3: (0.0, 6.0)}


class MediaPipeOperators(OperatorConverter):
    """The converters of MediaPipe's custom operators, for `CorrectedConverter`."""

    def convert_transpose_conv_bias(self, op: Any) -> Any:
        """MediaPipe's Convolution2DTransposeBias: TFLite's TRANSPOSE_CONV (float32,
        weights OHWI) plus a bias, its output shape its own (TFLite's takes it as an
        input): (in - 1) * stride + kernel - padding, the padding SAME's total, of
        which the top (left) gets half, rounded down."""
        from tflite.Padding import Padding

        data, weights, bias = self.get_input_tensors(op)
        options = custom_options(op)
        if len(options) < 3:
            raise ValueError(
                f"its options are {options.nbytes} bytes, a TfLiteTransposeConvParams "
                "is 12 (padding, stride width, stride height)"
            )
        padding, stride_w, stride_h = (int(v) for v in options[:3])
        _, in_h, in_w, _ = tensor_shape(data.tensor)
        _, kernel_h, kernel_w, _ = tensor_shape(weights.tensor)
        pads = [0, 0, 0, 0]
        if padding == Padding.SAME:
            total_h = max(0, kernel_h - (in_h - 1) % stride_h - 1)
            total_w = max(0, kernel_w - (in_w - 1) % stride_w - 1)
            pads = [total_h // 2, total_w // 2, total_h - total_h // 2, total_w - total_w // 2]
        # TVM legalizes conv2d_transpose of NCHW data only (its own TRANSPOSE_CONV,
        # NHWC, is never lowered): the data is transposed to NCHW and back.
        iohw = relax.op.permute_dims(self.get_tensor_expr(weights), [3, 0, 1, 2])
        nchw = relax.op.permute_dims(self.get_tensor_expr(data), [0, 3, 1, 2])
        out = relax.op.nn.conv2d_transpose(
            nchw, iohw, strides=(stride_h, stride_w), padding=pads, out_dtype="float32"
        )
        nhwc = relax.op.permute_dims(out, [0, 2, 3, 1])
        return relax.op.add(nhwc, self.get_tensor_expr(bias))

    def convert_max_pool_argmax(self, op: Any) -> Any:
        """MediaPipe's MaxPoolingWithArgmax2D: MAX_POOL_2D's values (the window
        clamped to the input), its activation, and where in its window each max is
        (row * filter width + column, the first of equal maxima, + 0.1, as float32)."""
        from tflite.Padding import Padding

        (data,) = self.get_input_tensors(op)
        o = pool_options(op, "MaxPoolingWithArgmax2D")
        _, height, width, _ = tensor_shape(data.tensor)
        if o.padding == Padding.SAME:
            out_h, out_w = -(-height // o.stride_h), -(-width // o.stride_w)
        else:
            out_h = (height - o.filter_h + o.stride_h) // o.stride_h
            out_w = (width - o.filter_w + o.stride_w) // o.stride_w
        top = compute_padding(o.stride_h, height, o.filter_h, out_h)
        left = compute_padding(o.stride_w, width, o.filter_w, out_w)
        span_h, span_w = (out_h - 1) * o.stride_h + 1, (out_w - 1) * o.stride_w + 1
        bottom = max(0, span_h + o.filter_h - 1 - height - top)
        right = max(0, span_w + o.filter_w - 1 - width - left)
        # Padded with -inf: a padded cell is never a window's max, as if left out.
        padded = self.bb.emit(
            relax.op.nn.pad(
                self.get_tensor_expr(data),
                pad_width=[0, 0, top, bottom, left, right, 0, 0],
                pad_value=float("-inf"),
            )
        )
        windows = [
            relax.op.strided_slice(
                padded,
                axes=[1, 2],
                begin=[y, x],
                end=[y + span_h, x + span_w],
                strides=[o.stride_h, o.stride_w],
            )
            for y in range(o.filter_h)
            for x in range(o.filter_w)
        ]
        stacked = self.bb.emit(relax.op.stack(windows, axis=4))
        values = relax.op.max(stacked, axis=4)
        if o.activation in _CLAMPS:
            low, high = _CLAMPS[o.activation]
            values = relax.op.clip(values, low, float("inf") if high is None else high)
        where = relax.op.astype(relax.op.argmax(stacked, axis=4), "float32")
        indices = relax.op.add(where, relax.const(0.1, "float32"))
        return relax.Tuple([self.bb.emit(values), self.bb.emit(indices)])

    def convert_max_unpooling(self, op: Any) -> Any:
        """MediaPipe's MaxUnpooling2D: each value written where its index (row *
        filter width + column, truncated) puts it in its window, at stride * its
        position less the padding, within an output of filter size * the input's;
        0 elsewhere. Windows that do not overlap (stride >= filter) only: each output
        pixel is then in one window at most, and takes its value by a gather. An
        index outside its window writes nothing (MediaPipe's kernel would write into a
        neighbouring window's pixel: MaxPoolingWithArgmax2D never gives one)."""
        data, indices = self.get_input_tensors(op)
        o = pool_options(op, "MaxUnpooling2D")
        if o.stride_h < o.filter_h or o.stride_w < o.filter_w:
            raise ValueError(
                f"overlapping windows (stride {o.stride_h}x{o.stride_w}, filter "
                f"{o.filter_h}x{o.filter_w}) are not converted"
            )
        _, height, width, _ = tensor_shape(data.tensor)
        gathered_x, gathered_at = self.get_tensor_expr(data), self.get_tensor_expr(indices)
        offsets = []  # of each output row (column) in its window, -1 if in none
        for axis, size, stride, kernel in [
            (1, height, o.stride_h, o.filter_h),
            (2, width, o.stride_w, o.filter_w),
        ]:
            out_size = size * kernel
            pad = compute_padding(stride, out_size, kernel, size)
            source, offset = np.divmod(np.arange(out_size) + pad, stride)
            rows = relax.const(np.minimum(source, size - 1).astype("int32"))
            gathered_x = relax.op.take(gathered_x, rows, axis=axis, mode="clip")
            gathered_at = relax.op.take(gathered_at, rows, axis=axis, mode="clip")
            offsets.append(np.where((offset < kernel) & (source < size), offset, -1))
        dy, dx = offsets[0][:, None], offsets[1][None, :]
        position = np.where((dy >= 0) & (dx >= 0), dy * o.filter_w + dx, -1)
        wanted = relax.const(position[None, :, :, None].astype("int32"))
        chosen = relax.op.equal(relax.op.astype(gathered_at, "int32"), wanted)
        zero = relax.const(0.0, "float32")
        return relax.op.where(chosen, gathered_x, zero)

    def _require_version(self, op: Any, name: str, versions: tuple[int, ...] = (2,)) -> None:
        """Only the versions of MediaPipe's operator `name` converted here."""
        version = self.model.OperatorCodes(op.OpcodeIndex()).Version()
        if version not in versions:
            raise ValueError(f"{name} version {version} is not converted (version 2 is)")

    def _scalar(self, expr: Any) -> Any:
        return self.bb.emit(relax.op.reshape(expr, [1]))

    def convert_landmarks_to_transform_matrix(self, op: Any) -> Any:
        """MediaPipe's Landmarks2TransformMatrix (version 2): the rotation that levels
        the line from the left to the right landmark (to `target_rotation_radians`),
        the box of the subset's landmarks so rotated, and the 4x4 matrix taking an
        output pixel of `output_width` x `output_height` to the box, scaled by
        `scale_x`, `scale_y`: shift(center) * rotate(-rotation) * scale * shift(-output
        size / 2)."""
        self._require_version(op, "Landmarks2TransformMatrix")
        (landmarks,) = self.get_input_tensors(op)
        o = flex_options(op)
        expr = self.get_tensor_expr(landmarks)

        def coordinate(index: int, axis: int) -> Any:
            return self._scalar(
                relax.op.strided_slice(
                    expr, axes=[1, 2], begin=[index, axis], end=[index + 1, axis + 1]
                )
            )

        left, right = int(o["left_rotation_idx"]), int(o["right_rotation_idx"])
        count = tensor_shape(landmarks.tensor)[1]
        subset_idxs = [int(i) for i in o["subset_idxs"]]
        if not all(0 <= i < count for i in [left, right, *subset_idxs]):
            raise ValueError(f"its options name landmarks outside the {count} it reads")
        dy = relax.op.subtract(coordinate(right, 1), coordinate(left, 1))
        dx = relax.op.subtract(coordinate(right, 0), coordinate(left, 0))
        target = relax.const(np.float32(o.get("target_rotation_radians", 0.0)))
        rotation = self.bb.emit(relax.op.subtract(target, relax.op.atan2(dy, dx)))
        cos, sin = self.bb.emit(relax.op.cos(rotation)), self.bb.emit(relax.op.sin(rotation))
        subset = relax.const(np.asarray(subset_idxs, "int32"))
        points = self.bb.emit(relax.op.take(expr, subset, axis=1, mode="clip"))  # [1, K, 3]
        xs, ys = (
            self.bb.emit(
                relax.op.reshape(
                    relax.op.strided_slice(points, axes=[2], begin=[i], end=[i + 1]),
                    [len(subset_idxs)],
                )
            )
            for i in range(2)
        )
        turned_x = self.bb.emit(relax.op.subtract(cos * xs, sin * ys))
        turned_y = self.bb.emit(relax.op.add(sin * xs, cos * ys))
        extremes = [
            self._scalar(reduce(t, axis=0))
            for t in (turned_x, turned_y)
            for reduce in (relax.op.max, relax.op.min)
        ]
        max_x, min_x, max_y, min_y = extremes
        half = relax.const(np.float32(0.5))
        middle_x = self.bb.emit((max_x + min_x) * half)
        middle_y = self.bb.emit((max_y + min_y) * half)
        # The box's center, rotated back.
        crop_x = cos * middle_x + sin * middle_y
        crop_y = cos * middle_y - sin * middle_x
        out_w, out_h = float(o["output_width"]), float(o["output_height"])
        scale_x = (max_x - min_x) * relax.const(np.float32(o["scale_x"] / out_w))
        scale_y = (max_y - min_y) * relax.const(np.float32(o["scale_y"] / out_h))
        scale_x, scale_y = self.bb.emit(scale_x), self.bb.emit(scale_y)
        # rotate(-rotation): cos, sin of -rotation are cos, -sin.
        m00, m01 = self.bb.emit(cos * scale_x), self.bb.emit(sin * scale_y)
        m10, m11 = self.bb.emit(-sin * scale_x), self.bb.emit(cos * scale_y)
        shift_x, shift_y = (
            relax.const(np.float32(-out_w / 2)),
            relax.const(np.float32(-out_h / 2)),
        )
        m03 = crop_x + m00 * shift_x + m01 * shift_y
        m13 = crop_y + m10 * shift_x + m11 * shift_y
        zero, one = relax.const(np.zeros(1, "float32")), relax.const(np.ones(1, "float32"))
        rows = [m00, m01, zero, m03, m10, m11, zero, m13]
        rows += [zero, zero, one, zero, zero, zero, zero, one]
        return relax.op.reshape(relax.op.concat(rows, axis=0), [1, 4, 4])

    def _affine_rows(self, matrix: Any) -> list[Any]:
        """The first two rows of a [1, 4, 4] matrix, each element a [1] tensor."""
        return [
            self._scalar(
                relax.op.strided_slice(matrix, axes=[1, 2], begin=[r, c], end=[r + 1, c + 1])
            )
            for r in range(2)
            for c in range(4)
        ]

    def convert_transform_tensor_bilinear(self, op: Any) -> Any:
        """MediaPipe's TransformTensorBilinear (version 2): each output pixel (x, y)
        of `output_width` x `output_height` samples the input bilinearly at the first
        two rows of the matrix times (x, y, 0, 1), corners aligned (the matrix's
        shift corrected by half a pixel), 0 outside the input; a corner past the
        input's last row or column reads 0."""
        self._require_version(op, "TransformTensorBilinear")
        data, matrix = self.get_input_tensors(op)
        o = flex_options(op)
        out_h, out_w = int(o["output_height"]), int(o["output_width"])
        _, height, width, channels = tensor_shape(data.tensor)
        a, b, _, tx, c, d, _, ty = self._affine_rows(self.get_tensor_expr(matrix))
        half = relax.const(np.float32(0.5))
        tx = tx + a * half + b * half - half
        ty = ty + c * half + d * half - half
        grid_y, grid_x = np.meshgrid(np.arange(out_h), np.arange(out_w), indexing="ij")
        gx, gy = (relax.const(g.reshape(-1).astype("float32")) for g in (grid_x, grid_y))
        x = self.bb.emit(a * gx + b * gy + tx)  # [out_h * out_w]
        y = self.bb.emit(c * gx + d * gy + ty)
        zero = relax.const(np.float32(0))
        inside = self.bb.emit(
            relax.op.logical_and(
                relax.op.logical_and(
                    relax.op.greater_equal(x, zero),
                    relax.op.less_equal(x, relax.const(np.float32(width - 1))),
                ),
                relax.op.logical_and(
                    relax.op.greater_equal(y, zero),
                    relax.op.less_equal(y, relax.const(np.float32(height - 1))),
                ),
            )
        )
        x0, y0 = self.bb.emit(relax.op.floor(x)), self.bb.emit(relax.op.floor(y))
        right, lower = self.bb.emit(x - x0), self.bb.emit(y - y0)
        flat = self.bb.emit(
            relax.op.reshape(self.get_tensor_expr(data), [height * width, channels])
        )

        def corner(dy: int, dx: int) -> Any:
            row = relax.op.astype(y0, "int32") + relax.const(np.int32(dy))
            column = relax.op.astype(x0, "int32") + relax.const(np.int32(dx))
            row, column = self.bb.emit(row), self.bb.emit(column)
            valid = relax.op.logical_and(
                relax.op.logical_and(
                    relax.op.greater_equal(row, relax.const(np.int32(0))),
                    relax.op.less(row, relax.const(np.int32(height))),
                ),
                relax.op.logical_and(
                    relax.op.greater_equal(column, relax.const(np.int32(0))),
                    relax.op.less(column, relax.const(np.int32(width))),
                ),
            )
            valid = self.bb.emit(relax.op.logical_and(valid, inside))
            index = relax.op.where(
                valid, row * relax.const(np.int32(width)) + column, relax.const(np.int32(0))
            )
            values = relax.op.take(flat, self.bb.emit(index), axis=0, mode="clip")
            return relax.op.where(relax.op.expand_dims(valid, 1), values, zero)

        one = relax.const(np.float32(1))
        right_c, lower_c = relax.op.expand_dims(right, 1), relax.op.expand_dims(lower, 1)
        upper = (one - right_c) * corner(0, 0) + right_c * corner(0, 1)
        below = (one - right_c) * corner(1, 0) + right_c * corner(1, 1)
        result = lower_c * below + (one - lower_c) * upper
        return relax.op.reshape(result, [1, out_h, out_w, channels])

    def convert_transform_landmarks(self, op: Any) -> Any:
        """MediaPipe's TransformLandmarks (version 2): each landmark's x, y taken by
        the first two rows of the matrix times (x, y, 0, 1); a third coordinate kept."""
        self._require_version(op, "TransformLandmarks")
        landmarks, matrix = self.get_input_tensors(op)
        dims = tensor_shape(landmarks.tensor)[-1]
        if dims not in (2, 3):
            raise ValueError(f"landmarks of {dims} coordinates (2 or 3 are converted)")
        a, b, _, tx, c, d, _, ty = self._affine_rows(self.get_tensor_expr(matrix))
        expr = self.get_tensor_expr(landmarks)

        def axis(i: int) -> Any:
            return self.bb.emit(relax.op.strided_slice(expr, axes=[2], begin=[i], end=[i + 1]))

        x, y = axis(0), axis(1)
        moved = [a * x + b * y + tx, c * x + d * y + ty]
        if dims == 3:
            moved.append(axis(2))
        return relax.op.concat(moved, axis=2)
