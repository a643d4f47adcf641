// A program whose only buffers are its constants: tir-to-usmp finds nothing to plan, and
// the constants still go to the constant pool, with a liveness of their own.
// RUN: usmp-opt %s --plan-pools --pools flash:kind=constant | filecheck %s
// RUN: usmp-opt %s --plan-pools --pools flash:kind=constant -t usmp-report | filecheck %s --check-prefix=REPORT

tir.prim_func @main(%inp: !tir.buffer<4xf32> {tir.name = "inp"}, %w: !tir.buffer<4xf32> {tir.name = "w"}) attributes {runner_function = true, usmp.constants = ["w"]} {
  %c0 = arith.constant 0 : i32
  %v = tir.load %w[%c0] : f32
  tir.store %v, %inp[%c0]
}

// CHECK:      tir.prim_func @main(%inp: !tir.buffer<4xf32> {tir.name = "inp"}, %flash: !tir.buffer<16xui8> {tir.name = "flash"})
// CHECK-SAME: usmp.io_offsets = #usmp.io_offsets<w = constant "flash"[0] : memref<4xf32>>, usmp.pools = #usmp.pool_sizes<flash = 16>
// CHECK-NOT:  global_workspace

// REPORT: w {{ +}}flash {{ +}}0 {{ +}}16 {{ +}}[0, 1)  (constant)
