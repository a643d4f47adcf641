// RUN: usmp-opt %s --split-input-file --verify-diagnostics -p tir-state-to-allocations | filecheck %s

tir.prim_func @main(%s: !tir.buffer<4xi8> {tir.name = "s"}) attributes {runner_function = true, usmp.state = #usmp.state<s = "s_next">} {
}
// CHECK: usmp.state names 's_next', not a buffer param of @main

// -----

tir.prim_func @main(%s: !tir.buffer<4xi8> {tir.name = "s"}, %n: !tir.buffer<8xi8> {tir.name = "n"}) attributes {runner_function = true, usmp.state = #usmp.state<s = "n">} {
}
// CHECK: variable 's' is !tir.buffer<4xi8> before the run and !tir.buffer<8xi8> after it ('n')

// -----

tir.prim_func @main(%s: !tir.buffer<4xi8> {tir.name = "s"}, %n: !tir.buffer<4xi8> {tir.name = "n"}) attributes {runner_function = true, usmp.outputs = ["s"], usmp.state = #usmp.state<s = "n">} {
}
// CHECK: variable 's' must be an input and 'n' an output (the entry's usmp.outputs)

// -----

tir.prim_func @shift(%a_ptr: !tir.ptr<i8>, %b_ptr: !tir.ptr<i8>) attributes {usmp.in_place = [[0, 2]]} {
}
tir.prim_func @main(%s: !tir.buffer<4xi8> {tir.name = "s"}, %n: !tir.buffer<4xi8> {tir.name = "n"}) attributes {runner_function = true, usmp.outputs = ["n"], usmp.state = #usmp.state<s = "n">} {
  %p0 = tir.buffer_data %s : !tir.buffer<4xi8> -> !tir.ptr<i8>
  %p1 = tir.buffer_data %n : !tir.buffer<4xi8> -> !tir.ptr<i8>
  tir.call @shift(%p0, %p1) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
}
// CHECK: usmp.in_place must be {{.*}}, pairs of the indices of @shift's 2 params

// -----

tir.prim_func @shift(%a_ptr: !tir.ptr<i8>, %b_ptr: !tir.ptr<i8>) attributes {usmp.in_place = [[0, "b"]]} {
}
tir.prim_func @main(%s: !tir.buffer<4xi8> {tir.name = "s"}, %n: !tir.buffer<4xi8> {tir.name = "n"}) attributes {runner_function = true, usmp.outputs = ["n"], usmp.state = #usmp.state<s = "n">} {
  %p0 = tir.buffer_data %s : !tir.buffer<4xi8> -> !tir.ptr<i8>
  %p1 = tir.buffer_data %n : !tir.buffer<4xi8> -> !tir.ptr<i8>
  tir.call @shift(%p0, %p1) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
}
// CHECK: usmp.in_place must be {{.*}}, pairs of the indices of @shift's 2 params
