# Licensed to the Apache Software Foundation (ASF) under the Apache License, Version 2.0
# (http://www.apache.org/licenses/LICENSE-2.0).
#
# Module `MultipleCallsToSamePrimFuncModule` of apache/tvm, tag v0.19.0,
# tests/python/tir-usmp/test_tir_usmp_analysis_extract_bufferinfo.py,
# as that test wrote it, ported to TVM 0.27 TVMScript by changing only what 0.27 spells
# differently:
# `T.allocate(shape, dtype, scope)` -> `T.alloc_buffer(shape, dtype, scope=scope).data`,
# `T.match_buffer(h, shape, ...)` -> `T.decl_buffer(shape, ..., data=h)`,
# `tir.noalias` -> `tirx.noalias`,
# `with T.decl_buffer(shape, dtype) as x:` (0.27 has no scoped form) ->
# `x = T.decl_buffer(shape, dtype)` with the body dedented: a buffer's scope is the rest of its block,
# `T.cast(T.lookup_param(p, dtype="handle"), "handle")` (0.27 casts no handle) ->
# `T.lookup_param(p, dtype="handle")`,
# `T.allocate_const(values, dtype, shape)` (0.27 has no AllocateConst) ->
# `T.lookup_param("<name>", dtype="handle")`: a constant owned by the runtime.

from tvm.script import ir as I
from tvm.script import tirx as T

# fmt: off
@I.ir_module
class MultipleCallsToSamePrimFuncModule:
    @T.prim_func
    def tvmgen_default_fused_layout_transform_1(placeholder: T.handle, T_layout_trans: T.handle) -> None:
        # function attr dict
        T.func_attr({"from_legacy_te_schedule": True, "global_symbol": "tvmgen_default_fused_layout_transform_1", "tirx.noalias": True})
        placeholder_1 = T.decl_buffer([864], data=placeholder, dtype="float32")
        T_layout_trans_1 = T.decl_buffer([41], data=T_layout_trans, dtype="float32")
        # body
        for ax0_ax1_fused_ax2_fused, ax3, ax4_inner in T.grid(24, 12, 3):
            T_layout_trans_1[ax0_ax1_fused_ax2_fused * 36 + ax3 * 3 + ax4_inner] = placeholder_1[ax4_inner * 288 + ax0_ax1_fused_ax2_fused * 12 + ax3]

    @T.prim_func
    def tvmgen_default_fused_nn_contrib_conv2d_NCHWc(placeholder_2: T.handle, placeholder_3: T.handle, conv2d_NCHWc: T.handle) -> None:
        # function attr dict
        T.func_attr({"from_legacy_te_schedule": True, "global_symbol": "tvmgen_default_fused_nn_contrib_conv2d_NCHWc", "tirx.noalias": True})
        placeholder_4 = T.decl_buffer([864], data=placeholder_2, dtype="float32")
        placeholder_5 = T.decl_buffer([81], data=placeholder_3, dtype="float32")
        conv2d_NCHWc_1 = T.decl_buffer([41], data=conv2d_NCHWc, dtype="float32")
        # body
        data_pad = T.decl_buffer([1092], "float32")
        for i0_i1_fused_i2_fused, i3, i4 in T.grid(26, 14, 3):
            data_pad[i0_i1_fused_i2_fused * 42 + i3 * 3 + i4] = T.if_then_else(1 <= i0_i1_fused_i2_fused and i0_i1_fused_i2_fused < 25 and 1 <= i3 and i3 < 13, placeholder_4[i0_i1_fused_i2_fused * 36 + i3 * 3 + i4 - 39], T.float32(0), dtype="float32")
        for n_oc_chunk_fused_oh_fused in T.serial(0, 24):
            conv2d_NCHWc_global = T.decl_buffer([36], "float32")
            for oc_block_c_init in T.serial(0, 3):
                conv2d_NCHWc_global[oc_block_c_init] = T.float32(0)
            for oc_block_c_init in T.serial(0, 3):
                conv2d_NCHWc_global[oc_block_c_init + 3] = T.float32(0)
            for oc_block_c_init in T.serial(0, 3):
                conv2d_NCHWc_global[oc_block_c_init + 6] = T.float32(0)
            for oc_block_c_init in T.serial(0, 3):
                conv2d_NCHWc_global[oc_block_c_init + 9] = T.float32(0)
            for oc_block_c_init in T.serial(0, 3):
                conv2d_NCHWc_global[oc_block_c_init + 12] = T.float32(0)
            for oc_block_c_init in T.serial(0, 3):
                conv2d_NCHWc_global[oc_block_c_init + 15] = T.float32(0)
            for oc_block_c_init in T.serial(0, 3):
                conv2d_NCHWc_global[oc_block_c_init + 18] = T.float32(0)
            for oc_block_c_init in T.serial(0, 3):
                conv2d_NCHWc_global[oc_block_c_init + 21] = T.float32(0)
            for oc_block_c_init in T.serial(0, 3):
                conv2d_NCHWc_global[oc_block_c_init + 24] = T.float32(0)
            for oc_block_c_init in T.serial(0, 3):
                conv2d_NCHWc_global[oc_block_c_init + 27] = T.float32(0)
            for oc_block_c_init in T.serial(0, 3):
                conv2d_NCHWc_global[oc_block_c_init + 30] = T.float32(0)
            for oc_block_c_init in T.serial(0, 3):
                conv2d_NCHWc_global[oc_block_c_init + 33] = T.float32(0)
            for kh, kw, ic_inner in T.grid(3, 3, 3):
                for oc_block_c in T.serial(0, 3):
                    conv2d_NCHWc_global[oc_block_c] = conv2d_NCHWc_global[oc_block_c] + data_pad[kh * 42 + n_oc_chunk_fused_oh_fused * 42 + kw * 3 + ic_inner] * placeholder_5[kh * 27 + kw * 9 + ic_inner * 3 + oc_block_c]
                for oc_block_c in T.serial(0, 3):
                    conv2d_NCHWc_global[oc_block_c + 3] = conv2d_NCHWc_global[oc_block_c + 3] + data_pad[kh * 42 + n_oc_chunk_fused_oh_fused * 42 + kw * 3 + ic_inner + 3] * placeholder_5[kh * 27 + kw * 9 + ic_inner * 3 + oc_block_c]
                for oc_block_c in T.serial(0, 3):
                    conv2d_NCHWc_global[oc_block_c + 6] = conv2d_NCHWc_global[oc_block_c + 6] + data_pad[kh * 42 + n_oc_chunk_fused_oh_fused * 42 + kw * 3 + ic_inner + 6] * placeholder_5[kh * 27 + kw * 9 + ic_inner * 3 + oc_block_c]
                for oc_block_c in T.serial(0, 3):
                    conv2d_NCHWc_global[oc_block_c + 9] = conv2d_NCHWc_global[oc_block_c + 9] + data_pad[kh * 42 + n_oc_chunk_fused_oh_fused * 42 + kw * 3 + ic_inner + 9] * placeholder_5[kh * 27 + kw * 9 + ic_inner * 3 + oc_block_c]
                for oc_block_c in T.serial(0, 3):
                    conv2d_NCHWc_global[oc_block_c + 12] = conv2d_NCHWc_global[oc_block_c + 12] + data_pad[kh * 42 + n_oc_chunk_fused_oh_fused * 42 + kw * 3 + ic_inner + 12] * placeholder_5[kh * 27 + kw * 9 + ic_inner * 3 + oc_block_c]
                for oc_block_c in T.serial(0, 3):
                    conv2d_NCHWc_global[oc_block_c + 15] = conv2d_NCHWc_global[oc_block_c + 15] + data_pad[kh * 42 + n_oc_chunk_fused_oh_fused * 42 + kw * 3 + ic_inner + 15] * placeholder_5[kh * 27 + kw * 9 + ic_inner * 3 + oc_block_c]
                for oc_block_c in T.serial(0, 3):
                    conv2d_NCHWc_global[oc_block_c + 18] = conv2d_NCHWc_global[oc_block_c + 18] + data_pad[kh * 42 + n_oc_chunk_fused_oh_fused * 42 + kw * 3 + ic_inner + 18] * placeholder_5[kh * 27 + kw * 9 + ic_inner * 3 + oc_block_c]
                for oc_block_c in T.serial(0, 3):
                    conv2d_NCHWc_global[oc_block_c + 21] = conv2d_NCHWc_global[oc_block_c + 21] + data_pad[kh * 42 + n_oc_chunk_fused_oh_fused * 42 + kw * 3 + ic_inner + 21] * placeholder_5[kh * 27 + kw * 9 + ic_inner * 3 + oc_block_c]
                for oc_block_c in T.serial(0, 3):
                    conv2d_NCHWc_global[oc_block_c + 24] = conv2d_NCHWc_global[oc_block_c + 24] + data_pad[kh * 42 + n_oc_chunk_fused_oh_fused * 42 + kw * 3 + ic_inner + 24] * placeholder_5[kh * 27 + kw * 9 + ic_inner * 3 + oc_block_c]
                for oc_block_c in T.serial(0, 3):
                    conv2d_NCHWc_global[oc_block_c + 27] = conv2d_NCHWc_global[oc_block_c + 27] + data_pad[kh * 42 + n_oc_chunk_fused_oh_fused * 42 + kw * 3 + ic_inner + 27] * placeholder_5[kh * 27 + kw * 9 + ic_inner * 3 + oc_block_c]
                for oc_block_c in T.serial(0, 3):
                    conv2d_NCHWc_global[oc_block_c + 30] = conv2d_NCHWc_global[oc_block_c + 30] + data_pad[kh * 42 + n_oc_chunk_fused_oh_fused * 42 + kw * 3 + ic_inner + 30] * placeholder_5[kh * 27 + kw * 9 + ic_inner * 3 + oc_block_c]
                for oc_block_c in T.serial(0, 3):
                    conv2d_NCHWc_global[oc_block_c + 33] = conv2d_NCHWc_global[oc_block_c + 33] + data_pad[kh * 42 + n_oc_chunk_fused_oh_fused * 42 + kw * 3 + ic_inner + 33] * placeholder_5[kh * 27 + kw * 9 + ic_inner * 3 + oc_block_c]
            for ow_inner, oc_block in T.grid(12, 3):
                conv2d_NCHWc_1[n_oc_chunk_fused_oh_fused * 36 + ow_inner * 3 + oc_block] = conv2d_NCHWc_global[ow_inner * 3 + oc_block]

    @T.prim_func
    def tvmgen_default_fused_nn_softmax_add_add_multiply_add(placeholder_6: T.handle, placeholder_7: T.handle, placeholder_8: T.handle, placeholder_9: T.handle, placeholder_10: T.handle, T_add: T.handle) -> None:
        # function attr dict
        T.func_attr({"from_legacy_te_schedule": True, "global_symbol": "tvmgen_default_fused_nn_softmax_add_add_multiply_add", "tirx.noalias": True})
        placeholder_11 = T.decl_buffer([864], data=placeholder_6, dtype="float32")
        placeholder_12 = T.decl_buffer([864], data=placeholder_7, dtype="float32")
        placeholder_13 = T.decl_buffer([3], data=placeholder_8, dtype="float32")
        placeholder_14 = T.decl_buffer([3], data=placeholder_9, dtype="float32")
        placeholder_15 = T.decl_buffer([3], data=placeholder_10, dtype="float32")
        T_add_1 = T.decl_buffer([864], data=T_add, dtype="float32")
        # body
        for ax0_ax1_fused_ax2_fused in T.serial(0, 72):
            T_softmax_norm = T.decl_buffer([12], "float32")
            T_softmax_maxelem = T.decl_buffer([1], "float32")
            T_softmax_maxelem[0] = T.float32(-3.4028234663852886e+38)
            for k in T.serial(0, 12):
                T_softmax_maxelem[0] = T.max(T_softmax_maxelem[0], placeholder_11[ax0_ax1_fused_ax2_fused * 12 + k])
            T_softmax_exp = T.decl_buffer([12], "float32")
            for i3 in T.serial(0, 12):
                T_softmax_exp[i3] = T.exp(placeholder_11[ax0_ax1_fused_ax2_fused * 12 + i3] - T_softmax_maxelem[0], dtype="float32")
            T_softmax_expsum = T.decl_buffer([1], "float32")
            T_softmax_expsum[0] = T.float32(0)
            for k in T.serial(0, 12):
                T_softmax_expsum[0] = T_softmax_expsum[0] + T_softmax_exp[k]
            for i3 in T.serial(0, 12):
                T_softmax_norm[i3] = T_softmax_exp[i3] / T_softmax_expsum[0]
            for ax3 in T.serial(0, 12):
                T_add_1[ax0_ax1_fused_ax2_fused * 12 + ax3] = (placeholder_12[ax0_ax1_fused_ax2_fused * 12 + ax3] + T_softmax_norm[ax3] + placeholder_13[T.floordiv(ax0_ax1_fused_ax2_fused, 24)]) * placeholder_14[T.floordiv(ax0_ax1_fused_ax2_fused, 24)] + placeholder_15[T.floordiv(ax0_ax1_fused_ax2_fused, 24)]

    @T.prim_func
    def tvmgen_default_fused_nn_contrib_dense_pack_nn_relu(placeholder_16: T.handle, placeholder_17: T.handle, T_relu: T.handle) -> None:
        # function attr dict
        T.func_attr({"from_legacy_te_schedule": True, "global_symbol": "tvmgen_default_fused_nn_contrib_dense_pack_nn_relu", "tirx.noalias": True})
        placeholder_18 = T.decl_buffer([864], data=placeholder_16, dtype="float32")
        placeholder_19 = T.decl_buffer([144], data=placeholder_17, dtype="float32")
        T_relu_1 = T.decl_buffer([864], data=T_relu, dtype="float32")
        # body
        for ax1_outer_ax0_outer_fused in T.serial(0, 18):
            compute = T.decl_buffer([48], "float32")
            compute_global = T.decl_buffer([48], "float32")
            for x_c_init in T.serial(0, 6):
                compute_global[x_c_init] = T.float32(0)
            for x_c_init in T.serial(0, 6):
                compute_global[x_c_init + 6] = T.float32(0)
            for x_c_init in T.serial(0, 6):
                compute_global[x_c_init + 12] = T.float32(0)
            for x_c_init in T.serial(0, 6):
                compute_global[x_c_init + 18] = T.float32(0)
            for x_c_init in T.serial(0, 6):
                compute_global[x_c_init + 24] = T.float32(0)
            for x_c_init in T.serial(0, 6):
                compute_global[x_c_init + 30] = T.float32(0)
            for x_c_init in T.serial(0, 6):
                compute_global[x_c_init + 36] = T.float32(0)
            for x_c_init in T.serial(0, 6):
                compute_global[x_c_init + 42] = T.float32(0)
            for k_outer in T.serial(0, 12):
                for x_c in T.serial(0, 6):
                    compute_global[x_c] = compute_global[x_c] + placeholder_18[T.floormod(ax1_outer_ax0_outer_fused, 9) * 96 + k_outer] * placeholder_19[T.floordiv(ax1_outer_ax0_outer_fused, 9) * 72 + k_outer * 6 + x_c]
                for x_c in T.serial(0, 6):
                    compute_global[x_c + 6] = compute_global[x_c + 6] + placeholder_18[T.floormod(ax1_outer_ax0_outer_fused, 9) * 96 + k_outer + 12] * placeholder_19[T.floordiv(ax1_outer_ax0_outer_fused, 9) * 72 + k_outer * 6 + x_c]
                for x_c in T.serial(0, 6):
                    compute_global[x_c + 12] = compute_global[x_c + 12] + placeholder_18[T.floormod(ax1_outer_ax0_outer_fused, 9) * 96 + k_outer + 24] * placeholder_19[T.floordiv(ax1_outer_ax0_outer_fused, 9) * 72 + k_outer * 6 + x_c]
                for x_c in T.serial(0, 6):
                    compute_global[x_c + 18] = compute_global[x_c + 18] + placeholder_18[T.floormod(ax1_outer_ax0_outer_fused, 9) * 96 + k_outer + 36] * placeholder_19[T.floordiv(ax1_outer_ax0_outer_fused, 9) * 72 + k_outer * 6 + x_c]
                for x_c in T.serial(0, 6):
                    compute_global[x_c + 24] = compute_global[x_c + 24] + placeholder_18[T.floormod(ax1_outer_ax0_outer_fused, 9) * 96 + k_outer + 48] * placeholder_19[T.floordiv(ax1_outer_ax0_outer_fused, 9) * 72 + k_outer * 6 + x_c]
                for x_c in T.serial(0, 6):
                    compute_global[x_c + 30] = compute_global[x_c + 30] + placeholder_18[T.floormod(ax1_outer_ax0_outer_fused, 9) * 96 + k_outer + 60] * placeholder_19[T.floordiv(ax1_outer_ax0_outer_fused, 9) * 72 + k_outer * 6 + x_c]
                for x_c in T.serial(0, 6):
                    compute_global[x_c + 36] = compute_global[x_c + 36] + placeholder_18[T.floormod(ax1_outer_ax0_outer_fused, 9) * 96 + k_outer + 72] * placeholder_19[T.floordiv(ax1_outer_ax0_outer_fused, 9) * 72 + k_outer * 6 + x_c]
                for x_c in T.serial(0, 6):
                    compute_global[x_c + 42] = compute_global[x_c + 42] + placeholder_18[T.floormod(ax1_outer_ax0_outer_fused, 9) * 96 + k_outer + 84] * placeholder_19[T.floordiv(ax1_outer_ax0_outer_fused, 9) * 72 + k_outer * 6 + x_c]
            for x_inner_inner in T.serial(0, 6):
                compute[x_inner_inner] = compute_global[x_inner_inner]
            for x_inner_inner in T.serial(0, 6):
                compute[x_inner_inner + 6] = compute_global[x_inner_inner + 6]
            for x_inner_inner in T.serial(0, 6):
                compute[x_inner_inner + 12] = compute_global[x_inner_inner + 12]
            for x_inner_inner in T.serial(0, 6):
                compute[x_inner_inner + 18] = compute_global[x_inner_inner + 18]
            for x_inner_inner in T.serial(0, 6):
                compute[x_inner_inner + 24] = compute_global[x_inner_inner + 24]
            for x_inner_inner in T.serial(0, 6):
                compute[x_inner_inner + 30] = compute_global[x_inner_inner + 30]
            for x_inner_inner in T.serial(0, 6):
                compute[x_inner_inner + 36] = compute_global[x_inner_inner + 36]
            for x_inner_inner in T.serial(0, 6):
                compute[x_inner_inner + 42] = compute_global[x_inner_inner + 42]
            for ax0_inner_inner, ax1_inner_inner in T.grid(8, 6):
                T_relu_1[T.floormod(ax1_outer_ax0_outer_fused, 9) * 96 + ax0_inner_inner * 12 + T.floordiv(ax1_outer_ax0_outer_fused, 9) * 6 + ax1_inner_inner] = T.max(compute[ax0_inner_inner * 6 + ax1_inner_inner], T.float32(0))

    @T.prim_func
    def tvmgen_default_fused_reshape_1(placeholder_20: T.handle, T_reshape: T.handle) -> None:
        # function attr dict
        T.func_attr({"from_legacy_te_schedule": True, "global_symbol": "tvmgen_default_fused_reshape_1", "tirx.noalias": True})
        placeholder_21 = T.decl_buffer([864], data=placeholder_20, dtype="float32")
        T_reshape_1 = T.decl_buffer([864], data=T_reshape, dtype="float32")
        # body
        for ax0, ax1_inner in T.grid(72, 12):
            T_reshape_1[ax0 * 12 + ax1_inner] = placeholder_21[ax0 * 12 + ax1_inner]

    @T.prim_func
    def tvmgen_default_fused_layout_transform(placeholder_22: T.handle, T_layout_trans_2: T.handle) -> None:
        # function attr dict
        T.func_attr({"from_legacy_te_schedule": True, "global_symbol": "tvmgen_default_fused_layout_transform", "tirx.noalias": True})
        placeholder_23 = T.decl_buffer([864], data=placeholder_22, dtype="float32")
        T_layout_trans_3 = T.decl_buffer([864], data=T_layout_trans_2, dtype="float32")
        # body
        for ax0_ax1_fused, ax2, ax3_inner in T.grid(3, 24, 12):
            T_layout_trans_3[ax0_ax1_fused * 288 + ax2 * 12 + ax3_inner] = placeholder_23[ax2 * 36 + ax3_inner * 3 + ax0_ax1_fused]

    @T.prim_func
    def tvmgen_default_fused_reshape(placeholder_24: T.handle, T_reshape_2: T.handle) -> None:
        # function attr dict
        T.func_attr({"from_legacy_te_schedule": True, "global_symbol": "tvmgen_default_fused_reshape", "tirx.noalias": True})
        placeholder_25 = T.decl_buffer([864], data=placeholder_24, dtype="float32")
        T_reshape_3 = T.decl_buffer([864], data=T_reshape_2, dtype="float32")
        # body
        for ax0_ax1_fused, ax2, ax3_inner in T.grid(3, 24, 12):
            T_reshape_3[ax0_ax1_fused * 288 + ax2 * 12 + ax3_inner] = placeholder_25[ax0_ax1_fused * 288 + ax2 * 12 + ax3_inner]

    @T.prim_func
    def tvmgen_default_fused_nn_softmax_add(placeholder_26: T.handle, placeholder_27: T.handle, T_add_2: T.handle) -> None:
        # function attr dict
        T.func_attr({"from_legacy_te_schedule": True, "global_symbol": "tvmgen_default_fused_nn_softmax_add", "tirx.noalias": True})
        placeholder_28 = T.decl_buffer([864], data=placeholder_26, dtype="float32")
        placeholder_29 = T.decl_buffer([864], data=placeholder_27, dtype="float32")
        T_add_3 = T.decl_buffer([864], data=T_add_2, dtype="float32")
        # body
        for ax0_ax1_fused_ax2_fused in T.serial(0, 72):
            T_softmax_norm = T.decl_buffer([12], "float32")
            T_softmax_maxelem = T.decl_buffer([1], "float32")
            T_softmax_maxelem[0] = T.float32(-3.4028234663852886e+38)
            for k in T.serial(0, 12):
                T_softmax_maxelem[0] = T.max(T_softmax_maxelem[0], placeholder_28[ax0_ax1_fused_ax2_fused * 12 + k])
            T_softmax_exp= T.decl_buffer([12], "float32")
            for i3 in T.serial(0, 12):
                T_softmax_exp[i3] = T.exp(placeholder_28[ax0_ax1_fused_ax2_fused * 12 + i3] - T_softmax_maxelem[0], dtype="float32")
            T_softmax_expsum = T.decl_buffer([1], "float32")
            T_softmax_expsum[0] = T.float32(0)
            for k in T.serial(0, 12):
                T_softmax_expsum[0] = T_softmax_expsum[0] + T_softmax_exp[k]
            for i3 in T.serial(0, 12):
                T_softmax_norm[i3] = T_softmax_exp[i3] / T_softmax_expsum[0]
            for ax3 in T.serial(0, 12):
                T_add_3[ax0_ax1_fused_ax2_fused * 12 + ax3] = placeholder_29[ax0_ax1_fused_ax2_fused * 12 + ax3] + T_softmax_norm[ax3]

    @T.prim_func
    def run_model(data: T.handle, output: T.handle) -> None:
        # function attr dict
        T.func_attr({"global_symbol": "tvmgen_default_run_model", "runner_function": True})
        data_buffer = T.decl_buffer([864], data=data, dtype="float32", align=16)
        output_buffer = T.decl_buffer([864], data=output, dtype="float32", align=16)
        # body
        sid_11 = T.alloc_buffer([3456], "int8", scope="global.workspace").data
        sid_5 = T.alloc_buffer([3456], "int8", scope="global.workspace").data
        sid_10 = T.alloc_buffer([3456], "int8", scope="global.workspace").data
        sid_6 = T.alloc_buffer([3456], "int8", scope="global.workspace").data
        sid_8 = T.alloc_buffer([3456], "int8", scope="global.workspace").data
        sid_2 = T.alloc_buffer([3456], "int8", scope="global.workspace").data
        sid_7 = T.alloc_buffer([3456], "int8", scope="global.workspace").data
        sid_3 = T.alloc_buffer([3456], "int8", scope="global.workspace").data
        sid_12 = T.alloc_buffer([3456], "int8", scope="global.workspace").data
        sid_4 = T.alloc_buffer([3456], "int8", scope="global.workspace").data
        sid_18 = T.alloc_buffer([3456], "int8", scope="global.workspace").data
        sid_19 = T.alloc_buffer([3456], "int8", scope="global.workspace").data
        sid_20 = T.alloc_buffer([3456], "int8", scope="global.workspace").data

        sid_21 = T.lookup_param("sid_21", dtype="handle")
        sid_22 = T.lookup_param("sid_22", dtype="handle")
        sid_23 = T.lookup_param("sid_23", dtype="handle")

        T.evaluate(T.tvm_call_cpacked("tvmgen_default_fused_layout_transform_1", data_buffer.data, sid_23, dtype="int32"))
        T.evaluate(T.tvm_call_cpacked("tvmgen_default_fused_nn_contrib_conv2d_NCHWc", sid_8, T.lookup_param("p0", dtype="handle"), sid_7, dtype="int32"))
        T.evaluate(T.tvm_call_cpacked("tvmgen_default_fused_layout_transform", sid_7, sid_6, dtype="int32"))
        T.evaluate(T.tvm_call_cpacked("tvmgen_default_fused_reshape_1", data_buffer.data, sid_12, dtype="int32"))
        T.evaluate(T.tvm_call_cpacked("tvmgen_default_fused_nn_contrib_dense_pack_nn_relu", sid_12, T.lookup_param("p1", dtype="handle"), sid_11, dtype="int32"))
        T.evaluate(T.tvm_call_cpacked("tvmgen_default_fused_reshape", sid_11, sid_10, dtype="int32"))
        T.evaluate(T.tvm_call_cpacked("tvmgen_default_fused_nn_softmax_add_add_multiply_add", sid_6, sid_10, T.lookup_param("p2", dtype="handle"), T.lookup_param("p3", dtype="handle"), T.lookup_param("p4", dtype="handle"), sid_5, dtype="int32"))
        T.evaluate(T.tvm_call_cpacked("tvmgen_default_fused_layout_transform_1", sid_5, sid_4, dtype="int32"))
        T.evaluate(T.tvm_call_cpacked("tvmgen_default_fused_nn_contrib_conv2d_NCHWc", sid_4, T.lookup_param("p5", dtype="handle"), sid_3, dtype="int32"))
        T.evaluate(T.tvm_call_cpacked("tvmgen_default_fused_layout_transform", sid_3, sid_2, dtype="int32"))
        T.evaluate(T.tvm_call_cpacked("tvmgen_default_fused_reshape_1", sid_5, sid_20, dtype="int32"))
        T.evaluate(T.tvm_call_cpacked("tvmgen_default_fused_nn_contrib_dense_pack_nn_relu", sid_20, T.lookup_param("p6", dtype="handle"), sid_19, dtype="int32"))
        T.evaluate(T.tvm_call_cpacked("tvmgen_default_fused_reshape", sid_19, sid_18, dtype="int32"))
        T.evaluate(T.tvm_call_cpacked("tvmgen_default_fused_nn_softmax_add", sid_2, sid_18, output_buffer.data, dtype="int32"))
# fmt: on
