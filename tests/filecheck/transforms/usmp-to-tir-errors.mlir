// RUN: usmp-opt %s --split-input-file --verify-diagnostics -p usmp-to-tir | filecheck %s

usmp.pool @global_workspace workspace alignment 16
tir.prim_func @main() {
  %a = usmp.alloc_offset "a" @global_workspace[?] align 16 live [0, 1) : !tir.buffer<4xf32>
}
usmp.liveness
// CHECK: buffer 'a' is not planned: run usmp-plan first

// -----

usmp.pool @global_workspace workspace alignment 16 size 16
tir.prim_func @op() {
  %a = usmp.alloc_offset "a" @global_workspace[0] align 16 live [0, 1) : !tir.buffer<4xf32>
}
usmp.liveness
// CHECK: no entry function: no function has the runner_function attribute or is named __tvm_main__, main or run_model; name it with usmp-to-tir{entry=NAME}

// -----

// The entry's pool param would take the name of a param it already has.
usmp.pool @global_workspace workspace alignment 16 size 16
// CHECK: @main already has a param 'global_workspace', the name of the param pool @global_workspace becomes; rename the param or the pool
tir.prim_func @main(%global_workspace: !tir.buffer<4xf32> {tir.name = "global_workspace"}) {
  %a = usmp.alloc_offset "a" @global_workspace[0] align 16 live [0, 1) : !tir.buffer<4xf32>
}
usmp.liveness

// -----

// The entry takes its pools as buffers, which no caller could pass on.
usmp.pool @global_workspace workspace alignment 16 size 16
tir.prim_func @main() {
  %a = usmp.alloc_offset "a" @global_workspace[0] align 16 live [0, 1) : !tir.buffer<4xf32>
}
tir.prim_func @caller() {
  // CHECK: @caller calls the entry function @main, which takes pools as buffers
  tir.call @main() : () -> ()
}
usmp.liveness
