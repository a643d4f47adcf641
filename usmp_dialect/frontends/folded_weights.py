"""Weights computed at compile time, named after the weights they are computed from.

    fold_named_weights(func, tensors) -> (func, tensors)

TVM's `FoldConstant` computes every expression of weights alone (a transposed, reshaped or
cast weight) into a new constant that keeps no trace of the weight it came from. Here such
a binding of `forward`, `lv = R.permute_dims(fc1_weight)`, is computed first, binding by
binding in order, and becomes `lv = <constant>`: TVM's pipeline then reads the constant
through `lv` and keeps its tensor, which `tensors` names `fc1_weight_permute_dims` (the
first named constant among its arguments, then the Relax op's name). A binding of
constants none of which is named is left to TVM's `FoldConstant`.
"""

from __future__ import annotations

from typing import Any

from usmp_dialect.frontends.relax import fresh_name


def _leaves(expr: Any) -> list[Any]:
    """The tensors a call argument holds: itself, or a tuple's fields, flattened."""
    import tvm

    if isinstance(expr, tvm.ir.Tuple):
        return [leaf for field in expr.fields for leaf in _leaves(field)]
    return [expr]


def _folded(value: Any, bound: list[tuple[Any, Any]]) -> Any:
    """`value` computed by TVM's `FoldConstant`, the vars it reads bound to their constants
    (`bound`); None if it does not fold to one constant tensor."""
    import tvm
    from tvm import relax

    builder = relax.BlockBuilder()
    with builder.function("fold", []):
        with builder.dataflow():
            for var, constant in bound:
                builder.emit_normalized(relax.VarBinding(var, constant))
            result = builder.emit_output(value)
        builder.emit_func_output(result)
    body = relax.transform.FoldConstant()(builder.get())["fold"].body
    folded = body.body if not body.blocks else None
    return folded if isinstance(folded, tvm.ir.Constant) else None


def _bound(value: Any, folded: dict[Any, tuple[Any, str]]) -> list[tuple[Any, Any]]:
    """The folded vars `value` reads, each with its constant."""
    leaves = [leaf for arg in value.args for leaf in _leaves(arg)]
    return [(var, constant) for var, (constant, _) in folded.items() if var in leaves]


def _source_name(
    value: Any, named: list[tuple[Any, str]], folded: dict[Any, tuple[Any, str]]
) -> str | None:
    """The name a folded `value` is derived from: that of its first named constant
    argument; None if an argument is a var not folded (an input, an intermediate). Other
    arguments (shapes, scalars) are static."""
    import tvm

    if not isinstance(value, tvm.ir.Call) or not isinstance(value.op, tvm.ir.Op):
        return None
    names = []
    for leaf in (leaf for arg in value.args for leaf in _leaves(arg)):
        if isinstance(leaf, tvm.ir.Constant):
            names.append(next((n for t, n in named if leaf.value.same_as(t)), None))
        elif isinstance(leaf, tvm.ir.Var):
            if leaf not in folded:
                return None
            names.append(folded[leaf][1])
    return next((n for n in names if n is not None), None)


def fold_named_weights(func: Any, tensors: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """`func` (a Relax function, its weights bound) with each binding of named constants
    alone computed into a named constant, and `tensors` (name -> the tensor a constant
    holds) with their names added; a new name taken gets `_` appended."""
    from tvm import relax

    named = [(tensor, name) for name, tensor in tensors.items()]
    taken = set(tensors)
    folded: dict[Any, tuple[Any, str]] = {}
    blocks = []
    for block in func.body.blocks:
        bindings = []
        for binding in block.bindings:
            source = (
                _source_name(binding.value, named, folded)
                if isinstance(binding, relax.VarBinding)
                else None
            )
            if source is None:
                bindings.append(binding)
                continue
            constant = _folded(binding.value, _bound(binding.value, folded))
            if constant is None:
                bindings.append(binding)
                continue
            name = fresh_name(f"{source}_{binding.value.op.name.rsplit('.', 1)[-1]}", taken)
            folded[binding.var] = (constant, name)
            named.append((constant.value, name))
            bindings.append(relax.VarBinding(binding.var, constant))
        kind = relax.DataflowBlock if isinstance(block, relax.DataflowBlock) else relax.BindingBlock
        blocks.append(kind(bindings))
    if not folded:
        return func, tensors
    body = relax.SeqExpr(blocks, func.body.body)
    func = relax.Function(func.params, body, func.ret_ty, func.is_pure, func.attrs)
    return func, {**tensors, **{name: c.value for c, name in folded.values()}}
