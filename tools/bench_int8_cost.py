#!/usr/bin/env python3
"""The "int8 against float32" section of BENCHMARKS.md: what importing and checking an int8
model costs against its float32 twin (tests/int8_tflite.py's `conv_stack_tflite`: the same
stack of convolutions and weights, quantized as TFLite's converter quantizes them or not).

    python tools/bench_int8_cost.py [--repetitions N] [--write [BENCHMARKS.md]]

CPU seconds (this process's and its children's, the C compiler's included: wall seconds
follow the machine's load), the least of N runs after one warm-up, int8 and float32
alternating run by run: `import_model_file` as
`usmp-translate --import-tflite` runs it, and `check_model` as `tools/check_relax_model.py
FILE --target c` runs it (lowered, planned with inputs and outputs, built for c, run, and
compared with the Relax VM, whose build and Relax's own plan it includes).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from benchmark_sections import add_write_option, markdown_section, publish  # noqa: E402


def _cpu_seconds() -> float:
    # This process's at the clock's resolution (`os.times` counts 10 ms ticks: an import
    # of 0.06 s would read as 0.05 or 0.07), its children's as `os.times` has them.
    times = os.times()
    return time.process_time() + times.children_user + times.children_system


def _steps(path: str) -> list[Callable[[], object]]:
    """The import and the check of the model file at `path`."""
    from tests.support.model_check import check_model
    from usmp_dialect.tvm.model_files.loading import import_model_file, load_model_file
    from usmp_dialect.tvm_options import MODEL_FILE_TIR_IMPORT

    mod, weights = load_model_file(path, "tflite")
    return [
        lambda: import_model_file(path, "tflite"),
        lambda: check_model(
            mod, weights, path, tir_import=MODEL_FILE_TIR_IMPORT, workspace_io=True, target="c"
        ),
    ]


def measure(paths: dict[str, str], repetitions: int) -> dict[str, list[float]]:
    """By kind, the least CPU seconds of each step over `repetitions` runs after one
    warm-up, the kinds alternating run by run (the machine's load then weighs on both)."""
    steps = {kind: _steps(path) for kind, path in paths.items()}
    least = {kind: [float("inf")] * 2 for kind in paths}
    for repetition in range(repetitions + 1):
        for kind, runs in steps.items():
            for i, run in enumerate(runs):
                began = _cpu_seconds()
                run()
                if repetition:
                    least[kind][i] = min(least[kind][i], _cpu_seconds() - began)
    return least


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_write_option(parser)
    parser.add_argument("--repetitions", type=int, default=5)
    args = parser.parse_args()
    command = "python tools/bench_int8_cost.py" + "".join(f" {a}" for a in sys.argv[1:])
    # The tests' model writer, beside this script's folder (not a package).
    conv_stack_tflite = importlib.import_module("int8_tflite").conv_stack_tflite
    paths = {}
    with tempfile.TemporaryDirectory() as folder:
        for kind in ("int8", "float32"):
            paths[kind] = str(Path(folder) / f"conv_stack_{kind}.tflite")
            Path(paths[kind]).write_bytes(conv_stack_tflite(int8=kind == "int8"))
        seconds = measure(paths, args.repetitions)
    for kind, (imported, checked) in seconds.items():
        print(f"{kind}: import {imported:.3f} s, check {checked:.3f} s")
    rows = [
        [
            step,
            f"{seconds['int8'][i]:.3f}",
            f"{seconds['float32'][i]:.3f}",
            f"{seconds['int8'][i] / seconds['float32'][i]:.2f}x",
        ]
        for i, step in enumerate(["import", "check"])
    ]
    section = markdown_section(
        "## int8 against float32",
        [
            f"`{command}`: CPU seconds (the C compiler's included), the least of "
            f"{args.repetitions} runs after a warm-up, the two models alternating run by "
            "run, of a stack of six 3x3 convolutions "
            "of 16 channels on 16x16 (tests/int8_tflite.py, `conv_stack_tflite`) quantized "
            "to int8 as TFLite's converter quantizes it, and its float32 twin.",
        ],
        ["step", "int8 (CPU s)", "float32 (CPU s)", "int8 ÷ float32"],
        rows,
    )
    publish(section, args)


if __name__ == "__main__":
    main()
