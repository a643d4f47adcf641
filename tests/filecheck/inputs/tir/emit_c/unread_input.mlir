// An operator that writes its output and never reads the input it is handed: once its
// param goes, the entry names the input no more, and the run reaches no member of its
// inputs struct.
builtin.module {
  tir.prim_func @fill(%a_ptr: !tir.ptr<f32>, %b_ptr: !tir.ptr<f32>) {
    %a = tir.decl_buffer %a_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
    %b = tir.decl_buffer %b_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
    %c0 = arith.constant 0 : i32
    %c4 = arith.constant 4 : i32
    %seven = arith.constant 7.0 : f32
    tir.for %i = %c0 extent %c4 serial : i32 {
      tir.store %seven, %b[%i]
    }
  }
  tir.prim_func @main(%x: !tir.buffer<4xf32> {tir.name = "x"}, %y: !tir.buffer<4xf32> {tir.name = "y"}) attributes {runner_function = true, usmp.outputs = ["y"]} {
    %px = tir.buffer_data %x : !tir.buffer<4xf32> -> !tir.ptr<f32>
    %py = tir.buffer_data %y : !tir.buffer<4xf32> -> !tir.ptr<f32>
    tir.call @fill(%px, %py) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
  }
}
