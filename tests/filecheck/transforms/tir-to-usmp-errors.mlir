// RUN: usmp-opt %s --split-input-file --verify-diagnostics -p tir-to-usmp | filecheck %s
// RUN: usmp-opt %s --split-input-file --verify-diagnostics -p 'tir-to-usmp{entry=nowhere}' | filecheck %s --check-prefix=ENTRY
// RUN: %exit-code usmp-opt %s --split-input-file -p tir-to-usmp | filecheck %s --check-prefix=EXIT
// EXIT: tir-to-usmp-errors.mlir:7:1: error: no entry function
// EXIT: exit=1

tir.prim_func @f() {
  %a = tir.alloc_buffer : !tir.buffer<4xf32>
}
// CHECK: no entry function: no function has the runner_function attribute or is named __tvm_main__, main or run_model; name it with tir-to-usmp{entry=NAME}
// ENTRY: entry function @nowhere does not exist

// -----

tir.prim_func @main() {
  %a = tir.alloc_buffer : !tir.buffer<4xf32>
  tir.call @missing() : () -> ()
}
// CHECK: call to unknown function @missing

// -----

tir.prim_func @main() {
  %a = tir.alloc_buffer : !tir.buffer<4xf32>
  tir.call @main() : () -> ()
}
// CHECK: recursive call of @main: a static plan needs a call tree

// -----

tir.prim_func @a() attributes {runner_function = true} {
  %x = tir.alloc_buffer : !tir.buffer<4xf32>
}
tir.prim_func @b() attributes {runner_function = true} {
  %y = tir.alloc_buffer : !tir.buffer<4xf32>
}
// CHECK: several functions have the runner_function attribute (@a, @b); name the entry with tir-to-usmp{entry=NAME}

// -----

tir.prim_func @op(%x: !tir.ptr<f32>, %y: !tir.ptr<f32>) {
}
tir.prim_func @main() {
  %a = tir.alloc_buffer : !tir.buffer<4xf32>
  %p = tir.buffer_data %a : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %name = tir.string "op"
  %status = tir.call_intrin "tirx.tvm_call_cpacked"(%name, %p) : (!tir.string, !tir.ptr<f32>) -> i32
  tir.evaluate %status : i32
}
// CHECK: tirx.tvm_call_cpacked of @op passes 1 arguments; @op takes 2
