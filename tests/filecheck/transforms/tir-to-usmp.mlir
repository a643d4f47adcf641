// tir-to-usmp: TVM's buffer-info extraction on textual TIR. One timeline over the call
// tree from the entry: @op is called three times (its workspace %ws gets one interval per
// call), the caller's %a and %b are live where @op's loops touch them through its params,
// and the uses inside the serial loop %k stretch %a and %b over the whole loop (but not
// %ws, allocated inside it). Unplannable allocations keep a reason.
// RUN: usmp-opt %s -p tir-to-usmp,usmp-assign-pools,tir-align-to-pools | filecheck %s
// RUN: usmp-opt %s --plan-pools -t usmp-report | filecheck %s --check-prefix=REPORT
// RUN: usmp-opt %s -p 'tir-to-usmp{workspaces=false},usmp-assign-pools,tir-align-to-pools' | filecheck %s --check-prefix=NOWS

// With workspaces=false only the entry's buffers are planned, as planners that never
// see operator workspaces (Relax's) do.
// NOWS: %ws = tir.alloc_buffer "ws" {usmp.unplanned = "operator workspace (tir-to-usmp{workspaces=false})"} : !tir.buffer<4xf32>
// NOWS: %a = usmp.alloc_offset "a"

tir.prim_func @op(%x_ptr: !tir.ptr<f32>, %y_ptr: !tir.ptr<f32>) {
  %x = tir.decl_buffer %x_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %y = tir.decl_buffer %y_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %ws = tir.alloc_buffer "ws" : !tir.buffer<4xf32>
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  tir.for %i = %c0 extent %c4 serial : i32 {
    %v = tir.load %x[%i] : f32
    tir.store %v, %ws[%i]
  }
  tir.for %j = %c0 extent %c4 serial : i32 {
    %w = tir.load %ws[%j] : f32
    tir.store %w, %y[%j]
  }
}
tir.prim_func @par(%x_ptr: !tir.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  tir.for %i = %c0 extent %c4 parallel : i32 {
    %inner = tir.alloc_buffer "inner" : !tir.buffer<4xf32>
    %f = arith.constant 1.0 : f32
    tir.store %f, %inner[%i]
  }
}
tir.prim_func @unused() {
  %dead = tir.alloc_buffer "dead" : !tir.buffer<4xf32>
}
tir.prim_func @main(%in: !tir.buffer<4xf32> {tir.name = "in"}, %out: !tir.buffer<4xf32> {tir.name = "out"}) attributes {runner_function = true} {
  %a = tir.alloc_buffer "a" : !tir.buffer<4xf32>
  %b = tir.alloc_buffer "b" : !tir.buffer<4xf32>
  %local = tir.alloc_buffer "local" : !tir.buffer<4xf32, scope "local">
  %p0 = tir.buffer_data %in : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %p1 = tir.buffer_data %a : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @op(%p0, %p1) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  tir.for %k = %c0 extent %c2 serial : i32 {
    %p2 = tir.buffer_data %a : !tir.buffer<4xf32> -> !tir.ptr<f32>
    %p3 = tir.buffer_data %b : !tir.buffer<4xf32> -> !tir.ptr<f32>
    tir.call @op(%p2, %p3) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
  }
  %p4 = tir.buffer_data %b : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @par(%p4) : (!tir.ptr<f32>) -> ()
  %p5 = tir.buffer_data %b : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %p6 = tir.buffer_data %out : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @op(%p5, %p6) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
}

// Statement numbers: main's allocs 0-2; call @op 3 (decl 4, 5, alloc 6, loop 7 [store 8],
// loop 9 [store 10]); loop %k 11 with call @op 12 (13-19); call @par 20 (21-23);
// call @op 24 (25-31).
// CHECK:      usmp.pool @global_workspace workspace alignment 16
// CHECK:      %ws = usmp.alloc_offset "ws" @global_workspace[?] align 16 live [7, 11) [16, 20) [28, 32) : !tir.buffer<4xf32, align 16>
// CHECK:      %inner = tir.alloc_buffer "inner" {usmp.unplanned = "inside a parallel loop"}
// CHECK:      %dead = tir.alloc_buffer "dead" {usmp.unplanned = "not reachable from the entry function"}
// CHECK:      %a = usmp.alloc_offset "a" @global_workspace[?] align 16 live [9, 20)
// CHECK-NEXT: %b = usmp.alloc_offset "b" @global_workspace[?] align 16 live [11, 30)
// CHECK-NEXT: %local = tir.alloc_buffer "local" {usmp.unplanned = "storage scope 'local'"}
// CHECK:      usmp.liveness

// REPORT:      global_workspace        48         48  1.000x
// REPORT:      not planned:
// REPORT-DAG:    inner                 inside a parallel loop
// REPORT-DAG:    dead                  not reachable from the entry function
// REPORT-DAG:    local                 storage scope 'local'
