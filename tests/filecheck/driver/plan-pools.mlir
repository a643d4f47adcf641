// RUN: usmp-opt %examples/memref/chain.mlir --plan-pools | filecheck %s
// RUN: usmp-opt %examples/memref/chain.mlir --plan-pools --algorithm greedy_by_size | filecheck %s --check-prefix=TVM
// RUN: usmp-opt %examples/memref/chain.mlir --plan-pools -t usmp-report | filecheck %s --check-prefix=REPORT
// RUN: usmp-opt %examples/memref/chain.mlir --plan-pools -t 'usmp-report{format=json}' | filecheck %s --check-prefix=JSON
// RUN: usmp-opt %examples/memref/chain.mlir --plan-pools --print-between-passes | filecheck %s --check-prefix=BETWEEN
// RUN: usmp-opt %examples/memref/chain.mlir --plan-pools --time-passes | filecheck %s --check-prefix=TIMES

// Three 256-byte intermediates and a 256-byte workspace: at most three are live at once
// (t0, t1 and the workspace during the first reverse_scale), so 768 bytes is the optimum.
// CHECK:      usmp.pool @global_workspace workspace alignment 16 size 768
// CHECK:      func.func private @reverse_scale(%in: memref<64xf32>, %out: memref<64xf32>, %global_workspace: memref<768xi8> {usmp.pool = @global_workspace}) {
// CHECK:        %workspace = memref.view %global_workspace[%{{.*}}][] : memref<768xi8> to memref<64xf32>
// CHECK:      func.func @main(%input: memref<64xf32>, %output: memref<64xf32>, %global_workspace: memref<768xi8> {usmp.pool = @global_workspace}) {
// CHECK:        func.call @reverse_scale(%t0, %t1, %global_workspace)
// CHECK-NOT:  memref.alloc
// CHECK-NOT:  memref.dealloc

// TVM's greedy_by_size never reuses a gap below the highest conflict.
// TVM: usmp.pool @global_workspace workspace alignment 16 size

// REPORT:      pool                  size   max-live   ratio  size-hint
// REPORT-NEXT: global_workspace       768        768  1.000x  -
// REPORT:      buffer
// REPORT-DAG:  workspace               global_workspace
// REPORT-DAG:  t0                      global_workspace
// REPORT:      total 768 bytes in 1 pool(s); max-live 768 bytes (1.000x)

// JSON: {"pools": [{"name": "global_workspace", "size": 768, "size_hint": null, "max_live": 768, "overflowed": 0, "largest_overflowed": []}], "buffers": [{"name": "workspace", "pool": "global_workspace", "offset": {{[0-9]+}}, "size": 256, "live": {{\[\[[0-9]+, [0-9]+\], \[[0-9]+, [0-9]+\]\]}}, "io": null, "overflowed_from": []},

// BETWEEN: IR after memref-to-usmp:
// BETWEEN: usmp.liveness
// BETWEEN: IR after usmp-plan:
// BETWEEN: usmp.pool @global_workspace workspace alignment 16 size 768

// The input and the planned module are verified once each, not after every pass.
// TIMES:      Verification of the input took
// TIMES-NEXT: Pass tir-state-to-allocations took
// TIMES-NEXT: Pass tir-reorder-for-memory took
// TIMES-NEXT: Pass tir-band-stages took
// TIMES-NEXT: Pass tir-in-place-results took
// TIMES-NEXT: Pass memref-to-usmp took
// TIMES-NEXT: Pass tir-to-usmp took
// TIMES-NEXT: Pass usmp-assign-pools took
// TIMES-NEXT: Pass tir-constants-to-buffers took
// TIMES-NEXT: Pass tir-align-to-pools took
// TIMES-NEXT: Pass usmp-plan took
// TIMES-NEXT: Pass usmp-to-memref took
// TIMES-NEXT: Pass usmp-to-tir took
// TIMES-NEXT: Verification of the planned module took
// TIMES-NOT:  Verification
