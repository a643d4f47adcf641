// an offset past int64: one diagnostic, exit status 1 (tests/test_bad_inputs.py).
usmp.pool @p workspace alignment 1
%a = usmp.alloc_offset "a" @p[18446744073709551616] align 1 live [0, 5) : memref<4xi8>
usmp.liveness
