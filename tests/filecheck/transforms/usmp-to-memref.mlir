// RUN: usmp-opt %s -p usmp-to-memref | filecheck %s

// Pools become trailing arguments of every function that needs them, call sites pass
// them on, and each planned buffer becomes a view at its byte offset.
usmp.pool @sram workspace alignment 16 size 96
usmp.pool @dram workspace alignment 16 size 32
func.func @op(%x: memref<4xf32>) {
  %ws = usmp.alloc_offset "ws" @dram[0] align 16 live [3, 7) : memref<8xf32>
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<4xf32>
  memref.store %v, %ws[%c0] : memref<8xf32>
  func.return
}
func.func @main(%in: memref<4xf32>) {
  %a = usmp.alloc_offset "a" @sram[64] align 16 live [0, 8) : memref<4xf32>
  %b = usmp.alloc_offset "b" @sram[0] align 16 live [1, 2) : memref<4x4xf32>
  func.call @op(%a) : (memref<4xf32>) -> ()
  func.return
}
usmp.liveness

// CHECK:      usmp.pool @sram workspace alignment 16 size 96
// CHECK-NEXT: usmp.pool @dram workspace alignment 16 size 32
// CHECK-NEXT: func.func @op(%x: memref<4xf32>, %dram: memref<32xi8> {usmp.pool = @dram}) {
// CHECK-NEXT:   %0 = arith.constant 0 : index
// CHECK-NEXT:   %ws = memref.view %dram[%0][] : memref<32xi8> to memref<8xf32>
// CHECK:      func.func @main(%in: memref<4xf32>, %sram: memref<96xi8> {usmp.pool = @sram}, %dram: memref<32xi8> {usmp.pool = @dram}) {
// CHECK-NEXT:   %{{.*}} = arith.constant 64 : index
// CHECK-NEXT:   %a = memref.view %sram[%{{.*}}][] : memref<96xi8> to memref<4xf32>
// CHECK-NEXT:   %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:   %b = memref.view %sram[%{{.*}}][] : memref<96xi8> to memref<4x4xf32>
// CHECK-NEXT:   func.call @op(%a, %dram) : (memref<4xf32>, memref<32xi8>) -> ()
// CHECK-NOT:  usmp.liveness
// CHECK-NOT:  usmp.alloc_offset
