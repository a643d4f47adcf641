"""A tool's start-up pays only for what the run uses: numba and TVM are loaded by a
compiled kernel or a TVM path, never by `--help` or a small plan; `--help` and a usage
error load no numpy, no dialect of ours, no parser and no pass (xdsl-opt's start-up)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from usmp_dialect.planning.algorithms import ahead_of_time

ROOT = Path(__file__).parents[1]

_LOADED = """
import json, os, sys
from usmp_dialect.tools.console import usmp_opt
try:
    usmp_opt(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps({"modules": sorted(sys.modules), "blas": os.environ.get("OPENBLAS_NUM_THREADS")}))
"""

THIRD_PARTY = {"numba", "numpy", "tvm"}

IR_MODULES = (
    "usmp_dialect.dialects.usmp",
    "usmp_dialect.dialects.tir",
    "usmp_dialect.parsing",
    "usmp_dialect.transforms",
    "usmp_dialect.planning.problem",
    "usmp_dialect.planning.rules",
    "usmp_dialect.formats",
    "usmp_dialect.reports",
)
"""What reads, plans or prints IR: loaded by the run that does it."""


def _run(*argv: str, env: dict[str, str] | None = None) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", _LOADED, *argv],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    return json.loads(done.stdout.splitlines()[-1])


def _loaded_by(*argv: str) -> list[str]:
    return _run(*argv)["modules"]


def _third_party(modules: list[str]) -> list[str]:
    return sorted({name.partition(".")[0] for name in modules} & THIRD_PARTY)


@pytest.mark.parametrize("argv", [["--help"], ["--help-all"], ["--plan-pools", "-p", "cse"]])
def test_help_and_usage_errors_load_no_numpy_and_no_ir(argv: list[str]):
    loaded = _loaded_by(*argv)
    assert _third_party(loaded) == []
    assert [m for m in loaded if m.startswith(IR_MODULES)] == []


@pytest.mark.parametrize(
    "example", ["examples/memref/chain.mlir", "tests/filecheck/transforms/usmp-plan.mlir"]
)
def test_planning_a_few_buffers_loads_no_numba(tmp_path: Path, example: str):
    output = tmp_path / "planned.mlir"
    assert _third_party(_loaded_by(str(ROOT / example), "--plan-pools", "-o", str(output))) == [
        "numpy"
    ]
    assert "size" in output.read_text()


def test_a_plan_at_max_live_is_not_climbed(tmp_path: Path):
    """chain.mlir's first greedy plan is at max-live, proven: no hill climb (nor numpy's
    random module) runs after it, and no numpy.ma is loaded (`np.unique` loads it)."""
    output = tmp_path / "planned.mlir"
    loaded = _loaded_by(str(ROOT / "examples/memref/chain.mlir"), "--plan-pools", "-o", str(output))
    assert "numpy.random" not in loaded
    assert "numpy.ma" not in loaded


def test_a_plan_the_search_proves_at_once_loads_no_numba(tmp_path: Path):
    """MiniMalloc's C: the first order's plan is 1.36x max-live, and the search's question
    at max-live finds a plan there in half a million steps: few enough for plain Python."""
    output = tmp_path / "report.json"
    instance = ROOT / "benchmarks/minimalloc/C.1048576.csv"
    argv = [str(instance), "--plan-pools", "-t", "usmp-report{format=json}", "-o", str(output)]
    assert _third_party(_loaded_by(*argv)) == ["numpy"]
    report = json.loads(output.read_text())
    assert [pool["size"] for pool in report["pools"]] == [1039360]
    assert report["plan"]["proven_optimal"]


def _plan_of_k(tmp_path: Path, env: dict[str, str] | None = None) -> tuple[list[str], dict]:
    output = tmp_path / "report.json"
    instance = ROOT / "benchmarks/minimalloc/K.1048576.csv"
    argv = [str(instance), "--plan-pools", "-t", "usmp-report{format=json}", "-o", str(output)]
    loaded = _run(*argv, env=env)["modules"]
    return loaded, json.loads(output.read_text())


def test_a_long_search_runs_its_kernel_built_ahead_of_time_without_numba(tmp_path: Path):
    """MiniMalloc's K: 5.6M steps at max-live, too many for plain Python. The first run on
    a machine builds the search loop ahead of time (when no earlier run did); the next
    loads it and not numba."""
    _plan_of_k(tmp_path)
    loaded, report = _plan_of_k(tmp_path)
    assert _third_party(loaded) == ["numpy"]
    assert [pool["size"] for pool in report["pools"]] == [1048576]
    assert report["plan"]["proven_optimal"]


def test_kernels_that_cannot_be_built_run_under_numbas_jit(tmp_path: Path):
    cache = tmp_path / "kernels"
    env = {
        **os.environ,
        "CC": str(tmp_path / "no-compiler"),
        ahead_of_time.CACHE_VARIABLE: str(cache),
    }
    loaded, report = _plan_of_k(tmp_path, env)
    assert "numba" in _third_party(loaded)
    assert [pool["size"] for pool in report["pools"]] == [1048576]
    assert report["plan"]["proven_optimal"]
    notes = list(cache.glob("*.failed"))
    assert len(notes) == 1 and "no C compiler" in notes[0].read_text()


def test_numpy_loads_one_blas_thread_unless_told():
    """OpenBLAS starts a thread per core as numpy loads; the tools call no BLAS."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    assert _run("--help", env=env)["blas"] == "1"
    assert _run("--help", env={**env, "OPENBLAS_NUM_THREADS": "4"})["blas"] == "4"
