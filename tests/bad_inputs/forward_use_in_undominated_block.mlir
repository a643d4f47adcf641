// One diagnostic, exit status 1, no traceback (tests/test_bad_inputs.py): ^bb1 uses %x
// of ^bb2, a block that does not dominate it (both are reached from the entry alone).
func.func @main(%c: i1) -> index {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %y = arith.addi %x, %x : index
  func.return %y : index
^bb2:
  %x = arith.constant 1 : index
  func.return %x : index
}
