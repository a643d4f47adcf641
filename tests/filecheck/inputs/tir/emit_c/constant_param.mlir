builtin.module {
  tir.prim_func @main(%inp: !tir.buffer<4xf32> {tir.name = "inp"}, %w: !tir.buffer<4xf32> {tir.name = "w"}, %out: !tir.buffer<4xf32> {tir.name = "out"}, %pool: !tir.buffer<16xui8> {tir.name = "pool"}) attributes {runner_function = true, usmp.constants = ["w"], usmp.pools = {pool = 16 : i64}} {
    %0 = arith.constant 0 : i32
    %1 = tir.load %inp[%0] : f32
    %2 = tir.load %w[%0] : f32
    %3 = arith.mulf %1, %2 : f32
    tir.store %3, %out[%0]
  }
}
