"""`--band-stages` end to end: a MobileNet's first stage (tests/band_stage_tflite.py)
planned with and without it, each written as a C library, built and run on this machine
and on QEMU's Cortex-M55: the banded library needs less memory, runs its bands on the int8
kernels (Helium on the M55) and gives TFLM's bytes, the unbanded library's."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

pytest.importorskip("tvm")
pytest.importorskip("tflite")
pytest.importorskip("tflite_micro")
sys.path.insert(0, str(Path(__file__).parent))

from band_stage_tflite import KEYWORD_SPOTTER, MOBILENET, SIDE, WIDER, band_stage_tflite

from tests.support import c_check
from tests.support.reference_runtime import reference_outputs
from usmp_dialect.pipeline import plan_pools, plan_pools_pipeline
from usmp_dialect.reports.bands import band_lines, module_bands
from usmp_dialect.reports.report import plan_report
from usmp_dialect.tvm.fast_kernels import kernel_operators, portable_operators
from usmp_dialect.tvm.model_files.loading import import_model_file

pytestmark = [pytest.mark.tvm, pytest.mark.slow]


def test_banded_stage_is_bit_exact_with_tflm_in_less_memory(tmp_path: Path) -> None:
    try:
        c_check.require_tools(qemu=False)
    except c_check.MissingTools as error:
        pytest.fail(str(error))
    path = tmp_path / "stage.tflite"
    path.write_bytes(band_stage_tflite())
    image = _image()
    runs = {}
    for banded in (False, True):
        runs[banded] = c_check.run_planned(
            _planned(path, banded), {"input": image}, str(tmp_path / f"banded_{banded}")
        )
    (tflm,) = reference_outputs(str(path), [image])
    for run in runs.values():
        (output,) = run.outputs.values()
        np.testing.assert_array_equal(output.reshape(tflm.shape), tflm)
    # Every band of the four operators calls its int8 kernel.
    source = (tmp_path / "banded_True" / "model.c").read_text()
    assert portable_operators(source) == []
    assert [name.split()[0] for name in kernel_operators(source)] == [
        "conv2d_band",
        "fused_cast1_conv2d1_band",
        "fused_cast1_depthwise_conv2d1_band",
        "fused_cast_depthwise_conv2d_band",
    ]
    # Unbanded, the pointwise convolution's 16x16x8 input and 16x16x16 output (6,144
    # bytes); banded, each 16-row intermediate a few rows.
    assert runs[False].pools["global_workspace"] == 6144
    assert runs[True].pools["global_workspace"] <= 0.7 * 6144


@pytest.mark.parametrize(
    ("layers", "bands"), [(MOBILENET, 4), (WIDER, 3)], ids=["mobilenet", "wider"]
)
def test_banded_kernels_on_the_boards_give_tflms_bytes(
    tmp_path: Path, layers: list[tuple], bands: int
) -> None:
    """The bands on Helium's kernels (on QEMU's M55), on the DSP ones (QEMU's M4) and on
    the portable ones (here): a range of rows, windows read across a rolling buffer's end;
    in WIDER, a 3x3 convolution and a depth multiplier of 2 banded, one of 4 not."""
    try:
        c_check.require_tools(qemu=True)
    except c_check.MissingTools as error:
        pytest.fail(str(error))
    path = tmp_path / "stage.tflite"
    path.write_bytes(band_stage_tflite(layers=layers))
    image = _image()
    (tflm,) = reference_outputs(str(path), [image])
    boards = ["m55", "m4"] + (["host"] if layers is WIDER else [])
    for board in boards:
        on_qemu = board != "host"
        run = c_check.run_planned(
            _planned(path, True),
            {"input": image},
            str(tmp_path / board),
            qemu=on_qemu,
            board=board if on_qemu else "m55",
        )
        (output,) = run.outputs.values()
        np.testing.assert_array_equal(output.reshape(tflm.shape), tflm, err_msg=board)
        source = (tmp_path / board / "model.c").read_text()
        assert portable_operators(source) == []
        names = [name.split()[0] for name in kernel_operators(source)]
        assert len(names) == 4 and sum(name.endswith("_band") for name in names) == bands


def test_keyword_spotter_shaped_chain_is_left_unbanded(tmp_path: Path) -> None:
    """A chain whose tensors are all one size (MLPerf Tiny's keyword spotter's shape):
    each step holds an input and an output of 2,048 bytes, and a stage's input, output
    and rolling buffers never fewer. The default plan bands nothing, says why, and needs
    the unbanded plan's bytes (banded for nothing, the keyword spotter ran 1.41x the
    unbanded library's instructions on the Cortex-M55)."""
    path = tmp_path / "kws.tflite"
    path.write_bytes(band_stage_tflite(layers=KEYWORD_SPOTTER))
    planned = {}
    for banded in (False, True):
        planned[banded] = import_model_file(str(path), "tflite")
        plan_pools(
            planned[banded],
            plan_pools_pipeline(lower=False, workspace_io=True, band_stages=banded),
        )
    pools = {
        banded: {p["name"]: p["size"] for p in plan_report(module)["pools"]}
        for banded, module in planned.items()
    }
    assert pools[True]["global_workspace"] == pools[False]["global_workspace"] == 2 * 2048
    bands = module_bands(planned[True])
    assert bands is not None and bands["stages"] == []
    assert band_lines(bands) == [
        "nothing banded (tir-band-stages): 4096 bytes live at once",
        *(
            f"  not banded: {name}: no gain: no band of its chain lowers the bytes live at once"
            for name in ("conv2d", "fused_cast_depthwise_conv2d", "fused_cast_conv2d1")
        ),
    ]


def _image() -> np.ndarray:
    return np.random.default_rng(0).integers(-128, 128, (1, SIDE, SIDE, 1)).astype(np.int8)


def _planned(path: Path, banded: bool) -> ModuleOp:
    module = import_model_file(str(path), "tflite")
    plan_pools(
        module, plan_pools_pipeline(workspace_io=True, constant_pool=True, band_stages=banded)
    )
    return module
