# Licensed to the Apache Software Foundation (ASF) under the Apache License, Version 2.0
# (http://www.apache.org/licenses/LICENSE-2.0).
#
# Module `ResnetStructure` of apache/tvm, tag v0.19.0,
# tests/python/tir-usmp/test_tir_usmp_algo.py,
# as that test wrote it, ported to TVM 0.27 TVMScript by changing only what 0.27 spells
# differently:
# `T.allocate(shape, dtype, scope)` -> `T.alloc_buffer(shape, dtype, scope=scope).data`,
# `T.match_buffer(h, shape, ...)` -> `T.decl_buffer(shape, ..., data=h)`,
# `tir.noalias` -> `tirx.noalias`.

from tvm.script import ir as I
from tvm.script import tirx as T

# fmt: off
@I.ir_module
class ResnetStructure:
    @T.prim_func
    def tvmgen_default_fused_cast_subtract_fixed_point_multiply_add_clip_cast_cast(placeholder: T.handle, placeholder_1: T.handle, T_cast: T.handle) -> None:
        # function attr dict
        T.func_attr({"global_symbol": "tvmgen_default_fused_cast_subtract_fixed_point_multiply_add_clip_cast_cast", "tirx.noalias": True})
        placeholder_2 = T.decl_buffer([360000], data=placeholder, dtype="uint8")
        placeholder_3 = T.decl_buffer([64], data=placeholder_1, dtype="int32")
        T_cast_1 = T.decl_buffer([360000], data=T_cast, dtype="int16")
        # body
        for ax0_ax1_fused, ax2, ax3_outer, ax3_inner in T.grid(75, 75, 4, 16):
            T_cast_1[ax0_ax1_fused * 4800 + ax2 * 64 + ax3_outer * 16 + ax3_inner] = T.cast(T.cast(T.max(T.min(T.q_multiply_shift(T.cast(placeholder_2[ax0_ax1_fused * 4800 + ax2 * 64 + ax3_outer * 16 + ax3_inner], "int32") - 94, 1843157232, 31, 1, dtype="int32") + placeholder_3[ax3_outer * 16 + ax3_inner], 255), 0), "uint8"), "int16")

    @T.prim_func
    def tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_clip_cast_cast_1(placeholder_10: T.handle, placeholder_11: T.handle, placeholder_12: T.handle, T_cast_4: T.handle) -> None:
        # function attr dict
        T.func_attr({"global_symbol": "tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_clip_cast_cast_1", "tirx.noalias": True})
        placeholder_13 = T.decl_buffer([360000], data=placeholder_10, dtype="int16")
        placeholder_14 = T.decl_buffer([36864], data=placeholder_11, dtype="int16")
        placeholder_15 = T.decl_buffer([64], data=placeholder_12, dtype="int32")
        T_cast_5 = T.decl_buffer([360000], data=T_cast_4, dtype="int16")
        # body
        PaddedInput_1 = T.decl_buffer([379456], "int16")
        for i0_i1_fused_1, i2_1, i3_1 in T.grid(77, 77, 64):
            PaddedInput_1[i0_i1_fused_1 * 4928 + i2_1 * 64 + i3_1] = T.if_then_else(1 <= i0_i1_fused_1 and i0_i1_fused_1 < 76 and 1 <= i2_1 and i2_1 < 76, placeholder_13[i0_i1_fused_1 * 4800 + i2_1 * 64 + i3_1 - 4864], T.int16(0), dtype="int16")
        for ax0_ax1_fused_ax2_fused_1 in T.serial(0, 5625):
            Conv2dOutput_1 = T.decl_buffer([64], "int32")
            for ff_1 in T.serial(0, 64):
                Conv2dOutput_1[ff_1] = 0
                for ry, rx, rc_1 in T.grid(3, 3, 64):
                    Conv2dOutput_1[ff_1] = Conv2dOutput_1[ff_1] + T.cast(PaddedInput_1[T.floordiv(ax0_ax1_fused_ax2_fused_1, 75) * 4928 + ry * 4928 + rx * 64 + T.floormod(ax0_ax1_fused_ax2_fused_1, 75) * 64 + rc_1], "int32") * T.cast(placeholder_14[ry * 12288 + rx * 4096 + rc_1 * 64 + ff_1], "int32")
            for ax3_inner_2 in T.serial(0, 64):
                T_cast_5[ax0_ax1_fused_ax2_fused_1 * 64 + ax3_inner_2] = T.cast(T.cast(T.max(T.min(T.q_multiply_shift(Conv2dOutput_1[ax3_inner_2] + placeholder_15[ax3_inner_2], 1608879842, 31, -7, dtype="int32"), 255), 0), "uint8"), "int16")

    @T.prim_func
    def tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_add_clip_cast_cast_subtract_fixed_point_15934180698220515269_(placeholder_16: T.handle, placeholder_17: T.handle, placeholder_18: T.handle, T_add: T.handle) -> None:
        # function attr dict
        T.func_attr({"global_symbol": "tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_add_clip_cast_cast_subtract_fixed_point_15934180698220515269_", "tirx.noalias": True})
        placeholder_19 = T.decl_buffer([360000], data=placeholder_16, dtype="int16")
        placeholder_20 = T.decl_buffer([16384], data=placeholder_17, dtype="int16")
        placeholder_21 = T.decl_buffer([256], data=placeholder_18, dtype="int32")
        T_add_1 = T.decl_buffer([1440000], data=T_add, dtype="int32")
        # body
        PaddedInput_2 = T.decl_buffer([360000], "int16")
        for i0_i1_fused_2, i2_2, i3_2 in T.grid(75, 75, 64):
            PaddedInput_2[i0_i1_fused_2 * 4800 + i2_2 * 64 + i3_2] = placeholder_19[i0_i1_fused_2 * 4800 + i2_2 * 64 + i3_2]
        for ax0_ax1_fused_ax2_fused_2 in T.serial(0, 5625):
            Conv2dOutput_2 = T.decl_buffer([64], "int32")
            for ax3_outer_1 in T.serial(0, 4):
                for ff_2 in T.serial(0, 64):
                    Conv2dOutput_2[ff_2] = 0
                    for rc_2 in T.serial(0, 64):
                        Conv2dOutput_2[ff_2] = Conv2dOutput_2[ff_2] + T.cast(PaddedInput_2[ax0_ax1_fused_ax2_fused_2 * 64 + rc_2], "int32") * T.cast(placeholder_20[rc_2 * 256 + ax3_outer_1 * 64 + ff_2], "int32")
                for ax3_inner_3 in T.serial(0, 64):
                    T_add_1[ax0_ax1_fused_ax2_fused_2 * 256 + ax3_outer_1 * 64 + ax3_inner_3] = T.q_multiply_shift(T.cast(T.cast(T.max(T.min(T.q_multiply_shift(Conv2dOutput_2[ax3_inner_3] + placeholder_21[ax3_outer_1 * 64 + ax3_inner_3], 1711626602, 31, -8, dtype="int32") + 132, 255), 0), "uint8"), "int32") - 132, 2094289803, 31, -2, dtype="int32") + 136

    @T.prim_func
    def tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_add_clip_cast_cast_subtract_fixed_point_4200876283395191415_(placeholder_22: T.handle, placeholder_23: T.handle, placeholder_24: T.handle, placeholder_25: T.handle, T_cast_6: T.handle) -> None:
        # function attr dict
        T.func_attr({"global_symbol": "tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_add_clip_cast_cast_subtract_fixed_point_4200876283395191415_", "tirx.noalias": True})
        placeholder_29 = T.decl_buffer([360000], data=placeholder_22, dtype="int16")
        placeholder_27 = T.decl_buffer([16384], data=placeholder_23, dtype="int16")
        placeholder_26 = T.decl_buffer([256], data=placeholder_24, dtype="int32")
        placeholder_28 = T.decl_buffer([1440000], data=placeholder_25, dtype="int32")
        T_cast_7 = T.decl_buffer([1440000], data=T_cast_6, dtype="uint8")
        # body
        PaddedInput_3 = T.decl_buffer([360000], "int16")
        for i0_i1_fused_3, i2_3, i3_3 in T.grid(75, 75, 64):
            PaddedInput_3[i0_i1_fused_3 * 4800 + i2_3 * 64 + i3_3] = placeholder_29[i0_i1_fused_3 * 4800 + i2_3 * 64 + i3_3]
        for ax0_ax1_fused_ax2_fused_3 in T.serial(0, 5625):
            Conv2dOutput_3 = T.decl_buffer([64], "int32")
            for ax3_outer_2 in T.serial(0, 4):
                for ff_3 in T.serial(0, 64):
                    Conv2dOutput_3[ff_3] = 0
                    for rc_3 in T.serial(0, 64):
                        Conv2dOutput_3[ff_3] = Conv2dOutput_3[ff_3] + T.cast(PaddedInput_3[ax0_ax1_fused_ax2_fused_3 * 64 + rc_3], "int32") * T.cast(placeholder_27[rc_3 * 256 + ax3_outer_2 * 64 + ff_3], "int32")
                for ax3_inner_4 in T.serial(0, 64):
                    T_cast_7[ax0_ax1_fused_ax2_fused_3 * 256 + ax3_outer_2 * 64 + ax3_inner_4] = T.cast(T.max(T.min(T.q_multiply_shift(T.cast(T.cast(T.max(T.min(T.q_multiply_shift(Conv2dOutput_3[ax3_inner_4] + placeholder_26[ax3_outer_2 * 64 + ax3_inner_4], 1343014664, 31, -8, dtype="int32") + 136, 255), 0), "uint8"), "int32") - 136, 1073903788, 31, 1, dtype="int32") + placeholder_28[ax0_ax1_fused_ax2_fused_3 * 256 + ax3_outer_2 * 64 + ax3_inner_4], 255), 0), "uint8")

    @T.prim_func
    def tvmgen_default_run_model(input: T.handle, output: T.handle) -> None:
        # function attr dict
        T.func_attr({"global_symbol": "tvmgen_default_run_model", "runner_function": True})
        # body
        T.attr("default", "device_id", 0)
        T.attr("default", "device_type", 1)
        sid_2 = T.alloc_buffer([720000], "int8", scope="global").data
        sid_6 = T.alloc_buffer([5760000], "int8", scope="global").data
        sid_7 = T.alloc_buffer([720000], "int8", scope="global").data
        sid_8 = T.alloc_buffer([720000], "int8", scope="global").data
        T.evaluate(T.call_extern("tvmgen_default_fused_cast_subtract_fixed_point_multiply_add_clip_cast_cast", input, T.lookup_param("p0", dtype="handle"), sid_2, dtype="int32"))
        T.evaluate(T.call_extern("tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_clip_cast_cast", sid_2, T.lookup_param("p3", dtype="handle"), T.lookup_param("p4", dtype="handle"), sid_8, dtype="int32"))
        T.evaluate(T.call_extern("tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_clip_cast_cast_1", sid_8, T.lookup_param("p5", dtype="handle"), T.lookup_param("p6", dtype="handle"), sid_7, dtype="int32"))
        T.evaluate(T.call_extern("tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_add_clip_cast_cast_subtract_fixed_point_15934180698220515269_", sid_7, T.lookup_param("p7", dtype="handle"), T.lookup_param("p8", dtype="handle"), sid_6, dtype="int32"))
        T.evaluate(T.call_extern("tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_add_clip_cast_cast_subtract_fixed_point_4200876283395191415_", sid_2, T.lookup_param("p1", dtype="handle"), T.lookup_param("p2", dtype="handle"), sid_6, output, dtype="int32"))

    @T.prim_func
    def tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_clip_cast_cast(placeholder_4: T.handle, placeholder_5: T.handle, placeholder_6: T.handle, T_cast_2: T.handle) -> None:
        # function attr dict
        T.func_attr({"global_symbol": "tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_clip_cast_cast", "tirx.noalias": True})
        placeholder_7 = T.decl_buffer([360000], data=placeholder_4, dtype="int16")
        placeholder_8 = T.decl_buffer([4096], data=placeholder_5, dtype="int16")
        placeholder_9 = T.decl_buffer([64], data=placeholder_6, dtype="int32")
        T_cast_3 = T.decl_buffer([360000], data=T_cast_2, dtype="int16")
        # body
        PaddedInput = T.decl_buffer([360000], "int16")
        for i0_i1_fused, i2, i3 in T.grid(75, 75, 64):
            PaddedInput[i0_i1_fused * 4800 + i2 * 64 + i3] = placeholder_7[i0_i1_fused * 4800 + i2 * 64 + i3]
        for ax0_ax1_fused_ax2_fused in T.serial(0, 5625):
            Conv2dOutput = T.decl_buffer([64], "int32")
            for ff in T.serial(0, 64):
                Conv2dOutput[ff] = 0
                for rc in T.serial(0, 64):
                    Conv2dOutput[ff] = Conv2dOutput[ff] + T.cast(PaddedInput[ax0_ax1_fused_ax2_fused * 64 + rc], "int32") * T.cast(placeholder_8[rc * 64 + ff], "int32")
            for ax3_inner_1 in T.serial(0, 64):
                T_cast_3[ax0_ax1_fused_ax2_fused * 64 + ax3_inner_1] = T.cast(T.cast(T.max(T.min(T.q_multiply_shift(Conv2dOutput[ax3_inner_1] + placeholder_9[ax3_inner_1], 1843106743, 31, -6, dtype="int32"), 255), 0), "uint8"), "int16")
# fmt: on
