// buffer sizes summing past 2**60: one diagnostic, exit status 1 (tests/test_bad_inputs.py).
usmp.pool @p workspace alignment 1
%a = usmp.alloc_offset "a" @p[?] align 1 live [0, 5) : memref<576460752303423488xi8>
%b = usmp.alloc_offset "b" @p[?] align 1 live [0, 5) : memref<576460752303423488xi8>
%c = usmp.alloc_offset "c" @p[?] align 1 live [0, 5) : memref<16xi8>
usmp.liveness
