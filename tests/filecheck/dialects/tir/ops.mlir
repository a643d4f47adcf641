// RUN: usmp-opt %s | usmp-opt | filecheck %s
// RUN: usmp-opt %s --print-op-generic | usmp-opt | filecheck %s
// RUN: usmp-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

tir.prim_func @op(%x_ptr: !tir.ptr<f32>, %y_ptr: !tir.ptr<ui8, "local">, %h: !tir.ptr<void>) attributes {tirx.noalias = true} {
  %x = tir.decl_buffer %x_ptr : !tir.ptr<f32> -> !tir.buffer<4x8xf32>
  %y = tir.decl_buffer %y_ptr : !tir.ptr<ui8, "local"> -> !tir.buffer<32xui8, scope "local">
  %ws = tir.alloc_buffer annotations {note = "scratch"} : !tir.buffer<8xf32, strides [1], elem_offset 2, align 16, offset_factor 4, index i64>
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c8 = arith.constant 8 : i32
  tir.for %i = %c0 extent %c4 serial : i32 {
    tir.for %j = %c0 extent %c8 step %c4 vectorized annotations {pragma_unroll = 1 : i64} : i32 {
      %v = tir.load %x[%i, %j] : f32
      %m = tir.max %v, %v : f32
      %d = tir.floormod %i, %j : i32
      %q = arith.floordivsi %i, %j : i32
      %lt = arith.cmpi slt, %d, %q : i32
      %s = arith.select %lt, %m, %v : f32
      %n = tir.not %lt : i1
      tir.store %s, %x[%i, %j]
    }
  }
  tir.for %k = %c0 extent %c4 thread_binding thread "threadIdx.x" : i32 {
    %one = tir.const 1 : ui8
    %two = tir.add %one, %one : ui8
    %eq = tir.eq %one, %two : ui8 -> i1
    %k64 = tir.cast %k : i32 to i64
    tir.store %two, %y[%k]
  }
  %r = tir.ramp %c0, %c4 : i32 -> vector<4xi32>
  %f = arith.constant 1.000000e+00 : f32
  %b = tir.broadcast %f : f32 -> vector<4xf32>
  %t = arith.constant true
  tir.for %l = %c0 extent %c4 serial : i32 {
    scf.if %t {
      tir.break
    } else {
      tir.continue
    }
  }
  scf.while () : () -> () {
    %c = arith.cmpi slt, %c0, %c4 : i32
    scf.condition(%c)
  } do {
    %w = tir.bind %c8 : i32
    scf.yield
  }
  tir.attr "pragma_x" on 0 : i64 = %c4 {
    %e = tir.string "extern_fn"
    %p = tir.address_of %x[%c0, %c4] : !tir.ptr<f32>
    %ret = tir.call_intrin "tirx.call_extern"(%e, %p) : (!tir.string, !tir.ptr<f32>) -> i32
    tir.evaluate %ret : i32
  }
  tir.assert %t, "RuntimeError", ["must hold"]
}

tir.prim_func @main(%a: !tir.buffer<4x8xf32>, %n: i32) -> i32 attributes {global_symbol = "main", target = #tir.target<{kind = "c", tag = "", keys = ["cpu"], host = {kind = "llvm", tag = "", keys = ["cpu"]}}>} {
  %data = tir.buffer_data %a : !tir.buffer<4x8xf32> -> !tir.ptr<f32>
  %ub = tir.alloc_buffer : !tir.buffer<32xui8, scope "local">
  %udata = tir.buffer_data %ub : !tir.buffer<32xui8, scope "local"> -> !tir.ptr<ui8, "local">
  %pname = tir.string "p0"
  %h = tir.call_intrin "tirx.lookup_param"(%pname) : (!tir.string) -> !tir.ptr<void>
  tir.call @op(%data, %udata, %h) : (!tir.ptr<f32>, !tir.ptr<ui8, "local">, !tir.ptr<void>) -> ()
  tir.return %n : i32
}

// Every op in its custom form, printed back identically, also after the generic form.
// CHECK:      builtin.module {
// CHECK-NEXT: tir.prim_func @op(%x_ptr: !tir.ptr<f32>, %y_ptr: !tir.ptr<ui8, "local">, %h: !tir.ptr<void>) attributes {tirx.noalias = true} {
// CHECK-NEXT: %x = tir.decl_buffer %x_ptr : !tir.ptr<f32> -> !tir.buffer<4x8xf32>
// CHECK-NEXT: %y = tir.decl_buffer %y_ptr : !tir.ptr<ui8, "local"> -> !tir.buffer<32xui8, scope "local">
// CHECK-NEXT: %ws = tir.alloc_buffer annotations {note = "scratch"} : !tir.buffer<8xf32, strides [1], elem_offset 2, align 16, offset_factor 4, index i64>
// CHECK-NEXT: %c0 = arith.constant 0 : i32
// CHECK-NEXT: %c4 = arith.constant 4 : i32
// CHECK-NEXT: %c8 = arith.constant 8 : i32
// CHECK-NEXT: tir.for %i = %c0 extent %c4 serial : i32 {
// CHECK-NEXT: tir.for %j = %c0 extent %c8 step %c4 vectorized annotations {pragma_unroll = 1 : i64} : i32 {
// CHECK-NEXT: %v = tir.load %x[%i, %j] : f32
// CHECK-NEXT: %m = tir.max %v, %v : f32
// CHECK-NEXT: %d = tir.floormod %i, %j : i32
// CHECK-NEXT: %q = arith.floordivsi %i, %j : i32
// CHECK-NEXT: %lt = arith.cmpi slt, %d, %q : i32
// CHECK-NEXT: %s = arith.select %lt, %m, %v : f32
// CHECK-NEXT: %n = tir.not %lt : i1
// CHECK-NEXT: tir.store %s, %x[%i, %j]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: tir.for %k = %c0 extent %c4 thread_binding thread "threadIdx.x" : i32 {
// CHECK-NEXT: %one = tir.const 1 : ui8
// CHECK-NEXT: %two = tir.add %one, %one : ui8
// CHECK-NEXT: %eq = tir.eq %one, %two : ui8 -> i1
// CHECK-NEXT: %k64 = tir.cast %k : i32 to i64
// CHECK-NEXT: tir.store %two, %y[%k]
// CHECK-NEXT: }
// CHECK-NEXT: %r = tir.ramp %c0, %c4 : i32 -> vector<4xi32>
// CHECK-NEXT: %f = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %b = tir.broadcast %f : f32 -> vector<4xf32>
// CHECK-NEXT: %t = arith.constant true
// CHECK-NEXT: tir.for %l = %c0 extent %c4 serial : i32 {
// CHECK-NEXT: scf.if %t {
// CHECK-NEXT: tir.break
// CHECK-NEXT: } else {
// CHECK-NEXT: tir.continue
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: scf.while () : () -> () {
// CHECK-NEXT: %c = arith.cmpi slt, %c0, %c4 : i32
// CHECK-NEXT: scf.condition(%c)
// CHECK-NEXT: } do {
// CHECK-NEXT: %w = tir.bind %c8 : i32
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: tir.attr "pragma_x" on 0 : i64 = %c4 {
// CHECK-NEXT: %e = tir.string "extern_fn"
// CHECK-NEXT: %p = tir.address_of %x[%c0, %c4] : !tir.ptr<f32>
// CHECK-NEXT: %ret = tir.call_intrin "tirx.call_extern"(%e, %p) : (!tir.string, !tir.ptr<f32>) -> i32
// CHECK-NEXT: tir.evaluate %ret : i32
// CHECK-NEXT: }
// CHECK-NEXT: tir.assert %t, "RuntimeError", ["must hold"]
// CHECK-NEXT: }
// CHECK-NEXT: tir.prim_func @main(%a: !tir.buffer<4x8xf32>, %n: i32) -> i32 attributes {global_symbol = "main", target = #tir.target<{kind = "c", tag = "", keys = ["cpu"], host = {kind = "llvm", tag = "", keys = ["cpu"]}}>} {
// CHECK-NEXT: %data = tir.buffer_data %a : !tir.buffer<4x8xf32> -> !tir.ptr<f32>
// CHECK-NEXT: %ub = tir.alloc_buffer : !tir.buffer<32xui8, scope "local">
// CHECK-NEXT: %udata = tir.buffer_data %ub : !tir.buffer<32xui8, scope "local"> -> !tir.ptr<ui8, "local">
// CHECK-NEXT: %pname = tir.string "p0"
// CHECK-NEXT: %h = tir.call_intrin "tirx.lookup_param"(%pname) : (!tir.string) -> !tir.ptr<void>
// CHECK-NEXT: tir.call @op(%data, %udata, %h) : (!tir.ptr<f32>, !tir.ptr<ui8, "local">, !tir.ptr<void>) -> ()
// CHECK-NEXT: tir.return %n : i32
// CHECK-NEXT: }
// CHECK-NEXT: }

// GENERIC: "tir.prim_func"() <{sym_name = "op", function_type = (!tir.ptr<f32>, !tir.ptr<ui8, "local">, !tir.ptr<void>) -> ()}> ({
// GENERIC: "tir.for"(%c0, %c8, %c4) <{kind = #tir<for_kind vectorized>, annotations = {pragma_unroll = 1 : i64}}> ({
// GENERIC: "tir.for"(%c0, %c4) <{kind = #tir<for_kind thread_binding>, thread_tag = "threadIdx.x", annotations = {}}> ({
// GENERIC: "tir.call"(%data, %udata, %h) <{callee = @op}> : (!tir.ptr<f32>, !tir.ptr<ui8, "local">, !tir.ptr<void>) -> ()
