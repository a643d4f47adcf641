// RUN: usmp-opt %s | usmp-opt | filecheck %s
// RUN: usmp-opt %s --print-op-generic | usmp-opt | filecheck %s
// RUN: usmp-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// TIR names are attributes, whatever the SSA names: a param's `tir.name`, the string
// after tir.alloc_buffer, tir.decl_buffer, tir.bind and a loop var. SSA names that xDSL
// would otherwise reprint as duplicates (`%x_1_2` kept as `x_1`) still parse back.
tir.prim_func @main(%a: !tir.buffer<4xf32> {tir.name = "input_1"}, %p: !tir.ptr<f32> {tir.name = "w_1"}, %n: i32) {
  %x = tir.alloc_buffer "T_add_intermediate" : !tir.buffer<4xf32>
  %x_1 = tir.alloc_buffer "T_add_intermediate_1" annotations {k = 1 : i64} : !tir.buffer<4xf32>
  %x_1_2 = tir.alloc_buffer "T_add_intermediate_1_2" : !tir.buffer<4xf32>
  %unnamed = tir.alloc_buffer : !tir.buffer<4xf32>
  %v = tir.decl_buffer "sid_9" %p : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %d = tir.buffer_data %unnamed : !tir.buffer<4xf32> -> !tir.ptr<f32>
  %sid = tir.bind "sid_8" %d : !tir.ptr<f32>
  %c0 = arith.constant 0 : i32
  tir.for %i "i_1" = %c0 extent %n serial : i32 {
    %f = tir.load %x_1_2[%i] : f32
    tir.store %f, %x[%i]
  }
}

// CHECK:      tir.prim_func @main(%a: !tir.buffer<4xf32> {tir.name = "input_1"}, %p: !tir.ptr<f32> {tir.name = "w_1"}, %n: i32) {
// CHECK-NEXT:   %[[X:.*]] = tir.alloc_buffer "T_add_intermediate" : !tir.buffer<4xf32>
// CHECK-NEXT:   %{{.*}} = tir.alloc_buffer "T_add_intermediate_1" annotations {k = 1 : i64} : !tir.buffer<4xf32>
// CHECK-NEXT:   %[[X12:.*]] = tir.alloc_buffer "T_add_intermediate_1_2" : !tir.buffer<4xf32>
// CHECK-NEXT:   %unnamed = tir.alloc_buffer : !tir.buffer<4xf32>
// CHECK-NEXT:   %v = tir.decl_buffer "sid_9" %p : !tir.ptr<f32> -> !tir.buffer<4xf32>
// CHECK-NEXT:   %d = tir.buffer_data %unnamed
// CHECK-NEXT:   %sid = tir.bind "sid_8" %d : !tir.ptr<f32>
// CHECK-NEXT:   %c0 = arith.constant 0 : i32
// CHECK-NEXT:   tir.for %i "i_1" = %c0 extent %n serial : i32 {
// CHECK-NEXT:     %f = tir.load %[[X12]][%i] : f32
// CHECK-NEXT:     tir.store %f, %[[X]][%i]

// GENERIC: "tir.prim_func"() <{sym_name = "main", function_type = (!tir.buffer<4xf32>, !tir.ptr<f32>, i32) -> (), arg_attrs = [{tir.name = "input_1"}, {tir.name = "w_1"}, {}]}>
// GENERIC: "tir.alloc_buffer"() <{name = "T_add_intermediate", annotations = {}}>
// GENERIC: "tir.decl_buffer"(%{{.*}}) <{name = "sid_9"}>
// GENERIC: "tir.bind"(%{{.*}}) <{name = "sid_8"}>
// GENERIC: "tir.for"(%{{.*}}, %{{.*}}) <{kind = #tir<for_kind serial>, name = "i_1", annotations = {}}>

// Float immediates keep TVM's double exactly (`T.float32(0.001)` is 0.001, not the float32
// nearest to it); a hexadecimal literal is its bits (infinities, NaN).
// RUN: usmp-opt %s --split-input-file | usmp-opt --split-input-file | filecheck %s --check-prefix=CONST
// CONST:      tir.const 1.000000e-03 : f32
// CONST-NEXT: tir.const 1.000000e-01 : f16
// CONST-NEXT: tir.const 0.33333333333333331 : bf16
// CONST-NEXT: tir.const 0x7ff0000000000000 : f32
// CONST-NEXT: tir.const 18446744073709551615 : ui64
// CONST-NEXT: arith.constant -9223372036854775808 : i64
// CONST-NEXT: arith.constant 9223372036854775807 : i64

// -----

tir.prim_func @constants() {
  %a = tir.const 1.000000e-03 : f32
  %b = tir.const 0.10000000000000001 : f16
  %c = tir.const 0.33333333333333331 : bf16
  %inf = tir.const 0x7FF0000000000000 : f32
  %u = tir.const 18446744073709551615 : ui64
  %lo = arith.constant -9223372036854775808 : i64
  %hi = arith.constant 9223372036854775807 : i64
}
