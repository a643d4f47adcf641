// RUN: usmp-opt %s --split-input-file -p memref-to-usmp | filecheck %s --check-prefix=LOWERED
// RUN: usmp-opt %s --split-input-file -p memref-to-usmp,usmp-assign-pools | filecheck %s --check-prefix=DEFAULT
// RUN: usmp-opt %s --split-input-file -p 'memref-to-usmp,usmp-assign-pools{pools="sram:size_hint=1K:alignment=32:targets=c|llvm:read_latency_cycles=2,dram:kind=workspace"}' | filecheck %s --check-prefix=SPEC
// RUN: usmp-opt %s --split-input-file -p 'usmp-assign-pools{pools="sram:size_hint=1K:alignment=32:targets=c|llvm:read_latency_cycles=2,dram:kind=workspace"},memref-to-usmp,usmp-assign-pools,usmp-plan' | filecheck %s --check-prefix=BEFORE
// RUN: usmp-opt %s --split-input-file --plan-pools --pools 'sram:size_hint=1K:alignment=32:targets=c|llvm:read_latency_cycles=2,dram:kind=workspace' -t usmp-report | filecheck %s --check-prefix=CLI
// RUN: usmp-opt %s --split-input-file --plan-pools --pools 'flash:kind=constant:size_hint=2M:clock_frequency_hz=1G:read_bandwidth_bytes_per_cycle=8:write_bandwidth_bytes_per_cycle=4:write_latency_cycles=9,sram:size_hint=1K' | filecheck %s --check-prefix=PROPERTIES

// The lowering leaves the candidates to usmp-assign-pools, which gives the pools that
// serve the function's target in the order given (declared ones first, then the spec's),
// and the alignment of the strictest. Without a spec and without a workspace pool, one
// unrestricted @global_workspace, as TVM made. Run before the lowering, it adds the pools
// and usmp-plan gives the candidates the same way.
func.func @main() attributes {usmp.target = "c"} {
  %a = memref.alloc() : memref<4xf32>
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %a[%c0] : memref<4xf32>
  func.return
}

// LOWERED-NOT: usmp.pool
// LOWERED:     %a = usmp.alloc_offset "a" [][?] align 1 live [0, 4) : memref<4xf32>

// DEFAULT:     usmp.pool @global_workspace workspace alignment 16
// DEFAULT:     %a = usmp.alloc_offset "a" @global_workspace[?] align 16 live [0, 4) : memref<4xf32>

// SPEC:        usmp.pool @sram workspace alignment 32 size_hint 1024 targets ["c", "llvm"] {read_latency_cycles = 2 : i64}
// SPEC-NEXT:   usmp.pool @dram workspace alignment 16
// SPEC-NOT:    global_workspace
// SPEC:        %a = usmp.alloc_offset "a" [@sram, @dram][?] align 32 live [0, 4) : memref<4xf32>

// BEFORE:      usmp.pool @sram workspace alignment 32 size_hint 1024 targets ["c", "llvm"] size 16 {read_latency_cycles = 2 : i64}
// BEFORE:      %a = usmp.alloc_offset "a" @sram[0] align 32 live [0, 4) : memref<4xf32>

// CLI:         a  sram  0  16

// A constant pool holds no workspace buffer.
// PROPERTIES:  usmp.pool @flash constant alignment 16 size_hint 2097152 size 0 {clock_frequency_hz = 1073741824 : i64, read_bandwidth_bytes_per_cycle = 8 : i64, write_bandwidth_bytes_per_cycle = 4 : i64, write_latency_cycles = 9 : i64}
// PROPERTIES-NEXT: usmp.pool @sram workspace alignment 16 size_hint 1024 size 16

// -----

// Pools in the IR stay, the spec's come after them; a function of another target is
// served only by the pools of its target and the unrestricted ones.
usmp.pool @fast workspace alignment 16 size_hint 64 targets ["c"]
usmp.pool @any workspace alignment 16
func.func @op() attributes {usmp.target = "llvm"} {
  %ws = memref.alloc() : memref<4xf32>
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %ws[%c0] : memref<4xf32>
  func.return
}
func.func @main() attributes {usmp.target = "c"} {
  %a = memref.alloc() : memref<4xf32>
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %a[%c0] : memref<4xf32>
  func.call @op() : () -> ()
  func.return
}

// DEFAULT-NOT: global_workspace
// DEFAULT:     %ws = usmp.alloc_offset "ws" @any[?] align 16 live [5, 9) : memref<4xf32>
// DEFAULT:     %a = usmp.alloc_offset "a" [@fast, @any][?] align 16 live [0, 4) : memref<4xf32>

// SPEC:        usmp.pool @fast workspace alignment 16 size_hint 64 targets ["c"]
// SPEC-NEXT:   usmp.pool @any workspace alignment 16
// SPEC-NEXT:   usmp.pool @sram workspace alignment 32 size_hint 1024 targets ["c", "llvm"] {read_latency_cycles = 2 : i64}
// SPEC-NEXT:   usmp.pool @dram workspace alignment 16
// SPEC:        %ws = usmp.alloc_offset "ws" [@any, @sram, @dram][?] align 32 live [5, 9) : memref<4xf32>
// SPEC:        %a = usmp.alloc_offset "a" [@fast, @any, @sram, @dram][?] align 32 live [0, 4) : memref<4xf32>
