// tir-in-place-results on the chain of examples/tir/in_place.py: @scale, @relu and @add
// read each element of an input only to write the same element of their output, and
// declare so (usmp.in_place); @shift reads another element and @accumulate writes each
// element twice, so neither does. Where the input dies at the call, the result becomes a
// view of its bytes: r over h (h dies at relu), total over a (a dies at the add; s, its
// other operand, is read until then, and out is the application's).
// RUN: usmp-opt %examples/tir/in_place.mlir -p tir-in-place-results | filecheck %s
// RUN: usmp-opt %examples/tir/in_place.mlir --plan-pools -t 'usmp-report{sort=ir}' | filecheck %s --check-prefix=REPORT
// RUN: usmp-opt %examples/tir/in_place.mlir --plan-pools --no-in-place -t 'usmp-report{sort=ir}' | filecheck %s --check-prefix=OWN
// RUN: usmp-opt %examples/tir/in_place.mlir --plan-pools | filecheck %s --check-prefix=LOWERED
// RUN: usmp-opt %s -p tir-in-place-results | filecheck %s --check-prefix=DECLARED
// RUN: not usmp-opt %examples/tir/in_place.mlir -p tir-to-usmp,tir-in-place-results 2>&1 | filecheck %s --check-prefix=LATE

// CHECK:     tir.prim_func @accumulate
// CHECK-NOT: usmp.in_place
// CHECK:     tir.prim_func @add(
// CHECK-SAME: usmp.in_place = {{.}}[0 : i64, 2 : i64], [1 : i64, 2 : i64]]}
// CHECK:      tir.prim_func @main(
// CHECK-SAME:   usmp.in_place_results = #usmp.in_place_results<r = "h", total = "a">}
// CHECK-NEXT:   %s = tir.alloc_buffer "s"
// CHECK-NEXT:   %h = tir.alloc_buffer "h"
// CHECK-NEXT:   %[[H:.*]] = tir.buffer_data %h
// CHECK-NEXT:   %r = tir.decl_buffer "r" %[[H]] : !tir.ptr<f32> -> !tir.buffer<16xf32>
// CHECK-NEXT:   %a = tir.alloc_buffer "a"
// CHECK-NEXT:   %[[A:.*]] = tir.buffer_data %a
// CHECK-NEXT:   %total = tir.decl_buffer "total" %[[A]]
// CHECK:     tir.prim_func @relu(
// CHECK-SAME: usmp.in_place = {{.}}[0 : i64, 1 : i64]]}
// CHECK:     tir.prim_func @scale(
// CHECK-SAME: usmp.in_place = {{.}}[0 : i64, 1 : i64]]}
// CHECK:     tir.prim_func @shift
// CHECK-NOT: usmp.in_place

// The plan has no bytes of r's or total's own: h lives on to r's last use, a to total's.
// REPORT:      in place (a result over an input that dies there): r over h, total over a
// REPORT:      s  global_workspace {{ +[0-9]+}}    64  [8, 32)
// REPORT-NEXT: h  global_workspace {{ +[0-9]+}}    64  [13, 26)
// REPORT-NEXT: a  global_workspace {{ +[0-9]+}}    64  [23, 37)
// REPORT-NEXT: {{$}}
// OWN-NOT:     in place
// OWN:         r      global_workspace
// OWN:         total  global_workspace

// Lowered, r and total are views at h's and a's offsets.
// LOWERED:      %h = tir.decl_buffer "h" %{{.*}} : !tir.ptr<ui8> -> !tir.buffer<16xf32, align 16>
// LOWERED-NEXT: %[[HD:.*]] = tir.buffer_data %h
// LOWERED-NEXT: %r = tir.decl_buffer "r" %[[HD]]

// An operator that declares its pairs keeps them: a shift, y[i] = x[i + 1], which is
// correct in place (element i is written after element i + 1 is read, as an SVDF's state
// shift) though the TIR proof does not cover it. x dies at the first call; y does not.
// DECLARED:     tir.prim_func @main(
// DECLARED-SAME: usmp.in_place_results = #usmp.in_place_results<y = "x">}
// DECLARED:     tir.prim_func @shift(
// DECLARED-SAME: usmp.in_place = {{.}}[0 : i64, 1 : i64]]}

// LATE: error: tir-in-place-results runs before tir-to-usmp

tir.prim_func @main(%out: !tir.buffer<4xf32> {tir.name = "out"}) attributes {runner_function = true} {
  %x = tir.alloc_buffer "x" : !tir.buffer<4xf32>
  %y = tir.alloc_buffer "y" : !tir.buffer<4xf32>
  %px = tir.buffer_data %x : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %py = tir.buffer_data %y : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @shift(%px, %py) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
  %py2 = tir.buffer_data %y : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %po = tir.buffer_data %out : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @shift(%py2, %po) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
}
tir.prim_func @shift(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}, %y_ptr: !tir.ptr<f32> {tir.name = "y_ptr"}) attributes {usmp.in_place = [[0, 1]]} {
  %x = tir.decl_buffer "x" %x_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %y = tir.decl_buffer "y" %y_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  tir.for %i "i" = %c0 extent %c3 serial : i32 {
    %c1 = arith.constant 1 : i32
    %j = arith.addi %i, %c1 : i32
    %v = tir.load %x[%j] : f32
    tir.store %v, %y[%i]
  }
}
