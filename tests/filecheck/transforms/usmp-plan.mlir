// RUN: usmp-opt %s -p 'usmp-plan{algorithm=greedy_by_size}' | filecheck %s
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=greedy_by_conflicts}' | filecheck %s
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=hill_climb}' | filecheck %s
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=first_fit}' | filecheck %s --check-prefix=FIT
// RUN: usmp-opt %s -p usmp-plan | filecheck %s --check-prefix=FIT

// TVM's conformance case: three 10-byte buffers that all conflict, alignment 1.
// TVM's algorithms place them at a=20, b=10, c=0.
usmp.pool @global_workspace workspace alignment 1
%a = usmp.alloc_offset "bi_a" @global_workspace[?] align 1 : memref<10xi8>
%b = usmp.alloc_offset "bi_b" @global_workspace[?] align 1 conflicts(%a) : memref<10xi8>
%c = usmp.alloc_offset "bi_c" @global_workspace[?] align 1 conflicts(%a, %b) : memref<10xi8>
usmp.liveness

// CHECK:      usmp.pool @global_workspace workspace alignment 1 size 30
// CHECK-NEXT: %a = usmp.alloc_offset "bi_a" @global_workspace[20] align 1 : memref<10xi8>
// CHECK-NEXT: %b = usmp.alloc_offset "bi_b" @global_workspace[10] align 1 conflicts(%a) : memref<10xi8>
// CHECK-NEXT: %c = usmp.alloc_offset "bi_c" @global_workspace[0] align 1 conflicts(%a, %b) : memref<10xi8>

// FIT: usmp.pool @global_workspace workspace alignment 1 size 30
