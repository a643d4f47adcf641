// --disable-verify skips the verification of what passes give, as mlir-opt's
// --verify-each=false: a pass or a target still reads only input that verifies (it would
// fail on anything else with a traceback), and input that does not is printed back in
// generic form, as mlir-opt prints an op that fails its verifier (issue 33).

// RUN: %exit-code usmp-opt %s --disable-verify --plan-pools 2>&1 | filecheck %s --check-prefix=PLAN
// PLAN: disable-verify.mlir:[[# @LINE + 16]]:1: error: buffer 'a': live interval [1, 0) must have 0 <= start < end
// PLAN-NEXT: exit=1

// RUN: %exit-code usmp-opt %s --disable-verify -t usmp-report 2>&1 | filecheck %s --check-prefix=REPORT
// REPORT: disable-verify.mlir:[[# @LINE + 12]]:1: error: buffer 'a': live interval [1, 0) must have 0 <= start < end
// REPORT-NEXT: exit=1

// RUN: %exit-code usmp-opt %s --disable-verify 2>&1 | filecheck %s --check-prefix=PRINT
// PRINT: "builtin.module"() ({
// PRINT: "usmp.alloc_offset"() <{buffer_name = "a", pools = [@p], alignment = 1 : i64, live = array<i64: 1, 0>}>
// PRINT: exit=0

// RUN: %exit-code usmp-opt %s 2>&1 | filecheck %s --check-prefix=VERIFY
// VERIFY: disable-verify.mlir:[[# @LINE + 3]]:1: error: buffer 'a': live interval [1, 0) must have 0 <= start < end

usmp.pool @p workspace alignment 1
%a = usmp.alloc_offset "a" @p[?] align 1 live [1, 0) : memref<4xi8>
usmp.liveness
