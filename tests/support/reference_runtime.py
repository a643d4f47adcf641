"""A model file run by the runtime it was made for, the yardstick of our outputs:

    reference_outputs(path, inputs) -> list of arrays     TFLM for .tflite, onnxruntime for .onnx
    reference_inputs(path) -> int                         how many inputs that runtime takes

TensorFlow Lite Micro's interpreter is the `tflite-micro` wheel's; onnxruntime comes with
the test extra. A streaming `.tflite` file keeps
its resource variables inside the interpreter, where our import makes each an input and an
output: the interpreter takes the file's own inputs only.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from usmp_dialect.tvm.tflm.arena import LARGEST_ARENA


def reference_inputs(path: str) -> int:
    """How many inputs the file's own runtime takes."""
    if path.endswith(".onnx"):
        import onnx

        graph = onnx.load(path, load_external_data=False).graph
        initialized = {t.name for t in graph.initializer}
        return sum(1 for i in graph.input if i.name not in initialized)
    import tflite

    return int(tflite.Model.GetRootAsModel(Path(path).read_bytes(), 0).Subgraphs(0).InputsLength())


def reference_outputs(path: str, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The file's outputs for `inputs` (in the file's order) from its own runtime:
    TensorFlow Lite Micro's interpreter for a `.tflite`, onnxruntime for an `.onnx`."""
    if path.endswith(".onnx"):
        import onnxruntime

        session = onnxruntime.InferenceSession(path, providers=["CPUExecutionProvider"])
        names = [i.name for i in session.get_inputs()]
        return list(session.run(None, dict(zip(names, inputs, strict=True))))
    import tflite

    interpreter = _tflm_interpreter(path)
    for index, array in enumerate(inputs):
        interpreter.set_input(array, index)
    interpreter.invoke()
    outputs = tflite.Model.GetRootAsModel(Path(path).read_bytes(), 0).Subgraphs(0).OutputsLength()
    return [interpreter.get_output(i) for i in range(outputs)]


def _tflm_interpreter(path: str) -> Any:
    """TFLM's interpreter on `path` with the arena it needs: the wheel's default (10x the
    file's size) is too small for a model with small weights and large activations, so the
    arena doubles until TFLM allocates (as `tflm_arena` measures it)."""
    from tflite_micro.python.tflite_micro import runtime

    size = 10 * Path(path).stat().st_size
    while True:
        try:
            return runtime.Interpreter.from_file(path, arena_size=size)
        except RuntimeError as error:
            if "allocate" not in str(error) or size >= LARGEST_ARENA:
                raise
            size *= 2
