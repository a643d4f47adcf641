"""A zoo model planned into pools a user describes (`--pools`): a small SRAM that
overflows into DRAM, built and run with TVM with both pools prefilled with 0xFF, equal to
the Relax VM."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

from tests.support.model_check import check_model  # noqa: E402
from usmp_dialect.tvm.relax.model_spec import load_model  # noqa: E402

MODELS = Path(__file__).parents[2] / "examples" / "models"
SRAM_HINT = 8192
"""A third of the 23040 bytes the tiny MobileNet needs in one pool: much overflows."""


@pytest.mark.slow
def test_mobilenet_overflowing_sram_into_dram_matches_relax_vm() -> None:
    mod, weights = load_model(f"{MODELS / 'mobilenet.py'}:mobilenet")
    result = check_model(
        mod, weights, "mobilenet", pools=f"sram:size_hint={SRAM_HINT // 1024}K,dram"
    )
    assert set(result.pools) == {"sram", "dram"}
    assert 0 < result.pools["sram"] <= SRAM_HINT
    assert result.pools["dram"] > 0
    assert result.outputs and all(o.agrees for o in result.outputs)
