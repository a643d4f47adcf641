// RUN: usmp-opt %s --split-input-file --verify-diagnostics -p memref-to-usmp,usmp-assign-pools | filecheck %s

// Every pool serves other targets only.
usmp.pool @fast workspace alignment 16 targets ["c"]
func.func @main() attributes {usmp.target = "llvm"} {
  %a = memref.alloc() : memref<4xf32>
  func.return
}
// CHECK: no workspace pool serves the target of @main
