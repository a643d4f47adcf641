// issue 33: one diagnostic, exit status 1, no traceback (tests/test_bad_inputs.py).
// An intrinsic TVM does not register: was TVM's C++ check text and a traceback.
"tir.prim_func"() <{sym_name = "main", function_type = (!tir.buffer<4xf32>) -> ()}> ({
^bb0(%x: !tir.buffer<4xf32>):
  %i = "arith.constant"() <{value = 0 : i32}> : () -> i32
  %v = "tir.load"(%x, %i) : (!tir.buffer<4xf32>, i32) -> f32
  %r = "tir.call_intrin"(%v) <{op_name = "tir.no_such_intrinsic"}> : (f32) -> f32
  "tir.store"(%r, %x, %i) : (f32, !tir.buffer<4xf32>, i32) -> ()
}) : () -> ()
