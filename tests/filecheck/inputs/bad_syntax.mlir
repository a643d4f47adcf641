// A typo: a pool must be a symbol.
usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" 42[?] align 16 : memref<4xf32>
