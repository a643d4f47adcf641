"""Several pass pipelines run on one module, and what each one plans
(`tools/compare_pipelines.py` is its command line).

A pipeline is a `usmp-opt -p` string or a preset: the `--plan-pools` order as TVM's USMP
ran it (`tvm-usmp`), with operator workspaces hoisted to their call sites first
(`hoisted`), with the entry's inputs and outputs placed in the pool (`io-in-pool`), or
after a Relax model's lowering without TVM's fusion (`no-fusion`, which needs the model,
not its TIR). Each run starts from the same module (of its preset's lowering); its plan
is read right after `usmp-plan`, so a pipeline may go on to lower the plan back to TIR,
which `check_outputs` then builds and runs with TVM against the un-planned module.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects.usmp import AllocOffsetOp
from usmp_dialect.pipeline import DEFAULT_ALGORITHM, plan_pools, plan_pools_pipeline
from usmp_dialect.reports.report import PlanReport, plan_report, text_table
from usmp_dialect.transforms.usmp_plan import UsmpPlan


@dataclass(frozen=True)
class Preset:
    """A named ordering: the `--plan-pools` options, and the `--fusion` a Relax model is
    lowered with before it."""

    hoist_workspaces: bool = False
    workspace_io: bool = False
    fusion: str = "default"


PRESETS: dict[str, Preset] = {
    "tvm-usmp": Preset(),
    "hoisted": Preset(hoist_workspaces=True),
    "io-in-pool": Preset(workspace_io=True),
    "no-fusion": Preset(fusion="none"),
}


def pipeline_fusion(pipeline: str) -> str:
    """The `--fusion` of the Relax import that `pipeline` runs after."""
    preset = PRESETS.get(pipeline)
    return preset.fusion if preset is not None else "default"


def pipeline_spec(pipeline: str, algorithm: str = DEFAULT_ALGORITHM) -> str:
    """The pass specification of a preset (planned with `algorithm`), else `pipeline`
    itself. The presets are TVM's orderings: the entry's calls in the file's order, each
    result in bytes of its own, every operator over whole tensors (no
    `tir-reorder-for-memory`, `tir-in-place-results` or `tir-band-stages`)."""
    preset = PRESETS.get(pipeline)
    if preset is None:
        return pipeline
    return plan_pools_pipeline(
        algorithm,
        hoist_workspaces=preset.hoist_workspaces,
        workspace_io=preset.workspace_io,
        reorder=False,
        in_place=False,
        band_stages=False,
    )


@dataclass
class PipelineRun:
    pipeline: str
    report: PlanReport
    """The plan, read right after the last `usmp-plan`."""
    plan_seconds: float
    """CPU seconds of the `usmp-plan` pass (and the verification after it; the first
    pipeline whose problem is large enough pays numba's loading of the kernels): shown,
    never compared. CPU, not wall time: the figure holds on a loaded machine."""
    module: ModuleOp
    """The module as the pipeline left it."""

    @property
    def pools(self) -> dict[str, int]:
        """Each pool's planned size in bytes."""
        return {pool["name"]: pool["size"] for pool in self.report["pools"]}

    @property
    def max_live(self) -> int:
        return self.report["max_live"]


def run_pipeline(
    module: ModuleOp, pipeline: str, algorithm: str = DEFAULT_ALGORITHM
) -> PipelineRun:
    """`pipeline` run on a copy of `module`; an error when it plans nothing."""
    result = module.clone()
    reports: list[PlanReport] = []
    plan_seconds = 0.0
    started = 0.0

    def observe(previous: ModulePass | None, planned: ModuleOp, next: ModulePass | None) -> None:
        nonlocal plan_seconds, started
        if isinstance(previous, UsmpPlan):
            plan_seconds += time.process_time() - started
            reports.append(plan_report(planned))
        if isinstance(next, UsmpPlan):
            started = time.process_time()

    plan_pools(result, pipeline_spec(pipeline, algorithm), after_each=observe)
    if not reports:
        raise UsmpError(f"pipeline '{pipeline}' has no usmp-plan: it plans nothing to compare")
    return PipelineRun(pipeline, reports[-1], plan_seconds, result)


def check_outputs(
    original: ModuleOp, runs: list[PipelineRun], where: str, target: str = "llvm"
) -> list[bool | None]:
    """For each run lowered back to TIR, whether TVM's build of it computes the outputs
    of the un-planned module on the same random inputs (None: not lowered, not run).
    TVM is imported here, not at the top: comparing plans needs none."""
    import numpy as np

    from usmp_dialect.tvm.tvmscript.emitter import emit_module
    from usmp_dialect.tvm.tvmscript.run import random_inputs

    reference_mod = emit_module(original)
    inputs = random_inputs(reference_mod)
    reference = _run(reference_mod, inputs, target, "the un-planned module", where)
    verdicts: list[bool | None] = []
    for run in runs:
        if any(isinstance(op, AllocOffsetOp) for op in run.module.walk()):
            verdicts.append(None)
            continue
        outputs = _run(emit_module(run.module), inputs, target, f"'{run.pipeline}'", where)
        compared = [name for name in outputs if name in reference]
        verdicts.append(
            bool(compared)
            and all(
                np.allclose(outputs[name], reference[name], rtol=1e-5, atol=1e-5)
                for name in compared
            )
        )
    return verdicts


def _run(mod: Any, inputs: dict[str, Any], target: str, what: str, where: str) -> dict[str, Any]:
    from tests.support.model_check import tvm_failure_reason
    from usmp_dialect.tvm.tvmscript.importer import TVMScriptError
    from usmp_dialect.tvm.tvmscript.run import run_module

    try:
        return run_module(mod, inputs, target)
    except Exception as error:  # TVM's build or run; its last line says why
        raise TVMScriptError(
            f"TVM could not build and run {what}: {type(error).__name__}: "
            f"{tvm_failure_reason(error)}",
            where,
        ) from None


def format_comparison(runs: list[PipelineRun], verdicts: list[bool | None] | None = None) -> str:
    """One row a pipeline: bytes per pool, max-live, planning time (and, when checked,
    whether the outputs agree)."""
    pool_names = list(dict.fromkeys(name for run in runs for name in run.pools))
    header = ["pipeline", *pool_names, "max-live", "plan time"]
    if verdicts is not None:
        header.append("same output")
    rows = []
    for index, run in enumerate(runs):
        row = [run.pipeline, *(str(run.pools.get(name, "-")) for name in pool_names)]
        row += [str(run.max_live), f"{run.plan_seconds:.2f} s"]
        if verdicts is not None:
            verdict = verdicts[index]
            row.append("-" if verdict is None else "yes" if verdict else "NO")
        rows.append(row)
    numeric = set(range(1, len(header) - (verdicts is not None)))
    return "\n".join(text_table(header, rows, numeric)) + "\n"
