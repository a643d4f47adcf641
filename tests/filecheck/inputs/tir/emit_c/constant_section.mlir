builtin.module {
  tir.prim_func @main(%flash: !tir.buffer<16xui8> {tir.name = "flash"}, %pool: !tir.buffer<32xui8> {tir.name = "pool"}) attributes {runner_function = true, usmp.pools = #usmp.pool_sizes<flash = 16, pool = 32>, usmp.pool_sections = {flash = ".flash_data", pool = ".dtcm"}, usmp.constant_values = {w = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>}, usmp.io_offsets = #usmp.io_offsets<w = constant "flash"[0] : memref<4xf32>, x = input "pool"[0] : memref<4xf32>, y = output "pool"[16] : memref<4xf32>>} {
    %0 = arith.constant 0 : i32
  }
}
