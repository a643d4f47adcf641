"""`legalize_ops_once` makes the module TVM's `LegalizeOps` makes, each operator signature
legalized once: calls alike in op, attrs, argument types and inlined values share the
first one's PrimFunc; a different inlined scale, or a call reading one tensor twice, gets
its own legalization."""

from __future__ import annotations

import pytest

tvm = pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

from tvm import relax  # noqa: E402

from usmp_dialect.tvm.relax.legalized_once import legalize_ops_once  # noqa: E402

ACTIVATION = relax.TensorType((1, 8, 8, 4), "int8")
WEIGHT = relax.TensorType((3, 3, 4, 4), "float32")


def _dequantized(x: relax.Expr, scale: float) -> relax.Expr:
    return relax.op.dequantize(x, relax.const(scale, "float32"), relax.const(0, "int32"))


def _conv(x: relax.Expr, w: relax.Expr) -> relax.Expr:
    return relax.op.nn.conv2d(x, w, padding=1, data_layout="NHWC", kernel_layout="HWIO")


def _two_layers() -> tvm.IRModule:
    """Two int8 inputs dequantized at one scale and convolved alike, one dequantized at
    another, summed, and the sum squared (a multiply reading one tensor twice)."""
    x, y = relax.Var("x", ACTIVATION), relax.Var("y", ACTIVATION)
    w1, w2 = relax.Var("w1", WEIGHT), relax.Var("w2", WEIGHT)
    builder = relax.BlockBuilder()
    with builder.function("forward", [x, y, w1, w2]):
        with builder.dataflow():
            c1 = builder.emit(_conv(builder.emit(_dequantized(x, 0.5)), w1))
            c2 = builder.emit(_conv(builder.emit(_dequantized(y, 0.5)), w2))
            other = builder.emit(_dequantized(x, 0.25))
            total = builder.emit(relax.op.add(builder.emit(relax.op.add(c1, c2)), other))
            result = builder.emit_output(relax.op.multiply(total, total))
        builder.emit_func_output(result)
    return builder.get()


def _legalized(pass_: tvm.transform.Pass, monkeypatch: pytest.MonkeyPatch) -> tuple[str, int]:
    """The module `pass_` legalizes `_two_layers` into, printed, and how many PrimFuncs
    its legalizations made."""
    made = []
    call_te = relax.BlockBuilder.call_te

    def counted(self: relax.BlockBuilder, *args: object, **kwargs: object) -> relax.Expr:
        made.append(args[0])
        return call_te(self, *args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(relax.BlockBuilder, "call_te", counted)
        legalized = pass_(_two_layers())
    return legalized.script(), len(made)


def test_the_module_is_tvms_with_each_signature_legalized_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    expected, made_by_tvm = _legalized(relax.transform.LegalizeOps(), monkeypatch)
    printed, made = _legalized(legalize_ops_once(), monkeypatch)
    assert printed == expected
    # TVM: 3 dequantize, 2 conv2d, 2 add, 1 multiply. Once: the dequantize at 0.5 and
    # the one at 0.25, one conv2d, one add, the multiply.
    assert (made_by_tvm, made) == (8, 5)
