"""A model's constants in the IR, and the initial bytes of the constant pool they went to.

The import (`--import-relax`; `--import-tvmscript --params` for the entry's
`T.lookup_param` calls) records each constant's value on the entry function as
`usmp.constant_values = {name = dense_resource<key> : tensor<...>}`, the constant's
little-endian bytes in the module's blobs (`usmp_dialect.formats.resources`, the file's
`dialect_resources` section), so the values travel with the `.mlir` through every pass;
the `dense<...>` form written before is still read.
After planning, `usmp-to-tir` publishes where each constant lives (the entry's
`usmp.io_offsets`, kind `constant`) and the pool's size (`usmp.pools`); the pool's bytes
are then each constant's bytes at its offset and zero between them, what an application
loads before the first run (`usmp-translate --emit-tvmscript --constants-out FILE.bin`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    DictionaryAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
)

from usmp_dialect.analysis.tir_entry import prim_funcs
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import (
    CONSTANT_VALUES_ATTR,
    STATE_VALUES_ATTR,
    IOKind,
    StateValuesAttr,
    buffer_size_in_bytes,
    placed_io,
    planned_pool_sizes,
)
from usmp_dialect.formats import resources

_BYTES = IntegerType(8, Signedness.UNSIGNED)


def _element_type(array: np.ndarray) -> IntegerType | AnyFloat | None:
    element = tir.dtype_to_type(str(array.dtype)) if array.dtype.kind in "fiu" else None
    return element if isinstance(element, IntegerType | AnyFloat) else None


def set_constant_values(
    module: ModuleOp,
    entry: tir.PrimFuncOp,
    arrays: Mapping[str, np.ndarray],
    state: Mapping[str, np.ndarray] | None = None,
) -> None:
    """The entry's `usmp.constant_values` for constants `arrays`, by param name (and its
    `usmp.state_values` for the first values of its state variables, `state`): each a
    `dense_resource` of its own element type (of its bytes where that has none, as for
    booleans), its bytes little-endian in the module's blobs, which are these."""
    state = state or {}
    little_endian = {}
    for name, value in [*arrays.items(), *state.items()]:
        array = np.asarray(value)
        little_endian[name] = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<"))
    keys: dict[str, str] = {}
    for name in little_endian:
        keys[name] = resources.resource_key(name, keys.values())
    blobs = resources.Blobs.allocate(
        {keys[n]: (a.nbytes, max(a.dtype.alignment, 1)) for n, a in little_endian.items()}
    )
    values: dict[str, DenseResourceAttr] = {}
    for name, array in little_endian.items():
        blobs.view(keys[name])[:] = array.reshape(-1).view(np.uint8).data
        element = _element_type(array)
        type = TensorType(element, array.shape) if element else TensorType(_BYTES, [array.nbytes])
        values[name] = DenseResourceAttr.from_params(keys[name], type)
    resources.set_blobs(module, blobs)
    entry.attributes[CONSTANT_VALUES_ATTR] = DictionaryAttr(
        {name: value for name, value in values.items() if name in arrays}
    )
    if state:
        entry.attributes[STATE_VALUES_ATTR] = StateValuesAttr(
            {name: value for name, value in values.items() if name in state}
        )


def state_values(module: ModuleOp, entry: tir.PrimFuncOp) -> dict[str, bytes]:
    """The first value of each of the entry's state variables its `usmp.state_values`
    holds, by name, as bytes."""
    values = entry.attributes.get(STATE_VALUES_ATTR)
    if not isinstance(values, StateValuesAttr):
        return {}
    blobs = resources.blobs_of(module)
    return {
        name: bytes(blobs.view(value.resource_handle.data))
        for name, value in values.by_name.items()
    }


class _Slot(NamedTuple):
    """Where `usmp-to-tir` placed a constant: its pool, offset and byte count."""

    pool: str
    offset: int
    size: int


def _constant_slots(entry: tir.PrimFuncOp) -> dict[str, _Slot]:
    return {
        name: _Slot(io.pool.data, io.offset_bytes, buffer_size_in_bytes(io.buffer_type))
        for name, io in placed_io(entry).items()
        if io.kind.data == IOKind.CONSTANT
    }


def _pool_of(entry: tir.PrimFuncOp) -> tuple[str, int, dict[str, _Slot]] | None:
    """The entry's constant pool, the pool's size and the constants' slots; None when no
    planned pool holds its constants."""
    slots = _constant_slots(entry)
    pools = sorted({slot.pool for slot in slots.values()})
    if len(pools) > 1:
        raise UsmpError(
            f"the constants are in {len(pools)} pools ({', '.join(pools)}); one file "
            "holds the bytes of one",
            entry,
        )
    sizes = planned_pool_sizes(entry)
    return (pools[0], sizes[pools[0]], slots) if pools and sizes is not None else None


_NO_CONSTANT_POOL = (
    "no constant pool holds the constants: plan with one (usmp-opt --plan-pools "
    "--pools NAME:kind=constant) before writing its bytes"
)


def constant_pool_bytes(module: ModuleOp) -> bytearray:
    """The initial bytes of the planned (`usmp-to-tir`) module's constant pool, that of its
    function whose constants a pool holds."""
    for entry in prim_funcs(module).values():
        if _pool_of(entry) is not None:
            return entry_constant_pool_bytes(module, entry)
    raise UsmpError(_NO_CONSTANT_POOL, module)


def entry_constant_pool_bytes(module: ModuleOp, entry: tir.PrimFuncOp) -> bytearray:
    """The initial bytes of the constant pool of the planned module's `entry`."""
    found = _pool_of(entry)
    if found is None:
        raise UsmpError(_NO_CONSTANT_POOL, entry)
    pool, size, slots = found
    values = entry.attributes.get(CONSTANT_VALUES_ATTR)
    blobs = resources.blobs_of(module)
    data = bytearray(size)
    for name, slot in slots.items():
        value = values.data.get(name) if isinstance(values, DictionaryAttr) else None
        if isinstance(value, DenseResourceAttr):
            raw: bytes | memoryview = blobs.view(value.resource_handle.data)
        elif isinstance(value, DenseIntOrFPElementsAttr):  # the form written before blobs
            raw = value.data.data
        else:
            raise UsmpError(
                f"constant '{name}' has no value (a dense_resource in the entry's "
                f"{CONSTANT_VALUES_ATTR}) to write into pool @{pool}",
                entry,
            )
        if len(raw) != slot.size:
            raise UsmpError(
                f"the value of constant '{name}' has {len(raw)} bytes, its buffer {slot.size}",
                entry,
            )
        data[slot.offset : slot.offset + slot.size] = raw
    return data
