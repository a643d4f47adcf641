# Licensed to the Apache Software Foundation (ASF) under the Apache License, Version 2.0
# (http://www.apache.org/licenses/LICENSE-2.0).
#
# Module `TwoInputSingleOutput` of apache/tvm, tag v0.19.0,
# tests/python/tir-usmp/test_tir_usmp_transform_create_io_allocates.py,
# as that test wrote it, ported to TVM 0.27 TVMScript by changing only what 0.27 spells
# differently:
# `T.allocate(shape, dtype, scope)` -> `T.alloc_buffer(shape, dtype, scope=scope).data`,
# `T.match_buffer(h, shape, ...)` -> `T.decl_buffer(shape, ..., data=h)`,
# `tir.noalias` -> `tirx.noalias`.

from tvm.script import ir as I
from tvm.script import tirx as T

# fmt: off
@I.ir_module
class TwoInputSingleOutput:
    @T.prim_func
    def tvmgen_default_fused_cast_subtract(placeholder_2: T.handle, placeholder_3: T.handle, T_subtract: T.handle) -> None:
        # function attr dict
        T.func_attr({"global_symbol": "tvmgen_default_fused_cast_subtract", "tirx.noalias": True})
        placeholder_4 = T.decl_buffer([150528], data=placeholder_2, dtype="uint8", elem_offset=0, align=64, offset_factor=1)
        placeholder_5 = T.decl_buffer([1], data=placeholder_3, dtype="int16", elem_offset=0, align=64, offset_factor=1)
        T_subtract_1 = T.decl_buffer([452], data=T_subtract, dtype="int16", elem_offset=0, align=64, offset_factor=1)
        # body
        for ax0_ax1_fused_1 in T.serial(0, 224):
            for ax2_1, ax3_inner_1 in T.grid(224, 3):
                T_subtract_1[(((ax0_ax1_fused_1*672) + (ax2_1*3)) + ax3_inner_1)] = (T.cast(placeholder_4[(((ax0_ax1_fused_1*672) + (ax2_1*3)) + ax3_inner_1)], "int16") - placeholder_5[0])

    @T.prim_func
    def __tvm_main__(input1: T.handle, input2: T.handle, output: T.handle) -> None:
        # function attr dict
        T.func_attr({"global_symbol": "__tvm_main__", "runner_function": True})
        input1_buffer_var = T.decl_buffer([150528], data=input1, dtype="uint8", elem_offset=0, align=64, offset_factor=1)
        input2_buffer_var = T.decl_buffer([1], data=input2, dtype="int16", elem_offset=0, align=64, offset_factor=1)
        output_buffer_var = T.decl_buffer([452], data=output, dtype="int16", elem_offset=0, align=64, offset_factor=1)
        # body
        T.evaluate(T.call_extern("tvmgen_default_fused_cast_subtract", input1_buffer_var.data, input2_buffer_var.data, output_buffer_var.data, dtype="int32"))
# fmt: on
