"""Progress of long commands: on a terminal (a pseudo-terminal of the test's own), one line
on stderr rewritten in place and cleared at the end; in a pipe, nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from wheel_models import wheel_model_path

ROOT = Path(__file__).parent.parent
TOOLS = Path(sys.executable).parent
ERASE = b"\r\x1b[K"
# A short `exact` run (effort 0.01, a few seconds) that searches beyond the default plan.
EXACT_ON_D = [
    str(ROOT / "benchmarks" / "minimalloc" / "D.1048576.csv"),
    "--plan-pools",
    "--algorithm",
    "exact",
    "--effort",
    "0.01",
    "-t",
    "usmp-report",
]


def sine_model() -> Path:
    model = wheel_model_path("sine-tflite")
    assert model is not None, "sine_float.tflite comes with the test extra: pip install '.[test]'"
    return model


def on_a_terminal(command: list[str]) -> tuple[int, bytes]:
    """Exit status and what `command` wrote to stderr, a pseudo-terminal."""
    controller, terminal = os.openpty()
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stderr=terminal)
    os.close(terminal)
    written = bytearray()
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # EIO: the process closed the terminal
            break
        if not chunk:
            break
        written.extend(chunk)
    os.close(controller)
    return process.wait(), bytes(written)


@pytest.mark.slow
def test_exact_shows_best_pool_and_bound_on_a_terminal(tmp_path: Path) -> None:
    report = tmp_path / "report.txt"
    status, stderr = on_a_terminal([str(TOOLS / "usmp-opt"), *EXACT_ON_D, "-o", str(report)])
    assert status == 0, stderr
    lines = stderr.split(ERASE)
    assert any(b"usmp-opt: best pool " in line and b" bytes, bound " in line for line in lines)
    assert stderr.endswith(ERASE), "the progress line is cleared at the end"
    assert b"\n" not in stderr
    assert "exact" in report.read_text()


@pytest.mark.slow
def test_exact_prints_nothing_more_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    report = tmp_path / "report.txt"
    result = subprocess.run(
        [str(TOOLS / "usmp-opt"), *EXACT_ON_D, "-o", str(report)], capture_output=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    assert "exact" in report.read_text()


def test_a_diagnostic_on_a_terminal_is_not_mixed_with_progress(tmp_path: Path) -> None:
    status, stderr = on_a_terminal([str(TOOLS / "usmp-opt"), str(tmp_path / "missing.mlir")])
    assert status == 1
    assert stderr.startswith(b"usmp-opt: error: cannot read")


@pytest.mark.tvm
def test_a_model_import_shows_its_stages_on_a_terminal(tmp_path: Path) -> None:
    model = sine_model()
    output = tmp_path / "sine.mlir"
    status, stderr = on_a_terminal(
        [str(TOOLS / "usmp-translate"), "--import-tflite", str(model), "-o", str(output)]
    )
    assert status == 0, stderr
    stages = [line.split(b": ", 1)[1].rsplit(b" (", 1)[0] for line in stderr.split(ERASE) if line]
    assert stages == [
        b"TVM's TFLite frontend",
        b"legalization and fusion (TVM)",
        b"lowering to TIR",
        b"import into the tir dialect",
    ]
    assert stderr.endswith(ERASE)
    assert "tir.prim_func @main" in output.read_text()


@pytest.mark.tvm
def test_a_model_import_prints_nothing_more_in_a_pipe(tmp_path: Path) -> None:
    model = sine_model()
    result = subprocess.run(
        [str(TOOLS / "usmp-translate"), "--import-tflite", str(model)], capture_output=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    assert result.stdout.startswith(b"builtin.module")
