# Buffer names as TVM writes them: `_<digits>` suffixes (which xDSL's SSA names strip),
# names that collide once stripped (`T_add_intermediate`, `..._1`, `..._1_2`) and one name
# in two functions (`PaddedInput_7`).
from tvm.script import ir as I
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def pad(x_ptr: T.handle("int8"), y_ptr: T.handle("int8")):
        x = T.decl_buffer((64,), "int8", data=x_ptr)
        y = T.decl_buffer((64,), "int8", data=y_ptr)
        PaddedInput_7 = T.alloc_buffer((80,), "int8")
        for i_1 in range(64):
            PaddedInput_7[i_1 + 8] = x[i_1]
        for i_2 in range(64):
            y[i_2] = PaddedInput_7[i_2 + 8]

    @T.prim_func(private=True)
    def adds(x_ptr: T.handle("int8"), y_ptr: T.handle("int8")):
        x = T.decl_buffer((64,), "int8", data=x_ptr)
        y = T.decl_buffer((64,), "int8", data=y_ptr)
        PaddedInput_7 = T.alloc_buffer((72,), "int8")
        T_softmax_maxelem2 = T.alloc_buffer((2,), "int8")
        T_add_intermediate = T.alloc_buffer((64,), "int8")
        T_add_intermediate_1 = T.alloc_buffer((64,), "int8")
        T_add_intermediate_1_2 = T.alloc_buffer((64,), "int8")
        for i in range(64):
            PaddedInput_7[i] = x[i]
            T_softmax_maxelem2[0] = PaddedInput_7[i]
            T_add_intermediate[i] = T_softmax_maxelem2[0] + T.int8(1)
            T_add_intermediate_1[i] = T_add_intermediate[i] + T.int8(1)
            T_add_intermediate_1_2[i] = T_add_intermediate_1[i] + T.int8(1)
            y[i] = T_add_intermediate_1_2[i]

    @T.prim_func
    def main(input_1: T.Buffer((64,), "int8"), output_0: T.Buffer((64,), "int8")):
        T.func_attr({"global_symbol": "main", "runner_function": True})
        sid_9 = T.alloc_buffer((64,), "int8")
        sid_8 = T.alloc_buffer((64,), "int8")
        Module.pad(input_1.data, sid_9.data)
        Module.adds(sid_9.data, sid_8.data)
        Module.pad(sid_8.data, output_0.data)
