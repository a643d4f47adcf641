// Uses written before their definition that MLIR's dominance rule allows parse and print
// back: across blocks whose definition's block dominates the use's (here ^bb2, the only
// way into ^bb1), in a loop nested in such a block, and anywhere in builtin.module's
// top level (a graph region). The printed module parses again.
// RUN: usmp-opt %s | usmp-opt | filecheck %s

%sum = arith.addi %one, %one : index
%one = arith.constant 1 : index

func.func @main(%n: index) -> index {
  cf.br ^bb2
^bb1:
  %y = arith.addi %x, %x : index
  scf.for %i = %x to %n step %x {
    %z = arith.addi %i, %x : index
  }
  func.return %y : index
^bb2:
  %x = arith.constant 1 : index
  cf.br ^bb1
}

// CHECK:      %sum = arith.addi %one, %one : index
// CHECK-NEXT: %one = arith.constant 1 : index
// CHECK:        cf.br ^[[DEF:.*]]
// CHECK-NEXT: ^{{.*}}:
// CHECK-NEXT:   %y = arith.addi %x, %x : index
// CHECK-NEXT:   scf.for %i = %x to %n step %x {
// CHECK-NEXT:     %z = arith.addi %i, %x : index
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return %y : index
// CHECK-NEXT: ^[[DEF]]:
// CHECK-NEXT:   %x = arith.constant 1 : index
