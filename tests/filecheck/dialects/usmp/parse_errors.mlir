// RUN: usmp-opt %s --split-input-file --parsing-diagnostics | filecheck %s

usmp.pool @p scratch alignment 16
// CHECK: Expected `workspace`, or `constant`

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] align 16 : memref<4xf32>
usmp.liveness {
  "a" [0, 1) conflicts("b")
}
// CHECK: conflict with unknown buffer 'b'

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] : memref<4xf32>
// CHECK: Expected 'align'

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] align 16 {usmp.io = #usmp.io<"a", sideways>} : memref<4xf32>
// CHECK: Expected `input`, `output`, `input_output`, or `constant`
