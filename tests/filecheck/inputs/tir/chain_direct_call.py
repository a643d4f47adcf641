"""Two operators chained through `sid`, called directly as TVM 0.27 calls them:
`Module.op(a.data, b.data)`. Same program as
chain_call_extern.py."""

from tvm.script import ir as I
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def op(a: T.handle, b: T.handle):
        A = T.decl_buffer((16,), "float32", data=a)
        B = T.decl_buffer((16,), "float32", data=b)
        work = T.alloc_buffer((16,), "float32")
        for i in range(16):
            work[i] = A[i] * T.float32(2)
        for i in range(16):
            B[i] = work[i]

    @T.prim_func
    def __tvm_main__(input: T.handle, output: T.handle):
        x = T.decl_buffer((16,), "float32", data=input)
        y = T.decl_buffer((16,), "float32", data=output)
        sid = T.alloc_buffer((16,), "float32")
        Module.op(x.data, sid.data)
        Module.op(sid.data, y.data)
