// issue 33: one diagnostic, exit status 1, no traceback (tests/test_bad_inputs.py).
// A splat is expanded while parsed: 10**15 elements would need petabytes.
%0 = "arith.constant"() {value = dense<1> : tensor<1000000000000000xi8>} : () -> tensor<1000000000000000xi8>
