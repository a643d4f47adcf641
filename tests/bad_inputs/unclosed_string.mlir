// An unclosed string after an op name: xDSL 0.75's lexer backtracked for minutes on it.
usmp.pool @sram workspace alignment 16 size_hint 100
func.func @main() {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  memref.sto"re %f, %a[%c0] : memref<16xf32>
  memref.store %f, %b[%c0] : memref<16xf32>
  func.return
}
