"""Row operators in TIR (`analysis/tir_rows.py`): the window of input rows an output row
reads, padding, stride and dilation included, and why an operator is not one."""

from __future__ import annotations

import pytest

from usmp_dialect.analysis.tir_entry import prim_funcs
from usmp_dialect.analysis.tir_rows import RowAccess, row_access
from usmp_dialect.parsing import parse_module

OPERATOR = """
tir.prim_func @op(%in_ptr: !tir.ptr<i8>, %w_ptr: !tir.ptr<i8>, %out_ptr: !tir.ptr<i8>) {{
  %in = tir.decl_buffer "in" %in_ptr : !tir.ptr<i8> -> !tir.buffer<1x16x4x2xi8>
  %w = tir.decl_buffer "w" %w_ptr : !tir.ptr<i8> -> !tir.buffer<3xi8>
  %out = tir.decl_buffer "out" %out_ptr : !tir.ptr<i8> -> !tir.buffer<1x{rows}x4x2xi8>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %cs = arith.constant {stride} : i32
  %cd = arith.constant {dilation} : i32
  %cp = arith.constant {pad} : i32
  %crows = arith.constant {rows} : i32
  tir.for %y "y" = %c0 extent %crows serial : i32 {{
    tir.for %k "k" = %c0 extent %c3 serial : i32 {{
      %ys = arith.muli %y, %cs : i32
      %kd = arith.muli %k, %cd : i32
      %sum = arith.addi %ys, %kd : i32
      %row = arith.subi %sum, %cp : i32
      %read = {read}
      %v = tir.load %in[%c0, %read, %c1, %c1] : i8
      %wk = tir.load %w[%k] : i8
      %p = arith.muli %v, %wk : i8
      tir.store %p, %out[%c0, {write}, %c1, %c1]
    }}
  }}
}}
"""


def _access(
    rows: int = 16,
    stride: int = 1,
    dilation: int = 1,
    pad: int = 1,
    read: str = "arith.addi %row, %c0 : i32",
    write: str = "%y",
) -> RowAccess | str:
    text = OPERATOR.format(
        rows=rows, stride=stride, dilation=dilation, pad=pad, read=read, write=write
    )
    function = prim_funcs(parse_module(text, "op.mlir"))["op"]
    return row_access(function, [0, 2])


@pytest.mark.parametrize(
    ("stride", "dilation", "pad", "window"),
    [(1, 1, 1, (1, -1, 1)), (2, 1, 0, (2, 0, 2)), (1, 2, 2, (1, -2, 2)), (2, 3, 0, (2, 0, 6))],
)
def test_the_window_of_a_row_follows_stride_dilation_and_padding(stride, dilation, pad, window):
    rows = 16 // stride
    access = _access(rows, stride, dilation, pad)
    assert isinstance(access, RowAccess)
    assert (access.stride, access.low, access.high) == window
    assert (access.input, access.output) == (0, 2)


@pytest.mark.parametrize(
    ("read", "write", "reason"),
    [
        ("arith.muli %row, %k : i32", "%y", "not an affine function of its loops"),
        ("arith.floordivsi %row, %c2 : i32", "%y", "depend on more than its loops"),
        ("arith.addi %k, %c0 : i32", "%y", "independently of its output's row"),
        ("arith.addi %row, %c0 : i32", "%c0", "at a row other than its loop's"),
    ],
)
def test_an_operator_that_is_not_a_row_operator_says_why(read, write, reason):
    access = _access(read=read, write=write)
    assert isinstance(access, str) and reason in access


def test_a_buffer_shared_by_rows_keeps_an_operator_whole():
    """A scratch buffer allocated once per call may carry values from row to row: a call
    per band would start it afresh."""
    text = OPERATOR.format(
        rows=16, stride=1, dilation=1, pad=1, read="arith.addi %row, %c0 : i32", write="%y"
    ).replace(
        "  %c0 = arith.constant 0 : i32\n",
        '  %c0 = arith.constant 0 : i32\n  %carry = tir.alloc_buffer "carry" : !tir.buffer<1xi8>\n',
        1,
    )
    function = prim_funcs(parse_module(text, "op.mlir"))["op"]
    access = row_access(function, [0, 2])
    assert isinstance(access, str) and "outside its loop over rows" in access
