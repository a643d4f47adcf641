"""Outputs that are constants, each copied into its output buffer by an operator.

    constant_outputs_copied(mod, entry) -> mod

A model may return a tensor known at compile time (a TFLite SHAPE of a static shape, which
the import folds to its value): TVM's pipeline leaves it a constant in the result, which no
operator computes, and `main` writes every output buffer by an operator call. As TensorFlow
Lite Micro's SHAPE kernel writes its output tensor, here a copy does: `R.call_tir` of a
PrimFunc copying the constant, bound after the entry's last block.
"""

from __future__ import annotations

from typing import Any


def _copy(constant: Any) -> Any:
    """A block-based PrimFunc copying a tensor of `constant`'s type."""
    from tvm import te

    shape = [int(d) for d in constant.value.shape]
    source = te.placeholder(shape, constant.value.dtype, "constant")
    # A varargs lambda: te.compute counts a tensor's own arguments as 1, wrong for a
    # scalar (an ONNX Size).
    copied = te.compute(shape, lambda *i: source(*i), name="T_copy")  # noqa: PLW0108
    return te.create_prim_func([source, copied])


def _result_fields(body: Any) -> tuple[list[Any], bool]:
    """The entry's returned tensors (a returned var bound to a tuple, that tuple's), and
    whether it returns a tuple."""
    import tvm

    result = body.body
    if isinstance(result, tvm.ir.Var):
        for block in body.blocks:
            for binding in block.bindings:
                if binding.var.same_as(result) and isinstance(binding.value, tvm.ir.Tuple):
                    result = binding.value
    if isinstance(result, tvm.ir.Tuple):
        return list(result.fields), True
    return [result], False


def constant_outputs_copied(mod: Any, entry: str) -> Any:
    """`mod` with each constant its `entry` returns replaced by a copy of it (see above)."""
    import tvm
    from tvm import relax

    func = mod[entry]
    fields, is_tuple = _result_fields(func.body)
    if not any(isinstance(f, tvm.ir.Constant) for f in fields):
        return mod
    builder = relax.BlockBuilder(mod)
    bindings, returned = [], []
    for i, field in enumerate(fields):
        if not isinstance(field, tvm.ir.Constant):
            returned.append(field)
            continue
        copy = builder.add_func(_copy(field), "copy")
        var = relax.Var(f"constant_output{i}", field.ty)
        bindings.append(relax.VarBinding(var, relax.call_tir(copy, [field], field.ty)))
        returned.append(var)
    result = relax.Tuple(returned) if is_tuple else returned[0]
    body = relax.SeqExpr([*func.body.blocks, relax.BindingBlock(bindings)], result)
    copied = builder.get()
    copied[entry] = relax.Function(
        func.params, body, result.ty, func.is_pure, func.attrs, func.span
    )
    return copied
