// Two pools declared in the IR share a linker section at different alignments.
usmp.pool @sram workspace alignment 16 {section = ".dtcm"}
usmp.pool @dram workspace alignment 64 {section = ".dtcm"}
func.func @main() {
  %a = memref.alloc() : memref<16xf32>
  func.return
}
