// Size hints no plan can meet are reported before any search (issue 33) by the algorithms
// that search, naming the buffer live when the bytes run out and at most three pools.
// RUN: usmp-opt %s --split-input-file --verify-diagnostics -p 'usmp-plan' | filecheck %s
// RUN: usmp-opt %s --split-input-file --verify-diagnostics -p 'usmp-plan{algorithm=exact}' | filecheck %s

// A 16-byte buffer and five pools of 8 bytes: the pools past the third are counted.
// CHECK: buffer 'big' (16 bytes) does not fit in any candidate pool (p0: size hint 8 bytes, needs 16, 8 bytes missing; p1: size hint 8 bytes, needs 16, 8 bytes missing; p2: size hint 8 bytes, needs 16, 8 bytes missing; and 2 more); increase the size hints

usmp.pool @p0 workspace alignment 1 size_hint 8
usmp.pool @p1 workspace alignment 1 size_hint 8
usmp.pool @p2 workspace alignment 1 size_hint 8
usmp.pool @p3 workspace alignment 1 size_hint 8
usmp.pool @p4 workspace alignment 1 size_hint 8
%big = usmp.alloc_offset "big" [@p0, @p1, @p2, @p3, @p4][?] align 1 live [0, 1) : memref<16xi8>
usmp.liveness

// -----

// `b` fits only in `big_pool` (`tiny` is too small for it), where `a` must go too.
// CHECK: buffer 'a' (48 bytes) does not fit in any candidate pool (big_pool: size hint 64 bytes, needs 96, 32 bytes missing); increase the size hints
usmp.pool @big_pool workspace alignment 1 size_hint 64
usmp.pool @tiny workspace alignment 1 size_hint 8
%a = usmp.alloc_offset "a" [@big_pool][?] align 1 live [0, 2) : memref<48xi8>
%b = usmp.alloc_offset "b" [@tiny, @big_pool][?] align 1 live [1, 3) : memref<48xi8>
usmp.liveness

// -----

// Three buffers live together that can go only to `p` or `q` need more bytes than the two
// hints add up to, though each fits either pool (`d` has an unbounded pool).
// CHECK: no plan fits the size hints: buffer 'a' (30 bytes) and the buffers live with it that can go nowhere but pools p, q need 80 bytes at once, and those pools' size hints add up to 64 bytes; increase the size hints
usmp.pool @p workspace alignment 1 size_hint 32
usmp.pool @q workspace alignment 1 size_hint 32
usmp.pool @r workspace alignment 1
%a = usmp.alloc_offset "a" [@p, @q][?] align 1 live [0, 4) : memref<30xi8>
%b = usmp.alloc_offset "b" [@q, @p][?] align 1 live [0, 4) : memref<30xi8>
%c = usmp.alloc_offset "c" [@p, @q][?] align 1 live [1, 3) : memref<20xi8>
%d = usmp.alloc_offset "d" [@p, @r][?] align 1 live [1, 3) : memref<40xi8>
usmp.liveness
