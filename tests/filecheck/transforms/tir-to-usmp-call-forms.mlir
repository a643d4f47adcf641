// tir-to-usmp: TVM's own USMP tests call operators with `T.call_extern` and
// `T.tvm_call_cpacked` naming a module function; TVM 0.27 calls them directly. Every form
// is the same call: the callee is descended into, only its loads and stores extend the
// caller's buffers (handing %b to @op is no use of it, and the call's status carries no
// buffer), so the three modules get identical intervals: %a and %b, and %b and %c, meet
// only through @op's workspace, never at a call. A buffer in a `global.<tag>` scope is
// planned like `global` (its view and pointers move to the pool's `global` scope); other
// scopes stay, naming theirs. %dead is never used: no
// interval, no conflict, still an offset.
// RUN: usmp-opt %s --split-input-file -p tir-to-usmp,usmp-assign-pools,tir-align-to-pools | filecheck %s
// RUN: usmp-opt %s --split-input-file --plan-pools -t usmp-report | filecheck %s --check-prefix=REPORT

tir.prim_func @op(%x_ptr: !tir.ptr<f32>, %y_ptr: !tir.ptr<f32>) {
  %x = tir.decl_buffer %x_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %y = tir.decl_buffer %y_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %ws = tir.alloc_buffer "ws" : !tir.buffer<4xf32, scope "global.workspace">
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
tir.prim_func @main() attributes {runner_function = true} {
  %a = tir.alloc_buffer "a" : !tir.buffer<4xf32>
  %b = tir.alloc_buffer "b" : !tir.buffer<4xf32, scope "global.tagged">
  %c = tir.alloc_buffer "c" : !tir.buffer<4xf32>
  %dead = tir.alloc_buffer "dead" : !tir.buffer<4xf32>
  %shared = tir.alloc_buffer "shared" : !tir.buffer<4xf32, scope "shared">
  %pa = tir.buffer_data %a : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %pb = tir.buffer_data %b : !tir.buffer<4xf32, scope "global.tagged"> -> !tir.ptr<f32, "global.tagged">
  %pc = tir.buffer_data %c : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @op(%pa, %pb) : (!tir.ptr<f32>, !tir.ptr<f32, "global.tagged">) -> ()
  tir.call @op(%pb, %pc) : (!tir.ptr<f32, "global.tagged">, !tir.ptr<f32>) -> ()
}

// CHECK:      %ws = usmp.alloc_offset "ws" @global_workspace[?] align 16 live [9, 13) [17, 21) :
// CHECK:      %a = usmp.alloc_offset "a" @global_workspace[?] align 16 live [9, 11) :
// CHECK-NEXT: %b = usmp.alloc_offset "b" @global_workspace[?] align 16 live [11, 19) : !tir.buffer<4xf32, align 16>
// CHECK-NEXT: %c = usmp.alloc_offset "c" @global_workspace[?] align 16 live [19, 21) :
// CHECK-NEXT: %dead = usmp.alloc_offset "dead" @global_workspace[?] align 16 :
// CHECK:      %shared = tir.alloc_buffer "shared" {usmp.unplanned = "storage scope 'shared'"}
// CHECK:      %pb = tir.buffer_data %b : !tir.buffer<4xf32, align 16> -> !tir.ptr<f32>
// CHECK:      usmp.liveness

// REPORT:      global_workspace    32        32  1.000x
// REPORT:      dead    global_workspace       0    16  -
// REPORT:      not planned:
// REPORT-NEXT:   shared  storage scope 'shared'

// -----

tir.prim_func @op(%x_ptr: !tir.ptr<f32>, %y_ptr: !tir.ptr<f32>) {
  %x = tir.decl_buffer %x_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %y = tir.decl_buffer %y_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %ws = tir.alloc_buffer "ws" : !tir.buffer<4xf32, scope "global.workspace">
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
tir.prim_func @main() attributes {runner_function = true} {
  %a = tir.alloc_buffer "a" : !tir.buffer<4xf32>
  %b = tir.alloc_buffer "b" : !tir.buffer<4xf32, scope "global.tagged">
  %c = tir.alloc_buffer "c" : !tir.buffer<4xf32>
  %dead = tir.alloc_buffer "dead" : !tir.buffer<4xf32>
  %shared = tir.alloc_buffer "shared" : !tir.buffer<4xf32, scope "shared">
  %pa = tir.buffer_data %a : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %pb = tir.buffer_data %b : !tir.buffer<4xf32, scope "global.tagged"> -> !tir.ptr<f32, "global.tagged">
  %pc = tir.buffer_data %c : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %name0 = tir.string "op"
  %status0 = tir.call_intrin "tirx.call_extern"(%name0, %pa, %pb) : (!tir.string, !tir.ptr<f32>, !tir.ptr<f32, "global.tagged">) -> i32
  tir.evaluate %status0 : i32
  %name1 = tir.string "op"
  %status1 = tir.call_intrin "tirx.tvm_call_cpacked"(%name1, %pb, %pc) : (!tir.string, !tir.ptr<f32, "global.tagged">, !tir.ptr<f32>) -> i32
  tir.evaluate %status1 : i32
}

// CHECK:      %ws = usmp.alloc_offset "ws" @global_workspace[?] align 16 live [9, 13) [17, 21) :
// CHECK:      %a = usmp.alloc_offset "a" @global_workspace[?] align 16 live [9, 11) :
// CHECK-NEXT: %b = usmp.alloc_offset "b" @global_workspace[?] align 16 live [11, 19) : !tir.buffer<4xf32, align 16>
// CHECK-NEXT: %c = usmp.alloc_offset "c" @global_workspace[?] align 16 live [19, 21) :
// CHECK-NEXT: %dead = usmp.alloc_offset "dead" @global_workspace[?] align 16 :
// CHECK:      %shared = tir.alloc_buffer "shared" {usmp.unplanned = "storage scope 'shared'"}
// CHECK:      %pb = tir.buffer_data %b : !tir.buffer<4xf32, align 16> -> !tir.ptr<f32>
// CHECK:      usmp.liveness

// REPORT:      global_workspace    32        32  1.000x
// REPORT:      dead    global_workspace       0    16  -
