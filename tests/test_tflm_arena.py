"""TensorFlow Lite Micro's arena (`tflm_arena`): grown until TFLM allocates, and TFLM's
own reason when it cannot run a model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from int8_tflite import large_activations_tflite, unsupported_operator_tflite

from tests.support.reference_runtime import reference_outputs
from usmp_dialect.tvm.tflm.arena import TflmError, tflm_arena


def test_arena_grows_past_the_default_for_large_activations(tmp_path: Path) -> None:
    """A model whose activations are far larger than 10x its file (the wheel's default
    arena) gets the arena it needs: its head holds the input and the output."""
    path = tmp_path / "large.tflite"
    path.write_bytes(large_activations_tflite())
    tensor = 64 * 64 * 8 * 4
    assert 10 * path.stat().st_size < 2 * tensor
    head, total = tflm_arena(str(path))
    assert 2 * tensor <= head < total


def test_reference_run_gets_the_arena_it_needs(tmp_path: Path) -> None:
    """TFLM's outputs, the yardstick of ours, of a model whose activations do not fit the
    wheel's default arena (MLTK's fingerprint model is one): the arena grows until TFLM
    allocates, and TFLM computes the RELU."""
    path = tmp_path / "large.tflite"
    path.write_bytes(large_activations_tflite())
    given = np.random.default_rng(0).standard_normal((1, 64, 64, 8)).astype(np.float32)
    (theirs,) = reference_outputs(str(path), [given])
    np.testing.assert_array_equal(theirs, np.maximum(given, 0))


def test_operator_without_a_tflm_kernel_is_tflm_reason(tmp_path: Path) -> None:
    path = tmp_path / "unsupported.tflite"
    path.write_bytes(unsupported_operator_tflite())
    with pytest.raises(TflmError, match="Didn't find op for builtin opcode 'SKIP_GRAM'"):
        tflm_arena(str(path))
