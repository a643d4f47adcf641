// --split-input-file plans each chunk on its own.
// RUN: usmp-opt %s --split-input-file --plan-pools | filecheck %s

func.func @main() {
  %a = memref.alloc() : memref<8xf32>
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %a[%c0] : memref<8xf32>
  func.return
}
// CHECK: usmp.pool @global_workspace workspace alignment 16 size 32
// CHECK: {{// -+$}}
// CHECK: usmp.pool @global_workspace workspace alignment 16 size 64

// -----

func.func @main() {
  %a = memref.alloc() : memref<16xf32>
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %a[%c0] : memref<16xf32>
  func.return
}
