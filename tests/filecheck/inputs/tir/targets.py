"""Functions for two targets, each named in TIR's own `target` attribute: the operator
`conv` (with its workspace `padded`) runs on "c", the entry (with the intermediates `t0`
and `t1`) on "llvm"; `scale` and `relu` have no target."""

from tvm.script import ir as I
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def scale(x_ptr: T.handle("float32"), y_ptr: T.handle("float32")):
        T.func_attr({"tirx.noalias": True})
        x = T.decl_buffer((16,), "float32", data=x_ptr)
        y = T.decl_buffer((16,), "float32", data=y_ptr)
        for i in T.serial(16):
            y[i] = x[i] * T.float32(2)

    @T.prim_func(private=True)
    def conv(x_ptr: T.handle("float32"), y_ptr: T.handle("float32")):
        T.func_attr({"target": T.target("c"), "tirx.noalias": True})
        x = T.decl_buffer((16,), "float32", data=x_ptr)
        y = T.decl_buffer((16,), "float32", data=y_ptr)
        padded = T.alloc_buffer((18,), "float32")
        for i in T.serial(18):
            padded[i] = T.if_then_else(i >= 1 and i < 17, x[i - 1], T.float32(0))
        for i in T.serial(16):
            y[i] = padded[i] + padded[i + 1] + padded[i + 2]

    @T.prim_func(private=True)
    def relu(x_ptr: T.handle("float32"), y_ptr: T.handle("float32")):
        T.func_attr({"tirx.noalias": True})
        x = T.decl_buffer((16,), "float32", data=x_ptr)
        y = T.decl_buffer((16,), "float32", data=y_ptr)
        for i in T.serial(16):
            y[i] = T.max(x[i], T.float32(0))

    @T.prim_func
    def main(inp: T.Buffer((16,), "float32"), out: T.Buffer((16,), "float32")):
        T.func_attr(
            {
                "global_symbol": "main",
                "runner_function": True,
                "target": T.target({"kind": "llvm", "mcpu": "generic"}),
                "tirx.noalias": True,
            }
        )
        t0 = T.alloc_buffer((16,), "float32")
        t1 = T.alloc_buffer((16,), "float32")
        Module.scale(inp.data, t0.data)
        Module.conv(t0.data, t1.data)
        Module.relu(t1.data, out.data)
