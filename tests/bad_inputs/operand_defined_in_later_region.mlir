// One diagnostic, exit status 1, no traceback (tests/test_bad_inputs.py): %c1 is used
// before the loop whose body defines it, where no use outside the loop sees it. xDSL 0.75
// resolved the use by name and printed the module back.
func.func @main() {
  %c0 = arith.constant 0 : index
  %y = arith.addi %c0, %c1 : index
  scf.for %i = %c0 to %c0 step %c0 {
    %c1 = arith.constant 1 : index
  }
  func.return
}
