"""The style of TVM's own USMP tests (tests/python/unittest/test_tir_usmp_*.py), ported to
TVM 0.27: `T.allocate` became `T.alloc_buffer(...).data`, operators are called with
`T.call_extern`, and constants come from `T.lookup_param` (constants of the entry once
imported with their arrays: `usmp-translate --import-tvmscript legacy_usmp.py --params
p0.npz`, with `np.savez("p0.npz", p0=np.array([3], "int16"))`)."""

from tvm.script import ir as I
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func
    def tvmgen_default_fused_cast_subtract(
        placeholder_2: T.handle, placeholder_3: T.handle, T_subtract: T.handle
    ):
        T.func_attr({"global_symbol": "tvmgen_default_fused_cast_subtract", "tirx.noalias": True})
        placeholder_4 = T.decl_buffer((150528,), "uint8", data=placeholder_2)
        placeholder_5 = T.decl_buffer((1,), "int16", data=placeholder_3)
        T_subtract_1 = T.decl_buffer((150528,), "int16", data=T_subtract)
        for ax0_ax1_fused_1 in T.serial(0, 224):
            for ax2_1, ax3_inner_1 in T.grid(224, 3):
                T_subtract_1[ax0_ax1_fused_1 * 672 + ax2_1 * 3 + ax3_inner_1] = (
                    T.Cast("int16", placeholder_4[ax0_ax1_fused_1 * 672 + ax2_1 * 3 + ax3_inner_1])
                    - placeholder_5[0]
                )

    @T.prim_func
    def tvmgen_default_fused_nn_max_pool2d_cast(placeholder_28: T.handle, T_cast_6: T.handle):
        T.func_attr(
            {"global_symbol": "tvmgen_default_fused_nn_max_pool2d_cast", "tirx.noalias": True}
        )
        placeholder_29 = T.decl_buffer((802816,), "uint8", data=placeholder_28)
        T_cast_7 = T.decl_buffer((177,), "int16", data=T_cast_6)
        tensor_2 = T.alloc_buffer((200704,), "uint8").data
        tensor_3 = T.decl_buffer((200704,), "uint8", data=tensor_2)
        for ax0_ax1_fused_4 in T.serial(0, 56):
            for ax2_4 in T.serial(0, 56):
                for ax3_init in T.serial(0, 64):
                    tensor_3[ax0_ax1_fused_4 * 3584 + ax2_4 * 64 + ax3_init] = T.uint8(0)
                for rv0_rv1_fused_1, ax3_2 in T.grid(9, 64):
                    tensor_3[ax0_ax1_fused_4 * 3584 + ax2_4 * 64 + ax3_2] = T.max(
                        tensor_3[ax0_ax1_fused_4 * 3584 + ax2_4 * 64 + ax3_2],
                        T.if_then_else(
                            ax0_ax1_fused_4 * 2 + rv0_rv1_fused_1 // 3 < 112
                            and ax2_4 * 2 + rv0_rv1_fused_1 % 3 < 112,
                            placeholder_29[
                                ax0_ax1_fused_4 * 14336
                                + rv0_rv1_fused_1 // 3 * 7168
                                + ax2_4 * 128
                                + rv0_rv1_fused_1 % 3 * 64
                                + ax3_2
                            ],
                            T.uint8(0),
                        ),
                    )
        for ax0_ax1_fused_5 in T.serial(0, 56):
            for ax2_5, ax3_3 in T.grid(56, 64):
                T_cast_7[T.min(ax0_ax1_fused_5 * 3584 + ax2_5 * 64 + ax3_3, 176)] = T.Cast(
                    "int16", tensor_3[ax0_ax1_fused_5 * 3584 + ax2_5 * 64 + ax3_3]
                )

    @T.prim_func
    def __tvm_main__(input: T.handle, output: T.handle):
        T.func_attr({"global_symbol": "__tvm_main__", "runner_function": True})
        input_buffer_var = T.decl_buffer((150528,), "uint8", data=input)
        output_buffer_var = T.decl_buffer((177,), "int16", data=output)
        sid_9 = T.alloc_buffer((301056,), "int8").data
        sid_8 = T.alloc_buffer((802816,), "int8").data
        T.evaluate(
            T.call_extern(
                "tvmgen_default_fused_cast_subtract",
                input_buffer_var.data,
                T.lookup_param("p0", dtype="handle"),
                sid_9,
                dtype="int32",
            )
        )
        T.evaluate(
            T.call_extern(
                "tvmgen_default_fused_nn_max_pool2d_cast",
                sid_8,
                output_buffer_var.data,
                dtype="int32",
            )
        )
