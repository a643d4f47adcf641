"""`tir-band-stages` on NCHW models, whose operators TVM lowers as several loop nests with
the channel loop outermost (a padded copy, the convolution, the bias, the activation):
the zoo's ResNet-18 and an ONNX model built here, each planned with and without bands
(inputs and outputs in the workspace), built by TVM and run. Banded, the stem's
intermediates are rolling buffers of a few rows of every channel, the workspace shrinks,
and the outputs are the unbanded ones bit for bit (each element computed by the same
code, in the same order)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from tests.support.reference_runtime import reference_outputs  # noqa: E402
from usmp_dialect.dialects.usmp import IOKind  # noqa: E402
from usmp_dialect.pipeline import plan_pools, plan_pools_pipeline  # noqa: E402
from usmp_dialect.reports.report import plan_report  # noqa: E402
from usmp_dialect.tvm.model_files.loading import load_model_file  # noqa: E402
from usmp_dialect.tvm.relax.model_spec import load_model  # noqa: E402
from usmp_dialect.tvm.relax.to_tir import DEFAULT_TIR_IMPORT, model_to_tir  # noqa: E402
from usmp_dialect.tvm.tvmscript.emitter import emit_module  # noqa: E402
from usmp_dialect.tvm.tvmscript.importer import import_module  # noqa: E402
from usmp_dialect.tvm.tvmscript.run import run_module  # noqa: E402
from usmp_dialect.tvm_options import MODEL_FILE_TIR_IMPORT  # noqa: E402

pytestmark = pytest.mark.tvm
ROOT = Path(__file__).resolve().parents[1]


def _runs(
    tir_mod: Any, arguments: dict[str, np.ndarray], target: str
) -> dict[bool, tuple[dict, int, np.ndarray]]:
    """For bands off and on: the plan report's bands, the workspace's bytes and the
    output (the entry's last non-pool param)."""
    runs = {}
    output = [p.name for p in tir_mod["main"].params][-1]
    for banded in (False, True):
        module = import_module(tir_mod)
        plan = module.clone()  # the plan as the report reads it: before the lowerings
        plan_pools(plan, plan_pools_pipeline(lower=False, workspace_io=True, band_stages=banded))
        report = plan_report(plan)
        plan_pools(module, plan_pools_pipeline(workspace_io=True, band_stages=banded))
        state = {b["pool"] for b in report["buffers"] if b["io"] == IOKind.STATE}
        workspace = sum(p["size"] for p in report["pools"] if p["name"] not in state)
        results = run_module(emit_module(module), arguments, target)
        runs[banded] = (report.get("bands", {}), workspace, results[output])
    return runs


def _zoo_tir(spec: str) -> tuple[Any, dict]:
    """A zoo model's TIR and constants."""
    mod, weights = load_model(str(ROOT / "examples" / "models" / spec))
    return model_to_tir(mod, weights, spec, DEFAULT_TIR_IMPORT)


def _zoo_runs(spec: str, size: int, target: str) -> dict[bool, tuple[dict, int, np.ndarray]]:
    """`_runs` of a zoo model on a random `size`x`size` image."""
    tir_mod, constants = _zoo_tir(spec)
    image = np.random.default_rng(size).standard_normal((1, 3, size, size)).astype("float32")
    return _runs(tir_mod, {"x": image, **constants}, target)


@pytest.mark.slow
def test_resnet18_stem_banded_in_nchw_is_bit_exact() -> None:
    """The 7x7/2 convolution and the 3x3/2 max pool, MCUNetV2's textbook stage: the
    convolution's output (64 channels at 16x16) becomes 3 rows of each channel."""
    runs = _zoo_runs('resnet.py:resnet(size=32, config="resnet18")', 32, "c")
    bands, workspace, output = runs[True]
    (stage,) = bands["stages"]
    assert stage["operators"] == ["fused_conv2d_add_relu", "max_pool2d"]
    assert stage["buffers"] == {"relu_band": 3}
    assert workspace <= 0.5 * runs[False][1]
    np.testing.assert_array_equal(output, runs[False][2])
    assert np.abs(output).max() > 0


def _conv(name: str, inputs: int, outputs: int, stride: int) -> tuple[Any, dict]:
    rng = np.random.default_rng(len(name))
    node = helper.make_node(
        "Conv",
        ["x" if name == "c1" else f"{name}_in", f"{name}_w", f"{name}_b"],
        [f"{name}_out"],
        kernel_shape=[3, 3],
        strides=[stride, stride],
        pads=[1, 1, 1, 1],
    )
    weights = {
        f"{name}_w": rng.standard_normal((outputs, inputs, 3, 3)).astype("float32") / 4,
        f"{name}_b": rng.standard_normal(outputs).astype("float32"),
    }
    return node, weights


def _stem_onnx(path: Path) -> Path:
    """Conv 3x3/2 + ReLU, MaxPool 3x3/2, Conv 3x3 + ReLU on a 3x48x48 image."""
    first, w1 = _conv("c1", 3, 8, 2)
    second, w2 = _conv("c2", 8, 8, 1)
    nodes = [
        first,
        helper.make_node("Relu", ["c1_out"], ["r1"]),
        helper.make_node(
            "MaxPool", ["r1"], ["c2_in"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]
        ),
        second,
        helper.make_node("Relu", ["c2_out"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "stem",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 48, 48])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 12, 12])],
        [numpy_helper.from_array(v, k) for k, v in {**w1, **w2}.items()],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    path.write_bytes(model.SerializeToString())
    return path


def test_onnx_stem_banded_in_nchw_is_bit_exact(tmp_path: Path) -> None:
    """An ONNX import's operators (TVM's scheduled NCHW loops, an accumulator per output
    element): the convolution and the pool run as one stage, equal to the unbanded run
    bit for bit and to onnxruntime within float32 rounding."""
    path = _stem_onnx(tmp_path / "stem.onnx")
    mod, weights = load_model_file(str(path), "onnx")
    tir_mod, constants = model_to_tir(mod, weights, str(path), MODEL_FILE_TIR_IMPORT)
    image = np.random.default_rng(1).standard_normal((1, 3, 48, 48)).astype("float32")
    runs = _runs(tir_mod, {"x": image, **constants}, "llvm")
    bands, workspace, output = runs[True]
    (stage,) = bands["stages"]
    assert stage["operators"][:2] == ["fused_conv2d_add_relu", "max_pool2d"]
    assert workspace < runs[False][1]
    np.testing.assert_array_equal(output, runs[False][2])
    (theirs,) = reference_outputs(str(path), [image])
    np.testing.assert_allclose(output.reshape(theirs.shape), theirs, rtol=1e-5, atol=1e-5)


@pytest.mark.slow
def test_resnet18_default_band_height_reaches_the_least_peak() -> None:
    """The chooser counts the buffers TVM's NCHW operators allocate (padded copies, sums
    before the bias), which a band call holds in the rows it computes: at 64x64 the
    tallest band that seemed as good held a 319,488-byte workspace, one row a band
    holds 214,016."""
    module = import_module(_zoo_tir('resnet.py:resnet(size=64, config="resnet18")')[0])
    bands = plan_pools_pipeline(lower=False, workspace_io=True)
    workspaces = {}
    for height in (0, 1, 2, 4):
        option = f"tir-band-stages{{band-height={height}}}" if height else "tir-band-stages"
        plan = module.clone()
        plan_pools(plan, bands.replace("tir-band-stages", option))
        workspaces[height] = sum(p["size"] for p in plan_report(plan)["pools"])
    assert workspaces[0] == min(workspaces.values())
    assert workspaces[0] < workspaces[4]


@pytest.mark.slow
def test_unet_last_convolution_banded_alone_is_bit_exact() -> None:
    """The U-Net's peak is its last convolution's padded copy of a full-resolution
    concatenation, a buffer of the operator: banded alone, the call holds a few rows of
    it, and the outputs are the unbanded ones bit for bit."""
    runs = _zoo_runs("unet.py:unet(size=16, channels=4)", 16, "llvm")
    bands, workspace, output = runs[True]
    (stage,) = bands["stages"]
    assert stage["operators"] == ["fused_conv2d9_add_relu"]
    assert stage["buffers"] == {}
    assert workspace < runs[False][1]
    np.testing.assert_array_equal(output, runs[False][2])
    assert np.abs(output).max() > 0
