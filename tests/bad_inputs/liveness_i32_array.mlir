// issue 33: one diagnostic, exit status 1, no traceback (tests/test_bad_inputs.py).
// An i32 array where usmp.liveness reads i64: was a ValueError in np.frombuffer.
usmp.pool @p workspace alignment 1
%a = usmp.alloc_offset "a" @p[?] align 1 : memref<4xi8>
"usmp.liveness"() <{buffers = ["a"], interval_owners = array<i32: 0>, interval_starts = array<i64: 0>, interval_ends = array<i64: 1>, conflict_pairs = array<i64>}> : () -> ()
