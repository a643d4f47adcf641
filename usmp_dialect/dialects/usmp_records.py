"""The records passes hand on, in the untyped forms they had before their typed attributes:
the dictionaries (and `usmp.schedule`'s string) that files written then carry and that
TVM's function attributes still carry. `typed_records` reads them into the attributes of
`dialects/usmp.py` once a module is read; `io_offsets_dictionary` writes `usmp.io_offsets`
back as TVM's attributes hold it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar, cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseResourceAttr,
    DictionaryAttr,
    IntegerAttr,
    MemRefType,
    StringAttr,
)
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import VerifyException

from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects.tir import dtype_to_type, type_to_dtype
from usmp_dialect.dialects.usmp import (
    IN_PLACE_RESULTS_ATTR,
    IO_OFFSETS_ATTR,
    NARROWED_CONSTANTS_ATTR,
    PLAN_ATTR,
    POOLS_ATTR,
    SCHEDULE_ATTR,
    SHARED_CONSTANTS_ATTR,
    STATE_ATTR,
    STATE_VALUES_ATTR,
    InPlaceResultsAttr,
    IOKind,
    IOOffsetAttr,
    IOOffsetsAttr,
    NameMapAttr,
    NarrowedConstantsAttr,
    PlanAttr,
    PoolSizesAttr,
    ScheduleAttr,
    SharedConstantsAttr,
    StateAttr,
    StateValuesAttr,
)
from usmp_dialect.dialects.usmp_syntax import int_attr

_Field = TypeVar("_Field", bound=Attribute)


def _field(record: DictionaryAttr, key: str, kind: type[_Field], what: str) -> _Field:
    value = record.data.get(key)
    if not isinstance(value, kind):
        raise VerifyException(f"{what} {record} has no {key} of the right kind")
    return value


def _sizes(record: Attribute, what: str) -> dict[str, int]:
    if not isinstance(record, DictionaryAttr):
        raise VerifyException(f"{what} {record} is not a dictionary of sizes")
    sizes = {}
    for name, size in record.data.items():
        if not isinstance(size, IntegerAttr):
            raise VerifyException(f"{what} of '{name}' is not an integer: {size}")
        sizes[name] = size.value.data
    return sizes


def plan_record(record: DictionaryAttr) -> PlanAttr:
    """`{algorithm = "exact", proven_optimal = true, time_limit_reached = false,
    lower_bounds = {sram = 60 : i64}}`."""
    proven, capped = (
        bool(_field(record, key, IntegerAttr, PLAN_ATTR).value.data)
        for key in ("proven_optimal", "time_limit_reached")
    )
    bounds = record.data.get("lower_bounds", DictionaryAttr({}))
    return PlanAttr(
        _field(record, "algorithm", StringAttr, PLAN_ATTR).data,
        proven,
        capped,
        _sizes(bounds, f"{PLAN_ATTR} lower bound"),
    )


def pool_sizes_record(record: DictionaryAttr) -> PoolSizesAttr:
    """`{sram = 4096 : i64}`."""
    return PoolSizesAttr(_sizes(record, f"{POOLS_ATTR} size"))


_NameMap = TypeVar("_NameMap", bound=NameMapAttr)


def _name_map_record(kind: type[_NameMap]) -> Callable[[DictionaryAttr], _NameMap]:
    """`{a = "b"}`."""

    def read(record: DictionaryAttr) -> _NameMap:
        return kind({n: _field(record, n, StringAttr, kind.name).data for n in record.data})

    return read


def io_offset_record(record: DictionaryAttr, what: str) -> IOOffsetAttr:
    """`{kind = "input", pool = "sram", offset = 32 : i64, dtype = "float32",
    shape = [4 : i64]}`."""
    kind = _field(record, "kind", StringAttr, what).data
    if kind not in set(IOKind):
        raise VerifyException(f"{what} has kind '{kind}', not one of {', '.join(IOKind)}")
    shape = _field(record, "shape", ArrayAttr, what)
    if not all(isinstance(d, IntegerAttr) for d in shape.data):
        raise VerifyException(f"{what} has a shape of other than integers: {shape}")
    dtype = _field(record, "dtype", StringAttr, what).data
    try:
        element = dtype_to_type(dtype)
    except ValueError as error:
        raise VerifyException(f"{what}: {error}") from error
    return IOOffsetAttr(
        kind,
        _field(record, "pool", StringAttr, what).data,
        _field(record, "offset", IntegerAttr, what).value.data,
        MemRefType(element, [cast(IntegerAttr, d).value.data for d in shape.data]),
    )


def io_offsets_record(record: DictionaryAttr) -> IOOffsetsAttr:
    """A dictionary of `io_offset_record`'s."""
    offsets = {}
    for name, info in record.data.items():
        what = f"{IO_OFFSETS_ATTR} of '{name}'"
        if not isinstance(info, DictionaryAttr):
            raise VerifyException(f"{what} is not a dictionary: {info}")
        offsets[name] = io_offset_record(info, what)
    return IOOffsetsAttr(offsets)


def state_values_record(record: DictionaryAttr) -> StateValuesAttr:
    """`{s = dense_resource<s> : tensor<4xi8>}`."""
    return StateValuesAttr(
        {n: _field(record, n, DenseResourceAttr, STATE_VALUES_ATTR) for n in record.data}
    )


_SCHEDULE_TEXT = re.compile(
    r"reordered: peak (\d+) bytes against the file's (\d+) \(((?:not )?proven least)\): "
    r"(@.*) \(the file's calls ([\d, ]+)\)"
)
_KEPT_TEXT = re.compile(
    r"the file's order kept: peak (\d+) bytes \(((?:not )?proven least)\): (@.*)"
)


def schedule_record(text: StringAttr) -> ScheduleAttr:
    """The sentence `tir-reorder-for-memory` wrote before `#usmp.schedule`: `"reordered:
    peak 288 bytes against the file's 528 (proven least): @f, @g (the file's calls 1,
    0)"`, or where it kept the file's order `"the file's order kept: peak 288 bytes
    (proven least): @f, @g"`."""
    if kept := _KEPT_TEXT.fullmatch(text.data):
        peak, proven, callees = kept.groups()
        file_peak = peak
        calls = ", ".join(str(i) for i in range(len(callees.split(", "))))
    elif match := _SCHEDULE_TEXT.fullmatch(text.data):
        peak, file_peak, proven, callees, calls = match.groups()
    else:
        raise VerifyException(f"{SCHEDULE_ATTR} {text} is not the sentence it was written as")
    return ScheduleAttr(
        int(peak),
        int(file_peak),
        proven == "proven least",
        [int(call) for call in calls.split(", ")],
        [callee.removeprefix("@") for callee in callees.split(", ")],
    )


_RECORDS: dict[str, tuple[type[Attribute], type[Attribute], Callable[[Any], Attribute]]] = {
    PLAN_ATTR: (PlanAttr, DictionaryAttr, plan_record),
    POOLS_ATTR: (PoolSizesAttr, DictionaryAttr, pool_sizes_record),
    IO_OFFSETS_ATTR: (IOOffsetsAttr, DictionaryAttr, io_offsets_record),
    SHARED_CONSTANTS_ATTR: (
        SharedConstantsAttr,
        DictionaryAttr,
        _name_map_record(SharedConstantsAttr),
    ),
    NARROWED_CONSTANTS_ATTR: (
        NarrowedConstantsAttr,
        DictionaryAttr,
        _name_map_record(NarrowedConstantsAttr),
    ),
    STATE_ATTR: (StateAttr, DictionaryAttr, _name_map_record(StateAttr)),
    IN_PLACE_RESULTS_ATTR: (
        InPlaceResultsAttr,
        DictionaryAttr,
        _name_map_record(InPlaceResultsAttr),
    ),
    STATE_VALUES_ATTR: (StateValuesAttr, DictionaryAttr, state_values_record),
    SCHEDULE_ATTR: (ScheduleAttr, StringAttr, schedule_record),
}
"""Each record's typed attribute, the untyped form it had before, and how that is read."""


def typed_records(op: Operation) -> None:
    """Each record passes hand on (`_RECORDS`) on `op` and the ops directly in its regions
    as its typed attribute: one written in the untyped form that came before is converted;
    anything else under those names is a located diagnostic saying what it must be."""
    for holder in (op, *(o for r in op.regions for b in r.blocks for o in b.ops)):
        for key, (record_type, untyped, read) in _RECORDS.items():
            record = holder.attributes.get(key)
            if record is None or isinstance(record, record_type):
                continue
            if not isinstance(record, untyped):
                raise UsmpError(f"{key} must be a #{record_type.name}<...>, got {record}", holder)
            try:
                holder.attributes[key] = read(record)
            except VerifyException as error:
                raise UsmpError(
                    f"{error}; write {key} as #{record_type.name}<...> "
                    "(docs/dialects.md, 'Records passes hand on')",
                    holder,
                ) from error


def io_offset_dictionary(offset: IOOffsetAttr) -> DictionaryAttr:
    """`io_offset_record`'s form, as TVM's attributes carry it."""
    return DictionaryAttr(
        {
            "kind": StringAttr(offset.kind.data),
            "pool": offset.pool,
            "offset": offset.offset,
            "dtype": StringAttr(type_to_dtype(offset.buffer_type.element_type)),
            "shape": ArrayAttr([int_attr(d) for d in offset.shape]),
        }
    )


def io_offsets_dictionary(offsets: IOOffsetsAttr) -> DictionaryAttr:
    """`io_offsets_record`'s form, as TVM's attributes carry it."""
    return DictionaryAttr({n: io_offset_dictionary(o) for n, o in offsets.by_name.items()})
