"""A `tvm.IRModule` planned as `usmp-opt --plan-pools` plans its TVMScript.

plan_module(mod, algorithm, workspace_io, hoist_workspaces, pools, reorder, in_place,
            band_stages)
    -> tvm.IRModule
"""

from __future__ import annotations

from typing import Any

from usmp_dialect.pipeline import DEFAULT_ALGORITHM, plan_pools, plan_pools_pipeline
from usmp_dialect.tvm.tvmscript.emitter import emit_module
from usmp_dialect.tvm.tvmscript.importer import import_module


def plan_module(
    mod: Any,
    algorithm: str = DEFAULT_ALGORITHM,
    workspace_io: bool = False,
    hoist_workspaces: bool = False,
    pools: str = "",
    reorder: bool = True,
    in_place: bool = True,
    band_stages: bool = True,
) -> Any:
    """`usmp-opt --plan-pools [--use-workspace-io] [--pools SPEC] [--no-reorder]
    [--no-in-place] [--no-band-stages]` on a `tvm.IRModule` (with `tir-hoist-workspaces`
    first if asked): the planned one."""
    module = import_module(mod)
    plan_pools(
        module,
        plan_pools_pipeline(
            algorithm,
            workspace_io=workspace_io,
            hoist_workspaces=hoist_workspaces,
            pools=pools,
            reorder=reorder,
            in_place=in_place,
            band_stages=band_stages,
        ),
    )
    return emit_module(module)
