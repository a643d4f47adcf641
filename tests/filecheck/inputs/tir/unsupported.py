from tvm.script import tirx as T


@T.prim_func
def f(n: T.int32, p: T.handle("float32")):
    a = T.decl_buffer((n,), "float32", data=p)
    a[0] = T.float32(1)
