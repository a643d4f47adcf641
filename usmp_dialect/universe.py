"""What this package adds to xDSL: found by `xdsl-opt` through the `xdsl.universe`
entry point, and used by `usmp-opt` directly."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.universe import Universe


def _usmp_dialect():
    from usmp_dialect.dialects.usmp import USMP

    return USMP


def _tir_dialect():
    from usmp_dialect.dialects.tir import TIR

    return TIR


def _usmp_plan():
    from usmp_dialect.transforms.usmp_plan import UsmpPlan

    return UsmpPlan


def _memref_to_usmp():
    from usmp_dialect.transforms.memref_to_usmp import MemrefToUsmp

    return MemrefToUsmp


def _usmp_assign_pools():
    from usmp_dialect.transforms.usmp_assign_pools import UsmpAssignPools

    return UsmpAssignPools


def _usmp_to_memref():
    from usmp_dialect.transforms.usmp_to_memref import UsmpToMemref

    return UsmpToMemref


def _usmp_report():
    from usmp_dialect.reports.report import UsmpReport

    return UsmpReport


def _usmp_svg():
    from usmp_dialect.reports.plan_svg import UsmpSvg

    return UsmpSvg


def _usmp_html():
    from usmp_dialect.reports.plan_html import UsmpHtml

    return UsmpHtml


def _tir_to_usmp():
    from usmp_dialect.transforms.tir_to_usmp import TirToUsmp

    return TirToUsmp


def _tir_io_to_allocations():
    from usmp_dialect.transforms.tir_io_to_allocations import TirIoToAllocations

    return TirIoToAllocations


def _tir_state_to_allocations():
    from usmp_dialect.transforms.tir_state_to_allocations import TirStateToAllocations

    return TirStateToAllocations


def _tir_hoist_workspaces():
    from usmp_dialect.transforms.tir_hoist_workspaces import TirHoistWorkspaces

    return TirHoistWorkspaces


def _tir_reorder_for_memory():
    from usmp_dialect.transforms.tir_reorder_for_memory import TirReorderForMemory

    return TirReorderForMemory


def _tir_in_place_results():
    from usmp_dialect.transforms.tir_in_place_results import TirInPlaceResults

    return TirInPlaceResults


def _tir_band_stages():
    from usmp_dialect.transforms.tir_band_stages import TirBandStages

    return TirBandStages


def _tir_constants_to_buffers():
    from usmp_dialect.transforms.tir_constants_to_buffers import TirConstantsToBuffers

    return TirConstantsToBuffers


def _tir_align_to_pools():
    from usmp_dialect.transforms.tir_align_to_pools import TirAlignToPools

    return TirAlignToPools


def _usmp_to_tir():
    from usmp_dialect.transforms.usmp_to_tir import UsmpToTir

    return UsmpToTir


USMP_UNIVERSE = Universe(
    all_dialects={"usmp": _usmp_dialect, "tir": _tir_dialect},
    all_passes={
        "memref-to-usmp": _memref_to_usmp,
        "usmp-assign-pools": _usmp_assign_pools,
        "usmp-plan": _usmp_plan,
        "usmp-to-memref": _usmp_to_memref,
        "tir-hoist-workspaces": _tir_hoist_workspaces,
        "tir-io-to-allocations": _tir_io_to_allocations,
        "tir-band-stages": _tir_band_stages,
        "tir-state-to-allocations": _tir_state_to_allocations,
        "tir-reorder-for-memory": _tir_reorder_for_memory,
        "tir-in-place-results": _tir_in_place_results,
        "tir-to-usmp": _tir_to_usmp,
        "tir-constants-to-buffers": _tir_constants_to_buffers,
        "tir-align-to-pools": _tir_align_to_pools,
        "usmp-to-tir": _usmp_to_tir,
    },
    all_targets={"usmp-report": _usmp_report, "usmp-svg": _usmp_svg, "usmp-html": _usmp_html},
)


def usmp_context() -> Context:
    """xDSL's dialects and the usmp project's, as usmp-opt and usmp-translate know them:
    registered by name, each loaded when the IR first names it."""
    ctx = Context()
    for name, factory in {
        **Universe.get_multiverse().all_dialects,
        **USMP_UNIVERSE.all_dialects,
    }.items():
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, factory)
    load_resource_dialect(ctx)
    return ctx


def load_resource_dialect(ctx: Context) -> None:
    """Loads builtin, whose interface prints `dense_resource` blobs: xDSL loads it only when
    the text names `builtin.module`, and asserts when it prints the resources of a module
    the parser made implicitly for top-level ops."""
    ctx.load_registered_dialect("builtin")


PASS_SUMMARIES = {
    "memref-to-usmp": "memref.allocs of static shape to usmp.alloc_offset, with their liveness",
    "tir-hoist-workspaces": "an operator's workspaces allocated at its call sites, one a call",
    "tir-io-to-allocations": "the entry's inputs and outputs become plannable allocations",
    "tir-state-to-allocations": "each state variable's values before and after a run, one buffer",
    "tir-reorder-for-memory": "the entry's operator calls in the order of least peak memory",
    "tir-in-place-results": "a result written over an input that dies at its operator",
    "tir-band-stages": "chains of row operators run band by band, intermediates a few rows",
    "tir-to-usmp": "the plannable tir.alloc_buffers to usmp.alloc_offset, with their liveness",
    "tir-constants-to-buffers": "the entry's constants become buffers of a constant pool",
    "usmp-assign-pools": 'the pools (pools="SPEC", below) and each buffer\'s candidate pools',
    "tir-align-to-pools": "TIR buffers of TVM's default alignment planned at their pools'",
    "usmp-plan": "every buffer's offset and every pool's size (algorithm=NAME, below)",
    "usmp-to-memref": "planned pools become function arguments, buffers views into them",
    "usmp-to-tir": "planned pools become uint8 buffer params, buffers views into them",
}
"""One line a pass, for `usmp-opt --help` (which imports no pass for it)."""

TARGET_SUMMARIES = {
    "usmp-report": "the plan as a table: pool sizes against max-live ({format=json})",
    "usmp-svg": "the plan as a picture: time across, bytes up, one panel a pool",
    "usmp-html": "the picture and the tables as one page, with search and zoom",
}
"""One line a target, for `usmp-opt --help`."""
