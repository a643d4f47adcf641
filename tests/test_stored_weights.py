"""Weights stay as the model file stores them (int8, float16, a per-channel vector), as
TensorFlow Lite Micro keeps them: each constant of `main` is the file's tensor (or, laid out
at compile time, that tensor transposed), and its dequantize, cast or broadcast is computed
inside the operator that reads it; the planned model still equals the Relax VM."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("tvm")
pytest.importorskip("tflite")
pytestmark = pytest.mark.tvm

from int8_tflite import float16_weights_tflite, int8_cnn_tflite  # noqa: E402

from tests.support.model_check import check_model  # noqa: E402
from usmp_dialect.tvm.model_files.loading import load_model_file  # noqa: E402
from usmp_dialect.tvm.relax.to_tir import model_to_tir  # noqa: E402
from usmp_dialect.tvm_options import MODEL_FILE_TIR_IMPORT, TirImport  # noqa: E402


def _constants(path: Path, tir_import: TirImport = MODEL_FILE_TIR_IMPORT) -> dict[str, np.ndarray]:
    mod, weights = load_model_file(str(path), "tflite")
    return model_to_tir(mod, weights, str(path), tir_import).constants


def _kinds(constants: dict[str, np.ndarray]) -> dict[str, tuple[str, tuple[int, ...]]]:
    return {name: (str(a.dtype), a.shape) for name, a in constants.items()}


@pytest.fixture(scope="module")
def int8_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("models") / "int8_cnn.tflite"
    path.write_bytes(int8_cnn_tflite())
    return path


def test_int8_weights_stay_int8(int8_model: Path) -> None:
    """The int8 weights are the file's tensors as it lays them out, named as it names
    them (our int8 kernels read them so); the int32 biases are stored as int16, which
    holds their values (`narrowed_constants`); the convolution's channels' multipliers
    and shifts, computed from its weights' per-channel scales, are named after them (the
    dense layer's, one for all channels, are immediates in its kernel)."""
    constants = _constants(int8_model)
    assert _kinds(constants) == {
        "conv_weights": ("int8", (8, 3, 3, 1)),
        "conv_weights_multiplier": ("int32", (8,)),
        "conv_weights_shift": ("int8", (8,)),
        "conv_bias_int16": ("int16", (8,)),
        "dense_weights": ("int8", (10, 288)),
        "dense_bias_int16": ("int16", (10,)),
    }
    mod, weights = load_model_file(str(int8_model), "tflite")
    np.testing.assert_array_equal(constants["dense_weights"], weights["dense_weights"])
    np.testing.assert_array_equal(constants["conv_bias_int16"], weights["conv_bias"])
    # In a constant pool of the stored bytes, built and run: the Relax VM's output exactly.
    result = check_model(
        mod,
        weights,
        str(int8_model),
        tir_import=MODEL_FILE_TIR_IMPORT,
        pools="sram,flash:kind=constant",
        target="c",
        tolerance=0,
    )
    assert result.constant_pool == "flash"
    assert result.pools["flash"] >= result.constant_bytes == 3028
    assert [o.max_error for o in result.outputs] == [0]


def test_float16_weights_stay_float16(tmp_path: Path) -> None:
    path = tmp_path / "float16_weights.tflite"
    path.write_bytes(float16_weights_tflite())
    constants = _constants(path)
    assert _kinds(constants) == {
        "dense_weights_permute_dims": ("float16", (16, 8)),
        "dense_bias": ("float16", (8,)),
        "dense_1_weights_permute_dims": ("float16", (8, 4)),
        "dense_1_bias": ("float16", (4,)),
    }
    _, weights = load_model_file(str(path), "tflite")
    np.testing.assert_array_equal(
        constants["dense_weights_permute_dims"], weights["dense_weights"].T
    )


def test_kept_temporaries_fold_decodings(tmp_path: Path) -> None:
    """Where producers are not fused into their consumers, a decoded weight would be a
    float32 tensor computed at run time: it is folded at compile time, as before."""
    path = tmp_path / "float16_weights.tflite"
    path.write_bytes(float16_weights_tflite())
    constants = _constants(path, TirImport(temporaries="keep"))
    assert constants["dense_weights_astype_permute_dims"].dtype == np.float32
    assert constants["dense_1_weights_astype_permute_dims"].shape == (8, 4)


def _shared_float16_weight(transposed: bool) -> tuple[object, dict[str, np.ndarray]]:
    """A Relax model reading one float16 weight, cast to float32 (and transposed), in two
    matmuls."""
    from tvm import relax

    x = relax.Var("x", relax.TensorType((1, 8), "float32"))
    w = relax.Var("w", relax.TensorType((8, 8), "float16"))
    builder = relax.BlockBuilder()
    with builder.function("forward", [x, w], attrs={"num_input": 1}):
        with builder.dataflow():
            wide = builder.emit(relax.op.astype(w, "float32"))
            if transposed:
                wide = builder.emit(relax.op.permute_dims(wide))
            h = builder.emit(relax.op.matmul(x, wide))
            y = builder.emit_output(relax.op.matmul(h, wide))
        builder.emit_func_output(y)
    weight = np.random.default_rng(0).standard_normal((8, 8)).astype(np.float16)
    return builder.get(), {"w": weight}


@pytest.mark.parametrize(
    ("transposed", "folded"), [(False, "w_astype"), (True, "w_astype_permute_dims")]
)
def test_decoding_read_twice_is_folded(transposed: bool, folded: str) -> None:
    """A cast (and transposed) weight read by two operators cannot be computed inside one:
    it is folded to a float32 constant named after the weight and the ops, and the model
    still equals the Relax VM."""
    mod, weights = _shared_float16_weight(transposed)
    constants = model_to_tir(mod, weights, "<shared>", MODEL_FILE_TIR_IMPORT).constants
    assert _kinds(constants) == {folded: ("float32", (8, 8))}
    result = check_model(mod, weights, "<shared>", tir_import=MODEL_FILE_TIR_IMPORT, tolerance=0)
    assert [o.max_error for o in result.outputs] == [0]


def _prelu() -> tuple[object, dict[str, np.ndarray]]:
    """A PReLU as TVM's TFLite frontend writes one: its per-channel alpha broadcast to the
    input's shape, both flattened."""
    from tvm.script import ir as I
    from tvm.script import relax as R

    @I.ir_module
    class Module:
        @R.function
        def forward(
            x: R.Tensor((1, 4, 8), "float32"), alpha: R.Tensor((8,), "float32")
        ) -> R.Tensor((32,), "float32"):
            R.func_attr({"num_input": 1})
            with R.dataflow():
                wide = R.broadcast_to(alpha, R.shape([1, 4, 8]))
                flat_alpha = R.reshape(wide, R.shape([32]))
                flat_x = R.reshape(x, R.shape([32]))
                y = R.nn.prelu(flat_x, flat_alpha, axis=0)
                R.output(y)
            return y

    alpha = np.random.default_rng(0).standard_normal(8).astype(np.float32)
    return Module, {"alpha": alpha}


def test_broadcast_weight_stays_per_channel() -> None:
    """The alpha is read as its 8 values, not folded into a 32-value copy."""
    mod, weights = _prelu()
    constants = model_to_tir(mod, weights, "<prelu>", MODEL_FILE_TIR_IMPORT).constants
    assert _kinds(constants) == {"alpha": ("float32", (8,))}
    result = check_model(mod, weights, "<prelu>", tir_import=MODEL_FILE_TIR_IMPORT, tolerance=0)
    assert [o.max_error for o in result.outputs] == [0]


def test_stored_weight_is_overridden_by_its_own_bytes(int8_model: Path) -> None:
    """The file's int8 weight, a constant as it is, is what an application overrides
    (folded, only its float32 dequantized copy was a constant)."""
    mod, weights = load_model_file(str(int8_model), "tflite")
    other = np.random.default_rng(1).integers(-127, 128, (8, 3, 3, 1)).astype(np.int8)
    result = check_model(
        mod,
        weights,
        str(int8_model),
        tir_import=MODEL_FILE_TIR_IMPORT,
        target="c",
        tolerance=0,
        overrides={"conv_weights": other},
    )
    assert [o.max_error for o in result.outputs] == [0]


@pytest.mark.parametrize("dtype", ["int8", "int32"])
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_weights_dequantized_at_compile_time_are_tvms_values(dtype: str, axis: int | None) -> None:
    """A weight's dequantize folded at compile time is computed with numpy (TVM's
    `FoldConstant` builds each with LLVM): bit for bit TVM's values, per tensor and per
    channel, int32 values past float32's 24 bits of mantissa included."""
    import tvm
    from tvm import relax

    from usmp_dialect.tvm.relax.folded_weights import fold_named_weights

    rng = np.random.default_rng(3)
    info = np.iinfo(dtype)
    data = rng.integers(info.min, info.max, (6, 5), endpoint=True).astype(dtype)
    channels = 1 if axis is None else data.shape[axis]
    scale = (rng.random(channels) * 1e-3).astype(np.float32)
    zero_point = rng.integers(-128, 128, channels).astype(dtype)
    weight = relax.Var("w", relax.TensorType(data.shape, dtype))
    builder = relax.BlockBuilder()
    with builder.function("forward", [weight]):
        with builder.dataflow():
            decoded = builder.emit(
                relax.op.dequantize(
                    weight,
                    relax.const(scale if channels > 1 else scale[0]),
                    relax.const(zero_point if channels > 1 else zero_point[0]),
                    axis=0 if axis is None else axis,
                )
            )
            out = builder.emit_output(decoded)
        builder.emit_func_output(out)
    mod = relax.transform.BindParams("forward", {"w": tvm.runtime.tensor(data)})(builder.get())
    by_tvm = relax.transform.FoldConstant()(mod)["forward"].body.body
    stored = mod["forward"].body.blocks[0].bindings[0].value.args[0]
    func, _ = fold_named_weights(mod["forward"], {"w": stored.value})
    ours = func.body.blocks[0].bindings[0].value
    assert isinstance(by_tvm, tvm.ir.Constant) and isinstance(ours, tvm.ir.Constant)
    expected = by_tvm.value.numpy()
    np.testing.assert_array_equal(ours.value.numpy().view(np.int32), expected.view(np.int32))
