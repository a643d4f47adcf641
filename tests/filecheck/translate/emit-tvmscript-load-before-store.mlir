// REQUIRES: tvm
// A load whose value is used after a write to memory is bound where it stands: TVMScript
// rebuilds an expression where it is used, so `x[i]` read at the store to `y` would see
// the store to `x` before it. Run by TVM, y must hold x's old (random, nonzero) values.
// RUN: usmp-translate --emit-tvmscript %s -o %t.py
// RUN: filecheck %s < %t.py
// RUN: python %S/../../../tools/run_tvmscript.py %t.py | filecheck %s --check-prefix=OUTPUTS
// CHECK:      old: T.let[T.float32] = x[i]
// CHECK-NEXT: x[i] = T.float32(0.0)
// CHECK-NEXT: y[i] = old
// Loaded and used by the next statement, with no write between: inline as before.
// CHECK-NEXT: z[i] = x[i]
// OUTPUTS:      x float32[4]: [0. 0. 0. 0.]
// OUTPUTS-NEXT: y float32[4]: [{{.*[1-9].*}}]
// OUTPUTS-NEXT: z float32[4]: [0. 0. 0. 0.]

tir.prim_func @main(%x: !tir.buffer<4xf32> {tir.name = "x"}, %y: !tir.buffer<4xf32> {tir.name = "y"}, %z: !tir.buffer<4xf32> {tir.name = "z"}) attributes {global_symbol = "main"} {
  %0 = arith.constant 0 : i32
  %1 = arith.constant 4 : i32
  tir.for %i "i" = %0 extent %1 serial : i32 {
    %old = tir.load %x[%i] : f32
    %zero = arith.constant 0.0 : f32
    tir.store %zero, %x[%i]
    tir.store %old, %y[%i]
    %new = tir.load %x[%i] : f32
    tir.store %new, %z[%i]
  }
}
