builtin.module attributes {test.value = dense_resource<w> : tensor<1xf32>} {
}
{-#
  dialect_resources: {
    mydialect: {
      w: "0x040000000000803f"
    }
  }
#-}
