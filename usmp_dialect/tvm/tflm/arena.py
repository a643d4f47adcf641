"""TensorFlow Lite Micro's arena for a `.tflite` file, from the `tflite-micro` wheel's
interpreter (its recording allocator), given the arena it needs:

    tflm_arena(path) -> (non-persistent head, total) bytes      TflmError if TFLM cannot run it
    shared_arena(arenas) -> bytes of one arena the models' interpreters share
    variable_bytes(path) -> bytes of the file's variables (in TFLM's persistent tail)

The head is where TFLM plans every tensor of the graph, inputs and outputs included; the
total adds the persistent tail of interpreter structures. The wheel's default arena is 10x
the file's size, too small for a model with small weights and large activations: the arena
starts there and doubles until TFLM allocates. Each try runs in a child process
(`python -m usmp_dialect.tvm.tflm.arena PATH BYTES`): TFLM's interpreter can crash the
process when its arena cannot even hold its own structures.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

# Beyond this, a model is not one for a microcontroller: TFLM "fails" on it.
LARGEST_ARENA = 1 << 30
# What TFLM's allocator prints when the arena is too small (and nothing else is wrong).
_TOO_SMALL = re.compile(r"Failed to (allocate|resize)|missing: \d+")
_ALLOCATION = re.compile(r"Arena allocation (head|total) (\d+) bytes")


class TflmError(RuntimeError):
    """TFLM cannot run the model (no kernel for an operator, a kernel rejects it): the
    message is what TFLM said."""


def tflm_arena(path: str) -> tuple[int, int]:
    """(non-persistent head, total) bytes of TFLM's arena for the `.tflite` file `path`,
    the arena grown until TFLM allocates; a `TflmError` saying why if it never does."""
    size = 10 * Path(path).stat().st_size
    while True:
        child = subprocess.run(
            [sys.executable, "-m", __name__, path, str(size)],
            capture_output=True,
            text=True,
            check=False,
        )
        printed = child.stdout + child.stderr
        found = dict(_ALLOCATION.findall(printed))
        if child.returncode == 0 and len(found) == 2:
            return int(found["head"]), int(found["total"])
        crashed = child.returncode < 0  # a signal: the arena could not hold TFLM's structures
        if not (crashed or _TOO_SMALL.search(printed)):
            raise TflmError(_reason(printed, child.returncode))
        if size >= LARGEST_ARENA:
            raise TflmError(f"no arena up to {LARGEST_ARENA} bytes is large enough")
        size *= 2


def shared_arena(arenas: Sequence[tuple[int, int]]) -> int:
    """Bytes of the one arena TFLM's interpreters share (its multi-tenant allocator: one
    `MicroAllocator` handed to each), given each model's (head, total) alone: the models
    run one after another, so the head is the largest model's and every model keeps its
    own persistent tail."""
    return max(head for head, _ in arenas) + sum(total - head for head, total in arenas)


# Bytes an element of a TFLite TensorType (FLOAT32, FLOAT16, INT32, UINT8, INT64, BOOL,
# INT16, INT8, FLOAT64).
_ELEMENT_BYTES = {0: 4, 1: 2, 2: 4, 3: 1, 4: 8, 6: 1, 7: 2, 9: 1, 10: 8}


def variable_bytes(path: str) -> int:
    """The bytes of the `.tflite` file's variables, of which TFLM keeps one copy each in
    its persistent tail (outside the non-persistent head): its variable tensors (an SVDF's
    or an LSTM's state) and its resource variables, each the constant its CALL_ONCE
    subgraph assigns it (the subgraphs after the first)."""
    import tflite
    from tflite.BuiltinOperator import BuiltinOperator

    model = tflite.Model.GetRootAsModel(Path(path).read_bytes(), 0)
    main = model.Subgraphs(0)
    total = sum(
        int(np.prod(tensor.ShapeAsNumpy())) * _ELEMENT_BYTES[tensor.Type()]
        for tensor in (main.Tensors(t) for t in range(main.TensorsLength()))
        if tensor.IsVariable()
    )
    for index in range(1, model.SubgraphsLength()):
        graph = model.Subgraphs(index)
        for position in range(graph.OperatorsLength()):
            op = graph.Operators(position)
            code = model.OperatorCodes(op.OpcodeIndex())
            if max(code.BuiltinCode(), code.DeprecatedBuiltinCode()) == (
                BuiltinOperator.ASSIGN_VARIABLE
            ):
                value = graph.Tensors(op.Inputs(1))
                total += model.Buffers(value.Buffer()).DataLength()
    return total


def _reason(printed: str, returncode: int) -> str:
    """TFLM's own words: its first two lines (what failed, and at which node)."""
    told = [line.strip() for line in printed.splitlines() if line.strip()]
    if not told:
        return f"TFLM's interpreter exited with status {returncode}"
    return "; ".join(told[:2])


def _allocate(path: str, size: int) -> None:
    """The child: TFLM's interpreter on the file with a `size`-byte arena, its
    allocations printed (exit 1 with TFLM's message if it does not allocate)."""
    from tflite_micro.python.tflite_micro import runtime

    try:
        interpreter = runtime.Interpreter.from_file(path, arena_size=size)
    except RuntimeError as error:
        sys.exit(str(error))
    interpreter.print_allocations()


if __name__ == "__main__":
    _allocate(sys.argv[1], int(sys.argv[2]))
