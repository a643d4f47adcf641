// RUN: usmp-opt %s -p 'usmp-plan{algorithm=greedy_by_size}' | filecheck %s
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=greedy_by_conflicts}' | filecheck %s
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=hill_climb}' | filecheck %s
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=best_fit}' | filecheck %s
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=exact}' | filecheck %s

// TVM's linear chain: each buffer conflicts with its neighbours; every algorithm needs
// 140 bytes (100 + 40 is the largest neighbouring pair).
usmp.pool @global_workspace workspace alignment 1
%a = usmp.alloc_offset "bi_a" @global_workspace[?] align 1 : memref<10xi8>
%b = usmp.alloc_offset "bi_b" @global_workspace[?] align 1 conflicts(%a) : memref<20xi8>
%c = usmp.alloc_offset "bi_c" @global_workspace[?] align 1 conflicts(%b) : memref<100xi8>
%d = usmp.alloc_offset "bi_d" @global_workspace[?] align 1 conflicts(%c) : memref<40xi8>
%e = usmp.alloc_offset "bi_e" @global_workspace[?] align 1 conflicts(%d) : memref<50xi8>
%f = usmp.alloc_offset "bi_f" @global_workspace[?] align 1 conflicts(%e) : memref<50xi8>
usmp.liveness

// CHECK: usmp.pool @global_workspace workspace alignment 1 size 140
