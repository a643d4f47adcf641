"""The first op of a Relax function whose result TVM's legalization makes dynamic, or
that TVM fails to legalize.

    unlowerable_op(func) -> Unlowerable(var, op, error) | None

A frontend may type an op's result statically (TVM's ONNX NonMaxSuppression: at most
every box selected) that its legalization then slices to a length computed from the
input values (`R.tensor_to_shape`, a tensor of symbolic shape). The lowering finds that
only among the bindings TVM's passes made, named `lv8`; this finds the op of the model
itself, each op legalized alone, so a diagnostic can name the operator of the file that
computes it. Likewise an op TVM's lowering fails on (a convolution whose output shape
would be negative) is found as the op whose legalization alone fails. It legalizes every
op once (a second for PaddleOCR's 523): for a diagnostic, not for every import.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any, NamedTuple

import tvm
from tvm import relax

from usmp_dialect.tvm.captured_output import output_captured


def _static(ty: Any) -> bool:
    if isinstance(ty, relax.TensorType):
        dims = ty.shape.values if isinstance(ty.shape, relax.ShapeExpr) else None
        return dims is not None and all(isinstance(d, tvm.tirx.IntImm) for d in dims)
    if isinstance(ty, relax.TupleType):
        return all(_static(field) for field in ty.fields)
    return not isinstance(ty, relax.ShapeType)


def _legalized_alone(var: Any, call: Any) -> Any:
    """A function computing `call` of its free vars, legalized by TVM (target llvm)."""
    result = relax.Var(var.name, var.ty)
    body = relax.SeqExpr([relax.BindingBlock([relax.VarBinding(result, call)])], result)
    func = relax.Function(list(relax.analysis.free_vars(call)), body, var.ty)
    with tvm.target.Target("llvm"):
        return relax.transform.LegalizeOps()(tvm.IRModule({"alone": func}))["alone"]


def _legalized_ops(func: Any) -> Iterator[tuple[Any, str, Any]]:
    """Each op call of `func` in order: its var, the op's name, and its legalization
    alone (`_legalized_alone`), or the exception TVM raised making it."""
    for block in func.body.blocks:
        for binding in block.bindings:
            call = binding.value
            if not isinstance(call, tvm.ir.Call) or not isinstance(call.op, tvm.ir.Op):
                continue
            with output_captured():
                try:
                    legalized = _legalized_alone(binding.var, call)
                except Exception as error:  # TVM fails on the op alone; the caller says why
                    legalized = error.with_traceback(None)
                if isinstance(legalized, Exception):
                    # TVM's BlockBuilder, freed with the traceback, logs a warning on fd 2.
                    gc.collect()
            yield binding.var, call.op.name, legalized


class Unlowerable(NamedTuple):
    """An op call of a function TVM cannot lower to a static plan: its var, the op's name,
    and TVM's error legalizing it (`Type: message`), or None if its legalization computes
    a value of dynamic shape."""

    var: Any
    op: str
    error: str | None


def unlowerable_op(func: Any) -> Unlowerable | None:
    """The first op call in `func` whose legalization computes a value of dynamic shape,
    else the first TVM fails to legalize; None if there is neither."""
    failing = None
    for var, op, legalized in _legalized_ops(func):
        if isinstance(legalized, Exception):
            failing = failing or Unlowerable(var, op, f"{type(legalized).__name__}: {legalized}")
            continue
        computed = [b.var.ty for b in legalized.body.blocks for b in b.bindings]
        if not all(_static(ty) for ty in computed):
            return Unlowerable(var, op, None)
    return failing
