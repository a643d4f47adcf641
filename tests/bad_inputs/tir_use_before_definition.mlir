// issue 33: one diagnostic, exit status 1, no traceback (tests/test_bad_inputs.py).
// %i is used before the op that defines it: was a KeyError in the emitter.
"tir.prim_func"() <{sym_name = "main", function_type = (!tir.buffer<4xf32>) -> ()}> ({
^bb0(%x: !tir.buffer<4xf32>):
  %v = "tir.load"(%x, %i) : (!tir.buffer<4xf32>, i32) -> f32
  %i = "arith.constant"() <{value = 0 : i32}> : () -> i32
  "tir.store"(%v, %x, %i) : (f32, !tir.buffer<4xf32>, i32) -> ()
}) : () -> ()
