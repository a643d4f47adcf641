// RUN: usmp-opt %s --split-input-file --verify-diagnostics | filecheck %s

usmp.pool @p workspace alignment 16 {speed = 3}
// CHECK: unknown pool property 'speed'

// -----

usmp.pool @p workspace alignment 12
// CHECK: pool alignment must be a positive power of two, got 12

// -----

usmp.pool @p workspace alignment 16 size_hint -4
// CHECK: pool size_hint must not be negative

// -----

usmp.pool @p workspace alignment 16 size_hint 64 size 128
// CHECK: planned size 128 bytes exceeds the pool's size hint of 64 bytes

// -----

usmp.pool @p workspace alignment 16 {target_burst_bytes = {c = "wide"}}
// CHECK: target_burst_bytes of 'c' must be a non-negative integer

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @q[?] align 16 live [0, 1) : memref<4xf32>
usmp.liveness
// CHECK: buffer 'a': unknown pool @q

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] align 6 live [0, 1) : memref<4xf32>
usmp.liveness
// CHECK: buffer 'a': alignment must be a positive power of two, got 6

// -----

usmp.pool @p workspace alignment 16
usmp.pool @q workspace alignment 16
%a = usmp.alloc_offset "a" [@p, @q][0] align 16 live [0, 1) : memref<4xf32>
usmp.liveness
// CHECK: buffer 'a' has an offset but 2 candidate pools; a planned buffer names exactly one pool

// -----

usmp.pool @p workspace alignment 16
usmp.pool @q workspace alignment 16
%a = usmp.alloc_offset "a" [@p, @q, @p][?] align 16 live [0, 1) : memref<4xf32>
usmp.liveness
// CHECK: buffer 'a' lists candidate pool @p twice

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[-16] align 16 live [0, 1) : memref<4xf32>
usmp.liveness
// CHECK: buffer 'a' has a negative offset -16

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[8] align 16 live [0, 1) : memref<4xf32>
usmp.liveness
// CHECK: buffer 'a': offset 8 is not a multiple of its alignment 16

// -----

usmp.pool @p workspace alignment 16 size 32
%a = usmp.alloc_offset "a" @p[16] align 16 live [0, 1) : memref<8xf32>
usmp.liveness
// CHECK: buffer 'a' ends at byte 48, past the size of pool @p (32 bytes)

// -----

usmp.pool @p workspace alignment 16 size_hint 32
%a = usmp.alloc_offset "a" @p[16] align 16 live [0, 1) : memref<8xf32>
usmp.liveness
// CHECK: buffer 'a' ends at byte 48, past the size hint of pool @p (32 bytes)

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] align 16 : memref<?xf32>
// CHECK: buffer type must have a static shape

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] align 16 : tensor<4xf32>
// CHECK: expected a memref buffer type, got tensor<4xf32>

// -----

usmp.pool @p workspace alignment 16
%a = "usmp.alloc_offset"() <{buffer_name = "a", pools = [@p], alignment = 16 : i64, live = array<i64: 0, 1, 2>}> : () -> memref<4xf32>
// CHECK: buffer 'a': live must hold (start, end) pairs

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] align 16 live [4, 4) : memref<4xf32>
usmp.liveness
// CHECK: buffer 'a': live interval [4, 4) must have 0 <= start < end

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] align 16 live [0, 1) : memref<4xf32>
%b = usmp.alloc_offset "b" @p[?] align 16 live [-2, 1) : memref<4xf32>
// CHECK: buffer 'b': live interval [-2, 1) must have 0 <= start < end

// -----

// A conflict is a use of an earlier buffer of the block: the generic form can write
// others, which the verifier rejects.
usmp.pool @p workspace alignment 16
%a = "usmp.alloc_offset"(%a) <{buffer_name = "a", pools = [@p], alignment = 16 : i64}> : (memref<4xf32>) -> memref<4xf32>
// CHECK: buffer 'a' is listed as conflicting with itself

// -----

usmp.pool @p workspace alignment 16
%a = "usmp.alloc_offset"(%b) <{buffer_name = "a", pools = [@p], alignment = 16 : i64}> : (memref<4xf32>) -> memref<4xf32>
%b = usmp.alloc_offset "b" @p[?] align 16 : memref<4xf32>
// CHECK: buffer 'a' conflicts with 'b', which is not before it in its block: write the conflict on the later of the two

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] align 16 : memref<4xf32>
%b = usmp.alloc_offset "b" @p[?] align 16 conflicts(%a, %a) : memref<4xf32>
// CHECK: buffer 'b' lists its conflict with 'a' twice

// -----

usmp.pool @p workspace alignment 16
%m = memref.alloc() : memref<4xf32>
%b = usmp.alloc_offset "b" @p[?] align 16 conflicts(%m) : memref<4xf32>
// CHECK: buffer 'b': a conflict must be a usmp.alloc_offset's buffer

// -----

// A buffer nested in a function conflicts with an earlier one of its block, not with one
// outside: a module-level buffer before it is not in its block.
usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] align 16 : memref<4xf32>
func.func @f() {
  %b = "usmp.alloc_offset"(%a) <{buffer_name = "b", pools = [@p], alignment = 16 : i64}> : (memref<4xf32>) -> memref<4xf32>
  func.return
}
// CHECK: buffer 'b' conflicts with 'a', which is not before it in its block

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] align 16 live [0, 1) : memref<4xf32>
%b = usmp.alloc_offset "a" @p[?] align 16 : memref<4xf32>
usmp.liveness
// CHECK: two usmp.alloc_offset ops are named 'a'

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] align 16 live [0, 1) : memref<4xf32>
usmp.liveness
usmp.liveness
// CHECK: a module holds at most one usmp.liveness

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[0] align 16 live [0, 4) : memref<8xf32>
%b = usmp.alloc_offset "b" @p[16] align 16 live [3, 6) : memref<8xf32>
usmp.liveness
// CHECK: buffers 'a' and 'b'

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[0] align 16 : memref<8xf32>
%b = usmp.alloc_offset "b" @p[16] align 16 conflicts(%a) : memref<8xf32>
usmp.liveness
// CHECK: buffers 'a' and 'b'

// -----

usmp.pool @p workspace alignment 16
%a = usmp.alloc_offset "a" @p[?] align 16 live [0, 1) {usmp.io = #usmp.io<"", input>} : memref<4xf32>
usmp.liveness
// CHECK: usmp.io names the param it holds; the name is empty

// -----

// A constant pool holds the entry's constants and nothing else.
usmp.pool @flash constant alignment 16
%a = usmp.alloc_offset "a" @flash[?] align 16 live [0, 1) : memref<4xf32>
usmp.liveness
// CHECK: workspace buffer 'a' cannot go in constant pool @flash; a constant pool holds exactly the entry's constants

// -----

usmp.pool @sram workspace alignment 16
usmp.pool @flash constant alignment 16
%w = usmp.alloc_offset "w" [@flash, @sram][?] align 16 live [0, 1) {usmp.io = #usmp.io<"w", constant>} : memref<4xf32>
usmp.liveness
// CHECK: constant 'w' cannot go in workspace pool @sram; a constant pool holds exactly the entry's constants

// -----

// A state pool holds the entry's state (a model's variables, kept from run to run) and
// nothing else; a state variable goes nowhere else.
usmp.pool @persist state alignment 16
%a = usmp.alloc_offset "a" @persist[?] align 16 live [0, 1) : memref<4xf32>
usmp.liveness
// CHECK: workspace buffer 'a' cannot go in state pool @persist; a state pool holds exactly the entry's state

// -----

usmp.pool @sram workspace alignment 16
usmp.pool @persist state alignment 16
%s = usmp.alloc_offset "s" [@persist, @sram][?] align 16 live [0, 1) {usmp.io = #usmp.io<"s", state>} : memref<4xi8>
usmp.liveness
// CHECK: state variable 's' cannot go in workspace pool @sram; a state pool holds exactly the entry's state

// -----

usmp.pool @flash constant alignment 16
%s = usmp.alloc_offset "s" @flash[?] align 16 live [0, 1) {usmp.io = #usmp.io<"s", state>} : memref<4xi8>
usmp.liveness
// CHECK: state variable 's' cannot go in constant pool @flash; a state pool holds exactly the entry's state

// -----

// The generic form reaches the checks of the op's declaration (IRDL's), which the fast
// path of the verifier skips only for an op of the declared shape.
usmp.pool @p workspace alignment 16
%a = "usmp.alloc_offset"() <{buffer_name = "a", pools = [@p], alignment = 16 : i32}> : () -> memref<4xf32>
// CHECK: Expected attribute i64 but got i32

// -----

usmp.pool @p workspace alignment 16
%a = "usmp.alloc_offset"() <{buffer_name = "a", pools = [@p], alignment = 16 : i64, offset = 0 : index}> : () -> memref<4xf32>
// CHECK: Expected attribute i64 but got index

// -----

usmp.pool @p workspace alignment 16
%a = "usmp.alloc_offset"() <{pools = [@p], alignment = 16 : i64}> : () -> memref<4xf32>
// CHECK: property 'buffer_name' expected in operation 'usmp.alloc_offset'

// -----

usmp.pool @p workspace alignment 16
%a = "usmp.alloc_offset"() <{buffer_name = "a", pools = [@p], alignment = 16 : i64, colour = 1}> : () -> memref<4xf32>
// CHECK: property 'colour' is not defined by the operation 'usmp.alloc_offset'

// -----

usmp.pool @p workspace alignment 16
%a = "usmp.alloc_offset"() <{buffer_name = "a", pools = ["p"], alignment = 16 : i64}> : () -> memref<4xf32>
// CHECK: "p" should be of base attribute symbol_ref

// -----

usmp.pool @p workspace alignment 16
%a, %b = "usmp.alloc_offset"() <{buffer_name = "a", pools = [@p], alignment = 16 : i64}> : () -> (memref<4xf32>, memref<4xf32>)
// CHECK: Expected 1 result, but got 2

// -----

// The liveness of a module is one of its top-level ops: nested in a function, the planner
// would not find it.
func.func @f() {
  usmp.liveness
  func.return
}
// CHECK: 'usmp.liveness' expects parent op 'builtin.module'

// -----

// A buffer's pool is a usmp.pool symbol: a function of that name is not one.
func.func private @sram()
%a = usmp.alloc_offset "a" @sram[?] align 16 live [0, 1) : memref<4xf32>
usmp.liveness
// CHECK: buffer 'a': unknown pool @sram
