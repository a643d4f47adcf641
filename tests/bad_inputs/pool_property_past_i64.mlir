// a descriptive pool property past i64: one diagnostic, exit status 1 (tests/test_bad_inputs.py).
usmp.pool @p workspace alignment 1 {clock_frequency_hz = 36893488147419103232 : i64}
%a = usmp.alloc_offset "a" @p[?] align 1 live [0, 5) : memref<4xi8>
usmp.liveness
