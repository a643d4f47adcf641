// RUN: usmp-opt %s | usmp-opt | filecheck %s
// RUN: usmp-opt %s --print-op-generic | usmp-opt | filecheck %s
// RUN: usmp-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// A pool with every field, one with the defaults, a planned one.
usmp.pool @sram workspace alignment 32 size_hint 4096 targets ["c", "llvm"] {clock_frequency_hz = 100000000 : i64, read_bandwidth_bytes_per_cycle = 8 : i64, write_bandwidth_bytes_per_cycle = 4 : i64, read_latency_cycles = 1 : i64, write_latency_cycles = 2 : i64, target_burst_bytes = {c = 64 : i64}, is_internal}
usmp.pool @dram workspace
usmp.pool @weights constant alignment 16 size 64

// CHECK:      usmp.pool @sram workspace alignment 32 size_hint 4096 targets ["c", "llvm"] {clock_frequency_hz = 100000000 : i64, read_bandwidth_bytes_per_cycle = 8 : i64, write_bandwidth_bytes_per_cycle = 4 : i64, read_latency_cycles = 1 : i64, write_latency_cycles = 2 : i64, target_burst_bytes = {c = 64 : i64}, is_internal}
// CHECK-NEXT: usmp.pool @dram workspace alignment 16
// CHECK-NEXT: usmp.pool @weights constant alignment 16 size 64

// GENERIC: "usmp.pool"() <{sym_name = "dram", kind = #usmp<pool_kind workspace>, alignment = 16 : i64, targets = []}> : () -> ()

%a = usmp.alloc_offset "a" @sram[?] align 32 live [0, 5) [7, 9) : memref<16xf32>
%b = usmp.alloc_offset "b" [@sram, @dram][?] align 16 live [3, 8) : memref<2x4xi32>
%c = usmp.alloc_offset "c" @dram[48] align 16 conflicts(%b) {note = "placed by hand"} : memref<8xi8>
%d = usmp.alloc_offset "d" @dram[0] align 16 live [9, 10) {usmp.io = #usmp.io<"d", input_output>} : memref<8xi8>

// CHECK-NEXT: %a = usmp.alloc_offset "a" @sram[?] align 32 live [0, 5) [7, 9) : memref<16xf32>
// CHECK-NEXT: %b = usmp.alloc_offset "b" [@sram, @dram][?] align 16 live [3, 8) : memref<2x4xi32>
// CHECK-NEXT: %c = usmp.alloc_offset "c" @dram[48] align 16 conflicts(%b) {note = "placed by hand"} : memref<8xi8>
// CHECK-NEXT: %d = usmp.alloc_offset "d" @dram[0] align 16 live [9, 10) {usmp.io = #usmp.io<"d", input_output>} : memref<8xi8>

// GENERIC: "usmp.alloc_offset"() <{buffer_name = "a", pools = [@sram], alignment = 32 : i64, live = array<i64: 0, 5, 7, 9>}> : () -> memref<16xf32>
// GENERIC: "usmp.alloc_offset"(%{{.*}}) <{buffer_name = "c", pools = [@dram], alignment = 16 : i64, offset = 48 : i64}> {note = "placed by hand"} : (memref<2x4xi32>) -> memref<8xi8>

usmp.liveness

// CHECK-NEXT: usmp.liveness
// CHECK-NEXT: }

// GENERIC: "usmp.liveness"() : () -> ()
