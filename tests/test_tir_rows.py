"""Row operators in TIR (`analysis/tir_rows.py`): the window of input rows an output row
reads, padding, stride and dilation included, and why an operator is not one."""

from __future__ import annotations

import pytest

from usmp_dialect.analysis.tir_entry import prim_funcs
from usmp_dialect.analysis.tir_rows import RowAccess, row_access, row_accesses
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


NCHW_POOL = """
tir.prim_func @pool(%in_ptr: !tir.ptr<f32>, %out_ptr: !tir.ptr<f32>) {
  %in = tir.decl_buffer "in" %in_ptr : !tir.ptr<f32> -> !tir.buffer<1x2x8x4xf32>
  %out = tir.decl_buffer "out" %out_ptr : !tir.ptr<f32> -> !tir.buffer<1x2x4x4xf32>
  %pad = tir.alloc_buffer "pad" : !tir.buffer<1x2x10x4xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c10 = arith.constant 10 : i32
  tir.for %c "c" = %c0 extent %c2 serial : i32 {
    tir.for %y "y" = %c0 extent %c10 serial : i32 {
      tir.for %x "x" = %c0 extent %c4 serial : i32 {
        %r = arith.subi %y, %c1 : i32
        %v = tir.load %in[%c0, {channel}, %r, %x] : f32
        tir.store %v, %pad[%c0, %c, %y, %x]
      }
    }
  }
  tir.for %co "co" = %c0 extent %c2 serial : i32 {
    tir.for %yo "yo" = %c0 extent %c4 serial : i32 {
      tir.for %xo "xo" = %c0 extent %c4 serial : i32 {
        tir.for %k "k" = %c0 extent %c3 serial : i32 {
          %ys = arith.muli %yo, %c2 : i32
          %row = arith.addi %ys, %k : i32
          %p = tir.load %pad[%c0, %co, %row, %xo] : f32
          tir.store %p, %out[%c0, %co, %yo, %xo]
        }
      }
    }
  }
}
"""


def test_an_nchw_operator_of_two_loop_nests_is_banded_along_h():
    """TVM's NCHW pooling: a padded copy, then the pool, each with the channel loop
    outermost. Along H (dim 2), output rows [b, e) read the copy's rows 2b .. 2(e-1)+2,
    so the input's 2b-1 .. 2(e-1)+1; along C (dim 1) it is elementwise."""
    function = prim_funcs(parse_module(NCHW_POOL.replace("{channel}", "%c"), "pool.mlir"))["pool"]
    accesses = row_accesses(function, [0, 1])
    assert isinstance(accesses, list)
    assert [a.dim for a in accesses] == [1, 2]
    along_h = accesses[1]
    assert (along_h.stride, along_h.low, along_h.high) == (2, -1, 1)
    assert [(n.stride, n.low, n.high) for n in along_h.nests] == [(2, 0, 2), (1, 0, 0)]
    assert [n.loop.var_name.data for n in along_h.nests] == ["y", "yo"]
    along_c = accesses[0]
    assert (along_c.stride, along_c.low, along_c.high) == (1, 0, 0)


def test_an_nchw_operator_mixing_channels_is_banded_along_h_only():
    """Reading every channel for each output channel (a convolution's reduction), the
    operator is no row operator along C."""
    text = NCHW_POOL.replace("{channel}", "%c0")
    function = prim_funcs(parse_module(text, "pool.mlir"))["pool"]
    accesses = row_accesses(function, [0, 1])
    assert isinstance(accesses, list)
    assert [a.dim for a in accesses] == [2]
