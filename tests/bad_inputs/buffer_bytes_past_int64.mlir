// a buffer type of 2**64 bytes: one diagnostic, exit status 1 (tests/test_bad_inputs.py).
usmp.pool @p workspace alignment 1
%a = usmp.alloc_offset "a" @p[?] align 1 live [0, 5) : memref<2305843009213693952xi64>
usmp.liveness
