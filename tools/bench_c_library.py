#!/usr/bin/env python3
"""The "C library" section of BENCHMARKS.md: each model's library of `usmp-translate
--emit-c` built and run on this machine (x86-64, cc) and on QEMU's Cortex-M55 (MPS3
AN547, arm-none-eabi-gcc), its linked image's sections next to TensorFlow Lite Micro's
arena for the same `.tflite`, and both runs' outputs against the Relax VM.

    python tools/bench_c_library.py [--only NAME,...] [--write [BENCHMARKS.md]]

Needs the ARM toolchain and QEMU (`apt-get install -y gcc-arm-none-eabi
libnewlib-arm-none-eabi qemu-system-arm`) and the test extra's model wheels. A few
minutes: the larger models run tens of seconds under QEMU.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from benchmark_sections import add_write_option, markdown_section, publish  # noqa: E402

from tests.support.model_check import check_model  # noqa: E402
from usmp_dialect.tvm.tflm.arena import tflm_arena  # noqa: E402

ZOO = ["mlp", "cnn", "mobilenet", "resnet", "transformer"]
MODEL_FILES = [
    "sine-tflite",
    "wakeword-okay-nabu-tflite",
    "wakeword-hey-mycroft-tflite",
    "wakeword-embedding-tflite",
    "paddle-cls-onnx",
    "conv2d-onnx",
]
INT8_CNN = "int8-cnn-tflite"
TOLERANCE = 1e-5


def _load(name: str, scratch: str) -> tuple[Any, Any, str, Any, str | None]:
    """The model, its weights, where errors point, its lowering, and its `.tflite` file."""
    from usmp_dialect.tvm.model_files.loading import load_model_file
    from usmp_dialect.tvm.relax.model_spec import load_model
    from usmp_dialect.tvm_options import (
        DEFAULT_TIR_IMPORT,
        MODEL_FILE_TIR_IMPORT,
        parse_input_shapes,
    )

    if name in ZOO:
        spec = f"{ROOT}/examples/models/{name}.py:{name}"
        mod, weights = load_model(spec)
        return mod, weights, spec, DEFAULT_TIR_IMPORT, None
    # The models the tests write and the wheels they use (tests/, beside this script's).
    wheel_models = importlib.import_module("wheel_models")
    if name == INT8_CNN:
        path = os.path.join(scratch, "int8_cnn.tflite")
        Path(path).write_bytes(importlib.import_module("int8_tflite").int8_cnn_tflite())
        shapes: tuple[str, ...] = ()
    else:
        found = wheel_models.wheel_model_path(name)
        if found is None:
            sys.exit(f"the wheel of {name} is not installed (pip install -e '.[tvm,test]')")
        path, shapes = str(found), wheel_models.WHEEL_MODELS[name].input_shapes
    kind = "tflite" if path.endswith(".tflite") else "onnx"
    mod, weights = load_model_file(path, kind, parse_input_shapes(shapes))
    tflite = path if kind == "tflite" and not shapes else None
    return mod, weights, path, MODEL_FILE_TIR_IMPORT, tflite


def _verdict(result: Any) -> str:
    worst = max((o.max_error for o in result.outputs), default=0.0)
    return f"{worst:.2g}" if all(o.agrees for o in result.outputs) else f"DIFFERS {worst:.2g}"


def _sections(sizes: Any) -> list[str]:
    return [str(sizes.bss), str(sizes.data), str(sizes.rodata), str(sizes.text)]


def measure(name: str, scratch: str) -> list[str]:
    mod, weights, where, tir_import, tflite = _load(name, scratch)
    kwargs = {"tir_import": tir_import, "tolerance": TOLERANCE}
    host = check_model(mod, weights, where, executor="c", **kwargs)
    workspace = sum(size for pool, size in host.pools.items() if pool != host.constant_pool)
    row = [name, str(workspace), *_sections(host.library.sizes)]
    try:
        board = check_model(mod, weights, where, executor="qemu", **kwargs)
    except Exception as error:  # the linker's "region overflowed": the board is too small
        message = str(error)
        if "overflow" not in message and "will not fit" not in message:
            raise
        board = None
    row += _sections(board.library.sizes) if board else ["does not fit"] + [""] * 3
    row.append(str(board.library.stack) if board else "")
    if tflite is not None:
        head, total = tflm_arena(tflite)
        row.append(f"{head} / {total}")
    else:
        row.append("n/a")
    row.append(_verdict(host))
    if board is None:
        row.append("-")
    else:
        same = all(
            host.library.outputs[k].tobytes() == board.library.outputs[k].tobytes()
            for k in host.library.outputs
        )
        row.append(_verdict(board) + ("" if same else " (host: not bit-equal)"))
    row.append(f"{host.library.build_seconds:.1f}")
    return row


HEADER = [
    "model",
    "workspace pool",
    "x86-64 .bss",
    ".data",
    ".rodata",
    ".text",
    "M55 .bss",
    ".data",
    ".rodata",
    ".text",
    "M55 stack",
    "TFLM arena (head / total)",
    "host vs Relax VM",
    "QEMU vs Relax VM",
    "build s",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated model names")
    add_write_option(parser)
    args = parser.parse_args()
    names = [*ZOO, INT8_CNN, *MODEL_FILES]
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-c-") as scratch:
        for name in names:
            try:
                rows.append(measure(name, scratch))
            except Exception as error:  # reported in its row; the table is then not written
                reason = str(error).strip().splitlines()
                rows.append([name, f"fails: {reason[0] if reason else type(error).__name__}"])
                rows[-1] += [""] * (len(HEADER) - len(rows[-1]))
    command = "python tools/bench_c_library.py --write"
    preamble = [
        f"`{command}`: each model planned (`--plan-pools --constant-pool`), written by "
        "`usmp-translate --emit-c`, built by its Makefile and run once with every pool "
        "prefilled with 0xFF: on x86-64 (`cc -std=c11 -O2`) and on QEMU's Cortex-M55 "
        "(`arm-none-eabi-gcc -mcpu=cortex-m55 -O2`, MPS3 AN547, semihosting). Bytes of the "
        "linked runner's sections (`size -A`): `.bss` is the workspace pool plus the "
        "runner's input and output arrays (and, on the board, newlib's few hundred bytes), "
        "`.rodata` the constant pool; M55 stack: the most `model_run` needs there, by "
        "`-fstack-usage` (its frame, the entry's and the largest operator's). TFLM arena: "
        "TensorFlow Lite Micro's arena for the same `.tflite` (non-persistent head / "
        "total). Outputs: the "
        f"largest |difference| from the Relax VM on the same random inputs (tolerance "
        f"{TOLERANCE:g}; int8 models exact); QEMU's also compared byte for byte with the "
        "host's. Build s: `make` of the host runner, seconds.",
    ]
    section = markdown_section("## C library", preamble, HEADER, rows)
    publish(section, args, complete=not any(row[1].startswith("fails") for row in rows))


if __name__ == "__main__":
    main()
