"""`tools/model_path.py`: its help, and what it prints for a model whose import needs
`--input-shape` flags: the path alone on stdout (for `"$(...)"`), the flags beside it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from wheel_models import wheel_model_path  # noqa: E402


def _model_path(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "tools" / "model_path.py"), *arguments],
        capture_output=True,
        text=True,
    )


def _installed(name: str) -> Path:
    path = wheel_model_path(name)
    assert path is not None, f"{name} is missing: pip install -e '.[test]'"
    return path


def test_help_is_not_a_model_name():
    result = _model_path("--help")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: model_path")
    assert "--import" in result.stdout


def test_a_model_with_input_shapes_names_them():
    path = _installed("paddle-det-onnx")
    flags = f"--import-onnx {path} --input-shape x=1x3x32x32"
    plain = _model_path("paddle-det-onnx")
    assert plain.returncode == 0
    assert plain.stdout == f"{path}\n"
    assert f"usmp-translate {flags}" in plain.stderr
    assert _model_path("--import", "paddle-det-onnx").stdout == f"{flags}\n"


def test_a_tflite_model_imports_with_its_own_flag():
    path = _installed("sine-tflite")
    result = _model_path("--import", "sine-tflite")
    assert (result.stdout, result.stderr) == (f"--import-tflite {path}\n", "")


def test_an_unknown_name_is_an_error():
    result = _model_path("nope")
    assert result.returncode == 1
    assert result.stderr == (
        "model_path: error: no model 'nope' (run without arguments for the list)\n"
    )
