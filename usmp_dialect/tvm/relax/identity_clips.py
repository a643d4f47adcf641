"""Clips to the whole range of their integer dtype dropped.

    identity_clips_dropped(func) -> func

TVM's TFLite frontend applies a quantized operator's fused activation as an `R.clip` of
its int8 result, and a RELU whose output zero point is -128 (TFLite's converter puts a
RELU's output range [0, max] there) clips to [-128, 127]: the whole int8 range, the
identity. Each such clip costs a legalization, a member of its operator's fusion and a
block of its kernel, computing nothing. Here its operand's binding takes the clip's var
instead (the tensor keeps the name the file gives it) and the clip is dropped, where the
clip is the operand's only reader; the values are those the clip computed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from tvm import relax

from usmp_dialect.tvm.relax.folded_weights import op_name, readers


def _identity_clip(value: Any) -> bool:
    """Whether `value` is an `R.clip` of an integer tensor to bounds its dtype's range
    lies within."""
    if op_name(value) != "relax.clip":
        return False
    dtype = np.dtype(str(value.ty.dtype))
    if dtype.kind not in "iu":
        return False
    low, high = (getattr(bound, "value", None) for bound in value.args[1:])
    if not (isinstance(low, int | float) and isinstance(high, int | float)):
        return False
    return low <= np.iinfo(dtype).min and high >= np.iinfo(dtype).max


def identity_clips_dropped(func: Any) -> Any:
    """`func` (a Relax function) without the clips of its computed tensors that compute
    the identity (see the module docstring)."""
    bindings = [b for block in func.body.blocks for b in block.bindings]
    computed = {b.var for b in bindings}
    reads = readers(func)
    # operand -> the var of the clip that reads it alone
    clipped = {
        b.value.args[0]: b.var
        for b in bindings
        if _identity_clip(b.value) and b.value.args[0] in computed and reads[b.value.args[0]] == 1
    }
    if not clipped:
        return func
    dropped = set(clipped.values())
    blocks = []
    for block in func.body.blocks:
        kept = [
            relax.VarBinding(clipped[b.var], b.value) if b.var in clipped else b
            for b in block.bindings
            if b.var not in dropped
        ]
        kind = relax.DataflowBlock if isinstance(block, relax.DataflowBlock) else relax.BindingBlock
        blocks.append(kind(kept))
    body = relax.SeqExpr(blocks, func.body.body)
    return relax.Function(func.params, body, func.ret_ty, func.is_pure, func.attrs)
