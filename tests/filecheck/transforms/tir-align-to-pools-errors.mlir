// RUN: usmp-opt %s --split-input-file --verify-diagnostics -p tir-to-usmp,tir-align-to-pools | filecheck %s

// Before usmp-assign-pools a buffer has no pools whose alignment it could take.
tir.prim_func @main() {
  %t = tir.alloc_buffer "t" : !tir.buffer<4xf32>
}
// CHECK: buffer 't' has no candidate pools yet: tir-align-to-pools runs after usmp-assign-pools
