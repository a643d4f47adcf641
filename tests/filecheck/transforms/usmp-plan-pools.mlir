// RUN: usmp-opt %s -p 'usmp-plan{algorithm=greedy_by_size}' | filecheck %s
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=first_fit}' | filecheck %s

// Candidates are tried in order: a buffer goes to the next pool only when the first one's
// size hint would be exceeded (it says so: usmp.overflowed_from); a buffer that conflicts
// with nothing reuses offset 0.
usmp.pool @sram workspace alignment 16 size_hint 64
usmp.pool @dram workspace alignment 16
%a = usmp.alloc_offset "a" [@sram, @dram][?] align 16 live [0, 10) : memref<12xf32>
%b = usmp.alloc_offset "b" [@sram, @dram][?] align 16 live [0, 10) : memref<8xf32>
%c = usmp.alloc_offset "c" [@sram, @dram][?] align 16 live [10, 20) : memref<4xf32>
usmp.liveness

// CHECK:      usmp.pool @sram workspace alignment 16 size_hint 64 size 48
// CHECK-NEXT: usmp.pool @dram workspace alignment 16 size 32
// CHECK-NEXT: %a = usmp.alloc_offset "a" @sram[0] align 16 live [0, 10) : memref<12xf32>
// CHECK-NEXT: %b = usmp.alloc_offset "b" @dram[0] align 16 live [0, 10) {usmp.overflowed_from = [@sram]} : memref<8xf32>
// CHECK-NEXT: %c = usmp.alloc_offset "c" @sram[0] align 16 live [10, 20) : memref<4xf32>
