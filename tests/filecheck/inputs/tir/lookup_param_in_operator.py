"""An operator, not the entry, reads a param with T.lookup_param: --params cannot bind it."""

from tvm.script import ir as I
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_bias(x_ptr: T.handle("float32"), y_ptr: T.handle("float32")):
        x = T.decl_buffer((4,), "float32", data=x_ptr)
        y = T.decl_buffer((4,), "float32", data=y_ptr)
        b = T.decl_buffer((4,), "float32", data=T.lookup_param("b", dtype="handle"))
        for i in T.serial(4):
            y[i] = x[i] + b[i]

    @T.prim_func
    def main(inp: T.Buffer((4,), "float32"), out: T.Buffer((4,), "float32")):
        T.func_attr({"runner_function": True})
        Module.add_bias(inp.data, out.data)
