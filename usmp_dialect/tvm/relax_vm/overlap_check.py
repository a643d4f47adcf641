"""An overlap check of a planned Relax function, written apart from the planner's liveness
(`relax_vm.tensors`), so that a mistake there cannot hide here:

    check_no_overlap(func, storages=None)   raises `Overlap` naming two tensors that overlap
    storages(func)                          its `R.memory.alloc_storage` variables
    storage_bytes(func)                     their bytes summed (static sizes)

Each `R.memory.alloc_tensor(storage, offset, shape, dtype)` of the function's top-level
bindings, on a storage checked (all by default), holds the bytes `[offset, offset + size)`
at its shape's upper bound; it is live from its binding to the last binding that reads it or
anything bound from one that reads it: every binding is taken to alias every tensor it
reads, whatever it is (stricter than the planner, never looser). A returned tensor is live
to the end. Two tensors of one storage overlap when their bytes and their live ranges both
intersect. A storage used otherwise than by a top-level `alloc_tensor` fails the check.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import tvm
from tvm import relax

from usmp_dialect.tvm.relax_vm.tensors import bounded_analyzer, tensor_bytes


class Overlap(ValueError):
    """Two tensors of one storage share bytes while both are live."""


@dataclass
class _Placed:
    name: str
    storage: Any
    low: int
    high: int
    start: int
    last: int


def _is_call_of(value: Any, op: str) -> bool:
    return (
        isinstance(value, tvm.ir.Call) and isinstance(value.op, tvm.ir.Op) and value.op.name == op
    )


def storages(func: Any) -> set[Any]:
    return {
        b.var
        for block in func.body.blocks
        for b in block.bindings
        if _is_call_of(b.value, "relax.memory.alloc_storage")
    }


def storage_bytes(func: Any) -> int:
    """The bytes of `func`'s top-level storages of static size (an `alloc_storage`'s shape is
    its bytes, whatever its dtype), summed: what its plan allocates."""
    return sum(
        int(getattr(b.value.args[0].values[0], "value", 0))
        for block in func.body.blocks
        for b in block.bindings
        if _is_call_of(b.value, "relax.memory.alloc_storage")
    )


def check_no_overlap(func: Any, checked: Collection[Any] | None = None) -> None:
    """Raise `Overlap` if two tensors placed in `checked` (alloc_storage variables of
    `func`; all of them by default) share a byte while both are live."""
    checked = storages(func) if checked is None else checked
    analyzer = bounded_analyzer(func)
    placed: list[_Placed] = []
    reads: dict[Any, set[int]] = {}
    bindings = [b for block in func.body.blocks for b in block.bindings]
    for index, binding in enumerate(bindings):
        value = binding.value
        used = relax.analysis.free_vars(value)
        is_alloc = _is_call_of(value, "relax.memory.alloc_tensor") and value.args[0] in checked
        if is_alloc:
            size = tensor_bytes(value.args[2], value.args[3].value, analyzer)
            if size is None:
                raise Overlap(f"tensor '{binding.var.name}' has no bound on its size")
            low = int(value.args[1].value)
            placed.append(_Placed(binding.var.name, value.args[0], low, low + size, index, index))
            reads[binding.var] = {len(placed) - 1}
            continue
        stray = next((v for v in used if v in checked), None)
        if stray is not None:
            raise Overlap(f"storage '{stray.name}' is used by '{binding.var.name}'")
        reached = set().union(*(reads.get(v, set()) for v in used))
        for i in reached:
            placed[i].last = index
        if reached:
            reads[binding.var] = reached
    for var in relax.analysis.free_vars(func.body.body):
        for i in reads.get(var, ()):
            placed[i].last = len(bindings)
    _check_pairs(placed)


def _check_pairs(placed: list[_Placed]) -> None:
    for i, a in enumerate(placed):
        for b in placed[i + 1 :]:
            if (
                a.storage.same_as(b.storage)
                and a.low < b.high
                and b.low < a.high
                and a.start <= b.last
                and b.start <= a.last
            ):
                raise Overlap(
                    f"tensors '{a.name}' and '{b.name}' overlap in storage "
                    f"'{a.storage.name}' (bytes [{a.low}, {a.high}) and [{b.low}, {b.high}), "
                    f"live at bindings [{a.start}, {a.last}] and [{b.start}, {b.last}])"
                )
