// A pool past 2**31 bytes: usmp-to-tir gives its buffer and the offsets into it an int64
// index, since TVM refuses an int32 index that cannot hold them.
// RUN: usmp-opt %s --plan-pools | filecheck %s
// RUN: usmp-opt %s --plan-pools | usmp-translate --emit-tvmscript | filecheck %s --check-prefix=SCRIPT

tir.prim_func @main(%out: !tir.buffer<4xf32>) attributes {global_symbol = "main"} {
  %t = tir.alloc_buffer : !tir.buffer<1073741824xf32, index i64>
  %u = tir.alloc_buffer : !tir.buffer<4xf32>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i32
  %v = arith.constant 1.000000e+00 : f32
  tir.store %v, %t[%c0]
  tir.store %v, %u[%c1]
  %w = tir.load %t[%c0] : f32
  tir.store %w, %out[%c1]
}

// CHECK:      %global_workspace: !tir.buffer<4294967312xui8, index i64>
// CHECK-SAME: usmp.pools = #usmp.pool_sizes<global_workspace = 4294967312>
// CHECK:      %[[OFF:.*]] = arith.constant 4294967296 : i64
// CHECK-NEXT: tir.address_of %global_workspace[%[[OFF]]]

// SCRIPT: global_workspace: T.Buffer((T.int64(4294967312),), "uint8")
// SCRIPT: T.address_of(global_workspace[T.int64(4294967296)])
