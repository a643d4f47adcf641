"""Every place this project goes around xDSL, in one module. Checked on xDSL 0.75.

Each workaround says what it works around; tests/test_xdsl_compat.py holds, for each, a
test of the xDSL behaviour that makes it necessary, which fails once xDSL no longer needs
it (then the workaround goes). Nothing outside this module patches xDSL or reads a
private member of it (tests/test_xdsl_compat.py counts).

Importing this module applies the three patches of xDSL's lexer and attribute parser
and counts the ops inserted into blocks (`is_before_in_block`);
the dialects import it, so any context that loads them reads what their printers write.
`HookedParser` is xDSL's parser with public hooks in place of the private methods that
`parsing.LocatingParser` used to override.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from xdsl.dialects.builtin import (
    AnyDenseElement,
    AnyFloat,
    BytesAttr,
    ComplexType,
    DenseArrayBase,
    DenseResourceAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    RankedStructure,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue, TypeAttribute
from xdsl.parser import AttrParser, Parser
from xdsl.utils.lexer import Span, Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRToken, MLIRTokenKind, StringLiteral

XDSL_VERSION_CHECKED = "0.75"

# ------------------------------------------------------------------ patches of xDSL's parser

STOCK_STRING_LITERAL_REGEX = MLIRLexer._unescaped_characters_regex
"""xDSL 0.75 lexes a string literal with `"(?:[^"...]+|\\...)*"`, a nested repetition that
backtracks exponentially on an unclosed string (`memref.sto"re %f, %a[%c0] : ...` took
minutes). The same language with one character per repetition fails in linear time."""
MLIRLexer._unescaped_characters_regex = re.compile(
    r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"'
)

stock_lex_string_literal = MLIRLexer._lex_string_literal


def _lex_utf8_string_literal(self: MLIRLexer, start_pos: int) -> MLIRToken:
    """xDSL 0.75 lexes a string with escapes of non-ASCII bytes (as its printer writes
    `büffer`: `"b\\C3\\BCffer"`) as a bytes literal, which no string-taking parser
    accepts; its own docstring says a string that decodes as UTF-8 is a string."""
    token = stock_lex_string_literal(self, start_pos)
    if token.kind is MLIRTokenKind.BYTES_LIT:
        try:
            StringLiteral.from_span(token.span).bytes_contents.decode()
        except UnicodeDecodeError:
            return token
        return Token(MLIRTokenKind.STRING_LIT, token.span)
    return token


MLIRLexer._lex_string_literal = _lex_utf8_string_literal  # type: ignore[method-assign]

TensorLiteralElement = AttrParser._TensorLiteralElement
stock_element_to_type = TensorLiteralElement.to_type


def _element_to_type_reading_float_bits(
    self: AttrParser._TensorLiteralElement,
    parser: AttrParser,
    type: AnyFloat | IntegerType | IndexType | ComplexType,
) -> Any:
    """xDSL 0.75 prints an element of a float `dense<...>` that has no short decimal form
    (a float32 weight of 1.26e9) as its bits in hexadecimal, as MLIR does, but reads the
    hexadecimal back as an integer value: a model's weights came back changed. A
    hexadecimal element of a float type is its bits, as in MLIR."""
    text = self.span.text
    if isinstance(type, AnyFloat) and isinstance(self.value, int) and text[:2] in ("0x", "0X"):
        bits = int(text, 16).to_bytes(type.compile_time_size, "little")
        return type.unpack(bits, 1)[0]
    return stock_element_to_type(self, parser, type)


TensorLiteralElement.to_type = _element_to_type_reading_float_bits  # type: ignore[method-assign]

# ------------------------------------------------------------------ parser internals


def resume_parser_at(parser: Parser, position: int) -> None:
    """Moves `parser` to `position` of its input: an op that read its common form with one
    regular expression (`usmp.alloc_offset`, `usmp.liveness`) continues from there. xDSL
    0.75 has no public way to do it."""
    parser._resume_from(position)


def current_token(parser: Parser) -> MLIRToken:
    """The token `parser` is at; xDSL 0.75 exposes only its start (`parser.pos`)."""
    return parser._current_token


def dialect_stack(parser: Parser) -> Any:
    """The dialects whose ops may be written without their prefix where `parser` is."""
    return parser._parser_state.dialect_stack


def define_ssa_values(
    parser: Parser, name: str, values: tuple[SSAValue, ...] | list[SSAValue], span: Span
) -> None:
    """Makes `%name` refer to `values` for the rest of the input, as the parser does for
    the results of an op it reads itself; xDSL 0.75 has no public way to do it."""
    parser._register_ssa_definition(name, values, span)


class HookedParser(Parser):
    """xDSL 0.75's `Parser`, with public hooks where a parser of its own checks what it
    reads. xDSL 0.75 offers none of these hooks: its private methods are overridden here,
    each calling the public hook, so that no other module names them."""

    def _parse_generic_operation(self, op_type: type[Operation]) -> Operation:
        return self.generic_operation_parsed(super()._parse_generic_operation(op_type))

    def generic_operation_parsed(self, op: Operation) -> Operation:
        """An op just read in generic form (`"name"(...) <{...}> ...`); xDSL 0.75 checks
        its properties and attributes only once its regions verified."""
        return op

    def _parse_optional_integer_or_float_type(self) -> TypeAttribute | None:
        start = self.pos
        return self.integer_or_float_type_parsed(
            super()._parse_optional_integer_or_float_type(), start
        )

    def integer_or_float_type_parsed(
        self, parsed: TypeAttribute | None, start: int
    ) -> TypeAttribute | None:
        """A builtin integer or float type read from `start`; xDSL 0.75 takes any width."""
        return parsed

    def _parse_dense_literal_type(self) -> RankedStructure[AnyDenseElement]:
        start = self.pos
        return self.dense_literal_type_parsed(super()._parse_dense_literal_type(), start)

    def dense_literal_type_parsed(
        self, parsed: RankedStructure[AnyDenseElement], start: int
    ) -> RankedStructure[AnyDenseElement]:
        """The type of a `dense<...>` literal, read from `start`, before its elements are
        read (and allocated: xDSL 0.75 sets no bound)."""
        return parsed

    def _parse_builtin_densearray_attr(self) -> DenseArrayBase | None:
        with self.dense_elements_read(self.pos):
            return super()._parse_builtin_densearray_attr()

    @contextmanager
    def dense_elements_read(self, start: int) -> Iterator[None]:
        """Around the reading of an `array<...>` (and, by the caller, `dense<...>`)
        literal from `start`: xDSL 0.75 raises NotImplementedError for elements of more
        than 64 bits."""
        yield

    def _register_ssa_definition(self, name: str, values: Sequence[SSAValue], span: Span) -> None:
        self.ssa_values_defined(name, values)
        super()._register_ssa_definition(name, values, span)

    def ssa_values_defined(self, name: str, values: Sequence[SSAValue]) -> None:
        """`%name` defined as `values`, before the parser resolves the uses read before it
        (`forward_ssa_references`); xDSL 0.75 checks no dominance of those uses."""

    def _parse_builtin_dense_resource_attr(self) -> DenseResourceAttr:
        return self.parse_dense_resource_attr()

    def parse_dense_resource_attr(self) -> DenseResourceAttr:
        """`dense_resource<handle> : type`, after its keyword. xDSL 0.75 declares the
        handle in its builtin dialect's interface, shared by the whole process."""
        return super()._parse_builtin_dense_resource_attr()


# ------------------------------------------------------------------ fast paths


def put_in_front_of_format(
    op_class: type[Operation],
    *,
    parse: Callable[..., Operation] | None = None,
    print_op: Callable[[Any, Any], None] | None = None,
    verify: Callable[[Any], None] | None = None,
) -> None:
    """Sets fast paths in front of what `irdl_op_definition` made for `op_class`: xDSL 0.75
    refuses an op class that declares `assembly_format` and defines `parse` or `print`
    ("Cannot define both an assembly format ... and the print and parse methods"), and
    always runs IRDL's generic checks before a `verify_` it is given. Each function given
    calls the one it replaces when its fast path does not apply."""
    if parse is not None:
        op_class.parse = classmethod(parse)  # type: ignore[method-assign, assignment]
    if print_op is not None:
        op_class.print = print_op  # type: ignore[method-assign, assignment]
    if verify is not None:
        op_class.verify_ = verify  # type: ignore[method-assign, assignment]


def block_ops(block: Block) -> list[Operation]:
    """The block's ops, in order. `Block.ops` iterates through an iterator object and the
    `next_op` property, a call for each op: a third of the time of going over a 62k-op
    module. Following each op's private link to the next does the same walk without."""
    found: list[Operation] = []
    op = block.first_op
    while op is not None:
        found.append(op)
        op = op._next_op
    return found


def has_no_operands_or_successors(op: Operation) -> bool:
    """`not op.operands and not op.successors`, without the tuple each property builds."""
    return not op._operands and not op._successors


# ------------------------------------------------------------------ op order in a block


class _Insertions:
    """Ops inserted into any block so far: every insertion goes through
    `Block._attach_op` (`Block.split_before` moves ops to a new block, in their order).
    Removing an op reorders no other, so positions numbered since the last insertion still
    order a block's ops."""

    count = 0


stock_attach_op = Block._attach_op


def _attach_op_counted(self: Block, operation: Operation) -> None:
    stock_attach_op(self, operation)
    _Insertions.count += 1


Block._attach_op = _attach_op_counted  # type: ignore[method-assign]

_numbered_blocks: weakref.WeakKeyDictionary[Block, tuple[int, dict[Operation, int]]] = (
    weakref.WeakKeyDictionary()
)


def is_before_in_block(op: Operation, other: Operation) -> bool:
    """`op.is_before_in_block(other)` in constant time. xDSL 0.75 walks the ops from `op`
    until it meets `other`: a verifier that asks it for each of a block's ops is quadratic
    (half of reading 5,000 buffers of the older `usmp.liveness` form, 2 conflicts each).
    As MLIR does, each block's ops are numbered once, again after any op is inserted."""
    block = op.parent
    if block is None or other.parent is not block:
        return False
    numbered = _numbered_blocks.get(block)
    if numbered is None or numbered[0] != _Insertions.count:
        numbered = (_Insertions.count, {each: i for i, each in enumerate(block_ops(block))})
        _numbered_blocks[block] = numbered
    positions = numbered[1]
    return positions[op] < positions[other]


def unverified_i64_attr(value: int) -> IntegerAttr:
    """`IntegerAttr(value, i64)` for a value in i64's signed range (the caller checks), which
    is all that attribute's verification checks, built without that verification: 12 us
    an attribute made it most of writing a 62k-buffer plan back (and of parsing one)."""
    attr = IntegerAttr.__new__(IntegerAttr)
    object.__setattr__(attr, "value", IntAttr(value))
    object.__setattr__(attr, "type", i64)
    return attr


def unverified_i64_array(data: bytes) -> DenseArrayBase:
    """`DenseArrayBase(i64, BytesAttr(data))` for `data` a whole number of int64s (the
    caller makes it so), which is all that attribute's verification checks, built without
    it: two attributes a buffer (its live intervals) verified were a tenth of parsing or
    importing a 62k-buffer problem."""
    bytes_attr = BytesAttr.__new__(BytesAttr)
    object.__setattr__(bytes_attr, "data", data)
    attr = DenseArrayBase.__new__(DenseArrayBase)
    object.__setattr__(attr, "elt_type", i64)
    object.__setattr__(attr, "data", bytes_attr)
    return attr


@contextmanager
def attribute_verification_kept() -> Iterator[None]:
    """xDSL 0.75's `xDSLOptMain` turns off the verification of every attribute built, for
    the whole process, on `--disable-verify` (it replaces `Attribute.__post_init__`). Ours
    still verifies what it reads, and a tool run inside another program (a test, a
    notebook) must leave xDSL as it found it: the method is put back when the block ends."""
    kept = Attribute.__dict__["__post_init__"]
    try:
        yield
    finally:
        Attribute.__post_init__ = kept  # type: ignore[method-assign]
