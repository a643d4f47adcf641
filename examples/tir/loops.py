"""Allocations inside loops of each kind: serial ones can be planned, an allocation with a
parallel, vectorized or unrolled loop around it stays dynamic."""

from tvm.script import ir as I
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def kernel(x_ptr: T.handle("float32"), y_ptr: T.handle("float32")):
        T.func_attr({"tirx.noalias": True})
        x = T.decl_buffer((4, 8), "float32", data=x_ptr)
        y = T.decl_buffer((4, 8), "float32", data=y_ptr)
        for i in T.serial(4):
            row = T.alloc_buffer((8,), "float32")
            for j in T.vectorized(8):
                row[j] = x[i, j] * T.float32(3)
            for j in T.unroll(8):
                y[i, j] = row[j]
        for i in T.parallel(4):
            tmp = T.alloc_buffer((8,), "float32")
            for j in T.serial(8):
                tmp[j] = y[i, j] + T.float32(1)
            for j in T.serial(8):
                y[i, j] = tmp[j]
        for i in T.unroll(2):
            pair = T.alloc_buffer((2,), "float32")
            pair[0] = y[i, 0]
            pair[1] = y[i, 1]
            y[i, 0] = pair[1]
            y[i, 1] = pair[0]

    @T.prim_func
    def main(inp: T.Buffer((4, 8), "float32"), out: T.Buffer((4, 8), "float32")):
        T.func_attr({"global_symbol": "main", "runner_function": True, "tirx.noalias": True})
        mid = T.alloc_buffer((4, 8), "float32")
        for k in T.serial(2):
            scratch = T.alloc_buffer((4, 8), "float32")
            if k == 0:
                Module.kernel(inp.data, scratch.data)
            else:
                Module.kernel(mid.data, scratch.data)
            for i, j in T.grid(4, 8):
                mid[i, j] = scratch[i, j]
        Module.kernel(mid.data, out.data)
