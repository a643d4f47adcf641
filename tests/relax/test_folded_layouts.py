"""A layout change of a weight, computed at import by moving its elements (numpy), equals
what TVM's `FoldConstant` computes with a kernel: same shape, dtype and bytes."""

from __future__ import annotations

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

from tvm import relax  # noqa: E402

from usmp_dialect.tvm.relax.folded_weights import _computed  # noqa: E402


def _fold_constant(call: relax.Expr) -> np.ndarray:
    builder = relax.BlockBuilder()
    with builder.function("fold", []):
        with builder.dataflow():
            result = builder.emit_output(call)
        builder.emit_func_output(result)
    body = relax.transform.FoldConstant()(builder.get())["fold"].body
    assert not body.blocks
    return body.body.value.numpy()


_RNG = np.random.default_rng(0)

CASES = [
    ("float32", (2, 3, 4, 5), lambda w: relax.op.permute_dims(w, [3, 1, 0, 2])),
    ("float32", (6, 7), relax.op.permute_dims),
    ("int8", (4, 6), lambda w: relax.op.reshape(w, (3, 8))),
    ("float16", (5,), lambda w: relax.op.expand_dims(w, [0, 2])),
    ("uint8", (1, 9, 1), relax.op.squeeze),
    ("int32", (2, 3, 4), relax.op.flatten),
]


@pytest.mark.parametrize(("dtype", "shape", "layout"), CASES)
def test_a_moved_layout_equals_fold_constant(dtype, shape, layout):
    weight = relax.const((_RNG.standard_normal(shape) * 100).astype(dtype))
    call = relax.BlockBuilder().normalize(layout(weight))
    moved = _computed(call, {})
    assert moved is not None
    expected = _fold_constant(call)
    got = moved.value.numpy()
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert got.tobytes() == expected.tobytes()


def test_a_var_bound_to_a_constant_is_moved():
    weight = relax.const(np.arange(12, dtype="float32").reshape(3, 4))
    var = relax.Var("w_folded", weight.ty)
    call = relax.BlockBuilder().normalize(relax.op.permute_dims(var))
    moved = _computed(call, {var: weight})
    assert moved is not None
    assert moved.value.numpy().tobytes() == np.arange(12, dtype="float32").reshape(3, 4).T.tobytes()
