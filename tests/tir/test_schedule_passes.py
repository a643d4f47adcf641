"""`tir-reorder-for-memory` and `tir-in-place-results` (and the band example) end to end:
the planned programs build with TVM and as the C library, and compute exactly what they
compute without the passes (the same bytes: the operators are the same code, only where
their buffers lie moves), while the pool shrinks where the passes apply."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

from tests.support import c_check  # noqa: E402
from usmp_dialect.dialects.usmp import IN_PLACE_RESULTS_ATTR  # noqa: E402
from usmp_dialect.parsing import parse_module  # noqa: E402
from usmp_dialect.pipeline import plan_pools, plan_pools_pipeline  # noqa: E402
from usmp_dialect.tvm.relax.model_spec import load_model  # noqa: E402
from usmp_dialect.tvm.relax.to_tir import TirImport, model_to_tir  # noqa: E402
from usmp_dialect.tvm.tvmscript.emitter import emit_module  # noqa: E402
from usmp_dialect.tvm.tvmscript.planned_module import plan_module  # noqa: E402
from usmp_dialect.tvm.tvmscript.run import load_tvmscript, random_inputs, run_module  # noqa: E402

EXAMPLES = Path(__file__).parents[2] / "examples"


def _pool_bytes(planned) -> int:
    return int(planned["main"].attrs["usmp.pools"]["global_workspace"])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("example", "scheduled", "file_order"),
    [("pass_ordering/branches.py", 288, 528), ("pass_ordering/diamond.py", 48, 64)],
)
def test_scheduled_programs_compute_the_same_numbers(
    example: str, scheduled: int, file_order: int
) -> None:
    mod = load_tvmscript(str(EXAMPLES / example))
    with_passes = plan_module(mod)
    without = plan_module(mod, reorder=False, in_place=False)
    assert (_pool_bytes(with_passes), _pool_bytes(without)) == (scheduled, file_order)
    inputs = random_inputs(mod)
    reference = run_module(mod, inputs, target="llvm")
    for planned in (with_passes, without):
        outputs = run_module(planned, inputs, target="llvm")
        for name, value in reference.items():
            np.testing.assert_array_equal(outputs[name], value)


def test_the_band_example_builds_with_tvm_and_computes_the_unbanded_numbers() -> None:
    # Its entry once lacked a global_symbol: TVM took it for a private function and
    # stopped in its build ("This pass must be called after MakePackedAPI").
    source = EXAMPLES / "bands" / "chain.mlir"
    mod = emit_module(parse_module(source.read_text(), str(source)))
    banded, unbanded = plan_module(mod), plan_module(mod, band_stages=False)
    assert (_pool_bytes(banded), _pool_bytes(unbanded)) == (40, 48)
    inputs = random_inputs(mod)
    reference = run_module(mod, inputs, target="llvm")
    for planned in (banded, unbanded):
        np.testing.assert_array_equal(
            run_module(planned, inputs, target="llvm")["z"], reference["z"]
        )


def _library_outputs(lowered, on: bool, x: np.ndarray) -> tuple[dict, dict, str]:
    module = c_check.planned_tir_module(lowered.tir, lowered.constants)
    plan_pools(module, plan_pools_pipeline(constant_pool=True, reorder=on, in_place=on))
    shared = next(
        (
            op.attributes[IN_PLACE_RESULTS_ATTR]
            for op in module.body.block.ops
            if IN_PLACE_RESULTS_ATTR in op.attributes
        ),
        None,
    )
    with tempfile.TemporaryDirectory(prefix="usmp-in-place-") as directory:
        run = c_check.run_planned(module, {"x": x}, f"{directory}/model")
    return run.outputs, run.pools, str(shared)


@pytest.mark.slow
def test_in_place_results_give_the_c_librarys_bytes_exactly() -> None:
    """The ResNet example with one operator per Relax op: its bias adds, residual adds and
    ReLUs write over inputs that die there; the library (its pools prefilled with 0xFF)
    gives the same bytes as with a buffer for every result."""
    try:
        c_check.require_tools(False)
    except c_check.MissingTools as error:
        pytest.fail(str(error))
    mod, weights = load_model(str(EXAMPLES / "models" / "resnet.py:resnet"))
    lowered = model_to_tir(mod, weights, "resnet", TirImport(fusion="none"))
    x = np.random.default_rng(0).standard_normal((1, 3, 16, 16)).astype("float32")
    ours, pools, shared = _library_outputs(lowered, True, x)
    theirs, own_pools, none = _library_outputs(lowered, False, x)
    assert 'add_ = "lv"' in shared and 'relu6 = "lv10"' in shared and none == "None"
    assert pools["global_workspace"] <= own_pools["global_workspace"]
    assert ours.keys() == theirs.keys()
    for name, value in theirs.items():
        np.testing.assert_array_equal(ours[name], value)
