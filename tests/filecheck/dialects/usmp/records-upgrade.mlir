// RUN: usmp-opt %s | filecheck %s

// Files written before the typed records carry them as dictionaries; they read, and
// print in the typed form (docs/dialects.md, "Records passes hand on").

// CHECK: builtin.module attributes {usmp.plan = #usmp.plan<"exact", proven_optimal = true, time_limit_reached = false, lower_bounds = {sram = 60}>}
// CHECK: tir.prim_func @main() attributes {usmp.pools = #usmp.pool_sizes<global_workspace = 48, flash = 16>, usmp.io_offsets = #usmp.io_offsets<inp = input "global_workspace"[32] : memref<4xf32>, w = constant "flash"[0] : memref<4x2xf16>, flag = output "global_workspace"[0] : memref<i1>>}
// CHECK: tir.prim_func @other() attributes {usmp.plan = #usmp.plan<"hill_climb", proven_optimal = false, time_limit_reached = true>, usmp.shared_constants = #usmp.shared_constants<b2 = "b1">, usmp.narrowed_constants = #usmp.narrowed_constants<b = "b_int16">}
builtin.module attributes {usmp.plan = {algorithm = "exact", proven_optimal = true, time_limit_reached = false, lower_bounds = {sram = 60 : i64}}} {
  tir.prim_func @main() attributes {usmp.pools = {global_workspace = 48 : i64, flash = 16 : i64}, usmp.io_offsets = {inp = {kind = "input", pool = "global_workspace", offset = 32 : i64, dtype = "float32", shape = [4 : i64]}, w = {kind = "constant", pool = "flash", offset = 0 : i64, dtype = "float16", shape = [4 : i64, 2 : i64]}, flag = {kind = "output", pool = "global_workspace", offset = 0 : i64, dtype = "bool", shape = []}}} {
    %0 = arith.constant 0 : i32
  }
  tir.prim_func @other() attributes {usmp.plan = {algorithm = "hill_climb", proven_optimal = false, time_limit_reached = true}, usmp.shared_constants = {b2 = "b1"}, usmp.narrowed_constants = {b = "b_int16"}} {
    %0 = arith.constant 0 : i32
  }
}
