// tir-io-to-allocations with the entry's usmp.outputs (an importer's record of the model's
// outputs): it decides each kind, not how the operators use a buffer. %out is copied into,
// then read back and added to: an output all the same, and %inp, not listed, an input. The
// record goes with the params it named.
// RUN: usmp-opt %s -p tir-io-to-allocations | filecheck %s
// RUN: usmp-opt %s --plan-pools --use-workspace-io | filecheck %s --check-prefix=LOWERED

tir.prim_func @copy(%x_ptr: !tir.ptr<f32>, %y_ptr: !tir.ptr<f32>) {
  %x = tir.decl_buffer %x_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %y = tir.decl_buffer %y_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  tir.for %i = %c0 extent %c4 serial : i32 {
    %v = tir.load %x[%i] : f32
    tir.store %v, %y[%i]
  }
}
tir.prim_func @accumulate(%acc_ptr: !tir.ptr<f32>, %x_ptr: !tir.ptr<f32>) {
  %acc = tir.decl_buffer %acc_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %x = tir.decl_buffer %x_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  tir.for %i = %c0 extent %c4 serial : i32 {
    %a = tir.load %acc[%i] : f32
    %v = tir.load %x[%i] : f32
    %s = arith.addf %a, %v : f32
    tir.store %s, %acc[%i]
  }
}
tir.prim_func @main(%inp: !tir.buffer<4xf32> {tir.name = "inp"}, %out: !tir.buffer<4xf32> {tir.name = "out"}) attributes {runner_function = true, usmp.outputs = ["out"]} {
  %p0 = tir.buffer_data %inp : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %p1 = tir.buffer_data %out : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @copy(%p0, %p1) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
  tir.call @accumulate(%p1, %p0) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
}

// CHECK:      tir.prim_func @main() attributes {runner_function = true} {
// CHECK-NEXT:   %inp = tir.alloc_buffer "inp" {usmp.io = #usmp.io<"inp", input>} : !tir.buffer<4xf32>
// CHECK-NEXT:   %out = tir.alloc_buffer "out" {usmp.io = #usmp.io<"out", output>} : !tir.buffer<4xf32>

// LOWERED: usmp.io_offsets = #usmp.io_offsets<inp = input "global_workspace"[{{[0-9]+}}] : memref<4xf32>, out = output "global_workspace"[{{[0-9]+}}] : memref<4xf32>>
