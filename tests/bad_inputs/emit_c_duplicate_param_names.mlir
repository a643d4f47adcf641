// Two params named alike: the library's interface names each tensor by its name.
builtin.module {
  tir.prim_func @main(%a: !tir.buffer<4xf32> {tir.name = "x"}, %b: !tir.buffer<4xf32> {tir.name = "x"}, %pool: !tir.buffer<16xui8> {tir.name = "pool"}) attributes {runner_function = true, usmp.outputs = ["x"], usmp.pools = {pool = 16 : i64}} {
    %0 = arith.constant 0 : i32
    %1 = tir.load %a[%0] : f32
    tir.store %1, %b[%0]
  }
}
