// a memref.alloc whose byte size passes 2**63: one diagnostic, exit status 1 (tests/test_bad_inputs.py).
func.func @main() {
  %a = memref.alloc() : memref<1099511627776x4194304xi32>
  func.return
}
