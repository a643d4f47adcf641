// RUN: usmp-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// The condition's type is part of the op (i1), so a wrong one is found by the parser.
tir.prim_func @f(%n: i32) {
  tir.assert %n, "RuntimeError", ["no"]
}
// CHECK: operand is used with type i1, but has been previously used or defined with type i32
