"""A bias's scale computed from the scales it is the product of, not kept as a constant.

    derived_bias_scales(func) -> func

TFLite quantizes the bias of a convolution or a fully-connected layer at the input's
scale times the weight's, per output channel: TVM's frontend dequantizes it with a float32
array of its own (`R.dequantize(bias, bias_scale)`), one more per-channel array in the
constant pool beside the weight's (`w_scale`). Where the file's bias scales are exactly the
float32 products of the input's scale (one value) and the weight's (checked element by
element: the product of two float32 rounded once to float32, as the file's converter
rounds it), the bias is dequantized with `R.multiply(w_scale, input_scale)` instead: the
operator computes each bias scale where it reads it, the very values the array held (so the
outputs are unchanged), and the array is gone. `expanded_constants_hidden`
(`folded_weights`) keeps the multiply from being folded back into a constant.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tvm
from tvm import relax

from usmp_dialect.tvm.relax.folded_weights import LAYOUT_OPS, op_name

_PRODUCTS = frozenset({"relax.nn.conv2d", "relax.nn.conv1d", "relax.matmul"})


def _constant(expr: Any) -> np.ndarray | None:
    return expr.value.numpy() if isinstance(expr, tvm.ir.Constant) else None


def _dequantize_scale(values: dict[Any, Any], var: Any, layouts: bool) -> Any:
    """The scale constant of the dequantize that computes `var` (through layout changes if
    `layouts`), or None."""
    while layouts and var in values and op_name(values[var]) in LAYOUT_OPS:
        var = values[var].args[0]
    value = values.get(var)
    if value is None or op_name(value) != "relax.dequantize":
        return None
    return value.args[1] if _constant(value.args[1]) is not None else None


def _derivable(values: dict[Any, Any], add: Any) -> tuple[Any, Any, Any] | None:
    """(bias dequantize var, weight scale, input scale) if `add` adds a dequantized bias,
    whose per-channel scales are exactly input scale x weight scales, to a convolution or
    matmul of a dequantized input and a dequantized weight."""
    product, bias = add.args
    if op_name(values.get(bias)) != "relax.dequantize" or product not in values:
        return None
    bias_scale = _constant(values[bias].args[1])
    if bias_scale is None or bias_scale.size == 1 or op_name(values[product]) not in _PRODUCTS:
        return None
    data, weight = values[product].args[:2]
    input_scale = _dequantize_scale(values, data, layouts=False)
    weight_scale = _dequantize_scale(values, weight, layouts=True)
    if input_scale is None or weight_scale is None:
        return None
    input_value, weight_values = _constant(input_scale), _constant(weight_scale)
    if input_value is None or weight_values is None or input_value.size != 1:
        return None
    derived = np.float32(input_value.reshape(())) * weight_values.astype(np.float32)
    if derived.size != bias_scale.size or derived.dtype != bias_scale.dtype:
        return None
    if not np.array_equal(derived.reshape(-1), bias_scale.reshape(-1)):
        return None
    return bias, weight_scale, input_scale


def derived_bias_scales(func: Any) -> Any:
    """`func` with each bias scale that is the product of its input's and its weight's
    computed as that product (see above)."""
    bindings = [b for block in func.body.blocks for b in block.bindings]
    values = {b.var: b.value for b in bindings}
    derived = {}
    for binding in bindings:
        if op_name(binding.value) == "relax.add":
            found = _derivable(values, binding.value)
            if found is not None:
                derived[found[0]] = found[1:]
    if not derived:
        return func
    normalize = relax.BlockBuilder().normalize
    blocks = []
    for block in func.body.blocks:
        rebound = []
        for binding in block.bindings:
            if binding.var not in derived:
                rebound.append(binding)
                continue
            weight_scale, input_scale = derived[binding.var]
            kind = type(binding.var)
            scale = kind(f"{binding.var.name}_scale", weight_scale.ty)
            rebound.append(
                relax.VarBinding(scale, normalize(relax.op.multiply(weight_scale, input_scale)))
            )
            old = binding.value
            call = relax.op.dequantize(
                old.args[0], scale, old.args[2], axis=old.attrs.axis, out_dtype=old.attrs.out_dtype
            )
            rebound.append(relax.VarBinding(binding.var, normalize(call)))
        blocks.append(type(block)(rebound))
    body = relax.SeqExpr(blocks, func.body.body)
    return relax.Function(func.params, body, func.ret_ty, func.is_pure, func.attrs)
