"""`usmp-assign-pools{pools=SPEC}`: the pools a user describes, and the one place that
decides which pools each buffer may go into.

SPEC is a comma-separated list of pools, each `name[:key=value]...`:

    sram:size_hint=256K:targets=c,dram:read_latency_cycles=40

Keys are `kind` (workspace|constant|state), `size_hint` and `alignment` (bytes), `targets`
(`c|llvm`), `section` (the linker section the C library's runner puts the pool in,
`.dtcm`; pools sharing one share their alignment) and TVM's descriptive pool properties
(`read_latency_cycles`, ...); numbers take a K, M or G suffix (x1024). The pools are
added after those declared in the IR; a name given twice is an error. Written in a pass
pipeline the spec is quoted: `-p 'usmp-assign-pools{pools="sram:size_hint=256K,dram"}'`.

Every `usmp.alloc_offset` without candidates (as `memref-to-usmp` and `tir-to-usmp` leave
them) gets the workspace pools whose targets include its function's target (a function's
`usmp.target`, else the kind of TIR's own `target` attribute; a pool without targets
serves every function), in declaration order, at its own alignment or the strictest of
theirs, the stricter (`tir-align-to-pools` then relaxes TVM's default alignment of a TIR
buffer to its pools').
A module without a workspace pool gets an unrestricted `@global_workspace`, as TVM made.
Candidates written in the IR stay as they are.

A constant pool (`flash:kind=constant`, or `constant-pool=true` for an unrestricted
`@global_constant`) is added here too; workspace buffers never go to it. The entry's
constants become its buffers in `tir-constants-to-buffers`, which runs next. A state
variable (`#usmp.io<"s", state>`, see `tir-state-to-allocations`) gets the state pools
(`kind=state`) that serve it instead, an unrestricted `@global_state` added when there is
none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, i64
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from usmp_dialect.analysis.pool_candidates import Function, assign_serving_pools, function_target
from usmp_dialect.diagnostics import INT64_MAX, UsmpError
from usmp_dialect.dialects.usmp import (
    DEFAULT_ALIGNMENT,
    PoolKind,
    PoolOp,
    module_allocs,
    module_pools,
)
from usmp_dialect.planning.problem import DEFAULT_POOL

DEFAULT_CONSTANT_POOL = "global_constant"
DEFAULT_STATE_POOL = "global_state"

NUMBER_KEYS = (
    "size_hint",
    "alignment",
    "clock_frequency_hz",
    "read_bandwidth_bytes_per_cycle",
    "write_bandwidth_bytes_per_cycle",
    "read_latency_cycles",
    "write_latency_cycles",
)
SPEC_KEYS = ("kind", "targets", *NUMBER_KEYS, "section")
POOL_KINDS = tuple(kind.value for kind in PoolKind)
_POOL_NAME = re.compile(r"[A-Za-z_][\w.$-]*")
_TARGET = re.compile(r"[\w.-]+")
_SECTION = re.compile(r"\.?[A-Za-z_][A-Za-z0-9_.]*")
"""A linker section name as C's `section` attribute and a linker script both take."""
_TOOLCHAIN_SECTION = re.compile(
    r"\.(text|rodata|ARM\.).*|\.(data|bss|init|fini|init_array|preinit_array|fini_array|vectors)"
)
"""Sections the compiler and the linker script already fill: a pool's output section of
that name would take the program's own code, constants or variables (NOLOAD: never loaded,
never zeroed), and `.text*` and `.rodata*` go to code and read-only flash first."""
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
    section = values.pop("section", None)
    if section is not None and not _SECTION.fullmatch(section):
        raise PoolSpecError(
            spec,
            f"section '{section}' of pool '{name}' is not a section name (letters, digits, "
            "'_' and '.', as `.dtcm` or `.ext_ram`)",
        )
    if section is not None and _TOOLCHAIN_SECTION.fullmatch(section):
        raise PoolSpecError(
            spec,
            f"section '{section}' of pool '{name}' is the toolchain's own (code, constants or "
            "variables go there): name a section of its own, as `.dtcm` or `.ext_ram`",
        )
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
        descriptive={
            **{key: IntegerAttr(value, i64) for key, value in numbers.items()},
            **({"section": StringAttr(section)} if section is not None else {}),
        },
    )


def parse_pool_spec(spec: str) -> list[PoolOp]:
    """The pools `spec` describes, in its order; a `PoolSpecError` for a mistake."""
    pools: list[PoolOp] = []
    for entry in spec.split(","):
        pool = _pool(spec, entry)
        if any(p.sym_name == pool.sym_name for p in pools):
            raise PoolSpecError(spec, f"pool '{pool.sym_name.data}' is given twice")
        pools.append(pool)
    _check_sections_shared(spec, pools)
    return pools


def _check_sections_shared(spec: str, pools: Sequence[PoolOp]) -> None:
    """Pools sharing a linker section share their alignment: the C library's linker script
    aligns the section at it. Else an error at the IR's pool of the two, a `PoolSpecError`
    when the other is `spec`'s (not yet in the IR)."""
    first: dict[str, PoolOp] = {}
    for pool in pools:
        if pool.section is None:
            continue
        other = first.setdefault(pool.section.data, pool)
        if other.alignment == pool.alignment:
            continue
        problem = (
            f"pools '{other.sym_name.data}' and '{pool.sym_name.data}' share section "
            f"'{pool.section.data}' with alignments {other.alignment.value.data} and "
            f"{pool.alignment.value.data}: give them one alignment, or a section each"
        )
        declared = other if other.parent is not None else None
        if pool.parent is not None:
            raise UsmpError(problem, pool)
        raise PoolSpecError(spec, problem, declared)


def _functions(module: ModuleOp) -> list[Function]:
    return [op for op in module.ops if isinstance(op, Function)]


def _add_pools(module: ModuleOp, spec: str, pools: Sequence[PoolOp]) -> None:
    declared = {p.sym_name.data: p for p in module_pools(module)}
    for pool in pools:
        if (existing := declared.get(pool.sym_name.data)) is not None:
            raise PoolSpecError(
                spec, f"pool '{pool.sym_name.data}' is declared in the IR already", existing
            )
    _check_sections_shared(spec, [*declared.values(), *pools])
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


def _state_pools(module: ModuleOp) -> list[PoolOp]:
    """The module's state pools in declaration order; an unrestricted `@global_state` is
    added when there is none."""
    pools = [p for p in module_pools(module) if p.kind.data == PoolKind.STATE]
    if not pools:
        pools = [PoolOp(DEFAULT_STATE_POOL, PoolKind.STATE)]
        _add_pools(module, "", pools)
    return pools


def assign_candidates(module: ModuleOp) -> None:
    """Candidates for every buffer that has none: the state pools that serve it for a
    state variable, else the workspace pools that serve it."""
    unassigned = [op for op in module_allocs(module) if not op.pools.data]
    state = [op for op in unassigned if op.attributes and op.pool_kind() == PoolKind.STATE]
    if state:
        assign_serving_pools(state, _state_pools(module), PoolKind.STATE)
    if workspace := [op for op in unassigned if op not in state]:
        assign_serving_pools(workspace, _workspace_pools(module), PoolKind.WORKSPACE)


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
        _check_sections_shared("", module_pools(op))
        if self.pools is not None:
            _add_pools(op, self.pools, parse_pool_spec(self.pools))
        if self.constant_pool and not any(
            p.kind.data == PoolKind.CONSTANT for p in module_pools(op)
        ):
            _add_pools(op, "", [PoolOp(DEFAULT_CONSTANT_POOL, PoolKind.CONSTANT)])
        assign_candidates(op)
