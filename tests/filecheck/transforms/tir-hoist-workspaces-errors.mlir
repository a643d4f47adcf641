// RUN: usmp-opt %s --split-input-file --verify-diagnostics -p tir-hoist-workspaces | filecheck %s
// RUN: %exit-code usmp-opt %s --split-input-file -p tir-to-usmp,tir-hoist-workspaces | filecheck %s --check-prefix=ORDER
// ORDER: error: tir-hoist-workspaces runs before tir-to-usmp, but buffer 'ws' is already a usmp.alloc_offset
// ORDER: exit=1

tir.prim_func @op() {
  %ws = tir.alloc_buffer "ws" : !tir.buffer<4xf32>
}
tir.prim_func @main() {
  tir.call @op() : () -> ()
}
// CHECK: tir.prim_func @op(%ws_var: !tir.ptr<f32> {tir.name = "ws_var"})

// -----

tir.prim_func @op() {
  %ws = tir.alloc_buffer "ws" : !tir.buffer<4xf32>
  tir.call @op() : () -> ()
}
tir.prim_func @main() {
  tir.call @op() : () -> ()
}
// CHECK: recursive call of @op: a static plan needs a call tree

// -----

tir.prim_func @op() {
  %ws = tir.alloc_buffer "ws" : !tir.buffer<4xf32>
}
// CHECK: no entry function: no function has the runner_function attribute or is named __tvm_main__, main or run_model; name it with tir-hoist-workspaces{entry=NAME}
