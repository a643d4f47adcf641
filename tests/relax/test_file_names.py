"""The file's names for the tensors of TVM's Relax frontends (`tvm.model_files.tensor_names`): an
intermediate of one file node's decomposition is named after that node's output."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

from usmp_dialect.tvm.model_files.tensor_names import with_file_names  # noqa: E402


def _bound_names(func: Any) -> list[str]:
    return [str(b.var.name) for block in func.body.blocks for b in block.bindings]


def _decomposed() -> Any:
    """`a` and `b` are the file's tensors; `lv` is read for both, `lv1` for `b` only,
    `lv2` is returned."""
    from tvm.script import ir as I
    from tvm.script import relax as R

    @I.ir_module
    class Module:
        @R.function
        def forward(x: R.Tensor((4,), "float32")) -> R.Tuple:
            with R.dataflow():
                lv = R.add(x, x)
                a = R.multiply(lv, x)
                lv1 = R.exp(a)
                b = R.add(lv1, lv)
                lv2 = R.negative(b)
                R.output(b, lv2)
            return (b, lv2)

    return Module["forward"]


def test_intermediate_of_one_node_takes_its_name() -> None:
    func = _decomposed()
    bindings = {str(b.var.name): b.var for block in func.body.blocks for b in block.bindings}
    named, _ = with_file_names(func, [("a", bindings["a"]), ("b", bindings["b"])])
    assert _bound_names(named) == ["lv", "a", "b_exp_intermediate", "b", "lv2"]
