builtin.module {
  tir.prim_func @main(%inp: !tir.buffer<4xf32> {tir.name = "inp"}, %out: !tir.buffer<4xf32> {tir.name = "out"}) attributes {runner_function = true} {
    %t = tir.alloc_buffer "t" : !tir.buffer<4xf32>
    %0 = arith.constant 0 : i32
    %1 = tir.load %inp[%0] : f32
    tir.store %1, %t[%0]
    %2 = tir.load %t[%0] : f32
    tir.store %2, %out[%0]
  }
}
