builtin.module attributes {test.value = dense_resource<bad> : tensor<1xf32>} {
}
{-#
  dialect_resources: {
    builtin: {
      bad: "0x040000000000x03f"
    }
  }
#-}
