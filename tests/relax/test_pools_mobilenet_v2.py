"""MobileNetV2 at 224x224 (examples/models/mobilenet.py at full size) planned into a 512K
SRAM that overflows into DRAM, built and run with TVM with both pools prefilled with 0xFF,
equal to the Relax VM (issue 15's model test)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("tvm")
pytestmark = [pytest.mark.tvm, pytest.mark.slow]

from tests.support.model_check import check_model  # noqa: E402
from usmp_dialect.tvm.relax.model_spec import load_model  # noqa: E402

MOBILENET = Path(__file__).parents[2] / "examples" / "models" / "mobilenet.py"
SRAM_HINT = 512 * 1024


def test_mobilenet_v2_at_224_in_sram_and_dram_matches_relax_vm() -> None:
    mod, weights = load_model(f'{MOBILENET}:mobilenet(size=224, config="v2")')
    result = check_model(mod, weights, "mobilenet-v2", pools="sram:size_hint=512K,dram")
    assert set(result.pools) == {"sram", "dram"}
    assert 0 < result.pools["sram"] <= SRAM_HINT
    assert result.pools["dram"] > SRAM_HINT
    assert result.outputs and all(o.agrees for o in result.outputs)
