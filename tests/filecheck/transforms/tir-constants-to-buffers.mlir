// With a constant pool, tir-constants-to-buffers moves the entry's constants (the params its
// usmp.constants names) into it: each becomes a buffer marked #usmp.io<"w", constant>,
// live for the whole run, so the constants are co-resident; workspace buffers stay in
// the workspace pool. usmp-to-tir then hands main the constant pool as one uint8 buffer
// and publishes each constant's offset in usmp.io_offsets.
// RUN: usmp-opt %s -p 'tir-to-usmp,usmp-assign-pools{pools="flash:kind=constant:alignment=32"},tir-constants-to-buffers,tir-align-to-pools' | filecheck %s
// RUN: usmp-opt %s -p 'tir-to-usmp,usmp-assign-pools{pools="flash:kind=constant:alignment=32"},tir-constants-to-buffers,tir-align-to-pools' | usmp-opt | filecheck %s
// RUN: usmp-opt %s --plan-pools --pools flash:kind=constant:alignment=32 -t usmp-report | filecheck %s --check-prefix=REPORT
// RUN: usmp-opt %s --plan-pools --pools flash:kind=constant:alignment=32 | filecheck %s --check-prefix=LOWERED
// Without a constant pool the constants stay params; constant-pool=true asks for the
// default one, @global_constant (added before tir-to-usmp too, it stays for the constants).
// RUN: usmp-opt %s --plan-pools | filecheck %s --check-prefix=PARAMS
// RUN: usmp-opt %s -p 'tir-to-usmp,tir-constants-to-buffers,usmp-assign-pools,usmp-plan' | filecheck %s --check-prefix=PARAMS-UNPLANNED
// RUN: usmp-opt %s -p 'tir-to-usmp,usmp-assign-pools{constant-pool=true},tir-constants-to-buffers,tir-align-to-pools,usmp-plan' -t usmp-report | filecheck %s --check-prefix=DEFAULT
// RUN: usmp-opt %s -p 'usmp-assign-pools{constant-pool=true},tir-to-usmp,tir-constants-to-buffers,usmp-assign-pools,tir-align-to-pools,usmp-plan' -t usmp-report | filecheck %s --check-prefix=DEFAULT
// usmp-opt --plan-pools --constant-pool is that option; alone it is a usage error.
// RUN: usmp-opt %s --plan-pools --constant-pool -t usmp-report | filecheck %s --check-prefix=DEFAULT
// RUN: %exit-code usmp-opt %s --constant-pool | filecheck %s --check-prefix=ALONE
// ALONE:      {{\A}}usmp-opt: error: --constant-pool goes with --plan-pools (or write -p '...,usmp-assign-pools{constant-pool=true},...')
// ALONE-NEXT: exit=1

tir.prim_func @add(%x_ptr: !tir.ptr<f32>, %w_ptr: !tir.ptr<f32>, %y_ptr: !tir.ptr<f32>) {
  %x = tir.decl_buffer %x_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %w = tir.decl_buffer %w_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %y = tir.decl_buffer %y_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  tir.for %i = %c0 extent %c4 serial : i32 {
    %a = tir.load %x[%i] : f32
    %b = tir.load %w[%i] : f32
    %s = arith.addf %a, %b : f32
    tir.store %s, %y[%i]
  }
}
tir.prim_func @main(%inp: !tir.buffer<4xf32> {tir.name = "inp"}, %w: !tir.buffer<4xf32> {tir.name = "w"}, %bias: !tir.buffer<4xf32> {tir.name = "bias"}, %out: !tir.buffer<4xf32> {tir.name = "out"}) attributes {runner_function = true, usmp.constants = ["w", "bias"]} {
  %t = tir.alloc_buffer "t" : !tir.buffer<4xf32>
  %p0 = tir.buffer_data %inp : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %p1 = tir.buffer_data %w : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %p2 = tir.buffer_data %t : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @add(%p0, %p1, %p2) : (!tir.ptr<f32>, !tir.ptr<f32>, !tir.ptr<f32>) -> ()
  %p3 = tir.buffer_data %bias : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %p4 = tir.buffer_data %out : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @add(%p2, %p3, %p4) : (!tir.ptr<f32>, !tir.ptr<f32>, !tir.ptr<f32>) -> ()
}

// CHECK:      usmp.pool @global_workspace workspace alignment 16
// CHECK-NEXT: usmp.pool @flash constant alignment 32
// CHECK:      tir.prim_func @main(%inp: !tir.buffer<4xf32> {tir.name = "inp"}, %out: !tir.buffer<4xf32> {tir.name = "out"}) attributes {runner_function = true} {
// The constants are live for the whole run: to the end of the last interval.
// CHECK-NEXT:   %w = usmp.alloc_offset "w" @flash[?] align 32 live [0, [[END:[0-9]+]]) {usmp.io = #usmp.io<"w", constant>} : !tir.buffer<4xf32, align 32>
// CHECK-NEXT:   %bias = usmp.alloc_offset "bias" @flash[?] align 32 live [0, [[END]]) {usmp.io = #usmp.io<"bias", constant>} : !tir.buffer<4xf32, align 32>
// CHECK-NEXT:   %t = usmp.alloc_offset "t" @global_workspace[?] align 16 live [{{[0-9]+}}, [[END]])
// CHECK:      usmp.liveness

// Each constant at an aligned offset of its own (32 apart: 16 bytes of padding).
// REPORT:      global_workspace {{ +}}16 {{ +}}16
// REPORT-NEXT: flash {{ +}}48 {{ +}}32 {{ +}}1.500x
// REPORT-DAG:  w {{ +}}flash {{ +}}{{0|32}} {{ +}}16 {{ +}}[0, {{[0-9]+}})  (constant)
// REPORT-DAG:  bias {{ +}}flash {{ +}}{{0|32}} {{ +}}16 {{ +}}[0, {{[0-9]+}})  (constant)

// LOWERED:      tir.prim_func @main(%inp: !tir.buffer<4xf32> {tir.name = "inp"}, %out: !tir.buffer<4xf32> {tir.name = "out"}, %global_workspace: !tir.buffer<16xui8> {tir.name = "global_workspace"}, %flash: !tir.buffer<48xui8> {tir.name = "flash"})
// LOWERED-SAME: usmp.io_offsets = #usmp.io_offsets<w = constant "flash"{{\[}}[[W:0|32]]] : memref<4xf32>, bias = constant "flash"[{{0|32}}] : memref<4xf32>>
// LOWERED-SAME: usmp.pools = #usmp.pool_sizes<global_workspace = 16, flash = 48>
// LOWERED-NEXT: %[[C:[0-9]+]] = arith.constant [[W]] : i32
// LOWERED-NEXT: %[[A:[0-9]+]] = tir.address_of %flash[%[[C]]] : !tir.ptr<ui8>
// LOWERED-NEXT: %w = tir.decl_buffer "w" %[[A]] : !tir.ptr<ui8> -> !tir.buffer<4xf32, align 32>

// PARAMS: tir.prim_func @main(%inp: !tir.buffer<4xf32> {tir.name = "inp"}, %w: !tir.buffer<4xf32> {tir.name = "w"}, %bias: !tir.buffer<4xf32> {tir.name = "bias"}, %out: !tir.buffer<4xf32> {tir.name = "out"}, %global_workspace: !tir.buffer<16xui8> {tir.name = "global_workspace"})
// PARAMS-SAME: usmp.constants = ["w", "bias"]

// DEFAULT:      global_workspace {{ +}}16 {{ +}}16
// DEFAULT-NEXT: global_constant {{ +}}32 {{ +}}32
// DEFAULT-DAG:  w {{ +}}global_constant {{ +}}{{0|16}} {{ +}}16 {{ +}}[0, {{[0-9]+}})  (constant)
// DEFAULT-DAG:  bias {{ +}}global_constant {{ +}}{{0|16}} {{ +}}16 {{ +}}[0, {{[0-9]+}})  (constant)

// Without a constant pool the pass leaves the constants params.
// PARAMS-UNPLANNED: tir.prim_func @main(%inp: !tir.buffer<4xf32> {tir.name = "inp"}, %w: !tir.buffer<4xf32> {tir.name = "w"}, %bias: !tir.buffer<4xf32> {tir.name = "bias"}, %out: !tir.buffer<4xf32> {tir.name = "out"})
// PARAMS-UNPLANNED-SAME: usmp.constants = ["w", "bias"]
