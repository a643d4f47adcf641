"""The `tir` dialect: TVM 0.27 TIR (`tvm.tirx`) as xDSL ops.

```mlir
tir.prim_func @add(%a: !tir.ptr<f32> {tir.name = "a"},
                   %out: !tir.buffer<4xf32> {tir.name = "out_1"})
    attributes {"tirx.noalias" = true} {
  %a_buf = tir.decl_buffer "a_buf" %a : !tir.ptr<f32> -> !tir.buffer<4xf32>
  %ws = tir.alloc_buffer "ws" : !tir.buffer<4xf32, scope "local">
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  tir.for %i "i" = %c0 extent %c4 parallel : i32 {
    %x = tir.load %a_buf[%i] : f32
    %y = arith.addf %x, %x : f32
    tir.store %y, %out[%i]
  }
}
```

A PrimFunc is a symbol whose entry block arguments are its params (buffers, pointers,
scalars) and whose discardable attributes are its TIR attributes. A TIR var's name is an
attribute, as MLIR keeps names in `arg_attrs` and `sym_name`: a param's `tir.name`, the
`name` of a buffer, bind or loop; SSA names only help reading (see `set_readable_hint`).
Statements are ops in program order; an expression is a tree of pure ops just before the
statement that uses it. TIR vars are SSA values: function params and loop vars are block
arguments, `Bind` is `tir.bind`, buffers are the results of `tir.alloc_buffer` /
`tir.decl_buffer`.

What builtin, arith and scf say exactly as TIR does is theirs: constants and arithmetic
on signed integers, bools and floats (`arith`), `IfThenElse` (`scf.if`) and `While`
(`scf.while`, the condition in its `before` region). The rest is `tir.*`: unsigned
arithmetic, floor div/mod, float min/max, casts, vectors, buffers, calls, loops, attrs.
TIR dtypes are builtin types: `int32` is `i32`, `uint8` is `ui8`, `bool` is `i1`,
`float32x4` is `vector<4xf32>`.
"""

from __future__ import annotations

import functools
import re
import struct
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import scf
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    BFloat16Type,
    DictionaryAttr,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    FunctionType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    NoneType,
    Signedness,
    StringAttr,
    SymbolRefAttr,
    VectorType,
    i1,
    i32,
)
from xdsl.dialects.utils import parse_func_op_like, print_func_op_like
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AnyAttr,
    BaseAttr,
    IRDLOperation,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    TypeDirective,
    irdl_custom_directive,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    HasAncestor,
    HasParent,
    IsolatedFromAbove,
    MemoryAllocEffect,
    MemoryReadEffect,
    MemoryWriteEffect,
    NoMemoryEffect,
    NoTerminator,
    Pure,
    RecursiveMemoryEffect,
    SymbolOpInterface,
    SymbolTable,
    SymbolUserOpInterface,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from usmp_dialect.xdsl_compat import current_token

# --------------------------------------------------------------------------- dtypes

_FLOAT_TYPES: dict[str, Attribute] = {
    "float16": Float16Type(),
    "float32": Float32Type(),
    "float64": Float64Type(),
    "bfloat16": BFloat16Type(),
}
"""In the order of TVM's `ForKind` enum."""


def is_tir_scalar(t: Attribute) -> bool:
    if isinstance(t, IntegerType):
        return t.signedness.data != Signedness.SIGNED
    return any(t == f for f in _FLOAT_TYPES.values())


def is_tir_value_type(t: Attribute) -> bool:
    """A TIR PrimType: a scalar or a fixed-length vector of one, or a handle."""
    if isinstance(t, VectorType):
        return t.get_num_dims() == 1 and is_tir_scalar(t.element_type)
    return is_tir_scalar(t) or isinstance(t, HandleType)


def scalar_of(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, VectorType) else t


def lanes_of(t: Attribute) -> int:
    return t.get_shape()[0] if isinstance(t, VectorType) else 1


def with_lanes(scalar: Attribute, lanes: int) -> Attribute:
    return scalar if lanes == 1 else VectorType(scalar, [lanes])


def is_signless_int(t: Attribute) -> bool:
    s = scalar_of(t)
    return isinstance(s, IntegerType) and s.signedness.data == Signedness.SIGNLESS


def is_unsigned_int(t: Attribute) -> bool:
    s = scalar_of(t)
    return isinstance(s, IntegerType) and s.signedness.data == Signedness.UNSIGNED


def is_float(t: Attribute) -> bool:
    return any(scalar_of(t) == f for f in _FLOAT_TYPES.values())


@functools.cache  # a type is immutable; an importer asks for the same few again and again
def dtype_to_type(dtype: str) -> Attribute:
    """A TVM dtype string (`int32`, `uint8x4`, `bool`, `handle`) as a builtin type."""
    base, lanes = dtype, 1
    if "x" in dtype:
        base, _, lanes_text = dtype.rpartition("x")
        if not lanes_text.isdigit():
            raise ValueError(f"unsupported TIR dtype '{dtype}'")
        lanes = int(lanes_text)
    if base == "bool":
        scalar: Attribute = i1
    elif base == "handle" and lanes == 1:
        return HandleType()
    elif base in _FLOAT_TYPES:
        scalar = _FLOAT_TYPES[base]
    elif base.startswith("uint") and base[4:].isdigit():
        scalar = IntegerType(int(base[4:]), Signedness.UNSIGNED)
    elif base.startswith("int") and base[3:].isdigit():
        scalar = IntegerType(int(base[3:]))
    else:
        raise ValueError(f"unsupported TIR dtype '{dtype}'")
    return with_lanes(scalar, lanes)


def type_to_dtype(t: Attribute) -> str:
    """The inverse of `dtype_to_type`."""
    if isinstance(t, HandleType):
        return "handle"
    lanes = lanes_of(t)
    s = scalar_of(t)
    suffix = "" if lanes == 1 else f"x{lanes}"
    for name, f in _FLOAT_TYPES.items():
        if s == f:
            return name + suffix
    if isinstance(s, IntegerType) and s.signedness.data != Signedness.SIGNED:
        width = s.width.data
        if width == 1:
            return "bool" + suffix
        prefix = "uint" if s.signedness.data == Signedness.UNSIGNED else "int"
        return f"{prefix}{width}{suffix}"
    raise ValueError(f"type {t} is not a TIR dtype")


def element_bytes(t: Attribute) -> int:
    """Bytes one element of this dtype occupies in a buffer (a bool takes a byte)."""
    s = scalar_of(t)
    if isinstance(s, IntegerType):
        width = s.width.data
    elif isinstance(s, AnyFloat):
        width = s.bitwidth
    else:
        raise ValueError(f"type {t} is not a TIR dtype")
    return lanes_of(t) * max(1, (width + 7) // 8)


# --------------------------------------------------------------------------- types


@irdl_attr_definition
class HandleType(ParametrizedAttribute, TypeAttribute):
    """TIR's opaque `handle` dtype (a `PrimType("handle")`, not a typed pointer)."""

    name = "tir.handle"


@irdl_attr_definition
class StringType(ParametrizedAttribute, TypeAttribute):
    """The type of a `StringImm` argument (extern function names, messages)."""

    name = "tir.string"


@irdl_attr_definition
class PointerType(ParametrizedAttribute, TypeAttribute):
    """`T.handle("float32", "global")`: a pointer to elements in a storage scope.

    Printed `!tir.ptr<f32>`, `!tir.ptr<void>` for an untyped `T.handle`, with
    `, "scope"` when the scope is not `global`.
    """

    name = "tir.ptr"

    element_type: Attribute
    """A TIR dtype, or `none` for `void`."""
    scope: StringAttr

    def __init__(self, element_type: Attribute | None, scope: str = "global"):
        super().__init__(NoneType() if element_type is None else element_type, StringAttr(scope))

    @property
    def pointee(self) -> Attribute | None:
        return None if self.is_void else self.element_type

    @property
    def is_void(self) -> bool:
        return isinstance(self.element_type, NoneType)

    def verify(self) -> None:
        if not self.is_void and not is_tir_value_type(self.element_type):
            raise VerifyException(f"pointer element {self.element_type} is not a TIR dtype")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        if parser.parse_optional_keyword("void") is not None:
            element: Attribute = NoneType()
        else:
            element = parser.parse_type()
        scope = "global"
        if parser.parse_optional_punctuation(",") is not None:
            scope = parser.parse_str_literal()
        parser.parse_punctuation(">")
        return (element, StringAttr(scope))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        if self.is_void:
            printer.print_string("void")
        else:
            printer.print_attribute(self.element_type)
        if self.scope.data != "global":
            printer.print_string(", ")
            printer.print_string_literal(self.scope.data)
        printer.print_string(">")


GLOBAL_SYMBOL_ATTR = "global_symbol"
"""The PrimFunc attribute naming the function as the compiled module exports it."""

TARGET_ATTR = "target"
"""The PrimFunc attribute TVM keeps a function's target in (`tvm::attr::kTarget`)."""

KERNEL_ATTR = "usmp.kernel"
"""The PrimFunc attribute saying its body is one hand-written C kernel's operator (a JSON
object: the kernel's kind, window, quantization, operands); a pass that changes what
the body computes must drop it, or, for a band of output rows of a kind in
`BAND_KERNELS`, say so in its `band` (`tir-band-stages`)."""
BAND_KERNELS = ("conv2d", "depthwise_conv2d")
"""The kernels of `KERNEL_ATTR` that compute a range of output rows, their input and
output in rolling buffers (`band`: the params `rows` [row_begin, row_end], `in_rows` and
`out_rows`, a buffer's rows, 0 for the whole tensor's)."""


@irdl_attr_definition
class TargetAttr(ParametrizedAttribute):
    """A `tvm.target.Target`, as `T.func_attr({"target": T.target({"kind": "c"})})` gives
    a PrimFunc one: its configuration as `Target.export()` writes it (kind, keys, tag, its
    options, a `host` target's configuration), from which TVM builds it again.

    `#tir.target<{kind = "c", tag = "", keys = ["cpu"]}>`
    """

    name = "tir.target"

    config: DictionaryAttr

    def __init__(self, config: DictionaryAttr):
        super().__init__(config)

    @property
    def kind(self) -> str:
        kind = self.config.data["kind"]
        assert isinstance(kind, StringAttr)
        return kind.data

    def verify(self) -> None:
        kind = self.config.data.get("kind")
        if not isinstance(kind, StringAttr) or not kind.data:
            raise VerifyException("a target's configuration needs a 'kind' string")


_BUFFER_DEFAULTS: dict[str, Attribute] = {
    "scope": StringAttr("global"),
    "align": IntAttr(64),
    "offset_factor": IntAttr(1),
    "elem_offset": IntAttr(0),
}


@irdl_attr_definition
class BufferType(ParametrizedAttribute, TypeAttribute):
    """A TIR buffer with a constant shape: `!tir.buffer<4x8xf32>`.

    Optional, after the shape, when not the default: `strides [8, 1]`, `elem_offset N`
    (elements), `scope "local"` (global), `align N` (bytes, 64), `offset_factor N` (1),
    `index i64` (the dtype of the shape's integers, i32).
    """

    name = "tir.buffer"

    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    strides: ArrayAttr[IntAttr]
    elem_offset: IntAttr
    scope: StringAttr
    alignment: IntAttr
    offset_factor: IntAttr
    index_type: IntegerType

    def __init__(
        self,
        shape: Sequence[int],
        element_type: Attribute,
        *,
        strides: Sequence[int] = (),
        elem_offset: int = 0,
        scope: str = "global",
        alignment: int = 64,
        offset_factor: int = 1,
        index_type: IntegerType = i32,
    ):
        super().__init__(
            ArrayAttr(IntAttr(d) for d in shape),
            element_type,
            ArrayAttr(IntAttr(s) for s in strides),
            IntAttr(elem_offset),
            StringAttr(scope),
            IntAttr(alignment),
            IntAttr(offset_factor),
            index_type,
        )

    @property
    def dims(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape.data)

    @property
    def stride_values(self) -> tuple[int, ...]:
        return tuple(s.data for s in self.strides.data)

    def size_in_bytes(self) -> int:
        """Bytes from the buffer's data pointer to one past its last element."""
        dims = self.dims
        if any(d == 0 for d in dims):
            return 0
        strides = self.stride_values
        if strides:
            last = sum((d - 1) * s for d, s in zip(dims, strides, strict=True))
        else:
            last = 1
            for d in dims:
                last *= d
            last -= 1
        return (self.elem_offset.data + last + 1) * element_bytes(self.element_type)

    def verify(self) -> None:
        if not is_tir_value_type(self.element_type) or isinstance(self.element_type, HandleType):
            raise VerifyException(f"buffer element {self.element_type} is not a TIR dtype")
        if any(d < 0 for d in self.dims):
            raise VerifyException("buffer dimensions must not be negative")
        if self.strides.data and len(self.strides.data) != len(self.shape.data):
            raise VerifyException(
                f"buffer has {len(self.strides.data)} strides for {len(self.shape.data)} dimensions"
            )
        if self.elem_offset.data < 0:
            raise VerifyException("buffer elem_offset must not be negative")
        align = self.alignment.data
        if align <= 0 or align & (align - 1):
            raise VerifyException(f"buffer alignment must be a power of two, got {align}")
        if self.offset_factor.data < 0:
            raise VerifyException("buffer offset_factor must not be negative")
        if self.index_type.signedness.data != Signedness.SIGNLESS:
            raise VerifyException("buffer index type must be a signless integer")
        # TVM refuses an index its index type cannot hold (an IntImm out of range).
        bits = self.index_type.bitwidth
        for what, values in (("dimension", self.dims), ("stride", self.stride_values)):
            for value in values:
                if value >= 2 ** (bits - 1):
                    raise VerifyException(
                        f"buffer {what} {value} does not fit its index type i{bits}; "
                        "write the type with `index i64`"
                    )
        if self.elem_offset.data >= 2 ** (bits - 1):
            raise VerifyException(
                f"buffer elem_offset {self.elem_offset.data} does not fit its index type i{bits}"
            )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        shape, element = parser.parse_ranked_shape()
        options: dict[str, Attribute] = {}
        while parser.parse_optional_punctuation(",") is not None:
            pos = parser.pos
            key = parser.parse_identifier()
            if key in options:
                parser.raise_error(f"buffer option '{key}' given twice", pos, parser.pos)
            if key == "strides":
                strides = parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
                )
                options[key] = ArrayAttr(IntAttr(s) for s in strides)
            elif key == "scope":
                options[key] = StringAttr(parser.parse_str_literal())
            elif key in ("elem_offset", "align", "offset_factor"):
                options[key] = IntAttr(parser.parse_integer(allow_boolean=False))
            elif key == "index":
                options[key] = parser.parse_type()
            else:
                parser.raise_error(f"unknown buffer option '{key}'", pos, parser.pos)
        parser.parse_punctuation(">")
        return (
            ArrayAttr(IntAttr(d) for d in shape),
            element,
            options.get("strides", ArrayAttr(())),
            options.get("elem_offset", _BUFFER_DEFAULTS["elem_offset"]),
            options.get("scope", _BUFFER_DEFAULTS["scope"]),
            options.get("align", _BUFFER_DEFAULTS["align"]),
            options.get("offset_factor", _BUFFER_DEFAULTS["offset_factor"]),
            options.get("index", i32),
        )

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        for d in self.dims:
            printer.print_string(f"{d}x")
        printer.print_attribute(self.element_type)
        if self.strides.data:
            printer.print_string(f", strides [{', '.join(map(str, self.stride_values))}]")
        values: dict[str, IntAttr | StringAttr] = {
            "elem_offset": self.elem_offset,
            "scope": self.scope,
            "align": self.alignment,
            "offset_factor": self.offset_factor,
        }
        for key, value in values.items():
            if value != _BUFFER_DEFAULTS[key]:
                shown = f'"{value.data}"' if isinstance(value, StringAttr) else str(value.data)
                printer.print_string(f", {key} {shown}")
        if self.index_type != i32:
            printer.print_string(", index ")
            printer.print_attribute(self.index_type)
        printer.print_string(">")


def is_tir_param_type(t: Attribute) -> bool:
    return isinstance(t, BufferType | PointerType) or is_tir_value_type(t)


# --------------------------------------------------------------------------- helpers


def _resolve_defined(parser: Parser, operand: UnresolvedOperand) -> SSAValue:
    """TIR regions are structured, so an operand whose type the syntax leaves out
    (`tir.load %x[%i]`) is always defined before its use, and its definition gives its type."""
    defined = parser.ssa_values.get(operand.operand_name)
    if defined is None:
        parser.raise_error("SSA value used before assignment", operand.span)
    if operand.index >= len(defined):
        parser.raise_error(
            f"SSA value tuple index out of bounds. Tuple is of size {len(defined)} but tried "
            f"to access element {operand.index}.",
            operand.span,
        )
    return parser.resolve_operand(operand, defined[operand.index].type)


def _parse_defined_operand(parser: Parser) -> SSAValue:
    return _resolve_defined(parser, parser.parse_unresolved_operand())


def _parse_indices(parser: Parser) -> list[SSAValue]:
    return parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: _parse_defined_operand(parser)
    )


def _print_indices(printer: Printer, buffer: SSAValue, indices: Sequence[SSAValue]) -> None:
    printer.print_operand(buffer)
    printer.print_string("[")
    printer.print_list(indices, printer.print_operand)
    printer.print_string("]")


def _buffer_type(value: SSAValue, what: str) -> BufferType:
    if not isinstance(value.type, BufferType):
        raise VerifyException(f"{what} must be a !tir.buffer, got {value.type}")
    return value.type


def _verify_indices(buffer: BufferType, indices: Sequence[SSAValue]) -> int:
    """Checks the index count and types; returns the lanes the indices address."""
    if len(indices) != len(buffer.shape.data):
        raise VerifyException(
            f"{len(indices)} indices for a buffer of rank {len(buffer.shape.data)}"
        )
    lanes = 1
    for index in indices:
        if not is_signless_int(index.type) or scalar_of(index.type) == i1:
            raise VerifyException(f"buffer index must be an integer, got {index.type}")
        lanes = max(lanes, lanes_of(index.type))
    return lanes


def _new_body(arg_types: Sequence[Attribute] = ()) -> Region:
    return Region(Block(arg_types=arg_types))


# --------------------------------------------------------------------------- names

NAME_ATTR = "tir.name"
"""A TIR name where no property holds it: a param's arg attribute
(`%x: !tir.buffer<4xf32> {tir.name = "x_1"}`), or on an op that stands for a TIR buffer
under another name (a `usmp.alloc_offset` whose name was made unique)."""

_HINT_SUFFIX = re.compile(r"_\d+$")
_NOT_IN_HINT = re.compile(r"[^A-Za-z0-9$._-]")
"""What MLIR's lexer does not read in a value name (`%büffer`, `%a,b`): printed as `_`."""


def set_readable_hint(value: SSAValue, name: str | None) -> None:
    """Names `value` `%<name>` in printed IR, as a readability aid only.

    A TIR name is an attribute (`name`, `tir.name`); SSA names carry no meaning. xDSL's
    printer makes a hint unique by appending `_<n>` and its setter strips one `_<digits>`
    suffix, so a hint that still ends in `_<digits>` (`x_1_2` -> `x_1`) can print as a
    name another value also gets; every such suffix is stripped here, so printed names
    stay unique and the module parses back.
    """
    hint = _NOT_IN_HINT.sub("_", name or "")
    if hint[:1].isdigit():
        hint = f"_{hint}"
    while _HINT_SUFFIX.search(hint):
        hint = _HINT_SUFFIX.sub("", hint)
    value.name_hint = hint if SSAValue.is_valid_name(hint) and hint else None


def _name_prop(name: str | None) -> StringAttr | None:
    return None if name is None else StringAttr(name)


# --------------------------------------------------------------------------- functions


def _use_before_definition(block: Block, defined: set[SSAValue]) -> tuple[Operation, int] | None:
    """The first op in `block` (or nested in it) with an operand that is not defined before
    it, and that operand's index. xDSL does not check dominance, and the generic form can
    name a value before the op that defines it."""
    added: list[SSAValue] = list(block.args)
    defined.update(added)
    for op in block.ops:
        for index, operand in enumerate(op.operands):
            if operand not in defined:
                return op, index
        for region in op.regions:
            for inner in region.blocks:
                if (early := _use_before_definition(inner, defined)) is not None:
                    return early
        defined.update(op.results)
        added.extend(op.results)
    defined.difference_update(added)
    return None


def _where(op: Operation) -> str:
    location = op.location
    if isinstance(location, FileLineColLoc):
        return f" (line {location.line.data}, column {location.column.data})"
    return ""


@irdl_op_definition
class PrimFuncOp(IRDLOperation):
    """A `tirx.PrimFunc`: params are the entry block's arguments, each named by its
    `tir.name` arg attribute; the op's discardable attributes are the function's TIR
    attributes (`global_symbol`, `tirx.noalias`, ...). No `global_symbol` means the
    function is private."""

    name = "tir.prim_func"

    sym_name = prop_def(StringAttr)
    function_type = prop_def(FunctionType)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    body = region_def("single_block")

    # TIR functions live in an IRModule, as `gpu.func` lives in a `gpu.module`.
    traits = traits_def(
        IsolatedFromAbove(), SymbolOpInterface(), NoTerminator(), HasParent(ModuleOp)
    )

    def __init__(
        self,
        sym_name: str,
        param_types: Sequence[Attribute],
        ret_type: Attribute | None = None,
        tir_attrs: dict[str, Attribute] | None = None,
        body: Region | None = None,
        param_names: Sequence[str | None] = (),
    ):
        function_type = FunctionType.from_lists(
            list(param_types), [] if ret_type is None else [ret_type]
        )
        super().__init__(
            properties={"sym_name": StringAttr(sym_name), "function_type": function_type},
            attributes=tir_attrs or {},
            regions=[body or _new_body(param_types)],
        )
        if any(n is not None for n in param_names):
            self._set_arg_attrs([_param_attrs(n) for n in param_names])

    @property
    def ret_type(self) -> Attribute | None:
        outputs = self.function_type.outputs.data
        return outputs[0] if outputs else None

    def param_name(self, index: int) -> str | None:
        """The TIR name of param `index` (its `tir.name`), None if it has none."""
        if self.arg_attrs is None:
            return None
        name = self.arg_attrs.data[index].data.get(NAME_ATTR)
        return name.data if isinstance(name, StringAttr) else None

    def param_names(self) -> list[str | None]:
        return [self.param_name(i) for i in range(len(self.body.block.args))]

    def insert_param(self, index: int, param_type: Attribute, name: str | None) -> BlockArgument:
        """A new param at `index`, named `name`; the signature follows."""
        attrs = self._arg_attr_list()
        arg = self.body.block.insert_arg(param_type, index)
        set_readable_hint(arg, name)
        attrs.insert(index, _param_attrs(name))
        self._update_signature(attrs)
        return arg

    def erase_param(self, arg: BlockArgument) -> None:
        """Erases an unused param; the signature follows."""
        attrs = self._arg_attr_list()
        del attrs[arg.index]
        self.body.block.erase_arg(arg)
        self._update_signature(attrs)

    def _arg_attr_list(self) -> list[DictionaryAttr]:
        if self.arg_attrs is None:
            return [DictionaryAttr({}) for _ in self.body.block.args]
        return list(self.arg_attrs.data)

    def _update_signature(self, attrs: list[DictionaryAttr]) -> None:
        self.properties["function_type"] = FunctionType.from_lists(
            [a.type for a in self.body.block.args], list(self.function_type.outputs.data)
        )
        self._set_arg_attrs(attrs)

    def _set_arg_attrs(self, attrs: list[DictionaryAttr]) -> None:
        if any(a.data for a in attrs):
            self.properties["arg_attrs"] = ArrayAttr(attrs)
        else:
            self.properties.pop("arg_attrs", None)

    def verify_(self) -> None:
        inputs = self.function_type.inputs.data
        args = self.body.block.args
        if tuple(a.type for a in args) != tuple(inputs):
            raise VerifyException("entry block arguments do not match the function type")
        if self.arg_attrs is not None:
            if len(self.arg_attrs.data) != len(inputs):
                raise VerifyException(
                    f"{len(self.arg_attrs.data)} arg attribute dictionaries for "
                    f"{len(inputs)} params"
                )
            for attrs in self.arg_attrs.data:
                name = attrs.data.get(NAME_ATTR)
                if name is not None and not isinstance(name, StringAttr):
                    raise VerifyException(f"a param's {NAME_ATTR} must be a string, got {name}")
        for t in inputs:
            if not is_tir_param_type(t):
                raise VerifyException(f"param type {t} is not a TIR buffer, pointer or dtype")
        symbol = self.attributes.get(GLOBAL_SYMBOL_ATTR)
        if symbol is not None and not isinstance(symbol, StringAttr):
            # TVM's printer fails inside its C++ on any other (issue 33's emitter fuzzing).
            raise VerifyException(f"{GLOBAL_SYMBOL_ATTR} must be a string, got {symbol}")
        if (early := _use_before_definition(self.body.block, set())) is not None:
            user, index = early
            raise VerifyException(
                f"operand {index} of '{user.name}'{_where(user)} is used before its definition"
            )
        outputs = self.function_type.outputs.data
        if len(outputs) > 1:
            raise VerifyException("a prim_func returns at most one value")
        if (
            outputs
            and not is_tir_value_type(outputs[0])
            and not isinstance(outputs[0], PointerType)
        ):
            raise VerifyException(f"return type {outputs[0]} is not a TIR dtype")

    @classmethod
    def parse(cls, parser: Parser) -> PrimFuncOp:
        name, inputs, outputs, body, attrs, arg_attrs, res_attrs = parse_func_op_like(
            parser, reserved_attr_names=("sym_name", "function_type", "arg_attrs")
        )
        if body is None:
            parser.raise_error("a tir.prim_func needs a body")
        if res_attrs is not None:
            parser.raise_error("a tir.prim_func's result takes no attributes")
        op = cls(name, inputs, outputs[0] if outputs else None, body=body)
        if arg_attrs is not None:
            op.properties["arg_attrs"] = arg_attrs
        if attrs is not None:
            op.attributes.update(attrs.data)
        if len(outputs) > 1:
            parser.raise_error("a prim_func returns at most one value")
        return op

    def print(self, printer: Printer) -> None:
        print_func_op_like(
            printer,
            self.sym_name,
            self.function_type,
            self.body,
            self.attributes,
            arg_attrs=self.arg_attrs,
            reserved_attr_names=("sym_name", "function_type", "arg_attrs"),
            print_empty_outputs=False,
        )


def _param_attrs(name: str | None) -> DictionaryAttr:
    return DictionaryAttr({} if name is None else {NAME_ATTR: StringAttr(name)})


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`return x` (`tirx.Return`)."""

    name = "tir.return"

    value = operand_def()

    traits = traits_def(HasAncestor(PrimFuncOp))
    assembly_format = "$value attr-dict `:` type($value)"

    def __init__(self, value: SSAValue):
        super().__init__(operands=[value])

    def verify_(self) -> None:
        func = HasAncestor(PrimFuncOp).get_ancestor(self)
        if isinstance(func, PrimFuncOp) and func.ret_type != self.value.type:
            raise VerifyException(
                f"returns {self.value.type} from a function returning {func.ret_type}"
            )


# --------------------------------------------------------------------------- buffers


@irdl_op_definition
class AllocBufferOp(IRDLOperation):
    """`T.alloc_buffer(shape, dtype)`: a buffer that lives until the end of its block.

    `%x = tir.alloc_buffer "x_1" annotations {...} : !tir.buffer<...>`; the string is the
    buffer's TIR name (the `name` property), printed when it has one.
    """

    name = "tir.alloc_buffer"

    buffer_name = opt_prop_def(StringAttr, prop_name="name")
    annotations = prop_def(DictionaryAttr, default_value=DictionaryAttr({}))
    buffer = result_def(BufferType)

    traits = traits_def(MemoryAllocEffect())
    assembly_format = "($name^)? (`annotations` $annotations^)? attr-dict `:` type($buffer)"

    def __init__(
        self,
        buffer_type: BufferType,
        annotations: dict[str, Attribute] | None = None,
        name: str | None = None,
    ):
        super().__init__(
            result_types=[buffer_type],
            properties={
                "name": _name_prop(name),
                "annotations": DictionaryAttr(annotations or {}),
            },
        )
        set_readable_hint(self.buffer, name)


def allocation_name(op: AllocBufferOp) -> str | None:
    """The allocated buffer's TIR name, else the name its data pointer is bound to
    (`x = T.alloc_buffer(...).data` leaves the buffer unnamed)."""
    if op.buffer_name is not None and op.buffer_name.data:
        return op.buffer_name.data
    for use in op.buffer.uses:
        if isinstance(use.operation, BufferDataOp):
            for data_use in use.operation.data.uses:
                bind = data_use.operation
                if isinstance(bind, BindOp) and bind.var_name is not None:
                    return bind.var_name.data
    return None


@irdl_op_definition
class DeclBufferOp(IRDLOperation):
    """`T.decl_buffer(shape, dtype, data=ptr)`: a buffer view of memory someone else owns.

    `%x = tir.decl_buffer "x_1" %ptr : !tir.ptr<f32> -> !tir.buffer<...>`; the string is
    the buffer's TIR name (the `name` property), printed when it has one.
    """

    name = "tir.decl_buffer"

    buffer_name = opt_prop_def(StringAttr, prop_name="name")
    data = operand_def(PointerType)
    buffer = result_def(BufferType)

    # A view of memory, as `memref.view` is: making it touches no byte.
    traits = traits_def(NoMemoryEffect())
    assembly_format = "($name^)? $data attr-dict `:` type($data) `->` type($buffer)"

    def __init__(self, data: SSAValue, buffer_type: BufferType, name: str | None = None):
        super().__init__(
            operands=[data], result_types=[buffer_type], properties={"name": _name_prop(name)}
        )
        set_readable_hint(self.buffer, name)

    def verify_(self) -> None:
        assert isinstance(self.data.type, PointerType)
        assert isinstance(self.buffer.type, BufferType)
        if self.data.type.scope.data != self.buffer.type.scope.data:
            raise VerifyException(
                f"a buffer in scope '{self.buffer.type.scope.data}' over a pointer in scope "
                f"'{self.data.type.scope.data}'"
            )


@irdl_op_definition
class BufferDataOp(IRDLOperation):
    """`buf.data`: the buffer's data pointer."""

    name = "tir.buffer_data"

    buffer = operand_def(BufferType)
    data = result_def(PointerType)

    assembly_format = "$buffer attr-dict `:` type($buffer) `->` type($data)"

    traits = traits_def(Pure())

    def __init__(self, buffer: SSAValue, pointer_type: PointerType | None = None):
        buffer_type = _buffer_type(buffer, "buffer_data operand")
        if pointer_type is None:
            pointer_type = PointerType(buffer_type.element_type, buffer_type.scope.data)
        super().__init__(operands=[buffer], result_types=[pointer_type])


@irdl_op_definition
class LoadOp(IRDLOperation):
    """`buf[i, j]`; a ramp index loads a vector."""

    name = "tir.load"

    buffer = operand_def(BufferType)
    indices = var_operand_def()
    result = result_def()

    traits = traits_def(MemoryReadEffect())

    def __init__(self, buffer: SSAValue, indices: Sequence[SSAValue], result_type: Attribute):
        super().__init__(operands=[buffer, indices], result_types=[result_type])

    def verify_(self) -> None:
        buffer = _buffer_type(self.buffer, "load source")
        lanes = _verify_indices(buffer, self.indices)
        expected = with_lanes(scalar_of(buffer.element_type), lanes * lanes_of(buffer.element_type))
        if self.result.type != expected:
            raise VerifyException(f"load from {buffer} gives {expected}, not {self.result.type}")

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        buffer = _parse_defined_operand(parser)
        indices = _parse_indices(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(buffer, indices, parser.parse_type())
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_indices(printer, self.buffer, self.indices)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class StoreOp(IRDLOperation):
    """`buf[i, j] = value`."""

    name = "tir.store"

    value = operand_def()
    buffer = operand_def(BufferType)
    indices = var_operand_def()

    traits = traits_def(MemoryWriteEffect())

    def __init__(self, value: SSAValue, buffer: SSAValue, indices: Sequence[SSAValue]):
        super().__init__(operands=[value, buffer, indices])

    def verify_(self) -> None:
        buffer = _buffer_type(self.buffer, "store target")
        lanes = _verify_indices(buffer, self.indices)
        expected = with_lanes(scalar_of(buffer.element_type), lanes * lanes_of(buffer.element_type))
        if self.value.type != expected:
            raise VerifyException(f"store of {self.value.type} into {buffer} needs {expected}")

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        value = _parse_defined_operand(parser)
        parser.parse_punctuation(",")
        buffer = _parse_defined_operand(parser)
        indices = _parse_indices(parser)
        op = cls(value, buffer, indices)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        _print_indices(printer, self.buffer, self.indices)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class AddressOfOp(IRDLOperation):
    """`T.address_of(buf[i])`: a pointer to one element of a buffer."""

    name = "tir.address_of"

    buffer = operand_def(BufferType)
    indices = var_operand_def()
    result = result_def(PointerType)

    traits = traits_def(Pure())

    def __init__(
        self, buffer: SSAValue, indices: Sequence[SSAValue], pointer_type: PointerType | None = None
    ):
        buffer_type = _buffer_type(buffer, "address_of operand")
        if pointer_type is None:
            pointer_type = PointerType(buffer_type.element_type, buffer_type.scope.data)
        super().__init__(operands=[buffer, indices], result_types=[pointer_type])

    def verify_(self) -> None:
        _verify_indices(_buffer_type(self.buffer, "address_of operand"), self.indices)

    @classmethod
    def parse(cls, parser: Parser) -> AddressOfOp:
        buffer = _parse_defined_operand(parser)
        indices = _parse_indices(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pointer_type = parser.parse_type()
        if not isinstance(pointer_type, PointerType):
            parser.raise_error(f"expected a !tir.ptr type, got {pointer_type}")
        op = cls(buffer, indices, pointer_type)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_indices(printer, self.buffer, self.indices)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


# --------------------------------------------------------------------------- statements


class ForKind(StrEnum):
    """How a loop runs, in the order of TVM's `ForKind` enum."""

    SERIAL = "serial"
    PARALLEL = "parallel"
    VECTORIZED = "vectorized"
    UNROLLED = "unrolled"
    THREAD_BINDING = "thread_binding"


@irdl_attr_definition
class ForKindAttr(EnumAttribute[ForKind], SpacedOpaqueSyntaxAttribute):
    name = "tir.for_kind"


@irdl_op_definition
class ForOp(IRDLOperation):
    """`for i in T.<kind>(min, min + extent)`; the loop var is the body's block argument.

    `tir.for %i ["i_1"] = %min extent %n [step %s] parallel [thread "threadIdx.x"]
    [annotations {...}] : i32 { ... }`; the string is the loop var's TIR name (the
    `name` property), printed when it has one.
    """

    name = "tir.for"

    min = operand_def()
    extent = operand_def()
    step = opt_operand_def()
    kind = prop_def(ForKindAttr)
    var_name = opt_prop_def(StringAttr, prop_name="name")
    thread_tag = opt_prop_def(StringAttr)
    """For `thread_binding` loops: the thread the loop binds (TVM's IterVar tag)."""
    annotations = prop_def(DictionaryAttr, default_value=DictionaryAttr({}))
    body = region_def("single_block")

    traits = traits_def(NoTerminator(), RecursiveMemoryEffect())

    def __init__(
        self,
        min: SSAValue,
        extent: SSAValue,
        kind: str = "serial",
        body: Region | None = None,
        step: SSAValue | None = None,
        thread_tag: str | None = None,
        annotations: dict[str, Attribute] | None = None,
        var_name: str | None = None,
    ):
        super().__init__(
            operands=[min, extent, step],
            properties={
                "kind": ForKindAttr(ForKind(kind)),
                "name": _name_prop(var_name),
                "thread_tag": None if thread_tag is None else StringAttr(thread_tag),
                "annotations": DictionaryAttr(annotations or {}),
            },
            regions=[body or _new_body([min.type])],
        )
        if self._has_loop_var() and self.loop_var.name_hint is None:
            set_readable_hint(self.loop_var, var_name)

    @property
    def loop_var(self) -> SSAValue:
        return self.body.block.args[0]

    def _has_loop_var(self) -> bool:
        """The body is one block of one argument, as the verifier wants it: an op not yet
        verified (parsed in generic form, built by a pass) may have none."""
        blocks = self.body.blocks
        return len(blocks) == 1 and len(blocks[0].args) == 1

    def verify_(self) -> None:
        if (self.kind.data == ForKind.THREAD_BINDING) != (self.thread_tag is not None):
            raise VerifyException("a thread tag is given exactly for thread_binding loops")
        args = self.body.block.args
        if len(args) != 1:
            raise VerifyException("the loop body has exactly one argument, the loop var")
        bounds = [self.min, self.extent, *([self.step] if self.step else [])]
        for bound in bounds:
            if bound.type != args[0].type:
                raise VerifyException(
                    f"loop bound of type {bound.type} for a loop var of type {args[0].type}"
                )
        if not is_signless_int(args[0].type) or lanes_of(args[0].type) != 1:
            raise VerifyException(f"loop var must be a scalar integer, got {args[0].type}")

    @classmethod
    def parse(cls, parser: Parser) -> ForOp:
        var = parser.parse_argument(expect_type=False)
        var_name = parser.parse_optional_str_literal()
        parser.parse_punctuation("=")
        min = _parse_defined_operand(parser)
        parser.parse_keyword("extent")
        extent = _parse_defined_operand(parser)
        step = (
            _parse_defined_operand(parser)
            if parser.parse_optional_keyword("step") is not None
            else None
        )
        kind = parser.parse_str_enum(ForKind)
        thread_tag = None
        if parser.parse_optional_keyword("thread") is not None:
            thread_tag = parser.parse_str_literal()
        annotations: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("annotations") is not None:
            parsed = parser.parse_attribute()
            if not isinstance(parsed, DictionaryAttr):
                parser.raise_error("expected a dictionary of annotations")
            annotations = dict(parsed.data)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        body = parser.parse_region([var.resolve(parser.parse_type())])
        op = cls(min, extent, kind, body, step, thread_tag, annotations, var_name)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        if not self._has_loop_var():
            # No loop var to print (a verifier's message shows such an op): its generic
            # parts, after the name the printer wrote.
            printer.print_op_with_default_format(self)
            return
        printer.print_string(" ")
        printer.print_operand(self.loop_var)
        if self.var_name is not None:
            printer.print_string(" ")
            printer.print_string_literal(self.var_name.data)
        printer.print_string(" = ")
        printer.print_operand(self.min)
        printer.print_string(" extent ")
        printer.print_operand(self.extent)
        if self.step is not None:
            printer.print_string(" step ")
            printer.print_operand(self.step)
        printer.print_string(f" {self.kind.data}")
        if self.thread_tag is not None:
            printer.print_string(" thread ")
            printer.print_string_literal(self.thread_tag.data)
        if self.annotations.data:
            printer.print_string(" annotations ")
            printer.print_attribute(self.annotations)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.loop_var.type)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)


@irdl_op_definition
class AttrOp(IRDLOperation):
    """`with T.attr(node, "key", value):` (`tirx.AttrStmt`) around its body.

    The node is an expression operand, a string or an integer (`node_attr`), or absent.
    Its effects are unknown (no memory-effect trait): an attribute such as `storage_scope`
    or `pragma_*` means something to TVM even around a body with none.
    """

    name = "tir.attr"

    key = prop_def(StringAttr)
    node = opt_operand_def()
    node_attr = opt_prop_def(Attribute)
    value = operand_def()
    body = region_def("single_block")

    traits = traits_def(NoTerminator())

    def __init__(
        self,
        key: str,
        value: SSAValue,
        node: SSAValue | None = None,
        node_attr: Attribute | None = None,
        body: Region | None = None,
    ):
        super().__init__(
            operands=[node, value],
            properties={"key": StringAttr(key), "node_attr": node_attr},
            regions=[body or _new_body()],
        )

    def verify_(self) -> None:
        if self.node is not None and self.node_attr is not None:
            raise VerifyException("an attr statement has one node, an operand or an attribute")
        if self.node_attr is not None and not isinstance(self.node_attr, IntegerAttr | StringAttr):
            raise VerifyException("an attr statement's node attribute is an integer or string")

    @classmethod
    def parse(cls, parser: Parser) -> AttrOp:
        key = parser.parse_str_literal()
        node: SSAValue | None = None
        node_attr: Attribute | None = None
        if parser.parse_optional_keyword("on") is not None:
            unresolved = parser.parse_optional_unresolved_operand()
            node = None if unresolved is None else _resolve_defined(parser, unresolved)
            if node is None:
                node_attr = parser.parse_attribute()
        parser.parse_punctuation("=")
        value = _parse_defined_operand(parser)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(key, value, node, node_attr, parser.parse_region())
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.key.data)
        if self.node is not None:
            printer.print_string(" on ")
            printer.print_operand(self.node)
        elif self.node_attr is not None:
            printer.print_string(" on ")
            printer.print_attribute(self.node_attr)
        printer.print_string(" = ")
        printer.print_operand(self.value)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body)


@irdl_op_definition
class EvaluateOp(IRDLOperation):
    """`T.evaluate(expr)`: an expression run for its effect. Its effects are unknown (no
    memory-effect trait), so that no pass drops the statement that runs a call."""

    name = "tir.evaluate"

    value = operand_def()

    assembly_format = "$value attr-dict `:` type($value)"

    def __init__(self, value: SSAValue):
        super().__init__(operands=[value])


@irdl_op_definition
class BindOp(IRDLOperation):
    """`x: T.int32 = value` (`tirx.Bind`): the result is the var, in scope to the end of
    the block. `%x = tir.bind "x_1" %v : i32`: the string is the var's TIR name (the
    `name` property), printed when it has one."""

    name = "tir.bind"

    var_name = opt_prop_def(StringAttr, prop_name="name")
    T: ClassVar = VarConstraint("T", AnyAttr())
    value = operand_def(T)
    var = result_def(T)

    assembly_format = "($name^)? $value attr-dict `:` type($value)"

    def __init__(self, value: SSAValue, name: str | None = None):
        super().__init__(
            operands=[value], result_types=[value.type], properties={"name": _name_prop(name)}
        )
        set_readable_hint(self.var, name)


@irdl_op_definition
class AssertOp(IRDLOperation):
    """`assert cond, (kind, [message parts])` (`tirx.AssertStmt`)."""

    name = "tir.assert"

    condition = operand_def(i1)
    error_kind = prop_def(StringAttr)
    message_parts = prop_def(ArrayAttr[StringAttr])

    assembly_format = "$condition `,` $error_kind `,` $message_parts attr-dict"

    def __init__(self, condition: SSAValue, error_kind: str, message_parts: Sequence[str]):
        super().__init__(
            operands=[condition],
            properties={
                "error_kind": StringAttr(error_kind),
                "message_parts": ArrayAttr(StringAttr(m) for m in message_parts),
            },
        )


@irdl_op_definition
class BreakOp(IRDLOperation):
    name = "tir.break"
    traits = traits_def(HasAncestor(ForOp, scf.WhileOp))
    assembly_format = "attr-dict"


@irdl_op_definition
class ContinueOp(IRDLOperation):
    name = "tir.continue"
    traits = traits_def(HasAncestor(ForOp, scf.WhileOp))
    assembly_format = "attr-dict"


# --------------------------------------------------------------------------- calls


_CALL_ARGUMENTS_FORMAT = "`(` $args `)` attr-dict `:` functional-type($args, $result)"


class _CallLike(IRDLOperation):
    # No memory-effect trait: a call (a module function, `call_extern`, `call_packed`, an
    # intrinsic) may read and write any memory, which is how xDSL reads a missing trait.
    args = var_operand_def()
    result = opt_result_def()
    """Absent for a call whose value is void (TVM's `ret_ty` None)."""


class _CalleeIsPrimFunc(SymbolUserOpInterface):
    def verify(self, op: Operation) -> None:
        assert isinstance(op, CallOp)
        callee = SymbolTable.lookup_symbol(op, op.callee)
        if not isinstance(callee, PrimFuncOp):
            raise VerifyException(f"call to unknown function {op.callee}")
        if len(callee.function_type.inputs.data) != len(op.args):
            raise VerifyException(
                f"{op.callee} takes {len(callee.function_type.inputs.data)} arguments, "
                f"called with {len(op.args)}"
            )


@irdl_op_definition
class CallOp(_CallLike):
    """`Module.op(x.data, ...)`: a call of a function of the module (a GlobalVar)."""

    name = "tir.call"

    callee = prop_def(SymbolRefAttr)

    traits = traits_def(_CalleeIsPrimFunc())
    assembly_format = f"$callee {_CALL_ARGUMENTS_FORMAT}"

    def __init__(self, callee: str, args: Sequence[SSAValue], result_type: Attribute | None = None):
        super().__init__(
            operands=[args],
            result_types=[[] if result_type is None else [result_type]],
            properties={"callee": SymbolRefAttr(callee)},
        )


@irdl_op_definition
class CallIntrinOp(_CallLike):
    """A call of a TVM op by name: `tirx.call_extern`, `tirx.call_packed`,
    `tirx.lookup_param`, `tirx.ret`, ... (string arguments are `tir.string` values)."""

    name = "tir.call_intrin"

    op_name = prop_def(StringAttr)

    assembly_format = f"$op_name {_CALL_ARGUMENTS_FORMAT}"

    def __init__(
        self, op_name: str, args: Sequence[SSAValue], result_type: Attribute | None = None
    ):
        super().__init__(
            operands=[args],
            result_types=[[] if result_type is None else [result_type]],
            properties={"op_name": StringAttr(op_name)},
        )


# --------------------------------------------------------------------------- expressions


@irdl_op_definition
class StringOp(IRDLOperation):
    """A `StringImm`."""

    name = "tir.string"

    value = prop_def(StringAttr)
    result = result_def(StringType)

    traits = traits_def(Pure())
    assembly_format = "$value attr-dict"

    def __init__(self, value: str):
        super().__init__(properties={"value": StringAttr(value)}, result_types=[StringType()])


def _const_value(value: int | float, result_type: Attribute) -> IntegerAttr | FloatAttr:
    if isinstance(value, float):
        return FloatAttr(value, Float64Type())
    if not isinstance(result_type, IntegerType):
        raise ValueError(f"an integer tir.const cannot have type {result_type}")
    return IntegerAttr(value, result_type)


@irdl_custom_directive
class ConstLiteral(CustomDirective):
    """`number : type`: the literal is read once the type says what it must be (a
    hexadecimal literal of a float type is the bits of its f64 value)."""

    value: AttributeVariable
    result_type: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        pos = parser.pos
        is_hex = current_token(parser).text.lower().startswith(("0x", "-0x"))
        number = parser.parse_number()
        parser.parse_punctuation(":")
        type_pos = parser.pos
        result_type = parser.parse_type()
        if is_float(result_type):
            if isinstance(number, int):
                if not is_hex:
                    parser.raise_error("a float tir.const needs a float literal", pos, type_pos)
                number = struct.unpack("<d", number.to_bytes(8, "little"))[0]
        elif not isinstance(result_type, IntegerType) or isinstance(number, float):
            parser.raise_error("tir.const holds an integer or a float", type_pos, parser.pos)
        self.value.set(state, _const_value(number, result_type))
        self.result_type.inner.set_types(state, [result_type])

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        value = self.value.get(op)
        state.print_whitespace(printer)
        if isinstance(value, FloatAttr):
            printer.print_float(value.value.data, Float64Type())
        else:
            assert isinstance(value, IntegerAttr)
            printer.print_string(str(value.value.data))
        printer.print_string(" : ")
        printer.print_attribute(self.result_type.inner.get_types(op)[0])


@irdl_op_definition
class ConstOp(IRDLOperation):
    """A TIR immediate `arith.constant` cannot hold: an `IntImm` of an unsigned dtype, or a
    `FloatImm` whose value its dtype cannot represent exactly (TVM keeps a FloatImm's value
    as a double: `T.float32(0.001)` is 0.001, not the float32 nearest to it).

    `tir.const 255 : ui8`, `tir.const 1.0000000000000000e-03 : f32` (the value a double,
    printed losslessly; a hexadecimal literal is its bits, as for NaN and infinities).
    Signed ints, bools and floats their dtype holds exactly are `arith.constant`.
    """

    name = "tir.const"

    value = prop_def(BaseAttr(IntegerAttr) | BaseAttr(FloatAttr))
    result = result_def()

    traits = traits_def(Pure())
    custom_directives = (ConstLiteral,)
    assembly_format = "custom<ConstLiteral>($value, type($result)) attr-dict"

    def __init__(self, value: int | float, result_type: Attribute):
        super().__init__(
            properties={"value": _const_value(value, result_type)}, result_types=[result_type]
        )

    @property
    def number(self) -> int | float:
        return self.value.value.data

    def verify_(self) -> None:
        if isinstance(self.value, FloatAttr):
            if self.value.type != Float64Type() or not is_float(self.result.type):
                raise VerifyException("a float tir.const holds an f64 value of a float dtype")
        elif self.value.type != self.result.type:
            raise VerifyException("constant value and result types differ")
        if lanes_of(self.result.type) != 1:
            raise VerifyException("a tir.const is a scalar")


@irdl_op_definition
class CastOp(IRDLOperation):
    """`T.Cast(dtype, x)`."""

    name = "tir.cast"

    value = operand_def()
    result = result_def()

    traits = traits_def(Pure())
    assembly_format = "$value attr-dict `:` type($value) `to` type($result)"

    def __init__(self, value: SSAValue, result_type: Attribute):
        super().__init__(operands=[value], result_types=[result_type])

    def verify_(self) -> None:
        for t in (self.value.type, self.result.type):
            if not is_tir_value_type(t):
                raise VerifyException(f"cast of a type that is not a TIR dtype: {t}")
        if lanes_of(self.value.type) != lanes_of(self.result.type):
            raise VerifyException("a cast keeps the number of lanes")


@irdl_op_definition
class RampOp(IRDLOperation):
    """`T.Ramp(base, stride, lanes)`: the vector base, base + stride, ..."""

    name = "tir.ramp"

    T: ClassVar = VarConstraint("T", AnyAttr())
    base = operand_def(T)
    stride = operand_def(T)
    result = result_def(VectorType)

    traits = traits_def(Pure())
    assembly_format = "$base `,` $stride attr-dict `:` type($base) `->` type($result)"

    def __init__(self, base: SSAValue, stride: SSAValue, lanes: int):
        super().__init__(operands=[base, stride], result_types=[VectorType(base.type, [lanes])])

    def verify_(self) -> None:
        if not is_signless_int(self.base.type) or lanes_of(self.base.type) != 1:
            raise VerifyException("a ramp's base is a scalar integer")
        assert isinstance(self.result.type, VectorType)
        if self.result.type.element_type != self.base.type:
            raise VerifyException("a ramp's lanes have its base's type")


@irdl_op_definition
class BroadcastOp(IRDLOperation):
    """`T.Broadcast(value, lanes)`."""

    name = "tir.broadcast"

    value = operand_def()
    result = result_def(VectorType)

    traits = traits_def(Pure())
    assembly_format = "$value attr-dict `:` type($value) `->` type($result)"

    def __init__(self, value: SSAValue, lanes: int):
        super().__init__(operands=[value], result_types=[VectorType(value.type, [lanes])])

    def verify_(self) -> None:
        assert isinstance(self.result.type, VectorType)
        if self.result.type.element_type != self.value.type:
            raise VerifyException("a broadcast's lanes have its operand's type")


class BinaryOp(IRDLOperation):
    """A TIR binary expression whose result has its operands' type."""

    T: ClassVar = VarConstraint("T", AnyAttr())
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure())
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[lhs, rhs], result_types=[lhs.type])

    def verify_(self) -> None:
        if not is_tir_value_type(self.lhs.type):
            raise VerifyException(f"operand type {self.lhs.type} is not a TIR dtype")


class CompareOp(IRDLOperation):
    """A TIR comparison: a bool per lane."""

    T: ClassVar = VarConstraint("T", AnyAttr())
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def()

    traits = traits_def(Pure())
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)"

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[lhs, rhs], result_types=[with_lanes(i1, lanes_of(lhs.type))])

    def verify_(self) -> None:
        if self.result.type != with_lanes(i1, lanes_of(self.lhs.type)):
            raise VerifyException("a comparison gives one bool per lane")


class UnaryOp(IRDLOperation):
    T: ClassVar = VarConstraint("T", AnyAttr())
    value = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure())
    assembly_format = "$value attr-dict `:` type($result)"

    def __init__(self, value: SSAValue):
        super().__init__(operands=[value], result_types=[value.type])


@irdl_op_definition
class AddOp(BinaryOp):
    """`a + b` on unsigned integers (otherwise `arith.addi`/`addf`)."""

    name = "tir.add"


@irdl_op_definition
class SubOp(BinaryOp):
    name = "tir.sub"


@irdl_op_definition
class MulOp(BinaryOp):
    name = "tir.mul"


@irdl_op_definition
class DivOp(BinaryOp):
    """Truncating division on unsigned integers."""

    name = "tir.div"


@irdl_op_definition
class ModOp(BinaryOp):
    """Truncating remainder: unsigned integers and floats."""

    name = "tir.mod"


@irdl_op_definition
class FloorDivOp(BinaryOp):
    """`T.floordiv` where `arith.floordivsi` does not apply (unsigned, float)."""

    name = "tir.floordiv"


@irdl_op_definition
class FloorModOp(BinaryOp):
    """`T.floormod`: the remainder that takes the divisor's sign."""

    name = "tir.floormod"


@irdl_op_definition
class MinOp(BinaryOp):
    """`T.min` on unsigned ints and floats (TIR's float min is not IEEE minimum)."""

    name = "tir.min"


@irdl_op_definition
class MaxOp(BinaryOp):
    name = "tir.max"


@irdl_op_definition
class BitwiseAndOp(BinaryOp):
    name = "tir.bitwise_and"


@irdl_op_definition
class BitwiseOrOp(BinaryOp):
    name = "tir.bitwise_or"


@irdl_op_definition
class BitwiseXorOp(BinaryOp):
    name = "tir.bitwise_xor"


@irdl_op_definition
class ShiftLeftOp(BinaryOp):
    name = "tir.shift_left"


@irdl_op_definition
class ShiftRightOp(BinaryOp):
    name = "tir.shift_right"


@irdl_op_definition
class EqOp(CompareOp):
    """`==` where `arith.cmpi`/`cmpf` do not apply (unsigned integers)."""

    name = "tir.eq"


@irdl_op_definition
class NeOp(CompareOp):
    name = "tir.ne"


@irdl_op_definition
class LtOp(CompareOp):
    name = "tir.lt"


@irdl_op_definition
class LeOp(CompareOp):
    name = "tir.le"


@irdl_op_definition
class GtOp(CompareOp):
    name = "tir.gt"


@irdl_op_definition
class GeOp(CompareOp):
    name = "tir.ge"


@irdl_op_definition
class NotOp(UnaryOp):
    """Logical `not` of a bool."""

    name = "tir.not"


@irdl_op_definition
class BitwiseNotOp(UnaryOp):
    name = "tir.bitwise_not"


TIR = Dialect(
    "tir",
    [
        PrimFuncOp,
        ReturnOp,
        AllocBufferOp,
        DeclBufferOp,
        BufferDataOp,
        LoadOp,
        StoreOp,
        AddressOfOp,
        ForOp,
        AttrOp,
        EvaluateOp,
        BindOp,
        AssertOp,
        BreakOp,
        ContinueOp,
        CallOp,
        CallIntrinOp,
        StringOp,
        ConstOp,
        CastOp,
        RampOp,
        BroadcastOp,
        AddOp,
        SubOp,
        MulOp,
        DivOp,
        ModOp,
        FloorDivOp,
        FloorModOp,
        MinOp,
        MaxOp,
        BitwiseAndOp,
        BitwiseOrOp,
        BitwiseXorOp,
        ShiftLeftOp,
        ShiftRightOp,
        EqOp,
        NeOp,
        LtOp,
        LeOp,
        GtOp,
        GeOp,
        NotOp,
        BitwiseNotOp,
    ],
    [BufferType, PointerType, HandleType, StringType, ForKindAttr, TargetAttr],
)


DEFAULT_ALIGNMENT = 64
"""TVM's `data_alignment` of a buffer that asks for none."""


def in_pool(t: BufferType, alignment: int | None = None) -> BufferType:
    """The type of a buffer placed in a pool: in the pool's `global` scope (a tag such
    as `global.workspace` said where to plan it; a view's scope is its pointer's, in TVM
    too), with `alignment` when given."""
    return BufferType(
        t.dims,
        t.element_type,
        strides=t.stride_values,
        elem_offset=t.elem_offset.data,
        scope="global",
        alignment=t.alignment.data if alignment is None else alignment,
        offset_factor=t.offset_factor.data,
        index_type=t.index_type,
    )
