// One diagnostic, exit status 1, no traceback (tests/test_bad_inputs.py): the loop's step
// is defined inside the loop. xDSL 0.75 left it unresolved (a ValueError at verification).
func.func @main() {
  %c0 = arith.constant 0 : index
  scf.for %i = %c0 to %c0 step %c1 {
    %c1 = arith.constant 1 : index
  }
  func.return
}
