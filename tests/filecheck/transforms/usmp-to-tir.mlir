// usmp-to-tir: the used pool becomes a uint8 buffer param of the entry and a pointer param
// (re-declared as the buffer) of @op, which places a buffer in it; @leaf needs no pool.
// Call sites pass the pool on; each planned buffer becomes a decl_buffer view at
// address_of(pool[offset]), so its pointer uses (%p1, the view %view over it) read the
// pool. The entry records the pool's planned size; usmp.pool and usmp.liveness go.
// REQUIRES: tvm
// RUN: usmp-opt %s -p usmp-to-tir | filecheck %s
// RUN: usmp-opt %s -p usmp-to-tir | usmp-translate --emit-tvmscript | filecheck %s --check-prefix=SCRIPT

usmp.pool @global_workspace workspace alignment 16 size 96
tir.prim_func @op(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}, %y_ptr: !tir.ptr<f32> {tir.name = "y_ptr"}) attributes {"tirx.noalias" = true} {
  %x = tir.decl_buffer "x" %x_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %y = tir.decl_buffer "y" %y_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %ws = usmp.alloc_offset "ws" @global_workspace[64] align 16 live [3, 5) [8, 10) : !tir.buffer<4xf32, align 16>
  %c0 = arith.constant 0 : i32
  %v = tir.load %x[%c0] : f32
  tir.store %v, %ws[%c0]
  %w = tir.load %ws[%c0] : f32
  tir.store %w, %y[%c0]
}
tir.prim_func @leaf(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}) {
  %x = tir.decl_buffer "x" %x_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
}
tir.prim_func @main(%inp: !tir.buffer<4xf32> {tir.name = "inp"}, %out: !tir.buffer<4xf32> {tir.name = "out"}) attributes {runner_function = true} {
  %a = usmp.alloc_offset "a" @global_workspace[0] align 16 live [0, 10) : !tir.buffer<8xf32, align 16>
  %p0 = tir.buffer_data %inp : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %p1 = tir.buffer_data %a : !tir.buffer<8xf32, align 16> -> !tir.ptr<f32>
  %view = tir.decl_buffer "view" %p1 : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %p2 = tir.buffer_data %view : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @op(%p0, %p2) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
  tir.call @leaf(%p1) : (!tir.ptr<f32>) -> ()
  %p3 = tir.buffer_data %out : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @op(%p1, %p3) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
}
usmp.liveness

// CHECK-NOT:  usmp.
// The operator loses noalias: after planning its params may share pool bytes.
// CHECK:      tir.prim_func @op(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}, %y_ptr: !tir.ptr<f32> {tir.name = "y_ptr"}, %global_workspace_var: !tir.ptr<ui8> {tir.name = "global_workspace_var"}) {
// CHECK-NEXT:   %global_workspace = tir.decl_buffer "global_workspace" %global_workspace_var : !tir.ptr<ui8> -> !tir.buffer<96xui8>
// CHECK:        %[[OFF:.*]] = arith.constant 64 : i32
// CHECK-NEXT:   %[[PTR:.*]] = tir.address_of %global_workspace[%[[OFF]]] : !tir.ptr<ui8>
// CHECK-NEXT:   %ws = tir.decl_buffer "ws" %[[PTR]] : !tir.ptr<ui8> -> !tir.buffer<4xf32, align 16>
// CHECK:        tir.store %v, %ws[%c0]
// CHECK:      tir.prim_func @leaf(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}) {
// CHECK:      tir.prim_func @main(%inp: !tir.buffer<4xf32> {tir.name = "inp"}, %out: !tir.buffer<4xf32> {tir.name = "out"}, %global_workspace: !tir.buffer<96xui8> {tir.name = "global_workspace"}) attributes {runner_function = true, usmp.pools = #usmp.pool_sizes<global_workspace = 96>} {
// CHECK-NEXT:   %[[OFF0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[PTR0:.*]] = tir.address_of %global_workspace[%[[OFF0]]] : !tir.ptr<ui8>
// CHECK-NEXT:   %a = tir.decl_buffer "a" %[[PTR0]] : !tir.ptr<ui8> -> !tir.buffer<8xf32, align 16>
// CHECK:        %p1 = tir.buffer_data %a
// CHECK-NEXT:   %view = tir.decl_buffer "view" %p1
// CHECK:        %[[POOL1:.*]] = tir.buffer_data %global_workspace : !tir.buffer<96xui8> -> !tir.ptr<ui8>
// CHECK-NEXT:   tir.call @op(%p0, %p2, %[[POOL1]])
// CHECK-NEXT:   tir.call @leaf(%p1) : (!tir.ptr<f32>) -> ()
// CHECK:        %[[POOL2:.*]] = tir.buffer_data %global_workspace
// CHECK-NEXT:   tir.call @op(%p1, %p3, %[[POOL2]])
// CHECK-NOT:  usmp.liveness

// SCRIPT:      def op(x_ptr: T.handle("float32", "global"), y_ptr: T.handle("float32", "global"), global_workspace_var: T.handle("uint8", "global")):
// SCRIPT-NEXT:   global_workspace = T.decl_buffer((96,), "uint8", data=global_workspace_var)
// SCRIPT:        ws = T.decl_buffer((4,), data=T.address_of(global_workspace[64]), align=16)
// SCRIPT:      def main(inp: T.Buffer((4,), "float32"), out: T.Buffer((4,), "float32"), global_workspace: T.Buffer((96,), "uint8")):
// SCRIPT-NEXT:   T.func_attr({"runner_function": True, "usmp.pools": {"global_workspace": 96}})
// SCRIPT-NEXT:   a = T.decl_buffer((8,), data=T.address_of(global_workspace[0]), align=16)
// SCRIPT:        Module.op(inp.data, view.data, global_workspace.data)
