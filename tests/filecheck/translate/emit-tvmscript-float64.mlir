// REQUIRES: tvm
// float64 constants past float32's range (its lowest, -1.797e308, the start of a max
// reduction) keep their dtype in TVMScript, so TVM reads the file back (issue 33).
// RUN: usmp-translate --emit-tvmscript %s -o %t.py
// RUN: filecheck %s --check-prefix=SCRIPT < %t.py
// RUN: usmp-translate --import-tvmscript %t.py | filecheck %s
// SCRIPT: b[i] = T.max(a[i], T.FloatImm("float64", -1.7976931348623157e+308)) * T.float64(1.5)
// CHECK:      arith.constant -1.7976931348623157e+308 : f64
// CHECK:      arith.constant 1.500000e+00 : f64

tir.prim_func @main(%a: !tir.buffer<4xf64> {tir.name = "a"}, %b: !tir.buffer<4xf64> {tir.name = "b"}) attributes {global_symbol = "main"} {
  %0 = arith.constant 0 : i32
  %1 = arith.constant 4 : i32
  tir.for %i "i" = %0 extent %1 serial : i32 {
    %2 = tir.load %a[%i] : f64
    %3 = arith.constant -1.7976931348623157e+308 : f64
    %4 = tir.max %2, %3 : f64
    %5 = arith.constant 1.5 : f64
    %6 = arith.mulf %4, %5 : f64
    tir.store %6, %b[%i]
  }
}
