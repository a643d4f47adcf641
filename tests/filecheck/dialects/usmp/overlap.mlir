// RUN: %only-usmp-dialect %s --split-input-file --verify-diagnostics | filecheck %s

// Two buffers live at the same time that share a byte are rejected by the dialect's own
// verifier: nothing besides the dialect is loaded here.

builtin.module {
  usmp.pool @sram workspace alignment 16 size 64
  %a = usmp.alloc_offset "a" @sram[0] align 16 live [0, 4) : memref<16xi8>
  %b = usmp.alloc_offset "b" @sram[8] align 8 live [2, 6) : memref<16xi8>
  // expected-error @+1 {{Operation does not verify: buffers 'a' and 'b' conflict but overlap in pool 'sram': 'a' at [0, 16), 'b' at [8, 24)}}
  usmp.liveness
}

// CHECK: buffers 'a' and 'b' conflict but overlap in pool 'sram'

// -----

// Apart in time, the same bytes are fine.

builtin.module {
  usmp.pool @sram workspace alignment 16 size 64
  %a = usmp.alloc_offset "a" @sram[0] align 16 live [0, 4) : memref<16xi8>
  %b = usmp.alloc_offset "b" @sram[8] align 8 live [4, 6) : memref<16xi8>
  usmp.liveness
}

// CHECK:      %a = usmp.alloc_offset "a" @sram[0] align 16 live [0, 4) : memref<16xi8>
// CHECK-NEXT: %b = usmp.alloc_offset "b" @sram[8] align 8 live [4, 6) : memref<16xi8>
// CHECK-NEXT: usmp.liveness
