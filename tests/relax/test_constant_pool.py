"""Weights in a constant pool: a zoo model imported with its weights bound and folded,
planned with a constant pool, emitted with the pool's bytes, built and run with every pool
prefilled with 0xFF and the constant pool loaded from those bytes, equals the Relax VM; a
weight overridden at its offset changes the output exactly as the Relax VM's with that
weight replaced."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

from tests.support.model_check import check_model  # noqa: E402
from usmp_dialect.formats.constant_pool import constant_pool_bytes  # noqa: E402
from usmp_dialect.pipeline import plan_pools, plan_pools_pipeline  # noqa: E402
from usmp_dialect.tvm.relax.model_spec import load_model  # noqa: E402
from usmp_dialect.tvm.relax.to_tir import import_relax, relax_vm_outputs  # noqa: E402
from usmp_dialect.tvm.tvmscript.emitter import emit_module, emit_tvmscript  # noqa: E402
from usmp_dialect.tvm.tvmscript.run import random_inputs, run_module  # noqa: E402

ROOT = Path(__file__).parents[2]
MODELS = ROOT / "examples" / "models"
CONSTANT_POOL = "flash:kind=constant"


def _planned_with_constant_pool(name: str):
    """The model's Relax module and weights, and its planned TIR as TVM's module with the
    constant pool's bytes."""
    mod, weights = load_model(f"{MODELS / name}.py:{name}")
    module = import_relax(mod, weights, name)
    plan_pools(module, plan_pools_pipeline(pools=CONSTANT_POOL))
    return mod, weights, emit_module(module), constant_pool_bytes(module)


def _run(name: str, overrides: dict[str, np.ndarray] | None = None):
    mod, weights, planned, pool_bytes = _planned_with_constant_pool(name)
    inputs = {"x": random_inputs(planned, seed=3, constants=False)["x"]}
    ours = run_module(
        planned, {**inputs, **(overrides or {})}, "llvm", pool_bytes={"flash": pool_bytes}
    )
    assert set(planned["main"].attrs["usmp.pools"]) == {"global_workspace", "flash"}
    return mod, weights, inputs, ours["output"]


def test_mlp_with_constants_from_the_pool_file_equals_relax_vm() -> None:
    mod, weights, inputs, ours = _run("mlp")
    (reference,) = relax_vm_outputs(mod, weights, inputs)
    np.testing.assert_allclose(ours, reference, rtol=1e-5, atol=1e-5)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["cnn", "mobilenet", "resnet", "transformer"])
def test_zoo_model_with_constants_from_the_pool_file_equals_relax_vm(name: str) -> None:
    mod, weights, inputs, ours = _run(name)
    (reference,) = relax_vm_outputs(mod, weights, inputs)
    np.testing.assert_allclose(ours, reference, rtol=1e-5, atol=1e-5)


def test_constant_pool_holds_each_constant_once_and_nothing_else() -> None:
    mod, weights = load_model(f"{MODELS / 'mlp.py'}:mlp")
    module = import_relax(mod, weights, "mlp")
    plan_pools(module, plan_pools_pipeline(pools=CONSTANT_POOL))
    main = emit_module(module)["main"]
    offsets = main.attrs["usmp.io_offsets"]
    assert sorted(offsets) == sorted(
        [f"fc{i}_{kind}" for i in (1, 2, 3) for kind in ("weight_permute_dims", "bias")]
    )
    # The weights' sum, 16-byte aligned: 27688 bytes.
    assert int(main.attrs["usmp.pools"]["flash"]) == 27688
    assert len(constant_pool_bytes(module)) == 27688
    assert 'flash: T.Buffer((27688,), "uint8")' in emit_tvmscript(module)


def test_overridden_weight_changes_the_output_as_in_relax_vm() -> None:
    bias = np.linspace(-1, 1, 64, dtype="float32")
    mod, weights, inputs, ours = _run("mlp", {"fc1_bias": bias})
    (before,) = relax_vm_outputs(mod, weights, inputs)
    (after,) = relax_vm_outputs(mod, {**weights, "fc1.bias": bias}, inputs)
    assert not np.allclose(before, after)
    np.testing.assert_allclose(ours, after, rtol=1e-5, atol=1e-5)


def test_check_model_overrides_a_weight_in_both_runs() -> None:
    mod, weights = load_model(f"{MODELS / 'mlp.py'}:mlp")
    result = check_model(
        mod, weights, pools=CONSTANT_POOL, overrides={"fc2_bias": np.ones(64, "float32")}
    )
    assert result.constant_pool == "flash" and result.pools["flash"] == result.constant_bytes
    assert all(o.agrees for o in result.outputs)


def _tool(name: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "tools" / f"{name}.py"), *args], capture_output=True, text=True
    )


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nope=GOOD", "--override: error: 'nope' is not a constant of the model (its constants: "),
        ("fc1_bias=SHORT", "--override: error: 'fc1_bias' is float32[64], the array float32[63]"),
        ("fc1_bias=MISSING", "MISSING: error: cannot read a .npy array: "),
        ("fc1_bias", "--override: error: --override takes NAME=FILE.npy, got 'fc1_bias'"),
    ],
)
def test_bad_override_is_one_diagnostic(tmp_path: Path, spec: str, message: str) -> None:
    files = {"GOOD": np.ones(64, "float32"), "SHORT": np.ones(63, "float32")}
    for key, array in files.items():
        np.save(tmp_path / f"{key}.npy", array)
    spec = spec.replace("GOOD", str(tmp_path / "GOOD.npy")).replace(
        "SHORT", str(tmp_path / "SHORT.npy")
    )
    spec = spec.replace("MISSING", str(tmp_path / "MISSING.npy"))
    message = message.replace("MISSING", str(tmp_path / "MISSING.npy"))
    result = _tool(
        "check_relax_model",
        f"{MODELS / 'mlp.py'}:mlp",
        "--pools",
        CONSTANT_POOL,
        "--override",
        spec,
    )
    assert result.returncode == 1
    assert result.stderr.startswith(message) and result.stderr.count("error:") == 1, result.stderr


@pytest.mark.slow
def test_run_tvmscript_loads_the_pool_file_and_an_override(tmp_path: Path) -> None:
    mod, weights = load_model(f"{MODELS / 'mlp.py'}:mlp")
    module = import_relax(mod, weights, "mlp")
    plan_pools(module, plan_pools_pipeline(pools=CONSTANT_POOL))
    (tmp_path / "planned.py").write_text(emit_tvmscript(module))
    (tmp_path / "weights.bin").write_bytes(constant_pool_bytes(module))
    np.save(tmp_path / "bias.npy", np.ones(64, "float32"))
    args = [
        str(tmp_path / "planned.py"),
        "--target",
        "llvm",
        "--constants",
        str(tmp_path / "weights.bin"),
    ]
    plain, overridden = (
        _tool("run_tvmscript", *args),
        _tool("run_tvmscript", *args, "--override", f"fc1_bias={tmp_path / 'bias.npy'}"),
    )
    assert plain.returncode == overridden.returncode == 0, plain.stderr + overridden.stderr
    assert "pool flash: 27688 bytes" in plain.stdout
    output = [line for line in plain.stdout.splitlines() if line.startswith("output")]
    changed = [line for line in overridden.stdout.splitlines() if line.startswith("output")]
    assert output and changed and output != changed
