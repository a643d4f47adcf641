// A tir.const literal that does not fit its type is a parse error at the literal.
// RUN: %exit-code usmp-opt %s 2>&1 | filecheck %s
// RUN: sed -n '/^\/\/ -----$/,$p' %s | %exit-code usmp-opt 2>&1 | filecheck %s --check-prefix=INT

tir.prim_func @f() {
  %c = tir.const 1 : f32
}
// CHECK: const-errors.mlir:6:18: error: a float tir.const needs a float literal
// CHECK: exit=1

// -----

tir.prim_func @f() {
  %c = tir.const 1.5 : i32
}
// INT: <stdin>:4:24: error: tir.const holds an integer or a float
// INT: exit=1
