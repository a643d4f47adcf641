// RUN: usmp-opt %s --split-input-file --verify-diagnostics -p 'usmp-plan{algorithm=greedy_by_size}' | filecheck %s
// RUN: usmp-opt %s --split-input-file --verify-diagnostics -p 'usmp-plan{algorithm=hill_climb}' | filecheck %s
// RUN: usmp-opt %s --split-input-file --verify-diagnostics -p 'usmp-plan{algorithm=first_fit}' | filecheck %s
// RUN: usmp-opt %s --split-input-file --verify-diagnostics -p 'usmp-plan{algorithm=exact}' | filecheck %s

// Three 10-byte buffers in a cycle of conflicts do not fit a 10-byte pool.
usmp.pool @global_workspace workspace alignment 1 size_hint 10
%a = usmp.alloc_offset "bi_a" @global_workspace[?] align 1 : memref<10xi8>
%b = usmp.alloc_offset "bi_b" @global_workspace[?] align 1 conflicts(%a) : memref<10xi8>
%c = usmp.alloc_offset "bi_c" @global_workspace[?] align 1 conflicts(%b, %a) : memref<10xi8>
usmp.liveness
// CHECK: (10 bytes) does not fit

// -----

usmp.pool @global_workspace workspace alignment 1
%a = usmp.alloc_offset "a" @global_workspace[?] align 1 : memref<10xi8>
// CHECK: the module has buffers but no usmp.liveness

// -----

// Before any lowering the program's allocations are not usmp buffers yet.
tir.prim_func @main() {
  %a = tir.alloc_buffer "a" : !tir.buffer<4xf32>
}
// CHECK: nothing to plan: run memref-to-usmp or tir-to-usmp first

// -----

func.func @main() {
  %a = memref.alloc() : memref<4xf32>
  func.return
}
// CHECK: nothing to plan: run memref-to-usmp or tir-to-usmp first

// -----

// usmp-plan only plans: the candidate pools are usmp-assign-pools' to give.
usmp.pool @sram workspace alignment 16
%a = usmp.alloc_offset "a" [][?] align 16 : memref<4xf32>
usmp.liveness {
  "a" [0, 1)
}
// CHECK: buffer 'a' has no candidate pools: run usmp-assign-pools first (--plan-pools does)
