// A buffer placed by hand (`@p[16]`) stays where it is, whatever the algorithm: the others
// are planned around it (issue 33: it was planned anew, to 0). `b` and `c` meet `a`, and
// `c` needs more than the 16 bytes below it.
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=default}' | filecheck %s
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=exact}' | filecheck %s
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=greedy_by_size}' | filecheck %s
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=greedy_by_conflicts}' | filecheck %s
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=hill_climb}' | filecheck %s
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=first_fit}' | filecheck %s
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=best_fit}' | filecheck %s
// CHECK: %a = usmp.alloc_offset "a" @p[16] align 16 live [0, 10) : memref<4xf32>
// CHECK: %b = usmp.alloc_offset "b" @p[{{0|32|48|64}}] align 16 live [0, 10) : memref<4xf32>
// CHECK: %c = usmp.alloc_offset "c" @p[{{32|48}}] align 16 live [0, 10) : memref<8xf32>

// With a pinned buffer past a size hint there is no plan: the verifier says why.
// RUN: sed 's/@p workspace alignment 16$/@p workspace alignment 16 size_hint 24/' %s > %t.hinted.mlir
// RUN: %exit-code usmp-opt %t.hinted.mlir -p usmp-plan | filecheck %s --check-prefix=HINT
// HINT: usmp-plan-pinned.mlir.tmp.hinted.mlir:{{[0-9]+}}:1: error: buffer 'a' ends at byte 32, past the size hint of pool @p (24 bytes)
// HINT: exit=1

// Under a size hint of 64 the others fit only around `a` (c above it, b below it); of 48
// `c` fits nowhere, and planning says so at it.
// RUN: sed 's/@p workspace alignment 16$/@p workspace alignment 16 size_hint 64/' %s > %t.64.mlir
// RUN: usmp-opt %t.64.mlir -p usmp-plan | filecheck %s --check-prefix=FITS
// FITS: %a = usmp.alloc_offset "a" @p[16]
// FITS: %b = usmp.alloc_offset "b" @p[0]
// FITS: %c = usmp.alloc_offset "c" @p[32]
// RUN: sed 's/@p workspace alignment 16$/@p workspace alignment 16 size_hint 48/' %s > %t.tight.mlir
// RUN: %exit-code usmp-opt %t.tight.mlir -p usmp-plan | filecheck %s --check-prefix=TIGHT
// TIGHT: tight.mlir:{{[0-9]+}}:1: error: {{.*}}buffer 'c' (32 bytes){{.*}}(p: size hint 48 bytes
// TIGHT: exit=1

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[16] align 16 live [0, 10) : memref<4xf32>
%b = usmp.alloc_offset "b" @p[?] align 16 live [0, 10) : memref<4xf32>
%c = usmp.alloc_offset "c" @p[?] align 16 live [0, 10) : memref<8xf32>
usmp.liveness
