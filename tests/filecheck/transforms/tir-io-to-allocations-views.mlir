// tir-io-to-allocations on the form of TVM's own USMP tests: `__tvm_main__(input:
// T.handle, output: T.handle)` views its params with `T.decl_buffer(..., data=input)`.
// A viewed pointer param is a buffer param of the view's type: the views become the
// allocation, named after the param, of kind input or output by use through the
// operator's loads and stores (the call itself is no use), also when nothing else is
// allocated. A pointer passed on directly gets the allocation's data pointer. A pointer
// never viewed (%state) has no known size and stays a param.
// RUN: usmp-opt %s --split-input-file -p tir-io-to-allocations | filecheck %s
// RUN: usmp-opt %s --split-input-file --plan-pools --use-workspace-io -t 'usmp-report{sort=ir}' | filecheck %s --check-prefix=REPORT

tir.prim_func @op(%x_ptr: !tir.ptr<f32>, %y_ptr: !tir.ptr<f32>) {
  %x = tir.decl_buffer %x_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %y = tir.decl_buffer %y_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  tir.for %i = %c0 extent %c4 serial : i32 {
    %v = tir.load %x[%i] : f32
    tir.store %v, %y[%i]
  }
}
tir.prim_func @__tvm_main__(%input: !tir.ptr<void> {tir.name = "input"}, %output: !tir.ptr<void> {tir.name = "output"}, %state: !tir.ptr<void> {tir.name = "state"}) attributes {runner_function = true} {
  %input_buffer_var = tir.decl_buffer %input : !tir.ptr<void> -> !tir.buffer<4xf32>
  %output_buffer_var = tir.decl_buffer %output : !tir.ptr<void> -> !tir.buffer<4xf32>
  %name = tir.string "op"
  %pi = tir.buffer_data %input_buffer_var : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %po = tir.buffer_data %output_buffer_var : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %status = tir.call_intrin "tirx.call_extern"(%name, %pi, %po) : (!tir.string, !tir.ptr<f32>, !tir.ptr<f32>) -> i32
  tir.evaluate %status : i32
}

// CHECK:      tir.prim_func @__tvm_main__(%state: !tir.ptr<void> {tir.name = "state"}) attributes {runner_function = true} {
// CHECK-NEXT:   %input = tir.alloc_buffer "input" {usmp.io = #usmp.io<"input", input>} : !tir.buffer<4xf32>
// CHECK-NEXT:   %output = tir.alloc_buffer "output" {usmp.io = #usmp.io<"output", output>} : !tir.buffer<4xf32>
// CHECK-NOT:    tir.decl_buffer
// CHECK:        %pi = tir.buffer_data %input
// CHECK-NEXT:   %po = tir.buffer_data %output

// The input is read and the output written in the same loop of @op: they conflict.
// REPORT:      input   global_workspace       0    16  [0, 7)  (input)
// REPORT-NEXT: output  global_workspace      16    16  [5, 7)  (output)

// -----

// The handle itself passed on (TVM's algo tests call `T.call_extern(..., input, ...)`)
// beside another allocation.
tir.prim_func @op(%x_ptr: !tir.ptr<f32>, %y_ptr: !tir.ptr<f32>) {
  %x = tir.decl_buffer %x_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %y = tir.decl_buffer %y_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  tir.for %i = %c0 extent %c4 serial : i32 {
    %v = tir.load %x[%i] : f32
    tir.store %v, %y[%i]
  }
}
tir.prim_func @__tvm_main__(%input: !tir.ptr<f32> {tir.name = "input"}, %output: !tir.ptr<f32> {tir.name = "output"}) attributes {runner_function = true} {
  %input_buffer_var = tir.decl_buffer %input : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %output_buffer_var = tir.decl_buffer %output : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %sid = tir.alloc_buffer "sid" : !tir.buffer<4xf32>
  %psid = tir.buffer_data %sid : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @op(%input, %psid) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
  tir.call @op(%psid, %output) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
}

// CHECK:      tir.prim_func @__tvm_main__() attributes {runner_function = true} {
// CHECK-NEXT:   %input = tir.alloc_buffer "input" {usmp.io = #usmp.io<"input", input>} : !tir.buffer<4xf32>
// CHECK-NEXT:   %{{.*}} = tir.buffer_data %input : !tir.buffer<4xf32> -> !tir.ptr<f32>
// CHECK-NEXT:   %output = tir.alloc_buffer "output" {usmp.io = #usmp.io<"output", output>} : !tir.buffer<4xf32>
// CHECK-NEXT:   %{{.*}} = tir.buffer_data %output : !tir.buffer<4xf32> -> !tir.ptr<f32>
// CHECK-NEXT:   %sid = tir.alloc_buffer "sid" : !tir.buffer<4xf32>

// REPORT:      input   global_workspace      16    16  [0, 8)  (input)
// REPORT-NEXT: output  global_workspace      16    16  [11, 13)  (output)
// REPORT-NEXT: sid     global_workspace       0    16  [6, 13)
