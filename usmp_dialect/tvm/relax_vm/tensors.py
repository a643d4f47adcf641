"""The tensors a Relax VM function allocates, read from `StaticPlanBlockMemory`'s output.

    vm_tensors(func, plannable_device) -> VmTensors   what can be planned, what the VM allocates

TVM's planner decides which `R.builtin.alloc_tensor`s may share memory (a tensor that is
not returned, is used only by operator calls in its own block, and has a size it can bound)
and gives each such tensor an `R.memory.alloc_tensor(storage, 0, ...)` in a storage of
`R.memory.alloc_storage`. Those storages are what `PlanMemory` replaces: each of their
tensors becomes a buffer with its own live range, `[binding, last use + 1)` in the order of
the function's bindings (the order the VM runs them), where a use through an alias counts
as a use of the tensor. Any binding may alias the tensors it reads (`may_alias`): a
variable, a tuple or an item of one, an `If` whose branches read them, a view, a reshape
(`R.reshape`, `vm.builtin.reshape` called packed or pure-packed), `ensure_zero_offset`, an
in-place operator, a Relax function's call, any packed call whose result may hold a tensor;
only a binding whose result holds no tensor (an operator's destination-passing call, a
shape) or a fresh allocation does not. A binding of a construct the walk does not know
(a nested function) that reads a planned tensor is an `UnanalysableBinding`. A storage
stays TVM's when its size is symbolic (no `tir_var_upper_bound` bounds it), when it is used
anywhere but as the storage of an `alloc_tensor` of the function's top-level blocks, or
when one of its tensors escapes (is returned). Every allocation the VM makes outside the
replaced storages is listed as `Unplanned`, with its bytes when they are static.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import tvm
from tvm import relax
from tvm.sym import Analyzer

TVM_ALLOC_ALIGNMENT = 64
"""TVM's `kAllocAlignment`: `vm.builtin.ensure_zero_offset` makes a tensor at an offset
into a view (no copy) only when the offset is a multiple of it."""

FRESH_OPS = frozenset(
    {"relax.builtin.alloc_tensor", "relax.memory.alloc_tensor", "relax.memory.alloc_storage"}
)
"""The ops whose result is memory of its own, never an argument's."""


class UnanalysableBinding(ValueError):
    """A binding reads a planned tensor through a construct the walk does not follow."""


def _holds_tensor(ty: Any) -> bool:
    """Whether a value of type `ty` may hold a tensor (an unknown object or a closure may)."""
    if isinstance(ty, relax.TupleType):
        return any(_holds_tensor(field) for field in ty.fields)
    return not isinstance(ty, (relax.ShapeType, tvm.ir.PrimType))


def may_alias(var: Any, value: Any) -> bool:
    """Whether `var = value` may share the bytes of a tensor `value` reads: every binding
    whose result may hold a tensor, but for a fresh allocation."""
    return _op_name(value) not in FRESH_OPS and _holds_tensor(var.ty)


def _analysable(value: Any) -> bool:
    return isinstance(
        value,
        (tvm.ir.Call, relax.Var, relax.Tuple, relax.TupleGetItem, relax.If, relax.ShapeExpr),
    )


@dataclass(frozen=True)
class VmTensor:
    """A tensor of a replaceable storage: a buffer for the planner."""

    name: str
    var: Any
    """The Relax variable the `R.memory.alloc_tensor` is bound to."""
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
    storages: dict[Any, int] = field(default_factory=dict)
    """The `R.memory.alloc_storage` variables the tensors lived in, replaced by the plan,
    and their bytes."""
    unplanned: list[Unplanned] = field(default_factory=list)
    returned: set[Any] = field(default_factory=set)
    """The variables of the returned `R.builtin.alloc_tensor`s among `tensors`."""
    unviewable_devices: set[int] = field(default_factory=set)
    """The virtual devices of storages kept because their runtime makes no view at an
    offset."""


@dataclass
class _Storage:
    var: Any
    size: int | None
    device: int
    scope: str
    tensors: list[_Found] = field(default_factory=list)
    kept_because: str | None = None
    returned: bool = False
    """A tensor the VM allocates itself (`R.builtin.alloc_tensor`, its own storage here)
    that the function returns."""


@dataclass
class _Found:
    """A tensor of a storage, while its last use is being found."""

    name: str
    var: Any
    size: int | None
    start: int
    last: int
    storage: _Storage


def _op_name(value: Any) -> str | None:
    if isinstance(value, tvm.ir.Call) and isinstance(value.op, tvm.ir.Op):
        return str(value.op.name)
    return None


def _int(expr: Any) -> int | None:
    value = getattr(expr, "value", None)
    return int(value) if isinstance(value, int) else None


def bounded_analyzer(func: Any) -> Any:
    """An analyzer that knows the `tir_var_upper_bound` of the signature's dims."""
    analyzer = Analyzer()
    bounds = func.attrs.get("tir_var_upper_bound") if func.attrs else None
    if bounds:
        names = {str(k): int(v) for k, v in bounds.items()}
        for var in relax.analysis.tir_vars_in_type(func.ty):
            if var.name in names:
                analyzer.bind(var, tvm.ir.Range(0, names[var.name] + 1))
    return analyzer


def tensor_bytes(shape: Any, dtype: Any, analyzer: Any) -> int | None:
    """The bytes of a tensor of `shape` (a Relax `ShapeExpr`) at the dims' upper bounds;
    None if one has none."""
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


def vm_tensors(
    func: Any, plannable_device: Callable[[int], bool], returned: bool = False
) -> VmTensors:
    """The tensors of `func` (after StaticPlanBlockMemory) that a plan may place, and the
    allocations it leaves to the VM. `plannable_device(index)` says whether tensors of a
    virtual device may be placed at offsets (its runtime makes views at an offset).
    `returned`: the returned tensors of static size that the VM allocates itself are
    placed too, live to the function's end (and still listed in `unplanned`, for a plan
    that falls back to TVM's)."""
    walk = _Walk(func)
    result = VmTensors(unplanned=walk.unplanned)
    if returned:
        for own in walk.returned:
            if own.size is not None and own.scope == "global" and plannable_device(own.device):
                (t,) = own.tensors
                result.tensors.append(
                    VmTensor(t.name, t.var, own.size, t.start, walk.bindings + 1, own.device)
                )
                result.returned.add(t.var)
    for storage in walk.storages.values():
        kept_because = storage.kept_because or _why_kept(storage, plannable_device)
        if not plannable_device(storage.device):
            result.unviewable_devices.add(storage.device)
        if kept_because is not None or storage.size is None:
            result.unplanned.append(Unplanned(storage.var.name, storage.size, str(kept_because)))
            continue
        result.storages[storage.var] = storage.size
        result.tensors += [
            VmTensor(t.name, t.var, t.size, t.start, t.last + 1, storage.device)
            for t in storage.tensors
            if t.size is not None
        ]
    result.tensors.sort(key=lambda t: t.start)
    return result


def _why_kept(storage: _Storage, plannable_device: Callable[[int], bool]) -> str | None:
    name = storage.var.name
    if storage.size is None:
        return f"storage '{name}' has a dynamic size (no tir_var_upper_bound)"
    if storage.scope != "global":
        return f"storage '{name}' is in memory scope '{storage.scope}'"
    if not plannable_device(storage.device):
        return (
            f"the target of virtual device {storage.device} is unknown or has no runtime "
            "that views a storage at an offset"
        )
    unbounded = next((t for t in storage.tensors if t.size is None), None)
    if unbounded is not None:
        return f"tensor '{unbounded.name}' of storage '{name}' has no bound on its size"
    return None


class _Walk:
    """One pass over the bindings: the storages and their tensors' last uses, the VM's
    own allocations, and what makes a storage TVM's to keep."""

    def __init__(self, func: Any):
        self.analyzer = bounded_analyzer(func)
        self.storages: dict[Any, _Storage] = {}
        self.own: dict[Any, _Storage] = {}
        """The VM's own allocations of static size, each a storage of one tensor."""
        self.aliases: dict[Any, list[_Found]] = {}
        self.taken: set[str] = set()
        self.unplanned: list[Unplanned] = []
        self.bindings = 0
        for index, binding in enumerate(_bindings(func)):
            self._binding(index, binding.var, binding.value)
            self.bindings = index + 1
        for var in relax.analysis.free_vars(func.body.body):
            for t in self.aliases.get(var, ()):
                t.storage.returned = True
                t.storage.kept_because = f"tensor '{t.name}' is returned"
            if var in self.storages:
                self.storages[var].kept_because = f"storage '{var.name}' is returned"
        self.returned = [own for own in self.own.values() if own.returned]

    def _binding(self, index: int, var: Any, value: Any) -> None:
        op = _op_name(value)
        if op == "relax.memory.alloc_storage":
            dims = value.args[0].values
            self.storages[var] = _Storage(
                var,
                _int(dims[0]) if len(dims) == 1 else None,
                _int(value.args[1]) or 0,
                str(value.args[2].value),
            )
            return
        if op == "relax.memory.alloc_tensor" and value.args[0] in self.storages:
            storage = self.storages[value.args[0]]
            size = tensor_bytes(value.args[2], value.args[3].value, self.analyzer)
            found = _Found(_unique(var.name, self.taken), var, size, index, index, storage)
            storage.tensors.append(found)
            self.aliases[var] = [found]
            return
        if op == "relax.builtin.alloc_tensor":
            # The VM allocates it at its run's shape, bounded or not.
            size = tensor_bytes(value.args[0], value.args[1].value, Analyzer())
            name = _unique(var.name, self.taken)
            if size is not None:
                own = _Storage(var, size, _int(value.args[2]) or 0, str(value.args[3].value))
                own.tensors.append(_Found(name, var, size, index, index, own))
                self.own[var] = own
                self.aliases[var] = own.tensors[:]
            self.unplanned.append(
                Unplanned(
                    name,
                    size,
                    "allocated by the VM (returned, or not plannable by TVM)"
                    if size is not None
                    else f"allocated by the VM at its run's shape {value.args[0]}",
                )
            )
        used = relax.analysis.free_vars(value)
        for storage_var in (v for v in used if v in self.storages):
            self.storages[
                storage_var
            ].kept_because = f"storage '{storage_var.name}' is used by '{var.name}'"
        reached = list({id(t): t for v in used for t in self.aliases.get(v, ())}.values())
        if reached and not _analysable(value):
            raise UnanalysableBinding(
                f"binding '{var.name}' ({type(value).__name__}) reads tensor "
                f"'{reached[0].name}' through a construct the pass does not analyse"
            )
        for t in reached:
            t.last = index
        if reached and may_alias(var, value):
            self.aliases[var] = reached
