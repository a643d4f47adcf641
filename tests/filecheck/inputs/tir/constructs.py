"""Every statement and expression kind the tir dialect covers, in one module."""

from tvm.script import ir as I
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func
    def main(a: T.Buffer((4,), "uint8"), n: T.int32, p: T.handle, q: T.handle("int8")) -> T.int32:
        T.func_attr(
            {
                "global_symbol": "main",
                "tirx.noalias": True,
                "runner_function": True,
                "xs": [1, 2],
                "s": "x",
            }
        )
        c = T.decl_buffer((4,), "float32")
        x = T.call_extern("int32", "foo", n)
        w = T.lookup_param("p0", dtype="handle")
        T.call_packed("bar", a.data, w)
        T.call_cpacked("baz", T.address_of(a[1]))
        T.call_packed("sort", a.data, T.bool(True), T.bool(False))
        assert n > 0, "n must be positive"
        while n < 3:
            a[0] = T.uint8(1)
        with T.attr(0, "pragma_x", 1):
            a[1] = a[2] + T.uint8(1)
        for i in T.thread_binding(4, thread="threadIdx.x"):
            c[i] = T.float32(1)
        v = T.Ramp(0, 1, 4)
        c[T.Ramp(0, 1, 4)] = T.Broadcast(T.float32(1), 4)
        return x

    @T.prim_func(private=True)
    def exprs(a: T.Buffer((8,), "int32"), u: T.Buffer((8,), "uint8"), f: T.Buffer((8,), "float32")):
        for i in T.serial(8):
            a[i] = (
                T.floordiv(a[i], 3)
                + T.floormod(a[i], 3)
                - T.truncdiv(a[i], 2) * T.truncmod(a[i], 2)
            )
            a[i] = (
                T.min(a[i], 1)
                + T.max(a[i], 2)
                + (a[i] << 1)
                + (a[i] >> 1)
                + (a[i] & 3)
                + (a[i] | 4)
                + (a[i] ^ 5)
                + ~a[i]
            )
            u[i] = T.floordiv(u[i], T.uint8(3)) + T.min(u[i], T.uint8(2)) * u[i] - u[i]
            f[i] = T.Select(
                f[i] != T.float32(0) and not (a[i] == 1 or u[i] < T.uint8(2)),
                f[i] / T.float32(2),
                T.min(f[i], T.float32(1)) - T.float32(1),
            )
            if i >= 4:
                break
            if i <= 1:
                continue
