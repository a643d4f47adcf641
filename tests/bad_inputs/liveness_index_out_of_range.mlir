// issue 33: one diagnostic, exit status 1, no traceback (tests/test_bad_inputs.py).
// With --disable-verify the planner still reads only input that verifies: an interval of
// buffer 5 of 1 was an IndexError in the problem builder.
usmp.pool @p workspace alignment 1
%a = usmp.alloc_offset "a" @p[?] align 1 : memref<4xi8>
"usmp.liveness"() <{buffers = ["a"], interval_owners = array<i64: 5>, interval_starts = array<i64: 0>, interval_ends = array<i64: 1>, conflict_pairs = array<i64>}> : () -> ()
