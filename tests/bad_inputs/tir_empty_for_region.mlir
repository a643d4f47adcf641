// issue 33: one diagnostic, exit status 1, no traceback (tests/test_bad_inputs.py).
%0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
%1 = "arith.constant"() <{value = 4 : i32}> : () -> i32
"tir.for"(%0, %1) <{kind = #tir<for_kind serial>, name = "i", annotations = {}}> ({
}) : (i32, i32) -> ()
