builtin.module attributes {test.value = dense_resource<missing> : tensor<2xf32>} {
}
