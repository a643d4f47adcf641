// A model keeping state from run to run (see tests/filecheck/transforms/tir-state-to-allocations.mlir),
// with each variable's first value (a module of its own: xDSL prints the blobs of an
// explicit one).
builtin.module {
  tir.prim_func @copy(%a_ptr: !tir.ptr<i8>, %b_ptr: !tir.ptr<i8>) {
    %a = tir.decl_buffer %a_ptr : !tir.ptr<i8> -> !tir.buffer<4xi8>
    %b = tir.decl_buffer %b_ptr : !tir.ptr<i8> -> !tir.buffer<4xi8>
    %c0 = arith.constant 0 : i32
    %c4 = arith.constant 4 : i32
    tir.for %i = %c0 extent %c4 serial : i32 {
      %v = tir.load %a[%i] : i8
      tir.store %v, %b[%i]
    }
  }
  tir.prim_func @main(%x: !tir.buffer<4xi8> {tir.name = "x"}, %s: !tir.buffer<4xi8> {tir.name = "s"}, %t: !tir.buffer<4xi8> {tir.name = "t"}, %y: !tir.buffer<4xi8> {tir.name = "y"}, %s_next: !tir.buffer<4xi8> {tir.name = "s_next"}, %t_next: !tir.buffer<4xi8> {tir.name = "t_next"}) attributes {runner_function = true, usmp.outputs = ["y", "s_next", "t_next"], usmp.state = #usmp.state<s = "s_next", t = "t_next">, usmp.state_values = {s = dense_resource<s> : tensor<4xi8>, t = dense_resource<t> : tensor<4xi8>}} {
    %c = tir.alloc_buffer "c" : !tir.buffer<4xi8>
    %p0 = tir.buffer_data %s : !tir.buffer<4xi8> -> !tir.ptr<i8>
    %p1 = tir.buffer_data %c : !tir.buffer<4xi8> -> !tir.ptr<i8>
    tir.call @copy(%p0, %p1) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
    %p2 = tir.buffer_data %c : !tir.buffer<4xi8> -> !tir.ptr<i8>
    %p3 = tir.buffer_data %s_next : !tir.buffer<4xi8> -> !tir.ptr<i8>
    tir.call @copy(%p2, %p3) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
    %p4 = tir.buffer_data %x : !tir.buffer<4xi8> -> !tir.ptr<i8>
    %p5 = tir.buffer_data %y : !tir.buffer<4xi8> -> !tir.ptr<i8>
    tir.call @copy(%p4, %p5) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
    %p6 = tir.buffer_data %t : !tir.buffer<4xi8> -> !tir.ptr<i8>
    %p7 = tir.buffer_data %t_next : !tir.buffer<4xi8> -> !tir.ptr<i8>
    tir.call @copy(%p6, %p7) : (!tir.ptr<i8>, !tir.ptr<i8>) -> ()
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
