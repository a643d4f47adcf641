// RUN: usmp-opt %s --split-input-file --parsing-diagnostics | filecheck %s

builtin.module attributes {usmp.plan = #usmp.plan<"exact", time_limit_reached = false, proven_optimal = true>} {}
// CHECK: Expected 'proven_optimal'

// -----
builtin.module attributes {usmp.plan = #usmp.plan<"exact", proven_optimal = maybe, time_limit_reached = false>} {}
// CHECK: Expected boolean literal

// -----
func.func @f() attributes {usmp.pools = #usmp.pool_sizes<sram = 9223372036854775808>} {
  func.return
}
// CHECK: usmp.pool_sizes size of 'sram' 9223372036854775808 is past the limit of 2**63-1

// -----
func.func @f() attributes {usmp.io_offsets = #usmp.io_offsets<x = sideways "sram"[0] : memref<4xf32>>} {
  func.return
}
// CHECK: Expected `input`, `output`, `input_output`, `constant`, or `state`

// -----
func.func @f() attributes {usmp.io_offsets = #usmp.io_offsets<x = input "sram"[0] : tensor<4xf32>>} {
  func.return
}
// CHECK: expected a memref type, got tensor<4xf32>

// -----
func.func @f() attributes {usmp.io_offsets = #usmp.io_offsets<x = #usmp.io_offset<input "sram"[0] : memref<4xf32>>>} {
  func.return
}
// CHECK: Expected `input`, `output`, `input_output`, `constant`, or `state`

// -----
func.func @f() attributes {usmp.schedule = #usmp.schedule<peak = 288, file_peak = 528, proven_least = true, calls = [0 widen]>} {
  func.return
}
// CHECK: expect symbol name

// -----
func.func @f() attributes {usmp.schedule = #usmp.schedule<peak = 9223372036854775808, file_peak = 528, proven_least = true, calls = [0 @widen]>} {
  func.return
}
// CHECK: usmp.schedule peak 9223372036854775808 is past the limit of 2**63-1
