"""A clip of an integer tensor to its dtype's whole range is dropped, its operand's binding
taking the clip's name; any clip that computes something, or whose operand another
binding reads too, stays."""

from __future__ import annotations

import pytest

tvm = pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

from tvm import relax  # noqa: E402

from usmp_dialect.tvm.relax.identity_clips import identity_clips_dropped  # noqa: E402


def _quantized_then_clipped(low: float, high: float, dtype: str = "int8") -> relax.Function:
    """`relu = clip(quantize(x), low, high)`, returned."""
    x = relax.Var("x", relax.TensorType((4,), "float32"))
    builder = relax.BlockBuilder()
    with builder.function("forward", [x]):
        with builder.dataflow():
            scale, zero = relax.const(0.5, "float32"), relax.const(-128, "int32")
            quantized = builder.emit(relax.op.quantize(x, scale, zero, out_dtype=dtype))
            relu = builder.emit_output(relax.op.clip(quantized, low, high), name_hint="relu")
        builder.emit_func_output(relu)
    return builder.get()["forward"]


def _ops(func: relax.Function) -> list[tuple[str, str]]:
    return [
        (str(b.var.name), str(b.value.op.name))
        for block in func.body.blocks
        for b in block.bindings
    ]


def test_clip_to_the_whole_int8_range_is_dropped_and_its_name_kept() -> None:
    func = identity_clips_dropped(_quantized_then_clipped(-128, 127))
    assert _ops(func) == [("relu", "relax.quantize")]
    assert func.body.body.same_as(func.body.blocks[0].bindings[0].var)


@pytest.mark.parametrize(
    ("low", "high", "dtype"),
    [(-100, 127, "int8"), (-128, 126, "int8"), (-128, 127, "int16"), (0, 255, "int16")],
)
def test_clip_narrowing_the_range_stays(low: float, high: float, dtype: str) -> None:
    func = _quantized_then_clipped(low, high, dtype)
    assert identity_clips_dropped(func).same_as(func)


def test_clip_of_a_tensor_read_twice_stays() -> None:
    x = relax.Var("x", relax.TensorType((4,), "int8"))
    builder = relax.BlockBuilder()
    with builder.function("forward", [x]):
        with builder.dataflow():
            doubled = builder.emit(relax.op.add(x, x))
            clipped = builder.emit(relax.op.clip(doubled, -128, 127))
            total = builder.emit_output(relax.op.add(clipped, doubled))
        builder.emit_func_output(total)
    func = builder.get()["forward"]
    assert identity_clips_dropped(func).same_as(func)
