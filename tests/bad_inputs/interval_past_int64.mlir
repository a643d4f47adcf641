// a live interval past int64: one diagnostic, exit status 1 (tests/test_bad_inputs.py).
usmp.pool @p workspace alignment 1
%a = usmp.alloc_offset "a" @p[?] align 1 live [0, 18446744073709551616) : memref<4xi8>
usmp.liveness
