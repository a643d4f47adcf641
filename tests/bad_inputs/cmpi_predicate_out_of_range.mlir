// issue 33: one diagnostic, exit status 1, no traceback (tests/test_bad_inputs.py).
// xDSL's printer indexed its predicate names with it: was an IndexError.
%a = "arith.constant"() <{value = 1 : i32}> : () -> i32
%b = "arith.cmpi"(%a, %a) <{predicate = 9223372036854775807 : i64}> : (i32, i32) -> i1
