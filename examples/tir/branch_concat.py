"""A branch and a concat: `inp` feeds two operators whose outputs are concatenated."""

from tvm.script import ir as I
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_one(x_ptr: T.handle("float32"), y_ptr: T.handle("float32")):
        T.func_attr({"tirx.noalias": True})
        x = T.decl_buffer((8,), "float32", data=x_ptr)
        y = T.decl_buffer((8,), "float32", data=y_ptr)
        for i in T.serial(8):
            y[i] = x[i] + T.float32(1)

    @T.prim_func(private=True)
    def square(x_ptr: T.handle("float32"), y_ptr: T.handle("float32")):
        T.func_attr({"tirx.noalias": True})
        x = T.decl_buffer((8,), "float32", data=x_ptr)
        y = T.decl_buffer((8,), "float32", data=y_ptr)
        for i in T.serial(8):
            y[i] = x[i] * x[i]

    @T.prim_func(private=True)
    def concat(a_ptr: T.handle("float32"), b_ptr: T.handle("float32"), y_ptr: T.handle("float32")):
        T.func_attr({"tirx.noalias": True})
        a = T.decl_buffer((8,), "float32", data=a_ptr)
        b = T.decl_buffer((8,), "float32", data=b_ptr)
        y = T.decl_buffer((16,), "float32", data=y_ptr)
        for i in T.serial(16):
            y[i] = T.if_then_else(i < 8, a[T.min(i, 7)], b[T.max(i - 8, 0)])

    @T.prim_func
    def main(inp: T.Buffer((8,), "float32"), out: T.Buffer((16,), "float32")):
        T.func_attr({"global_symbol": "main", "runner_function": True, "tirx.noalias": True})
        left = T.alloc_buffer((8,), "float32")
        right = T.alloc_buffer((8,), "float32")
        Module.add_one(inp.data, left.data)
        Module.square(inp.data, right.data)
        Module.concat(left.data, right.data, out.data)
