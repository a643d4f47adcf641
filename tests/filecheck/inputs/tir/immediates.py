# Immediates whose value a float32 or int64 in between would change: TVM keeps a FloatImm's
# value as a double (T.float32(0.001) is 0.001), whatever its dtype.
from tvm.script import tirx as T


@T.prim_func
def main(
    a: T.Buffer((4,), "float32"),
    h: T.Buffer((4,), "float16"),
    b: T.Buffer((4,), "bfloat16"),
    i: T.Buffer((4,), "int64"),
    u: T.Buffer((4,), "uint64"),
):
    T.func_attr({"global_symbol": "main"})
    a[0] = T.float32(0.001)
    a[1] = T.float32(0.5)
    a[2] = a[3] * T.float32(0.1) + T.float32(1.0000001)
    h[0] = T.float16(0.1)
    b[0] = T.bfloat16(0.1)
    i[0] = T.int64(-9223372036854775808)
    i[1] = T.int64(9223372036854775807)
    u[0] = T.uint64(9223372036854775807)
