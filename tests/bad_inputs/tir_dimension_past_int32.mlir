// a tir buffer dimension TVM's int32 index cannot hold (--emit-tvmscript): one diagnostic, exit status 1 (tests/test_bad_inputs.py).
tir.prim_func @main(%inp: !tir.buffer<16xf32>) attributes {global_symbol = "main"} {
  %t = tir.alloc_buffer : !tir.buffer<4294967296xf32>
}
