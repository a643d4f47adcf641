# Licensed to the Apache Software Foundation (ASF) under the Apache License, Version 2.0
# (http://www.apache.org/licenses/LICENSE-2.0).
#
# Module `ParallelSerialMixedForLoops` of apache/tvm, tag v0.19.0,
# tests/python/tir-usmp/test_tir_usmp_analysis_extract_bufferinfo.py,
# as that test wrote it, ported to TVM 0.27 TVMScript by changing only what 0.27 spells
# differently:
# `T.allocate(shape, dtype, scope)` -> `T.alloc_buffer(shape, dtype, scope=scope).data`,
# `T.match_buffer(h, shape, ...)` -> `T.decl_buffer(shape, ..., data=h)`,
# `tir.noalias` -> `tirx.noalias`.

from tvm.script import ir as I
from tvm.script import tirx as T

# fmt: off
@I.ir_module
class ParallelSerialMixedForLoops:
    @T.prim_func
    def tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_clip_cast_1(placeholder_68: T.handle, placeholder_69: T.handle, placeholder_70: T.handle, T_cast_22: T.handle) -> None:
        # function attr dict
        T.func_attr({"global_symbol": "tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_clip_cast_1", "tirx.noalias": True})
        placeholder_71 = T.decl_buffer([200704], data=placeholder_68, dtype="int16", elem_offset=0, align=64, offset_factor=1)
        placeholder_72 = T.decl_buffer([110592], data=placeholder_69, dtype="int16", elem_offset=0, align=64, offset_factor=1)
        placeholder_73 = T.decl_buffer([192], data=placeholder_70, dtype="int32", elem_offset=0, align=64, offset_factor=1)
        T_cast_23 = T.decl_buffer([305], data=T_cast_22, dtype="uint8", elem_offset=0, align=64, offset_factor=1)
        # body
        PaddedInput_8 = T.decl_buffer([215296], "int16")
        for i0_i1_fused_8 in T.serial(0, 58):
            for i2_8, i3_8 in T.grid(58, 64):
                PaddedInput_8[(((i0_i1_fused_8*3712) + (i2_8*64)) + i3_8)] = T.if_then_else(((((1 <= i0_i1_fused_8) and (i0_i1_fused_8 < 57)) and (1 <= i2_8)) and (i2_8 < 57)), placeholder_71[((((i0_i1_fused_8*3584) + (i2_8*64)) + i3_8) - 3648)], T.int16(0), dtype="int16")
        for ax0_ax1_fused_ax2_fused_8 in T.parallel(0, 3136):
            dummy_allocate = T.decl_buffer([1], "int32")
            for ax3_outer_4 in T.serial(0, 3):
                Conv2dOutput_8 = T.decl_buffer([64], "int32")
                for ff_4 in T.serial(0, 64):
                    Conv2dOutput_8[ff_4] = 0
                    for ry_3, rx_3, rc_8 in T.grid(3, 3, 64):
                        Conv2dOutput_8[ff_4] = (Conv2dOutput_8[ff_4] + (T.cast(PaddedInput_8[(((((T.floordiv(ax0_ax1_fused_ax2_fused_8, 56)*3712) + (ry_3*3712)) + (rx_3*64)) + (T.floormod(ax0_ax1_fused_ax2_fused_8, 56)*64)) + rc_8)], "int32")*T.cast(placeholder_72[(((((ry_3*36864) + (rx_3*12288)) + (rc_8*192)) + (ax3_outer_4*64)) + ff_4)], "int32")))
                for ax3_inner_8 in T.serial(0, 64):
                    T_cast_23[(((ax0_ax1_fused_ax2_fused_8*192) + (ax3_outer_4*64)) + ax3_inner_8)] = T.cast(T.max(T.min(T.q_multiply_shift((Conv2dOutput_8[ax3_inner_8] + placeholder_73[((ax3_outer_4*64) + ax3_inner_8)]), 1139793473, 31, -6, dtype="int32"), 255), 0), "uint8")

    @T.prim_func
    def run_model(input: T.handle, output: T.handle) -> None:
        # function attr dict
        T.func_attr({"global_symbol": "tvmgen_default_run_model", "runner_function": True})
        # body
        T.attr("default", "device_id", 0)
        T.attr("default", "device_type", 1)
        T.evaluate(T.call_extern("tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_clip_cast_1", input, T.lookup_param("p5", dtype="handle"), T.lookup_param("p6", dtype="handle"), output, dtype="int32"))
# fmt: on
