// issue 33: one diagnostic, exit status 1, no traceback (tests/test_bad_inputs.py).
%0 = "arith.constant"() {value = dense<[1, 2]> : tensor<2xi128>} : () -> tensor<2xi128>
