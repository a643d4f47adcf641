"""Outputs no operator writes into a buffer of their own, each copied into its output
buffer by an operator.

    outputs_copied(mod, entry, state) -> mod

`main` writes every output buffer by an operator call, each output its own buffer. Two
kinds of result have none, and a third one its operator cannot write:

- a tensor known at compile time (a TFLite SHAPE of a static shape, which the import folds
  to its value): TVM's pipeline leaves it a constant in the result, which no operator
  computes. As TensorFlow Lite Micro's SHAPE kernel writes its output tensor, a copy does.
- a tensor returned earlier in the result, itself or a view of it (`R.reshape`): a float
  LSTM of one time step returns its hidden state after the step as its output and as the
  state TFLM keeps for the next call (`tflite_state`), which TFLM's kernel copies into its
  output tensor; a Relax function may return one tensor twice. The later one is a copy.
- a state's value after the run (`state`, the params of the values before, pair in order
  with the last results) that an operator computes from the value before, but not in place
  (`usmp.in_place`): one step of an LSTM computes its cell from the cell before, in one
  fused operator. `tir-state-to-allocations` makes a state one buffer only when every read
  of the value before comes before the write of the value after; a copy of the operator's
  output is that write (else the state would stay an input and an output).

A copy is `R.call_tir` of a PrimFunc copying the tensor, bound after the entry's last block.
"""

from __future__ import annotations

from typing import Any

import tvm
from tvm import relax, te

from usmp_dialect.dialects.usmp import IN_PLACE_ATTR
from usmp_dialect.tvm.relax.folded_weights import is_static


def _copy(shape: list[int], dtype: str) -> Any:
    """A block-based PrimFunc copying a tensor of `shape` and `dtype`."""
    source = te.placeholder(shape, dtype, "source")
    # A varargs lambda: te.compute counts a tensor's own arguments as 1, wrong for a
    # scalar (an ONNX Size).
    copied = te.compute(shape, lambda *i: source(*i), name="T_copy")  # noqa: PLW0108
    return te.create_prim_func([source, copied])


def _result_fields(body: Any) -> tuple[list[Any], bool]:
    """The entry's returned tensors (a returned var bound to a tuple, that tuple's), and
    whether it returns a tuple."""
    result = body.body
    if isinstance(result, tvm.ir.Var):
        for block in body.blocks:
            for binding in block.bindings:
                if binding.var.same_as(result) and isinstance(binding.value, tvm.ir.Tuple):
                    result = binding.value
    if isinstance(result, tvm.ir.Tuple):
        return list(result.fields), True
    return [result], False


def _buffers(body: Any) -> tuple[dict[Any, Any], dict[Any, Any]]:
    """Each var bound to another tensor's buffer (a var, a view, an element of a tuple the
    entry builds), and that tensor, as the lowering takes them; each var an `R.call_tir`
    computes, and that call."""
    reshape = tvm.ir.Op.get("relax.reshape")
    call_tir = tvm.ir.Op.get("relax.call_tir")
    tuples: dict[Any, list[Any]] = {}
    buffers: dict[Any, Any] = {}
    calls: dict[Any, Any] = {}
    for block in body.blocks:
        for binding in block.bindings:
            var, value = binding.var, binding.value
            source = None
            if isinstance(value, tvm.ir.Call) and value.op == call_tir:
                calls[var] = value
            elif isinstance(value, tvm.ir.Var):
                source = value
            elif isinstance(value, tvm.ir.Call) and value.op == reshape:
                source = value.args[0]
            elif isinstance(value, relax.TupleGetItem) and value.tuple_value in tuples:
                source = tuples[value.tuple_value][value.index]
            elif isinstance(value, tvm.ir.Tuple):
                tuples[var] = list(value.fields)
            if isinstance(source, tvm.ir.Var):
                buffers[var] = buffers.get(source, source)
    return buffers, calls


def _computed_from(mod: Any, call: Any, state: Any, buffers: dict[Any, Any]) -> bool:
    """Whether `call` reads the buffer of `state` and does not declare an in-place update."""
    if IN_PLACE_ATTR in (mod[call.args[0]].attrs or {}):
        return False
    args = call.args[1]
    fields = list(args.fields) if isinstance(args, tvm.ir.Tuple) else [args]
    return any(buffers.get(arg, arg).same_as(state) for arg in fields)


def _copied(mod: Any, entry: str, fields: list[Any], state: list[Any]) -> list[bool]:
    """Which of the returned `fields` to copy (see above), a tensor of static shape (the
    lowering reports any other field it cannot take)."""
    buffers, calls = _buffers(mod[entry].body)
    befores = [None] * (len(fields) - len(state)) + list(state)
    seen: list[Any] = []
    copied = []
    for field, before in zip(fields, befores, strict=True):
        if isinstance(field, tvm.ir.Constant):
            copied.append(True)
            continue
        buffer = buffers.get(field, field)
        again = any(buffer.same_as(earlier) for earlier in seen)
        in_place = (
            before is not None
            and buffer in calls
            and _computed_from(mod, calls[buffer], before, buffers)
        )
        copied.append((again or in_place) and is_static(field.ty))
        seen.append(buffer)
    return copied


def outputs_copied(mod: Any, entry: str, state: list[Any]) -> Any:
    """`mod` with each result of `entry` that has no buffer of its own, or is a value of
    `state` after the run its operator cannot write, replaced by a copy of it (see above)."""
    func = mod[entry]
    fields, is_tuple = _result_fields(func.body)
    copied = _copied(mod, entry, fields, state)
    if not any(copied):
        return mod
    builder = relax.BlockBuilder(mod)
    bindings, returned = [], []
    for i, (field, copy) in enumerate(zip(fields, copied, strict=True)):
        if not copy:
            returned.append(field)
            continue
        ty = field.ty
        copier = builder.add_func(_copy([int(d) for d in ty.shape.values], ty.dtype), "copy")
        name = "constant_output" if isinstance(field, tvm.ir.Constant) else "copied_output"
        var = relax.Var(f"{name}{i}", ty)
        bindings.append(relax.VarBinding(var, relax.call_tir(copier, [field], ty)))
        returned.append(var)
    result = relax.Tuple(returned) if is_tuple else returned[0]
    body = relax.SeqExpr([*func.body.blocks, relax.BindingBlock(bindings)], result)
    rewritten = builder.get()
    rewritten[entry] = relax.Function(
        func.params, body, result.ty, func.is_pure, func.attrs, func.span
    )
    return rewritten
