// a pool alignment past int64: one diagnostic, exit status 1 (tests/test_bad_inputs.py).
usmp.pool @p workspace alignment 9223372036854775808
%a = usmp.alloc_offset "a" @p[?] align 1 live [0, 5) : memref<4xi8>
usmp.liveness
