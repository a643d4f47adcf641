"""The first op of a Relax function whose result TVM's legalization makes dynamic.

    dynamic_after_legalization(func) -> (its var, the op's name) | None

A frontend may type an op's result statically (TVM's ONNX NonMaxSuppression: at most
every box selected) that its legalization then slices to a length computed from the
input values (`R.tensor_to_shape`, a tensor of symbolic shape). The lowering finds that
only among the bindings TVM's passes made, named `lv8`; this finds the op of the model
itself, each op legalized alone, so a diagnostic can name the operator of the file that
computes it. It legalizes every op once (a second for PaddleOCR's 523): for a diagnostic,
not for every import.
"""

from __future__ import annotations

from typing import Any


def _static(ty: Any) -> bool:
    import tvm
    from tvm import relax

    if isinstance(ty, relax.TensorType):
        dims = ty.shape.values if isinstance(ty.shape, relax.ShapeExpr) else None
        return dims is not None and all(isinstance(d, tvm.tirx.IntImm) for d in dims)
    if isinstance(ty, relax.TupleType):
        return all(_static(field) for field in ty.fields)
    return not isinstance(ty, relax.ShapeType)


def _legalized_alone(var: Any, call: Any) -> Any:
    """A function computing `call` of its free vars, legalized by TVM (target llvm)."""
    import tvm
    from tvm import relax

    result = relax.Var(var.name, var.ty)
    body = relax.SeqExpr([relax.BindingBlock([relax.VarBinding(result, call)])], result)
    func = relax.Function(list(relax.analysis.free_vars(call)), body, var.ty)
    with tvm.target.Target("llvm"):
        return relax.transform.LegalizeOps()(tvm.IRModule({"alone": func}))["alone"]


def dynamic_after_legalization(func: Any) -> tuple[Any, str] | None:
    """The var of the first op call in `func` whose legalization computes a value of
    dynamic shape, and the op's name; None if there is none."""
    import tvm

    for block in func.body.blocks:
        for binding in block.bindings:
            call = binding.value
            if not isinstance(call, tvm.ir.Call) or not isinstance(call.op, tvm.ir.Op):
                continue
            try:
                legalized = _legalized_alone(binding.var, call)
            except Exception:  # TVM fails on the op alone: the lowering's error says why
                continue
            computed = [b.var.ty for b in legalized.body.blocks for b in b.bindings]
            if not all(_static(ty) for ty in computed):
                return binding.var, call.op.name
    return None
