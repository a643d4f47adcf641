// One diagnostic, exit status 1, no traceback (tests/test_bad_inputs.py): %c1 is used
// before its definition in the same block of a function body (a region with SSA
// dominance, unlike builtin.module's). xDSL 0.75 resolved it by name.
func.func @main() -> index {
  %y = arith.addi %c1, %c1 : index
  %c1 = arith.constant 1 : index
  func.return %y : index
}
