"""The tensors a Relax VM function allocates, read from `StaticPlanBlockMemory`'s output.

    vm_tensors(func) -> VmTensors      what can be planned, and what the VM allocates itself

TVM's planner decides which `R.builtin.alloc_tensor`s may share memory (a tensor that is
not returned, is used only by operator calls in its own block, and has a size it can bound)
and gives each such tensor an `R.memory.alloc_tensor(storage, 0, ...)` in a storage of
`R.memory.alloc_storage`. Those storages are what `PlanMemory` replaces: each of their
tensors becomes a buffer with its own live range, `[binding, last use + 1)` in the order of
the function's bindings (the order the VM runs them), where a use through an alias (a
variable bound to it, a tuple holding it, a reshape or view of it) counts as a use of the
tensor. A storage stays TVM's when its size is symbolic (no `tir_var_upper_bound` bounds
it), when it is used anywhere but as the storage of an `alloc_tensor` of the function's
top-level blocks, or when one of its tensors escapes (is returned). Every allocation the VM
makes outside the replaced storages is listed as `Unplanned`, with its bytes when they are
static.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

TVM_ALLOC_ALIGNMENT = 64
"""TVM's `kAllocAlignment`: `vm.builtin.ensure_zero_offset` makes a tensor at an offset
into a view (no copy) only when the offset is a multiple of it."""

_VIEW_OPS = ("relax.reshape", "relax.memory.view", "relax.memory.ensure_zero_offset")
"""The ops whose result shares its argument's memory, as StaticPlanBlockMemory counts them."""


@dataclass(frozen=True)
class VmTensor:
    """A tensor of a replaceable storage: a buffer for the planner."""

    name: str
    var: Any
    """The Relax variable the `R.memory.alloc_tensor` is bound to."""
    call: Any
    """That `R.memory.alloc_tensor` call."""
    size: int
    """Bytes, with every symbolic dim at its `tir_var_upper_bound`."""
    start: int
    end: int
    """Live range `[start, end)` in binding indices."""
    device: int
    """The virtual device index of its storage."""


@dataclass(frozen=True)
class Unplanned:
    """An allocation the VM makes that the plan does not cover."""

    name: str
    size: int | None
    """Bytes, or None when they depend on the run (a dynamic shape)."""
    reason: str


@dataclass
class VmTensors:
    tensors: list[VmTensor] = field(default_factory=list)
    storages: set[Any] = field(default_factory=set)
    """The `R.memory.alloc_storage` variables the tensors lived in, replaced by the plan."""
    unplanned: list[Unplanned] = field(default_factory=list)


@dataclass
class _Storage:
    var: Any
    size: int | None
    device: int
    scope: str
    tensors: list[_Found] = field(default_factory=list)
    kept_because: str | None = None


@dataclass
class _Found:
    """A tensor of a storage, while its last use is being found."""

    name: str
    var: Any
    call: Any
    size: int | None
    start: int
    last: int
    storage: _Storage


def _op_name(value: Any) -> str | None:
    import tvm

    if isinstance(value, tvm.ir.Call) and isinstance(value.op, tvm.ir.Op):
        return str(value.op.name)
    return None


def _int(expr: Any) -> int | None:
    value = getattr(expr, "value", None)
    return int(value) if isinstance(value, int) else None


def _bounded_analyzer(func: Any) -> Any:
    """An analyzer that knows the `tir_var_upper_bound` of the signature's dims."""
    import tvm
    from tvm import relax
    from tvm.sym import Analyzer

    analyzer = Analyzer()
    bounds = func.attrs.get("tir_var_upper_bound") if func.attrs else None
    if bounds:
        names = {str(k): int(v) for k, v in bounds.items()}
        for var in relax.analysis.tir_vars_in_struct_info(func.ty):
            if var.name in names:
                analyzer.bind(var, tvm.ir.Range(0, names[var.name] + 1))
    return analyzer


def tensor_bytes(shape: Any, dtype: Any, analyzer: Any) -> int | None:
    """The bytes of a tensor of `shape` (a Relax `ShapeExpr`) at the dims' upper bounds;
    None if one has none."""
    import tvm

    dtype = tvm.DataType(str(dtype))
    size: Any = tvm.tirx.const(dtype.bits * dtype.lanes // 8, "int64")
    for dim in shape.values:
        size = size * dim
    bound = analyzer.const_int_bound(size).max_value
    return None if bound >= np.iinfo(np.int64).max else int(bound)


def _bindings(func: Any) -> Iterator[Any]:
    for block in func.body.blocks:
        yield from block.bindings


def _unique(name: str, taken: set[str]) -> str:
    found, n = name, 0
    while found in taken:
        n += 1
        found = f"{name}_{n}"
    taken.add(found)
    return found


def vm_tensors(func: Any, plannable_device: Any = lambda device: True) -> VmTensors:
    """The tensors of `func` (after StaticPlanBlockMemory) that a plan may place, and the
    allocations it leaves to the VM. `plannable_device(index)` says whether tensors of a
    virtual device may be placed at offsets (its runtime makes views at an offset)."""
    from tvm import relax

    analyzer = _bounded_analyzer(func)
    bindings = list(_bindings(func))
    storages: dict[Any, _Storage] = {}
    aliases: dict[Any, list[_Found]] = {}
    taken: set[str] = set()
    result = VmTensors()

    for index, binding in enumerate(bindings):
        value = binding.value
        op = _op_name(value)
        if op == "relax.memory.alloc_storage":
            size = _int(value.args[0].values[0]) if len(value.args[0].values) == 1 else None
            storages[binding.var] = _Storage(
                binding.var, size, _int(value.args[1].value) or 0, str(value.args[2].value)
            )
            continue
        if op == "relax.memory.alloc_tensor" and value.args[0] in storages:
            storage = storages[value.args[0]]
            size = tensor_bytes(value.args[2], value.args[3].value, analyzer)
            found = _Found(_unique(binding.var.name, taken), binding.var, value, size, index, index, storage)
            storage.tensors.append(found)
            aliases[binding.var] = [found]
            continue
        if op == "relax.builtin.alloc_tensor":
            size = tensor_bytes(value.args[0], value.args[1].value, analyzer)
            result.unplanned.append(
                Unplanned(
                    _unique(binding.var.name, taken),
                    size,
                    "allocated by the VM (returned, or not plannable by TVM)"
                    if size is not None
                    else f"dynamic shape {value.args[0]} (no tir_var_upper_bound)",
                )
            )
        used = relax.analysis.free_vars(value)
        for var in used:
            if var in storages:
                storages[var].kept_because = f"storage '{var.name}' is used by '{binding.var.name}'"
        reached = [t for var in used for t in aliases.get(var, ())]
        for t in reached:
            t.last = index
        if reached and (isinstance(value, (relax.Var, relax.Tuple, relax.TupleGetItem)) or op in _VIEW_OPS):
            aliases[binding.var] = reached

    for var in relax.analysis.free_vars(func.body.body):
        for t in aliases.get(var, ()):
            t.storage.kept_because = f"tensor '{t.name}' is returned"
        if var in storages:
            storages[var].kept_because = f"storage '{var.name}' is returned"

    for storage in storages.values():
        if storage.kept_because is None and storage.size is None:
            storage.kept_because = f"storage '{storage.var.name}' has a dynamic size (no tir_var_upper_bound)"
        if storage.kept_because is None and storage.scope != "global":
            storage.kept_because = f"storage '{storage.var.name}' is in memory scope '{storage.scope}'"
        if storage.kept_because is None and not plannable_device(storage.device):
            storage.kept_because = (
                f"virtual device {storage.device} cannot view a storage at an offset"
            )
        if storage.kept_because is None and any(t.size is None for t in storage.tensors):
            storage.kept_because = "a tensor's size has no bound"
        if storage.kept_because is not None:
            result.unplanned.append(Unplanned(storage.var.name, storage.size, storage.kept_because))
            continue
        result.storages.add(storage.var)
        result.tensors += [
            VmTensor(t.name, t.var, t.call, t.size, t.start, t.last + 1, storage.device)
            for t in storage.tensors
            if t.size is not None
        ]
    result.tensors.sort(key=lambda t: t.start)
    return result
