"""The memory traffic each buffer serves: the bytes the entry's calls read and write of it.

A first model, from the IR alone: every call that takes the buffer (directly, or through
the values derived from it: `tir.buffer_data`, views, casts) reads or writes all of it
once, so a buffer's traffic is its size times the number of distinct calls using it. An
intermediate between two operators weighs twice its size; a buffer no call takes (a
CSV's, an operator's own loop) weighs its size once. Loops inside an operator that read a
buffer many times are not counted: the calls are what the planner sees.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from usmp_dialect.dialects.usmp import AllocOffsetOp


def is_call(name: str) -> bool:
    """`tir.call`, `func.call`, TVM's extern and packed calls; not `tir.call_intrin`
    (arithmetic on values, not a buffer handed over)."""
    return name.endswith(".call") or "call_extern" in name or "call_packed" in name


def calls_using(op: AllocOffsetOp) -> int:
    """The distinct calls that take the buffer or a value derived from it."""
    seen: set[int] = set()
    calls = 0
    pending = list(op.results)
    while pending:
        value = pending.pop()
        for use in value.uses:
            user = use.operation
            if id(user) in seen:
                continue
            seen.add(id(user))
            if is_call(user.name):
                calls += 1
            else:
                pending.extend(user.results)
    return calls


def buffer_traffic(allocs: Sequence[AllocOffsetOp], sizes: Sequence[int]) -> np.ndarray:
    """Per buffer, the bytes the calls read and write of it (at least its size once)."""
    return np.array(
        [max(calls_using(op), 1) * int(size) for op, size in zip(allocs, sizes, strict=True)],
        dtype=np.int64,
    )
