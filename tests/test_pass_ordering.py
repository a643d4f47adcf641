"""Pass ordering: what hoisting operator workspaces buys on the diamond example, and that
any order of the project's passes either runs, leaving IR that verifies (every plan
re-checked against its live intervals), or stops with a diagnostic that names a pass."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import BoolAttr, ModuleOp
from xdsl.passes import PassPipeline

from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects.usmp import PLAN_ATTR, PlanAttr, module_allocs
from usmp_dialect.parsing import parse_module, usmp_context
from usmp_dialect.pipeline import plan_pools, plan_pools_pipeline
from usmp_dialect.reports.report import plan_report
from usmp_dialect.universe import USMP_UNIVERSE

EXAMPLES = Path(__file__).parents[1] / "examples"
INPUTS = {
    "diamond": EXAMPLES / "pass_ordering" / "diamond.mlir",
    "memref_chain": EXAMPLES / "memref" / "chain.mlir",
}
PROJECT_PASSES = sorted(USMP_UNIVERSE.all_passes)
FAST_PLAN = "usmp-plan{algorithm=greedy_by_size}"
"""Any algorithm would do: the orders are the subject here, not the plan's quality."""


def _parse(name: str) -> ModuleOp:
    return parse_module(INPUTS[name].read_text(), str(INPUTS[name]))


def _diamond_report(pipeline: str) -> tuple[int, int]:
    module = _parse("diamond")
    plan_pools(module, pipeline)
    (pool,) = plan_report(module)["pools"]
    return pool["size"], pool["max_live"]


def test_diamond_reaches_max_live_with_hoisted_workspaces() -> None:
    hoisted = plan_pools_pipeline(lower=False, hoist_workspaces=True)
    assert _diamond_report(hoisted) == (48, 48)


@pytest.mark.slow
def test_diamond_cannot_reach_max_live_with_one_workspace_for_both_calls() -> None:
    # TVM's order: the workspace conflicts with a, b and c, which conflict with each
    # other; the search proves that no plan of these intervals needs less than 64 bytes
    # (in-place results would share a result with its input, which TVM's order does not).
    module = _parse("diamond")
    plan_pools(module, plan_pools_pipeline(lower=False, in_place=False))
    (pool,) = plan_report(module)["pools"]
    assert (pool["size"], pool["max_live"]) == (64, 48)
    how = module.attributes[PLAN_ATTR]
    assert isinstance(how, PlanAttr) and how.proven_optimal == BoolAttr.from_bool(True)


def _run_in_order(module: ModuleOp, passes: list[str]) -> None:
    for name in passes:
        spec = FAST_PLAN if name == "usmp-plan" else name
        PassPipeline.parse_spec(USMP_UNIVERSE.all_passes, spec).apply(usmp_context(), module)
        module.verify()


@settings(max_examples=12, deadline=None)
@given(passes=st.lists(st.sampled_from(PROJECT_PASSES), min_size=1, max_size=6))
@pytest.mark.parametrize("input_name", sorted(INPUTS))
def test_any_order_runs_or_names_the_pass_it_needs(input_name: str, passes: list[str]) -> None:
    module = _parse(input_name)
    try:
        # Verifying after each pass re-checks a plan against the usmp.liveness it was
        # made from (two buffers live at once never share a byte).
        _run_in_order(module, passes)
    except UsmpError as error:
        assert any(p in error.message for p in PROJECT_PASSES), f"{passes}: {error.message}"
        return
    if PLAN_ATTR in module.attributes:
        assert all(alloc.offset is not None for alloc in module_allocs(module))


def test_planning_before_lowering_names_the_lowerings() -> None:
    with pytest.raises(UsmpError, match="nothing to plan: run memref-to-usmp or tir-to-usmp first"):
        _run_in_order(_parse("diamond"), ["tir-hoist-workspaces", "usmp-plan"])
