// tir-hoist-workspaces: an operator's workspaces become pointer params, allocated by each
// caller just before each call. @inner's "tmp" moves into @outer, and on into @main (callees
// first: every call path gets its own buffer); @outer's own "acc" (whose param name
// "acc_var" is taken) moves too. Allocations in a loop or in a scope no pool holds stay.
// The call_extern form of a call gets the extra argument as a direct call does.
// RUN: usmp-opt %s -p tir-hoist-workspaces | filecheck %s
// RUN: usmp-opt %s -p tir-hoist-workspaces,tir-to-usmp,usmp-assign-pools,tir-align-to-pools | filecheck %s --check-prefix=NAMES
// RUN: usmp-opt %s -p tir-hoist-workspaces | usmp-opt -p tir-hoist-workspaces | filecheck %s --check-prefix=AGAIN

// The diamond example: hoisted, each call's workspace has its own interval and the pool
// reaches max-live; TVM's order (one workspace for both calls) cannot.
// RUN: usmp-opt %examples/pass_ordering/diamond.mlir --plan-pools --no-in-place -t 'usmp-report{sort=ir}' | filecheck %s --check-prefix=TVM
// RUN: usmp-opt %examples/pass_ordering/diamond.mlir -p tir-hoist-workspaces,tir-to-usmp,usmp-assign-pools,tir-align-to-pools,usmp-plan -t 'usmp-report{sort=ir}' | filecheck %s --check-prefix=HOISTED
// TVM:      global_workspace    64        48  1.333x
// TVM:      ws      global_workspace {{ +}}{{[0-9]+}}    16  [8, 12) [27, 31)
// HOISTED:  global_workspace    48        48  1.000x
// HOISTED:  ws      global_workspace {{ +}}{{[0-9]+}}    16  [9, 13)
// HOISTED:  ws2     global_workspace {{ +}}{{[0-9]+}}    16  [29, 33)

tir.prim_func @inner(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}) {
  %x = tir.decl_buffer "x" %x_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %tmp = tir.alloc_buffer "tmp" annotations {note = 1 : i32} : !tir.buffer<4xf32, scope "global.workspace">
  %local = tir.alloc_buffer "local" : !tir.buffer<4xf32, scope "local">
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  tir.for %i "i" = %c0 extent %c4 serial : i32 {
    %row = tir.alloc_buffer "row" : !tir.buffer<4xf32>
    %v = tir.load %x[%i] : f32
    tir.store %v, %tmp[%i]
    tir.store %v, %local[%i]
    tir.store %v, %row[%i]
  }
}
tir.prim_func @outer(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}, %taken: !tir.ptr<f32> {tir.name = "acc_var"}) {
  %acc = tir.alloc_buffer "acc" : !tir.buffer<8xf32>
  tir.call @inner(%x_ptr) : (!tir.ptr<f32>) -> ()
  %name = tir.string "inner"
  %status = tir.call_intrin "tirx.call_extern"(%name, %x_ptr) : (!tir.string, !tir.ptr<f32>) -> i32
  tir.evaluate %status : i32
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1.0 : f32
  tir.store %one, %acc[%c0]
}
tir.prim_func @main(%in: !tir.buffer<4xf32> {tir.name = "in"}) attributes {runner_function = true} {
  %own = tir.alloc_buffer "own" : !tir.buffer<4xf32>
  %p = tir.buffer_data %in : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @outer(%p, %p) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
}

// CHECK:      tir.prim_func @inner(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}, %tmp_var: !tir.ptr<f32, "global.workspace"> {tir.name = "tmp_var"}) {
// CHECK-NEXT:   %x = tir.decl_buffer "x" %x_ptr
// CHECK-NEXT:   %tmp = tir.decl_buffer "tmp" %tmp_var : !tir.ptr<f32, "global.workspace"> -> !tir.buffer<4xf32, scope "global.workspace">
// CHECK-NEXT:   %local = tir.alloc_buffer "local"
// CHECK:          %row = tir.alloc_buffer "row"

// CHECK:      tir.prim_func @outer(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}, %taken: !tir.ptr<f32> {tir.name = "acc_var"}, %acc_var2: !tir.ptr<f32> {tir.name = "acc_var2"}, %tmp_var: !tir.ptr<f32, "global.workspace"> {tir.name = "tmp_var"}, %tmp_var2: !tir.ptr<f32, "global.workspace"> {tir.name = "tmp_var2"}) {
// CHECK-NEXT:   %acc = tir.decl_buffer "acc" %acc_var2 : !tir.ptr<f32> -> !tir.buffer<8xf32>
// CHECK-NEXT:   %tmp = tir.decl_buffer "tmp" %tmp_var : !tir.ptr<f32, "global.workspace"> -> !tir.buffer<4xf32, scope "global.workspace">
// CHECK-NEXT:   %[[P1:.*]] = tir.buffer_data %tmp
// CHECK-NEXT:   tir.call @inner(%x_ptr, %[[P1]])
// CHECK-NEXT:   %name = tir.string "inner"
// CHECK-NEXT:   %tmp_1 = tir.decl_buffer "tmp" %tmp_var2
// CHECK-NEXT:   %[[P2:.*]] = tir.buffer_data %tmp_1
// CHECK-NEXT:   %status = tir.call_intrin "tirx.call_extern"(%name, %x_ptr, %[[P2]]) : (!tir.string, !tir.ptr<f32>, !tir.ptr<f32, "global.workspace">) -> i32

// CHECK:      tir.prim_func @main(%in: !tir.buffer<4xf32> {tir.name = "in"}) attributes {runner_function = true} {
// CHECK-NEXT:   %own = tir.alloc_buffer "own" : !tir.buffer<4xf32>
// CHECK-NEXT:   %p = tir.buffer_data %in
// CHECK-NEXT:   %acc = tir.alloc_buffer "acc" : !tir.buffer<8xf32>
// CHECK-NEXT:   %{{.*}} = tir.buffer_data %acc
// CHECK-NEXT:   %tmp = tir.alloc_buffer "tmp" annotations {note = 1 : i32} : !tir.buffer<4xf32, scope "global.workspace">
// CHECK-NEXT:   %{{.*}} = tir.buffer_data %tmp
// CHECK-NEXT:   %tmp_1 = tir.alloc_buffer "tmp" annotations {note = 1 : i32} : !tir.buffer<4xf32, scope "global.workspace">
// CHECK-NEXT:   %{{.*}} = tir.buffer_data %tmp_1
// CHECK-NEXT:   tir.call @outer(%p, %p, %{{.*}}, %{{.*}}, %{{.*}})

// Both calls' buffers keep the user's name; tir-to-usmp makes them unique as TVM did.
// NAMES:      usmp.alloc_offset "tmp" @global_workspace[?] align 16
// NAMES:      usmp.alloc_offset "tmp2" @global_workspace[?] align 16 live [21, 26) {tir.name = "tmp"}

// Run again, the pass finds nothing left to hoist (the entry keeps its buffers).
// AGAIN:      tir.prim_func @main(%in: !tir.buffer<4xf32> {tir.name = "in"}) attributes {runner_function = true} {
// AGAIN-NEXT:   %own = tir.alloc_buffer "own" : !tir.buffer<4xf32>
// AGAIN-NEXT:   %p = tir.buffer_data %in
// AGAIN-NEXT:   %acc = tir.alloc_buffer "acc"
