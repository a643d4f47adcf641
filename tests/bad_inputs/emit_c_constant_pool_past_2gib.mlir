// A planned module whose constant pool holds 3 GB (a constant of 750M floats): past
// what a 32-bit target's C has, refused before the pool's bytes are made (it has
// no values: they would be 3 GB of hex).
builtin.module {
  tir.prim_func @main(%inp: !tir.buffer<4xf32> {tir.name = "inp"}, %out: !tir.buffer<4xf32> {tir.name = "out"}, %pool: !tir.buffer<16xui8> {tir.name = "pool"}, %global_constant: !tir.buffer<3000000000xui8, index i64> {tir.name = "global_constant"}) attributes {runner_function = true, usmp.pools = #usmp.pool_sizes<pool = 16, global_constant = 3000000000>, usmp.io_offsets = #usmp.io_offsets<w = constant "global_constant"[0] : memref<750000000xf32>>} {
    %0 = arith.constant 0 : i64
    %1 = tir.address_of %global_constant[%0] : !tir.ptr<ui8>
    %w = tir.decl_buffer "w" %1 : !tir.ptr<ui8> -> !tir.buffer<750000000xf32, index i64, align 16>
    %2 = arith.constant 0 : i32
    %3 = tir.load %inp[%2] : f32
    %4 = tir.load %w[%2] : f32
    %5 = arith.mulf %3, %4 : f32
    tir.store %5, %out[%2]
  }
}
