"""Results written over inputs that die: `tir-in-place-results` on a chain.

`scale` (y[i] = 2 x[i]) and `relu` read each element of their input only to write the
same element of their output, and `add` each element of either operand: each may write
its result over an input that dies there. `shift` (y[i] = x[(i + 1) % 16]) reads another
element than it writes, and `accumulate` writes each element twice: neither may.

    inp -> scale -> s -> shift -> h -> relu -> r -> accumulate -> a -> add(a, s) -> total
    total -> relu -> out

`usmp-opt --plan-pools` (whose `tir-in-place-results` runs before `tir-to-usmp`) writes
`r` over `h` and `total` over `a` (`s` is read after the add); `--no-in-place` gives each
its own bytes.
"""

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
    def shift(x_ptr: T.handle("float32"), y_ptr: T.handle("float32")):
        T.func_attr({"tirx.noalias": True})
        x = T.decl_buffer((16,), "float32", data=x_ptr)
        y = T.decl_buffer((16,), "float32", data=y_ptr)
        for i in T.serial(16):
            y[i] = x[(i + 1) % 16]

    @T.prim_func(private=True)
    def relu(x_ptr: T.handle("float32"), y_ptr: T.handle("float32")):
        T.func_attr({"tirx.noalias": True})
        x = T.decl_buffer((16,), "float32", data=x_ptr)
        y = T.decl_buffer((16,), "float32", data=y_ptr)
        for i in T.serial(16):
            y[i] = T.max(x[i], T.float32(0))

    @T.prim_func(private=True)
    def accumulate(x_ptr: T.handle("float32"), y_ptr: T.handle("float32")):
        T.func_attr({"tirx.noalias": True})
        x = T.decl_buffer((16,), "float32", data=x_ptr)
        y = T.decl_buffer((16,), "float32", data=y_ptr)
        for i in T.serial(16):
            y[i] = T.float32(1)
            y[i] = y[i] + x[i]

    @T.prim_func(private=True)
    def add(a_ptr: T.handle("float32"), b_ptr: T.handle("float32"), y_ptr: T.handle("float32")):
        T.func_attr({"tirx.noalias": True})
        a = T.decl_buffer((16,), "float32", data=a_ptr)
        b = T.decl_buffer((16,), "float32", data=b_ptr)
        y = T.decl_buffer((16,), "float32", data=y_ptr)
        for i in T.serial(16):
            y[i] = a[i] + b[i]

    @T.prim_func
    def main(inp: T.Buffer((16,), "float32"), out: T.Buffer((16,), "float32")):
        T.func_attr({"global_symbol": "main", "runner_function": True, "tirx.noalias": True})
        s = T.alloc_buffer((16,), "float32")
        h = T.alloc_buffer((16,), "float32")
        r = T.alloc_buffer((16,), "float32")
        a = T.alloc_buffer((16,), "float32")
        total = T.alloc_buffer((16,), "float32")
        Module.scale(inp.data, s.data)
        Module.shift(s.data, h.data)
        Module.relu(h.data, r.data)
        Module.accumulate(r.data, a.data)
        Module.add(a.data, s.data, total.data)
        Module.relu(total.data, out.data)
