"""Constants a (de)quantize reads, stored in fewer bytes with the same values.

    narrowed_dequantized_constants(func, tensors, widening) -> (func, tensors)
    widening_kernels(mod) -> {kernel: argument positions}
    uniform_scales_as_scalars(func) -> func

TFLite stores a bias as int32, at the input's scale times the weight's: most biases'
values need far fewer bits (microWakeWord's depthwise biases lie within ±1,300, most of its
convolutions' within ±21,000). TVM's `R.dequantize` computes
`float32(int32(x) - zero_point) * scale` whatever the integer type of `x`, so an int32
constant whose values all fit in int8 (or int16) is dequantized to the very same floats from
an int8 (int16) copy: the constant pool holds a quarter (half) of its bytes, the operator
widens each value as it reads it, and every output is unchanged. The copy is named after
the constant with its type appended (`conv_bias_int16`); the entry records the file's
name of each (`usmp.narrowed_constants`: `conv_bias` is stored as `conv_bias_int16`), so
that an override given under the file's name, in the file's type, is converted when its
values fit and refused, naming the values that do not, when they don't
(`usmp-translate --constant-storage=file` keeps such constants at the file's type).

A kernel of ours that widens an argument where it reads it (a quantized convolution's
bias, `model_files.int8_weighted_kernels`; its PrimFunc's `usmp.widened_args` lists the
positions) reads such a constant's narrowest copy widened by an `R.astype` before it,
which the lowering fuses into the kernel as it fuses a dequantize (`folded_weights`,
`temporaries`): the kernel reads the narrow copy, each value the same.

A tensor quantized per channel whose channels share one scale and one zero point (a
converter may write per-channel arrays of equal values) is (de)quantized with those two
scalars instead: each element meets the same scale and zero point, so the values are the
same; no per-channel array is stored, and a weight's dequantize is then per tensor, which
commutes with the layout changes computed at compile time (`folded_weights`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import tvm
from tvm import relax, tirx

from usmp_dialect.tvm.relax.folded_weights import op_name
from usmp_dialect.tvm.relax.names import fresh_name

WIDENED_ARGS = "usmp.widened_args"
"""The PrimFunc attribute of a kernel listing the positions of the arguments it widens
where it reads them."""

_NARROWER = (np.int8, np.int16)
FILE_DTYPE = "int32"
"""The type in the file of every constant stored narrower."""
FILE_STORAGE_OPTION = "--constant-storage=file"
"""The import option that keeps each constant as the file stores it."""


def narrowest(values: np.ndarray) -> np.ndarray | None:
    """`values` (int32) in the narrowest of int8 and int16 that holds them all, or None
    if none does (or they are not int32)."""
    if values.dtype != np.dtype(FILE_DTYPE) or values.size == 0:
        return None
    low, high = values.min(), values.max()
    for dtype in _NARROWER:
        info = np.iinfo(dtype)
        if info.min <= low and high <= info.max:
            return values.astype(dtype)
    return None


class Narrowed(NamedTuple):
    """`narrowed_dequantized_constants`' result: the function, `tensors` with the copies
    added, and the name of each copied tensor's copy."""

    func: Any
    tensors: dict[str, Any]
    copies: dict[str, str]


def widening_kernels(mod: Any) -> dict[Any, set[int]]:
    """The PrimFuncs of `mod` that widen arguments where they read them, and the
    positions of those arguments."""
    return {
        gvar: {int(i) for i in func.attrs[WIDENED_ARGS]}
        for gvar, func in mod.functions.items()
        if isinstance(func, tirx.PrimFunc) and func.attrs and WIDENED_ARGS in func.attrs
    }


class _Copies:
    """The narrowest copy of each int32 constant, made once, and the name of each copy
    of a named tensor."""

    def __init__(self, tensors: dict[str, Any]) -> None:
        self.tensors = tensors
        self.taken = set(tensors)
        self.named = dict(tensors)
        self.names: dict[str, str] = {}
        self.copies: dict[Any, Any] = {}  # constant -> its narrowed copy, or None

    def of(self, stored: Any) -> Any:
        """`stored`'s narrowest copy, or None if it has none (not an int32 constant, or
        values that need int32)."""
        if not isinstance(stored, tvm.ir.Constant):
            return None
        if stored not in self.copies:
            narrowed = narrowest(stored.value.numpy())
            self.copies[stored] = None if narrowed is None else relax.const(narrowed)
            name = next((n for n, t in self.tensors.items() if stored.value.same_as(t)), None)
            if narrowed is not None and name is not None:
                self.names[name] = fresh_name(f"{name}_{narrowed.dtype}", self.taken)
                self.named[self.names[name]] = self.copies[stored].value
        return self.copies[stored]


def narrowed_dequantized_constants(
    func: Any, tensors: dict[str, Any], widening: dict[Any, set[int]] | None = None
) -> Narrowed:
    """`func` with each int32 constant a dequantize reads, or a `widening` kernel widens
    (`widening_kernels`), replaced by its narrowest copy (see above), and `tensors` (name
    -> tensor) with the copies named after the tensors they copy."""
    copies = _Copies(tensors)
    blocks = []
    for block in func.body.blocks:
        bindings = []
        for binding in block.bindings:
            value = binding.value
            if op_name(value) == "relax.dequantize" and (copy := copies.of(value.args[0])):
                call = relax.op.dequantize(
                    copy, *value.args[1:], axis=value.attrs.axis, out_dtype=value.attrs.out_dtype
                )
                bindings.append(relax.VarBinding(binding.var, relax.BlockBuilder().normalize(call)))
            elif op_name(value) == "relax.call_tir" and value.args[0] in (widening or {}):
                bindings += _widened_call(binding, widening[value.args[0]], copies)  # type: ignore[index]
            else:
                bindings.append(binding)
        blocks.append(type(block)(bindings))
    if not any(copy is not None for copy in copies.copies.values()):
        return Narrowed(func, tensors, {})
    body = relax.SeqExpr(blocks, func.body.body)
    narrowed = relax.Function(func.params, body, func.ret_ty, func.is_pure, func.attrs)
    return Narrowed(narrowed, copies.named, copies.names)


def _widened_call(binding: Any, positions: set[int], copies: _Copies) -> list[Any]:
    """The bindings of a kernel's call reading, at `positions`, the narrowest copies of
    its constant arguments widened back by an `R.astype` each."""
    builder = relax.BlockBuilder()
    callee, args, *rest = binding.value.args
    fields, bindings = list(args.fields), []
    for position in sorted(positions):
        copy = copies.of(fields[position])
        if copy is None:
            continue
        widened = builder.normalize(relax.op.astype(copy, str(fields[position].ty.dtype)))
        var = relax.DataflowVar(f"{binding.var.name}_widened{position}", widened.ty)
        bindings.append(relax.VarBinding(var, widened))
        fields[position] = var
    if not bindings:
        return [binding]
    value = binding.value
    call = tvm.ir.Call(value.op, [callee, relax.Tuple(fields), *rest], value.attrs, value.ty_args)
    return [*bindings, relax.VarBinding(binding.var, builder.normalize(call))]


_QUANTIZATIONS = frozenset({"relax.quantize", "relax.dequantize"})


def _as_scalar(expr: Any) -> Any:
    """`expr` if it is a constant of one element; a rank-0 constant of its value if it is
    a constant of more, all equal; else None."""
    if not isinstance(expr, tvm.ir.Constant):
        return None
    values = expr.value.numpy()
    if values.size == 1:
        return expr
    if values.size == 0 or not np.all(values == values.reshape(-1)[0]):
        return None
    return relax.const(values.reshape(-1)[0], str(values.dtype))


def uniform_scales_as_scalars(func: Any) -> Any:
    """`func` with each quantize and dequantize whose per-channel scale and zero point are
    each equal across channels given them as scalars (see above)."""
    blocks, changed = [], False
    for block in func.body.blocks:
        bindings = []
        for binding in block.bindings:
            value = binding.value
            if op_name(value) not in _QUANTIZATIONS:
                bindings.append(binding)
                continue
            scalars = [_as_scalar(a) for a in value.args[1:]]
            given = value.args[1:]
            if None in scalars or all(a.same_as(b) for a, b in zip(scalars, given, strict=True)):
                bindings.append(binding)
                continue
            call = tvm.ir.Call(value.op, [value.args[0], *scalars], value.attrs)
            bindings.append(relax.VarBinding(binding.var, relax.BlockBuilder().normalize(call)))
            changed = True
        blocks.append(type(block)(bindings))
    if not changed:
        return func
    body = relax.SeqExpr(blocks, func.body.body)
    return relax.Function(func.params, body, func.ret_ty, func.is_pure, func.attrs)
