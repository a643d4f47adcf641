"""A bound on what is computed at compile time: an expression of constants alone (which
`fold_named_weights` or TVM's `FoldConstant` computes into a constant, in this process's
memory, twice: TVM's tensor and numpy's copy) may make a tensor of at most
`FOLDED_FACTOR` times the bytes of all the model's constants, or `FOLDED_FLOOR` bytes. A
.tflite file of 320 KB broadcasting two constant vectors into a 40000x40000 sum asked for
6 GB; its binding is now one diagnostic, before anything is computed."""

from __future__ import annotations

from typing import Any

import tvm
from tvm import relax

from usmp_dialect.tvm.relax.folded_weights import is_static, leaves_of, op_name
from usmp_dialect.tvm.relax.temporaries import tensor_bytes

FOLDED_FACTOR = 8
"""A decoded weight is 4 times its int8 bytes (float32); a layout change of it, as many."""
FOLDED_FLOOR = 256 << 20


def folding_past_bound(func: Any) -> tuple[str, str] | None:
    """The first binding of `func` (its weights bound) computing a tensor of constants
    alone past the bound (see the module's docstring), and what it computes; None if none."""
    bindings = [
        b for block in func.body.blocks for b in block.bindings if isinstance(b, relax.VarBinding)
    ]
    constants = {
        leaf: tensor_bytes(leaf.ty)
        for binding in bindings
        for leaf in _read(binding.value)
        if isinstance(leaf, tvm.ir.Constant) and is_static(leaf.ty)
    }
    limit = max(FOLDED_FLOOR, FOLDED_FACTOR * sum(constants.values()))
    of_constants: set[Any] = set()
    for binding in bindings:
        value = binding.value
        if isinstance(value, tvm.ir.Constant):
            of_constants.add(binding.var)
            continue
        if op_name(value) is None:
            continue
        leaves = _read(value)
        if not leaves or not all(
            isinstance(leaf, tvm.ir.Constant) or leaf in of_constants for leaf in leaves
        ):
            continue
        of_constants.add(binding.var)
        if is_static(value.ty) and (size := tensor_bytes(value.ty)) > limit:
            return binding.var.name, (
                f"'{op_name(value)}' of constants alone would be computed at compile time "
                f"into {size} bytes, past the limit of {limit} ({FOLDED_FACTOR} times the "
                f"model's constants, at least {FOLDED_FLOOR})"
            )
    return None


def _read(value: Any) -> list[Any]:
    """The tensors a binding's value reads: a call's arguments' (`leaves_of`), or itself."""
    if op_name(value) is None:
        return leaves_of(value)
    return [leaf for arg in value.args for leaf in leaves_of(arg)]
