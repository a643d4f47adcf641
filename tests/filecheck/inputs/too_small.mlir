// Two 64-byte buffers live together never fit a 100-byte pool.
usmp.pool @sram workspace alignment 16 size_hint 100
func.func @main() {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %a[%c0] : memref<16xf32>
  memref.store %f, %b[%c0] : memref<16xf32>
  func.return
}
