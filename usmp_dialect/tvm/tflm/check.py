"""A planned `.tflite` file checked with TensorFlow Lite Micro itself (the `tflite-micro`
wheel's interpreter):

    check_offline_plan(original, planned, planned_size) -> TflmCheck

TFLM runs both files on the same inputs (two invocations of seeded random values, so that
a model's state carries from one to the next); the outputs must be equal to the bit, and
TFLM's head for the planned file at least our plan's size (what it adds is its kernels'
scratch buffers, which TFLM always places at run time). The runs are in a child process
(`python -m usmp_dialect.tvm.tflm.check ORIGINAL PLANNED ARENA`), as `tflm.arena`'s are.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass

import numpy as np

from usmp_dialect.tvm.tflm.arena import TflmError, tflm_arena

_INVOCATIONS = 2
_SAME = "outputs identical"


@dataclass(frozen=True)
class TflmCheck:
    head_before: int
    head_after: int
    planned_size: int
    outputs_identical: bool
    total_before: int
    """TFLM's whole arena for the original: head and persistent tail."""
    total_after: int

    @property
    def scratch(self) -> int:
        """What TFLM's head holds above our plan: its kernels' scratch buffers that did not
        fit the plan's gaps."""
        return self.head_after - self.planned_size

    def report(self) -> str:
        same = "identical" if self.outputs_identical else "DIFFERENT"
        return (
            f"TFLM head before: {self.head_before} B\n"
            f"TFLM head after:  {self.head_after} B (our plan {self.planned_size} B, "
            f"TFLM's kernels' scratch above it {self.scratch} B)\n"
            f"outputs on the same inputs: {same}\n"
        )


def check_offline_plan(original: str, planned: str, planned_size: int) -> TflmCheck:
    """TFLM's heads for both files and whether their outputs agree; a `TflmError` if TFLM
    cannot run one of them."""
    head_before, total_before = tflm_arena(original)
    head_after, total_after = tflm_arena(planned)
    arena = 2 * max(total_before, total_after)
    child = subprocess.run(
        [sys.executable, "-m", __name__, original, planned, str(arena)],
        capture_output=True,
        text=True,
        check=False,
    )
    if child.returncode != 0:
        told = (child.stderr or child.stdout).strip().splitlines()
        raise TflmError(told[-1] if told else f"TFLM exited with status {child.returncode}")
    identical = _SAME in child.stdout.splitlines()
    return TflmCheck(head_before, head_after, planned_size, identical, total_before, total_after)


def _outputs(path: str, arena: int, inputs: list[list]) -> list:
    from tflite_micro.python.tflite_micro import runtime

    interpreter = runtime.Interpreter.from_file(path, arena_size=arena)
    outputs = []
    for values in inputs:
        for i, value in enumerate(values):
            interpreter.set_input(value, i)
        interpreter.invoke()
        count = len(_details(interpreter.get_output_details))
        outputs.append([interpreter.get_output(i).copy() for i in range(count)])
    return outputs


def _details(get: object) -> list[dict]:
    """Every input's (or output's) details: the wheel answers one index at a time."""
    found: list[dict] = []
    while True:
        try:
            found.append(get(len(found)))  # type: ignore[operator]
        except (IndexError, RuntimeError, ValueError):
            return found


def _random_inputs(path: str, arena: int) -> list[list]:
    from tflite_micro.python.tflite_micro import runtime

    interpreter = runtime.Interpreter.from_file(path, arena_size=arena)
    generator = np.random.default_rng(0)
    inputs = []
    for _ in range(_INVOCATIONS):
        values = []
        for detail in _details(interpreter.get_input_details):
            dtype, shape = np.dtype(detail["dtype"]), tuple(detail["shape"])
            if dtype.kind in "iu":
                info = np.iinfo(dtype)
                values.append(
                    generator.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
                )
            elif dtype.kind == "b":
                values.append(generator.integers(0, 1, shape, endpoint=True).astype(dtype))
            else:
                values.append(generator.standard_normal(shape).astype(dtype))
        inputs.append(values)
    return inputs


def _compare(original: str, planned: str, arena: int) -> None:
    """The child: prints whether both files give the same outputs."""
    inputs = _random_inputs(original, arena)
    before, after = _outputs(original, arena, inputs), _outputs(planned, arena, inputs)
    same = all(
        a.dtype == b.dtype
        and a.shape == b.shape
        and np.array_equal(a.view(np.uint8), b.view(np.uint8))
        for run_a, run_b in zip(before, after, strict=True)
        for a, b in zip(run_a, run_b, strict=True)
    )
    print(_SAME if same else "outputs differ")


if __name__ == "__main__":
    _compare(sys.argv[1], sys.argv[2], int(sys.argv[3]))
