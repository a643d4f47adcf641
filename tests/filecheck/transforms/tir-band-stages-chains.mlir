// tir-band-stages bands two calls only when the buffer between them is theirs alone and
// nothing with an effect runs between them (banding interleaves the two calls). Bytes
// counted without `tir-in-place-results` (in-place=false): with it, each copy's result
// would take its dying input's bytes, and no band would save any.
// RUN: usmp-opt %s --split-input-file -p 'tir-band-stages{in-place=false}' | filecheck %s

// The link a is read again by a third call: not banded.
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
tir.prim_func @main(%x: !tir.buffer<1x8x1x4xi8> {tir.name = "x"}, %z: !tir.buffer<1x8x1x4xi8> {tir.name = "z"}, %w: !tir.buffer<1x8x1x4xi8> {tir.name = "w"}) {
  %a = tir.alloc_buffer "a" : !tir.buffer<1x8x1x4xi8>
  %b = tir.alloc_buffer "b" : !tir.buffer<1x8x1x4xi8>
  %0 = tir.buffer_data %x : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  %1 = tir.buffer_data %a : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  tir.call @copy(%0, %1) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
  %2 = tir.buffer_data %a : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  %3 = tir.buffer_data %b : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  tir.call @copy(%2, %3) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
  %4 = tir.buffer_data %b : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  %5 = tir.buffer_data %z : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  tir.call @copy(%4, %5) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
  %6 = tir.buffer_data %a : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  %7 = tir.buffer_data %w : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  tir.call @copy(%6, %7) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
}
// Only the second link, b, is banded (the stage copy -> copy writing z).
// CHECK: usmp.bands = {peak = 64 : i64, banded_peak = 36 : i64, stages = [{operators = ["copy", "copy"], band_height = 1 : i64, steps = 8 : i64, calls = 16 : i64, buffers = {b_band = 1 : i64}
// CHECK-NEXT: %a = tir.alloc_buffer "a" : !tir.buffer<1x8x1x4xi8>
// CHECK-NEXT: %b_band = tir.alloc_buffer "b_band" : !tir.buffer<1x1x1x4xi8>

// -----

// A loop of the entry's own runs between the two calls: not banded.
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
tir.prim_func @main(%x: !tir.buffer<1x8x1x4xi8> {tir.name = "x"}, %z: !tir.buffer<1x8x1x4xi8> {tir.name = "z"}) {
  %a = tir.alloc_buffer "a" : !tir.buffer<1x8x1x4xi8>
  %b = tir.alloc_buffer "b" : !tir.buffer<1x8x1x4xi8>
  %0 = tir.buffer_data %x : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  %1 = tir.buffer_data %a : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  tir.call @copy(%0, %1) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c9 = arith.constant 9 : i8
  tir.for %i "i" = %c0 extent %c1 serial : i32 {
    tir.store %c9, %x[%c0, %c0, %c0, %c0]
  }
  %2 = tir.buffer_data %a : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  %3 = tir.buffer_data %b : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  tir.call @copy(%2, %3) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
  %4 = tir.buffer_data %b : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  %5 = tir.buffer_data %z : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  tir.call @copy(%4, %5) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
}
// Again only b: the loop stays between the first two calls.
// CHECK: usmp.bands = {peak = 64 : i64, banded_peak = 36 : i64, stages = [{operators = ["copy", "copy"], band_height = 1 : i64, steps = 8 : i64, calls = 16 : i64, buffers = {b_band = 1 : i64}
// CHECK-NEXT: %a = tir.alloc_buffer "a" : !tir.buffer<1x8x1x4xi8>
// CHECK-NEXT: %b_band = tir.alloc_buffer "b_band" : !tir.buffer<1x1x1x4xi8>
// CHECK: tir.call @copy(%{{.*}}, %{{.*}}) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
// CHECK: tir.for %i "i"
// CHECK: tir.call @copy_band(
