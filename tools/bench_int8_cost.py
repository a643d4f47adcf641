#!/usr/bin/env python3
"""The "int8 against float32" section of BENCHMARKS.md: what importing and checking an int8
model costs against its float32 twin (tests/int8_tflite.py's `conv_stack_tflite`: the same
stack of convolutions and weights, quantized as TFLite's converter quantizes them or not).

    python tools/bench_int8_cost.py [--repetitions N] [--write [BENCHMARKS.md]]

CPU seconds (this process's and its children's, the C compiler's included: wall seconds
follow the machine's load), the least of N runs after one warm-up: `import_model_file` as
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
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from benchmark_sections import add_write_option, markdown_section, publish  # noqa: E402


def _cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def _least(run: Callable[[], object], repetitions: int) -> float:
    run()
    spent = []
    for _ in range(repetitions):
        began = _cpu_seconds()
        run()
        spent.append(_cpu_seconds() - began)
    return min(spent)


def measure(path: str, repetitions: int) -> tuple[float, float]:
    from usmp_dialect.tvm.model_check import check_model
    from usmp_dialect.tvm.model_files.loading import import_model_file, load_model_file
    from usmp_dialect.tvm.relax.lowering import MODEL_FILE_LOWERING

    imported = _least(lambda: import_model_file(path, "tflite"), repetitions)
    mod, weights = load_model_file(path, "tflite")
    checked = _least(
        lambda: check_model(
            mod, weights, path, lowering=MODEL_FILE_LOWERING, workspace_io=True, target="c"
        ),
        repetitions,
    )
    return imported, checked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_write_option(parser)
    parser.add_argument("--repetitions", type=int, default=3)
    args = parser.parse_args()
    command = "python tools/bench_int8_cost.py" + "".join(f" {a}" for a in sys.argv[1:])
    # The tests' model writer, beside this script's folder (not a package).
    conv_stack_tflite = importlib.import_module("int8_tflite").conv_stack_tflite
    seconds = {}
    with tempfile.TemporaryDirectory() as folder:
        for kind in ("int8", "float32"):
            path = Path(folder) / f"conv_stack_{kind}.tflite"
            path.write_bytes(conv_stack_tflite(int8=kind == "int8"))
            seconds[kind] = measure(str(path), args.repetitions)
            print(f"{kind}: import {seconds[kind][0]:.2f} s, check {seconds[kind][1]:.2f} s")
    rows = [
        [
            step,
            f"{seconds['int8'][i]:.2f}",
            f"{seconds['float32'][i]:.2f}",
            f"{seconds['int8'][i] / seconds['float32'][i]:.2f}x",
        ]
        for i, step in enumerate(["import", "check"])
    ]
    section = markdown_section(
        "## int8 against float32",
        [
            f"`{command}`: CPU seconds (the C compiler's included), the least of "
            f"{args.repetitions} runs after a warm-up, of a stack of six 3x3 convolutions "
            "of 16 channels on 16x16 (tests/int8_tflite.py, `conv_stack_tflite`) quantized "
            "to int8 as TFLite's converter quantizes it, and its float32 twin.",
        ],
        ["step", "int8 (CPU s)", "float32 (CPU s)", "int8 ÷ float32"],
        rows,
    )
    publish(section, args)


if __name__ == "__main__":
    main()
