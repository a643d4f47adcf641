"""TVM's `LegalizeOps`, each operator signature legalized once.

    legalize_ops_once() -> pass        in place of `relax.transform.LegalizeOps()`

`LegalizeOps` calls an op's legalization for every call of it: the op's TE compute,
then `te.create_prim_func` (a convolution's about 2 ms), then the `BlockBuilder` finds
the PrimFunc structurally equal to one it holds and returns that one's `GlobalVar`. Calls
of one op with equal attrs and argument types (an int8 model's `dequantize`, `quantize`
and `clip` of each layer alike; a stack of equal convolutions) make equal PrimFuncs: here
the first such call is legalized by TVM's own function, and each later one becomes the
same `R.call_tir` of the same `GlobalVar` on its own arguments, the module TVM's
`LegalizeOps` makes, built without making its PrimFunc again.

A legalization's PrimFunc depends on the types of the tensors it takes as arguments, and
on the values of what it takes inlined (a scalar constant scale, a `clip`'s bounds): a
call reuses a PrimFunc when the first call's tensor arguments are exactly its own
arguments (a call of one `R.call_tir`, no symbolic shape vars) and every other argument
is structurally equal to the first call's, values included. Any other legalization (one
emitting several calls, computing an argument) is TVM's, call by call.
"""

from __future__ import annotations

from typing import Any

import tvm
import tvm_ffi
from tvm import relax

from usmp_dialect.tvm.relax.nodes import nodes_of

# What a call's argument is, besides its type: its kind decides whether a legalization
# may take it inlined (a scalar constant's value) or as a tensor (a var's).
_VAR, _CONSTANT, _OTHER = "var", "constant", "other"


def legalize_ops_once() -> Any:
    """A module pass: `relax.transform.LegalizeOps()` with one legalization per operator
    signature (see the module docstring)."""

    def legalize(mod: Any, _: Any) -> Any:
        ops = {str(op.name) for op in _called_ops(mod)}
        defaults = {name: tvm.ir.Op.get(name).get_attr("FLegalize") for name in ops}
        reuse = _Legalizations()
        customized = {
            name: reuse.legalization(default) for name, default in defaults.items() if default
        }
        return relax.transform.LegalizeOps(customized)(mod)

    return tvm.transform.module_pass(legalize, opt_level=0, name="LegalizeOps")


def _called_ops(mod: Any) -> list[Any]:
    """The ops the Relax functions of `mod` call."""
    calls = [
        call
        for func in mod.functions.values()
        if isinstance(func, relax.Function)
        for call in nodes_of(tvm.ir.Call, func)
    ]
    return [call.op for call in calls if isinstance(call.op, tvm.ir.Op)]


def _leaves(arg: Any) -> list[Any]:
    """The exprs an argument holds: itself, or a tuple's fields, flattened."""
    if isinstance(arg, tvm.ir.Tuple):
        return [leaf for field in arg.fields for leaf in _leaves(field)]
    return [arg]


def _signature(call: Any) -> Any:
    """What a legalization of `call` could make different PrimFuncs of, but for the
    values of its constants and other non-var leaves: the op, its attrs, and each leaf's
    kind and type, in a hashable structural key."""

    def kind(leaf: Any) -> str:
        if isinstance(leaf, tvm.ir.Var):
            return _VAR
        return _CONSTANT if isinstance(leaf, tvm.ir.Constant) else _OTHER

    shape = [len(_leaves(arg)) if isinstance(arg, tvm.ir.Tuple) else -1 for arg in call.args]
    leaves = [[kind(leaf), leaf.ty] for arg in call.args for leaf in _leaves(arg)]
    key = [call.op, call.attrs, list(call.ty_args), shape, leaves]
    # tvm_ffi's stub declares its FFI fields as the constructor's, not `StructuralKey(key)`.
    return tvm_ffi.StructuralKey(key)  # type: ignore[call-arg]


class _Reusable:
    """A call's legalization, `R.call_tir(gvar, (leaf, ...))`, as a template: which leaf
    of the call each tensor argument is, and the leaves it does not take as arguments,
    which a call reusing it must equal."""

    def __init__(self, call: Any, legalized: Any, positions: list[int]) -> None:
        self.legalized = legalized
        self.positions = positions
        leaves = [leaf for arg in call.args for leaf in _leaves(arg)]
        self.inlined = {i: leaf for i, leaf in enumerate(leaves) if i not in positions}

    def applied(self, call: Any) -> Any:
        """`call`'s legalization by this template; None if a leaf it takes inlined differs."""
        leaves = [leaf for arg in call.args for leaf in _leaves(arg)]
        if not all(tvm_ffi.structural_equal(leaves[i], leaf) for i, leaf in self.inlined.items()):
            return None
        gvar, _ = self.legalized.args
        arguments = tvm.ir.Tuple([leaves[i] for i in self.positions])
        return tvm.ir.Call(
            self.legalized.op, [gvar, arguments], self.legalized.attrs, self.legalized.ty_args
        )


def _template(call: Any, legalized: Any) -> _Reusable | None:
    """`legalized` (the legalization of `call`) as a template, if it is one `R.call_tir`
    of the call's own leaves and no shape vars; else None."""
    call_tir = tvm.ir.Op.get("relax.call_tir")
    if not (isinstance(legalized, tvm.ir.Call) and legalized.op.same_as(call_tir)):
        return None
    if len(legalized.args) != 2 or not isinstance(legalized.args[1], tvm.ir.Tuple):
        return None
    leaves = [leaf for arg in call.args for leaf in _leaves(arg)]
    positions = []
    for argument in legalized.args[1].fields:
        found = [i for i, leaf in enumerate(leaves) if leaf.same_as(argument)]
        if len(found) != 1:
            return None
        positions.append(found[0])
    return _Reusable(call, legalized, positions)


class _Legalizations:
    """The templates of one `LegalizeOps` run, by signature (a `GlobalVar` is of the
    module that run builds)."""

    def __init__(self) -> None:
        self._templates: dict[Any, list[_Reusable]] = {}

    def legalization(self, default: Any) -> Any:
        """`default` (an op's `FLegalize`), reusing the PrimFunc of an equal call."""

        def legalize(builder: Any, call: Any) -> Any:
            templates = self._templates.setdefault(_signature(call), [])
            for template in templates:
                applied = template.applied(call)
                if applied is not None:
                    return applied
            legalized = default(builder, call)
            made = _template(call, legalized)
            if made is not None:
                templates.append(made)
            return legalized

        return legalize
