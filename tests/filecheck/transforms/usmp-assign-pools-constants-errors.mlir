// RUN: usmp-opt %s --split-input-file --verify-diagnostics -p tir-to-usmp,usmp-assign-pools | filecheck %s

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
