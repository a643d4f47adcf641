"""`memref-to-usmp`'s liveness on IR built in Python, which no parser checked: a buffer
used before its `memref.alloc` is a diagnostic at the use, not a plan."""

from __future__ import annotations

import pytest
from xdsl.dialects import memref

from usmp_dialect.analysis.memref_liveness import program_liveness
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.parsing import parse_module

LOAD_AFTER_ALLOC = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %t = memref.alloc() : memref<4xf32>
  %v = memref.load %t[%c0] : memref<4xf32>
  memref.store %v, %t[%c0] : memref<4xf32>
  func.return
}
"""


def test_a_buffer_read_before_its_alloc_is_named_at_the_use():
    module = parse_module(LOAD_AFTER_ALLOC, "built.mlir")
    alloc = next(op for op in module.walk() if isinstance(op, memref.AllocOp))
    load = next(op for op in module.walk() if isinstance(op, memref.LoadOp))
    alloc.detach()
    load.parent_block().insert_op_after(alloc, load)  # the load now comes first

    with pytest.raises(
        UsmpError, match=r"buffer %t is used before its memref\.alloc defines it"
    ) as error:
        program_liveness(module)
    assert error.value.op is load
