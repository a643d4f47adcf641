"""The Relax VM on our plan: a drop-in for `relax.transform.StaticPlanBlockMemory`.

    tvm.compile(mod, target, relax_pipeline=pipeline(target, algorithm=..., pools=...))
    PlanMemory(algorithm="default", pools="", effort=1.0, dump=None, plan_from=None,
               returned_in_pool=False)

`pipeline(target, **options)` is TVM's default Relax pipeline for `target` (what
`relax.get_default_pipeline(target)` runs: library dispatch, legalization, folding, fusion,
dataflow lowering, then the finalizing passes) with `PlanMemory(**options)` in the place of
`StaticPlanBlockMemory`; every other pass runs as TVM has it.

`PlanMemory` first runs TVM's own planner, which decides what may share memory (see
`relax_vm.tensors`), then places each of the tensors of its storages at a byte offset in
one storage a pool (`R.memory.alloc_storage` at the function's start, per virtual device)
with our planner (`algorithm`: any name of `usmp-opt --algorithm`; `pools`: a
`--pools` spec, `sram:size_hint=256K,dram`), and rewrites each
`R.memory.alloc_tensor(storage, 0, ...)` to `R.memory.alloc_tensor(pool, offset, ...)`,
followed by `R.memory.ensure_zero_offset` (a view, no copy, on CPUs and CUDA) where the
offset is not 0, since TVM's operators take only tensors at offset 0 of their data.

`dump=PATH` writes each planned problem as usmp IR (`usmp-opt PATH -p ...` plans it);
`plan_from=PATH` takes the plan from such a file, planned, instead of planning (checked by
the validator against the function's own tensors). With several functions or devices the
name gets `.FUNCTION.dN` before its suffix. What was planned and what the VM still
allocates itself (returned tensors, dynamic shapes without `tir_var_upper_bound`) is in
`.report`, a list of `FunctionReport`. A function the pass cannot plan keeps TVM's plan,
with one `PlanMemoryWarning` saying which tensor and why. Planned into the one default pool
(no `pools`, no `plan_from`), a function whose pool would take more bytes than TVM's
storages (offsets are 64-byte aligned, TVM's storage sizes are exact: where TVM's reuse is
already tight, the padding can cost a few bytes) keeps TVM's plan too, and its report says
so: the VM never allocates more than with TVM's own planner. Every plan is checked before it
is returned (`overlap_check.check_no_overlap`, apart from the planner's own liveness): one
that puts two live tensors on one byte keeps TVM's plan, with one warning naming them.
With no target in scope, virtual device 0 is the host, as StaticPlanBlockMemory takes it.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tvm
from tvm import relax
from tvm.relax import pipeline as stages
from tvm.relax.backend import gpu_generic

from usmp_dialect.parsing import parse_module, print_module
from usmp_dialect.planning.registry import get_algorithm
from usmp_dialect.transforms.usmp_assign_pools import parse_pool_spec
from usmp_dialect.tvm.relax_vm.overlap_check import check_no_overlap
from usmp_dialect.tvm.relax_vm.tensors import Unplanned, VmTensor, vm_tensors
from usmp_dialect.tvm.relax_vm.usmp_problem import VmPlan, plan_problem, problem_module, read_plan

OFFSET_VIEW_TARGETS = frozenset({"llvm", "c", "cuda"})
"""Target kinds whose runtime makes a tensor at an offset into a storage a view
(`SupportsDevicePointerArithmeticsOnHost`); elsewhere `ensure_zero_offset` copies."""

PASS_NAME = "usmp.PlanMemory"

HOST_KIND = "llvm"
"""The kind of virtual device 0 with no target in scope and no `vdevice` list."""


class PlanMemoryWarning(UserWarning):
    """A function kept TVM's plan: the pass could not plan it."""


@dataclass(frozen=True)
class Placement:
    tensor: str
    pool: str
    offset: int
    size: int
    start: int
    end: int


@dataclass
class FunctionReport:
    function: str
    pools: dict[str, int] = field(default_factory=dict)
    """Bytes of each pool storage, `NAME` or `NAME.dN` for virtual device N > 0."""
    placements: list[Placement] = field(default_factory=list)
    unplanned: list[Unplanned] = field(default_factory=list)
    """What the VM allocates outside the pools."""
    kept_tvm_plan: str | None = None
    """Why the function kept StaticPlanBlockMemory's plan, if it did."""

    def text(self) -> str:
        lines = [f"function {self.function}:"]
        if self.kept_tvm_plan is not None:
            lines.append(f"  kept TVM's plan: {self.kept_tvm_plan}")
        lines += [f"  pool {name}: {size} bytes" for name, size in self.pools.items()]
        lines += [
            f"  {p.tensor}: {p.pool}[{p.offset}] {p.size} bytes, live [{p.start}, {p.end})"
            for p in self.placements
        ]
        lines += [
            f"  not planned: {u.name} "
            f"({'dynamic' if u.size is None else f'{u.size} bytes'}): {u.reason}"
            for u in self.unplanned
        ]
        return "\n".join(lines)


def _device_kinds(mod: Any) -> dict[int, str]:
    """The target kind of each virtual device index: the module's `vdevice` list, else the
    current target for index 0, else the host (as StaticPlanBlockMemory takes a device it
    knows nothing of); -1 is the host."""
    kinds = {-1: "llvm", 0: HOST_KIND}
    current = tvm.target.Target.current(allow_none=True)
    if current is not None:
        kinds[0] = current.kind.name
    infos = mod.global_infos.get("vdevice", []) if mod.global_infos else []
    for i, vdevice in enumerate(infos):
        kinds[i] = vdevice.target.kind.name
    return kinds


def _group_path(path: str, function: str, device: int, many: bool) -> Path:
    if not many:
        return Path(path)
    p = Path(path)
    return p.with_name(f"{p.stem}.{function}.d{device}{p.suffix}")


def _pool_label(pool: str, device: int) -> str:
    return pool if device == 0 else f"{pool}.d{device}"


@dataclass(frozen=True)
class _PlanMemory:
    """The pass's options and its run; `PlanMemory(...)` makes it a `tvm.transform.Pass`."""

    algorithm: str = "default"
    pools: str = ""
    effort: float = 1.0
    time_limit: float = 60.0
    returned_in_pool: bool = False
    """Place the returned tensors of static size in the pool too (the VM allocates them
    apart otherwise): fewer bytes, but the caller holding an output holds the whole pool."""
    dump: str | None = None
    plan_from: str | None = None
    report: list[FunctionReport] = field(default_factory=list, compare=False)
    """Filled in by each run: one report a Relax function."""

    def __post_init__(self) -> None:
        get_algorithm(self.algorithm)
        if self.pools:
            parse_pool_spec(self.pools)

    def transform_module(self, mod: Any, ctx: Any) -> Any:
        planned = relax.transform.StaticPlanBlockMemory()(mod)
        kinds = _device_kinds(mod)
        self.report.clear()
        functions = [
            (gv, f) for gv, f in planned.functions.items() if isinstance(f, relax.Function)
        ]
        unviewable: set[int] = set()
        for gv, func in functions:
            report = FunctionReport(gv.name_hint)
            self.report.append(report)
            rewritten = self._function(func, report, kinds, len(functions) > 1, unviewable)
            if rewritten is not None:
                planned[gv] = rewritten
        if unviewable:
            devices = ", ".join(f"{d} ({kinds.get(d, 'unknown')})" for d in sorted(unviewable))
            warnings.warn(
                f"{PASS_NAME}: storages on virtual device {devices} keep StaticPlanBlockMemory's "
                "plan: the pass knows no runtime of that target that views a storage at an "
                "offset",
                PlanMemoryWarning,
                stacklevel=2,
            )
        return planned

    def _function(
        self,
        func: Any,
        report: FunctionReport,
        kinds: dict[int, str],
        many_functions: bool,
        unviewable: set[int],
    ) -> Any:
        storages: dict[Any, int] = {}
        try:
            found = vm_tensors(
                func, lambda d: kinds.get(d, "") in OFFSET_VIEW_TARGETS, self.returned_in_pool
            )
            report.unplanned = found.unplanned
            unviewable |= found.unviewable_devices
            storages = found.storages
            if not found.tensors:
                return None
            devices = sorted({t.device for t in found.tensors})
            many = many_functions or len(devices) > 1
            plans = {}
            for device in devices:
                tensors = [t for t in found.tensors if t.device == device]
                plans[device] = (tensors, self._plan(tensors, report.function, device, many))
            ours = sum(sum(plan.pool_sizes.values()) for _, plan in plans.values())
            theirs = sum(found.storages.values()) + sum(
                t.size for t in found.tensors if t.var in found.returned
            )
            if ours > theirs and not self.pools and self.plan_from is None:
                report.kept_tvm_plan = f"its storages take fewer bytes ({theirs} < {ours})"
                _keep_storages(report, storages)
                return None
            rewritten, pools = _rewritten(func, found.storages, plans, report)
            check_no_overlap(rewritten, pools)
            placed = {t.name for t in found.tensors}
            report.unplanned = [u for u in report.unplanned if u.name not in placed]
            return rewritten
        except Exception as error:  # anything unplannable keeps TVM's plan, said once
            report.kept_tvm_plan = f"{type(error).__name__}: {error}"
            report.pools.clear()
            report.placements.clear()
            _keep_storages(report, storages)
            warnings.warn(
                f"{PASS_NAME}: function '{report.function}' keeps StaticPlanBlockMemory's plan: "
                f"{error}",
                PlanMemoryWarning,
                stacklevel=2,
            )
            return None

    def _plan(self, tensors: list[VmTensor], function: str, device: int, many: bool) -> VmPlan:
        """The plan of one function's tensors on one device: by our planner, or read from
        `plan_from`; the problem written to `dump` first."""
        module = problem_module(tensors)
        if self.dump is not None:
            _group_path(self.dump, function, device, many).write_text(print_module(module))
        if self.plan_from is not None:
            path = _group_path(self.plan_from, function, device, many)
            module = parse_module(path.read_text(), str(path))
        else:
            plan_problem(module, self.algorithm, self.pools, self.effort, self.time_limit)
        return read_plan(module, tensors)


def _keep_storages(report: FunctionReport, storages: dict[Any, int]) -> None:
    report.unplanned += [
        Unplanned(var.name, size, "TVM's plan kept") for var, size in storages.items()
    ]


def PlanMemory(**options: Any) -> Any:
    """Our planner in place of StaticPlanBlockMemory, as a `tvm.transform.Pass`; options are
    `_PlanMemory`'s fields, and `.report` tells what its last run planned."""
    return tvm.transform.module_pass(opt_level=0, name=PASS_NAME)(_PlanMemory)(**options)


def _rewritten(
    func: Any, storages: dict[Any, int], plans: dict[int, Any], report: FunctionReport
) -> tuple[Any, set[Any]]:
    """`func` with the replaced storages gone, one storage a pool at its start, and each
    planned tensor at its offset in its pool; and the pools' variables."""
    pools: dict[tuple[int, str], Any] = {}
    at: dict[Any, tuple[Any, int]] = {}
    for device, (tensors, plan) in plans.items():
        for name, size in plan.pool_sizes.items():
            label = _pool_label(name, device)
            pools[(device, name)] = (
                relax.Var(label.replace(".", "_"), relax.AnyType()),
                relax.op.memory.alloc_storage(relax.ShapeExpr([size]), device, "global", "uint8"),
            )
            report.pools[label] = size
        for t in tensors:
            pool, offset = plan.placements[t.name]
            at[t.var] = (pools[(device, pool)][0], offset)
            report.placements.append(
                Placement(t.name, _pool_label(pool, device), offset, t.size, t.start, t.end)
            )
    blocks = [relax.BindingBlock([relax.VarBinding(var, call) for var, call in pools.values()])]
    for block in func.body.blocks:
        bindings = []
        for binding in block.bindings:
            if binding.var in storages:
                continue
            if binding.var not in at:
                bindings.append(binding)
                continue
            pool, offset = at[binding.var]
            call = binding.value
            # R.memory.alloc_tensor(storage, 0, shape, dtype, device) or, for a returned
            # tensor, R.builtin.alloc_tensor(shape, dtype, device, scope).
            shape, dtype, device = (
                call.args[2:5] if call.op.name == "relax.memory.alloc_tensor" else call.args[0:3]
            )
            placed = relax.op.memory.alloc_tensor(pool, offset, shape, dtype, device)
            if offset:
                in_pool = relax.Var(binding.var.name, binding.var.ty)
                bindings.append(relax.VarBinding(in_pool, placed))
                placed = relax.op.memory.ensure_zero_offset(in_pool)
            bindings.append(relax.VarBinding(binding.var, placed))
        blocks.append(type(block)(bindings))
    body = relax.SeqExpr(blocks, func.body.body)
    rewritten = relax.Function(func.params, body, func.ret_ty, func.is_pure, func.attrs, func.span)
    return rewritten, {var for var, _ in pools.values()}


class _Pipeline:
    def __init__(self, target: Any, **options: Any):
        self.target = tvm.target.Target(target) if isinstance(target, str) else target
        self.plan_memory = PlanMemory(**options)

    def transform_module(self, mod: Any, _ctx: Any) -> Any:
        with self.target:
            return tvm.transform.Sequential(default_passes(self.target, self.plan_memory))(mod)


def default_passes(target: Any, plan_memory: Any) -> list[Any]:
    """The passes `relax.get_default_pipeline(target)` runs, each stage from TVM's own
    dispatch by target (`tvm.relax.pipeline`), `plan_memory` in StaticPlanBlockMemory's
    place among the finalizing passes. Dataflow lowering is the one stage TVM 0.27 cannot
    dispatch for llvm, cuda and rocm (their backend packages do not export it: an
    AttributeError); every backend's is the same four passes, gpu_generic's, which is
    exported (tests/relax/test_relax_vm.py checks both)."""
    finalize = [
        plan_memory if p.info.name == "StaticPlanBlockMemory" else p
        for p in stages.finalize_passes(target)
    ]
    return (
        stages.library_dispatch_passes(target)
        + stages.legalize_passes(target)
        + gpu_generic.dataflow_lower_passes(target)
        + finalize
    )


def pipeline(target: Any, **options: Any) -> Any:
    """TVM's default Relax pipeline for `target` with `PlanMemory(**options)` in place of
    StaticPlanBlockMemory (`tvm.compile(mod, target, relax_pipeline=pipeline(target))`);
    its `.plan_memory.report` tells what the last build planned."""
    return tvm.transform.module_pass(opt_level=0, name="usmp.RelaxVMPipeline")(_Pipeline)(
        target, **options
    )
