builtin.module attributes {test.values = {w = dense_resource<w> : tensor<2xf32>, b = dense_resource<b.0> : tensor<3xi8>}} {
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x100000000000803f00000040",
      b.0: "0x01000000010203"
    }
  }
#-}
