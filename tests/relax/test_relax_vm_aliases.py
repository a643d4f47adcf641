"""Every way a Relax binding can share a tensor's bytes keeps the tensor live in our plan,
and the overlap check that runs after every plan (`relax_vm_check`) catches a plan that
does not: the function keeps TVM's plan, with one warning naming the two tensors."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

import tvm  # noqa: E402
from tvm import relax  # noqa: E402
from tvm.script import ir as I  # noqa: E402
from tvm.script import relax as R  # noqa: E402

from tests.support.relax_vm_measure import run  # noqa: E402
from usmp_dialect.tvm.relax_vm import tensors as relax_vm_tensors  # noqa: E402
from usmp_dialect.tvm.relax_vm.overlap_check import Overlap, check_no_overlap  # noqa: E402
from usmp_dialect.tvm.relax_vm.plan_memory import PlanMemory, PlanMemoryWarning, pipeline  # noqa: E402

CPU = tvm.target.Target({"kind": "llvm", "opt-level": 0})

# ------------------------------------------------------------------ the model of issue 41


@I.ir_module
class ReshapedBetween:
    """exp, then two matmuls; exp's output is read through packed reshapes after the first
    matmul's output is allocated."""

    @R.function
    def forward(x: R.Tensor((8, 8), "float32")) -> R.Tensor((64,), "float32"):
        with R.dataflow():
            a = R.exp(x)
            flat = R.call_pure_packed(
                "vm.builtin.reshape", a, R.shape([64]), ty_args=R.Tensor((64,), "float32")
            )
            c = R.matmul(x, x)
            square = R.call_pure_packed(
                "vm.builtin.reshape", flat, R.shape([8, 8]), ty_args=R.Tensor((8, 8), "float32")
            )
            d = R.reshape(R.matmul(square, c), [64])
            R.output(d)
        return d


@pytest.fixture(scope="module")
def reshape_inputs() -> list[np.ndarray]:
    return [(np.arange(64, dtype="float32").reshape(8, 8) % 5) / 4]


@pytest.fixture(scope="module")
def tvms_output(reshape_inputs: list[np.ndarray]) -> np.ndarray:
    return run(ReshapedBetween, CPU, reshape_inputs, relax.get_default_pipeline(CPU)).outputs[0]


def test_a_tensor_read_through_packed_reshapes_stays_live(
    reshape_inputs: list[np.ndarray], tvms_output: np.ndarray
) -> None:
    ours = pipeline(CPU)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = run(ReshapedBetween, CPU, reshape_inputs, ours)
    assert np.array_equal(result.outputs[0], tvms_output)
    (report,) = ours.plan_memory.report
    assert report.kept_tvm_plan is None
    alloc, alloc1, _ = report.placements
    # exp's output is read by the second matmul, after the first one's is written.
    assert alloc.end > alloc1.start and alloc.offset != alloc1.offset


def test_with_the_alias_table_broken_the_check_keeps_tvms_plan(
    reshape_inputs: list[np.ndarray], tvms_output: np.ndarray, monkeypatch: Any
) -> None:
    monkeypatch.setattr(relax_vm_tensors, "may_alias", lambda var, value: False)
    ours = pipeline(CPU)
    with pytest.warns(PlanMemoryWarning) as caught:
        result = run(ReshapedBetween, CPU, reshape_inputs, ours)
    (warning,) = caught
    assert "tensors 'alloc' and 'alloc1' overlap in storage 'global_workspace'" in str(
        warning.message
    )
    assert np.array_equal(result.outputs[0], tvms_output)
    (report,) = ours.plan_memory.report
    assert report.kept_tvm_plan is not None and not report.pools


# ------------------------------------------------------------------ each alias, in the IR

TEMPLATE = """
@I.ir_module
class Module:
    @T.prim_func
    def write(x: T.Buffer((16,), "float32"), y: T.Buffer((16,), "float32")):
        for i in range(16):
            y[i] = x[i] + T.float32(1)

    @T.prim_func
    def add(x: T.Buffer((16,), "float32"), y: T.Buffer((16,), "float32"),
            z: T.Buffer((16,), "float32")):
        for i in range(16):
            z[i] = x[i] + y[i]

    @R.function
    def identity(x: R.Tensor((16,), "float32")) -> R.Tensor((16,), "float32"):
        return x

    @R.function(pure=False)
    def main(x: R.Tensor((16,), "float32"), flag: R.Tensor((), "bool")
             ) -> R.Tensor((16,), "float32"):
        s0 = R.memory.alloc_storage(R.shape([64]), 0, "global", "uint8")
        s1 = R.memory.alloc_storage(R.shape([64]), 0, "global", "uint8")
        a = R.memory.alloc_tensor(s0, 0, R.shape([16]), "float32")
        Module.write(x, a)
        ALIAS
        b = R.memory.alloc_tensor(s1, 0, R.shape([16]), "float32")
        Module.write(x, b)
        out = R.builtin.alloc_tensor(R.shape([16]), "float32", 0)
        Module.add(USE, b, out)
        return out
"""
"""`a` is written, aliased as ALIAS binds it, then `b` is written and `a` read through
USE: `a` and `b` are live together, in the storages TVM's planner gave them."""

TENSOR = 'ty_args=R.Tensor((16,), "float32")'
ALIASES = {
    "vm.builtin.reshape, call_packed": (
        f'v = R.call_packed("vm.builtin.reshape", a, R.shape([16]), {TENSOR})',
        "v",
    ),
    "vm.builtin.reshape, call_pure_packed": (
        f'v = R.call_pure_packed("vm.builtin.reshape", a, R.shape([16]), {TENSOR})',
        "v",
    ),
    "R.reshape": ("v = R.reshape(a, R.shape([16]))", "v"),
    "R.memory.view": ("v = R.memory.view(a, R.shape([16]))", "v"),
    "ensure_zero_offset": ("v = R.memory.ensure_zero_offset(a)", "v"),
    "tuple": ("t = (x, a)", "t[1]"),
    "tuple item": ("t = (x, a)\n        v = t[1]", "v"),
    "If branch": ("if flag:\n            v = a\n        else:\n            v = x", "v"),
    # What CallTIRRewrite makes of R.call_tir_inplace: the call, then the result bound to
    # the argument it wrote.
    "call_tir_inplace": ("Module.write(x, a)\n        v = a", "v"),
    "unknown packed call": (f'v = R.call_packed("my.identity", a, {TENSOR})', "v"),
    "Relax function call": ("v = Module.identity(a)", "v"),
    "match_cast": ('v = R.match_cast(a, R.Tensor((16,), "float32"))', "v"),
}


def aliased(alias: str) -> Any:
    line, use = ALIASES[alias]
    return tvm.script.from_source(TEMPLATE.replace("ALIAS", line).replace("USE", use))


def main_report(plan: Any) -> Any:
    return next(r for r in plan.report if r.function == "main")


@pytest.mark.parametrize("alias", list(ALIASES))
def test_an_alias_keeps_its_tensor_live(alias: str) -> None:
    plan = PlanMemory()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        planned = plan(aliased(alias))
    a, b = main_report(plan).placements
    assert a.end > b.start and {a.offset, b.offset} == {0, 64}
    check_no_overlap(planned["main"])


@pytest.mark.parametrize("alias", list(ALIASES))
def test_an_alias_the_planner_missed_is_caught_by_the_check(alias: str, monkeypatch: Any) -> None:
    mod = aliased(alias)
    monkeypatch.setattr(relax_vm_tensors, "may_alias", lambda var, value: False)
    plan = PlanMemory()
    with pytest.warns(PlanMemoryWarning, match="tensors 'a' and 'b' overlap") as caught:
        planned = plan(mod)
    assert len(caught) == 1
    tvm.ir.assert_structural_equal(planned, relax.transform.StaticPlanBlockMemory()(mod))
    assert main_report(plan).kept_tvm_plan is not None


def test_the_check_finds_two_live_tensors_at_one_offset() -> None:
    text = aliased("R.reshape").script().replace("alloc_tensor(s1", "alloc_tensor(s0")
    check_no_overlap(aliased("R.reshape")["main"])
    with pytest.raises(Overlap, match="tensors 'a' and 'b' overlap in storage 's0'"):
        check_no_overlap(tvm.script.from_source(text)["main"])


def test_a_returned_tensor_placed_in_the_pool_is_live_to_the_end() -> None:
    plan = PlanMemory(returned_in_pool=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        planned = plan(aliased("R.reshape"))
    a, b, out = main_report(plan).placements
    # Written while a and b are read, and returned: live with both, to the end.
    assert out.start < a.end and out.end > out.start + 1
    assert len({a.offset, b.offset, out.offset}) == 3
    assert not main_report(plan).unplanned
    check_no_overlap(planned["main"])


def test_a_storage_keeps_its_virtual_device() -> None:
    mod = aliased("R.reshape")
    text = mod.script().replace("R.shape([64]), 0,", "R.shape([64]), 1,")
    mod = tvm.script.from_source(text)
    host = relax.VDevice(tvm.target.Target("llvm"), 0, "global")
    mod.update_global_info("vdevice", [host, relax.VDevice(tvm.target.Target("llvm"), 1)])
    plan = PlanMemory()
    planned = plan(mod)
    assert main_report(plan).pools == {"global_workspace.d1": 128}
    assert "R.memory.alloc_storage(R.shape([128]), 1," in planned["main"].script()


# ------------------------------------------------------------------ bad input


def test_a_construct_it_cannot_analyse_keeps_tvms_plan_with_a_warning_naming_it() -> None:
    closure = (
        '@R.function\n        def inner() -> R.Tensor((16,), "float32"):\n'
        "            return a\n        v = inner()"
    )
    mod = tvm.script.from_source(TEMPLATE.replace("ALIAS", closure).replace("USE", "v"))
    plan = PlanMemory()
    with pytest.warns(PlanMemoryWarning) as caught:
        planned = plan(mod)
    (warning,) = caught
    assert "binding 'inner' (Function) reads tensor 'a' through a construct" in str(warning.message)
    tvm.ir.assert_structural_equal(planned, relax.transform.StaticPlanBlockMemory()(mod))


# ------------------------------------------------------------------ CUDA, on the IR


@I.ir_module
class Cumsum:
    @R.function
    def forward(x: R.Tensor((16, 16), "float32")) -> R.Tensor((16, 16), "float32"):
        with R.dataflow():
            a = R.exp(x)
            b = R.cumsum(a, axis=-1)
            c = R.matmul(b, x)
            d = R.matmul(c, b)
            R.output(d)
        return d


def test_cumsum_planned_for_cuda_keeps_the_tensors_its_reshapes_read_live() -> None:
    # DispatchSortScan wraps R.cumsum in vm.builtin.reshape calls on CUDA.
    planned: list[Any] = []

    @tvm.instrument.pass_instrument
    class AfterPlanMemory:
        def run_after_pass(self, mod: Any, info: Any) -> None:
            if info.name == "usmp.PlanMemory":
                planned.append(mod["forward"])

    ours = pipeline(tvm.target.Target("cuda"))
    with warnings.catch_warnings(), tvm.transform.PassContext(instruments=[AfterPlanMemory()]):
        warnings.simplefilter("error", PlanMemoryWarning)
        ours(Cumsum)
    (func,) = planned
    assert func.script().count('"vm.builtin.reshape"') == 2
    check_no_overlap(func)
    (report,) = ours.plan_memory.report
    exp_out, cumsum_out, matmul_out = report.placements
    # The cumsum's output is read, through its reshape, by the last matmul.
    assert cumsum_out.end == matmul_out.end and cumsum_out.offset != matmul_out.offset
    assert exp_out.end <= cumsum_out.end
