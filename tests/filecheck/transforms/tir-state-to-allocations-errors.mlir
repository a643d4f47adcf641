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
