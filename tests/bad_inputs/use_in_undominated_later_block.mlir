// One diagnostic, exit status 1, no traceback (tests/test_bad_inputs.py): ^bb2 uses %a, an
// argument of ^bb1, written before it but not dominating it: a use after its definition
// in the text breaks the rule too.
func.func @main(%c: i1, %n: index) -> index {
  cf.cond_br %c, ^bb1(%n : index), ^bb2
^bb1(%a: index):
  func.return %a : index
^bb2:
  %y = arith.addi %n, %a : index
  func.return %y : index
}
