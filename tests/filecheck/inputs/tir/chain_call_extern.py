"""Two operators chained through `sid`, called as TVM's own USMP tests call them:
`T.evaluate(T.call_extern("op", a.data, b.data, dtype="int32"))`. Same program as
chain_direct_call.py."""

from tvm.script import ir as I
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func
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
        T.evaluate(T.call_extern("op", x.data, sid.data, dtype="int32"))
        T.evaluate(T.call_extern("op", sid.data, y.data, dtype="int32"))
