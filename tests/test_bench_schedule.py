"""`tools/bench_schedule.py`'s progress: one readable line on stderr for each figure of a
model as it is measured (each configuration's workspace, then the MACs)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from bench_schedule import measure  # noqa: E402

from usmp_dialect.parsing import parse_module  # noqa: E402


def test_progress_is_a_line_per_configuration(capsys: pytest.CaptureFixture[str]) -> None:
    """tir-in-place-results saves a quarter of the diamond's bytes; no other pass saves any."""
    path = ROOT / "examples" / "pass_ordering" / "diamond.mlir"
    measure("diamond", parse_module(path.read_text(), str(path)), None, None)
    assert capsys.readouterr().err.splitlines() == [
        "bench_schedule: diamond: plan alone: 64 bytes",
        "bench_schedule: diamond: order: 64 bytes (1.000x the plan alone)",
        "bench_schedule: diamond: in place: 48 bytes (0.750x the plan alone)",
        "bench_schedule: diamond: bands: 64 bytes (1.000x the plan alone)",
        "bench_schedule: diamond: all: 48 bytes (0.750x the plan alone)",
        "bench_schedule: diamond: MACs with halo rows kept 1.00x, recomputed 1.00x",
    ]
