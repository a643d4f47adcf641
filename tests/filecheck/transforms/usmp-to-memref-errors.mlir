// RUN: usmp-opt %s --verify-diagnostics -p usmp-to-memref | filecheck %s

usmp.pool @sram workspace alignment 16
func.func @main() {
  %a = usmp.alloc_offset "a" @sram[?] align 16 live [0, 1) : memref<4xf32>
  func.return
}
usmp.liveness
// CHECK: buffer 'a' is not planned: run usmp-plan first
