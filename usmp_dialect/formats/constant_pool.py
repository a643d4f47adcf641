"""A model's constants in the IR, and the initial bytes of the constant pool they went to.

The import (`--import-relax`; `--import-tvmscript --params` for the entry's
`T.lookup_param` calls) records each constant's value on the entry function as
`usmp.constant_values = {name = dense<...> : tensor<...>}` (the tensor's bytes are the
constant's little-endian bytes), so the values travel with the `.mlir` through every pass.
After planning, `usmp-to-tir` publishes where each constant lives (the entry's
`usmp.io_offsets`, kind `constant`) and the pool's size (`usmp.pools`); the pool's bytes
are then each constant's bytes at its offset and zero between them, what an application
loads before the first run (`usmp-translate --emit-tvmscript --constants-out FILE.bin`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute

from usmp_dialect.analysis.tir_liveness import prim_funcs
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import (
    CONSTANT_VALUES_ATTR,
    IO_OFFSETS_ATTR,
    POOLS_ATTR,
    IOKind,
)

_BYTES = IntegerType(8, Signedness.UNSIGNED)


def _dense(array: np.ndarray) -> DenseIntOrFPElementsAttr:
    """`array` as a dense tensor of its own element type, or of its bytes where the dense
    syntax would not give them back (booleans print as `true`/`false`)."""
    array = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<"))
    data = BytesAttr(array.tobytes())
    element = tir.dtype_to_type(str(array.dtype)) if array.dtype.kind in "fiu" else None
    if isinstance(element, IntegerType | AnyFloat):
        return DenseIntOrFPElementsAttr(TensorType(element, array.shape), data)
    return DenseIntOrFPElementsAttr(TensorType(_BYTES, [array.nbytes]), data)


def constant_values_attr(arrays: Mapping[str, np.ndarray]) -> DictionaryAttr:
    """The entry's `usmp.constant_values` for constants `arrays`, by param name."""
    return DictionaryAttr({name: _dense(np.asarray(array)) for name, array in arrays.items()})


class _Slot(NamedTuple):
    """Where `usmp-to-tir` placed a constant: its pool, offset and byte count."""

    pool: str
    offset: int
    size: int


def _int(attr: Attribute | None) -> int:
    assert isinstance(attr, IntegerAttr)
    return attr.value.data


def _constant_slots(entry: tir.PrimFuncOp) -> dict[str, _Slot]:
    offsets = entry.attributes.get(IO_OFFSETS_ATTR)
    if not isinstance(offsets, DictionaryAttr):
        return {}
    slots = {}
    for name, info in offsets.data.items():
        assert isinstance(info, DictionaryAttr)
        kind, pool, dtype, shape = (info.data.get(k) for k in ("kind", "pool", "dtype", "shape"))
        if kind != StringAttr(IOKind.CONSTANT):
            continue
        assert isinstance(pool, StringAttr) and isinstance(dtype, StringAttr)
        assert isinstance(shape, ArrayAttr)
        count = math.prod(_int(d) for d in shape.data)
        slots[name] = _Slot(pool.data, _int(info.data.get("offset")), count * _itemsize(dtype.data))
    return slots


def _itemsize(dtype: str) -> int:
    return tir.element_bytes(tir.dtype_to_type(dtype))


def _constant_pool(module: ModuleOp) -> tuple[tir.PrimFuncOp, str, int, dict[str, _Slot]]:
    """The entry function, its constant pool, the pool's size and the constants' slots."""
    for entry in prim_funcs(module).values():
        slots = _constant_slots(entry)
        pools = sorted({slot.pool for slot in slots.values()})
        if len(pools) > 1:
            raise UsmpError(
                f"the constants are in {len(pools)} pools ({', '.join(pools)}); one file "
                "holds the bytes of one",
                entry,
            )
        sizes = entry.attributes.get(POOLS_ATTR)
        if pools and isinstance(sizes, DictionaryAttr):
            return entry, pools[0], _int(sizes.data.get(pools[0])), slots
    raise UsmpError(
        "no constant pool holds the constants: plan with one (usmp-opt --plan-pools "
        "--pools NAME:kind=constant) before writing its bytes",
        module,
    )


def constant_pool_bytes(module: ModuleOp) -> bytes:
    """The initial bytes of the planned (`usmp-to-tir`) module's constant pool."""
    entry, pool, size, slots = _constant_pool(module)
    values = entry.attributes.get(CONSTANT_VALUES_ATTR)
    data = bytearray(size)
    for name, slot in slots.items():
        value = values.data.get(name) if isinstance(values, DictionaryAttr) else None
        if not isinstance(value, DenseIntOrFPElementsAttr):
            raise UsmpError(
                f"constant '{name}' has no value (a dense tensor in the entry's "
                f"{CONSTANT_VALUES_ATTR}) to write into pool @{pool}",
                entry,
            )
        raw = value.data.data
        if len(raw) != slot.size:
            raise UsmpError(
                f"the value of constant '{name}' has {len(raw)} bytes, its buffer {slot.size}",
                entry,
            )
        data[slot.offset : slot.offset + slot.size] = raw
    return bytes(data)
