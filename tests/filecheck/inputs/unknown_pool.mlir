usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @nowhere[?] align 16 live [0, 1) : memref<4xf32>
usmp.liveness
