#!/usr/bin/env python3
"""Where a real model file the `test` extra installed lives (from a wheel: nothing is
downloaded), so the docs can name it on any machine:

    python tools/model_path.py sine-tflite      # prints the file's path
    python tools/model_path.py                  # lists every name, its path and input shapes
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
# The tests' list of model files, beside them (not a package mypy sees).
wheel_models = importlib.import_module("wheel_models")
WHEEL_MODELS, wheel_model_path = wheel_models.WHEEL_MODELS, wheel_models.wheel_model_path


def main(argv: list[str]) -> int:
    if not argv:
        for name, model in WHEEL_MODELS.items():
            path = wheel_model_path(name)
            shapes = " ".join(f"--input-shape {s}" for s in model.input_shapes)
            print(f"{name:32} {path or f'(not installed: {model.package})'} {shapes}".rstrip())
        return 0
    name = argv[0]
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
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
