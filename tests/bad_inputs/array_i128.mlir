// issue 33: one diagnostic, exit status 1, no traceback (tests/test_bad_inputs.py).
// xDSL packs array elements of at most 64 bits: was a NotImplementedError.
"test.op"() {x = array<i128: 1>} : () -> ()
