// --disable-verify skips the verification of what passes give, as mlir-opt's
// --verify-each=false: a pass or a target still reads only input that verifies (it would
// fail on anything else with a traceback), and input that does not is printed back in
// generic form, as mlir-opt prints an op that fails its verifier (issue 33).

// RUN: %exit-code usmp-opt %s --disable-verify --plan-pools 2>&1 | filecheck %s --check-prefix=PLAN
// PLAN: disable-verify.mlir:[[# @LINE + 17]]:1: error: a buffer index is out of range
// PLAN-NEXT: exit=1

// RUN: %exit-code usmp-opt %s --disable-verify -t usmp-report 2>&1 | filecheck %s --check-prefix=REPORT
// REPORT: disable-verify.mlir:[[# @LINE + 13]]:1: error: a buffer index is out of range
// REPORT-NEXT: exit=1

// RUN: %exit-code usmp-opt %s --disable-verify 2>&1 | filecheck %s --check-prefix=PRINT
// PRINT: "builtin.module"() ({
// PRINT: "usmp.liveness"() <{buffers = ["a"], interval_owners = array<i64: 5>
// PRINT: exit=0

// RUN: %exit-code usmp-opt %s 2>&1 | filecheck %s --check-prefix=VERIFY
// VERIFY: disable-verify.mlir:[[# @LINE + 4]]:1: error: a buffer index is out of range

usmp.pool @p workspace alignment 1
%a = usmp.alloc_offset "a" @p[?] align 1 : memref<4xi8>
"usmp.liveness"() <{buffers = ["a"], interval_owners = array<i64: 5>, interval_starts = array<i64: 0>, interval_ends = array<i64: 1>, conflict_pairs = array<i64>}> : () -> ()
