// usmp-to-tir on a program that places no buffer (one kernel reading the input and writing
// the output): the plan is finished and empty, and the entry records that it takes no pool,
// so the C library has its record; an entry lowered before keeps the pools it records.
// RUN: usmp-opt %s --split-input-file -p usmp-to-tir | filecheck %s

tir.prim_func @relu(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}, %y_ptr: !tir.ptr<f32> {tir.name = "y_ptr"}) {
  %x = tir.decl_buffer "x" %x_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %y = tir.decl_buffer "y" %y_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %c0 = arith.constant 0 : i32
  %v = tir.load %x[%c0] : f32
  tir.store %v, %y[%c0]
}
tir.prim_func @main(%inp: !tir.buffer<4xf32> {tir.name = "inp"}, %out: !tir.buffer<4xf32> {tir.name = "out"}) attributes {runner_function = true} {
  %p0 = tir.buffer_data %inp : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %p1 = tir.buffer_data %out : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @relu(%p0, %p1) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
}

// CHECK:      tir.prim_func @relu(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}, %y_ptr: !tir.ptr<f32> {tir.name = "y_ptr"}) {
// CHECK:      tir.prim_func @main(%inp: !tir.buffer<4xf32> {tir.name = "inp"}, %out: !tir.buffer<4xf32> {tir.name = "out"}) attributes {runner_function = true, usmp.pools = #usmp.pool_sizes<>} {

// -----

tir.prim_func @main(%inp: !tir.buffer<4xf32> {tir.name = "inp"}, %out: !tir.buffer<4xf32> {tir.name = "out"}, %sram: !tir.buffer<16xui8> {tir.name = "sram"}) attributes {runner_function = true, usmp.pools = #usmp.pool_sizes<sram = 16>} {
  %c0 = arith.constant 0 : i32
  %v = tir.load %inp[%c0] : f32
  tir.store %v, %out[%c0]
}

// CHECK:      tir.prim_func @main({{.*}}) attributes {runner_function = true, usmp.pools = #usmp.pool_sizes<sram = 16>} {

// -----

// Operators alone, no entry: nothing to record on.
tir.prim_func @relu(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}) {
  %x = tir.decl_buffer "x" %x_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
}

// CHECK:      tir.prim_func @relu(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}) {
// CHECK-NOT:  usmp.
