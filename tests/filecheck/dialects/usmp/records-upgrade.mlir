// RUN: usmp-opt %s | filecheck %s

// Files written before the typed records carry them as dictionaries; they read, and
// print in the typed form (docs/dialects.md, "Records passes hand on").

// CHECK: builtin.module attributes {usmp.plan = #usmp.plan<"exact", proven_optimal = true, time_limit_reached = false, lower_bounds = {sram = 60}>}
// CHECK: tir.prim_func @main() attributes {usmp.pools = #usmp.pool_sizes<global_workspace = 48, flash = 16>, usmp.io_offsets = #usmp.io_offsets<inp = input "global_workspace"[32] : memref<4xf32>, w = constant "flash"[0] : memref<4x2xf16>, flag = output "global_workspace"[0] : memref<i1>>}
// CHECK: tir.prim_func @other() attributes {usmp.plan = #usmp.plan<"hill_climb", proven_optimal = false, time_limit_reached = true>, usmp.shared_constants = #usmp.shared_constants<b2 = "b1">, usmp.narrowed_constants = #usmp.narrowed_constants<b = "b_int16">}
// The schedule passes' records as they wrote them (the order a sentence), and a model's
// state's first values as the .tflite import wrote them.
// CHECK: tir.prim_func @scheduled() attributes {usmp.schedule = #usmp.schedule<peak = 288, file_peak = 528, proven_least = true, calls = [0 @widen, 2 @narrow, 1 @widen, 3 @narrow, 4 @add]>, usmp.in_place_results = #usmp.in_place_results<r = "h", total = "a">, usmp.state_values = #usmp.state_values<s = dense_resource<s> : tensor<4xi8>>}
builtin.module attributes {usmp.plan = {algorithm = "exact", proven_optimal = true, time_limit_reached = false, lower_bounds = {sram = 60 : i64}}} {
  tir.prim_func @main() attributes {usmp.pools = {global_workspace = 48 : i64, flash = 16 : i64}, usmp.io_offsets = {inp = {kind = "input", pool = "global_workspace", offset = 32 : i64, dtype = "float32", shape = [4 : i64]}, w = {kind = "constant", pool = "flash", offset = 0 : i64, dtype = "float16", shape = [4 : i64, 2 : i64]}, flag = {kind = "output", pool = "global_workspace", offset = 0 : i64, dtype = "bool", shape = []}}} {
    %0 = arith.constant 0 : i32
  }
  tir.prim_func @other() attributes {usmp.plan = {algorithm = "hill_climb", proven_optimal = false, time_limit_reached = true}, usmp.shared_constants = {b2 = "b1"}, usmp.narrowed_constants = {b = "b_int16"}} {
    %0 = arith.constant 0 : i32
  }
  tir.prim_func @scheduled() attributes {usmp.schedule = "reordered: peak 288 bytes against the file's 528 (proven least): @widen, @narrow, @widen, @narrow, @add (the file's calls 0, 2, 1, 3, 4)", usmp.in_place_results = {r = "h", total = "a"}, usmp.state_values = {s = dense_resource<s> : tensor<4xi8>}} {
    %0 = arith.constant 0 : i32
  }
}
{-#
  dialect_resources: {
    builtin: {
      s: "0x0100000001020304"
    }
  }
#-}
