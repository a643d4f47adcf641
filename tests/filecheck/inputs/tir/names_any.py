"""A buffer named with a non-ASCII letter, as TVMScript allows (tests/filecheck/translate/
names-any-tvmscript.test)."""

from tvm.script import ir as I
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func
    def main(x: T.Buffer((4,), "float32"), y: T.Buffer((4,), "float32")):
        T.func_attr({"global_symbol": "main"})
        büffer = T.alloc_buffer((4,), "float32")
        for i in range(4):
            büffer[i] = x[i] + T.float32(1)
        for i in range(4):
            y[i] = büffer[i]
