// REQUIRES: tvm
// RUN: usmp-translate --emit-tvmscript %s | filecheck %s

tir.prim_func @scale(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}, %y_ptr: !tir.ptr<f32> {tir.name = "y_ptr"}) attributes {tirx.noalias = true} {
  %x = tir.decl_buffer "x" %x_ptr : !tir.ptr<f32> -> !tir.buffer<16xf32>
  %y = tir.decl_buffer "y" %y_ptr : !tir.ptr<f32> -> !tir.buffer<16xf32>
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  tir.for %i "i" = %c0 extent %c16 parallel : i32 {
    %v = tir.load %x[%i] : f32
    %two = arith.constant 2.000000e+00 : f32
    %w = arith.mulf %v, %two : f32
    tir.store %w, %y[%i]
  }
}
tir.prim_func @main(%inp: !tir.buffer<16xf32> {tir.name = "inp"}, %out: !tir.buffer<16xf32> {tir.name = "out"}) attributes {global_symbol = "main"} {
  %t = tir.alloc_buffer "t" : !tir.buffer<16xf32>
  %a = tir.buffer_data %inp : !tir.buffer<16xf32> -> !tir.ptr<f32>
  %b = tir.buffer_data %t : !tir.buffer<16xf32> -> !tir.ptr<f32>
  tir.call @scale(%a, %b) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
  %c = tir.buffer_data %out : !tir.buffer<16xf32> -> !tir.ptr<f32>
  tir.call @scale(%b, %c) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
}

// CHECK:      @I.ir_module
// CHECK-NEXT: class Module:
// CHECK-NEXT:     @T.prim_func(private=True)
// CHECK-NEXT:     def scale(x_ptr: T.handle("float32", "global"), y_ptr: T.handle("float32", "global")):
// CHECK-NEXT:         T.func_attr({"tirx.noalias": True})
// CHECK-NEXT:         x = T.decl_buffer((16,), data=x_ptr)
// CHECK-NEXT:         y = T.decl_buffer((16,), data=y_ptr)
// CHECK-NEXT:         for i in T.parallel(16):
// CHECK-NEXT:             y[i] = x[i] * T.float32(2.0)
// CHECK:          @T.prim_func
// CHECK-NEXT:     def main(inp: T.Buffer((16,), "float32"), out: T.Buffer((16,), "float32")):
// CHECK-NEXT:         t = T.alloc_buffer((16,))
// CHECK-NEXT:         Module.scale(inp.data, t.data)
// CHECK-NEXT:         Module.scale(t.data, out.data)
