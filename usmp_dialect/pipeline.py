"""The `--plan-pools` pipeline, defined once for `usmp-opt`, the Python API, the tools
and the benchmarks:

    [tir-io-to-allocations,] memref-to-usmp, tir-to-usmp, usmp-assign-pools[{pools="..."}],
    usmp-plan{algorithm=... time-limit=... effort=...}[, usmp-to-memref, usmp-to-tir]

Its defaults are `usmp-plan`'s own option defaults.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import PassPipeline

from usmp_dialect.transforms.usmp_plan import DEFAULT_ALGORITHM, DEFAULT_EFFORT, DEFAULT_TIME_LIMIT

__all__ = [
    "DEFAULT_ALGORITHM",
    "DEFAULT_EFFORT",
    "DEFAULT_TIME_LIMIT",
    "LOWERINGS",
    "plan_module",
    "plan_pools",
    "plan_pools_pipeline",
]

LOWERINGS = ("usmp-to-memref", "usmp-to-tir")
"""Passes that turn planned usmp IR back into the program's own form (each leaves IR of
the other form alone)."""


def plan_pools_pipeline(
    algorithm: str = DEFAULT_ALGORITHM,
    time_limit: float = DEFAULT_TIME_LIMIT,
    *,
    lower: bool = True,
    workspace_io: bool = False,
    effort: float = DEFAULT_EFFORT,
    pools: str = "",
) -> str:
    """The pipeline's pass specification, as `usmp-opt -p` takes it; `pools` is a
    `usmp-assign-pools` spec (`sram:size_hint=256K,dram`)."""
    passes = ["tir-io-to-allocations"] if workspace_io else []
    passes += [
        "memref-to-usmp",
        "tir-to-usmp",
        f'usmp-assign-pools{{pools="{pools}"}}' if pools else "usmp-assign-pools",
        f"usmp-plan{{algorithm={algorithm} time-limit={time_limit:g} effort={effort:g}}}",
    ]
    if lower:
        passes.extend(LOWERINGS)
    return ",".join(passes)


def plan_pools(module: ModuleOp, pipeline: str | None = None) -> None:
    """Run `pipeline` (by default `plan_pools_pipeline()`) on `module` in place, verifying
    the IR after each pass as `usmp-opt` does."""
    from usmp_dialect.parsing import usmp_context
    from usmp_dialect.universe import USMP_UNIVERSE

    PassPipeline.parse_spec(
        USMP_UNIVERSE.all_passes,
        plan_pools_pipeline() if pipeline is None else pipeline,
        callback=lambda _previous, module, _next: module.verify(),
    ).apply(usmp_context(), module)


def plan_module(
    mod: Any, algorithm: str = DEFAULT_ALGORITHM, workspace_io: bool = False, pools: str = ""
) -> Any:
    """`usmp-opt --plan-pools [--use-workspace-io] [--pools SPEC]` on a `tvm.IRModule`:
    the planned one."""
    from usmp_dialect.backends.tvmscript import emit_module
    from usmp_dialect.frontends.tvmscript import import_module

    module = import_module(mod)
    plan_pools(module, plan_pools_pipeline(algorithm, workspace_io=workspace_io, pools=pools))
    return emit_module(module)
