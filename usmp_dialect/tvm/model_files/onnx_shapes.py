"""ONNX shape computations folded away once the input shapes are fixed.

    static_onnx_model(model, input_shapes, where) -> onnx.ModelProto

Exporters write shapes as computations on `Shape` (a `Reshape` of a `Concat` of `Shape`s
and constants), and TVM's ONNX frontend cannot take many of them even when every input
shape is static (a `Reshape` whose shape is a tensor, not a `ShapeExpr`, fails). Here the
graph inputs get their fixed shapes, ONNX's own shape inference (`onnx.shape_inference`)
gives every tensor its static shape, and each value computed from shapes alone becomes an
initializer: a `Shape` or `Size` of a tensor whose shape is static, then every node whose
inputs are all constants and at least one of them such a folded shape value, or all of them
small (at most 64 elements: shape parts, axes, scalars), evaluated by ONNX's reference
implementation (`onnx.reference`); again, with shapes inferred anew, until nothing is left
to fold. Both are part of the `onnx` package, the one the frontend needs anyway, and
implement every standard operator by ONNX's own definition; a graph optimizer (onnxsim,
onnxoptimizer) would be another dependency. An inference `Dropout`, which TVM's frontend
makes a tuple, becomes the `Identity` it is. Nodes
of weights alone are left to TVM's `FoldConstant`, as for any model.

An input with a dimension that stays dynamic (no `--input-shape` for it), a shape given for
no input or of the wrong rank, is an error naming the input (`fixed_input_shapes`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import onnx

from usmp_dialect.tvm.model_files.input_shapes import fixed_input_shapes
from usmp_dialect.tvm.relax.to_tir import RelaxImportError

_SHAPE_OPS = frozenset({"Shape", "Size"})
# Constants this small are shapes, axes, scalars (the `Cast` of a `Constant` shape part),
# not weights: a node of them alone is folded with the shapes.
_SHAPE_SIZE = 64
# Nodes whose value is not a function of their inputs: never folded.
_RANDOM_OPS = frozenset(
    {"RandomNormal", "RandomNormalLike", "RandomUniform", "RandomUniformLike", "Multinomial"}
    | {"Bernoulli", "Dropout"}
)


def _declared_dims(value_info: Any) -> list[int | str]:
    """A tensor's dims as the file declares them: an int, or its name (`?` when unnamed)."""
    return [
        d.dim_value if d.HasField("dim_value") else (d.dim_param or "?")
        for d in value_info.type.tensor_type.shape.dim
    ]


def graph_inputs(model: Any) -> list[Any]:
    """The graph's inputs that are not initializers (older exporters list weights too)."""
    initializers = {t.name for t in model.graph.initializer}
    return [i for i in model.graph.input if i.name not in initializers]


def static_onnx_model(
    model: Any, input_shapes: Mapping[str, Sequence[int]], where: str
) -> tuple[Any, dict[str, list[int]]]:
    """`model` with its inputs' shapes fixed and its shape computations folded into
    initializers, and the fixed shapes by input name."""
    declared = {i.name: _declared_dims(i) for i in graph_inputs(model)}
    shapes = fixed_input_shapes(declared, input_shapes, where)
    model = _with_input_shapes(model, shapes)
    _drop_inference_dropouts(model.graph)
    # A shape folded into a constant (a `Reshape`'s) lets inference give static shapes to
    # what follows, whose own shape computations fold in turn: until none is left. Each
    # round removes at least one node, so there are at most as many rounds as nodes.
    while True:
        try:
            inferred = onnx.shape_inference.infer_shapes(model, data_prop=True)
        except Exception as error:  # onnx's shape inference rejects the graph; it says why
            raise RelaxImportError(
                f"ONNX shape inference failed: {type(error).__name__}: {error}", where
            ) from None
        folded, changed = _folded(inferred, where)
        if not changed:
            return folded, shapes
        model = folded


def _drop_inference_dropouts(graph: Any) -> None:
    """Each `Dropout` not in training mode (no `training_mode` input) whose mask no node
    reads becomes the `Identity` it is at inference: TVM's frontend makes it a tuple of
    the output and the mask, which a fused operator then returns."""
    read = {name for node in graph.node for name in node.input} | {o.name for o in graph.output}
    for i, node in enumerate(graph.node):
        if (
            node.op_type == "Dropout"
            and len(node.input) <= 2
            and not (len(node.output) > 1 and node.output[1] in read)
        ):
            identity = onnx.helper.make_node("Identity", node.input[:1], node.output[:1], node.name)
            graph.node[i].CopyFrom(identity)


def _with_input_shapes(model: Any, shapes: Mapping[str, Sequence[int]]) -> Any:
    model = onnx.ModelProto.FromString(model.SerializeToString())
    for value_info in model.graph.input:
        if value_info.name in shapes:
            dims = value_info.type.tensor_type.shape.dim
            for dim, size in zip(dims, shapes[value_info.name], strict=True):
                dim.Clear()
                dim.dim_value = int(size)
    return model


def _static_shapes(graph: Any) -> dict[str, list[int]]:
    """Every tensor's inferred shape, where all of its dims are known."""
    shapes = {}
    for value_info in [*graph.input, *graph.value_info, *graph.output]:
        if not value_info.type.HasField("tensor_type"):
            continue
        tensor_shape = value_info.type.tensor_type
        if not tensor_shape.HasField("shape"):
            continue
        dims = _declared_dims(value_info)
        if all(isinstance(d, int) and d >= 0 for d in dims):
            shapes[value_info.name] = [int(d) for d in dims]
    return shapes


def _shape_value(node: Any, shape: list[int]) -> np.ndarray:
    """`Shape` (with its `start`/`end`) or `Size` of a tensor of static `shape`."""
    if node.op_type == "Size":
        return np.array(int(np.prod(shape)), dtype=np.int64)
    attributes = {a.name: a.i for a in node.attribute}
    start, end = attributes.get("start", 0), attributes.get("end", len(shape))
    return np.array(shape[start:end], dtype=np.int64)


def _evaluated(node: Any, values: list[np.ndarray], opset_imports: Any) -> list[np.ndarray]:
    """One node run by ONNX's reference implementation on constant inputs."""
    from onnx.reference import ReferenceEvaluator

    evaluator = ReferenceEvaluator(
        onnx.helper.make_model(
            onnx.helper.make_graph(
                [node],
                "fold",
                [
                    onnx.helper.make_tensor_value_info(
                        name, onnx.helper.np_dtype_to_tensor_dtype(v.dtype), v.shape
                    )
                    for name, v in zip(node.input, values, strict=True)
                ],
                [onnx.helper.make_empty_tensor_value_info(name) for name in node.output],
            ),
            opset_imports=opset_imports,
        )
    )
    return [np.asarray(v) for v in evaluator.run(None, dict(zip(node.input, values, strict=True)))]


def _taken_branch(node: Any, condition: np.ndarray, graph: Any) -> list[Any]:
    """The nodes an `If` of a constant `condition` stands for: its taken branch's, the
    branch's initializers added to `graph`, and an `Identity` from each branch output to
    the `If`'s (ONNX names are unique across a graph and its subgraphs: nothing clashes)."""
    name = "then_branch" if bool(np.asarray(condition).reshape(-1)[0]) else "else_branch"
    branch = next(a.g for a in node.attribute if a.name == name)
    graph.initializer.extend(branch.initializer)
    identities = [
        onnx.helper.make_node("Identity", [out.name], [name_], f"{node.name}/{name}/{name_}")
        for out, name_ in zip(branch.output, node.output, strict=True)
        if name_
    ]
    return [*branch.node, *identities]


def _unrollable(node: Any, known: dict[str, np.ndarray]) -> bool:
    """Whether a `Loop` runs a number of times known now: a constant trip count at least
    1, a condition absent or a constant true, passed on by the body as it is."""
    trips = node.input[0] if node.input else ""
    condition = node.input[1] if len(node.input) > 1 else ""
    if not trips or trips not in known or int(np.asarray(known[trips]).reshape(-1)[0]) < 1:
        return False
    if condition and not (condition in known and bool(np.asarray(known[condition]).all())):
        return False
    body = next(a.g for a in node.attribute if a.name == "body")
    return _passes_condition_on(body)


def _passes_condition_on(body: Any) -> bool:
    """Whether a `Loop` body's condition output is its condition input, passed on as it
    is or through an `Identity` (the loop then stops by its trip count alone), and no
    body node has subgraphs of its own (whose names the unrolling would not rename)."""
    condition_in, condition_out = body.input[1].name, body.output[0].name
    if any(a.type in (a.GRAPH, a.GRAPHS) for node in body.node for a in node.attribute):
        return False
    identities = {n.output[0]: n.input[0] for n in body.node if n.op_type == "Identity"}
    return identities.get(condition_out, condition_out) == condition_in


def _unrolled(node: Any, trips: int, graph: Any) -> list[Any]:
    """The nodes a `Loop` of a constant trip count stands for: its body once per
    iteration, every value the body computes renamed (`<output>/iteration<i>/<name>`),
    the iteration number and condition constants (added to `graph`), the carried values
    passed from one iteration to the next, each scan output the concatenation of its
    iterations' values along a new first axis."""
    body = next(a.g for a in node.attribute if a.name == "body")
    carried = list(node.input[2:])
    count = len(carried)
    nodes: list[Any] = []
    scans: list[list[str]] = [[] for _ in body.output[1 + count :]]
    prefix = node.output[0] or node.name
    for i in range(trips):
        names = {b.name: f"{prefix}/iteration{i}/{b.name}" for b in body.input}
        names.update(
            {out: f"{prefix}/iteration{i}/{out}" for n in body.node for out in n.output if out}
        )
        names.update({t.name: f"{prefix}/iteration{i}/{t.name}" for t in body.initializer})
        for t in body.initializer:
            graph.initializer.append(
                onnx.numpy_helper.from_array(onnx.numpy_helper.to_array(t), names[t.name])
            )
        constants = {body.input[0].name: np.array(i, np.int64), body.input[1].name: np.array(True)}
        for name, value in constants.items():
            graph.initializer.append(onnx.numpy_helper.from_array(value, names[name]))
        for b, value in zip(body.input[2:], carried, strict=True):
            nodes.append(onnx.helper.make_node("Identity", [value], [names[b.name]]))
        for n in body.node:
            copy = onnx.NodeProto()
            copy.CopyFrom(n)
            copy.input[:] = [names.get(name, name) for name in n.input]
            copy.output[:] = [names.get(name, name) for name in n.output]
            copy.name = f"{prefix}/iteration{i}/{n.name}"
            nodes.append(copy)
        outputs = [names.get(o.name, o.name) for o in body.output]
        carried = outputs[1 : 1 + count]
        for scan, value in zip(scans, outputs[1 + count :], strict=True):
            scan.append(value)
    nodes += [
        onnx.helper.make_node("Identity", [value], [out])
        for value, out in zip(carried, node.output[:count], strict=True)
        if out
    ]
    axes = f"{prefix}/scan_axes"
    graph.initializer.append(onnx.numpy_helper.from_array(np.array([0], np.int64), axes))
    for scan, out in zip(scans, node.output[count:], strict=True):
        stacked = [f"{value}/stacked" for value in scan]
        nodes += [
            onnx.helper.make_node("Unsqueeze", [value, axes], [s])
            for value, s in zip(scan, stacked, strict=True)
        ]
        nodes.append(onnx.helper.make_node("Concat", stacked, [out], axis=0))
    return nodes


def _folded(model: Any, where: str) -> tuple[Any, bool]:
    """`model` with every value computed from static shapes alone an initializer, and
    each `If` of a constant condition its taken branch; and whether anything was."""
    graph = model.graph
    shapes = _static_shapes(graph)
    constants = {t.name: onnx.numpy_helper.to_array(t) for t in graph.initializer}
    for node in graph.node:
        if node.op_type == "Constant" and len(node.output) == 1:
            try:
                constants[node.output[0]] = _constant_node_value(node)
            except ValueError:
                continue
    folded: dict[str, np.ndarray] = {}
    known = dict(constants)  # and the folded values
    kept = []
    inlined = False
    for node in graph.node:
        inputs = [name for name in node.input if name]
        if node.op_type == "If" and inputs[0] in known:
            kept.extend(_taken_branch(node, known[inputs[0]], graph))
            inlined = True
            continue
        if node.op_type == "Loop" and _unrollable(node, known):
            trips = int(np.asarray(known[node.input[0]]).reshape(-1)[0])
            kept.extend(_unrolled(node, trips, graph))
            inlined = True
            continue
        if node.op_type in _SHAPE_OPS and inputs and inputs[0] in shapes:
            folded[node.output[0]] = known[node.output[0]] = _shape_value(node, shapes[inputs[0]])
            continue
        if (
            inputs
            and node.op_type not in _RANDOM_OPS
            and len(inputs) == len(node.input)
            and all(name in known for name in inputs)
            and (
                any(name in folded for name in inputs)
                or all(known[name].size <= _SHAPE_SIZE for name in inputs)
            )
        ):
            values = [known[name] for name in inputs]
            try:
                results = _evaluated(node, values, model.opset_import)
            except Exception as error:  # the reference implementation rejects the node
                raise RelaxImportError(
                    f"folding the shape computation at {node.op_type} node '{node.name}' "
                    f"failed: {type(error).__name__}: {error}",
                    where,
                ) from None
            folded.update(zip(node.output, results, strict=True))
            known.update(zip(node.output, results, strict=True))
            continue
        kept.append(node)
    used = {name for node in kept for name in node.input} | {o.name for o in graph.output}
    del graph.node[:]
    graph.node.extend(kept)
    graph.initializer.extend(
        onnx.numpy_helper.from_array(value, name) for name, value in folded.items() if name in used
    )
    return model, inlined or bool(folded)


def _constant_node_value(node: Any) -> np.ndarray:
    """A `Constant` node's tensor (ValueError if it holds anything else)."""
    attribute = node.attribute[0] if len(node.attribute) == 1 else None
    if attribute is None or attribute.name != "value":
        raise ValueError("not a tensor constant")
    return onnx.numpy_helper.to_array(attribute.t)
