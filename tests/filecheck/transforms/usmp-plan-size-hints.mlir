// Size hints that a plan fits, though placing the largest buffer first does not (issue 19):
// `b39` may go to `p0` or `p1`; placed in `p0` it leaves no room there for `b24`.
// TVM's greedy algorithms keep TVM's rules, and say that they found no place, not that
// none exists; `default` and `exact` send `b39` to `p1`.

// RUN: %exit-code usmp-opt %s -p 'usmp-plan{algorithm=greedy_by_size}' | filecheck %s --check-prefix=GREEDY
// RUN: %exit-code usmp-opt %s -p 'usmp-plan{algorithm=hill_climb}' | filecheck %s --check-prefix=GREEDY
// GREEDY:      usmp-plan-size-hints.mlir:30:1: error: algorithm '{{greedy_by_size|hill_climb}}' found no place for buffer 'b24' (1386 bytes) in its candidate pools (p0: size hint 17869 bytes, needs 18410, 541 bytes missing), though a plan may exist: try algorithm 'exact', or increase the size hints
// GREEDY-NEXT: exit=1

// RUN: usmp-opt %s -p 'usmp-plan{algorithm=default}' | filecheck %s
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=exact}' | filecheck %s
// CHECK:      usmp.pool @p0 workspace alignment 1 size_hint 17869 size 2920
// CHECK-NEXT: usmp.pool @p1 workspace alignment 1 size 15456
// CHECK-NEXT: %b8 = usmp.alloc_offset "b8" @p0[{{[0-9]+}}]
// CHECK-NEXT: %b24 = usmp.alloc_offset "b24" @p0[{{[0-9]+}}]
// CHECK-NEXT: %b39 = usmp.alloc_offset "b39" @p1[0]

// With `p1` bounded below `b39`'s size, no plan fits: `b39` can only go to `p0`, and the
// three buffers need more than its hint. Said before any search.
// RUN: sed 's/@p1 workspace alignment 1$/@p1 workspace alignment 1 size_hint 15000/' %s > %t.bounded.mlir
// RUN: %exit-code usmp-opt %t.bounded.mlir -p 'usmp-plan{algorithm=exact}' | filecheck %s --check-prefix=PROVEN
// RUN: %exit-code usmp-opt %t.bounded.mlir -p 'usmp-plan{algorithm=default}' | filecheck %s --check-prefix=PROVEN
// PROVEN:      bounded.mlir:31:1: error: buffer 'b39' (15456 bytes) does not fit in any candidate pool (p0: size hint 17869 bytes, needs 18354, 485 bytes missing; p1: size hint 15000 bytes, needs 15456, 456 bytes missing); increase the size hints
// PROVEN-NEXT: exit=1

usmp.pool @p0 workspace alignment 1 size_hint 17869
usmp.pool @p1 workspace alignment 1
%b8 = usmp.alloc_offset "b8" [@p0][?] align 64 live [0, 10) : memref<1512xi8>
%b24 = usmp.alloc_offset "b24" [@p0][?] align 128 live [0, 10) : memref<1386xi8>
%b39 = usmp.alloc_offset "b39" [@p0, @p1][?] align 1 live [0, 10) : memref<15456xi8>
usmp.liveness
