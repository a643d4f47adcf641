"""Writes an ONNX model `usmp-translate --import-onnx` cannot take: `python bad_onnx.py
KIND OUT.onnx`, KIND one of

    unsupported   a `Celu`, which TVM 0.27's ONNX frontend does not convert
    bad-attribute a `BitShift` of direction UP, which the frontend fails on (and prints)
    dynamic       a `NonZero`, whose output's length is known only at run time
    nms           a `NonMaxSuppression` after a `Relu`: TVM types its output statically
                  but legalizes it to a length computed from the boxes
    shape-chain   a `Reshape` to a `Concat` of a `Shape` cast and sliced (static once x's
                  shape is given; TVM's frontend alone fails on it)
    softmax-11    a `Softmax` of opset 11, which TVM's frontend decomposes into reshape,
                  softmax, reshape (the file names only the last)
    short-external-data
                  an `Add` of a weight stored in OUT.onnx.weights, next to the model, which
                  holds 8 of its 16 bytes
"""

import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def model(nodes, inputs, outputs, initializers=(), opset=17):
    graph = helper.make_graph(nodes, "bad", inputs, outputs, list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def tensor(name, dims):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, dims)


KINDS = {
    "unsupported": lambda: model(
        [helper.make_node("Celu", ["x"], ["y"], name="celu0")],
        [tensor("x", [2, 3])],
        [tensor("y", [2, 3])],
    ),
    "bad-attribute": lambda: model(
        [helper.make_node("BitShift", ["x", "x"], ["y"], name="shift0", direction="UP")],
        [helper.make_tensor_value_info("x", TensorProto.UINT8, [4])],
        [helper.make_tensor_value_info("y", TensorProto.UINT8, [4])],
    ),
    "dynamic": lambda: model(
        [helper.make_node("NonZero", ["x"], ["y"], name="nonzero0")],
        [tensor("x", [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.INT64, [2, None])],
    ),
    "nms": lambda: model(
        [
            helper.make_node("Relu", ["boxes"], ["relu_boxes"], name="relu0"),
            helper.make_node(
                "NonMaxSuppression", ["relu_boxes", "scores", "k", "iou"], ["sel"], name="nms0"
            ),
        ],
        [tensor("boxes", [1, 6, 4]), tensor("scores", [1, 1, 6])],
        [helper.make_tensor_value_info("sel", TensorProto.INT64, [None, 3])],
        [
            numpy_helper.from_array(np.array([3], np.int64), "k"),
            numpy_helper.from_array(np.array([0.5], np.float32), "iou"),
        ],
    ),
    # As PaddleOCR's exporter writes a flatten: through int32 and a Slice of the shape.
    "shape-chain": lambda: model(
        [
            helper.make_node("Shape", ["x"], ["s"]),
            helper.make_node("Cast", ["s"], ["s32"], to=TensorProto.INT32),
            helper.make_node("Slice", ["s32", "zero", "one", "zero"], ["batch32"]),
            helper.make_node("Cast", ["batch32"], ["batch"], to=TensorProto.INT64),
            helper.make_node("Concat", ["batch", "minus_one"], ["new_shape"], axis=0),
            helper.make_node("Reshape", ["x", "new_shape"], ["flat"]),
            helper.make_node("Relu", ["flat"], ["y"]),
        ],
        [tensor("x", ["batch", 3, 4])],
        [tensor("y", ["batch", 12])],
        [
            numpy_helper.from_array(np.array([-1], dtype=np.int64), "minus_one"),
            numpy_helper.from_array(np.array([0], dtype=np.int64), "zero"),
            numpy_helper.from_array(np.array([1], dtype=np.int64), "one"),
        ],
    ),
    "softmax-11": lambda: model(
        [
            helper.make_node("MatMul", ["x", "fc.w"], ["fc.out"], name="fc"),
            helper.make_node("Softmax", ["fc.out"], ["prob"], name="softmax", axis=1),
        ],
        [tensor("x", [1, 4])],
        [tensor("prob", [1, 3])],
        [numpy_helper.from_array(np.ones((4, 3), dtype=np.float32), "fc.w")],
        opset=11,
    ),
}


def short_external_data(out: str) -> onnx.ModelProto:
    weights = Path(f"{out}.weights")
    weights.write_bytes(bytes(8))
    w = numpy_helper.from_array(np.ones(4, dtype=np.float32), "w")
    w.ClearField("raw_data")
    w.data_location = TensorProto.EXTERNAL
    for key, value in {"location": weights.name, "offset": "0", "length": "16"}.items():
        entry = w.external_data.add()
        entry.key, entry.value = key, value
    return model(
        [helper.make_node("Add", ["x", "w"], ["y"])], [tensor("x", [4])], [tensor("y", [4])], [w]
    )


if __name__ == "__main__":
    kind, out = sys.argv[1:]
    if kind == "short-external-data":
        onnx.save(short_external_data(out), out)
    else:
        onnx.save(KINDS[kind](), out)
