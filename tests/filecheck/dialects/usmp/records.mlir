// RUN: usmp-opt %s | usmp-opt | filecheck %s
// RUN: usmp-opt %s --print-op-generic | usmp-opt | filecheck %s

// The records passes hand on, in their typed form: a plan with and without lower bounds,
// pool sizes, and the placed inputs, outputs and constants (a name that is not a bare
// identifier is a string; a 0-d buffer has an empty shape).

// CHECK: builtin.module attributes {usmp.plan = #usmp.plan<"exact", proven_optimal = true, time_limit_reached = false, lower_bounds = {sram = 60, "big pool" = 0}>}
builtin.module attributes {usmp.plan = #usmp.plan<"exact", proven_optimal = true, time_limit_reached = false, lower_bounds = {sram = 60, "big pool" = 0}>} {
  // CHECK: func.func @planned() attributes {usmp.plan = #usmp.plan<"hill_climb", proven_optimal = false, time_limit_reached = true>, usmp.pools = #usmp.pool_sizes<global_workspace = 48, flash = 16>, usmp.io_offsets = #usmp.io_offsets<x = input "global_workspace"[32] : memref<4xf32>, "a b" = input_output "global_workspace"[0] : memref<i1>, w = constant "flash"[0] : memref<2x2xui8>, y = output "global_workspace"[16] : memref<4xbf16>>}
  func.func @planned() attributes {usmp.plan = #usmp.plan<"hill_climb", proven_optimal = false, time_limit_reached = true>, usmp.pools = #usmp.pool_sizes<global_workspace = 48, flash = 16>, usmp.io_offsets = #usmp.io_offsets<x = input "global_workspace"[32] : memref<4xf32>, "a b" = input_output "global_workspace"[0] : memref<i1>, w = constant "flash"[0] : memref<2x2xui8>, y = output "global_workspace"[16] : memref<4xbf16>>} {
    func.return
  }
  // Constants stored once with an equal one, and the name each is stored under.
  // CHECK: func.func @shared() attributes {usmp.shared_constants = #usmp.shared_constants<b2 = "b1", "b 3" = "b1">}
  func.func @shared() attributes {usmp.shared_constants = #usmp.shared_constants<b2 = "b1", "b 3" = "b1">} {
    func.return
  }
  // The model file's int32 constants stored in fewer bytes, and the constant that holds each.
  // CHECK: func.func @narrowed() attributes {usmp.narrowed_constants = #usmp.narrowed_constants<conv_bias = "conv_bias_int16">}
  func.func @narrowed() attributes {usmp.narrowed_constants = #usmp.narrowed_constants<conv_bias = "conv_bias_int16">} {
    func.return
  }
  // The state an entry keeps from run to run: each variable's input param (its value
  // before the run) and the output param of its value after; placed, under both names,
  // in a state pool.
  // CHECK: func.func @stateful() attributes {usmp.state = #usmp.state<s = "s_next", "t 2" = "t_next">, usmp.io_offsets = #usmp.io_offsets<s = state "global_state"[0] : memref<4xi8>, s_next = state "global_state"[0] : memref<4xi8>>}
  func.func @stateful() attributes {usmp.state = #usmp.state<s = "s_next", "t 2" = "t_next">, usmp.io_offsets = #usmp.io_offsets<s = state "global_state"[0] : memref<4xi8>, s_next = state "global_state"[0] : memref<4xi8>>} {
    func.return
  }
  // An entry with no pools, and one placed value on its own.
  // CHECK: func.func @empty() attributes {usmp.pools = #usmp.pool_sizes<>, usmp.io_offsets = #usmp.io_offsets<>, one = #usmp.io_offset<output "sram"[64] : memref<8xi32>>}
  func.func @empty() attributes {usmp.pools = #usmp.pool_sizes<>, usmp.io_offsets = #usmp.io_offsets<>, one = #usmp.io_offset<output "sram"[64] : memref<8xi32>>} {
    func.return
  }
  // What the schedule passes hand on: the order `tir-reorder-for-memory` gave the calls
  // (each call's index in the file's order, its callee), the results `tir-in-place-results`
  // computes over an input; and the first value of each state variable, its bytes among
  // the file's blobs.
  // CHECK: func.func @scheduled() attributes {usmp.schedule = #usmp.schedule<peak = 288, file_peak = 528, proven_least = true, calls = [1 @g, 0 @f, 2 @"a b"]>, usmp.in_place_results = #usmp.in_place_results<y = "x", "r 2" = "h">, usmp.state_values = #usmp.state_values<s = dense_resource<s> : tensor<4xi8>, "t 2" = dense_resource<t> : tensor<2xi16>>}
  func.func @scheduled() attributes {usmp.schedule = #usmp.schedule<peak = 288, file_peak = 528, proven_least = true, calls = [1 @g, 0 @f, 2 @"a b"]>, usmp.in_place_results = #usmp.in_place_results<y = "x", "r 2" = "h">, usmp.state_values = #usmp.state_values<s = dense_resource<s> : tensor<4xi8>, "t 2" = dense_resource<t> : tensor<2xi16>>} {
    func.return
  }
}
{-#
  dialect_resources: {
    builtin: {
      s: "0x0100000001020304",
      t: "0x0100000005060708"
    }
  }
#-}
