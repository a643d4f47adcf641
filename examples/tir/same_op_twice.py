"""The same operator, with a workspace, called twice: one offset serves both calls."""

from tvm.script import ir as I
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def smooth(x_ptr: T.handle("float32"), y_ptr: T.handle("float32")):
        T.func_attr({"tirx.noalias": True})
        x = T.decl_buffer((32,), "float32", data=x_ptr)
        y = T.decl_buffer((32,), "float32", data=y_ptr)
        acc = T.alloc_buffer((32,), "float32")
        for i in T.serial(32):
            acc[i] = x[i] + x[T.min(i + 1, 31)]
        for i in T.serial(32):
            y[i] = acc[i] * T.float32(0.5)

    @T.prim_func
    def main(inp: T.Buffer((32,), "float32"), out: T.Buffer((32,), "float32")):
        T.func_attr({"global_symbol": "main", "runner_function": True, "tirx.noalias": True})
        mid = T.alloc_buffer((32,), "float32")
        Module.smooth(inp.data, mid.data)
        Module.smooth(mid.data, out.data)
