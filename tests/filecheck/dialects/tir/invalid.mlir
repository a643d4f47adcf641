// RUN: usmp-opt %s --split-input-file --verify-diagnostics | filecheck %s

tir.prim_func @f() {
  %b = tir.alloc_buffer : !tir.buffer<4xf32, align 12>
}
// CHECK: buffer alignment must be a power of two, got 12

// -----

tir.prim_func @f() {
  %b = tir.alloc_buffer : !tir.buffer<4x4xf32, strides [1]>
}
// CHECK: buffer has 1 strides for 2 dimensions

// -----

tir.prim_func @f() {
  %b = tir.alloc_buffer : !tir.buffer<4x4xf32>
  %c0 = arith.constant 0 : i32
  %v = tir.load %b[%c0] : f32
}
// CHECK: 1 indices for a buffer of rank 2

// -----

tir.prim_func @f() {
  %b = tir.alloc_buffer : !tir.buffer<4xf32>
  %c0 = arith.constant 0 : i32
  tir.store %c0, %b[%c0]
}
// CHECK: store of i32 into !tir.buffer<4xf32> needs f32

// -----

tir.prim_func @f() {
  %b = tir.alloc_buffer : !tir.buffer<4xf32>
  %c0 = arith.constant 0 : i32
  %v = tir.load %b[%c0] : i32
}
// CHECK: load from !tir.buffer<4xf32> gives f32, not i32

// -----

tir.prim_func @f() {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i64
  tir.for %i = %c0 extent %c4 serial : i32 {
  }
}
// CHECK: loop bound of type i64 for a loop var of type i32

// -----

tir.prim_func @f() {
  %c0 = arith.constant 0 : i32
  tir.for %i = %c0 extent %c0 parallel thread "threadIdx.x" : i32 {
  }
}
// CHECK: a thread tag is given exactly for thread_binding loops

// -----

tir.prim_func @f() {
  %c0 = arith.constant 0 : i32
  "tir.for"(%c0, %c0) <{kind = "sideways", annotations = {}}> ({
  ^bb0(%i: i32):
  }) : (i32, i32) -> ()
}
// CHECK: "sideways" should be of base attribute tir.for_kind

// -----

tir.prim_func @f(%p: !tir.ptr<f32, "local">) {
  %b = tir.decl_buffer %p : !tir.ptr<f32, "local"> -> !tir.buffer<4xf32>
}
// CHECK: a buffer in scope 'global' over a pointer in scope 'local'

// -----

tir.prim_func @f() {
  tir.call @missing() : () -> ()
}
// CHECK: call to unknown function @missing

// -----

tir.prim_func @g(%n: i32) {
}
tir.prim_func @f() {
  tir.call @g() : () -> ()
}
// CHECK: @g takes 1 arguments, called with 0

// -----

tir.prim_func @f(%n: i32) -> f32 {
  tir.return %n : i32
}
// CHECK: returns i32 from a function returning f32

// -----

tir.prim_func @f(%n: si32) {
}
// CHECK: param type si32 is not a TIR buffer, pointer or dtype

// -----

tir.prim_func @f(%n: i32) {
  %v = tir.cast %n : i32 to vector<4xf32>
}
// CHECK: a cast keeps the number of lanes

// -----

"tir.prim_func"() <{sym_name = "f", function_type = (i32) -> (), arg_attrs = [{tir.name = "a"}, {}]}> ({
^bb0(%a: i32):
}) : () -> ()
// CHECK: 2 arg attribute dictionaries for 1 params

// -----

tir.prim_func @f(%a: i32 {tir.name = 1 : i64}) {
}
// CHECK: a param's tir.name must be a string, got 1 : i64

// -----

tir.prim_func @f() attributes {target = #tir.target<{keys = ["cpu"]}>} {
}
// CHECK: a target's configuration needs a 'kind' string

// -----

// The generic form can name a value before the op that defines it (issue 33).
"tir.prim_func"() <{sym_name = "f", function_type = (!tir.buffer<4xf32>) -> ()}> ({
^bb0(%x: !tir.buffer<4xf32>):
  %v = "tir.load"(%x, %i) : (!tir.buffer<4xf32>, i32) -> f32
  %i = "arith.constant"() <{value = 0 : i32}> : () -> i32
}) : () -> ()
// CHECK:      invalid.mlir:[[# @LINE - 3]]:3: operand #1 does not dominate this use
// CHECK-NEXT: invalid.mlir:[[# @LINE - 3]]:3: note: operand defined here (op in the same block)

// -----

// A loop's body sees what is defined before the loop, not what is defined after it.
"tir.prim_func"() <{sym_name = "f", function_type = (!tir.buffer<4xf32>) -> ()}> ({
^bb0(%x: !tir.buffer<4xf32>):
  %0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
  %1 = "arith.constant"() <{value = 4 : i32}> : () -> i32
  "tir.for"(%0, %1) <{kind = #tir<for_kind serial>, name = "i", annotations = {}}> ({
  ^bb0(%i: i32):
    %v = "tir.load"(%x, %i) : (!tir.buffer<4xf32>, i32) -> f32
    %w = "tir.load"(%x, %later) : (!tir.buffer<4xf32>, i32) -> f32
  }) : (i32, i32) -> ()
  %later = "arith.constant"() <{value = 1 : i32}> : () -> i32
}) : () -> ()
// CHECK:      invalid.mlir:[[# @LINE - 4]]:5: operand #1 does not dominate this use
// CHECK-NEXT: invalid.mlir:[[# @LINE - 3]]:3: note: operand defined here (op in a parent region)

// -----

// TVM's printer failed inside its C++ on another type (issue 33).
"tir.prim_func"() <{sym_name = "f", function_type = () -> ()}> ({
^bb0:
}) {global_symbol = 0 : i32} : () -> ()
// CHECK: global_symbol must be a string, got 0 : i32

// -----

tir.prim_func @f() {
  tir.break
}
// CHECK: 'tir.break' expects ancestor op to be one of 'tir.for', 'scf.while'

// -----

tir.prim_func @f() {
  %0 = arith.constant true
  scf.if %0 {
    tir.continue
  }
}
// CHECK: 'tir.continue' expects ancestor op to be one of 'tir.for', 'scf.while'

// -----

func.func @f() {
  %0 = arith.constant 0 : i32
  tir.return %0 : i32
  func.return
}
// CHECK: 'tir.return' expects ancestor op 'tir.prim_func'

// -----

func.func @outer() {
  tir.prim_func @inner() {
    %0 = arith.constant 0 : i32
  }
  func.return
}
// CHECK: 'tir.prim_func' expects parent op 'builtin.module'

// -----

// A loop without a body block: the message, not a traceback of the printer (issue 42).
"tir.prim_func"() <{sym_name = "f", function_type = () -> ()}> ({
  %0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
  "tir.for"(%0, %0) <{kind = #tir<for_kind serial>, annotations = {}}> ({
  }) : (i32, i32) -> ()
}) : () -> ()
// CHECK: Region 'body' at position 0 expected a single block, but got 0 blocks

// -----

"tir.prim_func"() <{sym_name = "f", function_type = () -> ()}> ({
  %0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
  "tir.for"(%0, %0) <{kind = #tir<for_kind serial>, annotations = {}}> ({
  ^bb0(%i: i32):
  ^bb1:
  }) : (i32, i32) -> ()
}) : () -> ()
// CHECK: Region 'body' at position 0 expected a single block, but got 2 blocks
