// RUN: usmp-opt %s --split-input-file -p cse,dce | filecheck %s

// A load after a store to the same buffer reads the stored value: cse keeps it, while it
// merges the second load of `b` before any store and the duplicate constants.

tir.prim_func @running_sum(%b: !tir.buffer<4xf32>, %c: !tir.buffer<4xf32>) {
  %0 = arith.constant 0 : i32
  %1 = tir.load %b[%0] : f32
  %2 = tir.load %b[%0] : f32
  %3 = arith.addf %1, %2 : f32
  tir.store %3, %b[%0]
  %4 = tir.load %b[%0] : f32
  %5 = arith.constant 0 : i32
  tir.store %4, %c[%5]
}

// CHECK-LABEL: tir.prim_func @running_sum
// CHECK-NEXT:    %0 = arith.constant 0 : i32
// CHECK-NEXT:    %1 = tir.load %b[%0] : f32
// CHECK-NEXT:    %2 = arith.addf %1, %1 : f32
// CHECK-NEXT:    tir.store %2, %b[%0]
// CHECK-NEXT:    %3 = tir.load %b[%0] : f32
// CHECK-NEXT:    tir.store %3, %c[%0]

// -----

// A loop's effects are those of its body: one that stores stands between two loads, one
// that only loads does not.

tir.prim_func @loops(%b: !tir.buffer<4xf32>, %c: !tir.buffer<4xf32>) {
  %0 = arith.constant 0 : i32
  %1 = arith.constant 4 : i32
  %2 = tir.load %b[%0] : f32
  tir.for %i = %0 extent %1 serial : i32 {
    %3 = tir.load %c[%i] : f32
    tir.store %3, %b[%i]
  }
  %4 = tir.load %b[%0] : f32
  tir.for %j = %0 extent %1 serial : i32 {
    %5 = tir.load %c[%j] : f32
  }
  %6 = tir.load %b[%0] : f32
  %7 = arith.addf %2, %4 : f32
  %8 = arith.addf %7, %6 : f32
  tir.store %8, %c[%0]
}

// CHECK-LABEL: tir.prim_func @loops
// CHECK:         %2 = tir.load %b[%0] : f32
// CHECK-NEXT:    tir.for
// CHECK:         %4 = tir.load %b[%0] : f32
// CHECK-NOT:     tir.for
// CHECK-NEXT:    %5 = arith.addf %2, %4 : f32
// CHECK-NEXT:    %6 = arith.addf %5, %4 : f32

// -----

// Calls may write any memory; allocations, stores and calls are never dead code.

tir.prim_func @calls(%b: !tir.buffer<4xf32>) {
  %0 = arith.constant 0 : i32
  %1 = tir.load %b[%0] : f32
  %p = tir.buffer_data %b : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %2 = tir.call_intrin "tirx.call_extern"(%p) : (!tir.ptr<f32>) -> i32
  %3 = tir.load %b[%0] : f32
  %4 = arith.addf %1, %3 : f32
  tir.store %4, %b[%0]
  %unused = tir.alloc_buffer "unused" : !tir.buffer<4xf32>
  %5 = tir.load %b[%0] : f32
}

// CHECK-LABEL: tir.prim_func @calls
// CHECK:         %1 = tir.load %b[%0] : f32
// CHECK-NEXT:    %p = tir.buffer_data
// CHECK-NEXT:    %2 = tir.call_intrin "tirx.call_extern"
// CHECK-NEXT:    %3 = tir.load %b[%0] : f32
// CHECK-NEXT:    %4 = arith.addf %1, %3 : f32
// CHECK-NEXT:    tir.store %4, %b[%0]
// CHECK-NEXT:    %unused = tir.alloc_buffer "unused"
// CHECK-NEXT:  }
