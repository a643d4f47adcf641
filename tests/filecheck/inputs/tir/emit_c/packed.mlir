builtin.module {
  tir.prim_func @main(%inp: !tir.buffer<4xf32> {tir.name = "inp"}, %pool: !tir.buffer<16xui8> {tir.name = "pool"}) attributes {runner_function = true, usmp.pools = {pool = 16 : i64}} {
    %e = tir.string "tvm.contrib.sort.argsort"
    %p = tir.buffer_data %inp : !tir.buffer<4xf32> -> !tir.ptr<f32>
    %ret = tir.call_intrin "tirx.tvm_call_packed"(%e, %p) : (!tir.string, !tir.ptr<f32>) -> i32
  }
}
