# A planned entry whose usmp.pools record is not a map of pool sizes.
from tvm.script import tir as T


@T.prim_func
def main(pool: T.Buffer((16,), "uint8")):
    T.func_attr({"runner_function": True, "usmp.pools": {"pool": "sixteen"}})
    pool[0] = T.uint8(0)
