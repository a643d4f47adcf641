// RUN: usmp-opt %s --split-input-file --parsing-diagnostics | filecheck %s

usmp.pool @p scratch alignment 16
// CHECK: Expected `workspace`, `constant`, or `state`

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] align 16 : memref<4xf32>
usmp.liveness {
  "a" [0, 1) conflicts("b")
}
// CHECK: conflict with unknown buffer 'b'

// -----

// A conflict is written on the later buffer of the two, as a use of the earlier one.
usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] align 16 conflicts(%b) : memref<4xf32>
%b = usmp.alloc_offset "b" @p[?] align 16 : memref<4xf32>
// CHECK: a conflict names a buffer defined before it: write it on the later buffer

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] align 16 live : memref<4xf32>
// CHECK: expected a live interval '[start, end)'

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] align 16 live [0, -99999999999999999999) : memref<4xf32>
// CHECK: live interval end -99999999999999999999 is below the limit of -2**63

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] : memref<4xf32>
// CHECK: Expected 'align'

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] align 16 {usmp.io = #usmp.io<"a", sideways>} : memref<4xf32>
// CHECK: Expected `input`, `output`, `input_output`, `constant`, or `state`
