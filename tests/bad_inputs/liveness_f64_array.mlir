// issue 33: one diagnostic, exit status 1, no traceback (tests/test_bad_inputs.py).
// An f64 array where usmp.liveness reads i64: its bits were read as int64 and planned.
usmp.pool @p workspace alignment 1
%a = usmp.alloc_offset "a" @p[?] align 1 : memref<4xi8>
"usmp.liveness"() <{buffers = ["a"], interval_owners = array<i64: 0>, interval_starts = array<f64: 0.0>, interval_ends = array<i64: 1>, conflict_pairs = array<i64>}> : () -> ()
