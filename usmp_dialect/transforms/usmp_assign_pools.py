"""`usmp-assign-pools{pools=SPEC}`: the pools a user describes, and the one place that
decides which pools each buffer may go into.

SPEC is a comma-separated list of pools, each `name[:key=value]...`:

    sram:size_hint=256K:targets=c,dram:read_latency_cycles=40

Keys are `kind` (workspace|constant), `size_hint` and `alignment` (bytes), `targets`
(`c|llvm`) and TVM's descriptive pool properties (`read_latency_cycles`, ...); numbers take
a K, M or G suffix (x1024). The pools are added after those declared in the IR; a name
given twice is an error. Written in a pass pipeline the spec is quoted:
`-p 'usmp-assign-pools{pools="sram:size_hint=256K,dram"}'`.

Every `usmp.alloc_offset` without candidates (as `memref-to-usmp` and `tir-to-usmp` leave
them) gets the workspace pools whose targets include its function's target (a function's
`usmp.target`, else the kind of TIR's own `target` attribute; a pool without targets
serves every function), in declaration order, and the alignment of the strictest of them.
A module without a workspace pool gets an unrestricted `@global_workspace`, as TVM made.
Candidates written in the IR stay as they are.

With a constant pool (`flash:kind=constant`, or `usmp.pool @flash constant` in the IR), the
constants of the entry function (the params its `usmp.constants` names: a model's weights)
become buffers in it, marked `#usmp.io<"w", constant>` and live for the whole run, so the
planner places them all at bytes of their own; workspace buffers never go to a constant
pool. Without one they stay params, unless `constant-pool=true` asks for the default, an
unrestricted `@global_constant`. This happens once `tir-to-usmp` has run (run earlier,
the pass leaves it to `usmp-plan`'s call of the same step).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp, StringAttr, SymbolRefAttr, i64
from xdsl.ir import Attribute, BlockArgument, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from usmp_dialect.analysis.tir_liveness import prim_funcs
from usmp_dialect.diagnostics import INT64_MAX, UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import (
    CONSTANTS_ATTR,
    DEFAULT_ALIGNMENT,
    IO_ATTR,
    AllocOffsetOp,
    IOAttr,
    IOKind,
    LivenessOp,
    PoolKind,
    PoolOp,
    module_allocs,
    module_liveness,
    module_pools,
)
from usmp_dialect.planning.problem import DEFAULT_POOL
from usmp_dialect.transforms.allocations_to_usmp import BufferNames, pending_allocations
from usmp_dialect.transforms.tir_io_to_allocations import (
    constant_params,
    param_allocation,
    param_buffer_type,
    param_views,
)
from usmp_dialect.transforms.tir_to_usmp import DEFAULT_TIR_ALIGNMENT, in_pool, lower_alloc_buffer

DEFAULT_CONSTANT_POOL = "global_constant"
TARGET_ATTR = "usmp.target"
"""A function's target; a pool with targets serves only functions of those targets."""

NUMBER_KEYS = (
    "size_hint",
    "alignment",
    "clock_frequency_hz",
    "read_bandwidth_bytes_per_cycle",
    "write_bandwidth_bytes_per_cycle",
    "read_latency_cycles",
    "write_latency_cycles",
)
SPEC_KEYS = ("kind", "targets", *NUMBER_KEYS)
POOL_KINDS = tuple(kind.value for kind in PoolKind)
_POOL_NAME = re.compile(r"[A-Za-z_][\w.$-]*")
_TARGET = re.compile(r"[\w.-]+")
_NUMBER = re.compile(r"0*([0-9]{1,19})([KMG]?)")
"""ASCII digits only (`\\d` takes any script's), and no more of them than 2**63-1 has: a
longer number is out of range without asking Python to read it."""
_SUFFIX = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


class PoolSpecError(UsmpError):
    """A mistake in the `pools` spec: the message names the spec text."""

    def __init__(self, spec: str, problem: str, op: Operation | None = None):
        super().__init__(f"invalid pool spec '{spec}': {problem}", op)


def _number(spec: str, key: str, text: str) -> int:
    match = _NUMBER.fullmatch(text)
    value = int(match[1]) * _SUFFIX[match[2]] if match else -1
    if not 0 <= value <= INT64_MAX:
        raise PoolSpecError(
            spec,
            f"{key} '{text}' is not a number of bytes 0 to 2**63-1 (ASCII digits, optionally "
            "followed by K, M or G)",
        )
    return value


def _pool(spec: str, entry: str) -> PoolOp:
    name, *settings = entry.split(":")
    if not name:
        raise PoolSpecError(spec, "a pool has an empty name")
    if not _POOL_NAME.fullmatch(name):
        raise PoolSpecError(spec, f"pool name '{name}' is not an identifier")
    values: dict[str, str] = {}
    for setting in settings:
        key, equals, value = setting.partition("=")
        if key not in SPEC_KEYS:
            raise PoolSpecError(
                spec, f"unknown key '{key}' of pool '{name}' (known: {', '.join(SPEC_KEYS)})"
            )
        if not equals or not value:
            raise PoolSpecError(spec, f"key '{key}' of pool '{name}' has no value")
        if key in values:
            raise PoolSpecError(spec, f"key '{key}' of pool '{name}' is given twice")
        values[key] = value
    kind = values.pop("kind", "workspace")
    if kind not in POOL_KINDS:
        raise PoolSpecError(
            spec, f"pool '{name}' has kind '{kind}' (known: {', '.join(POOL_KINDS)})"
        )
    targets = values.pop("targets").split("|") if "targets" in values else []
    for target in targets:
        if not _TARGET.fullmatch(target):
            raise PoolSpecError(spec, f"target '{target}' of pool '{name}' is not a target name")
    numbers = {key: _number(spec, key, text) for key, text in values.items()}
    alignment = numbers.pop("alignment", DEFAULT_ALIGNMENT)
    if alignment <= 0 or alignment & (alignment - 1):
        raise PoolSpecError(spec, f"alignment {alignment} of pool '{name}' is not a power of two")
    return PoolOp(
        name,
        kind,
        alignment,
        size_hint=numbers.pop("size_hint", None),
        targets=targets,
        descriptive={key: IntegerAttr(value, i64) for key, value in numbers.items()},
    )


def parse_pool_spec(spec: str) -> list[PoolOp]:
    """The pools `spec` describes, in its order; a `PoolSpecError` for a mistake."""
    pools: list[PoolOp] = []
    for entry in spec.split(","):
        pool = _pool(spec, entry)
        if any(p.sym_name == pool.sym_name for p in pools):
            raise PoolSpecError(spec, f"pool '{pool.sym_name.data}' is given twice")
        pools.append(pool)
    return pools


def function_target(function: Operation) -> str | None:
    """The kind of the function's target: its `usmp.target`, else the kind of TIR's own
    `target` attribute (`T.func_attr({"target": T.target("c")})`)."""
    target = function.attributes.get(TARGET_ATTR)
    if isinstance(target, StringAttr):
        return target.data
    tir_target = function.attributes.get(tir.TARGET_ATTR)
    return tir_target.kind if isinstance(tir_target, tir.TargetAttr) else None


Function = func.FuncOp | tir.PrimFuncOp


def _functions(module: ModuleOp) -> list[Function]:
    return [op for op in module.ops if isinstance(op, Function)]


def _add_pools(module: ModuleOp, spec: str, pools: Sequence[PoolOp]) -> None:
    declared = {p.sym_name.data: p for p in module_pools(module)}
    for pool in pools:
        if (existing := declared.get(pool.sym_name.data)) is not None:
            raise PoolSpecError(
                spec, f"pool '{pool.sym_name.data}' is declared in the IR already", existing
            )
    targets = {function_target(f) for f in _functions(module)}
    for pool in pools:
        if pool.target_names and targets.isdisjoint(pool.target_names):
            known = ", ".join(sorted(t for t in targets if t is not None)) or "none"
            raise PoolSpecError(
                spec,
                f"pool '{pool.sym_name.data}' serves targets {'|'.join(pool.target_names)}, "
                f"which no function has (the functions' targets: {known})",
            )
    block = module.body.block
    anchor = list(declared.values())[-1].next_op if declared else block.first_op
    for pool in pools:
        if anchor is None:
            block.add_op(pool)
        else:
            block.insert_op_before(pool, anchor)


def _workspace_pools(module: ModuleOp) -> list[PoolOp]:
    """The module's workspace pools in declaration order; an unrestricted
    `@global_workspace` is added when there is none, as TVM did."""
    pools = [p for p in module_pools(module) if p.kind.data == PoolKind.WORKSPACE]
    if not pools:
        pool = PoolOp(DEFAULT_POOL.name)
        block = module.body.block
        if block.first_op is None:
            block.add_op(pool)
        else:
            block.insert_op_before(pool, block.first_op)
        pools = [pool]
    return pools


def _function_of(op: Operation) -> Function | None:
    found: Operation | None = op
    while found is not None and not isinstance(found, Function):
        found = found.parent_op()
    return found


def planned_alignment(buffer_type: Attribute, requested: int, pool_alignment: int):
    """The byte alignment a buffer is planned at, and the type of the buffer it becomes.

    A buffer is placed at the strictest alignment of its pools or its own. TVM gives every
    buffer `data_alignment` 64 unless told otherwise, while its USMP placed workspace
    buffers at the pool's alignment (16). So a TIR buffer's 64 counts as "not asked for":
    the buffer is planned at the pool's alignment and its type says so (a type must not
    promise an alignment the plan does not give).
    """
    if (
        isinstance(buffer_type, tir.BufferType)
        and requested == buffer_type.alignment.data == DEFAULT_TIR_ALIGNMENT
    ):
        return pool_alignment, in_pool(buffer_type, pool_alignment)
    return max(requested, pool_alignment), buffer_type


def _assign(op: AllocOffsetOp, candidates: Sequence[PoolOp]) -> None:
    pool_alignment = max(p.alignment.value.data for p in candidates)
    alignment, buffer_type = planned_alignment(op.buffer.type, op.alignment_bytes, pool_alignment)
    op.properties["pools"] = ArrayAttr(SymbolRefAttr(p.sym_name) for p in candidates)
    op.properties["alignment"] = IntegerAttr(alignment, i64)
    if buffer_type != op.buffer.type:
        Rewriter.replace_value_with_new_type(op.buffer, buffer_type)


def _assign_serving(ops: Sequence[AllocOffsetOp], pools: Sequence[PoolOp], kind: str) -> None:
    """Each buffer's candidates: the `pools` (of `kind`) that serve its function's target."""
    for op in ops:
        function = _function_of(op)
        target = None if function is None else function_target(function)
        candidates = [p for p in pools if not p.target_names or target in p.target_names]
        if not candidates:
            where = "" if function is None else f" of @{function.sym_name.data}"
            raise UsmpError(f"no {kind} pool serves the target{where}", op)
        _assign(op, candidates)


def _constants_to_allocations(entry: tir.PrimFuncOp, names: BufferNames) -> list[AllocOffsetOp]:
    """The entry's constant params as allocations at the top of its body, in param order,
    named uniquely among the module's buffers and marked `#usmp.io<"param", constant>`;
    the params and the `usmp.constants` attribute go."""
    constants = constant_params(entry)
    block = entry.body.block
    moved: list[tuple[BlockArgument, list[Operation]]] = []
    for arg, name in list(zip(block.args, entry.param_names(), strict=True)):
        if name is None or name not in constants:
            continue
        views = param_views(arg)
        buffer_type = param_buffer_type(arg, name, views)
        if buffer_type is None:
            raise UsmpError(
                f"constant '{name}' is not a buffer (a scalar, or a pointer never viewed): "
                "its size is unknown",
                entry,
            )
        moved.append((arg, param_allocation(arg, name, buffer_type, views, entry)))
    Rewriter.insert_op([op for _, created in moved for op in created], InsertPoint.at_start(block))
    for arg, _ in reversed(moved):
        entry.erase_param(arg)
    del entry.attributes[CONSTANTS_ATTR]
    placed = []
    for _, (alloc, *_) in moved:
        assert isinstance(alloc, tir.AllocBufferOp) and alloc.buffer_name is not None
        name = alloc.buffer_name.data
        alloc.attributes[IO_ATTR] = IOAttr(name, IOKind.CONSTANT)
        placed.append(lower_alloc_buffer(alloc, names.unique(name, name)))
    return placed


def _place_constants(module: ModuleOp) -> None:
    """With a constant pool, the constants of the entry (its `usmp.constants` params)
    become buffers in the constant pools, live for the whole run: all at once, each at
    bytes of its own. Done once `tir-to-usmp` has run (a program with nothing else to plan
    gets a liveness of its own); without a constant pool the constants stay params."""
    pools = [p for p in module_pools(module) if p.kind.data == PoolKind.CONSTANT]
    if not pools:
        return
    liveness = module_liveness(module)
    if liveness is None and pending_allocations(module):
        return
    existing = module_allocs(module)
    names = BufferNames()
    names.used.update(op.buffer_name.data for op in existing)
    placed = [
        alloc
        for function in prim_funcs(module).values()
        if CONSTANTS_ATTR in function.attributes
        for alloc in _constants_to_allocations(function, names)
    ]
    if not placed:
        return
    _assign_serving(placed, pools, PoolKind.CONSTANT)
    run_end = max((max(op.live_bounds(), default=1) for op in existing), default=1)
    for alloc in placed:
        alloc.set_live([0, run_end])
    if liveness is None:
        module.body.block.add_op(LivenessOp())


def assign_candidates(module: ModuleOp) -> None:
    """Candidates for every buffer that has none, after the constants went to a
    constant pool if there is one."""
    _place_constants(module)
    unassigned = [op for op in module_allocs(module) if not op.pools.data]
    if not unassigned:
        return
    _assign_serving(unassigned, _workspace_pools(module), PoolKind.WORKSPACE)


@dataclass(frozen=True)
class UsmpAssignPools(ModulePass):
    name = "usmp-assign-pools"

    pools: str | None = None
    """Pools to add, `name[:key=value]...` comma-separated (see the module's doc); an
    empty spec is a mistake, as `--pools ''` is."""
    constant_pool: bool = False
    """Put the entry's constants in a constant pool even when none is declared: an
    unrestricted `@global_constant` is added then."""

    def __post_init__(self):
        # Checked when the pipeline is built, before any input is read.
        if self.pools is not None:
            parse_pool_spec(self.pools)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.pools is not None:
            _add_pools(op, self.pools, parse_pool_spec(self.pools))
        if self.constant_pool and not any(
            p.kind.data == PoolKind.CONSTANT for p in module_pools(op)
        ):
            _add_pools(op, "", [PoolOp(DEFAULT_CONSTANT_POOL, PoolKind.CONSTANT)])
        assign_candidates(op)
