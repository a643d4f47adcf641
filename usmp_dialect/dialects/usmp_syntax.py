"""How the `usmp` dialect's text is read and written: the custom directives of its ops'
assembly formats, the numbers, names and intervals they are made of, the fast path of
`usmp.alloc_offset`'s common form, and the older form of `usmp.liveness` that named its
buffers. Nothing here knows the op classes: `dialects/usmp.py` defines the ops with these
directives and wires the fast path in front of their formats.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from io import StringIO
from itertools import pairwise
from typing import Protocol, cast

import numpy as np
from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    DenseArrayBase,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    StringAttr,
    SymbolRefAttr,
    i1,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    TypeDirective,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.mlir_lexer import MLIRLexer

from usmp_dialect.diagnostics import INT64_MAX
from usmp_dialect.xdsl_compat import unverified_i64_array, unverified_i64_attr


class PlacedBuffer(Protocol):
    """What the directives and the one-string printer read of a `usmp.alloc_offset`."""

    @property
    def buffer_name(self) -> StringAttr: ...

    @property
    def pool_names(self) -> tuple[str, ...]: ...

    @property
    def offset_bytes(self) -> int | None: ...

    @property
    def alignment_bytes(self) -> int: ...

    def live_array(self) -> DenseArrayBase | None: ...


def int_attr(value: int) -> IntegerAttr:
    return _shared_int_attr(int(value))


# Attributes are immutable: the many ops of a large problem share their alignments and
# candidate pools instead of building and verifying the same attribute again.
@lru_cache(maxsize=4096)
def _shared_int_attr(value: int) -> IntegerAttr:
    return IntegerAttr(value, i64)


INT64_MIN = -(2**63)


def i64_attr(value: int) -> IntegerAttr:
    """`IntegerAttr(value, i64)`. For a value in i64's signed range, which is all that
    attribute's verification checks, it is built without that verification: 12 us an
    attribute made it most of writing a 62k-buffer plan back (and of parsing one). Any
    other value takes the verified constructor, which normalises or rejects it."""
    if not INT64_MIN <= value <= INT64_MAX:
        return IntegerAttr(value, i64)
    return unverified_i64_attr(value)


@lru_cache(maxsize=256)
def symbol_refs(names: tuple[str, ...]) -> ArrayAttr[SymbolRefAttr]:
    return ArrayAttr(SymbolRefAttr(name) for name in names)


def parse_int64(parser: AttrParser, what: str) -> int:
    """An integer the planner can compute with; the verifiers check the sign."""
    start = parser.pos
    value = parser.parse_integer(allow_boolean=False)
    if value > INT64_MAX:
        parser.raise_error(f"{what} {value} is past the limit of 2**63-1", start, parser.pos)
    if value < INT64_MIN:
        parser.raise_error(f"{what} {value} is below the limit of -2**63", start, parser.pos)
    return value


# A planning problem holds one `usmp.alloc_offset` per buffer and a `usmp.liveness` line per
# buffer: tens of thousands of each for a real trace. xDSL's token-at-a-time parser and
# character-at-a-time string printer made those ops most of a run, so their common form
# (plain names, a memref of a builtin element type) is read with one regular expression and
# written as one string; anything else takes the op's assembly format, which also gives
# every diagnostic. Both paths read and write the same text. Measured on Y_1 (62k buffers)
# with xDSL 0.75: parse and print take 5.6 CPU s with the fast path, 20.4 s on the general
# path alone (docs/architecture.md, "Two measured exceptions").

_PLAIN_NAME = r'"([\x20\x21\x23-\x5b\x5d-\x7e]*)"'
"""A string literal xDSL prints without escapes: printable ASCII except `"` and `\\` (a class
of what is in, not of what is out: compiling one that names all of Unicode takes 5 ms)."""
_PLAIN_STRING = re.compile(_PLAIN_NAME[1:-1])
_ELEMENT_TYPES: dict[str, Attribute] = {
    "i1": i1,
    "i8": i8,
    "i16": i16,
    "i32": i32,
    "i64": i64,
    "index": IndexType(),
    "f16": Float16Type(),
    "bf16": BFloat16Type(),
    "f32": Float32Type(),
    "f64": Float64Type(),
}
_ELEMENT_NAMES = {attr: text for text, attr in _ELEMENT_TYPES.items()}
PLAIN_ALLOC = re.compile(
    _PLAIN_NAME + r"\s*(?:@([A-Za-z_][\w$.]*)|\[\s*\])\s*\[(?:\?|([0-9]{1,18}))\]\s*"
    r"align\s+([0-9]{1,18})\s*(?:live\s*\[\s*([0-9]{1,18})\s*,\s*([0-9]{1,18})\s*\)"
    r"((?:\s*\[\s*[0-9]{1,18}\s*,\s*[0-9]{1,18}\s*\))*)\s*)?"
    r":\s*memref<((?:[0-9]{1,18}x)*)([a-z][a-z0-9]*)>",
    re.ASCII,
)
"""`"name" @pool[offset] align N live [s, e) ... : memref<...>` with one pool or none, no
conflicts or attributes, and numbers short enough that none can pass 2**63-1. The first
interval is read apart: most buffers have only that one."""
NUMBER = re.compile(r"[0-9]+")


@lru_cache(maxsize=4096)
def plain_memref(dims: str, element: str) -> MemRefType | None:
    """`memref<{dims}{element}>`, dims as `4x8x`, when the element is a builtin type."""
    element_type = _ELEMENT_TYPES.get(element)
    if element_type is None:
        return None
    return MemRefType(element_type, [int(d) for d in dims.split("x")[:-1]])


def string_literal(text: str) -> str:
    """`text` as the printer writes it in a string literal."""
    if _PLAIN_STRING.fullmatch(text):
        return f'"{text}"'
    return _printed(lambda printer: printer.print_string_literal(text))


def symbol_text(name: str) -> str:
    if MLIRLexer.bare_identifier_regex.fullmatch(name):
        return "@" + name
    return "@" + string_literal(name)


def type_text(buffer_type: Attribute) -> str:
    if (
        isinstance(buffer_type, MemRefType)
        and isinstance(buffer_type.layout, NoneAttr)
        and isinstance(buffer_type.memory_space, NoneAttr)
        and (element := _ELEMENT_NAMES.get(buffer_type.element_type)) is not None
    ):
        return f"memref<{''.join(f'{d}x' for d in buffer_type.get_shape())}{element}>"
    return _printed(lambda printer: printer.print_attribute(buffer_type))


def _printed(print_with: Callable[[Printer], None]) -> str:
    output = StringIO()
    print_with(Printer(stream=output))
    return output.getvalue()


def parse_sizes(parser: AttrParser, what: str) -> DictionaryAttr:
    """`name = N, ...`, possibly none: bytes by pool name."""
    sizes: dict[str, IntegerAttr] = {}
    name = parser.parse_optional_identifier_or_str_literal()
    while name is not None:
        parser.parse_punctuation("=")
        sizes[name] = int_attr(parse_int64(parser, f"{what} of '{name}'"))
        if parser.parse_optional_punctuation(",") is None:
            break
        name = parser.parse_identifier_or_str_literal(f" naming a pool in {what}")
    return DictionaryAttr(sizes)


def print_sizes(printer: Printer, sizes: DictionaryAttr) -> None:
    for index, (name, size) in enumerate(sizes.data.items()):
        if index:
            printer.print_string(", ")
        printer.print_identifier_or_string_literal(name)
        assert isinstance(size, IntegerAttr)
        printer.print_string(f" = {size.value.data}")


def parse_name_map(parser: AttrParser, what: str) -> DictionaryAttr:
    """`<a = "b", ...>`: names, each with a string."""
    names: dict[str, Attribute] = {}
    with parser.in_angle_brackets():
        name = parser.parse_optional_identifier_or_str_literal()
        while name is not None:
            parser.parse_punctuation("=")
            names[name] = StringAttr(parser.parse_str_literal())
            if parser.parse_optional_punctuation(",") is None:
                break
            name = parser.parse_identifier_or_str_literal(f" naming {what}")
    return DictionaryAttr(names)


def print_name_map(printer: Printer, names: Mapping[str, str]) -> None:
    with printer.in_angle_brackets():
        for index, (name, other) in enumerate(names.items()):
            if index:
                printer.print_string(", ")
            printer.print_identifier_or_string_literal(name)
            printer.print_string(" = ")
            printer.print_string_literal(other)


@irdl_custom_directive
class KeywordInt64(CustomDirective):
    """`name N`, optional, for an i64 property `name`: the number is checked against
    the planner's limit where it is written (the i64 type alone would wrap 2**63 to a
    negative). Printed whenever the property is set, including at its default."""

    value: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if parser.parse_optional_keyword(self.value.name) is None:
            return
        what = f"{state.op_type.name.split('.')[-1]} {self.value.name}"
        self.value.set(state, int_attr(parse_int64(parser, what)))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        attr = self.value.get(op)
        if attr is None:
            return
        assert isinstance(attr, IntegerAttr)
        state.print_whitespace(printer)
        printer.print_string(f"{self.value.name} {attr.value.data}")


ONE_INTERVAL = struct.Struct("<2q")
"""The bounds of one interval, as `live` holds them."""
I64_ARRAY = DenseArrayBase.constr(i64)
"""An `array<i64: ...>`: the planner reads its bytes as int64 (an `array<i32: ...>` or
`array<f64: ...>` written in generic form is a verifier error, not other numbers)."""


def i64_array(values: Sequence[int] | np.ndarray | bytes) -> DenseArrayBase:
    """An `array<i64: ...>` of `values`, or of the int64s `values` holds as bytes."""
    if isinstance(values, bytes):
        data = values
    elif isinstance(values, np.ndarray):
        data = values.astype("<i8").tobytes()
    elif len(values) == 2:
        data = ONE_INTERVAL.pack(*values)
    else:
        data = struct.pack(f"<{len(values)}q", *values)
    # Whole int64s by construction: built unverified, as there is one a buffer.
    return unverified_i64_array(data)


def is_i64_array(attr: Attribute | None) -> bool:
    return type(attr) is DenseArrayBase and (attr.elt_type is i64 or attr.elt_type == i64)


def live_by_buffer(
    count: int,
    owners: Sequence[int] | np.ndarray,
    starts: Sequence[int] | np.ndarray,
    ends: Sequence[int] | np.ndarray,
) -> list[bytes]:
    """The `live` of each of `count` buffers, from interval arrays that name their buffer
    by index: the int64 bounds `start, end, ...` of its intervals, in the order given."""
    owner = np.asarray(owners, dtype=np.int64)
    order = np.argsort(owner, kind="stable")
    bounds = np.empty((len(order), 2), dtype="<i8")
    bounds[:, 0] = np.asarray(starts, dtype=np.int64)[order]
    bounds[:, 1] = np.asarray(ends, dtype=np.int64)[order]
    data = bounds.tobytes()
    edges = np.concatenate(([0], np.cumsum(np.bincount(owner, minlength=count)) * 16)).tolist()
    return [data[start:end] for start, end in pairwise(edges)]


def live_pairs(live: DenseArrayBase) -> list[tuple[int, int]]:
    """`live`'s intervals as `(start, end)` pairs."""
    data = live.data.data
    # Most buffers have one interval: unpacked without building the list of bounds.
    if len(data) == 16:
        return [ONE_INTERVAL.unpack(data)]
    bounds = memoryview(data).cast("q").tolist()
    return list(zip(bounds[0::2], bounds[1::2], strict=True))


def live_text(live: DenseArrayBase | None) -> str:
    if live is None:
        return ""
    return " live" + "".join([f" [{start}, {end})" for start, end in live_pairs(live)])


def parse_intervals(parser: Parser) -> list[int]:
    """`[start, end)` intervals, none or more, as their bounds one after the other."""
    bounds: list[int] = []
    while parser.parse_optional_punctuation("[") is not None:
        bounds.append(parse_int64(parser, "live interval start"))
        parser.parse_punctuation(",")
        bounds.append(parse_int64(parser, "live interval end"))
        parser.parse_punctuation(")")
    return bounds


def _parse_earlier_buffer(parser: Parser) -> tuple[UnresolvedOperand, Attribute]:
    """`%b`, a value already defined, and its type: a conflict is written on the later of
    its two buffers, so the custom form never needs the type of a value not yet read."""
    start = parser.pos
    operand = parser.parse_unresolved_operand()
    values = parser.ssa_values.get(operand.operand_name)
    if values is None or operand.index >= len(values):
        parser.raise_error(
            "a conflict names a buffer defined before it: write it on the later buffer",
            start,
            parser.pos,
        )
    return operand, values[operand.index].type


@irdl_custom_directive
class PoolSlot(CustomDirective):
    """`@pool[offset]`: the pool a buffer is in, or its candidate pools in order of
    preference (`[@a, @b]`, none: `[]`), then its byte offset, `?` until planned."""

    pools: AttributeVariable
    offset: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if parser.parse_optional_punctuation("[") is None:
            pools = [parser.parse_symbol_name().data]
        elif parser.parse_optional_punctuation("]") is None:
            pools = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, lambda: parser.parse_symbol_name().data
            )
            parser.parse_punctuation("]")
        else:
            pools = []
        self.pools.set(state, symbol_refs(tuple(pools)))
        parser.parse_punctuation("[")
        if parser.parse_optional_punctuation("?") is None:
            self.offset.set(state, i64_attr(parse_int64(parser, "offset")))
        parser.parse_punctuation("]")

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_string(pool_slot_text(cast(PlacedBuffer, op)))


def pool_slot_text(op: PlacedBuffer) -> str:
    names = op.pool_names
    pools = symbol_text(names[0]) if len(names) == 1 else f"[{', '.join(map(symbol_text, names))}]"
    offset = op.offset_bytes
    return f"{pools}[{'?' if offset is None else offset}]"


@irdl_custom_directive
class Int64(CustomDirective):
    """An i64 property as a bare number, checked against the planner's limit where it is
    written (the i64 type alone would wrap 2**63 to a negative)."""

    value: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.value.set(state, int_attr(parse_int64(parser, self.value.name)))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        attr = self.value.get(op)
        assert isinstance(attr, IntegerAttr)
        state.print_whitespace(printer)
        printer.print_string(str(attr.value.data))


@irdl_custom_directive
class LiveIntervals(CustomDirective):
    """`live [start, end) ...`, optional, for the i64 array `live` of the intervals'
    bounds: an array would not say which bound closes an interval."""

    live: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if parser.parse_optional_keyword("live") is None:
            return
        start = parser.pos
        if not (bounds := parse_intervals(parser)):
            parser.raise_error("expected a live interval '[start, end)'", start)
        self.live.set(state, i64_array(bounds))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        # `live_text` starts with its own space.
        printer.print_string(live_text(cast(PlacedBuffer, op).live_array()))


@irdl_custom_directive
class EarlierBuffers(CustomDirective):
    """`%a, %b`: buffers defined before, with `types`, theirs, known where they are
    named rather than written out."""

    buffers: VariadicOperandVariable
    types: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        operands, types = zip(
            *parser.parse_comma_separated_list(
                parser.Delimiter.NONE, lambda: _parse_earlier_buffer(parser)
            ),
            strict=True,
        )
        self.buffers.set(state, operands)
        self.types.set(state, types)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        printer.print_list(self.buffers.get(op), printer.print_operand)

    def is_anchorable(self) -> bool:
        return True

    def is_present(self, op: IRDLOperation) -> bool:
        return bool(self.buffers.get(op))

    def set_empty(self, state: ParsingState) -> None:
        self.buffers.set_empty(state)
        self.types.set(state, ())


NAMED_LIVENESS_PROPERTIES = (
    "buffers",
    "interval_owners",
    "interval_starts",
    "interval_ends",
    "conflict_pairs",
)
"""What `usmp.liveness` held when it named its buffers (`formats/named_liveness.py`)."""


def parse_named_liveness(parser: Parser) -> dict[str, Attribute]:
    """The body of the older form, after its `{`: a line a buffer, `"name" [s, e) ...
    conflicts("other", ...)`."""
    names: list[str] = []
    owners: list[int] = []
    bounds: list[int] = []
    named_conflicts: list[tuple[int, str, int]] = []
    while (name := parser.parse_optional_str_literal()) is not None:
        index = len(names)
        names.append(name)
        intervals = parse_intervals(parser)
        owners.extend([index] * (len(intervals) // 2))
        bounds.extend(intervals)
        if parser.parse_optional_keyword("conflicts") is not None:
            named_conflicts.extend(
                (index, other, pos)
                for pos, other in parser.parse_comma_separated_list(
                    parser.Delimiter.PAREN,
                    lambda: (parser.pos, parser.parse_str_literal()),
                )
            )
    parser.parse_punctuation("}")
    position = {n: i for i, n in enumerate(names)}
    pairs: list[int] = []
    for index, other, pos in named_conflicts:
        if other not in position:
            parser.raise_error(f"conflict with unknown buffer '{other}'", pos)
        pairs.extend((index, position[other]))
    return dict(
        zip(
            NAMED_LIVENESS_PROPERTIES,
            (
                ArrayAttr(StringAttr(n) for n in names),
                i64_array(owners),
                i64_array(bounds[0::2]),
                i64_array(bounds[1::2]),
                i64_array(pairs),
            ),
            strict=True,
        )
    )


def plain_alloc(
    content: str, position: int
) -> tuple[int, tuple[str, list[str], MemRefType, int, int | None, list[int] | bytes]] | None:
    """`usmp.alloc_offset`'s common form read from `position` of `content` (after the op's
    name) with one regular expression: where it ends, and the op's constructor arguments
    (name, pools, type, alignment, offset, live); None for any other form."""
    match = PLAIN_ALLOC.match(content, position)
    if match is None:
        return None
    name, pool, offset, alignment, start, end, more, dims, element = match.groups()
    buffer_type = plain_memref(dims, element)
    if buffer_type is None:
        return None
    live: list[int] | bytes = b""
    if more:
        live = [int(start), int(end), *map(int, NUMBER.findall(more))]
    elif start is not None:
        live = ONE_INTERVAL.pack(int(start), int(end))
    return match.end(), (
        name,
        [] if pool is None else [pool],
        buffer_type,
        int(alignment),
        None if offset is None else int(offset),
        live,
    )


def plain_alloc_text(op: PlacedBuffer, buffer_type: Attribute) -> str:
    """`usmp.alloc_offset`'s common form after its name, without conflicts or attributes,
    as one string (the format's printer, a call a piece, cost a fifth more on a large
    problem)."""
    return (
        f" {string_literal(op.buffer_name.data)} {pool_slot_text(op)}"
        f" align {op.alignment_bytes}{live_text(op.live_array())} : {type_text(buffer_type)}"
    )
