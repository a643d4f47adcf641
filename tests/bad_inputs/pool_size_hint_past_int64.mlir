// a pool size hint past int64: one diagnostic, exit status 1 (tests/test_bad_inputs.py).
usmp.pool @p workspace alignment 1 size_hint 1180591620717411303424
%a = usmp.alloc_offset "a" @p[?] align 1 live [0, 5) : memref<4xi8>
usmp.liveness
