// The stock xdsl-opt finds the usmp dialect, passes and report through the
// xdsl.universe entry point.
// RUN: xdsl-opt %s -p memref-to-usmp,usmp-assign-pools,usmp-plan,usmp-to-memref | filecheck %s
// RUN: xdsl-opt %s -p memref-to-usmp,usmp-assign-pools,usmp-plan -t usmp-report | filecheck %s --check-prefix=REPORT

func.func @main() {
  %a = memref.alloc() : memref<4xf32>
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %a[%c0] : memref<4xf32>
  func.return
}

// CHECK: usmp.pool @global_workspace workspace alignment 16 size 16
// CHECK: func.func @main(%global_workspace: memref<16xi8> {usmp.pool = @global_workspace})
// CHECK: %a = memref.view %global_workspace
// REPORT: total 16 bytes in 1 pool(s); max-live 16 bytes (1.000x)
