"""TFLite's operators that pad, reshape, gather or otherwise move values, converted anew
where TVM 0.27's converter is wrong or refuses a quantized tensor (see `tflite_operators`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import tvm
from tvm import relax
from tvm.relax.frontend.tflite.tflite_frontend import OperatorConverter

from usmp_dialect.tvm.model_files.onnx_operators import OperatorRejected
from usmp_dialect.tvm.model_files.tensor_names import tflite_tensor_label
from usmp_dialect.tvm.model_files.tflite_options import (
    options_of,
)
from usmp_dialect.tvm.model_files.tflite_sparsity import SparsityError, densified
from usmp_dialect.tvm.model_files.tflite_tensors import scalar_quantization, tensor_shape


class MovingOperators(OperatorConverter):
    """The converters of operators that move values, for `CorrectedConverter`."""

    def convert_pad(self, op: Any) -> Any:
        data, paddings, *constant = self.get_input_tensors(op)
        if not data.qnn_params:
            return super().convert_pad(op)
        (out,) = self.get_output_tensors(op)
        if not all(self.has_same_qnn_params(data, t) for t in (out, *constant)):
            raise tvm.error.OpNotImplemented(
                f"quantized PAD computing {tflite_tensor_label(out.tensor, out.tensor_idx)} "
                "is quantized "
                "unlike its input (TFLite's kernel copies the values)"
            )
        if constant:
            (value,) = np.asarray(self.get_tensor_value(constant[0])).reshape(-1)
        else:
            value = data.qnn_params["zero_point"].value.numpy()
        widths = np.asarray(self.get_tensor_value(paddings)).reshape(-1)
        return relax.op.nn.pad(
            self.get_tensor_expr(data),
            pad_width=[int(w) for w in widths],
            pad_value=float(value),
        )

    def convert_densify(self, op: Any) -> None:
        (sparse,) = self.get_input_tensors(op)
        (out,) = self.get_output_tensors(op)
        values = np.frombuffer(
            sparse.buffer.DataAsNumpy() if sparse.buffer.DataLength() else b"",
            self.get_tensor_type_as_numpy(sparse),
        )
        try:
            dense = densified(sparse.tensor, values)
        except SparsityError as error:
            problem = str(error)
        else:
            problem = ""
        # Raised outside the handler: a chained error's frames would keep TVM's
        # BlockBuilder alive past the frontend's clean-up (a warning on stderr).
        if problem:
            label = tflite_tensor_label(sparse.tensor, sparse.tensor_idx)
            raise ValueError(f"the sparse tensor {label}: {problem}")
        # A weight, dense from here on: the operators reading it read a constant.
        self.set_prefetched_node(out.tensor_idx, dense)

    def convert_shape(self, op: Any) -> Any:
        (data,) = self.get_input_tensors(op)
        (out,) = self.get_output_tensors(op)
        dims = self._infer_shape(self.get_tensor_expr(data))
        if not all(isinstance(d, tvm.tirx.IntImm) for d in dims):
            raise ValueError(f"the shape of its input is dynamic: {list(dims)}")
        dtype = self.get_tensor_type_str(out.tensor.Type())
        return relax.const(np.array([int(d) for d in dims], dtype), dtype)

    def convert_reshape(self, op: Any) -> Any:
        data, *shape = self.get_input_tensors(op)
        if not (shape and self.has_expr(shape[0].tensor_idx)):
            return super().convert_reshape(op)
        (out,) = self.get_output_tensors(op)
        computed = self.get_expr(shape[0].tensor_idx)
        if isinstance(computed, tvm.ir.Constant):
            target = [int(d) for d in computed.value.numpy().reshape(-1)]
        else:
            # Shapes are static: a shape computed at run time (a SHAPE's slices packed
            # with a -1) is the one the file declares, if the sizes agree.
            target = tensor_shape(out.tensor)
            size = int(np.prod([int(d) for d in self._infer_shape(self.get_expr(data.tensor_idx))]))
            if int(np.prod(target)) != size:
                raise ValueError(
                    f"its shape is computed at run time and the file's {target} does not "
                    f"hold its {size} values"
                )
        return relax.op.reshape(self.get_tensor_expr(data), target)

    def convert_expand_dims(self, op: Any) -> Any:
        data, axis = self.get_input_tensors(op)
        if data.qnn_params and not self.has_same_qnn_params(data, self.get_output_tensors(op)[0]):
            raise tvm.error.OpNotImplemented(
                "quantized EXPAND_DIMS whose output is quantized unlike its input"
            )
        (position,) = np.asarray(self.get_tensor_value(axis)).reshape(-1)
        # TFLite counts a negative axis from the end of the output, as Relax does.
        return relax.op.expand_dims(self.get_tensor_expr(data), int(position))

    def convert_mirror_pad(self, op: Any) -> Any:
        """TFLite's MIRROR_PAD, REFLECT (the edge not repeated) or SYMMETRIC (repeated):
        each padded axis the flipped slices beside the tensor, concatenated (TVM's
        converter has no SYMMETRIC)."""
        from tflite.MirrorPadOptions import MirrorPadOptions

        data, paddings = self.get_input_tensors(op)
        edge = 0 if options_of(op, MirrorPadOptions).Mode() == 1 else 1  # SYMMETRIC: 1
        padded = self.get_tensor_expr(data)
        shape = tensor_shape(data.tensor)
        pads = np.asarray(self.get_tensor_value(paddings)).reshape(-1, 2)
        for axis, (before, after) in enumerate(pads.tolist()):
            size = shape[axis]
            parts = []
            if before:
                parts.append(self._flipped(padded, axis, edge, edge + before))
            parts.append(padded)
            if after:
                parts.append(self._flipped(padded, axis, size - edge - after, size - edge))
            if len(parts) > 1:
                padded = relax.op.concat(parts, axis=axis)
                shape = [*shape[:axis], size + before + after, *shape[axis + 1 :]]
        return padded

    @staticmethod
    def _flipped(x: Any, axis: int, begin: int, end: int) -> Any:
        part = relax.op.strided_slice(x, axes=[axis], begin=[begin], end=[end])
        return relax.op.flip(part, axis=axis)

    def _space_batch_operands(self, op: Any) -> tuple[Any, list[int], list[int], list[int]] | None:
        """A 4-D SPACE_TO_BATCH_ND's or BATCH_TO_SPACE_ND's data, its shape, block and
        paddings (crops) flattened; None for another rank."""
        data, block, pads = self.get_input_tensors(op)
        shape = tensor_shape(data.tensor)
        if len(shape) != 4:
            return None
        sizes = [int(v) for v in np.asarray(self.get_tensor_value(block)).reshape(-1)]
        flat = [int(v) for v in np.asarray(self.get_tensor_value(pads)).reshape(-1)]
        return data, shape, sizes, flat

    def convert_space_to_batch_nd(self, op: Any) -> Any:
        """TFLite's SPACE_TO_BATCH_ND of NHWC data: padded (with the zero point of a
        quantized tensor, as TFLM pads), each block's pixels made a batch, the block's
        row and column outermost -- reshapes and a transpose (TVM's converter leaves a
        packed call no plan can take)."""
        blocked = self._space_batch_operands(op)
        if blocked is None:
            return super().convert_space_to_batch_nd(op)
        data, (batch, height, width, channels), (bh, bw), (top, bottom, left, right) = blocked
        quantization = scalar_quantization(data)
        padded = relax.op.nn.pad(
            self.get_tensor_expr(data),
            pad_width=[0, 0, top, bottom, left, right, 0, 0],
            pad_value=float(quantization[1]) if quantization else 0.0,
        )
        rows, columns = (height + top + bottom) // bh, (width + left + right) // bw
        split = relax.op.reshape(padded, [batch, rows, bh, columns, bw, channels])
        moved = relax.op.permute_dims(split, [2, 4, 0, 1, 3, 5])
        return relax.op.reshape(moved, [bh * bw * batch, rows, columns, channels])

    def convert_batch_to_space_nd(self, op: Any) -> Any:
        """TFLite's BATCH_TO_SPACE_ND of NHWC data: SPACE_TO_BATCH_ND undone, then
        cropped."""
        blocked = self._space_batch_operands(op)
        if blocked is None:
            return super().convert_batch_to_space_nd(op)
        data, (batch, height, width, channels), (bh, bw), (top, bottom, left, right) = blocked
        outer = batch // (bh * bw)
        split = relax.op.reshape(
            self.get_tensor_expr(data), [bh, bw, outer, height, width, channels]
        )
        moved = relax.op.permute_dims(split, [2, 3, 0, 4, 1, 5])
        whole = relax.op.reshape(moved, [outer, height * bh, width * bw, channels])
        return relax.op.strided_slice(
            whole,
            axes=[1, 2],
            begin=[top, left],
            end=[height * bh - bottom, width * bw - right],
        )

    def convert_reverse_v2(self, op: Any) -> Any:
        """TFLite's REVERSE_V2 of any number of axes, one flip each (TVM's converter
        takes one)."""
        data, axes = self.get_input_tensors(op)
        rank = len(tensor_shape(data.tensor))
        reversed_ = self.get_tensor_expr(data)
        for axis in np.asarray(self.get_tensor_value(axes)).reshape(-1):
            reversed_ = relax.op.flip(reversed_, axis=int(axis) % rank)
        return reversed_

    def convert_fill(self, op: Any) -> Any:
        """TFLite's FILL of a shape the file holds: TVM's reads the value only as an
        expression another operator computed (a KeyError on a constant one)."""
        dims, value = self.get_input_tensors(op)
        if self.has_expr(dims.tensor_idx):
            return super().convert_fill(op)
        shape = [int(d) for d in np.asarray(self.get_tensor_value(dims)).reshape(-1)]
        return relax.op.full(shape, self.get_tensor_expr(value))

    def convert_embedding_lookup(self, op: Any) -> Any:
        """TFLite's EMBEDDING_LOOKUP: the rows of its second input (the table) at its
        first (the ids), as TFLM reads them (TVM's converter swaps the two). A table of
        another type than the output (TFLM dequantizes an int8 one) is refused."""
        ids, table = self.get_input_tensors(op)
        (out,) = self.get_output_tensors(op)
        if table.tensor.Type() != out.tensor.Type():
            raise tvm.error.OpNotImplemented(
                "EMBEDDING_LOOKUP of a table of another type than its output"
            )
        rows = self._checked_indices(ids, tensor_shape(table.tensor)[0], "EMBEDDING_LOOKUP")
        return relax.op.take(self.get_tensor_expr(table), rows, axis=0, mode="clip")

    def convert_gather(self, op: Any) -> Any:
        """TFLite's GATHER (batch_dims 0) along its axis, an index outside the axis clamped
        into it (TVM's converter takes them unchecked: a read outside the tensor)."""
        from tflite.GatherOptions import GatherOptions

        data, indices = self.get_input_tensors(op)
        shape = tensor_shape(data.tensor)
        axis = options_of(op, GatherOptions).Axis()
        axis = axis + len(shape) if axis < 0 else axis
        at = self._checked_indices(indices, shape[axis], "GATHER")
        return relax.op.take(self.get_tensor_expr(data), at, axis=axis, mode="clip")

    def _checked_indices(self, indices: Any, size: Any, name: str) -> Any:
        """GATHER's, GATHER_ND's or EMBEDDING_LOOKUP's indices into an axis of `size` (or
        GATHER_ND's last dim into dims of `size`s), as int32: constant ones checked (one
        outside is refused: TFLM's Invoke fails on it), those computed at run time
        clamped by the caller (TFLM's Invoke fails; the C library has no error path
        from an operator, so it reads the nearest row instead of outside the tensor)."""
        if not self.has_expr(indices.tensor_idx):
            values = np.asarray(self.get_tensor_value(indices))
            outside = values[(values < 0) | (values >= size)]
            if outside.size:
                where = f"its axis of {size}" if np.ndim(size) == 0 else f"dims {list(size)}"
                raise OperatorRejected(
                    f"{name} index {int(outside.flat[0])} outside {where} "
                    "(TFLM's Invoke fails on it)"
                )
        return relax.op.astype(self.get_tensor_expr(indices), "int32")

    def convert_gather_nd(self, op: Any) -> Any:
        """TFLite's GATHER_ND: the indices' last dim indexes the data's leading dims, as
        Relax's `gather_nd` reads them (TVM's converter moves that dim first, as Relay's
        took them: an output of the wrong shape). Each index is clamped into its dim, as
        GATHER's (`_checked_indices`)."""
        data, indices = self.get_input_tensors(op)
        depth = tensor_shape(indices.tensor)[-1]
        sizes = np.array(tensor_shape(data.tensor)[:depth], np.int64)
        self._checked_indices(indices, sizes, "GATHER_ND")
        at = relax.op.astype(self.get_tensor_expr(indices), "int64")
        # Relax's gather_nd has no clamping mode: each column clamped to its dim's size.
        low, high = relax.const(np.zeros_like(sizes), "int64"), relax.const(sizes - 1, "int64")
        return relax.op.gather_nd(
            self.get_tensor_expr(data), relax.op.minimum(relax.op.maximum(at, low), high)
        )
