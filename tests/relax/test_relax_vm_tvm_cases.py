"""`PlanMemory()(mod)` as a drop-in for `relax.transform.StaticPlanBlockMemory()(mod)`, no
target in scope, on the constructs of TVM's own tests of that pass (static_plan_cases):
what it plans has no two live tensors sharing a byte (the independent check, run on our
pools here too), never takes more bytes than TVM's plan, gives TVM's outputs bitwise with
kernels that read every element of every input, and plans wherever that saves bytes."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

import tvm  # noqa: E402
from tvm import relax  # noqa: E402
from tvm.relax.backend.cpu_generic import pipeline as cpu  # noqa: E402

from usmp_dialect.tvm.relax_vm.overlap_check import (  # noqa: E402
    check_no_overlap,
    storage_bytes,
    storages,
)
from usmp_dialect.tvm.relax_vm.plan_memory import PlanMemory, PlanMemoryWarning  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from static_plan_cases import (  # noqa: E402
    CASES,
    case_module,
    register_packed_functions,
    runnable,
)

CPU = tvm.target.Target({"kind": "llvm", "opt-level": 0})


def outputs(mod: Any, plan: Any) -> dict[str, np.ndarray]:
    """`mod` built with `plan` and the passes after StaticPlanBlockMemory in TVM's default
    pipeline, each function but the ones it calls run on the same inputs (a symbolic
    dimension is 7)."""
    with CPU:
        finalize = cpu.finalize_passes(CPU)
        after = [p.info.name for p in finalize].index("StaticPlanBlockMemory") + 1
        passes = tvm.transform.Sequential([plan, *finalize[after:]])
    vm = relax.VirtualMachine(tvm.compile(mod, CPU, relax_pipeline=passes), tvm.cpu())
    results = {}
    for gv, func in mod.functions.items():
        if not isinstance(func, relax.Function) or gv.name_hint == "helper":
            continue
        rng = np.random.default_rng(0)
        args = []
        for param in func.params:
            shape = [getattr(d, "value", 7) for d in param.ty.shape.values]
            values = rng.standard_normal(shape).astype("float32")
            dtype = str(param.ty.dtype)
            args.append(tvm.runtime.tensor(values > 0 if dtype == "bool" else values.astype(dtype)))
        results[gv.name_hint] = vm[gv.name_hint](*args).numpy()
    return results


@pytest.mark.parametrize("name", list(CASES))
def test_tvms_test_module_planned_without_a_target(name: str) -> None:
    mod = case_module(name)
    plan = PlanMemory()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ours = plan(mod)
    theirs = relax.transform.StaticPlanBlockMemory()(mod)
    for report in plan.report:
        func = ours[report.function]
        pools = {label.replace(".", "_") for label in report.pools}
        check_no_overlap(func, {v for v in storages(func) if v.name in pools})
        assert storage_bytes(func) <= storage_bytes(theirs[report.function])
        if report.kept_tvm_plan is None and report.pools:
            assert storage_bytes(func) == sum(report.pools.values())
    register_packed_functions()
    kernels = runnable(mod)
    theirs_out = outputs(kernels, relax.transform.StaticPlanBlockMemory())
    ours_out = outputs(kernels, PlanMemory())
    assert theirs_out.keys() == ours_out.keys()
    for function, output in theirs_out.items():
        assert np.array_equal(output, ours_out[function])


def test_where_offsets_save_bytes_the_drop_in_plans() -> None:
    mod = case_module("operators of mixed sizes")
    plan = PlanMemory()
    ours = plan(mod)
    (report,) = plan.report
    assert report.kept_tvm_plan is None and list(report.pools) == ["global_workspace"]
    theirs = relax.transform.StaticPlanBlockMemory()(mod)
    # Tensors of 256, 64, 192, 64 and 256 bytes: whole storages take 384; at offsets, the
    # most bytes live at once, 320 (the second, third and fourth).
    assert (storage_bytes(ours["main"]), storage_bytes(theirs["main"])) == (320, 384)


def test_a_device_whose_runtime_copies_at_an_offset_keeps_tvms_plan_warned_once() -> None:
    import tvm

    mod = case_module("several functions")
    mod.update_global_info("vdevice", [relax.VDevice(tvm.target.Target("vulkan"), 0, "global")])
    with pytest.warns(PlanMemoryWarning) as caught:
        ours = PlanMemory()(mod)
    (warning,) = caught
    assert "storages on virtual device 0 (vulkan) keep StaticPlanBlockMemory's plan" in str(
        warning.message
    )
    tvm.ir.assert_structural_equal(ours, relax.transform.StaticPlanBlockMemory()(mod))
