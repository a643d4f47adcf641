// A pool declared in the IR with a linker section, at the default alignment (16).
usmp.pool @sram workspace alignment 16 size_hint 1024 {section = ".dtcm"}
func.func @main() {
  %a = memref.alloc() : memref<16xf32>
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %a[%c0] : memref<16xf32>
  func.return
}
