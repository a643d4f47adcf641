// How a plan was found travels with it as the module's `usmp.plan` and shows in the
// report: proven optimal or not, the lower bound per pool (what a search proved, else
// max-live), whether the time limit (a safety cap; algorithms stop on their work budget)
// cut an algorithm short, the only case where another run may give another plan. A cap
// of 0 s stops any search here: the first plan (60 bytes) is above max-live (50).
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=exact}' | filecheck %s --check-prefix=EXACT
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=exact}' -t usmp-report | filecheck %s --check-prefix=EXACT-TEXT
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=exact}' -t 'usmp-report{format=json}' | filecheck %s --check-prefix=EXACT-JSON
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=greedy_by_size}' -t usmp-report | filecheck %s --check-prefix=GREEDY
// RUN: usmp-opt %s -p 'usmp-plan{time-limit=0}' -t usmp-report 2> %t.err | filecheck %s --check-prefix=CAP-TEXT
// RUN: filecheck %s --check-prefix=CAP-WARNING < %t.err
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=exact time-limit=0}' -t 'usmp-report{format=json}' 2> %t.err | filecheck %s --check-prefix=CAP-JSON
// RUN: filecheck %s --check-prefix=CAP-EXACT-WARNING < %t.err
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=hill_climb time-limit=0}' 2> %t.err | filecheck %s --check-prefix=CAP-HILL
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=exact effort=0.5}' 2> %t.err | filecheck %s --check-prefix=EXACT
// RUN: test ! -s %t.err
// The clock never stops TVM's greedy algorithms nor first_fit and best_fit (README):
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=greedy_by_size time-limit=0}' 2> %t.err | filecheck %s --check-prefix=NO-CAP
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=greedy_by_conflicts time-limit=0}' 2>> %t.err | filecheck %s --check-prefix=NO-CAP
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=first_fit time-limit=0}' 2>> %t.err | filecheck %s --check-prefix=NO-CAP
// RUN: usmp-opt %s -p 'usmp-plan{algorithm=best_fit time-limit=0}' 2>> %t.err | filecheck %s --check-prefix=NO-CAP
// RUN: test ! -s %t.err
// NO-CAP: time_limit_reached = false

// Every two buffers meet, never all three: max-live is 50, the optimum 60.
usmp.pool @sram workspace alignment 1
%a = usmp.alloc_offset "a" @sram[?] align 1 live [0, 2) [6, 8) : memref<10xi8>
%b = usmp.alloc_offset "b" @sram[?] align 1 live [2, 7) : memref<20xi8>
%c = usmp.alloc_offset "c" @sram[?] align 1 live [1, 3) [7, 9) : memref<30xi8>
usmp.liveness

// EXACT: builtin.module attributes {usmp.plan = #usmp.plan<"exact", proven_optimal = true, time_limit_reached = false, lower_bounds = {sram = 60}>} {
// EXACT: usmp.pool @sram workspace alignment 1 size 60

// EXACT-TEXT: total 60 bytes in 1 pool(s); max-live 50 bytes (1.200x)
// EXACT-TEXT-NEXT: planned by 'exact': proven optimal
// EXACT-TEXT-NEXT: lower bound: sram 60 bytes (1.000x of it)
// EXACT-TEXT-NOT: time limit

// EXACT-JSON: "lower_bounds": {"sram": 60}, "max_live": 50,
// EXACT-JSON-SAME: "plan": {"algorithm": "exact", "proven_optimal": true, "time_limit_reached": false, "lower_bounds": {"sram": 60}}}

// GREEDY: planned by 'greedy_by_size': not proven optimal
// GREEDY-NEXT: lower bound: sram 50 bytes (1.200x of it)

// CAP-TEXT: total 60 bytes in 1 pool(s); max-live 50 bytes (1.200x)
// CAP-TEXT-NEXT: planned by 'default': not proven optimal
// CAP-TEXT-NEXT: the time limit stopped the algorithm before its work budget: another run may give another plan

// CAP-WARNING: usmp-plan-status.mlir:{{[0-9]+}}:1: warning: the time limit (0 s) stopped 'default' before its work budget did: another run may give another plan; raise time-limit, or lower effort, for a reproducible one

// CAP-JSON: "lower_bounds": {"sram": 50}, "max_live": 50,
// CAP-JSON-SAME: "plan": {"algorithm": "exact", "proven_optimal": false, "time_limit_reached": true, "lower_bounds": {"sram": 50}}}
// CAP-EXACT-WARNING: warning: the time limit (0 s) stopped 'exact' before its work budget did

// CAP-HILL: builtin.module attributes {usmp.plan = #usmp.plan<"hill_climb", proven_optimal = false, time_limit_reached = true>} {
