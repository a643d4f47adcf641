// REQUIRES: tvm
// The constants' values travel with the module (main's usmp.constant_values); planned with
// a constant pool, --emit-tvmscript gives main the pool as one uint8 buffer, each weight
// a view at its offset, and --constants-out writes the pool's bytes: each constant's
// little-endian bytes at its offset, zero in the padding. A weight xDSL prints as its bits
// (10484697.0 is 0x4B1FFBD9) is read back as those bits, not as the integer 0x4B1FFBD9.
// RUN: usmp-opt %s --plan-pools --pools flash:kind=constant:alignment=32 | usmp-translate --emit-tvmscript --constants-out %t.bin | filecheck %s
// RUN: od -A d -t f4 -v %t.bin | filecheck %s --check-prefix=BYTES
// RUN: usmp-opt %s | usmp-opt | filecheck %s --check-prefix=ROUNDTRIP

// Without a constant pool there are no pool bytes to write, and no file is left behind.
// RUN: usmp-opt %s --plan-pools | %exit-code usmp-translate --emit-tvmscript --constants-out %t.none.bin | filecheck %s --check-prefix=NONE
// RUN: test ! -e %t.none.bin
// RUN: %exit-code usmp-translate --import-tvmscript --constants-out %t.bin %s | filecheck %s --check-prefix=MODE

tir.prim_func @add(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}, %w_ptr: !tir.ptr<f32> {tir.name = "w_ptr"}, %y_ptr: !tir.ptr<f32> {tir.name = "y_ptr"}) {
  %x = tir.decl_buffer "x" %x_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %w = tir.decl_buffer "w" %w_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %y = tir.decl_buffer "y" %y_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  tir.for %i "i" = %c0 extent %c4 serial : i32 {
    %a = tir.load %x[%i] : f32
    %b = tir.load %w[%i] : f32
    %s = arith.addf %a, %b : f32
    tir.store %s, %y[%i]
  }
}
tir.prim_func @main(%inp: !tir.buffer<4xf32> {tir.name = "inp"}, %w: !tir.buffer<4xf32> {tir.name = "w"}, %bias: !tir.buffer<4xf32> {tir.name = "bias"}, %out: !tir.buffer<4xf32> {tir.name = "out"}) attributes {global_symbol = "main", runner_function = true, usmp.constants = ["w", "bias"], usmp.constant_values = {w = dense<[1.0, 2.0, 3.0, 10484697.0]> : tensor<4xf32>, bias = dense<[0.5, -0.5, 0.25, -0.25]> : tensor<4xf32>}} {
  %t = tir.alloc_buffer "t" : !tir.buffer<4xf32>
  %p0 = tir.buffer_data %inp : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %p1 = tir.buffer_data %w : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %p2 = tir.buffer_data %t : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @add(%p0, %p1, %p2) : (!tir.ptr<f32>, !tir.ptr<f32>, !tir.ptr<f32>) -> ()
  %p3 = tir.buffer_data %bias : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %p4 = tir.buffer_data %out : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @add(%p2, %p3, %p4) : (!tir.ptr<f32>, !tir.ptr<f32>, !tir.ptr<f32>) -> ()
}

// CHECK:      def main(inp: T.Buffer((4,), "float32"), out: T.Buffer((4,), "float32"), global_workspace: T.Buffer((16,), "uint8"), flash: T.Buffer((48,), "uint8")):
// CHECK-NOT:  constant_values
// CHECK-DAG:  w = T.decl_buffer((4,), data=T.address_of(flash[0]), align=32)
// CHECK-DAG:  bias = T.decl_buffer((4,), data=T.address_of(flash[32]), align=32)

// BYTES:      0000000 1 2 3 10484697
// BYTES-NEXT: 0000016 0 0 0 0
// BYTES-NEXT: 0000032 0.5 -0.5 0.25 -0.25
// BYTES-NEXT: 0000048

// ROUNDTRIP: usmp.constant_values = {w = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 0x4B1FFBD9]> : tensor<4xf32>, bias = dense<[5.000000e-01, -5.000000e-01, 2.500000e-01, -2.500000e-01]> : tensor<4xf32>}

// NONE: <stdin>:1:1: error: no constant pool holds the constants: plan with one (usmp-opt --plan-pools --pools NAME:kind=constant) before writing its bytes
// NONE-NEXT: exit=1
// MODE: usmp-translate: error: --constants-out is an option of --emit-tvmscript, not of --import-tvmscript
// MODE-NEXT: exit=1
