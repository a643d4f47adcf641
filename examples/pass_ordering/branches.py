"""Two branches off one input, each a wide operator and a narrowing one, joined at the
end: `inp` (16 floats) feeds `wide_a` and `wide_b` (64 floats each), which `narrow_a` and
`narrow_b` sum to 4 floats each; `out` adds the two.

The file runs both wide operators first, so both 256-byte tensors are live at once; run
each branch to its narrow end before starting the other and only one is
(`usmp-opt --plan-pools`, whose first pass is `tir-reorder-for-memory`).
"""

from tvm.script import ir as I
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def widen(x_ptr: T.handle("float32"), y_ptr: T.handle("float32"), scale: T.float32):
        T.func_attr({"tirx.noalias": True})
        x = T.decl_buffer((16,), "float32", data=x_ptr)
        y = T.decl_buffer((64,), "float32", data=y_ptr)
        for i in T.serial(64):
            y[i] = x[i % 16] * scale + T.Cast("float32", i)

    @T.prim_func(private=True)
    def narrow(x_ptr: T.handle("float32"), y_ptr: T.handle("float32")):
        T.func_attr({"tirx.noalias": True})
        x = T.decl_buffer((64,), "float32", data=x_ptr)
        y = T.decl_buffer((4,), "float32", data=y_ptr)
        for i in T.serial(4):
            y[i] = T.float32(0)
            for k in T.serial(16):
                y[i] = y[i] + x[i * 16 + k]

    @T.prim_func(private=True)
    def add(a_ptr: T.handle("float32"), b_ptr: T.handle("float32"), y_ptr: T.handle("float32")):
        T.func_attr({"tirx.noalias": True})
        a = T.decl_buffer((4,), "float32", data=a_ptr)
        b = T.decl_buffer((4,), "float32", data=b_ptr)
        y = T.decl_buffer((4,), "float32", data=y_ptr)
        for i in T.serial(4):
            y[i] = a[i] + b[i]

    @T.prim_func
    def main(inp: T.Buffer((16,), "float32"), out: T.Buffer((4,), "float32")):
        T.func_attr({"global_symbol": "main", "runner_function": True, "tirx.noalias": True})
        wide_a = T.alloc_buffer((64,), "float32")
        wide_b = T.alloc_buffer((64,), "float32")
        narrow_a = T.alloc_buffer((4,), "float32")
        narrow_b = T.alloc_buffer((4,), "float32")
        Module.widen(inp.data, wide_a.data, T.float32(2))
        Module.widen(inp.data, wide_b.data, T.float32(-1))
        Module.narrow(wide_a.data, narrow_a.data)
        Module.narrow(wide_b.data, narrow_b.data)
        Module.add(narrow_a.data, narrow_b.data, out.data)
