"""The model file's own names for the tensors TVM's Relax frontends make of it.

    file_names(kind) -> context recording [(name, expr)] while a frontend runs
    with_file_names(func, names) -> (func, weights)
    with_output_names(mod, names) -> mod   `main`'s outputs named as the file names them

TVM 0.27's TFLite and ONNX frontends know each tensor's name (TFLite: the tensor's, for
a weight passed to `ExprTable.new_const` as `source_name`; ONNX: the initializer's or the
node output's, the keys of `ONNXGraphImporter._nodes`) but name the Relax they build
`lv`, `lv1`, ... and bind the weights as nameless constants. They offer no hook for the
names, so the two methods that hold them are wrapped while the frontend runs (and
restored after) to record `(name, expr)` pairs.

`with_file_names` then makes each named constant a weight param of that name (the weights
dict holds its array: `model_to_tir` binds it back and names what is folded from it after
it) and renames each var the file names. Names are `sanitize`d and kept unique by
appending `_` (the first in the function's order keeps the name).

Relax has no names for a function's outputs: `with_output_names` lists the file's as the
entry's `"usmp.output_names"` attribute, which the lowering names the output buffers by
(`sanitize`d and kept unique there, against every other name of `main`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import tvm
from tvm import relax
from tvm.relax.frontend.onnx import onnx_frontend as onnx
from tvm.relax.frontend.tflite import tflite_frontend as tflite

from usmp_dialect.tvm.relax.fused_names import renamed
from usmp_dialect.tvm.relax.names import fresh_name
from usmp_dialect.tvm.relax.to_tir import OUTPUT_NAMES_ATTR, sanitize


@contextlib.contextmanager
def _wrapped(cls: Any, method: str, after: Any) -> Iterator[None]:
    """`cls.method` calling `after(self, result, *args, **kwargs)` after itself."""
    original = getattr(cls, method)

    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = original(self, *args, **kwargs)
        after(self, result, *args, **kwargs)
        return result

    setattr(cls, method, wrapper)
    try:
        yield
    finally:
        setattr(cls, method, original)


def tensor_name(name: Any) -> str:
    """A tensor name as text (the TFLite flatbuffer's are bytes)."""
    return name.decode("utf-8", "replace") if isinstance(name, bytes) else str(name)


def tflite_tensor_label(tensor: Any, index: int) -> str:
    """A TFLite tensor (its flatbuffer table, `index` in its subgraph) as a diagnostic
    names it: its name quoted, or `unnamed tensor N` where the file gives none (the name
    is optional in TFLite's schema)."""
    name = tensor.Name()
    return f"'{tensor_name(name)}'" if name else f"unnamed tensor {index}"


@contextlib.contextmanager
def file_names(kind: str) -> Iterator[list[tuple[str, Any]]]:
    """The `(name, expr)` pairs the `kind` ("tflite", "onnx") frontend names, recorded
    while it runs in this context (filled in as it leaves, the frontend failing or not:
    what it did not name is where it failed). A tensor the TFLite frontend computes while
    converting (a DENSIFY's dense weight, "prefetched" for the operators reading it) is
    named with no expr (None): it was made, though no Relax expr is it."""
    names: list[tuple[str, Any]] = []
    if kind == "tflite":
        tables: list[Any] = []

        def constant(_: Any, const: Any, *args: Any, source_name: Any = None, **kw: Any) -> None:
            if source_name:
                names.append((tensor_name(source_name), const))

        def table(self: Any, *_: Any) -> None:
            tables.append(self)

        def prefetched(self: Any, _: Any, tensor_index: int, *__: Any) -> None:
            names.append((tensor_name(tflite.get_tensor_name(self.subgraph, tensor_index)), None))

        try:
            with (
                _wrapped(tflite.ExprTable, "new_const", constant),
                _wrapped(tflite.ExprTable, "__init__", table),
                _wrapped(tflite.OperatorConverter, "set_prefetched_node", prefetched),
            ):
                yield names
        finally:
            names.extend((tensor_name(n), e) for t in tables for n, e in t.exprs.items())
    else:
        importers: list[Any] = []

        def importer(self: Any, *_: Any, **__: Any) -> None:
            importers.append(self)

        try:
            with _wrapped(onnx.ONNXGraphImporter, "__init__", importer):
                yield names
        finally:
            # An optional output a node leaves out is named "" (the frontend binds it too).
            names.extend((tensor_name(n), e) for i in importers for n, e in i._nodes.items() if n)


def with_file_names(func: Any, names: list[tuple[str, Any]]) -> tuple[Any, dict[str, np.ndarray]]:
    """`func` with each constant `names` names a weight param, after its params, and each
    var it names renamed; and the weights' arrays by name."""
    by_expr = {expr: name for name, expr in reversed(names)}
    taken = {sanitize(p.name) for p in func.params}

    def fresh(name: str) -> str:
        return fresh_name(sanitize(name), taken)

    constants: dict[Any, Any] = {}  # each named constant's param

    def visit(expr: Any) -> None:
        if isinstance(expr, tvm.ir.Constant) and expr in by_expr and expr not in constants:
            constants[expr] = relax.Var(fresh(by_expr[expr]), expr.ty)

    relax.analysis.post_order_visit(func.body, visit)
    # The ONNX frontend names the var it emitted, the TFLite one the call it is bound to.
    vars = {
        b.var: fresh(by_expr.get(b.var) or by_expr[b.value])
        for block in func.body.blocks
        for b in block.bindings
        if b.var in by_expr or b.value in by_expr
    }
    vars.update(_intermediate_names(func, vars, fresh))
    if not constants and not vars:
        return func, {}
    weights = {param.name: const.value.numpy() for const, param in constants.items()}
    num_input = int(func.attrs["num_input"]) if func.attrs and "num_input" in func.attrs else None
    named = relax.Function(
        [*func.params, *constants.values()],
        renamed(func.body, constants, vars),
        func.ret_ty,
        func.is_pure,
        func.attrs,
    )
    return named.with_attr(
        "num_input", len(func.params) if num_input is None else num_input
    ), weights


def _intermediate_names(
    func: Any, named: dict[Any, str], fresh: Callable[[str], str]
) -> dict[Any, str]:
    """A name for each var the file does not name that is an intermediate of one file
    node's decomposition (TVM's ONNX Softmax is reshape, softmax, reshape; its quantized
    TFLite operators dequantize, compute, quantize): every reader of its value computes
    the same named tensor, directly or through other such vars. It is named after that
    tensor, the op that computes it and `_intermediate`, as TVM names a stage inside an
    operator (`softmax_0_tmp_0_softmax_intermediate`); a var read for two tensors, or
    returned, keeps its name."""
    bindings = [b for block in func.body.blocks for b in block.bindings]
    owners: dict[Any, str | None] = dict(named)  # var -> the named tensor it is computed for
    readers: dict[Any, set[str | None]] = {
        v: {None} for v in relax.analysis.free_vars(func.body.body)
    }
    for binding in reversed(bindings):
        if binding.var not in owners:
            reading = readers.get(binding.var, set())
            owners[binding.var] = next(iter(reading)) if len(reading) == 1 else None
        for var in relax.analysis.free_vars(binding.value):
            readers.setdefault(var, set()).add(owners[binding.var])
    names = {}
    for binding in bindings:
        owner = owners[binding.var]
        if binding.var in named or owner is None:
            continue
        op = getattr(getattr(binding.value, "op", None), "name", None)
        what = f"_{op.rsplit('.', 1)[-1]}" if isinstance(op, str) else ""
        names[binding.var] = fresh(f"{owner}{what}_intermediate")
    return names


def with_output_names(mod: Any, names: list[str]) -> Any:
    """`mod` whose `main` lists `names` as the names of its outputs, in order."""
    mod["main"] = mod["main"].with_attr(OUTPUT_NAMES_ATTR, names)
    return mod
