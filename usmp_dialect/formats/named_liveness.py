"""The older form of `usmp.liveness`, which named its buffers, read into today's.

Before, one op held every buffer's intervals under its `buffer_name`:

```mlir
usmp.liveness {
  "a" [0, 5) [7, 9)
  "b" [3, 8) conflicts("a")
}
```

(in generic form, its properties `buffers`, `interval_owners`, `interval_starts`,
`interval_ends` and `conflict_pairs`). Now each `usmp.alloc_offset` carries its own
intervals and lists the earlier buffers it conflicts with, and `usmp.liveness` says no
more than that they are known. Reading a file upgrades it: each named buffer's intervals
go to its op, each conflict to the later op of the pair. This is the one place a name finds
its buffer, since the older text had nothing else to go by.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.irdl.operations import VerificationContext
from xdsl.utils.exceptions import VerifyException

from usmp_dialect.diagnostics import LocatedError, location_prefix
from usmp_dialect.dialects.usmp import (
    LivenessOp,
    module_allocs,
)
from usmp_dialect.dialects.usmp_syntax import I64_ARRAY, NAMED_LIVENESS_PROPERTIES, live_by_buffer
from usmp_dialect.xdsl_compat import block_ops


def upgrade_named_liveness(module: ModuleOp, file_name: str) -> None:
    """Moves what each top-level `usmp.liveness` of the older form holds onto the
    module's `usmp.alloc_offset`s; a fault in it is a `LocatedError` at the op."""
    for op in block_ops(module.body.block):
        if type(op) is LivenessOp and op.properties:
            try:
                _upgrade(module, op)
            except VerifyException as error:
                raise LocatedError(str(error), location_prefix(op, file_name)) from None


def _upgrade(module: ModuleOp, liveness: LivenessOp) -> None:
    names, (owners, starts, ends, pairs) = _named_arrays(liveness)
    if len(set(names)) != len(names):
        duplicate = next(n for n in names if names.count(n) > 1)
        raise VerifyException(f"buffer '{duplicate}' is listed twice")
    if not len(owners) == len(starts) == len(ends):
        raise VerifyException("interval arrays must have the same length")
    if len(pairs) % 2:
        raise VerifyException("conflict_pairs must hold pairs")
    for index in (owners, pairs):
        if len(index) and (index.min() < 0 or index.max() >= len(names)):
            raise VerifyException("a buffer index is out of range")
    allocs = module_allocs(module)
    by_name = {op.buffer_name.data: op for op in allocs}
    for name in names:
        if name not in by_name:
            raise VerifyException(
                f"liveness names buffer '{name}' that no usmp.alloc_offset defines"
            )
    listed = set(names)
    for op in allocs:
        if op.buffer_name.data not in listed:
            raise VerifyException(f"buffer '{op.buffer_name.data}' has no entry in usmp.liveness")
    ops = [by_name[name] for name in names]
    for op, live in zip(ops, live_by_buffer(len(names), owners, starts, ends), strict=True):
        op.set_live(live)
    order = {id(op): i for i, op in enumerate(allocs)}
    for i, j in pairs.reshape(-1, 2).tolist():
        earlier, later = sorted((ops[i], ops[j]), key=lambda op: order[id(op)])
        later.add_conflict(earlier)
    liveness.properties.clear()


def _named_arrays(liveness: LivenessOp) -> tuple[list[str], list[np.ndarray]]:
    """The older form's properties, each checked to be what it was declared as."""
    properties: dict[str, Any] = liveness.properties
    for name in NAMED_LIVENESS_PROPERTIES:
        if name not in properties:
            raise VerifyException(f"property '{name}' expected in operation 'usmp.liveness'")
    unknown = properties.keys() - set(NAMED_LIVENESS_PROPERTIES)
    if unknown:
        raise VerifyException(f"unknown property '{min(unknown)}' of usmp.liveness")
    buffers = properties["buffers"]
    if not isinstance(buffers, ArrayAttr) or not all(
        isinstance(name, StringAttr) for name in buffers.data
    ):
        raise VerifyException("usmp.liveness buffers must be an array of strings")
    arrays = []
    for name in NAMED_LIVENESS_PROPERTIES[1:]:
        I64_ARRAY.verify(properties[name], VerificationContext())
        arrays.append(np.frombuffer(properties[name].data.data, dtype=np.int64))
    return [name.data for name in buffers.data], arrays
