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

// -----

// A buffer read before its memref.alloc: no plan, a diagnostic at the use, also when the
// use is nested in a loop (issue 33). The parser's dominance check says so before the
// pass runs; the pass's own check, for IR built in Python, is tests/test_memref_liveness.py.
func.func @main() {
  %c0 = arith.constant 0 : index
  %v = memref.load %t[%c0] : memref<4xf32>
  %t = memref.alloc() : memref<4xf32>
  memref.store %v, %t[%c0] : memref<4xf32>
  func.return
}
// CHECK: memref-to-usmp-errors.mlir:31:3: operand #0 does not dominate this use
// CHECK-NEXT: memref-to-usmp-errors.mlir:32:3: note: operand defined here (op in the same block)

// -----

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %zero, %t[%i] : memref<4xf32>
  }
  %t = memref.alloc() : memref<4xf32>
  func.return
}
// CHECK: memref-to-usmp-errors.mlir:47:5: operand #1 does not dominate this use

// The entry option has no place in the input: its error points at the first function.
// RUN: %exit-code usmp-opt %s --split-input-file -p 'memref-to-usmp{entry=nowhere}' 2>&1 | filecheck %s --check-prefix=LOCATED
// LOCATED: memref-to-usmp-errors.mlir:4:1: error: entry function @nowhere does not exist
// LOCATED: exit=1
