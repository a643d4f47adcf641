"""The `OfflineMemoryAllocation` metadata TensorFlow Lite Micro reads, written into a
`.tflite` flatbuffer:

    with_offline_plan(data, offsets, path) -> bytes     the file with the plan
    offline_plan(data) -> offsets or None              the plan a file holds

TFLM's format (micro_allocation_info.cc, docs/memory_management.md): a metadata entry named
`OfflineMemoryAllocation` whose buffer holds int32s: the format's version (1), the
subgraph (0), the number of offsets n, then n offsets into the arena's head, one per
tensor of all subgraphs in order, -1 for a tensor TFLM plans at run time.

The file is not re-serialized: its bytes are kept whole and a new root goes in front of
them (flatbuffer offsets are relative and point forward, so the old tables stay valid
behind a prefix whose length is a multiple of 16, which keeps their alignment). The new
root is the old model table with two fields changed: the buffers (the old ones, and the
plan's) and the metadata (the old entries but any earlier plan, then the plan's). An
earlier plan's buffer is reused when no tensor reads it, so that planning a file again
does not grow it by more than the new root.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator

import numpy as np

from usmp_dialect.diagnostics import LocatedError

METADATA_NAME = b"OfflineMemoryAllocation"
FORMAT_VERSION = 1
_HEADER = 3  # version, subgraph, count

# The fields of schema.fbs's Model table, by slot: all 4 bytes wide (a uint or an offset).
_MODEL_SLOTS = 8
_VERSION, _SUBGRAPHS, _BUFFERS, _METADATA = 0, 2, 4, 6
# The fields of a SubGraph table this tool writes: all vectors.
_TENSORS, _INPUTS, _OUTPUTS, _OPERATORS = 0, 1, 2, 3
# An Operator's tensor index vectors.
_OPERATOR_INPUTS, _OPERATOR_OUTPUTS = 1, 2
_ALIGNMENT = 16


def with_offline_plan(data: bytes, offsets: np.ndarray, path: str) -> bytes:
    """The flatbuffer `data` (the file `path`) with `offsets` as its offline plan, in place
    of any plan it held."""
    model = _Table(data, _u32(data, 0))
    if any(model.has(slot) for slot in range(_MODEL_SLOTS, model.num_slots)):
        raise LocatedError(
            "the model table has fields newer than the TFLite schema this tool knows", path
        )
    buffers = model.vector(_BUFFERS)
    _check_buffers_inline(data, buffers, path)
    entries = model.vector(_METADATA)
    kept = [entry for entry in entries if _metadata_name(data, entry) != METADATA_NAME]
    earlier = [_metadata_buffer(data, e) for e in entries if e not in kept]
    # An earlier plan's buffer no tensor and no other metadata entry reads holds ours.
    read = _read_buffers(data) | {_metadata_buffer(data, e) for e in kept}
    reusable = [b for b in earlier if 0 < b < len(buffers) and b not in read]
    plan_index = reusable[0] if reusable else len(buffers)
    prefix = _Prefix(data[4:8] if data[4:8] == b"TFL3" else b"\0\0\0\0")
    root = _model_copy(prefix, model, (_BUFFERS, _METADATA))
    buffer_vector = prefix.vector(max(len(buffers), plan_index + 1))
    metadata_vector = prefix.vector(len(kept) + 1)
    prefix.point(root.field(_BUFFERS), new=buffer_vector)
    prefix.point(root.field(_METADATA), new=metadata_vector)
    for i, old_buffer in enumerate(buffers):
        if i != plan_index:
            prefix.point(buffer_vector + 4 + 4 * i, old=old_buffer)
    for i, old_entry in enumerate(kept):
        prefix.point(metadata_vector + 4 + 4 * i, old=old_entry)
    entry = prefix.table(2, [0, 1])
    prefix.point(metadata_vector + 4 + 4 * len(kept), new=entry.position)
    prefix.point(entry.field(0), new=prefix.string(METADATA_NAME))
    prefix.put_u32(entry.field(1), plan_index)
    buffer = prefix.table(1, [0])
    prefix.point(buffer_vector + 4 + 4 * plan_index, new=buffer.position)
    words = np.concatenate(
        [np.array([FORMAT_VERSION, 0, len(offsets)], dtype="<i4"), offsets.astype("<i4")]
    )
    prefix.point(buffer.field(0), new=prefix.aligned_bytes(words.tobytes()))
    return prefix.finished(data)


def _model_copy(prefix: _Prefix, model: _Table, replaced: tuple[int, ...]) -> _NewTable:
    """The new root: the old model's fields, the `replaced` ones left to fill."""
    present = [s for s in range(_MODEL_SLOTS) if model.has(s) or s in replaced]
    root = prefix.table(_MODEL_SLOTS, present)
    prefix.set_root(root)
    for slot in range(_MODEL_SLOTS):
        if slot == _VERSION and model.has(slot):
            prefix.put_u32(root.field(slot), _u32(model.data, model.field(slot)))
        elif model.has(slot) and slot not in replaced:
            prefix.point(root.field(slot), old=model.target(slot))
    return root


def single_operator_model(
    data: bytes, operator: int, inputs: list[int], outputs: list[int]
) -> bytes:
    """The flatbuffer `data` with operator `operator` of its first subgraph alone, the
    tensors `inputs` and `outputs` its graph's, no offline plan, and every tensor the
    operator does not read or write empty (shape [0]: TFLM allocates nothing for it): TFLM's
    head for it is the operator's tensors and its kernel's scratch buffers."""
    model = _Table(data, _u32(data, 0))
    graph = _Table(data, model.vector(_SUBGRAPHS)[0])
    op = _Table(data, graph.vector(_OPERATORS)[operator])
    used = {i for slot in (_OPERATOR_INPUTS, _OPERATOR_OUTPUTS) for i in op.ints(slot)}
    kept = [e for e in model.vector(_METADATA) if _metadata_name(data, e) != METADATA_NAME]
    prefix = _Prefix(data[4:8] if data[4:8] == b"TFL3" else b"\0\0\0\0")
    root = _model_copy(prefix, model, (_SUBGRAPHS, _METADATA))
    subgraphs, metadata = prefix.vector(1), prefix.vector(len(kept))
    prefix.point(root.field(_SUBGRAPHS), new=subgraphs)
    prefix.point(root.field(_METADATA), new=metadata)
    for i, entry in enumerate(kept):
        prefix.point(metadata + 4 + 4 * i, old=entry)
    alone = prefix.table(4, [_TENSORS, _INPUTS, _OUTPUTS, _OPERATORS])
    prefix.point(subgraphs + 4, new=alone.position)
    old_tensors = graph.vector(_TENSORS)
    tensors = prefix.vector(len(old_tensors))
    prefix.point(alone.field(_TENSORS), new=tensors)
    prefix.point(alone.field(_INPUTS), new=prefix.int_vector(inputs))
    prefix.point(alone.field(_OUTPUTS), new=prefix.int_vector(outputs))
    operators = prefix.vector(1)
    prefix.point(alone.field(_OPERATORS), new=operators)
    prefix.point(operators + 4, old=op.position)
    empty = prefix.table(1, [0])  # a Tensor of shape [0], float32, buffer 0
    prefix.point(empty.field(0), new=prefix.int_vector([0]))
    for i, tensor in enumerate(old_tensors):
        if i in used:
            prefix.point(tensors + 4 + 4 * i, old=tensor)
        else:
            prefix.point(tensors + 4 + 4 * i, new=empty.position)
    return prefix.finished(data)


def offline_plan(data: bytes) -> np.ndarray | None:
    """The offsets of the flatbuffer's offline plan (TFLM reads the last one), or None."""
    model = _Table(data, _u32(data, 0))
    found = None
    buffers = model.vector(_BUFFERS)
    for entry in model.vector(_METADATA):
        if _metadata_name(data, entry) == METADATA_NAME:
            found = _buffer_data(data, buffers[_metadata_buffer(data, entry)])
    if found is None:
        return None
    words = np.frombuffer(found, dtype="<i4")
    return words[_HEADER : _HEADER + int(words[2])]


def _u32(data: bytes, position: int) -> int:
    return struct.unpack_from("<I", data, position)[0]


class _Table:
    """A flatbuffer table of the old file: its fields by slot."""

    def __init__(self, data: bytes, position: int):
        self.data, self.position = data, position
        vtable = position - struct.unpack_from("<i", data, position)[0]
        vtable_size = struct.unpack_from("<H", data, vtable)[0]
        self.num_slots = (vtable_size - 4) // 2
        self.slots = struct.unpack_from(f"<{self.num_slots}H", data, vtable + 4)

    def has(self, slot: int) -> bool:
        return slot < self.num_slots and self.slots[slot] != 0

    def field(self, slot: int) -> int:
        return self.position + self.slots[slot]

    def target(self, slot: int) -> int:
        return self.field(slot) + _u32(self.data, self.field(slot))

    def ints(self, slot: int) -> list[int]:
        """An int32 vector field's values (none when the field is absent)."""
        if not self.has(slot):
            return []
        start = self.target(slot)
        count = _u32(self.data, start)
        return list(struct.unpack_from(f"<{count}i", self.data, start + 4))

    def vector(self, slot: int) -> list[int]:
        """The tables a vector field points to (none when the field is absent)."""
        if not self.has(slot):
            return []
        start = self.target(slot)
        return [
            start + 4 + 4 * i + _u32(self.data, start + 4 + 4 * i)
            for i in range(_u32(self.data, start))
        ]


def _metadata_name(data: bytes, entry: int) -> bytes | None:
    table = _Table(data, entry)
    if not table.has(0):
        return None
    start = table.target(0)
    return data[start + 4 : start + 4 + _u32(data, start)]


def _metadata_buffer(data: bytes, entry: int) -> int:
    table = _Table(data, entry)
    return _u32(data, table.field(1)) if table.has(1) else 0


def _buffer_data(data: bytes, buffer: int) -> bytes:
    table = _Table(data, buffer)
    if not table.has(0):
        return b""
    start = table.target(0)
    return data[start + 4 : start + 4 + _u32(data, start)]


def _check_buffers_inline(data: bytes, buffers: list[int], path: str) -> None:
    """Buffers stored after the flatbuffer (schema `offset`, from the file's start: a model
    over 2 GB) would move with the new root; no model TFLM runs has them."""
    for buffer in buffers:
        table = _Table(data, buffer)
        if table.has(1) and struct.unpack_from("<Q", data, table.field(1))[0] > 1:
            raise LocatedError(
                "the model keeps its weights outside the flatbuffer (buffer offsets): "
                "TFLM cannot run it",
                path,
            )


def _read_buffers(data: bytes) -> set[int]:
    """The buffers some tensor of some subgraph reads."""
    import tflite

    model = tflite.Model.GetRootAsModel(data, 0)
    return {
        graph.Tensors(i).Buffer()
        for graph in _subgraphs(model)
        for i in range(graph.TensorsLength())
    }


def _subgraphs(model: object) -> Iterator:
    for k in range(model.SubgraphsLength()):  # type: ignore[attr-defined]
        yield model.Subgraphs(k)  # type: ignore[attr-defined]


class _NewTable:
    def __init__(self, position: int, fields: dict[int, int]):
        self.position, self._fields = position, fields

    def field(self, slot: int) -> int:
        return self._fields[slot]


class _Prefix:
    """The bytes in front of the old file, built front to back. A pointer is written once
    the prefix's length, and so where the old file starts, is known."""

    def __init__(self, identifier: bytes):
        self.bytes = bytearray(4) + bytearray(identifier)
        self.pointers: list[tuple[int, int, bool]] = []  # (field, target, into the old file)

    def _align(self, alignment: int, before: int = 0) -> None:
        """Pads so that `before` bytes on, the prefix's length is a multiple."""
        self.bytes += bytes(-(len(self.bytes) + before) % alignment)

    def put_u32(self, position: int, value: int) -> None:
        struct.pack_into("<I", self.bytes, position, value)

    def point(self, field: int, old: int | None = None, new: int | None = None) -> None:
        target = old if old is not None else new
        assert target is not None
        self.pointers.append((field, target, old is not None))

    def set_root(self, table: _NewTable) -> None:
        self.point(0, new=table.position)

    def table(self, num_slots: int, present: list[int]) -> _NewTable:
        """A table of 4-byte fields in the slots `present`, its vtable just before it."""
        self._align(2)
        vtable = len(self.bytes)
        fields = {slot: 4 + 4 * n for n, slot in enumerate(present)}
        entries = [fields.get(slot, 0) for slot in range(num_slots)]
        self.bytes += struct.pack(
            f"<HH{num_slots}H", 4 + 2 * num_slots, 4 + 4 * len(present), *entries
        )
        self._align(4)
        position = len(self.bytes)
        self.bytes += struct.pack("<i", position - vtable) + bytes(4 * len(present))
        return _NewTable(position, {slot: position + at for slot, at in fields.items()})

    def vector(self, length: int) -> int:
        self._align(4)
        position = len(self.bytes)
        self.bytes += struct.pack("<I", length) + bytes(4 * length)
        return position

    def int_vector(self, values: list[int]) -> int:
        self._align(4)
        position = len(self.bytes)
        self.bytes += struct.pack(f"<I{len(values)}i", len(values), *values)
        return position

    def string(self, text: bytes) -> int:
        self._align(4)
        position = len(self.bytes)
        self.bytes += struct.pack("<I", len(text)) + text + b"\0"
        return position

    def aligned_bytes(self, payload: bytes) -> int:
        """A [ubyte] vector whose bytes start at a multiple of 16 (schema: force_align)."""
        self._align(_ALIGNMENT, before=4)
        position = len(self.bytes)
        self.bytes += struct.pack("<I", len(payload)) + payload
        return position

    def finished(self, old: bytes) -> bytes:
        self._align(_ALIGNMENT)
        start = len(self.bytes)
        for field, target, into_old in self.pointers:
            self.put_u32(field, target + (start if into_old else 0) - field)
        return bytes(self.bytes) + old
