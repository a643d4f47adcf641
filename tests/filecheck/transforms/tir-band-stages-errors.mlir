// RUN: %exit-code usmp-opt %s -p 'tir-band-stages{band-height=9}' 2>&1 | filecheck %s --check-prefix=HEIGHT
// HEIGHT: error: band-height=9 is larger than every tensor it could band (the most rows an operator of @main computes: 8)
// HEIGHT: exit=1
// RUN: %exit-code usmp-opt %s -p 'tir-band-stages{budget=0.9}' 2>&1 | filecheck %s --check-prefix=BUDGET
// BUDGET: error: budget must be at least 1.0 (the unbanded program's multiply-accumulates), got 0.9
// BUDGET: exit=1
// RUN: %exit-code usmp-opt %s -p 'tir-band-stages{band-height=-1}' 2>&1 | filecheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: band-height must not be negative, got -1
// NEGATIVE: exit=1
// RUN: %exit-code usmp-opt %s -p tir-to-usmp,tir-band-stages 2>&1 | filecheck %s --check-prefix=ORDER
// ORDER: error: tir-band-stages runs before tir-to-usmp, but buffer 'a' is already a usmp.alloc_offset
// ORDER: exit=1
// RUN: %exit-code usmp-opt %s -p 'tir-band-stages{entry=nope in-place=false}' 2>&1 | filecheck %s --check-prefix=ENTRY
// ENTRY: tir-band-stages-errors.mlir:17:1: error: entry function @nope does not exist
// ENTRY: exit=1

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
  %0 = tir.buffer_data %x : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  %1 = tir.buffer_data %a : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  tir.call @copy(%0, %1) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
  %2 = tir.buffer_data %a : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  %3 = tir.buffer_data %z : !tir.buffer<1x8x1x4xi8> -> !tir.ptr<i8>
  tir.call @copy(%2, %3) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
}
