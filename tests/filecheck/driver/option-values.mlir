// Every number --time-limit and --effort take reaches usmp-plan as written (issue 19:
// `--time-limit 1000000` became `time-limit=1e+06`, which the pipeline parser rejects).
// RUN: usmp-opt %s --plan-pools --time-limit 1000000 | filecheck %s
// RUN: usmp-opt %s --plan-pools --time-limit 1e16 --effort 2.5e-1 | filecheck %s
// RUN: usmp-opt %s --plan-pools --effort 1E3 --algorithm greedy_by_size | filecheck %s
// CHECK: usmp.pool @global_workspace workspace alignment 16 size 64

// A number the pipeline cannot hold is the user's mistake, said once.
// RUN: %exit-code usmp-opt %s --plan-pools --time-limit inf | filecheck %s --check-prefix=INF
// INF:      {{\A}}usmp-opt: error: argument --time-limit: must be a finite number, got 'inf'
// INF-NEXT: exit=1
// RUN: %exit-code usmp-opt %s --plan-pools --effort nan | filecheck %s --check-prefix=NAN
// NAN:      {{\A}}usmp-opt: error: argument --effort: must be a finite number, got 'nan'
// NAN-NEXT: exit=1

// A pass option named as the user typed it, with what it takes (xDSL's own check said
// `expected <class 'int'>`, listed the Python fields and took `true` for an integer);
// nothing is written.
// RUN: %exit-code usmp-opt %s -p 'tir-band-stages{band-height=abc}' -o %t.out | filecheck %s --check-prefix=TYPE
// RUN: test ! -e %t.out
// TYPE:      {{\A}}usmp-opt: error: invalid pass pipeline 'tir-band-stages{band-height=abc}': tir-band-stages: option band-height takes an integer, got 'abc'
// TYPE-NEXT: exit=1
// RUN: %exit-code usmp-opt %s -p 'tir-band-stages{band-height=true}' | filecheck %s --check-prefix=BOOL
// BOOL: error: {{.*}}: tir-band-stages: option band-height takes an integer, got true
// RUN: %exit-code usmp-opt %s -p 'tir-band-stages{budget=nan}' | filecheck %s --check-prefix=BUDGET
// BUDGET: error: {{.*}}: tir-band-stages: option budget takes a number, got 'nan'
// RUN: %exit-code usmp-opt %s -p 'tir-band-stages{in-place=1}' | filecheck %s --check-prefix=FLAG
// FLAG: error: {{.*}}: tir-band-stages: option in-place takes true or false, got 1
// RUN: %exit-code usmp-opt %s -p 'tir-reorder-for-memory{max-states=many}' | filecheck %s --check-prefix=STATES
// STATES: error: {{.*}}: tir-reorder-for-memory: option max-states takes an integer, got 'many'
// RUN: %exit-code usmp-opt %s -p 'tir-band-stages{band-hieght=2}' | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN:      error: {{.*}}: tir-band-stages has no option 'band-hieght' (its options: entry, band-height, budget, in-place)
// UNKNOWN-NEXT: exit=1
// The options as the pipeline names them still run, in either spelling.
// RUN: usmp-opt %s -p 'tir-band-stages{band_height=2 budget=1 in-place=false},usmp-assign-pools,usmp-plan{time-limit=5 effort=1}' | filecheck %s

usmp.pool @global_workspace workspace alignment 16
%a = usmp.alloc_offset "a" [@global_workspace][?] align 16 live [0, 10) : memref<8xf32>
%b = usmp.alloc_offset "b" [@global_workspace][?] align 16 live [0, 10) : memref<8xf32>
usmp.liveness
