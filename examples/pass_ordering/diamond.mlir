// The diamond of diamond.py in the tir dialect (usmp-translate --import-tvmscript
// diamond.py, with readable SSA names): @main's %a forks into %b and %c, which join into
// %out; the top and the join both call @add_halves, whose workspace "ws" is the buffer
// that pass ordering moves. Walk-through: README.md, "Pass ordering".
tir.prim_func @add_halves(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}, %y_ptr: !tir.ptr<f32> {tir.name = "y_ptr"}, %z_ptr: !tir.ptr<f32> {tir.name = "z_ptr"}) attributes {tirx.noalias = true} {
  %x = tir.decl_buffer "x" %x_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %y = tir.decl_buffer "y" %y_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %z = tir.decl_buffer "z" %z_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %ws = tir.alloc_buffer "ws" : !tir.buffer<4xf32>
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  tir.for %i "i" = %c0 extent %c4 serial : i32 {
    %xi = tir.load %x[%i] : f32
    %yi = tir.load %y[%i] : f32
    %sum = arith.addf %xi, %yi : f32
    tir.store %sum, %ws[%i]
  }
  tir.for %j "i" = %c0 extent %c4 serial : i32 {
    %wj = tir.load %ws[%j] : f32
    %half = arith.constant 5.000000e-01 : f32
    %zj = arith.mulf %wj, %half : f32
    tir.store %zj, %z[%j]
  }
}
tir.prim_func @scale(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}, %y_ptr: !tir.ptr<f32> {tir.name = "y_ptr"}) attributes {tirx.noalias = true} {
  %x = tir.decl_buffer "x" %x_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %y = tir.decl_buffer "y" %y_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  tir.for %i "i" = %c0 extent %c4 serial : i32 {
    %xi = tir.load %x[%i] : f32
    %three = arith.constant 3.000000e+00 : f32
    %yi = arith.mulf %xi, %three : f32
    tir.store %yi, %y[%i]
  }
}
tir.prim_func @shift(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}, %y_ptr: !tir.ptr<f32> {tir.name = "y_ptr"}) attributes {tirx.noalias = true} {
  %x = tir.decl_buffer "x" %x_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %y = tir.decl_buffer "y" %y_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  tir.for %i "i" = %c0 extent %c4 serial : i32 {
    %xi = tir.load %x[%i] : f32
    %one = arith.constant 1.000000e+00 : f32
    %yi = arith.addf %xi, %one : f32
    tir.store %yi, %y[%i]
  }
}
tir.prim_func @main(%inp: !tir.buffer<4xf32> {tir.name = "inp"}, %out: !tir.buffer<4xf32> {tir.name = "out"}) attributes {global_symbol = "main", runner_function = true, tirx.noalias = true} {
  %a = tir.alloc_buffer "a" : !tir.buffer<4xf32>
  %b = tir.alloc_buffer "b" : !tir.buffer<4xf32>
  %c = tir.alloc_buffer "c" : !tir.buffer<4xf32>
  %inp_ptr = tir.buffer_data %inp : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %a_ptr = tir.buffer_data %a : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @add_halves(%inp_ptr, %inp_ptr, %a_ptr) : (!tir.ptr<f32>, !tir.ptr<f32>, !tir.ptr<f32>) -> ()
  %b_ptr = tir.buffer_data %b : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @scale(%a_ptr, %b_ptr) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
  %c_ptr = tir.buffer_data %c : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @shift(%a_ptr, %c_ptr) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
  %out_ptr = tir.buffer_data %out : !tir.buffer<4xf32> -> !tir.ptr<f32>
  tir.call @add_halves(%b_ptr, %c_ptr, %out_ptr) : (!tir.ptr<f32>, !tir.ptr<f32>, !tir.ptr<f32>) -> ()
}
