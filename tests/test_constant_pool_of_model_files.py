"""The constant pool of a `.tflite` file against the file's weights (issue 31): `usmp-translate
--import-tflite FILE | usmp-opt --plan-pools --constant-pool` holds at most the file's
weights + 1 %, each int32 tensor counted at the narrowest integer type that holds its values
(`narrowed_constants`), plus what an int8 operator computes from the per-channel scales
the file keeps outside its weights (in their quantization parameters; a scale is
information the int8 values do not hold): each channel's multiplier and shift (int32 and
int8, 5 bytes where the file has a float32 scale; TFLM computes them at start-up into its
persistent arena, two int32 a channel). Constants
of equal bytes are stored once (`shared_constants`), and the outputs are unchanged: the
Relax VM's exactly, and TensorFlow Lite Micro's exactly (our int8 convolutions and
fully-connected layers compute TFLM's fixed-point arithmetic)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
tflite = pytest.importorskip("tflite")
pytestmark = pytest.mark.tvm

from int8_tflite import conv_stack_tflite, float16_weights_tflite, int8_cnn_tflite  # noqa: E402
from tflite.TensorType import TensorType  # noqa: E402
from wheel_models import wheel_model_path  # noqa: E402

from tests.support.model_check import check_model  # noqa: E402
from tests.support.reference_runtime import reference_outputs  # noqa: E402
from usmp_dialect.diagnostics import LocatedError  # noqa: E402
from usmp_dialect.formats.constant_pool import constant_pool_bytes  # noqa: E402
from usmp_dialect.pipeline import plan_pools, plan_pools_pipeline  # noqa: E402
from usmp_dialect.reports.report import plan_report  # noqa: E402
from usmp_dialect.tvm.c.bundle import library_files  # noqa: E402
from usmp_dialect.tvm.model_files.loading import import_model_file, load_model_file  # noqa: E402
from usmp_dialect.tvm.relax.narrowed_constants import narrowest  # noqa: E402
from usmp_dialect.tvm.relax.to_tir import model_to_tir, sanitize  # noqa: E402
from usmp_dialect.tvm.tvmscript.emitter import emit_tvmscript  # noqa: E402
from usmp_dialect.tvm_options import MODEL_FILE_TIR_IMPORT, TirImport  # noqa: E402

FILE_STORAGE = dataclasses.replace(MODEL_FILE_TIR_IMPORT, constant_storage="file")
WRITTEN = {
    "int8_cnn.tflite": int8_cnn_tflite,
    "int8_conv_stack.tflite": lambda: conv_stack_tflite(int8=True),
    "float16_weights.tflite": float16_weights_tflite,
}
WHEELS = [
    "wakeword-okay-nabu-tflite",
    "wakeword-hey-mycroft-tflite",
    "wakeword-alexa-tflite",
    "sine-tflite",
]


def _path(name: str, folder: Path) -> Path:
    if name in WRITTEN:
        path = folder / name
        path.write_bytes(WRITTEN[name]())
        return path
    path = wheel_model_path(name)
    assert path is not None, f"the wheel of {name} is not installed: pip install -e '.[test]'"
    return path


def _constant_pool(path: Path) -> int:
    """The bytes of the file's planned constant pool."""
    module = import_model_file(str(path), "tflite")
    plan_pools(module, plan_pools_pipeline(lower=False, constant_pool=True))
    report = plan_report(module)
    pools = {b["pool"] for b in report["buffers"] if b["io"] == "constant"}
    return sum(p["size"] for p in report["pools"] if p["name"] in pools)


def _per_channel_scale_bytes(path: Path) -> int:
    """The bytes of the float32 scales the file holds for its int8 constant tensors
    quantized per channel (one scale a channel)."""
    model = tflite.Model.GetRootAsModel(path.read_bytes(), 0)
    total = 0
    for s in range(model.SubgraphsLength()):
        subgraph = model.Subgraphs(s)
        for t in range(subgraph.TensorsLength()):
            tensor = subgraph.Tensors(t)
            quantization = tensor.Quantization()
            stored = model.Buffers(tensor.Buffer()).DataLength() > 0
            if stored and tensor.Type() == TensorType.INT8 and quantization is not None:
                scales = quantization.ScaleLength()
                total += 4 * scales if scales > 1 else 0
    return total


def _narrowest_bytes(weights: dict[str, np.ndarray]) -> int:
    return sum(
        (narrowed if (narrowed := narrowest(a)) is not None else a).nbytes for a in weights.values()
    )


def _file_tensor_names(path: Path) -> set[str]:
    subgraph = tflite.Model.GetRootAsModel(path.read_bytes(), 0).Subgraphs(0)
    return {sanitize(subgraph.Tensors(t).Name().decode()) for t in range(subgraph.TensorsLength())}


@pytest.mark.parametrize("name", [*WHEELS, *WRITTEN])
def test_constant_pool_holds_the_weights_and_their_scales(name: str, tmp_path: Path) -> None:
    """At most the file's weights at their narrowest + 1 %, plus the multiplier and
    shift tables computed from its int8 weights' per-channel scales (at most 5 bytes
    where the file has 4); the weights + 1 % on a file without such scales."""
    path = _path(name, tmp_path)
    pool = _constant_pool(path)
    _, constants = load_model_file(str(path), "tflite")
    in_file = _file_tensor_names(path)
    weights = {n: a for n, a in constants.items() if n in in_file}
    tables = sum(a.nbytes for n, a in constants.items() if n not in in_file)
    stored = sum(a.nbytes for a in weights.values())
    scales = _per_channel_scale_bytes(path)
    assert tables <= 5 / 4 * scales, (tables, scales)
    assert pool <= 1.01 * _narrowest_bytes(weights) + tables, (pool, stored, tables)
    if scales == 0:
        assert pool <= 1.01 * stored  # the goal, on every file without per-channel scales


def _checked_against_tflm(path: Path) -> None:
    """The file planned, built and run: the Relax VM's outputs exactly (those of the
    model as it was before any constant was narrowed or shared), and TFLM's exactly."""
    mod, weights = load_model_file(str(path), "tflite")
    result = check_model(
        mod, weights, str(path), tir_import=MODEL_FILE_TIR_IMPORT, target="c", tolerance=0
    )
    assert result.inputs is not None and result.values is not None
    assert [o.max_error for o in result.outputs] == [0]
    (theirs,) = reference_outputs(str(path), list(result.inputs.values()))
    (ours,) = result.values.values()
    np.testing.assert_array_equal(ours, theirs)


def _constants(path: Path) -> dict[str, np.ndarray]:
    mod, weights = load_model_file(str(path), "tflite")
    return model_to_tir(mod, weights, str(path), MODEL_FILE_TIR_IMPORT).constants


def test_equal_constants_are_stored_once_and_keep_tflms_values(tmp_path: Path) -> None:
    """Six convolutions with the same weights (and five with the same bias), each its own
    tensors in the file, each with its channels' multipliers and shifts: the pool holds
    each distinct tensor once."""
    path = tmp_path / "shared.tflite"
    path.write_bytes(conv_stack_tflite(int8=True, shared=True))
    _, weights = load_model_file(str(path), "tflite")
    distinct = {(a.dtype.str, a.tobytes()) for a in weights.values()}
    assert len(weights) == 24 and len(distinct) == 6
    # The weights, the first bias and the others (int16), the channels' multipliers (the
    # first layer's input scale is twice the others': its shifts alone differ).
    assert sorted(_constants(path)) == [
        "conv0_bias_int16",
        "conv0_weights",
        "conv0_weights_multiplier",
        "conv0_weights_shift",
        "conv1_bias_int16",
        "conv1_weights_shift",
    ]
    pool = _constant_pool(path)
    assert pool < sum(a.nbytes for a in weights.values()) / 5
    _checked_against_tflm(path)


def _run_tvmscript(*args: str) -> subprocess.CompletedProcess:
    tool = Path(__file__).parents[1] / "tools" / "run_tvmscript.py"
    return subprocess.run([sys.executable, str(tool), *args], capture_output=True, text=True)


def _planned(path: Path, folder: Path, tir_import: TirImport = MODEL_FILE_TIR_IMPORT) -> list[str]:
    """The file imported as `lowering` says and planned with a constant pool: the
    arguments of `run_tvmscript` that run it (its TVMScript, its constants' bytes)."""
    module = import_model_file(str(path), "tflite", tir_import=tir_import)
    plan_pools(module, plan_pools_pipeline(constant_pool=True))
    script, constants = folder / "planned.py", folder / "constants.bin"
    script.write_text(emit_tvmscript(module))
    constants.write_bytes(constant_pool_bytes(module))
    return [str(script), "--constants", str(constants)]


def _header(path: Path) -> str:
    """The C library's header of the file, planned with a constant pool."""
    module = import_model_file(str(path), "tflite")
    plan_pools(module, plan_pools_pipeline(constant_pool=True))
    return library_files(module, "model")["model.h"]


def _saved(folder: Path, name: str, array: np.ndarray) -> str:
    np.save(folder / name, array)
    return str(folder / name)


def test_overriding_a_constant_stored_with_an_equal_one_names_that_one(tmp_path: Path) -> None:
    """The second layer's weights are the first's bytes, stored once under the first's
    name: an override of them says which name to override (the one every operator
    reading either reads) and which import option stores each apart, as the C library's
    header does, and overriding that one runs. Imported with that option, the second
    layer's weights are overridden alone."""
    path = tmp_path / "shared.tflite"
    path.write_bytes(conv_stack_tflite(int8=True, layers=2, shared=True))
    _, weights = load_model_file(str(path), "tflite")
    zeros = _saved(tmp_path, "zeros.npy", np.zeros_like(weights["conv0_weights"]))
    planned = _planned(path, tmp_path)
    refused = _run_tvmscript(*planned, "--override", f"conv1_weights={zeros}")
    assert (refused.returncode, refused.stdout, refused.stderr) == (
        1,
        "",
        "--override: error: 'conv1_weights' is stored once with 'conv0_weights' (equal "
        "bytes): override 'conv0_weights', which both read, or import the model with "
        "--constant-storage=file to store each apart\n",
    )
    overridden = _run_tvmscript(*planned, "--override", f"conv0_weights={zeros}")
    assert overridden.returncode == 0, overridden.stderr
    # The C library's constants struct has no member for it: its header says which.
    assert (
        "/* conv1_weights: stored once with conv0_weights (equal bytes): override "
        "conv0_weights, which both read. */"
    ) in _header(path)

    apart = _planned(path, tmp_path, FILE_STORAGE)
    alone = _run_tvmscript(*apart, "--override", f"conv1_weights={zeros}")
    assert alone.returncode == 0, alone.stderr
    assert alone.stdout not in (overridden.stdout, _run_tvmscript(*apart).stdout)


def test_a_narrowed_bias_is_overridden_under_its_file_name(tmp_path: Path) -> None:
    """`conv0_bias` is int32 in the file and stored as int16 (`conv0_bias_int16`): an int32
    override under the file's name whose values fit int16 runs as the same values given
    as int16 do; one whose values do not fit is one diagnostic naming them and the import
    option that keeps the file's type, under which it runs."""
    path = tmp_path / "stack.tflite"
    path.write_bytes(conv_stack_tflite(int8=True, layers=2))
    fits = (np.arange(16) * 2000 - 16000).astype(np.int32)
    too_wide = fits.copy()
    too_wide[[3, 9]] = [40000, -33000]
    planned = _planned(path, tmp_path)
    as_file = _run_tvmscript(
        *planned, "--override", f"conv0_bias={_saved(tmp_path, 'a.npy', fits)}"
    )
    stored = _saved(tmp_path, "b.npy", fits.astype(np.int16))
    as_stored = _run_tvmscript(*planned, "--override", f"conv0_bias_int16={stored}")
    assert as_file.returncode == 0, as_file.stderr
    assert as_file.stdout == as_stored.stdout != _run_tvmscript(*planned).stdout

    refused = _run_tvmscript(
        *planned, "--override", f"conv0_bias={_saved(tmp_path, 'c.npy', too_wide)}"
    )
    assert (refused.returncode, refused.stdout, refused.stderr) == (
        1,
        "",
        "--override: error: 'conv0_bias' is stored as int16 ('conv0_bias_int16'), and 2 of "
        "the array's values do not fit int16 ([3]: 40000, [9]: -33000); import the model "
        "with --constant-storage=file to keep it int32\n",
    )
    kept = _run_tvmscript(
        *_planned(path, tmp_path, FILE_STORAGE), "--override", f"conv0_bias={tmp_path / 'c.npy'}"
    )
    assert kept.returncode == 0, kept.stderr


def test_a_narrowed_bias_overridden_agrees_with_the_relax_vm(tmp_path: Path) -> None:
    """The override under the file's name reaches both runs: ours converted to int16, the
    Relax VM's as the file's int32 weight; with the file's types kept, values beyond int16
    too. The C library's header says what each narrowed member holds."""
    path = tmp_path / "stack.tflite"
    path.write_bytes(conv_stack_tflite(int8=True, layers=2))
    mod, weights = load_model_file(str(path), "tflite")
    fits = np.full(16, -20000, np.int32)
    too_wide = np.full(16, 90000, np.int32)
    for tir_import, bias in ((MODEL_FILE_TIR_IMPORT, fits), (FILE_STORAGE, too_wide)):
        result = check_model(
            mod, weights, str(path), tir_import=tir_import, target="c", tolerance=0,
            overrides={"conv0_bias": bias},
        )  # fmt: skip
        assert [o.max_error for o in result.outputs] == [0]
    with pytest.raises(LocatedError, match="values do not fit int16"):
        overrides = {"conv0_bias": too_wide}
        check_model(mod, weights, tir_import=MODEL_FILE_TIR_IMPORT, overrides=overrides)
    assert (
        "/* conv0_bias_int16: the file's int32 conv0_bias, stored as int16 (its values "
        "fit; --constant-storage=file keeps it int32). */"
    ) in _header(path)


def test_scales_equal_across_channels_are_scalars(tmp_path: Path) -> None:
    """Weights quantized per channel whose channels share one scale: no scale array is
    stored (the weights' nor the biases'), the pool is the weights at their narrowest."""
    path = tmp_path / "uniform.tflite"
    path.write_bytes(conv_stack_tflite(int8=True, layers=2, uniform=True))
    assert _per_channel_scale_bytes(path) > 0
    constants = _constants(path)
    assert {n: a.dtype.name for n, a in constants.items()} == {
        "conv0_weights": "int8",
        "conv0_bias_int16": "int16",
        "conv1_weights": "int8",
        "conv1_bias_int16": "int16",
    }
    pool = _constant_pool(path)
    assert pool == sum(a.nbytes for a in constants.values())
    _checked_against_tflm(path)
