// REQUIRES: tvm
// The data pointer of a one-element buffer passed to a call (an ONNX model of one Relu on
// a [1] tensor gives it) is printed `x.data`, which TVM reads back: TVM's printer says
// `x.source.data`, which its parser refuses (issue 33).
// RUN: usmp-translate --emit-tvmscript %s -o %t.py
// RUN: filecheck %s --check-prefix=SCRIPT < %t.py
// RUN: usmp-translate --import-tvmscript %t.py | filecheck %s
// SCRIPT: Module.relu(x.data, y.data)
// CHECK:      %[[X:.*]] = tir.buffer_data %x : !tir.buffer<1xf32> -> !tir.ptr<f32>
// CHECK-NEXT: %[[Y:.*]] = tir.buffer_data %y : !tir.buffer<1xf32> -> !tir.ptr<f32>
// CHECK-NEXT: tir.call @relu(%[[X]], %[[Y]])

tir.prim_func @main(%x: !tir.buffer<1xf32> {tir.name = "x"}, %y: !tir.buffer<1xf32> {tir.name = "y"}) attributes {global_symbol = "main"} {
  %0 = tir.buffer_data %x : !tir.buffer<1xf32> -> !tir.ptr<f32>
  %1 = tir.buffer_data %y : !tir.buffer<1xf32> -> !tir.ptr<f32>
  tir.call @relu(%0, %1) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
}
tir.prim_func @relu(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}, %y_ptr: !tir.ptr<f32> {tir.name = "y_ptr"}) {
  %x = tir.decl_buffer "x" %x_ptr : !tir.ptr<f32> -> !tir.buffer<1xf32>
  %y = tir.decl_buffer "y" %y_ptr : !tir.ptr<f32> -> !tir.buffer<1xf32>
  %c0 = arith.constant 0 : i32
  %v = tir.load %x[%c0] : f32
  %zero = arith.constant 0.000000e+00 : f32
  %r = tir.max %v, %zero : f32
  tir.store %r, %y[%c0]
}
