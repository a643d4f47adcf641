// The text report's columns are as wide as their widest cell, so a long buffer or pool
// name (Relax gives names like conv2d_nchw_intermediate.2) never runs into the next column.
// RUN: usmp-opt %s -t usmp-report | filecheck %s --strict-whitespace --match-full-lines

usmp.pool @global_workspace_of_the_model workspace alignment 16 size 4160
%a = usmp.alloc_offset "conv2d_nchw_intermediate_of_a_long_layer.2" @global_workspace_of_the_model[0] align 16 live [0, 2) : memref<16xf32>
%b = usmp.alloc_offset "b" @global_workspace_of_the_model[64] align 16 live [1, 3) : memref<1024xf32>
usmp.liveness

// CHECK:pool                           size  max-live   ratio  size-hint
// CHECK-NEXT:global_workspace_of_the_model  4160      4160  1.000x  -
// CHECK-EMPTY:
// CHECK-NEXT:buffer                                      pool                           offset  size  live
// CHECK-NEXT:conv2d_nchw_intermediate_of_a_long_layer.2  global_workspace_of_the_model       0    64  [0, 2)
// CHECK-NEXT:b                                           global_workspace_of_the_model      64  4096  [1, 3)
// CHECK-EMPTY:
// CHECK-NEXT:total 4160 bytes in 1 pool(s); max-live 4160 bytes (1.000x)
