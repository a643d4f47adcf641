// The older form of usmp.liveness, which named its buffers, is read and upgraded: each
// buffer's intervals go to its usmp.alloc_offset, each conflict to the later buffer of the
// pair, written as a use of the earlier one (docs/dialects.md, "Upgrading").
// RUN: usmp-opt %s --split-input-file | filecheck %s
// RUN: usmp-opt %s --split-input-file --print-op-generic | usmp-opt --split-input-file | filecheck %s

usmp.pool @sram workspace alignment 16
%a = usmp.alloc_offset "a" @sram[?] align 16 : memref<16xf32>
func.func @f() {
  %n = usmp.alloc_offset "nested" @sram[?] align 16 : memref<4xf32>
  func.return
}
%b = usmp.alloc_offset "b" @sram[?] align 16 : memref<8xi32>
%c = usmp.alloc_offset "c" @sram[?] align 16 : memref<2xf32>
usmp.liveness {
  "a" [0, 5) [7, 9) conflicts("c")
  "c"
  "nested" [2, 3)
  "b" [3, 8)
}

// CHECK:      %a = usmp.alloc_offset "a" @sram[?] align 16 live [0, 5) [7, 9) : memref<16xf32>
// CHECK:        %n = usmp.alloc_offset "nested" @sram[?] align 16 live [2, 3) : memref<4xf32>
// CHECK:      %b = usmp.alloc_offset "b" @sram[?] align 16 live [3, 8) : memref<8xi32>
// CHECK-NEXT: %c = usmp.alloc_offset "c" @sram[?] align 16 conflicts(%a) : memref<2xf32>
// CHECK-NEXT: usmp.liveness
// CHECK-NEXT: }

// -----

// The generic form of the older op is read too.
usmp.pool @p workspace alignment 1
%a = usmp.alloc_offset "a" @p[?] align 1 : memref<4xi8>
%b = usmp.alloc_offset "b" @p[?] align 1 : memref<4xi8>
"usmp.liveness"() <{buffers = ["b", "a"], interval_owners = array<i64: 1, 0>, interval_starts = array<i64: 0, 2>, interval_ends = array<i64: 1, 4>, conflict_pairs = array<i64: 1, 0>}> : () -> ()

// CHECK:      %a = usmp.alloc_offset "a" @p[?] align 1 live [0, 1) : memref<4xi8>
// CHECK-NEXT: %b = usmp.alloc_offset "b" @p[?] align 1 live [2, 4) conflicts(%a) : memref<4xi8>
// CHECK-NEXT: usmp.liveness
