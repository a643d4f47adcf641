// A chain of row operators for tir-band-stages (docs/passes.md, "Band execution"):
// x -> @copy -> a -> @copy -> b -> @down (stride 2) -> d -> @total (reads every row).
tir.prim_func @copy(%in_ptr: !tir.ptr<i8> {tir.name = "in_ptr"}, %out_ptr: !tir.ptr<i8> {tir.name = "out_ptr"}) {
  %in = tir.decl_buffer "in" %in_ptr : !tir.ptr<i8> -> !tir.buffer<1x8x1x4xi8>
  %out = tir.decl_buffer "out" %out_ptr : !tir.ptr<i8> -> !tir.buffer<1x8x1x4xi8>
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c8 = arith.constant 8 : i32
  tir.for %y "y" = %c0 extent %c8 serial : i32 {
    tir.for %c "c" = %c0 extent %c4 serial : i32 {
      %v = tir.load %in[%c0, %y, %c0, %c] : i8
      tir.store %v, %out[%c0, %y, %c0, %c]
    }
  }
}
tir.prim_func @down(%in_ptr: !tir.ptr<i8> {tir.name = "in_ptr"}, %out_ptr: !tir.ptr<i8> {tir.name = "out_ptr"}) {
  %in = tir.decl_buffer "in" %in_ptr : !tir.ptr<i8> -> !tir.buffer<1x8x1x4xi8>
  %out = tir.decl_buffer "out" %out_ptr : !tir.ptr<i8> -> !tir.buffer<1x4x1x4xi8>
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  tir.for %y "y" = %c0 extent %c4 serial : i32 {
    tir.for %c "c" = %c0 extent %c4 serial : i32 {
      tir.for %k "k" = %c0 extent %c2 serial : i32 {
        %y2 = arith.muli %y, %c2 : i32
        %row = arith.addi %y2, %k : i32
        %v = tir.load %in[%c0, %row, %c0, %c] : i8
        tir.store %v, %out[%c0, %y, %c0, %c]
      }
    }
  }
}
tir.prim_func @total(%in_ptr: !tir.ptr<i8> {tir.name = "in_ptr"}, %out_ptr: !tir.ptr<i8> {tir.name = "out_ptr"}) {
  %in = tir.decl_buffer "in" %in_ptr : !tir.ptr<i8> -> !tir.buffer<1x4x1x4xi8>
  %out = tir.decl_buffer "out" %out_ptr : !tir.ptr<i8> -> !tir.buffer<1x2x1x4xi8>
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  tir.for %c "c" = %c0 extent %c4 serial : i32 {
    tir.for %r "r" = %c0 extent %c4 serial : i32 {
      %v = tir.load %in[%c0, %r, %c0, %c] : i8
      tir.store %v, %out[%c0, %c0, %c0, %c]
    }
  }
}
tir.prim_func @main(%x: !tir.buffer<1x8x1x4xi8> {tir.name = "x"}, %z: !tir.buffer<1x2x1x4xi8> {tir.name = "z"}) attributes {global_symbol = "main", runner_function = true, tirx.noalias = true} {
  %a = tir.alloc_buffer "a" : !tir.buffer<1x8x1x4xi8>
  %b = tir.alloc_buffer "b" : !tir.buffer<1x8x1x4xi8>
  %d = tir.alloc_buffer "d" : !tir.buffer<1x4x1x4xi8>
  %0 = tir.buffer_data %x : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  %1 = tir.buffer_data %a : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  tir.call @copy(%0, %1) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
  %2 = tir.buffer_data %a : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  %3 = tir.buffer_data %b : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  tir.call @copy(%2, %3) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
  %4 = tir.buffer_data %b : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  %5 = tir.buffer_data %d : !tir.buffer<1x4x1x4xi8> -> !tir.ptr<i8>
  tir.call @down(%4, %5) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
  %6 = tir.buffer_data %d : !tir.buffer<1x4x1x4xi8> -> !tir.ptr<i8>
  %7 = tir.buffer_data %z : !tir.buffer<1x2x1x4xi8> -> !tir.ptr<i8>
  tir.call @total(%6, %7) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
}
