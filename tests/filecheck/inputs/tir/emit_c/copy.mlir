builtin.module {
  tir.prim_func @main(%in.put: !tir.buffer<4xf32> {tir.name = "in.put"}, %in_put: !tir.buffer<4xf32> {tir.name = "in_put"}, %out: !tir.buffer<4xf32> {tir.name = "out"}, %pool: !tir.buffer<16xui8> {tir.name = "pool"}) attributes {runner_function = true, usmp.pools = {pool = 16 : i64}} {
    %0 = arith.constant 0 : i32
    %1 = tir.load %in.put[%0] : f32
    %2 = tir.load %in_put[%0] : f32
    %3 = arith.addf %1, %2 : f32
    tir.store %3, %out[%0]
  }
}
