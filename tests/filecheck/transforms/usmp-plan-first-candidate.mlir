// First candidate that fits (TVM's rule), whatever the algorithm (issue 33): `a` fits in
// `sram` (size hint 4096, 4000 bytes held by `big`), so it goes there, though `dram` would
// hold it at no cost (`e`, too large for sram's last 96 bytes, makes dram 100 bytes anyway).
// `default` and `exact`, which minimise the bytes of all pools, put it in dram.
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=default}' | filecheck %s
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=exact}' | filecheck %s
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=greedy_by_size}' | filecheck %s
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=greedy_by_conflicts}' | filecheck %s
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=hill_climb}' | filecheck %s
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=first_fit}' | filecheck %s
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=best_fit}' | filecheck %s
// CHECK:      usmp.pool @sram workspace alignment 16 size_hint 4096 size 4064
// CHECK-NEXT: usmp.pool @dram workspace alignment 16 size 100
// CHECK-NEXT: %big = usmp.alloc_offset "big" @sram[0]
// CHECK-NEXT: %e = usmp.alloc_offset "e" @dram[0] align 16 live [0, 2) {usmp.overflowed_from = [@sram]}
// CHECK-NEXT: %a = usmp.alloc_offset "a" @sram[4000] align 16 live [2, 7) : memref<64xi8>

usmp.pool @sram workspace alignment 16 size_hint 4096
usmp.pool @dram workspace alignment 16
%big = usmp.alloc_offset "big" [@sram][?] align 16 live [0, 5) : memref<4000xi8>
%e = usmp.alloc_offset "e" [@sram, @dram][?] align 16 live [0, 2) : memref<100xi8>
%a = usmp.alloc_offset "a" [@sram, @dram][?] align 16 live [2, 7) : memref<64xi8>
usmp.liveness
