// An operator handed a pointer it never reads (%unused, declared as a buffer nothing
// accesses), called once directly and once by name through call_extern, as TVM's own
// tests call their operators.
builtin.module {
  tir.prim_func @add_one(%a_ptr: !tir.ptr<f32>, %unused: !tir.ptr<f32>, %b_ptr: !tir.ptr<f32>) {
    %a = tir.decl_buffer %a_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
    %b = tir.decl_buffer %b_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
    %u = tir.decl_buffer %unused : !tir.ptr<f32> -> !tir.buffer<4xf32>
    %c0 = arith.constant 0 : i32
    %c4 = arith.constant 4 : i32
    %one = arith.constant 1.0 : f32
    tir.for %i = %c0 extent %c4 serial : i32 {
      %v = tir.load %a[%i] : f32
      %w = arith.addf %v, %one : f32
      tir.store %w, %b[%i]
    }
  }
  tir.prim_func @main(%x: !tir.buffer<4xf32> {tir.name = "x"}, %y: !tir.buffer<4xf32> {tir.name = "y"}) attributes {runner_function = true, usmp.outputs = ["y"]} {
    %c = tir.alloc_buffer "c" : !tir.buffer<4xf32>
    %px = tir.buffer_data %x : !tir.buffer<4xf32> -> !tir.ptr<f32>
    %pc = tir.buffer_data %c : !tir.buffer<4xf32> -> !tir.ptr<f32>
    %py = tir.buffer_data %y : !tir.buffer<4xf32> -> !tir.ptr<f32>
    tir.call @add_one(%px, %py, %pc) : (!tir.ptr<f32>, !tir.ptr<f32>, !tir.ptr<f32>) -> ()
    %name = tir.string "add_one"
    %r = tir.call_intrin "tirx.call_extern"(%name, %pc, %px, %py) : (!tir.string, !tir.ptr<f32>, !tir.ptr<f32>, !tir.ptr<f32>) -> i32
    tir.evaluate %r : i32
  }
}
