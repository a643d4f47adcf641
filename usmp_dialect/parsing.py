"""An MLIR parser that remembers where each op was written, so diagnostics can say
`file:line:col` the way MLIR's do, that turns every fault of its input into such a
diagnostic (a `ParseError`, or a `LocatedError` for a failed attribute verifier), and whose
modules print back parseable whatever their SSA names."""

from __future__ import annotations

import math
import os
import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from io import StringIO
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyDenseElement,
    AnyFloat,
    ArrayAttr,
    ContainerType,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    DictionaryAttr,
    FileLineColLoc,
    IntAttr,
    IntegerType,
    ModuleOp,
    RankedStructure,
    ShapedType,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue, TypeAttribute
from xdsl.irdl import IRDLOperation, OptAttributeDef, OptPropertyDef
from xdsl.irdl.operations import VerificationContext
from xdsl.parser.core import ForwardDeclaredValue, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

from usmp_dialect.analysis.ssa_dominance import Use, candidate_uses, first_violation
from usmp_dialect.diagnostics import (
    MAX_NESTING,
    LocatedError,
    UsmpError,
    decode_input,
    location_prefix,
    with_location,
)
from usmp_dialect.dialects.tir import set_readable_hint
from usmp_dialect.dialects.usmp import StateValuesAttr
from usmp_dialect.dialects.usmp_records import typed_records
from usmp_dialect.formats import resources
from usmp_dialect.formats.named_liveness import upgrade_named_liveness
from usmp_dialect.formats.resources import Blobs
from usmp_dialect.universe import usmp_context
from usmp_dialect.xdsl_compat import (
    HookedParser,
    current_token,
    define_ssa_values,
    dialect_stack,
)

MAX_INTEGER_WIDTH = (1 << 24) - 1
"""MLIR's limit on an integer type's width (`IntegerType::kMaxWidth`): xDSL has none, and
computes the range of an `i99999999999` as a Python integer of that many bits."""

PARSED_BYTES_PER_ELEMENT = 8
"""What xDSL holds per element of a `dense<...>` while it parses one, besides the element's
own bytes: a splat is first a Python list of the shape's element count."""

_PREDICATES: dict[type[Operation], Sequence[str]] = {
    arith.CmpiOp: arith.CMPI_COMPARISON_OPERATIONS,
    arith.CmpfOp: arith.CMPF_COMPARISON_OPERATIONS,
}
"""Comparisons whose predicate is an integer in the generic form: xDSL verifies no range,
and its printer indexes these names with it."""

_RESULT_AND_NAME = re.compile(
    r"%([0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)\s*=\s*([a-zA-Z_][a-zA-Z0-9_$.]*)\s*", re.ASCII
)
"""One result and an op's name, as the lexer reads them."""


class LocatingParser(HookedParser):
    def __init__(
        self, ctx: Context, input: str | bytes | bytearray, name: str, line_offset: int = 0
    ):
        if isinstance(input, str) and "{-#" in input:
            input = input.encode()
        self._blobs = Blobs()
        if isinstance(input, bytes | bytearray):
            # The blobs are read from the bytes, before the (small) rest becomes text.
            input, self._blobs = resources.split(input, name, line_offset)
            input = decode_input(input, name, line_offset)
        self._resource_uses: list[tuple[str, ShapedType, int]] = []
        super().__init__(ctx, input, name)
        self._line_offset = line_offset
        self._file_name = StringAttr(name)
        self._depth = 0
        self._forward_uses: list[Use] = []
        self._multi_block_regions: list[Region] = []
        # Line starts found once, so locating an op is a binary search rather than a
        # count of the newlines before it (which made large inputs quadratic).
        self._line_starts = [0]
        position = input.find("\n")
        while position >= 0:
            self._line_starts.append(position + 1)
            position = input.find("\n", position + 1)

    def parse_operation(self) -> Operation:
        start = self.pos
        if self._depth == MAX_NESTING:
            self.raise_error(f"ops nest deeper than the limit of {MAX_NESTING} levels", start)
        self._depth += 1
        try:
            op = self._parse_plain_operation() or super().parse_operation()
        except (ValueError, ArithmeticError) as error:
            # A value the syntax allows but its type cannot hold (an integer past 64 bits,
            # a number of thousands of digits) is a mistake at this op.
            self.raise_error(_without_python_hint(str(error)), start, self.pos)
        except VerifyException as error:
            # An attribute or type that failed its own verifier while being parsed.
            line, column = self._line_and_column(start)
            raise LocatedError(str(error), f"{self.lexer.input.name}:{line}:{column}") from None
        finally:
            self._depth -= 1
        if op.regions:
            self._check_operands_defined_before(op, start)
        if (predicates := _PREDICATES.get(type(op))) is not None and not (
            0 <= cast(arith.CmpiOp, op).predicate.value.data < len(predicates)
        ):
            self.raise_error(
                f"'{op.name}' predicate must be one of 0 to {len(predicates) - 1}", start
            )
        if isinstance(op.location, UnknownLoc):
            line, column = self._line_and_column(start)
            op.location = FileLineColLoc(self._file_name, IntAttr(line), IntAttr(column))
        return op

    def _check_operands_defined_before(self, op: Operation, start: int) -> None:
        """xDSL 0.75 resolves a value used before its definition when the definition comes,
        and an op's regions come before the op is made: a value defined inside them stays
        unresolved in the op's operands (a traceback at verification)."""
        for index, operand in enumerate(op.operands):
            if isinstance(operand, ForwardDeclaredValue) and not any(
                operand is waiting
                for references in self.forward_ssa_references.values()
                for waiting in references.values()
            ):
                self.raise_error(
                    f"operand #{index} does not dominate this use: it is defined inside the "
                    "op's own regions",
                    start,
                )

    def ssa_values_defined(self, name: str, values: Sequence[SSAValue]) -> None:
        for index, forward in self.forward_ssa_references.get(name, {}).items():
            if index < len(values):
                self._forward_uses.extend(
                    (values[index], use.operation, use.index) for use in forward.uses
                )

    def parse_optional_region(
        self, arguments: Sequence[Parser.Argument] | None = None
    ) -> Region | None:
        region = super().parse_optional_region(arguments)
        if region is not None and region.blocks.first is not region.blocks.last:
            self._multi_block_regions.append(region)
        return region

    def _check_dominance(self) -> None:
        """xDSL 0.75 resolves a use before a definition by name wherever the definition
        is, and checks no dominance between blocks. Only the uses that may break MLIR's
        rule are checked: those before their definition, and those across blocks (a file
        with neither, the common one, costs nothing here)."""
        if not self._forward_uses and not self._multi_block_regions:
            return
        uses = candidate_uses(self._forward_uses, self._multi_block_regions)
        if (violation := first_violation(uses)) is None:
            return
        name = self.lexer.input.name
        note = f"{location_prefix(violation.definition, name)}: note: {violation.note}"
        raise LocatedError(
            f"operand #{violation.index} does not dominate this use\n{note}",
            location_prefix(violation.user, name),
        )

    def generic_operation_parsed(self, op: Operation) -> Operation:
        """xDSL verifies an op's regions before the op itself, so a verifier of an op
        inside reads its parent's properties unchecked (`func.return` read the
        `function_type` of a `func.func` whose generic form gave an integer). An op in
        generic form has its properties and attributes checked as it is parsed; the
        custom forms build them typed."""
        if isinstance(op, IRDLOperation):
            definition = op.get_irdl_definition()
            context = VerificationContext()
            for kind, group, given in (
                ("property", definition.properties, op.properties),
                ("attribute", definition.attributes, op.attributes),
            ):
                for name, attr_def in group.items():
                    if name in given:
                        attr_def.constr.verify(given[name], context)
                    elif not isinstance(attr_def, OptPropertyDef | OptAttributeDef):
                        raise VerifyException(f"{kind} '{name}' expected in operation '{op.name}'")
        return op

    def _parse_plain_operation(self) -> Operation | None:
        """`%x = name ...` of an op that reads its common form in one go (a classmethod
        `parse_plain(parser, position)`, as `usmp.alloc_offset` has), without lexing the
        result and the name token by token: a large problem holds tens of thousands of
        such lines, and those tokens were most of their cost."""
        if current_token(self).kind is not MLIRTokenKind.PERCENT_IDENT:
            return None
        head = _RESULT_AND_NAME.match(self.lexer.input.content, self.pos)
        if head is None:
            return None
        op_type = self.ctx.get_optional_op(head.group(2), dialect_stack=dialect_stack(self))
        parse_plain = getattr(op_type, "parse_plain", None)
        if parse_plain is None or (op := parse_plain(self, head.end())) is None:
            return None
        if (location := self.parse_optional_location()) is not None:
            op.location = location
        result = Span(head.start(), head.end(1), self.lexer.input)
        define_ssa_values(self, head.group(1), op.results, result)
        return op

    def integer_or_float_type_parsed(
        self, parsed: TypeAttribute | None, start: int
    ) -> TypeAttribute | None:
        if isinstance(parsed, IntegerType) and parsed.width.data > MAX_INTEGER_WIDTH:
            self.raise_error(
                f"integer bitwidth is limited to {MAX_INTEGER_WIDTH} bits", start, self.pos
            )
        return parsed

    def dense_literal_type_parsed(
        self, parsed: RankedStructure[AnyDenseElement], start: int
    ) -> RankedStructure[AnyDenseElement]:
        elements = math.prod(parsed.get_shape())
        element = parsed.get_element_type()
        bits = element.bitwidth if isinstance(element, IntegerType) else 64
        needed = elements * (PARSED_BYTES_PER_ELEMENT + (bits + 7) // 8)
        if needed > (memory := physical_memory()):
            self.raise_error(
                f"a dense literal of {elements} elements would need {needed} bytes, more "
                f"than this machine's {memory} bytes of memory",
                start,
                self.pos,
            )
        return parsed

    def parse_dense_int_or_fp_elements_attr(
        self, type: RankedStructure[AnyDenseElement] | None
    ) -> DenseIntOrFPElementsAttr:
        with self.dense_elements_read(self.pos):
            return super().parse_dense_int_or_fp_elements_attr(type)

    @contextmanager
    def dense_elements_read(self, start: int) -> Iterator[None]:
        """xDSL packs `array<...>` and `dense<...>` elements as C numbers of at most 64
        bits and raises NotImplementedError for wider ones (`array<i128: 1>`)."""
        try:
            yield
        except NotImplementedError as error:
            message = str(error).replace("Format not implemented for ", "")
            self.raise_error(
                f"elements of type {message} are not supported: xDSL stores array and "
                "dense elements of at most 64 bits",
                start,
                self.pos,
            )

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        """xDSL keeps `%x_1_2` as the hint `x_1`, which its printer may also give another
        value: the hints are made ones that print uniquely. Records passes hand on that
        were written in their untyped form are read as their typed attributes."""
        module = super().parse_module(allow_implicit_module)
        self._check_dominance()
        self._check_resource_uses()
        upgrade_named_liveness(module, self.lexer.input.name)
        resources.set_blobs(module, self._blobs)
        try:
            typed_records(module)
        except UsmpError as error:
            where = location_prefix(error.op, self.lexer.input.name)
            raise LocatedError(error.message, where) from error
        for op in module.walk():
            for value in (*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)):
                if value.name_hint is not None:
                    set_readable_hint(value, value.name_hint)
        return module

    def parse_dense_resource_attr(self) -> DenseResourceAttr:
        """`dense_resource<name> : type`, its blob looked up once the file's section is
        read (xDSL's own would declare the name in a store of the whole process)."""
        self.parse_characters("<", " in dense_resource attribute")
        start = self.pos
        handle = self.parse_identifier(context_msg=" for resource handle")
        self.parse_characters(">", " in dense_resource attribute")
        self.parse_characters(":", " in dense_resource attribute")
        type = self.parse_type()
        if not isinstance(type, ShapedType):
            self.raise_error(f"dense resource should have a shaped type, got: {type}")
        self._resource_uses.append((handle, type, start))
        return DenseResourceAttr.from_params(handle, type)

    def _check_resource_uses(self) -> None:
        for handle, type, position in self._resource_uses:
            line, column = self._line_and_column(position)
            where = f"{self.lexer.input.name}:{line}:{column}"
            if handle not in self._blobs.spans:
                raise LocatedError(
                    f"resource '{handle}' is not in the file's dialect_resources section "
                    "(was it written with --elide-constants?)",
                    where,
                )
            size = self._blobs.spans[handle][1]
            element = type.get_element_type() if isinstance(type, ContainerType) else type
            bits = element.bitwidth if isinstance(element, IntegerType | AnyFloat) else None
            if bits is None:
                raise LocatedError(f"resource '{handle}' has elements of type {element}", where)
            needed = math.prod(type.get_shape()) * ((bits + 7) // 8)
            if size != needed:
                raise LocatedError(
                    f"resource '{handle}' has {size} bytes, its type {type} needs {needed}",
                    where,
                )

    def _line_and_column(self, position: int) -> tuple[int, int]:
        line = bisect_right(self._line_starts, position)
        return line + self._line_offset, position - self._line_starts[line - 1] + 1


def physical_memory() -> int:
    """Bytes of memory this machine has."""
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def parse_module(text: str | bytes | bytearray, name: str) -> ModuleOp:
    """`text` as a verified module; a mistake in it is a located diagnostic."""
    module = LocatingParser(usmp_context(), text, name).parse_module()
    try:
        module.verify()
    except VerifyException as error:
        raise with_location(error, module) from error
    return module


def print_module(module: ModuleOp, elide_constants: bool = False) -> str:
    """The module's text, and after it the section of the blobs it names unless
    `elide_constants` (a module to read, not to parse again)."""
    return "".join(
        piece if isinstance(piece, str) else piece.decode("ascii")
        for piece in module_pieces(module, elide_constants)
    )


def module_pieces(module: ModuleOp, elide_constants: bool = False) -> Iterator[str | bytes]:
    """`print_module`'s text in pieces, each blob's hex made when it is written: a
    model's weights are never all in hex at once."""
    output = StringIO()
    Printer(stream=output).print_op(module)
    output.write("\n")
    yield output.getvalue()
    yield from resources_pieces(module, elide_constants)


def resources_pieces(module: ModuleOp, elide_constants: bool = False) -> Iterator[str | bytes]:
    """The file's `{-# dialect_resources ... #-}` section for the blobs `module` names."""
    blobs = resources.blobs_of(module)
    if not blobs.spans:
        return
    names = sorted(resource_handles(module) & blobs.spans.keys())
    if elide_constants:
        yield f"// {len(names)} resources of {blobs.nbytes} bytes elided (--elide-constants)\n"
    else:
        yield from resources.section_text(blobs, names)


def resource_handles(module: ModuleOp) -> set[str]:
    """The names of the `dense_resource`s in `module`'s attributes and properties."""
    handles: set[str] = set()
    pending: list[Attribute] = []
    for op in module.walk():
        pending.extend(op.attributes.values())
        pending.extend(op.properties.values())
    while pending:
        attribute = pending.pop()
        if isinstance(attribute, DenseResourceAttr):
            handles.add(attribute.resource_handle.data)
        elif isinstance(attribute, DictionaryAttr):
            pending.extend(attribute.data.values())
        elif isinstance(attribute, StateValuesAttr):
            pending.extend(attribute.by_name.values())
        elif isinstance(attribute, ArrayAttr):
            pending.extend(attribute.data)
    return handles


def _without_python_hint(message: str) -> str:
    """Python's int-string limit message, without its advice to the programmer."""
    return message.split("; use sys.set_int_max_str_digits", maxsplit=1)[0]
