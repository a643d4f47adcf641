// issue 33: one diagnostic, exit status 1, no traceback (tests/test_bad_inputs.py).
// xDSL verifies func.return before its func.func, and read this integer as a function type.
"func.func"() <{sym_name = "main", function_type = 0 : i32}> ({
  "func.return"() : () -> ()
}) : () -> ()
