// tir-io-to-allocations: TVM's use_workspace_io. The entry's buffer params become
// allocations marked with their name and kind, by TVM's rule through the operator calls:
// %inp is only read (input), %out only written (output), %state read and written
// (input_output, which TVM refused). %w is named in usmp.constants (a weight) and %n is
// a scalar: both stay params.
// RUN: usmp-opt %s -p tir-io-to-allocations | filecheck %s
// RUN: usmp-opt %s --plan-pools --use-workspace-io --no-in-place -t 'usmp-report{sort=ir}' | filecheck %s --check-prefix=REPORT
// RUN: usmp-opt %s --plan-pools --use-workspace-io --no-in-place | filecheck %s --check-prefix=LOWERED
// TVMScript carries the records as dictionaries: emitted and imported again, they are the
// typed attributes once more.
// RUN: usmp-opt %s --plan-pools --use-workspace-io --no-in-place | usmp-translate --emit-tvmscript | filecheck %s --check-prefix=SCRIPT
// RUN: usmp-opt %s --plan-pools --use-workspace-io --no-in-place | usmp-translate --emit-tvmscript | usmp-translate --import-tvmscript | filecheck %s --check-prefix=REIMPORTED
// RUN: usmp-opt %s -p tir-io-to-allocations,tir-io-to-allocations | filecheck %s

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
tir.prim_func @main(%inp: !tir.buffer<4xf32> {tir.name = "inp"}, %w: !tir.buffer<4xf32> {tir.name = "w"}, %state: !tir.buffer<4xf32> {tir.name = "state"}, %n: i32 {tir.name = "n"}, %out: !tir.buffer<4xf32> {tir.name = "out"}) attributes {runner_function = true, usmp.constants = ["w"]} {
  %t0 = tir.alloc_buffer "t0" : !tir.buffer<4xf32>
  %t1 = tir.alloc_buffer "t1" : !tir.buffer<4xf32>
  %p0 = tir.buffer_data %inp : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %p1 = tir.buffer_data %t0 : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @copy(%p0, %p1) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
  %p2 = tir.buffer_data %w : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @accumulate(%p1, %p2) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
  %p3 = tir.buffer_data %state : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @accumulate(%p3, %p1) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
  %p4 = tir.buffer_data %t1 : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @copy(%p1, %p4) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
  %p5 = tir.buffer_data %out : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @copy(%p4, %p5) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
}

// CHECK:      tir.prim_func @main(%w: !tir.buffer<4xf32> {tir.name = "w"}, %n: i32 {tir.name = "n"}) attributes {runner_function = true, usmp.constants = ["w"]} {
// CHECK-NEXT:   %inp = tir.alloc_buffer "inp" {usmp.io = #usmp.io<"inp", input>} : !tir.buffer<4xf32>
// CHECK-NEXT:   %state = tir.alloc_buffer "state" {usmp.io = #usmp.io<"state", input_output>} : !tir.buffer<4xf32>
// CHECK-NEXT:   %out = tir.alloc_buffer "out" {usmp.io = #usmp.io<"out", output>} : !tir.buffer<4xf32>
// CHECK-NEXT:   %t0 = tir.alloc_buffer "t0" : !tir.buffer<4xf32>
// CHECK-NOT:  usmp.io

// The input is live from the start of the program (index 0) to its last read, the output
// from its first write to the end (30), the input_output throughout; %t0 and %t1 reuse
// the bytes of %out and %inp (--no-in-place: each its own buffer, to show the intervals).
// REPORT:      global_workspace        48         48  1.000x
// REPORT:      inp                     global_workspace          32        16  [0, 10)  (input)
// REPORT-NEXT: state                   global_workspace           0        16  [0, 30)  (input_output)
// REPORT-NEXT: out                     global_workspace          16        16  [28, 30)  (output)
// REPORT-NEXT: t0                      global_workspace          16        16  [8, 25)
// REPORT-NEXT: t1                      global_workspace          32        16  [23, 30){{$}}

// After planning the entry takes only the weight, the scalar and the pool, and publishes
// where the application writes the inputs and reads the outputs.
// LOWERED:      tir.prim_func @main(%w: !tir.buffer<4xf32> {tir.name = "w"}, %n: i32 {tir.name = "n"}, %global_workspace: !tir.buffer<48xui8> {tir.name = "global_workspace"})
// LOWERED-SAME: usmp.io_offsets = #usmp.io_offsets<inp = input "global_workspace"[32] : memref<4xf32>, state = input_output "global_workspace"[0] : memref<4xf32>, out = output "global_workspace"[16] : memref<4xf32>>
// LOWERED-SAME: usmp.pools = #usmp.pool_sizes<global_workspace = 48>
// LOWERED:      %[[OUT_AT:.*]] = arith.constant 16 : i32
// LOWERED-NEXT: %[[OUT_PTR:.*]] = tir.address_of %global_workspace[%[[OUT_AT]]]
// LOWERED-NEXT: %out = tir.decl_buffer "out" %[[OUT_PTR]] : !tir.ptr<ui8> -> !tir.buffer<4xf32, align 16>

// SCRIPT: "usmp.io_offsets": {"inp": {"dtype": "float32", "kind": "input", "offset": 32, "pool": "global_workspace", "shape": [4]}, "out": {"dtype": "float32", "kind": "output", "offset": 16, "pool": "global_workspace", "shape": [4]}, "state": {"dtype": "float32", "kind": "input_output", "offset": 0, "pool": "global_workspace", "shape": [4]}}, "usmp.pools": {"global_workspace": 48}
// REIMPORTED: usmp.io_offsets = #usmp.io_offsets<inp = input "global_workspace"[32] : memref<4xf32>, out = output "global_workspace"[16] : memref<4xf32>, state = input_output "global_workspace"[0] : memref<4xf32>>, usmp.pools = #usmp.pool_sizes<global_workspace = 48>
