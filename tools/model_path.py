#!/usr/bin/env python3
"""Where a real model file the `test` extra installed lives (from a wheel: nothing is
downloaded), so the docs can name it on any machine:

    python tools/model_path.py sine-tflite      # prints the file's path
    python tools/model_path.py --import paddle-det-onnx
        # prints usmp-translate's import flags: --import-onnx PATH --input-shape x=1x3x32x32
    python tools/model_path.py                  # lists every name, its path and input shapes
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
# The tests' list of model files, beside them (not a package mypy sees).
wheel_models = importlib.import_module("wheel_models")
WHEEL_MODELS, wheel_model_path = wheel_models.WHEEL_MODELS, wheel_models.wheel_model_path


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="model_path",
        description="Where a model file the test extra installed lives. Without a name: "
        "every name, its path and the --input-shape flags its import needs.",
    )
    parser.add_argument("name", nargs="?", help="a model's name, as the listing shows it")
    parser.add_argument(
        "--import",
        dest="import_flags",
        action="store_true",
        help="print usmp-translate's flags that import the model (--import-tflite or "
        "--import-onnx PATH, then its --input-shape flags), for "
        "usmp-translate $(python tools/model_path.py --import NAME)",
    )
    return parser


def _import_flags(name: str, path: Path) -> list[str]:
    model = WHEEL_MODELS[name]
    importer = "--import-onnx" if path.suffix == ".onnx" else "--import-tflite"
    return [importer, str(path), *(f"--input-shape {s}" for s in model.input_shapes)]


def _list() -> None:
    for name, model in WHEEL_MODELS.items():
        path = wheel_model_path(name)
        shapes = " ".join(f"--input-shape {s}" for s in model.input_shapes)
        print(f"{name:32} {path or f'(not installed: {model.package})'} {shapes}".rstrip())


def main(argv: list[str]) -> int:
    arguments = _parser().parse_args(argv)
    name = arguments.name
    if name is None:
        _list()
        return 0
    if name not in WHEEL_MODELS:
        print(
            f"model_path: error: no model '{name}' (run without arguments for the list)",
            file=sys.stderr,
        )
        return 1
    path = wheel_model_path(name)
    if path is None:
        print(
            f"model_path: error: '{name}' comes with the package "
            f"{WHEEL_MODELS[name].package}: pip install -e '.[test]'",
            file=sys.stderr,
        )
        return 1
    if arguments.import_flags:
        print(" ".join(_import_flags(name, path)))
        return 0
    print(path)
    if WHEEL_MODELS[name].input_shapes:
        # On stderr: "$(python tools/model_path.py NAME)" stays the path alone.
        print(
            f"model_path: note: import '{name}' with its input shapes: "
            f"usmp-translate {' '.join(_import_flags(name, path))}",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
