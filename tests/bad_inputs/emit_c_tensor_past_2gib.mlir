// An output of 3G floats (12 GB): no array of a 32-bit target's C holds it.
builtin.module {
  tir.prim_func @main(%inp: !tir.buffer<4xf32> {tir.name = "inp"}, %out: !tir.buffer<3000000000xf32, index i64> {tir.name = "out"}, %pool: !tir.buffer<16xui8> {tir.name = "pool"}) attributes {runner_function = true, usmp.pools = {pool = 16 : i64}} {
    %0 = arith.constant 0 : i32
    %1 = tir.load %inp[%0] : f32
    tir.store %1, %out[%0]
  }
}
