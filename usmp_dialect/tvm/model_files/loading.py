"""Model files, `.tflite` and `.onnx`, through TVM 0.27's own Relax frontends into the
`(mod, weights)` that `usmp_dialect.tvm.relax.to_tir` lowers, as `--import-relax` does.

    load_model_file(path, kind, input_shapes) -> (mod, weights)   kind: "tflite", "onnx"
    import_model_file(path, kind, input_shapes, lowering) -> ModuleOp
                                       `usmp-translate --import-tflite/--import-onnx`
                                       (`MODEL_FILE_LOWERING`: temporaries inlined)

`tvm.relax.frontend.tflite.from_tflite` and `tvm.relax.frontend.onnx.from_onnx` return a
module whose entry is `main` with the weights already bound as constants (TFLite also
lists copies of them in a `params` attribute); here the entry becomes `forward`, the
attribute is dropped, and the weights dict is empty: the lowering folds the constants
exactly as it folds bound weights. Input names are the model's own (the ONNX frontend's
own renaming is off; `model_to_tir` makes any name a TIR name). An ONNX model's shape
computations are folded first (`onnx_shapes`), its dynamic input dims fixed by
`input_shapes`. A TFLite model's inputs have the file's static shapes, or those
`input_shapes` gives (a dim the file lets a caller resize, -1 in its shape signature:
openWakeWord's melspectrogram takes any number of audio samples, its file says 1). A
TFLite model's resource variables (a streaming model's state) are inputs and outputs of
`forward` (`model_file_state`). The
outputs are named as the file names them (the subgraph's output tensors, the graph's
outputs; `with_output_names`).

The frontends print to standard output when they fail; that text is kept out of it (the
output is for IR only) and the failure is one `RelaxImportError` at the file, naming the
operator when the frontend said which.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import re
import struct
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import tvm
from tvm import relax
from tvm.relax.frontend.onnx import from_onnx
from tvm.relax.frontend.onnx.onnx_frontend import _get_convert_map
from tvm.relax.frontend.tflite import from_tflite
from xdsl.dialects.builtin import ModuleOp

from usmp_dialect.analysis.tir_entry import choose_entry, prim_funcs
from usmp_dialect.diagnostics import MODELS_EXTRA
from usmp_dialect.tvm.captured_output import output_captured
from usmp_dialect.tvm.model_files.input_shapes import dims_text, fixed_input_shapes
from usmp_dialect.tvm.model_files.io_quantization import (
    tflite_io_quantization,
    with_io_quantization,
)
from usmp_dialect.tvm.model_files.onnx_operators import (
    OperatorRejected,
    onnx_converters,
    our_onnx_converters,
)
from usmp_dialect.tvm.model_files.onnx_shapes import static_onnx_model
from usmp_dialect.tvm.model_files.tensor_names import (
    file_names,
    tensor_name,
    tflite_tensor_label,
    with_file_names,
    with_output_names,
)
from usmp_dialect.tvm.model_files.tflite_operators import CONVERTED_CUSTOM
from usmp_dialect.tvm.model_files.tflite_quantization import check_quantization
from usmp_dialect.tvm.model_files.tflite_state import (
    state_output_names,
    stateful_converter,
    with_state,
)
from usmp_dialect.tvm.model_files.tflite_structure import check_structure
from usmp_dialect.tvm.model_files.tflite_tensors import tensor_shape
from usmp_dialect.tvm.relax.dynamic_results import unlowerable_op
from usmp_dialect.tvm.relax.names import ENTRY
from usmp_dialect.tvm.relax.to_tir import RelaxImportError, import_relax, sanitize, shape_text
from usmp_dialect.tvm_options import MODEL_FILE_TIR_IMPORT, Stages, TirImport, unshown

KINDS = ("tflite", "onnx")
_FRONTENDS = {"tflite": "TFLite", "onnx": "ONNX"}
_FRONTEND_ENTRY = "main"
# What the ONNX frontend prints before re-raising an operator's failure.
_FAILED_OPERATOR = re.compile(r"Error converting operator (\w+)")


def _run_frontend(
    convert: Callable[[], Any],
    kind: str,
    path: str,
    failed_at: Callable[[set[str]], str],
    unsupported_at: Callable[[str], str] = lambda _: "",
) -> Any:
    """`convert()`, TVM's `kind` frontend on the file, with its output captured, and the
    file's names for what it made (`file_names`); its failure is one `RelaxImportError`
    naming the operator when the frontend printed which, and where it failed:
    `failed_at(names)` of the names it made before, the first operator it did not;
    `unsupported_at(message)` of the frontend's list of operators it does not support,
    the first of them in the file."""
    frontend = _FRONTENDS[kind]
    names: list[tuple[str, Any]] = []
    with output_captured() as printed:
        try:
            with file_names(kind) as names:
                mod = convert()
            return mod, names
        except RelaxImportError:  # the model's input shapes, before the frontend ran
            raise
        except Exception as error:  # the frontend fails on the model; its message says why
            failure = error.with_traceback(None)
            # The frontend's BlockBuilder, freed with the traceback, logs a warning.
            gc.collect()
    if isinstance(failure, struct.error):  # the flatbuffer reader, past the file's end
        raise RelaxImportError(
            f"not a valid TensorFlow Lite model (truncated or corrupt: {failure})", path
        )
    if isinstance(failure, OperatorRejected):  # one of our converters; it says why
        raise RelaxImportError(f"{failed_at({name for name, _ in names})}: {failure}", path)
    if isinstance(failure, tvm.error.OpNotImplemented):
        text = str(failure).strip().splitlines()[-1]
        first = unsupported_at(text)
        raise RelaxImportError(f"{text}; the first is {first}" if first else text, path)
    failed = _FAILED_OPERATOR.search(printed.getvalue())
    where = failed_at({name for name, _ in names})
    at = f" at {where}" if where else f" at operator '{failed[1]}'" if failed else ""
    text = str(failure).strip()
    last = text.splitlines()[-1] if text else ""
    raise RelaxImportError(
        f"TVM's {frontend} frontend failed{at}: {type(failure).__name__}: {last}", path
    )


def _required(package: str, path: str) -> Any:
    """The package TVM's frontend reads the file with; missing, a diagnostic naming the
    extra that installs it."""
    try:
        return importlib.import_module(package)
    except ModuleNotFoundError as error:
        if error.name != package:
            raise
        raise RelaxImportError(
            f"reading this model file needs the '{package}' package: {MODELS_EXTRA}", path
        ) from None


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise RelaxImportError(f"cannot read '{path}': {error.strerror}", path) from None


def _tflite_module(
    path: str, input_shapes: Mapping[str, Sequence[int]]
) -> tuple[Any, list[tuple[str, Any]]]:
    data = _read(path)
    # A flatbuffer is read lazily: a file that is not one fails anywhere, with any error.
    if len(data) < 8 or data[4:8] != b"TFL3":
        raise RelaxImportError("not a TensorFlow Lite model (no 'TFL3' identifier)", path)
    tflite = _required("tflite", path)

    model = tflite.Model.GetRootAsModel(data, 0)
    converter, variables = stateful_converter()

    def convert() -> Any:
        check_structure(model, len(data), path)
        _check_no_custom_operators(model, path)
        graph = model.Subgraphs(0)
        check_quantization(model, graph, path)
        # The file's shapes are static; one with a dim TFLite lets a caller resize (-1 in
        # its signature, an audio model's sample count) is given as --input-shape.
        declared = {
            _file_tensor_name(graph, int(t)): tensor_shape(graph.Tensors(int(t)))
            for t in graph.InputsAsNumpy()
        }
        shapes = fixed_input_shapes(declared, input_shapes, path)
        _check_resizable(graph, shapes, path)
        mod = from_tflite(model, shape_dict=shapes, op_converter=converter)
        mod = with_state(mod, variables)
        outputs = [_file_tensor_name(graph, int(t)) for t in graph.OutputsAsNumpy()]
        return with_output_names(mod, [*outputs, *state_output_names(variables)])

    mod, names = _run_frontend(
        convert,
        "tflite",
        path,
        lambda names: _tflite_failed_at(model, names),
        lambda message: _tflite_first_named(model, message),
    )
    _check_no_subgraph_calls(model, mod, names, path)
    return mod, names


def _check_resizable(graph: Any, shapes: Mapping[str, Sequence[int]], path: str) -> None:
    """Each input's shape changes only dims its shape signature marks -1, as TFLite's
    strict resize allows (a tensor without a signature: its shape is its signature); the
    first other change is an error naming the input and the dim."""
    for t in graph.InputsAsNumpy():
        tensor = graph.Tensors(int(t))
        name = _file_tensor_name(graph, int(t))
        shape = tensor_shape(tensor)
        if tensor.ShapeSignatureLength():
            signature = [int(d) for d in tensor.ShapeSignatureAsNumpy()]
            why = f"its shape signature {dims_text(signature)}: only a -1 dimension resizes"
        else:
            signature, why = shape, "the file gives it no shape signature: no dimension resizes"
        dims = zip(shape, signature, shapes[name], strict=True)
        for dim, (size, fixed, given) in enumerate(dims):
            if fixed != -1 and given != size:
                raise RelaxImportError(
                    f"--input-shape gives input '{name}' dimension {dim} as {given}, which "
                    f"the model fixes at {size} ({why})",
                    path,
                )


def _onnx_module(
    path: str, input_shapes: Mapping[str, Sequence[int]]
) -> tuple[Any, list[tuple[str, Any]]]:
    onnx = _required("onnx", path)

    contents = _read(path)
    try:
        model = onnx.ModelProto.FromString(contents)
    except Exception as error:  # protobuf's decoder; the message says why
        raise RelaxImportError(f"not a valid ONNX model: {_first_line(error)}", path) from None
    _load_external_data(onnx, model, path)
    try:
        onnx.checker.check_model(model)
    except Exception as error:  # onnx's checker; the message says why
        raise RelaxImportError(f"not a valid ONNX model: {_first_line(error)}", path) from None
    model, shapes = static_onnx_model(model, input_shapes, path)

    _check_onnx_operators(model, path)
    _check_no_run_time_condition(model, path)

    def convert() -> Any:
        with our_onnx_converters():
            mod = from_onnx(model, shape_dict=shapes, sanitize_input_names=False)
        return with_output_names(mod, [output.name for output in model.graph.output])

    return _run_frontend(convert, "onnx", path, lambda names: _onnx_failed_at(model, names))


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _load_external_data(onnx: Any, model: Any, path: str) -> None:
    """Tensors stored in other files are read from the model's own folder, whatever the
    current directory, and never from outside it: ONNX's own opener refuses an absolute
    location, one with `..`, and one that is not a regular file there (its checker's
    rule), and reads only the bytes the offset and length name."""
    from onnx.external_data_helper import load_external_data_for_model

    try:
        load_external_data_for_model(model, os.path.dirname(os.path.abspath(path)))
    except Exception as error:  # ONNX's opener or bounds check; the message says why
        raise RelaxImportError(
            f"external data of the model cannot be read: {_first_line(error)}", path
        ) from None


def _onnx_node(node: Any) -> str:
    """An ONNX node as a diagnostic names it: by its name, else by its first output."""
    return f"node '{node.name}'" if node.name else f"the node computing '{node.output[0]}'"


def _check_onnx_operators(model: Any, path: str) -> None:
    """Every node's operator is one TVM's ONNX frontend converts; the first that is not is
    an error naming it and its node (and how many nodes of which operators are alike)."""
    # Nodes the frontend takes without a converter.
    converted = {*_get_convert_map(), *onnx_converters(), "If", "Constant"}
    unsupported = [n for n in model.graph.node if n.op_type not in converted]
    if not unsupported:
        return
    first = unsupported[0]
    kinds = sorted({n.op_type for n in unsupported})
    raise RelaxImportError(
        f"operator '{first.op_type}' ({_onnx_node(first)}) is not supported by TVM's ONNX "
        f"frontend; {len(unsupported)} node(s) of unsupported operators: {', '.join(kinds)}",
        path,
    )


def _check_no_run_time_condition(model: Any, path: str) -> None:
    """No `If` is left once the shapes are folded (`static_onnx_model` inlines the taken
    branch of each whose condition folds); the first left, its condition computed at run
    time, is an error naming it and the graph inputs its condition is computed from."""
    node = next((n for n in model.graph.node if n.op_type == "If"), None)
    if node is None:
        return
    producers = {out: n for n in model.graph.node for out in n.output}
    inputs = {i.name for i in model.graph.input}
    sources, pending, seen = set(), [node.input[0]], set()
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in inputs:
            sources.add(name)
        elif name in producers:
            pending.extend(n for n in producers[name].input if n)
    index = list(model.graph.node).index(node)
    computed = ", ".join(f"'{s}'" for s in sorted(sources))
    raise RelaxImportError(
        f"{_onnx_node_at(model, index)}: its condition '{node.input[0]}' is computed at run "
        f"time{f' from the input(s) {computed}' if computed else ''}; the lowering takes "
        "operators on tensors only, not control flow",
        path,
    )


def _onnx_node_at(model: Any, index: int) -> str:
    """Node `index` of an ONNX graph as a diagnostic names it: its op type, index, name
    and first output."""
    node = model.graph.node[index]
    called = f" '{node.name}'" if node.name else ""
    return f"{node.op_type} node {index}{called}, computing '{node.output[0]}'"


def _onnx_failed_at(model: Any, names: set[str]) -> str:
    """The first node (in the graph's order) whose outputs the frontend did not make, by
    its op type, index, name and first output."""
    for i, node in enumerate(model.graph.node):
        if not all(out in names for out in node.output if out):
            return _onnx_node_at(model, i)
    return ""


def _tflite_operator(model: Any, i: int) -> str:
    """Operator `i` of a TFLite model's first subgraph as a diagnostic names it: by its
    opcode (a custom operator's by its name), its index and its output tensor."""
    graph = model.Subgraphs(0)
    operator, computing = graph.Operators(i), ""
    if operator.OutputsLength():
        first = operator.Outputs(0)
        computing = f", computing {tflite_tensor_label(graph.Tensors(first), first)}"
    return f"{_tflite_opcodes(model)[i]} operator {i}{computing}"


# The one custom operator TVM's TFLite frontend converts (as DETECTION_POSTPROCESS).
_CONVERTED_CUSTOM = "TFLite_Detection_PostProcess"


# The custom operator Vela compiles a file's NPU operators into.
_NPU_OPERATOR = "ethos-u"


def _custom_code(model: Any, i: int) -> str | None:
    """The custom code (its name) of operator `i` of the first subgraph; None for a
    builtin operator."""
    from tflite.BuiltinOperator import BuiltinOperator

    code = model.OperatorCodes(model.Subgraphs(0).Operators(i).OpcodeIndex())
    if max(code.BuiltinCode(), code.DeprecatedBuiltinCode()) != BuiltinOperator.CUSTOM:
        return None
    return (code.CustomCode() or b"").decode("utf-8", "replace")


def _tflite_opcodes(model: Any) -> list[str]:
    """The opcode of each operator of the first subgraph: its builtin name (`CONV_2D`),
    or a custom operator's name (`CUSTOM 'Convolution2DTransposeBias'`)."""
    from tflite.BuiltinOperator import BuiltinOperator

    names = {v: k for k, v in vars(BuiltinOperator).items() if k.isupper()}
    graph = model.Subgraphs(0)
    opcodes = []
    for i in range(graph.OperatorsLength()):
        custom = _custom_code(model, i)
        if custom is not None:
            opcodes.append(f"CUSTOM '{custom}'")
            continue
        code = model.OperatorCodes(graph.Operators(i).OpcodeIndex())
        builtin = max(code.BuiltinCode(), code.DeprecatedBuiltinCode())
        opcodes.append(names.get(builtin, str(builtin)))
    return opcodes


def _check_no_custom_operators(model: Any, path: str) -> None:
    """No operator is a custom one that neither TVM's frontend (which rejects them all
    before converting any operator, without saying which) nor `tflite_operators` converts;
    the first is an error naming it, and how many of which custom operators the file has."""
    graph = model.Subgraphs(0)
    custom = [
        (i, code)
        for i in range(graph.OperatorsLength())
        if (code := _custom_code(model, i)) not in {None, _CONVERTED_CUSTOM, *CONVERTED_CUSTOM}
    ]
    if not custom:
        return
    first, _ = custom[0]
    npu = next((i for i, code in custom if code == _NPU_OPERATOR), None)
    if npu is not None:
        raise RelaxImportError(
            f"{_tflite_operator(model, npu)} runs on an Arm Ethos-U NPU: the file was compiled "
            "for an NPU (by Vela), its operators are the NPU's command stream; import the "
            "file Vela was given",
            path,
        )
    kinds = ", ".join(sorted({f"'{code}'" for _, code in custom}))
    raise RelaxImportError(
        f"{_tflite_operator(model, first)} is a custom operator, which neither TVM's "
        f"TFLite frontend nor ours converts; {len(custom)} custom operator(s) in the file: "
        f"{kinds}",
        path,
    )


def _check_no_subgraph_calls(model: Any, mod: Any, names: list[tuple[str, Any]], path: str) -> None:
    """No operator became a call of a Relax function: TVM's frontend makes a control-flow
    operator (IF) a call of functions of its subgraphs, which the lowering does not take;
    the first is an error naming the operator."""
    by_expr = {expr: name for name, expr in names}
    for block in mod[_FRONTEND_ENTRY].body.blocks:
        for binding in block.bindings:
            call = binding.value
            if not (isinstance(call, tvm.ir.Call) and isinstance(call.op, tvm.ir.GlobalVar)):
                continue
            tensor = by_expr.get(call) or by_expr.get(binding.var)
            graph = model.Subgraphs(0)
            operator = next(
                (
                    _tflite_operator(model, i)
                    for i in range(graph.OperatorsLength())
                    if tensor in _tflite_outputs(graph, i)
                ),
                f"the operator computing '{binding.var.name}'",
            )
            raise RelaxImportError(
                f"{operator} is control flow, which TVM's frontend makes a call of the "
                f"function '{call.op.name_hint}' of its subgraphs; the lowering takes "
                "operators on tensors only",
                path,
            )


def _tflite_outputs(graph: Any, i: int, values_only: bool = False) -> list[str]:
    """The names of the tensors operator `i` of a TFLite subgraph computes; `values_only`:
    but resource handles (a VAR_HANDLE's), which the frontend makes no value of."""
    from tflite.TensorType import TensorType

    op = graph.Operators(i)
    indices = [int(op.Outputs(k)) for k in range(op.OutputsLength())]
    return [
        _file_tensor_name(graph, t)
        for t in indices
        if not (values_only and graph.Tensors(t).Type() == TensorType.RESOURCE)
    ]


def _file_tensor_name(graph: Any, t: int) -> str:
    """Tensor `t`'s name, as TVM's frontend names a tensor without one: by its index."""
    name = graph.Tensors(t).Name()
    return tensor_name(name) if name is not None else f"tvmgen_tensor_{t}"


def _tflite_first_named(model: Any, message: str) -> str:
    """The first operator of the file whose builtin code `message` names (quoted, as the
    frontend lists the operators it does not support); "" if none is."""
    try:
        for i, opcode in enumerate(_tflite_opcodes(model)):
            if f"'{opcode}'" in message:
                return _tflite_operator(model, i)
    except Exception:  # a corrupt flatbuffer (see `_tflite_failed_at`)
        return ""
    return ""


def _tflite_failed_at(model: Any, names: set[str]) -> str:
    """The first operator whose output values the frontend did not make; "" if the file
    is too corrupt to say (the flatbuffer is read lazily: anything may fail, with any
    error)."""
    try:
        graph = model.Subgraphs(0)
        for i in range(graph.OperatorsLength()):
            if not all(tensor in names for tensor in _tflite_outputs(graph, i, values_only=True)):
                return _tflite_operator(model, i)
    except Exception:  # a corrupt flatbuffer (see above)
        return ""
    return ""


def _check_static(func: Any, path: str, kind: str) -> None:
    """Every tensor `func` computes has a static shape; the first that does not is an error
    naming the operator of the file and the Relax operator that compute it."""
    for block in func.body.blocks:
        for binding in block.bindings:
            ty = binding.var.ty
            if not isinstance(ty, relax.TensorType):
                continue
            dims = list(ty.shape.values) if isinstance(ty.shape, relax.ShapeExpr) else None
            if dims is not None and all(isinstance(d, tvm.tirx.IntImm) for d in dims):
                continue
            op = _relax_op(binding.value, func)
            shape = shape_text(dims) if dims is not None else "unknown"
            raise RelaxImportError(
                f"{_file_operator_computing(func, binding.var.name, path, kind)}: "
                f"operator '{op}' computes a tensor of dynamic shape {shape} "
                "(it stays dynamic with the input shapes fixed)",
                path,
            )


def _relax_op(value: Any, func: Any) -> str:
    """The name of the Relax op `value` calls, or of the one whose tuple it takes an
    element of (UNIQUE's `relax.unique`); else the kind of expression it is."""
    if isinstance(value, relax.TupleGetItem):
        bound = {b.var: b.value for block in func.body.blocks for b in block.bindings}
        value = bound.get(value.tuple_value, value)
    return getattr(getattr(value, "op", None), "name", type(value).__name__)


def _as_forward(
    mod: Any, names: list[tuple[str, Any]], path: str, kind: str
) -> tuple[Any, dict[str, np.ndarray]]:
    """The frontend's `main` (of a `kind` file) as the entry `forward`, without the weight
    copies in its `params` attribute, its tensors named as the file names them
    (`with_file_names`): the weights it names are params, their arrays returned."""
    func, weights = with_file_names(mod[_FRONTEND_ENTRY], names)
    _check_static(func, path, kind)
    attrs = func.attrs or {}
    if "params" in attrs:
        func = func.without_attr("params")
    if "global_symbol" in attrs:
        func = func.with_attr("global_symbol", ENTRY)
    others = {g: f for g, f in mod.functions.items() if g.name_hint != _FRONTEND_ENTRY}
    if any(g.name_hint == ENTRY for g in others):
        raise RelaxImportError(f"the model already has a function '{ENTRY}'", path)
    return tvm.IRModule({**others, tvm.ir.GlobalVar(ENTRY): func}), weights


def model_file_kind(path: str) -> str:
    """ "tflite" or "onnx", by the file's suffix."""
    kind = Path(path).suffix.removeprefix(".")
    if kind not in KINDS:
        raise RelaxImportError(
            f"expected a model file ending in {' or '.join('.' + k for k in KINDS)}", path
        )
    return kind


def load_model_file(
    path: str, kind: str, input_shapes: Mapping[str, Sequence[int]] | None = None
) -> tuple[Any, dict[str, np.ndarray]]:
    """A TFLite or ONNX model file (`kind`) as `(mod, weights)` for `tvm.relax.to_tir`;
    `input_shapes` fixes an ONNX model's dynamic input dims, or a TFLite model's (one it
    lets a caller resize)."""
    if kind == "tflite":
        mod, names = _tflite_module(path, input_shapes or {})
    else:
        mod, names = _onnx_module(path, input_shapes or {})
    return _as_forward(mod, names, path, kind)


def import_model_file(
    path: str,
    kind: str,
    input_shapes: Mapping[str, Sequence[int]] | None = None,
    tir_import: TirImport = MODEL_FILE_TIR_IMPORT,
    stage: Stages = unshown,
) -> ModuleOp:
    """`usmp-translate --import-tflite FILE` / `--import-onnx FILE [--input-shape ...]`,
    by default with the operators' temporaries inlined (`MODEL_FILE_LOWERING`)."""
    stage(f"TVM's {_FRONTENDS[kind]} frontend")
    mod, weights = load_model_file(path, kind, input_shapes)
    with file_operators_named(mod, path, kind):
        module = import_relax(mod, weights, path, tir_import, stage)
    if kind == "tflite":
        quantized = tflite_io_quantization(_tflite_model(path).Subgraphs(0))
        entry = choose_entry(prim_funcs(module), "")
        params = set(entry.param_names())
        with_io_quantization(entry, {n: q for n, q in quantized.items() if n in params})
    return module


@contextlib.contextmanager
def file_operators_named(mod: Any, path: str, kind: str | None) -> Iterator[None]:
    """Lowering `mod` (`load_model_file`'s of a `kind` file; None: a Relax model)
    meanwhile: an error of the lowering caused by an operator of the file whose result
    TVM's legalization makes dynamic, or that TVM fails to legalize, is one naming that
    operator (`_file_operator_computing`), not the lowering's binding."""
    try:
        yield
    except RelaxImportError as error:
        if kind is None:
            raise
        raise _operator_named(mod[ENTRY], path, kind, error) from None


def _operator_named(func: Any, path: str, kind: str, error: RelaxImportError) -> RelaxImportError:
    """The error naming the operator of the file whose result TVM's legalization makes
    dynamic (the lowering only sees TVM's bindings), else the one TVM fails to legalize
    when TVM's error on it is the lowering's (`unlowerable_op`); else, for an error of a
    binding `func` has, the operator computing it; else `error`."""
    found = unlowerable_op(func)
    if found is not None and (found.error is None or found.error in error.message):
        operator = _file_operator_computing(func, found.var.name, path, kind)
        if found.error is not None:
            return RelaxImportError(
                f"{operator}: TVM's Relax lowering failed on its '{found.op}': {found.error}",
                path,
            )
        return RelaxImportError(
            f"{operator}: TVM's '{found.op}' computes its result's shape from the input "
            "values, at run time (it stays dynamic with the input shapes fixed); a plan "
            "needs every shape static",
            path,
        )
    names = {b.var.name for block in func.body.blocks for b in block.bindings}
    if error.binding is not None and error.binding in names:
        operator = _file_operator_computing(func, error.binding, path, kind)
        return RelaxImportError(f"{operator}: {error.reason}", path)
    return error


def _file_operator_computing(func: Any, binding: str, path: str, kind: str) -> str:
    """The operator of the `kind` file at `path` that `binding` of `func` (named as the file
    names tensors, `with_file_names`, `_` appended to a name taken) is computed for: the
    first operator's output named at or after it; an ONNX node by `_onnx_node_at`, a
    TFLite operator by `_tflite_operator`."""
    if kind == "onnx":
        model = _unfolded_onnx_graph(path)
        outputs = [list(node.output) for node in model.graph.node]
        name, what = partial(_onnx_node_at, model), "node"
    else:
        model = _tflite_model(path)
        graph = model.Subgraphs(0)
        outputs = [_tflite_outputs(graph, i) for i in range(graph.OperatorsLength())]
        name, what = partial(_tflite_operator, model), "operator"
    computing = {sanitize(out): i for i, outs in enumerate(outputs) for out in outs}
    later = [b.var.name for block in func.body.blocks for b in block.bindings]
    named = (computing.get(n, computing.get(n.rstrip("_"))) for n in later[later.index(binding) :])
    index = next((i for i in named if i is not None), None)
    return f"the {what} computing '{binding}'" if index is None else name(index)


def _unfolded_onnx_graph(path: str) -> Any:
    """The file's model as it stores it (its nodes' indices), without external data."""
    onnx = _required("onnx", path)
    return onnx.ModelProto.FromString(_read(path))


def _tflite_model(path: str) -> Any:
    """The file's TFLite model (its operators' indices)."""
    tflite = _required("tflite", path)
    return tflite.Model.GetRootAsModel(_read(path), 0)
