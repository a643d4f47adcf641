// RUN: usmp-opt %s --split-input-file --verify-diagnostics -p memref-to-usmp | filecheck %s
// RUN: usmp-opt %s --split-input-file --verify-diagnostics -p 'memref-to-usmp{entry=nowhere}' | filecheck %s --check-prefix=ENTRY

func.func @f() {
  %a = memref.alloc() : memref<4xf32>
  func.return
}
func.func @g() {
  %a = memref.alloc() : memref<4xf32>
  func.return
}
// CHECK: cannot tell the entry function (candidates: @f, @g); name it with memref-to-usmp{entry=NAME}
// ENTRY: entry function @nowhere does not exist

// -----

func.func @main() {
  %a = memref.alloc() : memref<4xf32>
  func.call @main() : () -> ()
  func.return
}
// CHECK: recursive call of @main: a static plan needs a call tree
