builtin.module attributes {test.value = dense_resource<odd> : tensor<1xf32>} {
}
{-#
  dialect_resources: {
    builtin: {
      odd: "0x040000000000803"
    }
  }
#-}
