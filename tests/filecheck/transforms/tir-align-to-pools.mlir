// tir-align-to-pools: a TIR buffer of TVM's default alignment (64: asked for nothing) is
// planned at its candidate pools' alignment, and its type says so; a buffer that asks for
// an alignment of its own, a planned one and a memref keep theirs. Without the pass
// usmp-assign-pools gives every buffer its own alignment or its pools', the stricter.
// RUN: usmp-opt %s -p tir-align-to-pools | filecheck %s
// RUN: usmp-opt %s -p tir-align-to-pools | usmp-opt -p tir-align-to-pools | filecheck %s
// RUN: usmp-opt %examples/pass_ordering/diamond.mlir -p tir-to-usmp,usmp-assign-pools | filecheck %s --check-prefix=ASSIGNED
// RUN: usmp-opt %examples/pass_ordering/diamond.mlir -p tir-to-usmp,usmp-assign-pools,tir-align-to-pools | filecheck %s --check-prefix=ALIGNED

usmp.pool @sram workspace alignment 16
usmp.pool @wide workspace alignment 128
func.func @main() {
  %default = usmp.alloc_offset "default" @sram[?] align 64 : !tir.buffer<4xf32>
  %strict = usmp.alloc_offset "strict" [@sram, @wide][?] align 128 : !tir.buffer<4xf32>
  %asked = usmp.alloc_offset "asked" @sram[?] align 32 : !tir.buffer<4xf32, align 32>
  %by_hand = usmp.alloc_offset "by_hand" @sram[?] align 256 : !tir.buffer<4xf32>
  %planned = usmp.alloc_offset "planned" @sram[0] align 64 : !tir.buffer<4xf32>
  %memref = usmp.alloc_offset "memref" @sram[?] align 64 : memref<4xf32>
  func.return
}
// CHECK:      %default = usmp.alloc_offset "default" @sram[?] align 16 : !tir.buffer<4xf32, align 16>
// CHECK-NEXT: %strict = usmp.alloc_offset "strict" [@sram, @wide][?] align 128 : !tir.buffer<4xf32, align 128>
// CHECK-NEXT: %asked = usmp.alloc_offset "asked" @sram[?] align 32 : !tir.buffer<4xf32, align 32>
// CHECK-NEXT: %by_hand = usmp.alloc_offset "by_hand" @sram[?] align 256 : !tir.buffer<4xf32>
// CHECK-NEXT: %planned = usmp.alloc_offset "planned" @sram[0] align 64 : !tir.buffer<4xf32>
// CHECK-NEXT: %memref = usmp.alloc_offset "memref" @sram[?] align 64 : memref<4xf32>

// ASSIGNED: usmp.alloc_offset {{.*}} @global_workspace[?] align 64 {{.*}}: !tir.buffer<
// ALIGNED-NOT: align 64
// ALIGNED: usmp.alloc_offset {{.*}} @global_workspace[?] align 16 {{.*}}: !tir.buffer<{{.*}}, align 16>
// ALIGNED-NOT: align 64
