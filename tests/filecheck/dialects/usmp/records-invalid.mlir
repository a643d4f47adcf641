// RUN: usmp-opt %s --split-input-file --verify-diagnostics | filecheck %s

builtin.module attributes {usmp.plan = #usmp.plan<"", proven_optimal = true, time_limit_reached = false>} {}
// CHECK: usmp.plan names the algorithm that planned; the name is empty

// -----

builtin.module attributes {usmp.plan = #usmp.plan<"exact", proven_optimal = true, time_limit_reached = false, lower_bounds = {sram = -4}>} {}
// CHECK: usmp.plan lower bound of 'sram' must be a non-negative i64, got -4 : i64

// -----

func.func @f() attributes {usmp.pools = #usmp.pool_sizes<sram = -1>} {
  func.return
}
// CHECK: usmp.pool_sizes size of 'sram' must be a non-negative i64, got -1 : i64

// -----

func.func @f() attributes {usmp.io_offsets = #usmp.io_offsets<x = input ""[0] : memref<4xf32>>} {
  func.return
}
// CHECK: usmp.io_offset names the pool it is in; the name is empty

// -----

func.func @f() attributes {usmp.io_offsets = #usmp.io_offsets<x = input "sram"[-16] : memref<4xf32>>} {
  func.return
}
// CHECK: usmp.io_offset's offset must be a non-negative i64, got -16 : i64

// -----

func.func @f() attributes {usmp.io_offsets = #usmp.io_offsets<x = input "sram"[0] : memref<?xf32>>} {
  func.return
}
// CHECK: usmp.io_offset's buffer has a dynamic shape: memref<?xf32>

// -----

// Under a record's name, only its typed attribute or the untyped form before it.
func.func @f() attributes {usmp.pools = #usmp.io_offsets<>} {
  func.return
}
// CHECK: usmp.pools must be a #usmp.pool_sizes<...>, got #usmp.io_offsets<>

// -----

builtin.module attributes {usmp.plan = "exact"} {}
// CHECK: usmp.plan must be a #usmp.plan<...>, got "exact"

// -----

// The untyped form before the typed records, missing a field: the diagnostic says what to
// write instead.
func.func @f() attributes {usmp.io_offsets = {x = {kind = "input", pool = "sram", offset = 0 : i64, shape = [4 : i64]}}} {
  func.return
}
// CHECK: usmp.io_offsets of 'x' {{.*}} has no dtype of the right kind; write usmp.io_offsets as #usmp.io_offsets<...> (docs/dialects.md, 'Records passes hand on')

// -----

func.func @f() attributes {usmp.io_offsets = {x = {kind = "sideways", pool = "sram", offset = 0 : i64, dtype = "float32", shape = [4 : i64]}}} {
  func.return
}
// CHECK: usmp.io_offsets of 'x' has kind 'sideways', not one of input, output, input_output, constant

// -----

func.func @f() attributes {usmp.io_offsets = {x = {kind = "input", pool = "sram", offset = 0 : i64, dtype = "float99", shape = [4 : i64]}}} {
  func.return
}
// CHECK: usmp.io_offsets of 'x': unsupported TIR dtype 'float99'

// -----

func.func @f() attributes {usmp.pools = {sram = "big"}} {
  func.return
}
// CHECK: usmp.pools size of 'sram' is not an integer: "big"; write usmp.pools as #usmp.pool_sizes<...>

// -----

func.func @f() attributes {usmp.pools = {sram = -8 : i64}} {
  func.return
}
// CHECK: usmp.pool_sizes size of 'sram' must be a non-negative i64, got -8 : i64

// -----

builtin.module attributes {usmp.plan = {algorithm = "exact", proven_optimal = true}} {}
// CHECK: usmp.plan {{.*}} has no time_limit_reached of the right kind; write usmp.plan as #usmp.plan<...>

// -----

func.func @f() attributes {usmp.shared_constants = #usmp.shared_constants<b2 = "">} {
  func.return
}
// CHECK: usmp.shared_constants names the constant 'b2' is stored with, got ""

// -----

func.func @f() attributes {usmp.shared_constants = {b2 = 1 : i64}} {
  func.return
}
// CHECK: usmp.shared_constants {{.*}} has no b2 of the right kind; write usmp.shared_constants as #usmp.shared_constants<...>

// -----

func.func @f() attributes {usmp.narrowed_constants = #usmp.narrowed_constants<conv_bias = "">} {
  func.return
}
// CHECK: usmp.narrowed_constants names the constant the file's 'conv_bias' is stored as, got ""

// -----

func.func @f() attributes {usmp.state = #usmp.state<s = "">} {
  func.return
}
// CHECK: usmp.state names the output param of variable 's', got ""

// -----

// Two variables cannot share a value after, nor one's value after be another's before.
func.func @f() attributes {usmp.state = #usmp.state<s = "next", t = "next">} {
  func.return
}
// CHECK: usmp.state gives variable 't' the output param 'next', which is another variable's

// -----

func.func @f() attributes {usmp.state = #usmp.state<s = "t", t = "u">} {
  func.return
}
// CHECK: usmp.state gives variable 's' the output param 't', which is another variable's

// -----

func.func @f() attributes {usmp.state = {s = 1 : i64}} {
  func.return
}
// CHECK: usmp.state {{.*}} has no s of the right kind; write usmp.state as #usmp.state<...>

// -----

// The records of the schedule passes and of a model's state.
func.func @f() attributes {usmp.schedule = #usmp.schedule<peak = -1, file_peak = 528, proven_least = true, calls = [0 @f]>} {
  func.return
}
// CHECK: usmp.schedule's peak must not be negative, got -1

// -----

func.func @f() attributes {usmp.schedule = #usmp.schedule<peak = 288, file_peak = -528, proven_least = true, calls = [0 @f]>} {
  func.return
}
// CHECK: usmp.schedule's file_peak must not be negative, got -528

// -----

func.func @f() attributes {usmp.schedule = #usmp.schedule<peak = 288, file_peak = 528, proven_least = false, calls = [0 @f, 2 @g, 0 @h]>} {
  func.return
}
// CHECK: usmp.schedule's calls [0, 2, 0] are not an order of the file's 3 calls (each of 0 to 2 once)

// -----

func.func @f() attributes {usmp.in_place_results = #usmp.in_place_results<y = "">} {
  func.return
}
// CHECK: usmp.in_place_results names the input result 'y' is computed over, got ""

// -----

func.func @f() attributes {usmp.in_place_results = #usmp.in_place_results<y = "y">} {
  func.return
}
// CHECK: usmp.in_place_results computes 'y' over itself: a result goes over another buffer

// -----

func.func @f() attributes {usmp.state_values = #usmp.state_values<s = dense<[1, 2]> : tensor<2xi8>>} {
  func.return
}
// CHECK: usmp.state_values of 's' must be a dense_resource, got dense<[1, 2]> : tensor<2xi8>

// -----

func.func @f() attributes {usmp.state_values = #usmp.state_values<"" = dense<[1, 2]> : tensor<2xi8>>} {
  func.return
}
// CHECK: usmp.state_values names each variable; a name is empty

// -----

// The sentence tir-reorder-for-memory wrote before #usmp.schedule reads; another does not.
func.func @f() attributes {usmp.schedule = "reordered somehow"} {
  func.return
}
// CHECK: usmp.schedule "reordered somehow" is not the sentence it was written as; write usmp.schedule as #usmp.schedule<...>

// -----

func.func @f() attributes {usmp.state_values = {s = dense<[1, 2]> : tensor<2xi8>}} {
  func.return
}
// CHECK: usmp.state_values {{.*}} has no s of the right kind; write usmp.state_values as #usmp.state_values<...>
