// What the older, named form of usmp.liveness can get wrong is an error at the op when
// the file is read, before the upgrade moves anything.
// RUN: usmp-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: not usmp-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=ONE

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] align 16 : memref<4xf32>
usmp.liveness {
  "a" [0, 1)
  "a" [2, 3)
}
// CHECK: named-liveness-errors.mlir:8:1: buffer 'a' is listed twice
// ONE: named-liveness-errors.mlir:8:1: error: buffer 'a' is listed twice

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] align 16 : memref<4xf32>
usmp.liveness {
  "a" [0, 1)
  "ghost" [0, 1)
}
// CHECK: liveness names buffer 'ghost' that no usmp.alloc_offset defines

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] align 16 : memref<4xf32>
%b = usmp.alloc_offset "b" @p[?] align 16 : memref<4xf32>
usmp.liveness {
  "a" [0, 1)
}
// CHECK: buffer 'b' has no entry in usmp.liveness

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] align 16 : memref<4xf32>
usmp.liveness {
  "a" [0, 1) conflicts("a")
}
// CHECK: buffer 'a' is listed as conflicting with itself

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] align 16 : memref<4xf32>
usmp.liveness {
  "a" [4, 4)
}
// CHECK: buffer 'a': live interval [4, 4) must have 0 <= start < end

// -----

"usmp.liveness"() <{buffers = ["a", "b"], interval_owners = array<i64>, interval_starts = array<i64>, interval_ends = array<i64>, conflict_pairs = array<i64: 0, 1, 0>}> : () -> ()
// CHECK: conflict_pairs must hold pairs

// -----

usmp.pool @p workspace alignment 1
%a = usmp.alloc_offset "a" @p[?] align 1 : memref<4xi8>
"usmp.liveness"() <{buffers = ["a"], interval_owners = array<i64: 5>, interval_starts = array<i64: 0>, interval_ends = array<i64: 1>, conflict_pairs = array<i64>}> : () -> ()
// CHECK: a buffer index is out of range

// -----

// The interval arrays are read as int64: other element types are rejected, not
// reinterpreted (issue 33).
usmp.pool @p workspace alignment 1
%a = usmp.alloc_offset "a" @p[?] align 1 : memref<4xi8>
"usmp.liveness"() <{buffers = ["a"], interval_owners = array<i32: 0, 0>, interval_starts = array<i64: 0>, interval_ends = array<i64: 1>, conflict_pairs = array<i64>}> : () -> ()
// CHECK: Expected attribute i64 but got i32

// -----

usmp.pool @p workspace alignment 1
%a = usmp.alloc_offset "a" @p[?] align 1 : memref<4xi8>
"usmp.liveness"() <{buffers = ["a"], interval_owners = array<i64: 0>, interval_starts = array<i64: 0>, interval_ends = array<f64: 1.0>, conflict_pairs = array<i64>}> : () -> ()
// CHECK: Expected attribute i64 but got f64

// -----

usmp.pool @p workspace alignment 1
%a = usmp.alloc_offset "a" @p[?] align 1 : memref<4xi8>
"usmp.liveness"() <{buffers = ["a"], interval_owners = array<i64>, interval_starts = array<i64>, interval_ends = array<i64>}> : () -> ()
// CHECK: property 'conflict_pairs' expected in operation 'usmp.liveness'
