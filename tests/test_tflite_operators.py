"""TFLite operators TVM's frontend lacks or gets wrong, converted by our own converters
(`usmp_dialect.tvm.model_files.tflite_operators`): each on a small `.tflite` written here
(tests/operator_tflite.py), imported as `usmp-translate --import-tflite` imports it, its
values from the Relax VM equal to TensorFlow Lite Micro's interpreter (or a numpy
reference of the operator's published definition where TFLM cannot run it), and the
planned, built model equal to the Relax VM."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
pytest.importorskip("tflite")
pytestmark = pytest.mark.tvm

from operator_tflite import (  # noqa: E402
    densify_tflite,
    landmark_crop_tflite,
    max_pool_unpool_tflite,
    shape_tflite,
    transpose_conv_bias_tflite,
)

from tests.support.model_check import check_model  # noqa: E402
from tests.support.reference_runtime import reference_outputs  # noqa: E402
from usmp_dialect.tvm.model_files.loading import load_model_file  # noqa: E402
from usmp_dialect.tvm.relax.to_tir import relax_vm_outputs  # noqa: E402
from usmp_dialect.tvm_options import MODEL_FILE_TIR_IMPORT  # noqa: E402


def _imported(path: Path) -> str:
    """`usmp-translate --import-tflite` of the file: the printed IR (it exits 0)."""
    completed = subprocess.run(
        [sys.executable, "-m", "usmp_dialect.tools.usmp_translate", "--import-tflite", str(path)],
        capture_output=True,
        text=True,
    )
    assert completed.returncode == 0, completed.stderr
    return completed.stdout


def _checked(path: Path, inputs: dict[str, np.ndarray]) -> list[np.ndarray]:
    """The file imported by `usmp-translate --import-tflite`, and the Relax VM's outputs on
    `inputs`, once the planned, built model is checked equal to the Relax VM."""
    assert "tir.prim_func @main" in _imported(path)
    mod, weights = load_model_file(str(path), "tflite")
    result = check_model(mod, weights, str(path), tir_import=MODEL_FILE_TIR_IMPORT, target="c")
    assert all(o.agrees for o in result.outputs), result.outputs
    return relax_vm_outputs(mod, weights, inputs)


@pytest.mark.parametrize("int8", [False, True], ids=["float32", "int8"])
def test_shape_is_the_static_shape_and_may_be_an_output(int8: bool, tmp_path: Path) -> None:
    """SHAPE folds to the input's static shape (of a float32 or an int8 tensor): a
    RESHAPE reads it, and as an output of the model it is copied into its output buffer;
    TFLM's values exactly."""
    path = tmp_path / "shape.tflite"
    path.write_bytes(shape_tflite(int8))
    rng = np.random.default_rng(0)
    x = (
        rng.integers(-128, 128, (2, 3)).astype(np.int8)
        if int8
        else rng.standard_normal((2, 3)).astype(np.float32)
    )
    ours = _checked(path, {"input": x})
    theirs = reference_outputs(str(path), [x])
    np.testing.assert_array_equal(theirs[1], [2, 3])
    for mine, reference in zip(ours, theirs, strict=True):
        assert mine.dtype == reference.dtype
        np.testing.assert_array_equal(mine, reference)


@pytest.mark.parametrize(
    ("order", "block", "kind"),
    [([0, 1], None, 1), ([1, 0], None, 3), ([0, 1], 4, 2)],
    ids=["csr-int32", "columns-first-uint8", "blocks-of-4-uint16"],
)
def test_densify_makes_the_sparse_weight_dense(
    order: list[int], block: int | None, kind: int, tmp_path: Path
) -> None:
    """A weight stored in TFLite's sparsity format (TFLM has no DENSIFY kernel) is made
    dense at import: the FULLY_CONNECTED reading it computes the dense matrix's product,
    whatever the traversal order, blocks and index vector type."""
    rng = np.random.default_rng(1)
    dense = rng.standard_normal((6, 8)).astype(np.float32)
    dense[rng.random((6, 8)) < 0.6] = 0
    dense[:, 4:][2] = 0  # a block of zeros, left out of the stored values
    path = tmp_path / "densify.tflite"
    path.write_bytes(densify_tflite(dense, order, block, kind))
    x = rng.standard_normal((1, 8)).astype(np.float32)
    (ours,) = _checked(path, {"input": x})
    np.testing.assert_allclose(ours, x @ dense.T, rtol=1e-6, atol=1e-6)


def _transpose_conv_bias(
    x: np.ndarray, weights: np.ndarray, bias: np.ndarray, same: bool, stride: int
) -> np.ndarray:
    """MediaPipe's Convolution2DTransposeBias by its definition: each input pixel adds its
    product with the kernel (OHWI) at stride * its position, less the top (left) half of
    SAME's padding, within the output; the bias under all."""
    _, in_h, in_w, _ = x.shape
    out_channels, kernel_h, kernel_w, _ = weights.shape
    full = np.zeros(((in_h - 1) * stride + kernel_h, (in_w - 1) * stride + kernel_w, out_channels))
    for y in range(in_h):
        for z in range(in_w):
            product = np.einsum("i,ohwi->hwo", x[0, y, z].astype(np.float64), weights)
            full[y * stride : y * stride + kernel_h, z * stride : z * stride + kernel_w] += product
    totals = [0, 0]
    if same:
        totals = [max(0, k - (n - 1) % stride - 1) for k, n in [(kernel_h, in_h), (kernel_w, in_w)]]
    top, left = totals[0] // 2, totals[1] // 2
    height, width = full.shape[0] - totals[0], full.shape[1] - totals[1]
    return (full[top : top + height, left : left + width] + bias)[None]


@pytest.mark.parametrize(("same", "stride"), [(True, 2), (False, 2), (True, 1)])
def test_transpose_conv_bias_is_mediapipes(same: bool, stride: int, tmp_path: Path) -> None:
    """MediaPipe's custom Convolution2DTransposeBias (TFLM runs no custom operator) equals a
    numpy reference written from its definition, SAME's odd padding total (its bottom,
    right half the larger) and VALID."""
    from tflite.Padding import Padding

    rng = np.random.default_rng(2)
    weights = rng.standard_normal((3, 3, 3, 2)).astype(np.float32)
    bias = rng.standard_normal(3).astype(np.float32)
    path = tmp_path / "transpose_conv_bias.tflite"
    padding = Padding.SAME if same else Padding.VALID
    path.write_bytes(transpose_conv_bias_tflite(weights, bias, [1, 3, 4, 2], padding, stride))
    x = rng.standard_normal((1, 3, 4, 2)).astype(np.float32)
    (ours,) = _checked(path, {"input": x})
    expected = _transpose_conv_bias(x, weights, bias, same, stride)
    assert ours.shape == expected.shape
    np.testing.assert_allclose(ours, expected, rtol=1e-5, atol=1e-5)


def _max_pool_argmax(x: np.ndarray, same: bool, relu: bool) -> tuple[np.ndarray, np.ndarray]:
    """MediaPipe's MaxPoolingWithArgmax2D, 2x2 stride 2, by its definition: each window
    (at 2 * its position less TFLite's padding, clamped to the input) gives its max (the
    first of equal ones, RELU applied) and where in the window it is, row * 2 + column +
    0.1."""
    _, height, width, channels = x.shape
    out_h, out_w = (-(-height // 2), -(-width // 2)) if same else (height // 2, width // 2)
    top = max(0, ((out_h - 1) * 2 + 2 - height) // 2)
    left = max(0, ((out_w - 1) * 2 + 2 - width) // 2)
    values = np.zeros((1, out_h, out_w, channels), np.float32)
    indices = np.zeros_like(values)
    for oy in range(out_h):
        for ox in range(out_w):
            for c in range(channels):
                best, at = -np.inf, 0
                for fy in range(2):
                    for fx in range(2):
                        y, z = oy * 2 - top + fy, ox * 2 - left + fx
                        if 0 <= y < height and 0 <= z < width and x[0, y, z, c] > best:
                            best, at = x[0, y, z, c], fy * 2 + fx
                values[0, oy, ox, c] = max(best, 0) if relu else best
                indices[0, oy, ox, c] = at + 0.1
    return values, indices


def _max_unpooling(values: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """MediaPipe's MaxUnpooling2D, 2x2 stride 2 (no padding then), by its definition."""
    _, height, width, channels = values.shape
    out = np.zeros((1, 2 * height, 2 * width, channels), np.float32)
    for y in range(height):
        for z in range(width):
            for c in range(channels):
                at = int(indices[0, y, z, c])
                out[0, y * 2 + at // 2, z * 2 + at % 2, c] = values[0, y, z, c]
    return out


@pytest.mark.parametrize(("same", "relu"), [(True, True), (False, False)])
def test_max_pool_argmax_and_unpooling_are_mediapipes(
    same: bool, relu: bool, tmp_path: Path
) -> None:
    """MediaPipe's custom MaxPoolingWithArgmax2D and MaxUnpooling2D (TFLM runs no custom
    operator) equal numpy references written from their definitions: values, indices
    (equal maxima included: the first wins) and the unpooled tensor, on an odd-sized
    input (SAME pads it)."""
    from tflite.Padding import Padding

    rng = np.random.default_rng(3)
    x = rng.integers(-3, 4, (1, 5, 7, 2)).astype(np.float32)  # many equal maxima
    path = tmp_path / "max_pool_argmax.tflite"
    padding = Padding.SAME if same else Padding.VALID
    path.write_bytes(max_pool_unpool_tflite(list(x.shape), padding, relu))
    pooled, indices, unpooled = _checked(path, {"input": x})
    expected_values, expected_indices = _max_pool_argmax(x, same, relu)
    np.testing.assert_array_equal(pooled, expected_values)
    np.testing.assert_array_equal(indices, expected_indices)
    np.testing.assert_array_equal(unpooled, _max_unpooling(expected_values, expected_indices))


def _landmarks_to_transform_matrix(landmarks: np.ndarray, o: dict) -> np.ndarray:
    """MediaPipe's Landmarks2TransformMatrix (version 2) by its definition."""
    points = landmarks[0].astype(np.float64)
    left, right = points[o["left_rotation_idx"]], points[o["right_rotation_idx"]]
    r = o["target_rotation_radians"] - np.arctan2(right[1] - left[1], right[0] - left[0])

    def rotation(angle: float) -> np.ndarray:
        return np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])

    subset = points[o["subset_idxs"], :2] @ rotation(r).T
    low, high = subset.min(axis=0), subset.max(axis=0)
    crop = rotation(-r) @ ((low + high) / 2)
    width, height = high - low

    def homogeneous(linear: np.ndarray, shift: np.ndarray) -> np.ndarray:
        m = np.eye(4)
        m[:2, :2], m[:2, 3] = linear, shift
        return m

    scale = np.diag(
        [o["scale_x"] * width / o["output_width"], o["scale_y"] * height / o["output_height"]]
    )
    half = -np.array([o["output_width"], o["output_height"]]) / 2
    return (
        homogeneous(np.eye(2), crop)
        @ homogeneous(rotation(-r), np.zeros(2))
        @ homogeneous(scale, np.zeros(2))
        @ homogeneous(np.eye(2), half)
    )[None]


def _transform_tensor_bilinear(x: np.ndarray, m: np.ndarray, height: int, width: int) -> np.ndarray:
    """MediaPipe's TransformTensorBilinear (version 2) by its definition."""
    _, in_h, in_w, channels = x.shape
    rows = m[0, :2].astype(np.float64).copy()
    rows[:, 3] += rows[:, 0] * 0.5 + rows[:, 1] * 0.5 - 0.5
    out = np.zeros((1, height, width, channels))

    def read(y: int, z: int) -> np.ndarray:
        inside = 0 <= y < in_h and 0 <= z < in_w
        return x[0, y, z] if inside else np.zeros(channels)

    for oy in range(height):
        for ox in range(width):
            tx, ty = rows @ np.array([ox, oy, 0.0, 1.0])
            if tx < 0 or tx > in_w - 1 or ty < 0 or ty > in_h - 1:
                continue
            y0, x0 = int(np.floor(ty)), int(np.floor(tx))
            right, lower = tx - x0, ty - y0
            upper = (1 - right) * read(y0, x0) + right * read(y0, x0 + 1)
            below = (1 - right) * read(y0 + 1, x0) + right * read(y0 + 1, x0 + 1)
            out[0, oy, ox] = lower * below + (1 - lower) * upper
    return out


@pytest.mark.slow
def test_landmark_operators_are_mediapipes(tmp_path: Path) -> None:
    """MediaPipe's version-2 Landmarks2TransformMatrix, TransformTensorBilinear and
    TransformLandmarks (TFLM runs no custom operator) equal numpy references written from
    their definitions, at float32's tolerance: the matrix, a crop partly outside the
    feature map, and the moved points."""
    from operator_tflite import LANDMARK_OPTIONS

    rng = np.random.default_rng(4)
    landmarks = rng.uniform(1, 7, (1, 6, 3)).astype(np.float32)
    features = rng.standard_normal((1, 8, 8, 2)).astype(np.float32)
    points = rng.uniform(0, 5, (1, 3, 2)).astype(np.float32)
    path = tmp_path / "landmark_crop.tflite"
    path.write_bytes(landmark_crop_tflite(6, [1, 8, 8, 2], 3))
    inputs = {"landmarks": landmarks, "features": features, "points": points}
    matrix, crop, moved = _checked(path, inputs)
    expected = _landmarks_to_transform_matrix(landmarks, LANDMARK_OPTIONS)
    np.testing.assert_allclose(matrix, expected, rtol=1e-5, atol=1e-5)
    reference = _transform_tensor_bilinear(features, matrix, 4, 5)
    assert 0 < np.count_nonzero(reference[0, :, :, 0]) < 20  # partly outside the map
    np.testing.assert_allclose(crop, reference, rtol=1e-5, atol=1e-5)
    homogeneous = np.concatenate([points[0], np.zeros((3, 1)), np.ones((3, 1))], axis=1)
    np.testing.assert_allclose(moved[0], homogeneous @ matrix[0, :2].T, rtol=1e-5, atol=1e-5)


def test_landmark_operator_of_another_version_is_named(tmp_path: Path) -> None:
    """A version-1 MediaPipe landmark operator (not converted: version 2 is) is one
    diagnostic naming the operator, its index and the tensor it computes."""
    from usmp_dialect.tvm.relax.to_tir import RelaxImportError

    path = tmp_path / "landmark_crop.tflite"
    path.write_bytes(landmark_crop_tflite(6, [1, 8, 8, 2], 3, version=1))
    with pytest.raises(RelaxImportError) as raised:
        load_model_file(str(path), "tflite")
    assert raised.value.message == (
        "TVM's TFLite frontend failed at CUSTOM 'Landmarks2TransformMatrix' operator 0, "
        "computing 'matrix': ValueError: Landmarks2TransformMatrix version 1 is not "
        "converted (version 2 is)"
    )
