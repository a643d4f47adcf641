// The branches of branches.py in the tir dialect (usmp-translate --import-tvmscript
// branches.py): @main runs both wide operators before either narrowing one.
builtin.module {
  tir.prim_func @add(%a_ptr: !tir.ptr<f32> {tir.name = "a_ptr"}, %b_ptr: !tir.ptr<f32> {tir.name = "b_ptr"}, %y_ptr: !tir.ptr<f32> {tir.name = "y_ptr"}) attributes {tirx.noalias = true} {
    %a = tir.decl_buffer "a" %a_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
    %b = tir.decl_buffer "b" %b_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
    %y = tir.decl_buffer "y" %y_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
    %0 = arith.constant 0 : i32
    %1 = arith.constant 4 : i32
    tir.for %i "i" = %0 extent %1 serial : i32 {
      %2 = tir.load %a[%i] : f32
      %3 = tir.load %b[%i] : f32
      %4 = arith.addf %2, %3 : f32
      tir.store %4, %y[%i]
    }
  }
  tir.prim_func @main(%inp: !tir.buffer<16xf32> {tir.name = "inp"}, %out: !tir.buffer<4xf32> {tir.name = "out"}) attributes {global_symbol = "main", runner_function = true, tirx.noalias = true} {
    %wide_a = tir.alloc_buffer "wide_a" : !tir.buffer<64xf32>
    %wide_b = tir.alloc_buffer "wide_b" : !tir.buffer<64xf32>
    %narrow_a = tir.alloc_buffer "narrow_a" : !tir.buffer<4xf32>
    %narrow_b = tir.alloc_buffer "narrow_b" : !tir.buffer<4xf32>
    %0 = tir.buffer_data %inp : !tir.buffer<16xf32> -> !tir.ptr<f32>
    %1 = tir.buffer_data %wide_a : !tir.buffer<64xf32> -> !tir.ptr<f32>
    %2 = arith.constant 2.000000e+00 : f32
    tir.call @widen(%0, %1, %2) : (!tir.ptr<f32>, !tir.ptr<f32>, f32) -> ()
    %3 = tir.buffer_data %inp : !tir.buffer<16xf32> -> !tir.ptr<f32>
    %4 = tir.buffer_data %wide_b : !tir.buffer<64xf32> -> !tir.ptr<f32>
    %5 = arith.constant -1.000000e+00 : f32
    tir.call @widen(%3, %4, %5) : (!tir.ptr<f32>, !tir.ptr<f32>, f32) -> ()
    %6 = tir.buffer_data %wide_a : !tir.buffer<64xf32> -> !tir.ptr<f32>
    %7 = tir.buffer_data %narrow_a : !tir.buffer<4xf32> -> !tir.ptr<f32>
    tir.call @narrow(%6, %7) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
    %8 = tir.buffer_data %wide_b : !tir.buffer<64xf32> -> !tir.ptr<f32>
    %9 = tir.buffer_data %narrow_b : !tir.buffer<4xf32> -> !tir.ptr<f32>
    tir.call @narrow(%8, %9) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
    %10 = tir.buffer_data %narrow_a : !tir.buffer<4xf32> -> !tir.ptr<f32>
    %11 = tir.buffer_data %narrow_b : !tir.buffer<4xf32> -> !tir.ptr<f32>
    %12 = tir.buffer_data %out : !tir.buffer<4xf32> -> !tir.ptr<f32>
    tir.call @add(%10, %11, %12) : (!tir.ptr<f32>, !tir.ptr<f32>, !tir.ptr<f32>) -> ()
  }
  tir.prim_func @narrow(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}, %y_ptr: !tir.ptr<f32> {tir.name = "y_ptr"}) attributes {tirx.noalias = true} {
    %x = tir.decl_buffer "x" %x_ptr : !tir.ptr<f32> -> !tir.buffer<64xf32>
    %y = tir.decl_buffer "y" %y_ptr : !tir.ptr<f32> -> !tir.buffer<4xf32>
    %0 = arith.constant 0 : i32
    %1 = arith.constant 4 : i32
    tir.for %i "i" = %0 extent %1 serial : i32 {
      %2 = arith.constant 0.000000e+00 : f32
      tir.store %2, %y[%i]
      %3 = arith.constant 0 : i32
      %4 = arith.constant 16 : i32
      tir.for %k "k" = %3 extent %4 serial : i32 {
        %5 = tir.load %y[%i] : f32
        %6 = arith.constant 16 : i32
        %7 = arith.muli %i, %6 : i32
        %8 = arith.addi %7, %k : i32
        %9 = tir.load %x[%8] : f32
        %10 = arith.addf %5, %9 : f32
        tir.store %10, %y[%i]
      }
    }
  }
  tir.prim_func @widen(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}, %y_ptr: !tir.ptr<f32> {tir.name = "y_ptr"}, %scale: f32 {tir.name = "scale"}) attributes {tirx.noalias = true} {
    %x = tir.decl_buffer "x" %x_ptr : !tir.ptr<f32> -> !tir.buffer<16xf32>
    %y = tir.decl_buffer "y" %y_ptr : !tir.ptr<f32> -> !tir.buffer<64xf32>
    %0 = arith.constant 0 : i32
    %1 = arith.constant 64 : i32
    tir.for %i "i" = %0 extent %1 serial : i32 {
      %2 = arith.constant 16 : i32
      %3 = tir.floormod %i, %2 : i32
      %4 = tir.load %x[%3] : f32
      %5 = arith.mulf %4, %scale : f32
      %6 = tir.cast %i : i32 to f32
      %7 = arith.addf %5, %6 : f32
      tir.store %7, %y[%i]
    }
  }
}
