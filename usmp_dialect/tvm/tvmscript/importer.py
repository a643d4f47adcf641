"""TVMScript (TVM 0.27 TIR) into the `tir` dialect.

    import_module(tvm.IRModule) -> ModuleOp
    import_tvmscript(text, filename) -> ModuleOp     parsed with TVM's own parser

Every TIR node the dialect covers becomes its op (see `dialects/tir.py`); any other node
is a `TVMScriptError` naming the construct and the source line it came from, never dropped.
A `T.lookup_param("p0")` stays a call (`tir.call_intrin "tirx.lookup_param"`); given the
params' arrays, `lookup_params.import_tvmscript_with_params` makes them constants.
TVM is imported inside these functions only: planning `.mlir` never pays for it.
"""

from __future__ import annotations

import ast
import re
import struct
from collections.abc import Callable, Iterable
from typing import Any

import tvm
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    BoolAttr,
    DictionaryAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    NoneType,
    StringAttr,
    i1,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from usmp_dialect.diagnostics import LocatedError, UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp_records import typed_records
from usmp_dialect.tvm.tvmscript.nodes import BINARY_NODES, COMPARE_NODES, FOR_KIND_BY_TVM, binary_op


class TVMScriptError(LocatedError):
    """A TVMScript input the importer cannot take, at `file:line:col`."""


_THREAD_INDEX = 1
"""TVM's `IterVar.ThreadIndex`, the iter type of a thread-binding loop's IterVar."""


def tvmscript_source(text: str, filename: str) -> str:
    """The one `@I.ir_module` class or `@T.prim_func` of a Python file, as TVM's parser
    takes it: every other top-level statement (imports, which the parser injects itself;
    docstrings; other code) becomes empty lines, so that TVM's line numbers stay the
    file's."""
    try:
        tree = ast.parse(text, filename)
    except SyntaxError as error:
        location = f"{filename}:{error.lineno}:{error.offset or 1}"
        raise TVMScriptError(str(error.msg), location) from None
    definitions = [
        node
        for node in tree.body
        if isinstance(node, ast.ClassDef | ast.FunctionDef) and node.decorator_list
    ]
    if len(definitions) != 1:
        raise TVMScriptError(
            f"expected one @I.ir_module class or @T.prim_func, found {len(definitions)}",
            filename,
        )
    definition = definitions[0]
    first = definition.decorator_list[0].lineno
    lines = text.splitlines()
    kept = lines[first - 1 : definition.end_lineno]
    return "\n" * (first - 1) + "\n".join(kept) + "\n"


_DIAGNOSTIC_LOCATION = re.compile(r"-->\s*(\S+?):(\d+):(\d+)")


def _parse_failure(error: BaseException, filename: str) -> TVMScriptError:
    text = str(error)
    message = next(
        (line.strip().removeprefix("error:").strip() for line in text.splitlines() if line.strip()),
        type(error).__name__,
    )
    if isinstance(error, SyntaxError):
        return TVMScriptError(error.msg, f"{filename}:{error.lineno}:{error.offset or 1}")
    where = _DIAGNOSTIC_LOCATION.search(text)
    location = f"{filename}:{where[2]}:{where[3]}" if where else filename
    return TVMScriptError(message, location)


def parse_tvmscript(text: str, filename: str) -> Any:
    """The `tvm.IRModule` of a TVMScript source (an `@I.ir_module` class, or one
    `@T.prim_func`), or a `TVMScriptError` with TVM's message and the file's line."""
    try:
        parsed = tvm.script.from_source(tvmscript_source(text, filename))
    except (tvm.error.DiagnosticError, SyntaxError) as error:
        raise _parse_failure(error, filename) from None
    if isinstance(parsed, tvm.tirx.PrimFunc):
        name = (
            parsed.attrs["global_symbol"]
            if parsed.attrs and "global_symbol" in parsed.attrs
            else "main"
        )
        parsed = tvm.IRModule({name: parsed})
    if not isinstance(parsed, tvm.IRModule):
        raise TVMScriptError(
            f"expected an @I.ir_module or a @T.prim_func, got {type(parsed).__name__}", filename
        )
    return parsed


def import_tvmscript(text: str, filename: str = "<tvmscript>") -> ModuleOp:
    return import_module(parse_tvmscript(text, filename), filename)


def import_module(mod: Any, filename: str = "<tvmscript>") -> ModuleOp:
    """The `tir` dialect module of a `tvm.IRModule` of PrimFuncs."""
    return _Importer(filename).module(mod)


def _same_float(a: float, b: float) -> bool:
    return struct.pack("<d", a) == struct.pack("<d", b)


class _Importer:
    def __init__(self, filename: str):
        self.filename = filename
        self.values: dict[Any, SSAValue] = {}
        self.block = Block()
        self.span: Any = None
        self.ret_types: dict[str, Attribute | None] = {}

    # ------------------------------------------------------------------ errors

    def error(self, message: str, node: Any = None) -> TVMScriptError:
        span = getattr(node, "span", None) or self.span
        location = self.filename
        if span is not None:
            location = f"{self.filename}:{span.line}:{span.column}"
        return TVMScriptError(message, location)

    def unsupported(self, what: str, node: Any = None) -> TVMScriptError:
        return self.error(f"unsupported TIR construct: {what}", node)

    # ------------------------------------------------------------------ module

    def module(self, mod: Any) -> ModuleOp:
        if mod.attrs is not None and len(mod.attrs):
            raise self.unsupported(f"IRModule attributes {list(mod.attrs.keys())}")
        functions = list(mod.functions_items())
        for gvar, function in functions:
            if not isinstance(function, tvm.tirx.PrimFunc):
                raise self.unsupported(f"{type(function).__name__} '{gvar.name_hint}'", function)
            self.ret_types[gvar.name_hint] = self.type(function.ret_type, function)
        module = ModuleOp([self.prim_func(gvar.name_hint, f) for gvar, f in functions])
        # A planned module emitted as TVMScript carries its records in TVM's untyped form.
        try:
            typed_records(module)
        except UsmpError as error:
            raise self.error(error.message) from error
        return module

    def prim_func(self, name: str, function: Any) -> tir.PrimFuncOp:
        self.span = function.span
        param_types = [self.param_type(p.ty, function) for p in function.params]
        attrs = {} if function.attrs is None else dict(function.attrs.items())
        op = tir.PrimFuncOp(
            name,
            param_types,
            self.ret_types[name],
            {key: self.attribute(value, f"attribute '{key}'") for key, value in attrs.items()},
            param_names=[str(p.name) for p in function.params],
        )
        for param, arg in zip(function.params, op.body.block.args, strict=True):
            self.values[param] = arg
            tir.set_readable_hint(arg, param.name)
        self.block = op.body.block
        self.stmt(function.body)
        return op

    # ------------------------------------------------------------------ types and attributes

    def dtype(self, dtype: Any, node: Any = None) -> Attribute:
        if str(dtype) in ("", "void"):
            return NoneType()  # the PrimType of an intrinsic that gives nothing
        try:
            return tir.dtype_to_type(str(dtype))
        except ValueError as error:
            raise self.unsupported(str(error).removeprefix("unsupported "), node) from None

    def int_dtype(self, dtype: Any, node: Any = None) -> IntegerType:
        t = self.dtype(dtype, node)
        if not isinstance(t, IntegerType):
            raise self.unsupported(f"integer immediate of dtype {dtype}", node)
        return t

    def float_dtype(self, dtype: Any, node: Any = None) -> AnyFloat:
        t = self.dtype(dtype, node)
        if not isinstance(t, AnyFloat):
            raise self.unsupported(f"float immediate of dtype {dtype}", node)
        return t

    def param_type(self, ty: Any, node: Any) -> Attribute:
        t = self.type(ty, node)
        if t is None:
            raise self.unsupported("a void parameter", node)
        return t

    def type(self, ty: Any, node: Any = None) -> Attribute | None:
        if ty is None or ty.is_missing():
            raise self.unsupported("a value of unknown type", node)
        if isinstance(ty, tvm.ir.TupleType) and not len(ty.fields):
            return None  # void
        if isinstance(ty, tvm.tirx.BufferType):
            return self.buffer_type(ty, node)
        if isinstance(ty, tvm.ir.PointerType):
            element = ty.element_type
            if not isinstance(element, tvm.ir.PrimType):
                raise self.unsupported(f"pointer to {element}", node)
            is_void = str(element.dtype) in ("", "void")
            pointee = None if is_void else self.dtype(element.dtype, node)
            return tir.PointerType(pointee, ty.storage_scope)
        if isinstance(ty, tvm.ir.PrimType):
            return self.dtype(ty.dtype, node)
        raise self.unsupported(f"type {ty}", node)

    def constant(self, value: Any, what: str, node: Any) -> int:
        if isinstance(value, int):
            return value
        if not isinstance(value, tvm.tirx.IntImm):
            raise self.unsupported(f"symbolic {what} {value}", node)
        return int(value.value)

    def buffer_type(self, ty: Any, node: Any) -> tir.BufferType:
        if len(ty.allocated_addr):
            raise self.unsupported("buffer with an allocated address", node)
        dims = [self.constant(d, "buffer dimension", node) for d in ty.shape]
        strides = [self.constant(s, "buffer stride", node) for s in ty.strides]
        elem_offset = self.constant(ty.elem_offset, "buffer elem_offset", node)
        index_source = ty.shape[0] if len(ty.shape) else ty.elem_offset
        index_type = self.dtype(index_source.ty.dtype, node)
        assert isinstance(index_type, IntegerType)
        return tir.BufferType(
            dims,
            self.dtype(ty.dtype.dtype, node),
            strides=strides,
            elem_offset=elem_offset,
            scope=ty.storage_scope,
            alignment=int(ty.data_alignment),
            offset_factor=int(ty.offset_factor),
            index_type=index_type,
        )

    def attribute(self, value: Any, what: str) -> Attribute:
        """A TIR attribute or annotation value: bool, int, float, str, arrays, maps."""
        if isinstance(value, bool):
            return BoolAttr(value, i1)
        if isinstance(value, int):
            return IntegerAttr(value, i64)
        if isinstance(value, float):
            return FloatAttr(value, 64)
        if isinstance(value, str):
            return StringAttr(value)
        if isinstance(value, tvm.tirx.IntImm) and str(value.ty.dtype) not in ("int64", "bool"):
            return IntegerAttr(int(value.value), self.int_dtype(value.ty.dtype))
        if isinstance(value, tvm.ir.StringImm):
            raise self.unsupported(f"StringImm in {what}")
        if isinstance(value, tvm.target.Target):
            config = self.attribute(value.export(), what)
            assert isinstance(config, DictionaryAttr)
            return tir.TargetAttr(config)
        if hasattr(value, "items"):
            return DictionaryAttr({str(k): self.attribute(v, what) for k, v in value.items()})
        if isinstance(value, Iterable):
            return ArrayAttr(self.attribute(v, what) for v in value)
        raise self.unsupported(f"{type(value).__name__} value in {what}")

    # ------------------------------------------------------------------ statements

    def add(self, op: Operation) -> Operation:
        self.block.add_op(op)
        return op

    def in_block(self, block: Block, build: Callable[[], None]) -> Block:
        outer, self.block = self.block, block
        try:
            build()
        finally:
            self.block = outer
        return block

    def stmt(self, s: Any) -> None:
        kind = type(s).__name__
        handler = getattr(self, f"stmt_{kind}", None)
        if handler is None:
            raise self.unsupported(f"statement {kind}", s)
        if getattr(s, "span", None) is not None:
            self.span = s.span
        handler(s)

    def stmt_SeqStmt(self, s: Any) -> None:
        for child in s.seq:
            self.stmt(child)

    def stmt_AllocBuffer(self, s: Any) -> None:
        annotations = {k: self.attribute(v, "buffer annotations") for k, v in s.annotations.items()}
        op = tir.AllocBufferOp(self.buffer_type(s.buffer.ty, s), annotations, str(s.buffer.name))
        self.values[s.buffer] = self.add(op).results[0]

    def stmt_DeclBuffer(self, s: Any) -> None:
        if s.data is None:
            raise self.unsupported("decl_buffer without data", s)
        data = self.expr(s.data)
        op = tir.DeclBufferOp(data, self.buffer_type(s.buffer.ty, s), str(s.buffer.name))
        self.values[s.buffer] = self.add(op).results[0]

    def stmt_BufferStore(self, s: Any) -> None:
        if getattr(s, "predicate", None) is not None:
            raise self.unsupported("predicated buffer store", s)
        value = self.expr(s.value)
        indices = [self.expr(i) for i in s.indices]
        self.add(tir.StoreOp(value, self.var(s.buffer), indices))

    def stmt_Evaluate(self, s: Any) -> None:
        value = self.expr(s.value, allow_void=True)
        if value is not None:
            self.add(tir.EvaluateOp(value))

    def stmt_Bind(self, s: Any) -> None:
        op = self.add(tir.BindOp(self.expr(s.value), str(s.var.name)))
        self.values[s.var] = op.results[0]

    def stmt_For(self, s: Any) -> None:
        kind = FOR_KIND_BY_TVM.get(int(s.kind))
        if kind is None:
            raise self.unsupported(f"loop kind {s.kind}", s)
        thread_tag = None
        if s.thread_binding is not None:
            binding = s.thread_binding
            if binding.dom is not None or int(binding.iter_type) != _THREAD_INDEX:
                raise self.unsupported("thread binding with a domain or non-thread iter type", s)
            thread_tag = str(binding.thread_tag)
        min_value = self.expr(s.min)
        extent = self.expr(s.extent)
        step = None if s.step is None else self.expr(s.step)
        annotations = {k: self.attribute(v, "loop annotations") for k, v in s.annotations.items()}
        body = Block(arg_types=[self.dtype(s.loop_var.ty.dtype, s)])
        self.values[s.loop_var] = body.args[0]
        self.in_block(body, lambda: self.stmt(s.body))
        name = str(s.loop_var.name)
        self.add(
            tir.ForOp(min_value, extent, kind, Region(body), step, thread_tag, annotations, name)
        )

    def stmt_IfThenElse(self, s: Any) -> None:
        condition = self.expr(s.condition)
        then_block = self.in_block(Block(), lambda: self.stmt(s.then_case))
        then_block.add_op(scf.YieldOp())
        else_region: Region | None = None
        if s.else_case is not None:
            else_block = self.in_block(Block(), lambda: self.stmt(s.else_case))
            else_block.add_op(scf.YieldOp())
            else_region = Region(else_block)
        self.add(scf.IfOp(condition, [], Region(then_block), else_region))

    def stmt_While(self, s: Any) -> None:
        def condition() -> None:
            self.add(scf.ConditionOp(self.expr(s.condition)))

        before = self.in_block(Block(), condition)
        after = self.in_block(Block(), lambda: self.stmt(s.body))
        after.add_op(scf.YieldOp())
        self.add(scf.WhileOp([], [], Region(before), Region(after)))

    def stmt_AttrStmt(self, s: Any) -> None:
        node_value: SSAValue | None = None
        node_attr: Attribute | None = None
        node = s.node
        if isinstance(node, bool) or node is None:
            raise self.unsupported(f"attr statement on {node!r}", s)
        if isinstance(node, int):
            node_attr = IntegerAttr(node, i64)
        elif isinstance(node, str):
            node_attr = StringAttr(node)
        elif isinstance(node, tvm.ir.Expr):
            node_value = self.expr(node)
        else:
            raise self.unsupported(f"attr statement on a {type(node).__name__}", s)
        value = self.expr(s.value)
        body = self.in_block(Block(), lambda: self.stmt(s.body))
        self.add(tir.AttrOp(str(s.attr_key), value, node_value, node_attr, Region(body)))

    def stmt_AssertStmt(self, s: Any) -> None:
        parts = [str(p.value) if hasattr(p, "value") else str(p) for p in s.message_parts]
        kind = s.error_kind.value if hasattr(s.error_kind, "value") else str(s.error_kind)
        self.add(tir.AssertOp(self.expr(s.condition), kind, parts))

    def stmt_Return(self, s: Any) -> None:
        self.add(tir.ReturnOp(self.expr(s.value)))

    def stmt_Break(self, s: Any) -> None:
        self.add(tir.BreakOp())

    def stmt_Continue(self, s: Any) -> None:
        self.add(tir.ContinueOp())

    # ------------------------------------------------------------------ expressions

    def var(self, v: Any) -> SSAValue:
        value = self.values.get(v)
        if value is None:
            raise self.error(f"use of '{v.name}', which is not defined here", v)
        return value

    def expr(self, e: Any, allow_void: bool = False) -> SSAValue:
        kind = type(e).__name__
        if kind in BINARY_NODES:
            return self.binary(e, kind)
        if kind in COMPARE_NODES:
            return self.compare(e, kind)
        if kind == "Call":
            value = self.call(e)
            if value is None and not allow_void:
                raise self.unsupported("a void call used as a value", e)
            return value  # type: ignore[return-value]
        handler = getattr(self, f"expr_{kind}", None)
        if handler is None:
            raise self.unsupported(f"expression {kind}", e)
        return handler(e)

    def result(self, op: Operation) -> SSAValue:
        return self.add(op).results[0]

    def expr_Var(self, e: Any) -> SSAValue:
        return self.var(e)

    def expr_IntImm(self, e: Any) -> SSAValue:
        t = self.int_dtype(e.ty.dtype, e)
        if tir.is_unsigned_int(t):
            return self.result(tir.ConstOp(int(e.value), t))
        return self.result(arith.ConstantOp(IntegerAttr(int(e.value), t)))

    def expr_FloatImm(self, e: Any) -> SSAValue:
        t = self.float_dtype(e.ty.dtype, e)
        value = float(e.value)
        constant = FloatAttr(value, t)
        if _same_float(constant.value.data, value):
            return self.result(arith.ConstantOp(constant))
        return self.result(tir.ConstOp(value, t))

    def expr_StringImm(self, e: Any) -> SSAValue:
        return self.result(tir.StringOp(str(e.value)))

    def binary(self, e: Any, kind: str) -> SSAValue:
        lhs, rhs = self.expr(e.a), self.expr(e.b)
        int_op, float_op, tir_op = BINARY_NODES[kind]
        if int_op is not None and tir.is_signless_int(lhs.type):
            return self.result(binary_op(int_op, lhs, rhs))
        if float_op is not None and tir.is_float(lhs.type):
            return self.result(binary_op(float_op, lhs, rhs))
        return self.result(binary_op(tir_op, lhs, rhs))

    def compare(self, e: Any, kind: str) -> SSAValue:
        lhs, rhs = self.expr(e.a), self.expr(e.b)
        int_predicate, float_predicate, tir_op = COMPARE_NODES[kind]
        is_bool = tir.scalar_of(lhs.type) == i1
        if tir.is_signless_int(lhs.type) and (not is_bool or kind in ("EQ", "NE")):
            return self.result(arith.CmpiOp(lhs, rhs, int_predicate))
        if tir.is_float(lhs.type):
            return self.result(arith.CmpfOp(lhs, rhs, float_predicate))
        return self.result(binary_op(tir_op, lhs, rhs))

    def expr_Not(self, e: Any) -> SSAValue:
        return self.result(tir.NotOp(self.expr(e.a)))

    def expr_BitwiseNot(self, e: Any) -> SSAValue:
        return self.result(tir.BitwiseNotOp(self.expr(e.a)))

    def expr_Select(self, e: Any) -> SSAValue:
        condition = self.expr(e.condition)
        return self.result(
            arith.SelectOp(condition, self.expr(e.true_value), self.expr(e.false_value))
        )

    def expr_Cast(self, e: Any) -> SSAValue:
        return self.result(tir.CastOp(self.expr(e.value), self.dtype(e.ty.dtype, e)))

    def expr_Ramp(self, e: Any) -> SSAValue:
        lanes = self.constant(e.lanes, "ramp lanes", e)
        return self.result(tir.RampOp(self.expr(e.base), self.expr(e.stride), lanes))

    def expr_Broadcast(self, e: Any) -> SSAValue:
        lanes = self.constant(e.lanes, "broadcast lanes", e)
        return self.result(tir.BroadcastOp(self.expr(e.value), lanes))

    def expr_TensorLoad(self, e: Any) -> SSAValue:
        buffer = self.var(e.source)
        indices = [self.expr(i) for i in e.indices]
        return self.result(tir.LoadOp(buffer, indices, self.dtype(e.ty.dtype, e)))

    def call(self, e: Any) -> SSAValue | None:
        if e.attrs is not None or len(e.ty_args):
            raise self.unsupported("call with attributes or type arguments", e)
        result_type = self.type(e.ty, e)
        if isinstance(e.op, tvm.ir.GlobalVar):
            callee = e.op.name_hint
            if callee not in self.ret_types:
                raise self.error(f"call to unknown function '{callee}'", e)
            args = [self.expr(a) for a in e.args]
            op: Operation = tir.CallOp(callee, args, result_type)
        elif not isinstance(e.op, tvm.ir.Op):
            raise self.unsupported(f"call of a {type(e.op).__name__}", e)
        elif e.op.name == "tirx.buffer_data":
            op = tir.BufferDataOp(self.var(e.args[0]), result_type)  # type: ignore[arg-type]
        elif e.op.name == "tirx.address_of" and type(e.args[0]).__name__ == "TensorLoad":
            load = e.args[0]
            indices = [self.expr(i) for i in load.indices]
            op = tir.AddressOfOp(self.var(load.source), indices, result_type)  # type: ignore[arg-type]
        else:
            args = [self.expr(a) for a in e.args]
            op = tir.CallIntrinOp(str(e.op.name), args, result_type)
        self.add(op)
        return op.results[0] if op.results else None
