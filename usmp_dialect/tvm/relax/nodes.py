"""TVM nodes found by type.

nodes_of(kind, node) -> [node]     every node of type `kind` in `node`, in program order
"""

from __future__ import annotations

from typing import Any

import tvm
import tvm_ffi


def nodes_of(kind: Any, node: Any) -> list[Any]:
    """Every TVM node of type `kind` in `node`, in program order (types not entered)."""
    found: list[Any] = []
    tvm_ffi.structural_walk(
        node,
        [(tvm.ir.Type, lambda _: tvm_ffi.WalkResult.SKIP), (kind, found.append)],
        order="pre",
    )
    return found
