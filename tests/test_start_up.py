"""A tool's start-up pays only for what the run uses: numba and TVM are loaded by a
compiled kernel or a TVM path, never by `--help` or a small plan."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]

_LOADED = """
import sys
from usmp_dialect.tools.usmp_opt import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(sorted({name.partition(".")[0] for name in sys.modules} & {"numba", "numpy", "tvm"}))
"""


def _loaded_by(*argv: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", _LOADED, *argv], capture_output=True, text=True, check=True
    )
    return done.stdout.splitlines()[-1]


def test_help_loads_neither_numba_nor_tvm():
    assert "numba" not in _loaded_by("--help")
    assert "tvm" not in _loaded_by("--help")


@pytest.mark.parametrize(
    "example", ["examples/memref/chain.mlir", "tests/filecheck/transforms/usmp-plan.mlir"]
)
def test_planning_a_few_buffers_loads_no_numba(tmp_path: Path, example: str):
    output = tmp_path / "planned.mlir"
    assert _loaded_by(str(ROOT / example), "--plan-pools", "-o", str(output)) == "['numpy']"
    assert "size" in output.read_text()
