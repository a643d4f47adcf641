"""The `--plan-pools` pipeline, defined once for `usmp-opt`, the Python API, the tools
and the benchmarks:

    [tir-hoist-workspaces,] tir-state-to-allocations, [tir-io-to-allocations,]
    [tir-reorder-for-memory,] [tir-band-stages,] [tir-in-place-results,]
    memref-to-usmp, tir-to-usmp,
    usmp-assign-pools[{pools="..."}], tir-constants-to-buffers, tir-align-to-pools,
    usmp-plan{algorithm=... time-limit=... effort=...}[, usmp-to-memref, usmp-to-tir]

Its defaults are `usmp-plan`'s own option defaults.
"""

from __future__ import annotations

import math
import re

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline, PassPipelineCallbackType

from usmp_dialect.pass_options import check_pass_options
from usmp_dialect.planning.budget import DEFAULT_ALGORITHM, DEFAULT_EFFORT, DEFAULT_TIME_LIMIT
from usmp_dialect.universe import USMP_UNIVERSE, usmp_context

__all__ = [
    "DEFAULT_ALGORITHM",
    "DEFAULT_EFFORT",
    "DEFAULT_TIME_LIMIT",
    "LOWERINGS",
    "option_text",
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
    hoist_workspaces: bool = False,
    band_stages: bool = True,
    pools: str = "",
    constant_pool: bool = False,
    instance: bool = False,
    fill: str = "first",
    reorder: bool = True,
    in_place: bool = True,
) -> str:
    """The pipeline's pass specification, as `usmp-opt -p` takes it; `pools` is a
    `usmp-assign-pools` spec (`sram:size_hint=256K,dram`), `constant_pool` its option that
    puts the constants in `@global_constant` when no constant pool is declared; `reorder`
    runs the entry's calls in the order of least peak (`tir-reorder-for-memory`, which
    computes the same values: on by default); `in_place` writes a result over an input
    that dies at its operator where the operator provably computes so
    (`tir-in-place-results`: on by default); `band_stages` runs chains of row operators
    band by band, their intermediates in rolling buffers of a few rows (`tir-band-stages`:
    on by default, where it lowers the bytes live at once as `in_place` leaves them;
    every row computed once, by the same code, so the outputs are the unbanded ones and
    the multiply-accumulates too). For a
    benchmark `instance` (a `.csv`, read as usmp allocations alone), only the pools'
    assignment and the plan: the passes that read TIR or memrefs, and the lowerings back
    to them, would find nothing to do, and loading them costs a small plan's run 0.06 s."""
    plan = (
        f"usmp-plan{{algorithm={option_text(algorithm)} time-limit={option_text(time_limit)} "
        f"effort={option_text(effort)}"
        + ("" if fill == "first" else f" fill={option_text(fill)}")
        + "}"
    )
    if instance:
        return f"{_assign_pools(pools, constant_pool)},{plan}"
    passes = ["tir-hoist-workspaces"] if hoist_workspaces else []
    passes += ["tir-state-to-allocations"]
    passes += ["tir-io-to-allocations"] if workspace_io else []
    passes += ["tir-reorder-for-memory"] if reorder else []
    # Bands before in-place results: a result sharing its input's bytes ends a band chain.
    bands = "tir-band-stages" if in_place else "tir-band-stages{in-place=false}"
    passes += [bands] if band_stages else []
    passes += ["tir-in-place-results"] if in_place else []
    passes += [
        "memref-to-usmp",
        "tir-to-usmp",
        _assign_pools(pools, constant_pool),
        "tir-constants-to-buffers",
        "tir-align-to-pools",
        plan,
    ]
    if lower:
        passes.extend(LOWERINGS)
    return ",".join(passes)


def _assign_pools(pools: str, constant_pool: bool) -> str:
    options = [f"pools={option_text(pools)}"] if pools else []
    options += ["constant-pool=true"] if constant_pool else []
    return f"usmp-assign-pools{{{' '.join(options)}}}" if options else "usmp-assign-pools"


_BARE_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def option_text(value: str | float) -> str:
    """`value` as pass-pipeline text that parses back to exactly it. xDSL reads a number
    with an exponent only after a `.` (`1.0e+16`, not `1e+16`); a bare word as a string
    unless it is `true` or `false`; a quoted string with backslash escapes for a backslash,
    a quote, a newline and a tab, but no carriage return, form feed or vertical tab; and
    no number that is not finite."""
    if isinstance(value, str):
        if _BARE_WORD.fullmatch(value) and value not in ("true", "false"):
            return value
        if any(c in value for c in "\r\f\v"):
            raise ValueError(f"a pass option cannot hold {value!r}")
        escaped = (
            value.replace("\\", "\\\\")
            .replace('"', '\\"')
            .replace("\n", "\\n")
            .replace("\t", "\\t")
        )
        return f'"{escaped}"'
    if not math.isfinite(value):
        raise ValueError(f"a pass option must be a finite number, got {value}")
    if isinstance(value, int):
        return str(value)
    text = repr(float(value))
    if "." not in text:
        text = text.replace("e", ".0e")
    return text


def plan_pools(
    module: ModuleOp,
    pipeline: str | None = None,
    after_each: PassPipelineCallbackType | None = None,
) -> None:
    """Run `pipeline` (by default `plan_pools_pipeline()`) on `module` in place, verifying
    the input and the planned module as `usmp-opt --plan-pools` does (once each, not after
    every pass: nine verifications of every operator's body were half the planning of an
    int8 model), calling `after_each(previous, module, next)` after each pass if given."""

    def verify(previous: ModulePass | None, module: ModuleOp, next: ModulePass | None) -> None:
        if previous is None or next is None:
            module.verify()
        if after_each is not None:
            after_each(previous, module, next)

    pipeline = plan_pools_pipeline() if pipeline is None else pipeline
    check_pass_options(USMP_UNIVERSE.all_passes, pipeline)
    PassPipeline.parse_spec(
        USMP_UNIVERSE.all_passes,
        pipeline,
        callback=verify,
    ).apply(usmp_context(), module)
