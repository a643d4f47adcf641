"""Intermediates keep their names through fusion.

    named_fusion(fusion, entry) -> pass         `fusion`, then `keep_fused_names`
    renamed(body, constants, names) -> body     Relax `body`, constants and vars replaced

TVM's `FuseOps` (and `FuseOpsByPattern`) bind each fused call to a new var `lv`, and the
grouped function returns its result as `gv`: the name of the tensor the group computes is
lost. The fused call is emitted where the group's last binding was, and the grouped
function computes its result with the PrimFunc that binding called, so
`keep_fused_names` walks the bindings before and after fusion together: each fused call's
var is named as the first binding fusion absorbed (after the last one matched, else the
first not matched yet) that calls the same PrimFunc with a result of the same type,
unless that name is one of the BlockBuilder's own (`lv3`, `gv`), which name nothing of
the user's.
"""

from __future__ import annotations

import re
from typing import Any

import tvm
from tvm import relax

from usmp_dialect.tvm.relax.names import fresh_name

_BUILDER_NAME = re.compile(r"[lg]v\d*|param_\d+")


def renamed(body: Any, constants: dict[Any, Any], names: dict[Any, str]) -> Any:
    """`body` reading each constant in `constants` as the expr it maps to, and each var
    bound in `names` by its new name."""

    @relax.expr_functor.mutator
    class Renamer(relax.PyExprMutator):
        def visit_generic_const_(self, const: Any) -> Any:
            return constants.get(const, const)

        def visit_var_binding_(self, binding: Any) -> None:
            value = self.visit_expr(binding.value)
            var = binding.var
            if var in names:
                make = relax.DataflowVar if isinstance(var, relax.DataflowVar) else relax.Var
                new = make(names[var], var.ty)
                self.set_var_remap(var, new)
                var = new
            self.builder_.emit_normalized(relax.VarBinding(var, value))

    return Renamer().visit_expr(body)


def _callee(value: Any, values: dict[Any, Any]) -> str | None:
    """The PrimFunc an `R.call_tir` calls, by name; for an item of the tuple such a call
    returns (as a batch norm's), that name and the item's index (`values`: what each var
    of the function is bound to)."""
    if isinstance(value, relax.TupleGetItem):
        tuple_callee = _callee(values.get(value.tuple_value), values)
        return None if tuple_callee is None else f"{tuple_callee}[{value.index}]"
    call_tir = tvm.ir.Op.get("relax.call_tir")
    if isinstance(value, tvm.ir.Call) and value.op.same_as(call_tir):
        return str(value.args[0].name_hint)
    return None


def _bound_values(func: Any) -> dict[Any, Any]:
    return {b.var: b.value for block in func.body.blocks for b in block.bindings}


def _group_output_callee(mod: Any, value: Any) -> str | None:
    """The PrimFunc the call a grouped Relax function returns the result of calls."""
    if not isinstance(value, tvm.ir.Call) or not isinstance(value.op, tvm.ir.GlobalVar):
        return None
    func = mod[value.op]
    if not isinstance(func, relax.Function) or not isinstance(func.body, relax.SeqExpr):
        return None
    bindings = _bound_values(func)
    return _callee(bindings.get(func.body.body), bindings)


def _absorbed_names(before: Any, mod: Any, entry: str) -> dict[Any, str]:
    """Each var of a fused call in `mod`'s `entry`, by the name of the binding of `before`
    (the entry before fusion) it computes: the first binding, after the last matched, that
    fusion absorbed and that calls what the group's result is computed by, of its type."""
    after = [b for block in mod[entry].body.blocks for b in block.bindings]
    kept = {b.var for b in after}
    values = _bound_values(before)
    absorbed = [
        (b, _callee(b.value, values), str(b.var.ty))
        for block in before.body.blocks
        for b in block.bindings
        if b.var not in kept
    ]
    names: dict[Any, str] = {}
    start = 0
    used: set[int] = set()
    for binding in after:
        callee = _group_output_callee(mod, binding.value)
        if callee is None:
            continue
        ty = str(binding.var.ty)
        # After the last matched, else any not matched yet: a group of the model's output
        # tail (a streaming state's slice and reshape) is emitted before that tail was.
        order = [*range(start, len(absorbed)), *range(start)]
        found = next((i for i in order if i not in used and absorbed[i][1:] == (callee, ty)), None)
        if found is None:
            continue
        start = found + 1
        used.add(found)
        original = absorbed[found][0].var
        if not _BUILDER_NAME.fullmatch(original.name):
            names[binding.var] = str(original.name)
    return names


def keep_fused_names(before: Any, mod: Any, entry: str) -> Any:
    """`mod` after a fusion pass, with each var of `entry` that a fused call computes
    named as the binding of `before` (the module before it) whose result it is."""
    func = mod[entry]
    bound = [b.var for block in func.body.blocks for b in block.bindings]
    taken = {str(p.name) for p in func.params} | {str(v.name) for v in bound}
    names = {
        var: fresh_name(name, taken)
        for var, name in _absorbed_names(before[entry], mod, entry).items()
    }
    if not names:
        return mod
    out = mod.clone()
    out[entry] = relax.Function(
        func.params, renamed(func.body, {}, names), func.ret_ty, func.is_pure, func.attrs
    )
    return out


def named_fusion(fusion: Any, entry: str) -> Any:
    """The `fusion` pass, then `keep_fused_names` of `entry`, as one module pass."""
    return tvm.transform.module_pass(
        lambda mod, _: keep_fused_names(mod, fusion(mod), entry),
        opt_level=0,
        name=f"Named{fusion.info.name}",
    )
