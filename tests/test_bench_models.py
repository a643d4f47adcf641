"""`tools/bench_models.py --model-files`: a row holds the arena with and without the
schedule passes, both against TFLM's."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from tests.band_stage_tflite import band_stage_tflite  # noqa: E402


@pytest.mark.tvm
@pytest.mark.slow
def test_a_model_files_row_has_the_arena_with_and_without_the_schedule_passes(tmp_path: Path):
    from bench_models import measure_model_file, model_files_section

    path = tmp_path / "bands.tflite"
    path.write_bytes(band_stage_tflite())
    row = measure_model_file(str(path), time_limit=10)
    # The bands of its convolutions lower the plan's arena below the plan alone's and
    # TFLM's; the plan alone's is TFLM's or less.
    assert row["scheduled"] < row["io"] <= row["tflm_head"]
    table = model_files_section([("bands", row)], "cmd")
    assert f"| {row['io']} ({row['io_live']}) | {row['scheduled']} |" in table
