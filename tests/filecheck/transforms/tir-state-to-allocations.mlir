// tir-state-to-allocations: the entry's usmp.state pairs each variable's value before the
// run (an input param) with its value after (an output param). %s is last read by the
// first call and its value after written by the second: one buffer, updated in place,
// marked #usmp.io<"s", state>, which the plan puts in a state pool of its own, live for
// the whole run, and usmp-to-tir publishes under both names. %t is read and its value
// after written by the same call: it stays two params, an input and an output, and
// leaves usmp.state.
// RUN: usmp-opt %s -p tir-state-to-allocations | filecheck %s
// RUN: usmp-opt %s -p tir-state-to-allocations | usmp-opt | filecheck %s
// RUN: usmp-opt %s --plan-pools -t usmp-report | filecheck %s --check-prefix=REPORT
// RUN: usmp-opt %s --plan-pools --use-workspace-io -t usmp-report | filecheck %s --check-prefix=REPORT-IO
// RUN: usmp-opt %s --plan-pools --use-workspace-io | filecheck %s --check-prefix=LOWERED
// A state pool of the user's own takes the state instead of @global_state.
// RUN: usmp-opt %s --plan-pools --pools sram,persist:kind=state:alignment=32 -t usmp-report | filecheck %s --check-prefix=NAMED

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
tir.prim_func @main(%x: !tir.buffer<4xi8> {tir.name = "x"}, %s: !tir.buffer<4xi8> {tir.name = "s"}, %t: !tir.buffer<4xi8> {tir.name = "t"}, %y: !tir.buffer<4xi8> {tir.name = "y"}, %s_next: !tir.buffer<4xi8> {tir.name = "s_next"}, %t_next: !tir.buffer<4xi8> {tir.name = "t_next"}) attributes {runner_function = true, usmp.outputs = ["y", "s_next", "t_next"], usmp.state = #usmp.state<s = "s_next", t = "t_next">} {
  %c = tir.alloc_buffer "c" : !tir.buffer<4xi8>
  %p0 = tir.buffer_data %s : !tir.buffer<4xi8> -> !tir.ptr<i8>
  %p1 = tir.buffer_data %c : !tir.buffer<4xi8> -> !tir.ptr<i8>
  tir.call @copy(%p0, %p1) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
  %p2 = tir.buffer_data %c : !tir.buffer<4xi8> -> !tir.ptr<i8>
  %p3 = tir.buffer_data %s_next : !tir.buffer<4xi8> -> !tir.ptr<i8>
  tir.call @copy(%p2, %p3) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
  %p4 = tir.buffer_data %x : !tir.buffer<4xi8> -> !tir.ptr<i8>
  %p5 = tir.buffer_data %y : !tir.buffer<4xi8> -> !tir.ptr<i8>
  tir.call @copy(%p4, %p5) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
  %p6 = tir.buffer_data %t : !tir.buffer<4xi8> -> !tir.ptr<i8>
  %p7 = tir.buffer_data %t_next : !tir.buffer<4xi8> -> !tir.ptr<i8>
  tir.call @copy(%p6, %p7) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
}

// CHECK:      tir.prim_func @main(%x: !tir.buffer<4xi8> {tir.name = "x"}, %t: !tir.buffer<4xi8> {tir.name = "t"}, %y: !tir.buffer<4xi8> {tir.name = "y"}, %t_next: !tir.buffer<4xi8> {tir.name = "t_next"}) attributes {runner_function = true, usmp.outputs = ["y", "t_next"], usmp.state = #usmp.state<s = "s_next">} {
// CHECK-NEXT:   %s = tir.alloc_buffer "s" {usmp.io = #usmp.io<"s", state>} : !tir.buffer<4xi8>
// CHECK:        %p0 = tir.buffer_data %s
// CHECK:        %p3 = tir.buffer_data %s
// CHECK:        %p6 = tir.buffer_data %t
// CHECK:        %p7 = tir.buffer_data %t_next

// REPORT:      global_workspace     4         4  1.000x  -
// REPORT-NEXT: global_state         4         4  1.000x  -
// REPORT:      s       global_state           0     4  [0, 22)  (state)

// REPORT-IO:      global_workspace    36        12  3.000x  -
// REPORT-IO-NEXT: global_state         4         4  1.000x  -
// REPORT-IO:      t       global_workspace      32     4  [0, 26)  (input)
// REPORT-IO-NEXT: s       global_state           0     4  [0, 26)  (state)

// LOWERED: tir.prim_func @main(%global_workspace: !tir.buffer<36xui8> {tir.name = "global_workspace"}, %global_state: !tir.buffer<4xui8> {tir.name = "global_state"})
// LOWERED-SAME: s = state "global_state"[0] : memref<4xi8>, s_next = state "global_state"[0] : memref<4xi8>>
// LOWERED-SAME: usmp.pools = #usmp.pool_sizes<global_workspace = 36, global_state = 4>

// NAMED:      sram        4         4  1.000x  -
// NAMED-NEXT: persist     4         4  1.000x  -
// NAMED:      s       persist       0     4  [0, 22)  (state)
