"""A diamond whose top and join call the same operator, `add_halves`, which needs a
workspace: `a` forks into `b` and `c`, which join into `out`.

Planned the TVM way (`--plan-pools --no-in-place`), `add_halves`' workspace is one buffer with an
interval at each call: it conflicts with `a` (first call) and with `b` and `c` (second
call), so the four buffers take 64 bytes although at most 48 are ever live together.
With `tir-hoist-workspaces` first, each call allocates its own workspace and the pool is
48 bytes, the max-live bound. See the README's "Pass ordering".
"""

from tvm.script import ir as I
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_halves(
        x_ptr: T.handle("float32"), y_ptr: T.handle("float32"), z_ptr: T.handle("float32")
    ):
        T.func_attr({"tirx.noalias": True})
        x = T.decl_buffer((4,), "float32", data=x_ptr)
        y = T.decl_buffer((4,), "float32", data=y_ptr)
        z = T.decl_buffer((4,), "float32", data=z_ptr)
        ws = T.alloc_buffer((4,), "float32")
        for i in T.serial(4):
            ws[i] = x[i] + y[i]
        for i in T.serial(4):
            z[i] = ws[i] * T.float32(0.5)

    @T.prim_func(private=True)
    def scale(x_ptr: T.handle("float32"), y_ptr: T.handle("float32")):
        T.func_attr({"tirx.noalias": True})
        x = T.decl_buffer((4,), "float32", data=x_ptr)
        y = T.decl_buffer((4,), "float32", data=y_ptr)
        for i in T.serial(4):
            y[i] = x[i] * T.float32(3)

    @T.prim_func(private=True)
    def shift(x_ptr: T.handle("float32"), y_ptr: T.handle("float32")):
        T.func_attr({"tirx.noalias": True})
        x = T.decl_buffer((4,), "float32", data=x_ptr)
        y = T.decl_buffer((4,), "float32", data=y_ptr)
        for i in T.serial(4):
            y[i] = x[i] + T.float32(1)

    @T.prim_func
    def main(inp: T.Buffer((4,), "float32"), out: T.Buffer((4,), "float32")):
        T.func_attr({"global_symbol": "main", "runner_function": True, "tirx.noalias": True})
        a = T.alloc_buffer((4,), "float32")
        b = T.alloc_buffer((4,), "float32")
        c = T.alloc_buffer((4,), "float32")
        Module.add_halves(inp.data, inp.data, a.data)
        Module.scale(a.data, b.data)
        Module.shift(a.data, c.data)
        Module.add_halves(b.data, c.data, out.data)
