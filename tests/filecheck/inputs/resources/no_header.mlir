builtin.module attributes {test.value = dense_resource<w> : tensor<1xf32>} {
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x0000803f"
    }
  }
#-}
