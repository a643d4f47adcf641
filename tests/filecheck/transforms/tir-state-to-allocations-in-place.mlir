// tir-state-to-allocations with an operator that updates a variable in place: @shift
// writes element i of its output from element i + 1 of its input, ahead of it, so its
// `usmp.in_place = [[0, 1]]` says its output (param 1) may be its input's buffer (param 0),
// as an SVDF's state shift is. %s, read and its value after written by one call of it,
// becomes one buffer in the state pool. %t, passed to @copy, which declares nothing, stays
// two params; so does %u, whose value after @shift reads and whose value before it writes.
// RUN: usmp-opt %s -p tir-state-to-allocations | filecheck %s
// RUN: usmp-opt %s --plan-pools -t usmp-report | filecheck %s --check-prefix=REPORT

tir.prim_func @shift(%a_ptr: !tir.ptr<i8>, %b_ptr: !tir.ptr<i8>) attributes {usmp.in_place = [[0, 1]]} {
  %a = tir.decl_buffer %a_ptr : !tir.ptr<i8> -> !tir.buffer<4xi8>
  %b = tir.decl_buffer %b_ptr : !tir.ptr<i8> -> !tir.buffer<4xi8>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  tir.for %i = %c0 extent %c3 serial : i32 {
    %next = arith.addi %i, %c1 : i32
    %v = tir.load %a[%next] : i8
    tir.store %v, %b[%i]
  }
  %zero = arith.constant 0 : i8
  tir.store %zero, %b[%c3]
}
tir.prim_func @copy(%a_ptr: !tir.ptr<i8>, %b_ptr: !tir.ptr<i8>) {
  %a = tir.decl_buffer %a_ptr : !tir.ptr<i8> -> !tir.buffer<4xi8>
  %b = tir.decl_buffer %b_ptr : !tir.ptr<i8> -> !tir.buffer<4xi8>
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  tir.for %i = %c0 extent %c4 serial : i32 {
    %v = tir.load %a[%i] : i8
    tir.store %v, %b[%i]
  }
}
tir.prim_func @main(%s: !tir.buffer<4xi8> {tir.name = "s"}, %t: !tir.buffer<4xi8> {tir.name = "t"}, %u: !tir.buffer<4xi8> {tir.name = "u"}, %s_next: !tir.buffer<4xi8> {tir.name = "s_next"}, %t_next: !tir.buffer<4xi8> {tir.name = "t_next"}, %u_next: !tir.buffer<4xi8> {tir.name = "u_next"}) attributes {runner_function = true, usmp.outputs = ["s_next", "t_next", "u_next"], usmp.state = #usmp.state<s = "s_next", t = "t_next", u = "u_next">} {
  %p0 = tir.buffer_data %s : !tir.buffer<4xi8> -> !tir.ptr<i8>
  %p1 = tir.buffer_data %s_next : !tir.buffer<4xi8> -> !tir.ptr<i8>
  tir.call @shift(%p0, %p1) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
  %p2 = tir.buffer_data %t : !tir.buffer<4xi8> -> !tir.ptr<i8>
  %p3 = tir.buffer_data %t_next : !tir.buffer<4xi8> -> !tir.ptr<i8>
  tir.call @copy(%p2, %p3) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
  %p4 = tir.buffer_data %u_next : !tir.buffer<4xi8> -> !tir.ptr<i8>
  %p5 = tir.buffer_data %u : !tir.buffer<4xi8> -> !tir.ptr<i8>
  tir.call @shift(%p4, %p5) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
}

// CHECK:      tir.prim_func @main(%t: !tir.buffer<4xi8> {tir.name = "t"}, %u: !tir.buffer<4xi8> {tir.name = "u"}, %t_next: !tir.buffer<4xi8> {tir.name = "t_next"}, %u_next: !tir.buffer<4xi8> {tir.name = "u_next"})
// CHECK-SAME: usmp.state = #usmp.state<s = "s_next">
// CHECK-NEXT:   %s = tir.alloc_buffer "s" {usmp.io = #usmp.io<"s", state>} : !tir.buffer<4xi8>
// CHECK-NEXT:   %p0 = tir.buffer_data %s
// CHECK-NEXT:   %p1 = tir.buffer_data %s
// CHECK-NEXT:   tir.call @shift(%p0, %p1)

// REPORT:      global_state         4         4  1.000x  -
// REPORT:      s       global_state           0     4  [0, {{[0-9]+}})  (state)
