// RUN: usmp-opt %s --split-input-file --verify-diagnostics -p tir-to-usmp,usmp-assign-pools,tir-constants-to-buffers | filecheck %s
// RUN: usmp-opt %s --split-input-file --verify-diagnostics -p tir-constants-to-buffers | filecheck %s --check-prefix=FIRST

// A constant pool for another target only.
usmp.pool @flash constant alignment 16 targets ["llvm"]
tir.prim_func @main(%w: !tir.buffer<4xf32> {tir.name = "w"}) attributes {runner_function = true, usmp.target = "c", usmp.constants = ["w"]} {
  %t = tir.alloc_buffer "t" : !tir.buffer<4xf32>
}
// CHECK: no constant pool serves the target of @main

// -----

// A scalar has no bytes to place.
usmp.pool @flash constant alignment 16
tir.prim_func @main(%n: i32 {tir.name = "n"}) attributes {runner_function = true, usmp.constants = ["n"]} {
  %t = tir.alloc_buffer "t" : !tir.buffer<4xf32>
}
// CHECK: constant 'n' is not a buffer (a scalar, or a pointer never viewed): its size is unknown

// -----

usmp.pool @flash constant alignment 16
tir.prim_func @main(%w: !tir.buffer<4xf32> {tir.name = "w"}) attributes {runner_function = true, usmp.constants = ["v"]} {
  %t = tir.alloc_buffer "t" : !tir.buffer<4xf32>
}
// CHECK: usmp.constants names v, not a param of @main

// -----

// Before tir-to-usmp, there is no liveness for the constants to join.
usmp.pool @flash constant alignment 16
tir.prim_func @main(%w: !tir.buffer<4xf32> {tir.name = "w"}) attributes {runner_function = true, usmp.constants = ["w"]} {
  %t = tir.alloc_buffer "t" : !tir.buffer<4xf32>
}
// FIRST: the constants join the buffers tir-to-usmp lowers: run tir-to-usmp first
