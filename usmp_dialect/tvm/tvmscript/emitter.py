"""The `tir` dialect back to TVM 0.27: `emit_module(ModuleOp) -> tvm.IRModule`, and
TVMScript text (`emit_tvmscript`) via TVM's own printer.

The inverse of `importer.py`: emit(import(m)) is structurally equal to m.
Expression ops are pure, so each becomes its TVM expression where it is defined; the
statement ops of a block become one statement, or a `SeqStmt` of several. TVM is imported
inside these functions only.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Callable
from functools import cache
from typing import Any

import tvm
from tvm import ir, tirx
from xdsl.dialects import arith, scf
from xdsl.dialects.arith import CMPF_COMPARISON_OPERATIONS, CMPI_COMPARISON_OPERATIONS
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    NoneType,
    StringAttr,
    i1,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import (
    CONSTANT_VALUES_ATTR,
    STATE_VALUES_ATTR,
    IOOffsetsAttr,
    NameMapAttr,
    PoolSizesAttr,
    ScheduleAttr,
)
from usmp_dialect.dialects.usmp_records import io_offsets_dictionary
from usmp_dialect.tvm.tvmscript.nodes import (
    LOGICAL_NODE_OF_OP,
    NODE_OF_CMPF,
    NODE_OF_CMPI,
    NODE_OF_OP,
    TVM_OF_FOR_KIND,
)


def emit_module(module: ModuleOp) -> Any:
    """The `tvm.IRModule` of a module of `tir.prim_func`s."""
    return _Emitter(module).module()


def emit_tvmscript(module: ModuleOp) -> str:
    """TVMScript text of the module; a name that TVM's printer would print as a Python
    keyword or literal (`lambda`, `None`, `1st`), or as `range`, which the loops call, is
    given a trailing or leading `_` (the printer replaces other characters itself)."""
    script = _Emitter(module, python_name).module().script()
    return _imports_made_real(_float64_literals_kept(_one_element_data_read_back(script))) + "\n"


_COMMENTED_IMPORT = re.compile(r"^# (from tvm[\w.]* import \w+(?: as \w+)?)$", re.M)


def _imports_made_real(script: str) -> str:
    """TVM's printer comments out the imports its script needs (`# from tvm.script import
    ir as I`); real ones make the file a Python module that runs and lints as it is."""
    return _COMMENTED_IMPORT.sub(r"\1", script)


_ONE_ELEMENT_DATA = re.compile(r"\b([A-Za-z_]\w*)\.source\.data\b")


def _one_element_data_read_back(script: str) -> str:
    """TVM prints the data pointer of a one-element buffer (`tirx.buffer_data`) as
    `x.source.data`, which its parser refuses; `x.data` reads back as that pointer."""
    return _ONE_ELEMENT_DATA.sub(r"\1.data", script)


_FLOAT64_LITERAL = re.compile(r"T\.float64\((-?[0-9.]+(?:e[-+]?[0-9]+)?)\)")
_FLOAT32_MAX = 3.4028234663852886e38


def _float64_literals_kept(script: str) -> str:
    """TVM prints a float64 constant as `T.float64(number)`, but its parser reads the
    number as a float32 literal first and refuses one past float32's range (float64's
    lowest, -1.797e308): those are printed as `T.FloatImm("float64", number)`, which it
    reads back as they were."""

    def kept(match: re.Match[str]) -> str:
        value = float(match[1])
        if abs(value) <= _FLOAT32_MAX:
            return match[0]
        return f'T.FloatImm("float64", {value!r})'

    return _FLOAT64_LITERAL.sub(kept, script)


_PRINTER_BUILTINS = frozenset({"range"})


def python_name(name: str) -> str:
    if keyword.iskeyword(name) or name in _PRINTER_BUILTINS:
        return f"{name}_"
    if not name or name[0].isdigit():
        return f"_{name}"
    return name


def type_to_tvm(t: Attribute | None, op: Operation | None = None) -> Any:
    """The TVM type of a `tir` dialect type (None is void, an empty tuple)."""
    if t is None:
        return ir.TupleType([])
    if isinstance(t, NoneType):
        return ir.PrimType("void")
    if isinstance(t, tir.PointerType):
        pointee = "void" if t.pointee is None else tir.type_to_dtype(t.pointee)
        return ir.PointerType(ir.PrimType(pointee), t.scope.data)
    try:
        return ir.PrimType(tir.type_to_dtype(t))
    except ValueError as error:
        raise UsmpError(str(error), op) from None


def make_buffer(t: tir.BufferType, name: str) -> Any:
    """A TVM buffer Var of this type."""
    index = tir.type_to_dtype(t.index_type)
    return tirx.decl_buffer(
        [tirx.IntImm(index, d) for d in t.dims],
        tir.type_to_dtype(t.element_type),
        name,
        strides=[tirx.IntImm(index, s) for s in t.stride_values] or None,
        elem_offset=tirx.IntImm(index, t.elem_offset.data),
        scope=t.scope.data,
        data_alignment=t.alignment.data,
        offset_factor=t.offset_factor.data,
    )


def attribute_to_tvm(attr: Attribute, op: Operation) -> Any:
    if isinstance(attr, IntegerAttr):
        value = attr.value.data
        if attr.type == i1:
            return bool(value)
        return value if attr.type == i64 else tirx.IntImm(tir.type_to_dtype(attr.type), value)
    if isinstance(attr, FloatAttr):
        return attr.value.data
    if isinstance(attr, StringAttr):
        return attr.data
    if isinstance(attr, ArrayAttr):
        return [attribute_to_tvm(a, op) for a in attr.data]
    if isinstance(attr, DictionaryAttr):
        return {k: attribute_to_tvm(v, op) for k, v in attr.data.items()}
    if isinstance(attr, IOOffsetsAttr):
        return attribute_to_tvm(io_offsets_dictionary(attr), op)
    if isinstance(attr, ScheduleAttr):
        return attr.text
    if isinstance(attr, PoolSizesAttr):
        return attr.by_pool
    if isinstance(attr, NameMapAttr):
        return attr.pairs
    if isinstance(attr, tir.TargetAttr):
        return tvm.target.Target(attribute_to_tvm(attr.config, op))
    raise UsmpError(f"attribute {attr} has no TIR equivalent", op)


def _buffer_name(op: tir.AllocBufferOp | tir.DeclBufferOp) -> str:
    return "buffer" if op.buffer_name is None else op.buffer_name.data


def _var_name(op: tir.BindOp | tir.ForOp, fallback: str) -> str:
    return fallback if op.var_name is None else op.var_name.data


_READS_AT_MOST = 2
"""TVM's `CallEffectKind` up to `kReadState` (annotation, pure, reads state): a call of
such an op writes nothing."""


@cache
def _intrinsic_may_write(name: str) -> bool:
    kind = ir.Op.get(name).get_attr("TCallEffectKind") if name in _tvm_op_names() else None
    return kind is None or int(kind) > _READS_AT_MOST


def _writes_memory(op: Operation) -> bool:
    """Whether `op`, or an op nested in it, may write a buffer: a store, a call of a
    function (which may write through any pointer it is given), or an intrinsic TVM does
    not declare pure or read-only. Planned buffers share pools, so a store to another
    buffer may write the bytes a load read."""
    return any(
        isinstance(inner, tir.StoreOp | tir.CallOp)
        or (isinstance(inner, tir.CallIntrinOp) and _intrinsic_may_write(inner.op_name.data))
        for inner in op.walk()
    )


def _memory_written_before_a_use(load: tir.LoadOp) -> bool:
    """Whether memory may be written between `load` and one of its uses (those nested in
    an op of `load`'s block counting as that op)."""
    block = load.parent_block()
    assert block is not None
    anchors = {block.find_ancestor_op_in_block(use.operation) for use in load.result.uses}
    if any(anchor.regions and _writes_memory(anchor) for anchor in anchors if anchor):
        return True
    unseen = len(anchors - {None})
    op = load.next_op
    while op is not None and unseen:
        if op in anchors:
            unseen -= 1
        # A use that writes (`tir.store %a, ...`) writes after reading: only for the uses
        # after it does the write count.
        if unseen and _writes_memory(op):
            return True
        op = op.next_op
    return False


class _Emitter:
    def __init__(self, module: ModuleOp, rename: Callable[[str], str] = str):
        self.rename = rename

        self.module_op = module
        self.functions = [op for op in module.ops if isinstance(op, tir.PrimFuncOp)]
        for op in module.ops:
            if not isinstance(op, tir.PrimFuncOp):
                raise UsmpError(f"'{op.name}' has no TVMScript equivalent", op)
        self.gvars = {
            f.sym_name.data: ir.GlobalVar(rename(f.sym_name.data)) for f in self.functions
        }
        self.ret_types = {f.sym_name.data: type_to_tvm(f.ret_type, f) for f in self.functions}
        self.values: dict[SSAValue, Any] = {}

    def module(self) -> Any:
        return tvm.IRModule(
            {self.gvars[f.sym_name.data]: self.prim_func(f) for f in self.functions}
        )

    def prim_func(self, op: tir.PrimFuncOp) -> Any:
        params = [
            self.define_var(arg, name or f"arg{i}")
            for i, (arg, name) in enumerate(zip(op.body.block.args, op.param_names(), strict=True))
        ]
        # The constants' and the state's values are bytes for the pools, not TIR.
        attrs = {
            key: attribute_to_tvm(value, op)
            for key, value in op.attributes.items()
            if key not in (CONSTANT_VALUES_ATTR, STATE_VALUES_ATTR)
        }
        return tirx.PrimFunc(
            params,
            self.block(op.body.block),
            ret_type=self.ret_types[op.sym_name.data],
            attrs=tvm_attrs(attrs),
        )

    def define_var(self, value: SSAValue, name: str) -> Any:
        """The TVM var of `value`, named `name` (TVM's printer makes names unique)."""
        name = self.rename(name)
        if isinstance(value.type, tir.BufferType):
            var = make_buffer(value.type, name)
        else:
            var = ir.Var(name, type_to_tvm(value.type))
        self.values[value] = var
        return var

    # ------------------------------------------------------------------ statements

    def block(self, block: Block) -> Any:
        stmts = [s for op in block.ops if (s := self.op(op)) is not None]
        if not stmts:
            return tirx.Evaluate(tirx.IntImm("int32", 0))
        return stmts[0] if len(stmts) == 1 else tirx.SeqStmt(stmts)

    def op(self, op: Operation) -> Any:
        """The statement of a statement op; None for an expression op (recorded)."""
        match op:
            case tir.AllocBufferOp():
                buffer = self.define_var(op.buffer, _buffer_name(op))
                annotations = {k: attribute_to_tvm(v, op) for k, v in op.annotations.data.items()}
                return tirx.AllocBuffer(buffer, annotations)
            case tir.DeclBufferOp():
                data = self.value(op.data)
                return tirx.DeclBuffer(self.define_var(op.buffer, _buffer_name(op)), data=data)
            case tir.StoreOp():
                indices = [self.value(i) for i in op.indices]
                return tirx.BufferStore(self.value(op.buffer), self.value(op.value), indices)
            case tir.EvaluateOp():
                return tirx.Evaluate(self.value(op.value))
            case tir.CallOp() | tir.CallIntrinOp() if op.result is None:
                return tirx.Evaluate(self.call(op))
            case tir.BindOp():
                value = self.value(op.value)
                var = ir.Var(self.rename(_var_name(op, "v")), type_to_tvm(op.var.type, op))
                self.values[op.var] = var
                return tirx.Bind(var, value)
            case tir.ForOp():
                return self.for_loop(op)
            case scf.IfOp():
                else_case = self.block(op.false_region.block) if op.false_region.blocks else None
                return tirx.IfThenElse(
                    self.value(op.cond), self.block(op.true_region.block), else_case
                )
            case scf.WhileOp():
                return self.while_loop(op)
            case tir.AttrOp():
                if op.node is not None:
                    node = self.value(op.node)
                else:
                    assert op.node_attr is not None, "the verifier requires a node or node_attr"
                    node = attribute_to_tvm(op.node_attr, op)
                value = self.value(op.value)
                return tirx.AttrStmt(node, op.key.data, value, self.block(op.body.block))
            case tir.AssertOp():
                # The Python signature says (kind, condition, ...); the FFI constructor
                # it forwards to takes the condition first.
                return tirx.AssertStmt(
                    self.value(op.condition),
                    ir.StringImm(op.error_kind.data),
                    [ir.StringImm(p.data) for p in op.message_parts.data],
                )
            case tir.ReturnOp():
                return tirx.Return(self.value(op.value))
            case tir.BreakOp():
                return tirx.Break()
            case tir.ContinueOp():
                return tirx.Continue()
            case scf.YieldOp() | scf.ConditionOp():
                return None
            case tir.LoadOp() if _memory_written_before_a_use(op):
                # TIR rebuilds an expression where it is used: read there, the load would
                # see the write, so its value is bound where the load stands.
                var = ir.Var(self.rename(op.result.name_hint or "v"), type_to_tvm(op.result.type))
                self.values[op.result] = var
                return tirx.Bind(var, self.expr(op))
        self.values[self.single_result(op)] = self.expr(op)
        return None

    def single_result(self, op: Operation) -> SSAValue:
        if len(op.results) != 1:
            raise UsmpError(f"'{op.name}' has no TIR equivalent", op)
        return op.results[0]

    def for_loop(self, op: tir.ForOp) -> Any:
        loop_var = self.define_var(op.loop_var, _var_name(op, "i"))
        thread_binding = None
        if op.thread_tag is not None:
            iter_var = ir.Var("iter", loop_var.ty)
            thread_binding = tirx.IterVar(
                None, iter_var, tirx.IterVar.ThreadIndex, op.thread_tag.data
            )
        annotations = {k: attribute_to_tvm(v, op) for k, v in op.annotations.data.items()}
        return tirx.For(
            loop_var,
            self.value(op.min),
            self.value(op.extent),
            tirx.ForKind(TVM_OF_FOR_KIND[op.kind.data]),
            self.block(op.body.block),
            thread_binding=thread_binding,
            annotations=annotations,
            step=None if op.step is None else self.value(op.step),
        )

    def while_loop(self, op: scf.WhileOp) -> Any:
        if op.arguments or op.results:
            raise UsmpError("a TIR while loop carries no values", op)
        before = op.before_region.block
        for inner in before.ops:
            self.op(inner)
        condition = before.last_op
        assert isinstance(condition, scf.ConditionOp)
        return tirx.While(self.value(condition.condition), self.block(op.after_region.block))

    # ------------------------------------------------------------------ expressions

    def value(self, value: SSAValue) -> Any:
        return self.values[value]

    def expr(self, op: Operation) -> Any:
        node_class = NODE_OF_OP.get(type(op))
        if node_class is None and type(op) in LOGICAL_NODE_OF_OP:
            logical, bitwise = LOGICAL_NODE_OF_OP[type(op)]
            node_class = logical if tir.scalar_of(op.results[0].type) == tir.i1 else bitwise
        if node_class is not None:
            lhs, rhs = (self.value(v) for v in op.operands)
            return getattr(tirx, node_class)(lhs, rhs)
        match op:
            case arith.ConstantOp():
                return self.constant(op)
            case tir.ConstOp():
                dtype = tir.type_to_dtype(op.result.type)
                if isinstance(op.number, float):
                    return tirx.FloatImm(dtype, op.number)
                return tirx.IntImm(dtype, op.number)
            case arith.CmpiOp() | arith.CmpfOp():
                names = NODE_OF_CMPI if isinstance(op, arith.CmpiOp) else NODE_OF_CMPF
                predicate = op.predicate.value.data
                name = self.predicate_name(op, predicate)
                if name not in names:
                    raise UsmpError(f"comparison predicate '{name}' has no TIR equivalent", op)
                return getattr(tirx, names[name])(self.value(op.lhs), self.value(op.rhs))
            case arith.SelectOp():
                return tirx.Select(self.value(op.cond), self.value(op.lhs), self.value(op.rhs))
            case tir.NotOp():
                return tirx.Not(self.value(op.value))
            case tir.BitwiseNotOp():
                return tirx.BitwiseNot(self.value(op.value))
            case tir.CastOp():
                return tirx.Cast(tir.type_to_dtype(op.result.type), self.value(op.value))
            case tir.RampOp():
                return tirx.Ramp(
                    self.value(op.base), self.value(op.stride), tir.lanes_of(op.result.type)
                )
            case tir.BroadcastOp():
                return tirx.Broadcast(self.value(op.value), tir.lanes_of(op.result.type))
            case tir.StringOp():
                return ir.StringImm(op.value.data)
            case tir.LoadOp():
                return self.load(op.buffer, op.indices)
            case tir.BufferDataOp():
                return ir.Call(
                    ir.Op.get("tirx.buffer_data"),
                    [self.value(op.buffer)],
                    ret_ty=type_to_tvm(op.data.type, op),
                )
            case tir.AddressOfOp():
                load = self.load(op.buffer, op.indices)
                return ir.Call(
                    ir.Op.get("tirx.address_of"), [load], ret_ty=type_to_tvm(op.result.type, op)
                )
            case tir.CallOp() | tir.CallIntrinOp():
                return self.call(op)
        raise UsmpError(f"'{op.name}' has no TIR equivalent", op)

    @staticmethod
    def predicate_name(op: arith.CmpiOp | arith.CmpfOp, predicate: int) -> str:
        names = (
            CMPI_COMPARISON_OPERATIONS
            if isinstance(op, arith.CmpiOp)
            else CMPF_COMPARISON_OPERATIONS
        )
        return names[predicate]

    def constant(self, op: arith.ConstantOp) -> Any:
        value = op.value
        dtype = tir.type_to_dtype(op.result.type)
        if isinstance(value, IntegerAttr):
            # xDSL reads a signless i1 as signed: true is -1 there, 1 in TIR.
            return tirx.IntImm(
                dtype, int(value.value.data != 0) if dtype == "bool" else value.value.data
            )
        if isinstance(value, FloatAttr):
            return tirx.FloatImm(dtype, value.value.data)
        raise UsmpError(f"constant {value} has no TIR equivalent", op)

    def load(self, buffer: SSAValue, indices: Any) -> Any:
        return tirx.BufferLoad(self.value(buffer), [self.value(i) for i in indices])

    def call(self, op: tir.CallOp | tir.CallIntrinOp) -> Any:
        args = [self.value(a) for a in op.args]
        if isinstance(op, tir.CallOp):
            callee = op.callee.root_reference.data
            return ir.Call(self.gvars[callee], args, ret_ty=self.ret_types[callee])
        ret_ty = type_to_tvm(None if op.result is None else op.result.type, op)
        if op.op_name.data not in _tvm_op_names():
            raise UsmpError(f"TVM has no intrinsic '{op.op_name.data}'", op)
        return ir.Call(ir.Op.get(op.op_name.data), args, ret_ty=ret_ty)


@cache
def _tvm_op_names() -> frozenset[str]:
    """The intrinsics TVM registers: `ir.Op.get` of another name fails inside TVM's C++."""
    return frozenset(ir.Op.list_op_names())


def tvm_attrs(attrs: dict[str, Any]) -> Any:
    return tvm.ir.make_node("ir.DictAttrs", **attrs) if attrs else None
