"""A dense layer and a bias in TVM's legacy AOT form: the entry reads its weights with
`T.lookup_param`, which only a runtime holding the params could answer. Imported with the
params' arrays, they become constants `w` and `b` that a constant pool holds:

    usmp-translate --import-tvmscript lookup_param.py --params lookup_param.npz

`lookup_param.npz` holds `w = ((np.arange(32).reshape(4, 8) % 5 - 2) / 4)` and
`b = [0.5, -1, 0.25, 0]`, both float32 (`np.savez`); `out = relu(w @ inp + b)`.
"""

from tvm.script import ir as I
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def dense(x_ptr: T.handle("float32"), w_ptr: T.handle("float32"), y_ptr: T.handle("float32")):
        T.func_attr({"tirx.noalias": True})
        x = T.decl_buffer((8,), "float32", data=x_ptr)
        w = T.decl_buffer((4, 8), "float32", data=w_ptr)
        y = T.decl_buffer((4,), "float32", data=y_ptr)
        for i in T.serial(4):
            y[i] = T.float32(0)
            for k in T.serial(8):
                y[i] = y[i] + x[k] * w[i, k]

    @T.prim_func(private=True)
    def add_relu(
        x_ptr: T.handle("float32"), b_ptr: T.handle("float32"), y_ptr: T.handle("float32")
    ):
        T.func_attr({"tirx.noalias": True})
        x = T.decl_buffer((4,), "float32", data=x_ptr)
        b = T.decl_buffer((4,), "float32", data=b_ptr)
        y = T.decl_buffer((4,), "float32", data=y_ptr)
        for i in T.serial(4):
            y[i] = T.max(x[i] + b[i], T.float32(0))

    @T.prim_func
    def main(inp: T.Buffer((8,), "float32"), out: T.Buffer((4,), "float32")):
        T.func_attr({"global_symbol": "main", "runner_function": True, "tirx.noalias": True})
        t0 = T.alloc_buffer((4,), "float32")
        Module.dense(inp.data, T.lookup_param("w", dtype="handle"), t0.data)
        Module.add_relu(t0.data, T.lookup_param("b", dtype="handle"), out.data)
