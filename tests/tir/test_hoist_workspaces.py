"""`tir-hoist-workspaces` end to end: the diamond example planned TVM's way and with its
operator's workspace hoisted to the call sites builds with TVM and computes what the
un-planned module computes, and only the hoisted plan reaches the max-live bound."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

from usmp_dialect.tvm.tvmscript.planned_module import plan_module  # noqa: E402
from usmp_dialect.tvm.tvmscript.run import load_tvmscript, random_inputs, run_module  # noqa: E402

DIAMOND = Path(__file__).parents[2] / "examples" / "pass_ordering" / "diamond.py"


def _pool_bytes(planned) -> int:
    return int(planned["main"].attrs["usmp.pools"]["global_workspace"])


@pytest.mark.slow
def test_diamond_computes_the_same_numbers_hoisted_or_not() -> None:
    mod = load_tvmscript(str(DIAMOND))
    tvm_order = plan_module(mod, in_place=False)
    hoisted = plan_module(mod, hoist_workspaces=True, in_place=False)
    assert (_pool_bytes(tvm_order), _pool_bytes(hoisted)) == (64, 48)
    inputs = random_inputs(mod)
    expected = (inputs["inp"] * 3 + inputs["inp"] + 1) * 0.5
    reference = run_module(mod, inputs, target="llvm")
    np.testing.assert_allclose(reference["out"], expected, rtol=1e-6)
    for planned in (tvm_order, hoisted):
        np.testing.assert_array_equal(
            run_module(planned, inputs, target="llvm")["out"], reference["out"]
        )


def test_hoisted_operator_takes_its_workspace_as_a_param() -> None:
    # Its workspace arrives from the caller: the operator itself needs no pool.
    hoisted = plan_module(load_tvmscript(str(DIAMOND)), hoist_workspaces=True)
    assert [p.name for p in hoisted["add_halves"].params] == [
        "x_ptr",
        "y_ptr",
        "z_ptr",
        "ws_var",
    ]
    assert "T.alloc_buffer" not in hoisted.script()
