"""What the converters of TFLM's signal operators (`tflm_signal`) share: reading an
operator's tensors and options as TFLM's Prepare checks them, emitting a kernel as one
operator fused with no other (or one writing its state in place), and the TIR constants
and integer helpers of TFLM's arithmetic."""

from __future__ import annotations

import math
from typing import Any

from tvm import relax, tirx
from tvm.relax.frontend.tflite.tflite_frontend import get_tensor_name

from usmp_dialect.dialects.usmp import IN_PLACE_ATTR
from usmp_dialect.tvm.model_files.int8_unweighted_kernels import OPAQUE
from usmp_dialect.tvm.model_files.onnx_operators import OperatorRejected
from usmp_dialect.tvm.model_files.tflite_tensors import tensor_shape
from usmp_dialect.tvm.relax.temporaries import SIGNAL_KERNEL_ATTR

# What a carrying converter returns first: each state's (tensor it is named after, value
# after the run).
States = list[tuple[Any, Any]]


def shape_of(tensor: Any) -> list[int]:
    return tensor_shape(tensor.tensor)


def type_of(converter: Any, tensor: Any) -> str:
    return str(converter.get_tensor_type_str(tensor.tensor.Type()))


def emit_kernel(converter: Any, kernel: Any, *args: Any, primfunc_name_hint: str) -> Any:
    """`kernel`'s call emitted as one operator fused with no other (as TFLM runs it; its
    expressions read their operands several times, which fusion would multiply)."""
    return converter.bb.emit_te(
        kernel,
        *args,
        primfunc_name_hint=primfunc_name_hint,
        primfunc_attrs={"op_pattern": OPAQUE, SIGNAL_KERNEL_ATTR: 1},
    )


def checked_tensors(
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
            if type_of(converter, tensor) != dtype:
                raise OperatorRejected(
                    f"its {name} is {type_of(converter, tensor)}, TFLM's kernel takes {dtype}"
                )
            shape = shape_of(tensor)
            if rank is not None and len(shape) != rank:
                raise OperatorRejected(f"its {name} is of rank {len(shape)}, TFLM's is {rank}")
    return found_in, found_out


def option(options: dict[str, Any], name: str) -> int:
    if name not in options:
        raise OperatorRejected(f"its options have no '{name}'")
    return int(options[name])


def check_same_length(name: str, shape: list[int], length: int, what: str) -> None:
    if math.prod(shape) != length:
        raise OperatorRejected(f"its {name} is {shape}, {what} makes [{length}]")


def as_u32(value: Any) -> Any:
    return value.astype("uint32")


def const(value: int, dtype: str) -> Any:

    return tirx.const(value, dtype)


def most_significant_bit(x: Any) -> Any:
    """GCC's MostSignificantBit32 of the uint32 `x`: 32 - its leading zeros, 32 for 0,
    as int32: floor(log2(x)) + 1, x as a double (exact: a power of two's log2 is exact,
    and 2^k - 1's is 2^-k below k, a billion ulps at least). TIR has no count of leading
    zeros, and TE shares no subexpression: a search's nested selects grow exponentially,
    a count of bits 32-fold in each place the result is read."""

    positive = tirx.max(x, const(1, "uint32"))
    exponent = tirx.floor(tirx.log2(positive.astype("float64"))).astype("int32")
    return tirx.Select(x == const(0, "uint32"), const(32, "int32"), exponent + 1)


def set_outputs(converter: Any, tensors: list[Any], values: list[Any]) -> None:

    for tensor, value in zip(tensors, values, strict=True):
        converter.exp_tab.set_expr(get_tensor_name(converter.subgraph, tensor.tensor_idx), value)


def emit_in_place(
    converter: Any, kernel: Any, *args: Any, pairs: list[list[int]], primfunc_name_hint: str
) -> Any:
    """`kernel`'s call emitted as `emit_kernel` does, its `usmp.in_place` `pairs`: the state it
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


def tuple_item(converter: Any, value: Any, index: int) -> Any:
    return converter.bb.emit(relax.TupleGetItem(value, index))


def flat_rows(converter: Any, x: Any, shape: list[int]) -> tuple[int, Any]:
    rows = math.prod(shape[:-1])
    data = converter.get_tensor_expr(x)
    return rows, converter.bb.emit(relax_reshape(data, [rows, shape[-1]]))


def relax_reshape(value: Any, shape: list[int]) -> Any:

    return relax.op.reshape(value, shape)
