// One diagnostic, exit status 1, no traceback (tests/test_bad_inputs.py): the loop body
// uses %c1, which the enclosing block defines after the loop: the definition does not
// dominate the loop, the op holding the use.
func.func @main() {
  %c0 = arith.constant 0 : index
  scf.for %i = %c0 to %c0 step %c0 {
    %y = arith.addi %c0, %c1 : index
  }
  %c1 = arith.constant 1 : index
  func.return
}
