// RUN: usmp-opt %s --split-input-file --verify-diagnostics -p tir-io-to-allocations,tir-to-usmp | filecheck %s
// RUN: %exit-code usmp-opt %s --split-input-file --plan-pools --use-workspace-io | filecheck %s --check-prefix=EXIT
// EXIT: error: usmp.constants names b, not a param of @main
// EXIT: exit=1

tir.prim_func @main(%a: !tir.buffer<4xf32> {tir.name = "a"}) attributes {usmp.constants = ["b"]} {
}
// CHECK: usmp.constants names b, not a param of @main

// -----

tir.prim_func @main(%a: !tir.buffer<4xf32> {tir.name = "a"}) attributes {usmp.constants = "a"} {
}
// CHECK: usmp.constants must be an array of param names

// -----

tir.prim_func @main(%a: !tir.buffer<4xf32> {tir.name = "a"}) attributes {usmp.outputs = ["y"]} {
}
// CHECK: usmp.outputs names y, not a param of @main

// -----

tir.prim_func @main(%a: !tir.buffer<4xf32> {tir.name = "a"}) {
}
tir.prim_func @caller(%b: !tir.buffer<4xf32> {tir.name = "b"}) {
  tir.call @main(%b) : (!tir.buffer<4xf32>) -> ()
}
// CHECK: @caller calls the entry function @main, whose I/O params would go

// -----

// A local-scope input cannot live in a global pool: an error, not a param silently lost.
tir.prim_func @main(%a: !tir.buffer<4xf32, scope "local"> {tir.name = "a"}) {
  %c0 = arith.constant 0 : i32
  %v = tir.load %a[%c0] : f32
}
// CHECK: the entry's I/O buffer cannot be placed in a pool (storage scope 'local'); plan without tir-io-to-allocations

// -----

tir.prim_func @main() {
  %a = tir.alloc_buffer "a" {usmp.io = {name = "a", kind = "sideways"}} : !tir.buffer<4xf32>
}
// CHECK: usmp.io must be #usmp.io<"param", input | output | input_output | constant | state>

// -----

// A pointer param viewed as two different buffers has no one size to plan.
tir.prim_func @main(%p: !tir.ptr<f32> {tir.name = "p"}) {
  %a = tir.decl_buffer %p : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %b = tir.decl_buffer %p : !tir.ptr<f32> -> !tir.buffer<8xf32>
}
// CHECK: param 'p' is viewed as 2 different buffers (!tir.buffer<4xf32>, !tir.buffer<8xf32>); the buffer it holds is ambiguous

// -----

// A param's name is its tir.name, never its SSA name: without one, nothing to publish.
tir.prim_func @main(%a: !tir.buffer<4xf32> {tir.name = "a"}, %b: !tir.buffer<4xf32>) {
}
// CHECK: param 1 of @main has no name to publish its offset under

// -----

// After tir-to-usmp, allocations made from the I/O params would never be planned.
tir.prim_func @main(%x: !tir.buffer<4xf32> {tir.name = "x"}) {
  %t = tir.alloc_buffer "t" {usmp.unplanned = "storage scope 'local'"} : !tir.buffer<4xf32, scope "local">
}
// CHECK: tir-io-to-allocations runs before tir-to-usmp, but this allocation is already marked usmp.unplanned
