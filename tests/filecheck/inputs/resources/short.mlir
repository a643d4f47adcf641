builtin.module attributes {test.value = dense_resource<short> : tensor<2xf32>} {
}
{-#
  dialect_resources: {
    builtin: {
      short: "0x040000000000803f"
    }
  }
#-}
