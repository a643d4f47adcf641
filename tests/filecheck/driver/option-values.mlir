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

usmp.pool @global_workspace workspace alignment 16
%a = usmp.alloc_offset "a" [@global_workspace][?] align 16 live [0, 10) : memref<8xf32>
%b = usmp.alloc_offset "b" [@global_workspace][?] align 16 live [0, 10) : memref<8xf32>
usmp.liveness
