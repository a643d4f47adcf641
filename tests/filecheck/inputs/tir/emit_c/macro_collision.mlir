builtin.module {
  tir.prim_func @main(%workspace_pool: !tir.buffer<4xf32> {tir.name = "workspace_pool"}, %out: !tir.buffer<4xf32> {tir.name = "out"}, %input: !tir.buffer<16xui8> {tir.name = "input"}) attributes {runner_function = true, usmp.pools = #usmp.pool_sizes<input = 16>} {
    %0 = arith.constant 0 : i32
    %1 = tir.load %workspace_pool[%0] : f32
    tir.store %1, %out[%0]
  }
}
