"""Intermediates keep their names through fusion.

    renamed(body, constants, names) -> body     Relax `body`, constants and vars replaced
    KeepFusedNames()                            a module pass, between FuseOps and FuseTIR

TVM's `FuseOps` (and `FuseOpsByPattern`) bind each fused call to a new var `lv`, losing
the name of the tensor the group computes; the grouped Relax functions a tensor is passed
to still name their param after it. `keep_fused_names` renames the var after that param,
unless it is one of the BlockBuilder's own names (`lv3`, `gv`, or FuseOps' `param_0`),
which name nothing of the user's. (A tensor no grouped function reads, the output, keeps
the var FuseOps gave it.)
"""

from __future__ import annotations

import re
from typing import Any

from usmp_dialect.frontends.relax import fresh_name

_BUILDER_NAME = re.compile(r"[lg]v\d*|param_\d+")


def renamed(body: Any, constants: dict[Any, Any], names: dict[Any, str]) -> Any:
    """`body` reading each constant in `constants` as the expr it maps to, and each var
    bound in `names` by its new name."""
    from tvm import relax

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


def _argument_names(mod: Any, value: Any) -> list[tuple[Any, str]]:
    """(var, name) for each var argument of a call to a grouped (fused) Relax function, the
    name of the param it is passed as, where that is the user's."""
    import tvm
    from tvm import relax

    if not isinstance(value, tvm.ir.Call) or not isinstance(value.op, tvm.ir.GlobalVar):
        return []
    func = mod[value.op]
    if not isinstance(func, relax.Function):
        return []
    return [
        (arg, str(param.name))
        for arg, param in zip(value.args, func.params, strict=False)
        if isinstance(arg, tvm.ir.Var) and not _BUILDER_NAME.fullmatch(param.name)
    ]


def keep_fused_names(mod: Any, entry: str) -> Any:
    """`mod` with each var of `entry` that a fused call computes named as the grouped
    functions it is passed to name their param (see the module docstring)."""
    from tvm import relax

    func = mod[entry]
    bound = [b.var for block in func.body.blocks for b in block.bindings]
    taken = {str(p.name) for p in func.params} | {str(v.name) for v in bound}
    names: dict[Any, str] = {}
    for block in func.body.blocks:
        for binding in block.bindings:
            for var, name in _argument_names(mod, binding.value):
                if var not in names and var in bound and name != var.name:
                    names[var] = fresh_name(name, taken)
    if not names:
        return mod
    out = mod.clone()
    out[entry] = relax.Function(
        func.params, renamed(func.body, {}, names), func.ret_ty, func.is_pure, func.attrs
    )
    return out
