// tir-reorder-for-memory: the branches example runs both wide operators (256 bytes each)
// before either narrowing one; the least-peak order runs each branch to its narrow end
// first, moving each call with the ops that compute its arguments. --plan-pools runs the
// pass (288 bytes); --no-reorder keeps the file's order (528).
// RUN: usmp-opt %examples/pass_ordering/branches.mlir -p tir-reorder-for-memory | filecheck %s
// RUN: usmp-opt %examples/pass_ordering/branches.mlir --plan-pools -t 'usmp-report{sort=ir}' | filecheck %s --check-prefix=REPORT
// RUN: usmp-opt %examples/pass_ordering/branches.mlir --plan-pools --no-reorder -t usmp-report | filecheck %s --check-prefix=FILE
// RUN: usmp-opt %examples/pass_ordering/branches.mlir --plan-pools -t usmp-html | filecheck %s --check-prefix=HTML
// RUN: usmp-opt %examples/pass_ordering/branches.mlir -p tir-reorder-for-memory | usmp-opt -p tir-reorder-for-memory | filecheck %s --check-prefix=AGAIN
// RUN: usmp-opt %examples/pass_ordering/branches.mlir -p 'tir-reorder-for-memory{max-states=1}' | filecheck %s --check-prefix=BEAM
// RUN: usmp-opt %s -p tir-reorder-for-memory | filecheck %s --check-prefix=LOOP
// RUN: usmp-opt %examples/bands/chain.mlir -p tir-reorder-for-memory | filecheck %s --check-prefix=KEPT
// RUN: usmp-opt %examples/bands/chain.mlir --plan-pools --no-band-stages -t usmp-report | filecheck %s --check-prefix=KEPT-REPORT
// RUN: not usmp-opt %s -p 'tir-reorder-for-memory{max-states=0}' 2>&1 | filecheck %s --check-prefix=BAD
// RUN: not usmp-opt %examples/pass_ordering/branches.mlir -p tir-to-usmp,tir-reorder-for-memory 2>&1 | filecheck %s --check-prefix=LATE

// CHECK:      tir.prim_func @main
// CHECK-SAME: usmp.schedule = #usmp.schedule<peak = 288, file_peak = 528, proven_least = true, calls = [0 @widen, 2 @narrow, 1 @widen, 3 @narrow, 4 @add]>
// CHECK:      %[[IN:.*]] = tir.buffer_data %inp
// CHECK-NEXT: %[[A:.*]] = tir.buffer_data %wide_a
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2.0
// CHECK-NEXT: tir.call @widen(%[[IN]], %[[A]], %[[TWO]])
// CHECK-NEXT: tir.buffer_data %wide_a
// CHECK-NEXT: tir.buffer_data %narrow_a
// CHECK-NEXT: tir.call @narrow
// CHECK-NEXT: tir.buffer_data %inp
// CHECK-NEXT: tir.buffer_data %wide_b
// CHECK-NEXT: arith.constant -1.0
// CHECK-NEXT: tir.call @widen
// CHECK:      tir.call @narrow
// CHECK:      tir.call @add

// REPORT:      global_workspace   288       288  1.000x
// REPORT:      schedule: reordered: peak 288 bytes against the file's 528 (proven least)
// REPORT:      wide_a    global_workspace      16   256  [7, 16)
// REPORT-NEXT: wide_b    global_workspace      16   256  [19, 28)
// FILE:        global_workspace   528       528  1.000x
// HTML:        <p>schedule: reordered: peak 288 bytes against the file&#x27;s 528 (proven least): @widen, @narrow, @widen, @narrow, @add
// FILE-NOT:    schedule:

// The order found is least already: a second run leaves it, and its record, as they are.
// AGAIN:     usmp.schedule = #usmp.schedule<peak = 288, file_peak = 528
// AGAIN-NOT: usmp.schedule

// A chain has one order: the file's, kept, and the entry records so (the report prints
// it; translate/tvmscript-schedule-kept.test reads it back from TVMScript).
// KEPT:        usmp.schedule = #usmp.schedule<peak = 64, file_peak = 64, proven_least = true, calls = [0 @copy, 1 @copy, 2 @down, 3 @total]>
// KEPT-REPORT: schedule: the file's order kept: peak 64 bytes (proven least): @copy, @copy, @down, @total

// A search that keeps one set of calls a layer is not proven least; here it still finds
// the order.
// BEAM: usmp.schedule = #usmp.schedule<peak = 288, file_peak = 528, proven_least = false

// An entry with a statement among its calls (here a store) is left in the file's order.
// LOOP:     tir.prim_func @main
// LOOP-NOT: usmp.schedule
// LOOP:     tir.call @fill(%{{.*}}) : (!tir.ptr<f32>) -> ()
// LOOP:     tir.store
// LOOP:     tir.call @fill

// BAD: error: max-states must be at least 1, got 0

// LATE: error: tir-reorder-for-memory runs before tir-to-usmp

tir.prim_func @fill(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}) {
  %x = tir.decl_buffer "x" %x_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1.0 : f32
  tir.store %one, %x[%c0]
}
tir.prim_func @main() attributes {runner_function = true} {
  %a = tir.alloc_buffer "a" : !tir.buffer<4xf32>
  %b = tir.alloc_buffer "b" : !tir.buffer<4xf32>
  %pa = tir.buffer_data %a : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @fill(%pa) : (!tir.ptr<f32>) -> ()
  %c0 = arith.constant 0 : i32
  %two = arith.constant 2.0 : f32
  tir.store %two, %b[%c0]
  %pb = tir.buffer_data %b : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @fill(%pb) : (!tir.ptr<f32>) -> ()
}
