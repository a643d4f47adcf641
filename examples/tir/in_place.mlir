// The chain of in_place.py in the tir dialect (usmp-translate --import-tvmscript
// in_place.py): elementwise operators that may write over their input, and two that may not.
builtin.module {
  tir.prim_func @accumulate(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}, %y_ptr: !tir.ptr<f32> {tir.name = "y_ptr"}) attributes {tirx.noalias = true} {
    %x = tir.decl_buffer "x" %x_ptr : !tir.ptr<f32> -> !tir.buffer<16xf32>
    %y = tir.decl_buffer "y" %y_ptr : !tir.ptr<f32> -> !tir.buffer<16xf32>
    %0 = arith.constant 0 : i32
    %1 = arith.constant 16 : i32
    tir.for %i "i" = %0 extent %1 serial : i32 {
      %2 = arith.constant 1.000000e+00 : f32
      tir.store %2, %y[%i]
      %3 = tir.load %y[%i] : f32
      %4 = tir.load %x[%i] : f32
      %5 = arith.addf %3, %4 : f32
      tir.store %5, %y[%i]
    }
  }
  tir.prim_func @add(%a_ptr: !tir.ptr<f32> {tir.name = "a_ptr"}, %b_ptr: !tir.ptr<f32> {tir.name = "b_ptr"}, %y_ptr: !tir.ptr<f32> {tir.name = "y_ptr"}) attributes {tirx.noalias = true} {
    %a = tir.decl_buffer "a" %a_ptr : !tir.ptr<f32> -> !tir.buffer<16xf32>
    %b = tir.decl_buffer "b" %b_ptr : !tir.ptr<f32> -> !tir.buffer<16xf32>
    %y = tir.decl_buffer "y" %y_ptr : !tir.ptr<f32> -> !tir.buffer<16xf32>
    %0 = arith.constant 0 : i32
    %1 = arith.constant 16 : i32
    tir.for %i "i" = %0 extent %1 serial : i32 {
      %2 = tir.load %a[%i] : f32
      %3 = tir.load %b[%i] : f32
      %4 = arith.addf %2, %3 : f32
      tir.store %4, %y[%i]
    }
  }
  tir.prim_func @main(%inp: !tir.buffer<16xf32> {tir.name = "inp"}, %out: !tir.buffer<16xf32> {tir.name = "out"}) attributes {global_symbol = "main", runner_function = true, tirx.noalias = true} {
    %s = tir.alloc_buffer "s" : !tir.buffer<16xf32>
    %h = tir.alloc_buffer "h" : !tir.buffer<16xf32>
    %r = tir.alloc_buffer "r" : !tir.buffer<16xf32>
    %a = tir.alloc_buffer "a" : !tir.buffer<16xf32>
    %total = tir.alloc_buffer "total" : !tir.buffer<16xf32>
    %0 = tir.buffer_data %inp : !tir.buffer<16xf32> -> !tir.ptr<f32>
    %1 = tir.buffer_data %s : !tir.buffer<16xf32> -> !tir.ptr<f32>
    tir.call @scale(%0, %1) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
    %2 = tir.buffer_data %s : !tir.buffer<16xf32> -> !tir.ptr<f32>
    %3 = tir.buffer_data %h : !tir.buffer<16xf32> -> !tir.ptr<f32>
    tir.call @shift(%2, %3) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
    %4 = tir.buffer_data %h : !tir.buffer<16xf32> -> !tir.ptr<f32>
    %5 = tir.buffer_data %r : !tir.buffer<16xf32> -> !tir.ptr<f32>
    tir.call @relu(%4, %5) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
    %6 = tir.buffer_data %r : !tir.buffer<16xf32> -> !tir.ptr<f32>
    %7 = tir.buffer_data %a : !tir.buffer<16xf32> -> !tir.ptr<f32>
    tir.call @accumulate(%6, %7) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
    %8 = tir.buffer_data %a : !tir.buffer<16xf32> -> !tir.ptr<f32>
    %9 = tir.buffer_data %s : !tir.buffer<16xf32> -> !tir.ptr<f32>
    %10 = tir.buffer_data %total : !tir.buffer<16xf32> -> !tir.ptr<f32>
    tir.call @add(%8, %9, %10) : (!tir.ptr<f32>, !tir.ptr<f32>, !tir.ptr<f32>) -> ()
    %11 = tir.buffer_data %total : !tir.buffer<16xf32> -> !tir.ptr<f32>
    %12 = tir.buffer_data %out : !tir.buffer<16xf32> -> !tir.ptr<f32>
    tir.call @relu(%11, %12) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
  }
  tir.prim_func @relu(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}, %y_ptr: !tir.ptr<f32> {tir.name = "y_ptr"}) attributes {tirx.noalias = true} {
    %x = tir.decl_buffer "x" %x_ptr : !tir.ptr<f32> -> !tir.buffer<16xf32>
    %y = tir.decl_buffer "y" %y_ptr : !tir.ptr<f32> -> !tir.buffer<16xf32>
    %0 = arith.constant 0 : i32
    %1 = arith.constant 16 : i32
    tir.for %i "i" = %0 extent %1 serial : i32 {
      %2 = tir.load %x[%i] : f32
      %3 = arith.constant 0.000000e+00 : f32
      %4 = tir.max %2, %3 : f32
      tir.store %4, %y[%i]
    }
  }
  tir.prim_func @scale(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}, %y_ptr: !tir.ptr<f32> {tir.name = "y_ptr"}) attributes {tirx.noalias = true} {
    %x = tir.decl_buffer "x" %x_ptr : !tir.ptr<f32> -> !tir.buffer<16xf32>
    %y = tir.decl_buffer "y" %y_ptr : !tir.ptr<f32> -> !tir.buffer<16xf32>
    %0 = arith.constant 0 : i32
    %1 = arith.constant 16 : i32
    tir.for %i "i" = %0 extent %1 serial : i32 {
      %2 = tir.load %x[%i] : f32
      %3 = arith.constant 2.000000e+00 : f32
      %4 = arith.mulf %2, %3 : f32
      tir.store %4, %y[%i]
    }
  }
  tir.prim_func @shift(%x_ptr: !tir.ptr<f32> {tir.name = "x_ptr"}, %y_ptr: !tir.ptr<f32> {tir.name = "y_ptr"}) attributes {tirx.noalias = true} {
    %x = tir.decl_buffer "x" %x_ptr : !tir.ptr<f32> -> !tir.buffer<16xf32>
    %y = tir.decl_buffer "y" %y_ptr : !tir.ptr<f32> -> !tir.buffer<16xf32>
    %0 = arith.constant 0 : i32
    %1 = arith.constant 16 : i32
    tir.for %i "i" = %0 extent %1 serial : i32 {
      %2 = arith.constant 1 : i32
      %3 = arith.addi %i, %2 : i32
      %4 = arith.constant 16 : i32
      %5 = tir.floormod %3, %4 : i32
      %6 = tir.load %x[%5] : f32
      tir.store %6, %y[%i]
    }
  }
}
