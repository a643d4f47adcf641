// An entry whose constants' values are blobs: planned with --constant-pool, their bytes
// are the pool's (tests/test_fuzz_resources.py mutates the blobs).
builtin.module {
  tir.prim_func @main(%inp: !tir.buffer<4xf32> {tir.name = "inp"}, %w: !tir.buffer<4xf32> {tir.name = "w"}, %b: !tir.buffer<3xi8> {tir.name = "b"}, %out: !tir.buffer<4xf32> {tir.name = "out"}) attributes {runner_function = true, usmp.constants = ["w", "b"], usmp.constant_values = {w = dense_resource<w> : tensor<4xf32>, b = dense_resource<b.0> : tensor<3xi8>}} {
    %0 = arith.constant 0 : i32
    %1 = tir.load %inp[%0] : f32
    %2 = tir.load %w[%0] : f32
    %3 = arith.mulf %1, %2 : f32
    tir.store %3, %out[%0]
  }
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x100000000000803f000000400000404000008040",
      b.0: "0x01000000010203"
    }
  }
#-}
