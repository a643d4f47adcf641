"""Constants of equal bytes read from one buffer.

    SharedConstants().read(constant) -> the constant an operator reads in its place
    list(shared)                     -> the distinct constants, in the order first read
    shared.merged()                  -> (constant, the one read in its place), each not distinct

A model can hold one tensor twice (microWakeWord's detectors hold two all-zero int32
biases of 32 channels), and folding can compute two equal ones: a constant of the dtype
and bytes of one read before it is read from that one's buffer, under that one's name, so
the constant pool holds its bytes once. Operators take a constant's data pointer, so one of
another shape with those bytes reads the same elements in the same order. An application
overriding the constant by name then overrides every operator reading it; the entry
records the name of each one stored with another (`usmp.shared_constants`), so overriding
it is told which name to override instead. Told not to merge (`--constant-storage=file`),
each constant keeps bytes of its own, which an application can override alone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any


class SharedConstants:
    """The constant tensors operators read, each distinct in dtype and bytes (or, unless
    `merge_equal`, each distinct)."""

    def __init__(self, merge_equal: bool = True) -> None:
        self._merge_equal = merge_equal
        self._distinct: list[Any] = []
        self._read: dict[Any, Any] = {}  # a constant read -> the one read in its place
        self._by_digest: dict[tuple[str, str], list[Any]] = {}

    def read(self, constant: Any) -> Any:
        """The constant an operator reading `constant` reads: the first read of its
        dtype and bytes."""
        if constant in self._read:
            return self._read[constant]
        array = constant.value.numpy()
        data = array.tobytes()
        key = (str(array.dtype), hashlib.blake2b(data, digest_size=16).hexdigest())
        alike = self._by_digest.setdefault(key, [])
        equal = (c for c in alike if c.value.numpy().tobytes() == data)
        first = next(equal, None) if self._merge_equal else None
        if first is None:
            first = constant
            alike.append(constant)
            self._distinct.append(constant)
        self._read[constant] = first
        return first

    def __iter__(self) -> Iterator[Any]:
        return iter(self._distinct)

    def merged(self) -> Iterator[tuple[Any, Any]]:
        return ((read, first) for read, first in self._read.items() if read is not first)
