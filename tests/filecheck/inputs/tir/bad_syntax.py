from tvm.script import tirx as T


@T.prim_func
def f(a: T.Buffer((4,), "float32")):
    a[0] = T.no_such_intrinsic(1)
