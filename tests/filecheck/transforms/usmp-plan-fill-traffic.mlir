// fill=traffic chooses which buffers the size-hinted pool holds by the traffic they
// serve (issue 47): `b` (3 KiB) meets both `a` and `c` (2 KiB each, never live together).
// TVM's rule (fill=first, the default) keeps the largest, `b`, and overflows the other
// two; fill=traffic keeps `a` and `c`, 4 KiB of reads and writes against 3 KiB, and
// records both rules' figures per pool (`usmp.fill`: traffic, then TVM's size and traffic).
// RUN: usmp-opt %s -p 'usmp-plan' | filecheck %s --check-prefix=FIRST
// RUN: usmp-opt %s -p 'usmp-plan{fill=first}' | filecheck %s --check-prefix=FIRST
// RUN: usmp-opt %s -p 'usmp-plan{fill=traffic}' | filecheck %s --check-prefix=TRAFFIC
// RUN: usmp-opt %s -p 'usmp-plan{fill=traffic algorithm=greedy_by_size}' | filecheck %s --check-prefix=TRAFFIC
// RUN: usmp-opt %s -p 'usmp-plan{fill=traffic algorithm=exact}' | filecheck %s --check-prefix=TRAFFIC
// RUN: usmp-opt %s -p 'usmp-plan{fill=traffic}' -t usmp-report | filecheck %s --check-prefix=REPORT
// RUN: %exit-code usmp-opt %s -p 'usmp-plan{fill=most}' | filecheck %s --check-prefix=BAD
// A pool of size hint 0 holds nothing; its line says so (it divided by the hint).
// RUN: sed 's/size_hint 4096/size_hint 0/' %s | usmp-opt -p 'usmp-plan{fill=traffic}' -t usmp-report | filecheck %s --check-prefix=EMPTY

// FIRST-NOT:  usmp.fill
// FIRST:      usmp.pool @sram workspace alignment 16 size_hint 4096 size 3072
// FIRST:      %a = usmp.alloc_offset "a" @dram[0]
// FIRST-NEXT: %b = usmp.alloc_offset "b" @sram[0]
// FIRST-NEXT: %c = usmp.alloc_offset "c" @dram[0]

// TRAFFIC:      usmp.fill = {sram = [4096 : i64, 3072 : i64, 3072 : i64], dram = [3072 : i64, 2048 : i64, 4096 : i64]}
// TRAFFIC:      usmp.pool @sram workspace alignment 16 size_hint 4096 size 2048
// TRAFFIC-NEXT: usmp.pool @dram workspace alignment 16 size 3072
// TRAFFIC-NEXT: %a = usmp.alloc_offset "a" @sram[0]
// TRAFFIC-NEXT: %b = usmp.alloc_offset "b" @dram[0] align 16 live [1, 3) {usmp.overflowed_from = [@sram]}
// TRAFFIC-NEXT: %c = usmp.alloc_offset "c" @sram[0]

// REPORT:      fill by traffic (bytes calls read and write), against TVM's rule on the same pools:
// REPORT-NEXT:   sram: 2048 of 4096 bytes (50%), 57% of the traffic; TVM's rule: 3072 of 4096 bytes (75%), 43%
// REPORT-NEXT:   dram: 3072 bytes, 43% of the traffic; TVM's rule: 2048 bytes, 57%

// EMPTY:      fill by traffic (bytes calls read and write), against TVM's rule on the same pools:
// EMPTY-NEXT:   sram: 0 of 0 bytes, 0% of the traffic; TVM's rule: 0 of 0 bytes, 0%
// EMPTY-NEXT:   dram: 5120 bytes, 100% of the traffic; TVM's rule: 5120 bytes, 100%

// BAD: usmp-opt: error: fill must be one of first, traffic, got 'most'
// BAD: exit=1

usmp.pool @sram workspace alignment 16 size_hint 4096
usmp.pool @dram workspace alignment 16
%a = usmp.alloc_offset "a" [@sram, @dram][?] align 16 live [0, 2) : memref<2048xi8>
%b = usmp.alloc_offset "b" [@sram, @dram][?] align 16 live [1, 3) : memref<3072xi8>
%c = usmp.alloc_offset "c" [@sram, @dram][?] align 16 live [2, 4) : memref<2048xi8>
usmp.liveness
