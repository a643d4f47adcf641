"""The `usmp` dialect: memory pools, buffers placed in them, and when buffers are live.

```mlir
usmp.pool @sram workspace alignment 16 size_hint 4096 targets ["c"]
%a = usmp.alloc_offset "a" @sram[?] align 16 live [0, 5) [7, 9) : memref<16xf32>
%b = usmp.alloc_offset "b" [@sram, @dram][?] align 16 live [3, 8) : memref<8xi32>
%c = usmp.alloc_offset "c" [][?] align 1 conflicts(%a) : memref<2xf32>   // no pools yet
usmp.liveness
```

Each buffer carries its own live intervals, and a hand-written problem's explicit
conflicts are uses of the buffers it conflicts with: nothing refers to a buffer by name.
`usmp.liveness` says the intervals are known. After planning every `?` is a byte offset,
every candidate list a single pool, and every pool carries its planned `size`. The
verifiers reject what cannot be right, including two buffers that are live at the same
time and share a byte (`usmp.liveness`'s verifier runs the planner's validator,
`planning/validator.py`, on the module's plan).

This file holds the ops and their attributes. Their text's custom directives and fast path
are in `usmp_syntax.py`, the records' untyped forms (older files, TVM's attributes) in
`usmp_records.py`, and a module as a planning problem in `analysis/module_problem.py`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar, Generic, TypeVar, cast

import numpy as np
from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    DenseArrayBase,
    DenseResourceAttr,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    UnitAttr,
    i1,
    i64,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
)
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    MemoryAllocEffect,
    SymbolOpInterface,
    SymbolTable,
    SymbolUserOpInterface,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from usmp_dialect.diagnostics import INT64_MAX, MAX_TOTAL_BYTES, UsmpError
from usmp_dialect.dialects.usmp_syntax import (
    I64_ARRAY,
    EarlierBuffers,
    Int64,
    KeywordInt64,
    LiveIntervals,
    PoolSlot,
    i64_array,
    i64_attr,
    int_attr,
    is_i64_array,
    live_pairs,
    parse_int64,
    parse_name_map,
    parse_named_liveness,
    parse_sizes,
    plain_alloc,
    plain_alloc_text,
    print_name_map,
    print_sizes,
    symbol_refs,
    symbol_text,
)
from usmp_dialect.planning.buffer_table import BufferTable, table_problem, written_plan
from usmp_dialect.planning.problem import PoolSpec
from usmp_dialect.planning.validator import validate
from usmp_dialect.xdsl_compat import (
    block_ops,
    has_no_operands_or_successors,
    is_before_in_block,
    put_in_front_of_format,
    resume_parser_at,
)

UNPLANNED_ATTR = "usmp.unplanned"
"""Discardable attribute on an allocation the planner leaves alone, saying why."""
PLAN_ATTR = "usmp.plan"
"""Discardable attribute on a module `usmp-plan` planned, saying how: a `PlanAttr`."""
OVERFLOW_ATTR = "usmp.overflowed_from"
"""Discardable attribute `usmp-plan` puts on a buffer it placed in a later candidate pool:
the earlier candidates, whose size hints it did not fit (`[@sram]`)."""
FILL_ATTR = "usmp.fill"
"""On a module planned with `usmp-plan{fill=traffic}`: per pool, `[traffic, size under
TVM's rule, traffic under TVM's rule]` (traffic: bytes the calls read and write of its
buffers, `analysis/traffic.py`), for the report's comparison on the same pools."""
IO_ATTR = "usmp.io"
"""Discardable attribute on an allocation that was an input or output param of the entry
function (`tir-io-to-allocations`): an `IOAttr`."""
CONSTANTS_ATTR = "usmp.constants"
"""On an entry function: the params that hold constant data (a model's weights, or the
params its `T.lookup_param` calls named, bound by `--import-tvmscript --params`), which
are not inputs (`tir-io-to-allocations` leaves them params; `tir-constants-to-buffers` moves
them into a constant pool when there is one)."""
SHARED_CONSTANTS_ATTR = "usmp.shared_constants"
"""On an entry function: each named constant stored once with an equal one (same dtype and
bytes) and the name it is stored under, a `SharedConstantsAttr`: overriding that one
overrides every operator reading either."""
NARROWED_CONSTANTS_ATTR = "usmp.narrowed_constants"
"""On an entry function: each int32 constant of the model file stored in fewer bytes
(`{conv_bias = "conv_bias_int16"}`: its values fit int16), by its file name: the name of
the constant that holds its values, or of the one that holds them and equal bytes
(`usmp.shared_constants`). An override under the file's name is converted to the stored
type when its values fit."""
OUTPUTS_ATTR = "usmp.outputs"
"""On an entry function: the params that hold the model's outputs (its returned values, as
the importer found them); its other buffer params that are not constants are inputs. It
decides each one's kind (`tir-io-to-allocations`, the C library), whatever the operators do
with it: an output they write and then read back stays an output. Without it, TVM's rule:
a param read is an input, one written an output."""
CONSTANT_VALUES_ATTR = "usmp.constant_values"
"""On an entry function: the value of each constant (by its param's name), a
`dense_resource` naming its little-endian bytes among the module's blobs
(`usmp_dialect.formats.resources`), or a `dense` tensor of them as written before; the constant
pool's initial bytes are written from them."""
TARGET_ATTR = "usmp.target"
"""A function's target; a pool with targets serves only functions of those targets."""
POOL_ARG_ATTR = "usmp.pool"
"""On a function argument `usmp-to-memref` added: the pool (a symbol) it is the base of."""
POOLS_ATTR = "usmp.pools"
"""On the entry function after `usmp-to-tir`: each pool's planned size, a `PoolSizesAttr`."""
POOL_SECTIONS_ATTR = "usmp.pool_sections"
"""The planned entry's record of the linker section each of its pools goes in, where the
pool names one (`section`): a dictionary of strings, by pool."""
POOL_ALIGNMENTS_ATTR = "usmp.pool_alignments"
"""The planned entry's record of each of its pools' alignment in bytes where it is not
`DEFAULT_ALIGNMENT` (`alignment=64`): the alignment of the pool's base that the plan's
offsets build on, a dictionary of integers, by pool."""
IO_OFFSETS_ATTR = "usmp.io_offsets"
"""On the entry function after `usmp-to-tir`: where each input, output and constant placed
in a pool lives, an `IOOffsetsAttr`."""
STATE_VALUES_ATTR = "usmp.state_values"
"""On an entry function with a `usmp.state`: each variable's first value (by the name of
its value before a run), which the caller writes into the state once before the first run,
a `StateValuesAttr`."""
STATE_ATTR = "usmp.state"
"""On an entry function: the state a model keeps from run to run (a `.tflite` file's
resource variables), a `StateAttr` pairing the input param that holds each variable's value
before the run with the output param of its value after; `tir-state-to-allocations` makes
each pair one buffer of a state pool."""
IN_PLACE_ATTR = "usmp.in_place"
"""On an operator: `[i, j]` pairs of its params, each output param j computed correctly
when it is the buffer of input param i (an SVDF's state shift writes element k from
element k + 1, ahead of it); `tir-state-to-allocations` then lets a variable's value before
the run (passed as i) and after it (passed as j) be one buffer."""
SCHEDULE_ATTR = "usmp.schedule"
"""On an entry function whose calls `tir-reorder-for-memory` reordered: the new order, its
peak against the file's and whether it is proven least, a `ScheduleAttr`."""
IN_PLACE_RESULTS_ATTR = "usmp.in_place_results"
"""On an entry function: each result `tir-in-place-results` made a view of the bytes of an
input that dies at the result's operator, an `InPlaceResultsAttr`."""
DEFAULT_ALIGNMENT = 16

_INT_POOL_PROPERTIES = (
    "clock_frequency_hz",
    "read_bandwidth_bytes_per_cycle",
    "write_bandwidth_bytes_per_cycle",
    "read_latency_cycles",
    "write_latency_cycles",
)


def _lookup_pools(op: Operation, refs: Sequence[SymbolRefAttr]) -> list[Operation | None]:
    """`SymbolTable.lookup_symbol` of each ref, with a faster path for pools declared at
    the top of the module that holds `op` (each of tens of thousands of buffers looks its
    pools up when verified): one walk over those pools, however many refs a buffer has
    (a buffer may list thousands of candidates). Symbols are unique in a verified symbol
    table, so the first op of a name is the one."""
    block = op.parent
    if block is None or type(block.parent_op()) is not ModuleOp:
        return [SymbolTable.lookup_symbol(op, ref) for ref in refs]
    wanted = {ref.root_reference.data for ref in refs if not ref.nested_references.data}
    found: dict[str, Operation] = {}
    candidate = block.first_op
    # By exact type: `isinstance` on an op class goes through `ABCMeta`.
    while type(candidate) is PoolOp and len(found) < len(wanted):
        name = candidate.sym_name.data
        if name in wanted:
            found.setdefault(name, candidate)
        candidate = candidate.next_op
    return [
        pool
        if (pool := found.get(ref.root_reference.data)) is not None
        else SymbolTable.lookup_symbol(op, ref)
        for ref in refs
    ]


def _is_i64_attr(attr: Attribute | None) -> bool:
    return type(attr) is IntegerAttr and (attr.type is i64 or attr.type == i64)


_Fact = TypeVar("_Fact")


class _ByIdentity(Generic[_Fact]):
    """Facts about attributes, found by identity: attributes are immutable, the many ops of
    a large problem share theirs, and hashing one (a memref type, a list) costs
    microseconds. An entry holds its attribute, so its id cannot be reused while kept."""

    def __init__(self) -> None:
        self._entries: dict[int, tuple[Attribute, _Fact]] = {}

    def get(self, attr: Attribute) -> _Fact | None:
        entry = self._entries.get(id(attr))
        return None if entry is None else entry[1]

    def put(self, attr: Attribute, fact: _Fact) -> _Fact:
        if len(self._entries) == 4096:
            self._entries.clear()
        self._entries[id(attr)] = (attr, fact)
        return fact


def _is_symbol_list(attr: Attribute | None) -> bool:
    """An `ArrayAttr` of `SymbolRefAttr`s; the many buffers that share one list have it
    checked once."""
    if type(attr) is not ArrayAttr:
        return False
    if _SYMBOL_LISTS.get(attr):
        return True
    if not all(type(ref) is SymbolRefAttr for ref in attr.data):
        return False
    return _SYMBOL_LISTS.put(attr, True)


_SYMBOL_LISTS: _ByIdentity[bool] = _ByIdentity()


def _is_power_of_two(value: int) -> bool:
    return value > 0 and value & (value - 1) == 0


class PoolKind(StrEnum):
    """What a pool holds: buffers live for part of a run, or data fixed before it."""

    WORKSPACE = "workspace"
    CONSTANT = "constant"
    STATE = "state"
    """The model's state, kept by the caller from run to run (one buffer a variable)."""


@irdl_attr_definition
class PoolKindAttr(EnumAttribute[PoolKind], SpacedOpaqueSyntaxAttribute):
    name = "usmp.pool_kind"


class IOKind(StrEnum):
    """What an entry function's param placed in a pool carries: read means input, written
    output; a constant is data fixed before the run (a weight), in a constant pool; state
    is a variable's value before the run and after it, at the same bytes of a state pool."""

    INPUT = "input"
    OUTPUT = "output"
    INPUT_OUTPUT = "input_output"
    CONSTANT = "constant"
    STATE = "state"


@irdl_attr_definition
class IOKindAttr(EnumAttribute[IOKind], SpacedOpaqueSyntaxAttribute):
    name = "usmp.io_kind"


@irdl_attr_definition
class IOAttr(ParametrizedAttribute):
    """`#usmp.io<"x", input>`: the allocation holds the entry's I/O param `x`, under the
    name the application knows it by."""

    name = "usmp.io"

    param_name: StringAttr
    kind: IOKindAttr

    def __init__(self, param_name: str, kind: str):
        super().__init__(StringAttr(param_name), IOKindAttr(IOKind(kind)))

    def verify(self) -> None:
        if not self.param_name.data:
            raise VerifyException("usmp.io names the param it holds; the name is empty")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr, IOKindAttr]:
        with parser.in_angle_brackets():
            param_name = parser.parse_str_literal()
            parser.parse_punctuation(",")
            kind = parser.parse_str_enum(IOKind)
        return StringAttr(param_name), IOKindAttr(kind)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string_literal(self.param_name.data)
            printer.print_string(f", {self.kind.data}")


_POOL_KIND_OF_IO = {IOKind.CONSTANT: PoolKind.CONSTANT, IOKind.STATE: PoolKind.STATE}
_BUFFER_OF_POOL_KIND = {
    PoolKind.WORKSPACE: "workspace buffer",
    PoolKind.CONSTANT: "constant",
    PoolKind.STATE: "state variable",
}
_HELD_BY_POOL_KIND = {PoolKind.CONSTANT: "constants", PoolKind.STATE: "state"}


def _verify_sizes(sizes: DictionaryAttr, what: str) -> None:
    for name, size in sizes.data.items():
        if not (isinstance(size, IntegerAttr) and _is_i64_attr(size) and size.value.data >= 0):
            raise VerifyException(f"{what} of '{name}' must be a non-negative i64, got {size}")


def _sizes_dictionary(sizes: Mapping[str, int]) -> DictionaryAttr:
    return DictionaryAttr({name: int_attr(size) for name, size in sizes.items()})


def _sizes_of(sizes: DictionaryAttr) -> dict[str, int]:
    return {name: cast(IntegerAttr, size).value.data for name, size in sizes.data.items()}


@irdl_attr_definition
class PlanAttr(ParametrizedAttribute):
    """`#usmp.plan<"exact", proven_optimal = true, time_limit_reached = false,
    lower_bounds = {sram = 60}>`: how `usmp-plan` planned a module (`usmp.plan` on it).
    `lower_bounds`: per pool, the size a search proved no plan goes below; only the pools
    a search ran on, and printed only when there is one."""

    name = "usmp.plan"

    algorithm: StringAttr
    proven_optimal: IntegerAttr
    time_limit_reached: IntegerAttr
    lower_bounds: DictionaryAttr

    def __init__(
        self,
        algorithm: str,
        proven_optimal: bool,
        time_limit_reached: bool,
        lower_bounds: Mapping[str, int],
    ):
        super().__init__(
            StringAttr(algorithm),
            IntegerAttr(int(proven_optimal), i1),
            IntegerAttr(int(time_limit_reached), i1),
            _sizes_dictionary(lower_bounds),
        )

    @property
    def bounds(self) -> dict[str, int]:
        return _sizes_of(self.lower_bounds)

    def verify(self) -> None:
        if not self.algorithm.data:
            raise VerifyException("usmp.plan names the algorithm that planned; the name is empty")
        for flag in (self.proven_optimal, self.time_limit_reached):
            if flag.type != i1:
                raise VerifyException(f"usmp.plan's flags are i1, got {flag}")
        _verify_sizes(self.lower_bounds, "usmp.plan lower bound")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            algorithm = parser.parse_str_literal(" naming the algorithm")
            flags: list[bool] = []
            for flag in ("proven_optimal", "time_limit_reached"):
                parser.parse_punctuation(",")
                parser.parse_keyword(flag)
                parser.parse_punctuation("=")
                flags.append(parser.parse_boolean())
            bounds = DictionaryAttr({})
            if parser.parse_optional_punctuation(",") is not None:
                parser.parse_keyword("lower_bounds")
                parser.parse_punctuation("=")
                with parser.in_braces():
                    bounds = parse_sizes(parser, "usmp.plan lower bound")
        return (
            StringAttr(algorithm),
            IntegerAttr(int(flags[0]), i1),
            IntegerAttr(int(flags[1]), i1),
            bounds,
        )

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string_literal(self.algorithm.data)
            proven, capped = (
                bool(f.value.data) for f in (self.proven_optimal, self.time_limit_reached)
            )
            printer.print_string(
                f", proven_optimal = {str(proven).lower()}, "
                f"time_limit_reached = {str(capped).lower()}"
            )
            if self.lower_bounds.data:
                printer.print_string(", lower_bounds = {")
                print_sizes(printer, self.lower_bounds)
                printer.print_string("}")


@irdl_attr_definition
class PoolSizesAttr(ParametrizedAttribute):
    """`#usmp.pool_sizes<sram = 4096, flash = 64>`: the planned size in bytes of each pool
    the entry function takes (`usmp.pools` on it after `usmp-to-tir`), in its params'
    order."""

    name = "usmp.pool_sizes"

    sizes: DictionaryAttr

    def __init__(self, sizes: Mapping[str, int]):
        super().__init__(_sizes_dictionary(sizes))

    @property
    def by_pool(self) -> dict[str, int]:
        return _sizes_of(self.sizes)

    def verify(self) -> None:
        _verify_sizes(self.sizes, "usmp.pool_sizes size")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return (parse_sizes(parser, "usmp.pool_sizes size"),)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            print_sizes(printer, self.sizes)


class NameMapAttr(ParametrizedAttribute):
    """A record of names, each paired with another name: `#usmp.NAME<a = "b", ...>`. The
    records of this shape say what each pair means (`_paired_with`)."""

    names: DictionaryAttr

    def __init__(self, pairs: Mapping[str, str]):
        super().__init__(DictionaryAttr({n: StringAttr(p) for n, p in pairs.items()}))

    @property
    def pairs(self) -> dict[str, str]:
        return {name: cast(StringAttr, paired).data for name, paired in self.names.data.items()}

    @classmethod
    def _paired_with(cls, name: str) -> str:
        """What the name paired with `name` names, for a diagnostic."""
        raise NotImplementedError

    @classmethod
    def _entry(cls) -> str:
        """What each name of the record names, for a diagnostic."""
        raise NotImplementedError

    def verify(self) -> None:
        for name, paired in self.names.data.items():
            if not isinstance(paired, StringAttr) or not paired.data:
                raise VerifyException(f"{self.name} names {self._paired_with(name)}, got {paired}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return (parse_name_map(parser, f"{cls._entry()} in {cls.name}"),)

    def print_parameters(self, printer: Printer) -> None:
        print_name_map(printer, self.pairs)


@irdl_attr_definition
class SharedConstantsAttr(NameMapAttr):
    """`#usmp.shared_constants<b2 = "b1">`: each constant of the entry stored once with an
    equal one (`usmp.shared_constants` on it), and the name that one is stored under."""

    name = "usmp.shared_constants"

    @property
    def stored_with(self) -> dict[str, str]:
        return self.pairs

    @classmethod
    def _paired_with(cls, name: str) -> str:
        return f"the constant '{name}' is stored with"

    @classmethod
    def _entry(cls) -> str:
        return "a constant"


@irdl_attr_definition
class NarrowedConstantsAttr(NameMapAttr):
    """`#usmp.narrowed_constants<conv_bias = "conv_bias_int16">`: each int32 constant of
    the model file stored in fewer bytes, by its file name, and the name of the constant
    that holds its values (`usmp.narrowed_constants` on the entry)."""

    name = "usmp.narrowed_constants"

    @property
    def stored_as(self) -> dict[str, str]:
        return self.pairs

    @classmethod
    def _paired_with(cls, name: str) -> str:
        return f"the constant the file's '{name}' is stored as"

    @classmethod
    def _entry(cls) -> str:
        return "a file constant"


@irdl_attr_definition
class StateAttr(NameMapAttr):
    """`#usmp.state<s = "s_next">`: each variable of the state the entry keeps from run to
    run, by the input param of its value before the run, and the output param of its value
    after (`usmp.state` on the entry)."""

    name = "usmp.state"

    @property
    def after(self) -> dict[str, str]:
        """The output param of each variable's value after the run, by its input param."""
        return self.pairs

    @classmethod
    def _paired_with(cls, name: str) -> str:
        return f"the output param of variable '{name}'"

    @classmethod
    def _entry(cls) -> str:
        return "a variable"

    def verify(self) -> None:
        super().verify()
        seen: set[str] = set()
        for name, after in self.after.items():
            if after in self.names.data or after in seen:
                raise VerifyException(
                    f"usmp.state gives variable '{name}' the output param '{after}', "
                    "which is another variable's"
                )
            seen.add(after)


@irdl_attr_definition
class InPlaceResultsAttr(NameMapAttr):
    """`#usmp.in_place_results<total = "a">`: each result `tir-in-place-results` made a
    view of the bytes of an input that dies at the result's operator, and that input
    (`usmp.in_place_results` on the entry)."""

    name = "usmp.in_place_results"

    @property
    def over(self) -> dict[str, str]:
        """The input whose bytes each result is computed in, by result."""
        return self.pairs

    @classmethod
    def _paired_with(cls, name: str) -> str:
        return f"the input result '{name}' is computed over"

    @classmethod
    def _entry(cls) -> str:
        return "a result"

    def verify(self) -> None:
        super().verify()
        for result, source in self.over.items():
            if result == source:
                raise VerifyException(
                    f"usmp.in_place_results computes '{result}' over itself: "
                    "a result goes over another buffer"
                )


@irdl_attr_definition
class StateValuesAttr(ParametrizedAttribute):
    """`#usmp.state_values<s = dense_resource<s> : tensor<4xi8>>`: each state variable's
    first value, by the name of its value before a run (`usmp.state_values` on the
    entry), its little-endian bytes among the module's blobs as `usmp.constant_values`
    keeps a constant's; the caller writes it into the state once before the first run."""

    name = "usmp.state_values"

    values: DictionaryAttr

    def __init__(self, values: Mapping[str, DenseResourceAttr]):
        super().__init__(DictionaryAttr(dict(values)))

    @property
    def by_name(self) -> dict[str, DenseResourceAttr]:
        return cast(dict[str, DenseResourceAttr], dict(self.values.data))

    def verify(self) -> None:
        for name, value in self.values.data.items():
            if not name:
                raise VerifyException("usmp.state_values names each variable; a name is empty")
            if not isinstance(value, DenseResourceAttr):
                raise VerifyException(
                    f"usmp.state_values of '{name}' must be a dense_resource, got {value}"
                )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        values: dict[str, Attribute] = {}
        with parser.in_angle_brackets():
            name = parser.parse_optional_identifier_or_str_literal()
            while name is not None:
                parser.parse_punctuation("=")
                values[name] = parser.parse_attribute()
                if parser.parse_optional_punctuation(",") is None:
                    break
                name = parser.parse_identifier_or_str_literal(" naming a state variable")
        return (DictionaryAttr(values),)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            for index, (name, value) in enumerate(self.values.data.items()):
                if index:
                    printer.print_string(", ")
                printer.print_identifier_or_string_literal(name)
                printer.print_string(" = ")
                printer.print_attribute(value)


@irdl_attr_definition
class ScheduleAttr(ParametrizedAttribute):
    """`#usmp.schedule<peak = 288, file_peak = 528, proven_least = true, calls = [0 @f,
    2 @g, 1 @h]>`: the order `tir-reorder-for-memory` gave the entry's calls
    (`usmp.schedule` on the entry): each call's index in the file's order and its callee,
    in the new order; the new order's peak against the file's, in bytes, and whether it is
    proven least. Calls in the file's order record that the pass kept it. The report
    prints it as `text`."""

    name = "usmp.schedule"

    peak: IntegerAttr
    file_peak: IntegerAttr
    proven_least: IntegerAttr
    calls: DenseArrayBase
    """The file's index of each call, in the new order (`array<i64: ...>`)."""
    callees: ArrayAttr[SymbolRefAttr]

    def __init__(
        self,
        peak: int,
        file_peak: int,
        proven_least: bool,
        calls: Sequence[int],
        callees: Sequence[str],
    ):
        super().__init__(
            int_attr(peak),
            int_attr(file_peak),
            IntegerAttr(int(proven_least), i1),
            i64_array(list(calls)),
            ArrayAttr(SymbolRefAttr(callee) for callee in callees),
        )

    @property
    def call_order(self) -> tuple[int, ...]:
        return tuple(memoryview(self.calls.data.data).cast("q"))

    @property
    def callee_names(self) -> tuple[str, ...]:
        return tuple(ref.root_reference.data for ref in self.callees.data)

    @property
    def text(self) -> str:
        """What the report prints."""
        proven = "proven least" if self.proven_least.value.data else "not proven least"
        callees = ", ".join("@" + callee for callee in self.callee_names)
        if self.call_order == tuple(range(len(self.call_order))):
            return f"the file's order kept: peak {self.peak.value.data} bytes ({proven}): {callees}"
        return (
            f"reordered: peak {self.peak.value.data} bytes against the file's "
            f"{self.file_peak.value.data} ({proven}): "
            f"{callees} (the file's calls {', '.join(map(str, self.call_order))})"
        )

    def verify(self) -> None:
        for what, size in (("peak", self.peak), ("file_peak", self.file_peak)):
            if size.value.data < 0:
                raise VerifyException(
                    f"usmp.schedule's {what} must not be negative, got {size.value.data}"
                )
        calls = self.call_order
        if sorted(calls) != list(range(len(calls))):
            raise VerifyException(
                f"usmp.schedule's calls {list(calls)} are not an order of the file's "
                f"{len(calls)} calls (each of 0 to {len(calls) - 1} once)"
            )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            sizes = []
            for what in ("peak", "file_peak"):
                parser.parse_keyword(what)
                parser.parse_punctuation("=")
                sizes.append(parse_int64(parser, f"usmp.schedule {what}"))
                parser.parse_punctuation(",")
            parser.parse_keyword("proven_least")
            parser.parse_punctuation("=")
            proven = parser.parse_boolean()
            parser.parse_punctuation(",")
            parser.parse_keyword("calls")
            parser.parse_punctuation("=")
            calls = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE,
                lambda: (
                    parse_int64(parser, "usmp.schedule call"),
                    parser.parse_symbol_name().data,
                ),
            )
        return (
            int_attr(sizes[0]),
            int_attr(sizes[1]),
            IntegerAttr(int(proven), i1),
            i64_array([index for index, _ in calls]),
            ArrayAttr(SymbolRefAttr(callee) for _, callee in calls),
        )

    def print_parameters(self, printer: Printer) -> None:
        proven = "true" if self.proven_least.value.data else "false"
        calls = ", ".join(
            f"{index} {symbol_text(callee)}"
            for index, callee in zip(self.call_order, self.callee_names, strict=True)
        )
        printer.print_string(
            f"<peak = {self.peak.value.data}, file_peak = {self.file_peak.value.data}, "
            f"proven_least = {proven}, calls = [{calls}]>"
        )


@irdl_attr_definition
class IOOffsetAttr(ParametrizedAttribute):
    """`#usmp.io_offset<input "sram"[32] : memref<4xf32>>`: an input, output or constant
    of the entry that the plan placed in a pool, at a byte offset, as a buffer of that
    type."""

    name = "usmp.io_offset"

    kind: IOKindAttr
    pool: StringAttr
    offset: IntegerAttr
    buffer_type: MemRefType

    def __init__(self, kind: str, pool: str, offset: int, buffer_type: MemRefType):
        super().__init__(IOKindAttr(IOKind(kind)), StringAttr(pool), int_attr(offset), buffer_type)

    @property
    def offset_bytes(self) -> int:
        return self.offset.value.data

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.buffer_type.get_shape())

    def verify(self) -> None:
        if not self.pool.data:
            raise VerifyException("usmp.io_offset names the pool it is in; the name is empty")
        if not _is_i64_attr(self.offset) or self.offset.value.data < 0:
            raise VerifyException(
                f"usmp.io_offset's offset must be a non-negative i64, got {self.offset}"
            )
        if any(d < 0 for d in self.buffer_type.get_shape()):
            raise VerifyException(
                f"usmp.io_offset's buffer has a dynamic shape: {self.buffer_type}"
            )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return cls.parse_fields(parser)

    @staticmethod
    def parse_fields(parser: AttrParser) -> tuple[IOKindAttr, StringAttr, IntegerAttr, MemRefType]:
        kind = parser.parse_str_enum(IOKind)
        pool = parser.parse_str_literal(" naming the pool")
        with parser.in_square_brackets():
            offset = parse_int64(parser, "usmp.io_offset offset")
        parser.parse_punctuation(":")
        start = parser.pos
        buffer_type = parser.parse_type()
        if not isinstance(buffer_type, MemRefType):
            parser.raise_error(f"expected a memref type, got {buffer_type}", start, parser.pos)
        return IOKindAttr(kind), StringAttr(pool), int_attr(offset), buffer_type

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            self.print_fields(printer)

    def print_fields(self, printer: Printer) -> None:
        printer.print_string(f"{self.kind.data} ")
        printer.print_string_literal(self.pool.data)
        printer.print_string(f"[{self.offset.value.data}] : ")
        printer.print_attribute(self.buffer_type)


@irdl_attr_definition
class IOOffsetsAttr(ParametrizedAttribute):
    """`#usmp.io_offsets<x = input "sram"[32] : memref<4xf32>, y = ...>`: where each input,
    output and constant of the entry that the plan placed in a pool lives, by the name the
    application knows it by (`usmp.io_offsets` on the entry after `usmp-to-tir`)."""

    name = "usmp.io_offsets"

    offsets: DictionaryAttr

    def __init__(self, offsets: Mapping[str, IOOffsetAttr]):
        super().__init__(DictionaryAttr(dict(offsets)))

    @property
    def by_name(self) -> dict[str, IOOffsetAttr]:
        return cast(dict[str, IOOffsetAttr], dict(self.offsets.data))

    def verify(self) -> None:
        for name, offset in self.offsets.data.items():
            if not isinstance(offset, IOOffsetAttr):
                raise VerifyException(
                    f"usmp.io_offsets of '{name}' must be a #usmp.io_offset, got {offset}"
                )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        offsets: dict[str, Attribute] = {}
        with parser.in_angle_brackets():
            name = parser.parse_optional_identifier_or_str_literal()
            while name is not None:
                parser.parse_punctuation("=")
                offsets[name] = IOOffsetAttr.new(IOOffsetAttr.parse_fields(parser))
                if parser.parse_optional_punctuation(",") is None:
                    break
                name = parser.parse_identifier_or_str_literal(" naming an input or output")
        return (DictionaryAttr(offsets),)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            for index, (name, offset) in enumerate(self.by_name.items()):
                if index:
                    printer.print_string(", ")
                printer.print_identifier_or_string_literal(name)
                printer.print_string(" = ")
                offset.print_fields(printer)


def planned_pool_sizes(function: Operation) -> dict[str, int] | None:
    """The planned size of each pool the entry `function` takes (`usmp.pools`), or None
    when it is not planned."""
    sizes = function.attributes.get(POOLS_ATTR)
    return sizes.by_pool if isinstance(sizes, PoolSizesAttr) else None


def placed_io(function: Operation) -> dict[str, IOOffsetAttr]:
    """The entry `function`'s inputs, outputs and constants the plan placed in pools
    (`usmp.io_offsets`), by name."""
    offsets = function.attributes.get(IO_OFFSETS_ATTR)
    return offsets.by_name if isinstance(offsets, IOOffsetsAttr) else {}


def buffer_size_in_bytes(buffer_type: Attribute) -> int:
    """Bytes a buffer of this type occupies; raises VerifyException when not static or
    past `INT64_MAX`."""
    known = _SIZES.get(buffer_type)
    if known is not None:
        return known
    size = _unchecked_size_in_bytes(buffer_type)
    if size > INT64_MAX:
        raise VerifyException(
            f"a buffer of type {buffer_type} holds {size} bytes, past the limit of 2**63-1"
        )
    return _SIZES.put(buffer_type, size)


_SIZES: _ByIdentity[int] = _ByIdentity()


@lru_cache(maxsize=4096)
def _unchecked_size_in_bytes(buffer_type: Attribute) -> int:
    """A memref, or any buffer type that knows its size (`!tir.buffer`'s `size_in_bytes()`)."""
    size_of = getattr(buffer_type, "size_in_bytes", None)
    if not isinstance(buffer_type, MemRefType) and callable(size_of):
        return int(size_of())
    if not isinstance(buffer_type, MemRefType):
        raise VerifyException(f"expected a memref buffer type, got {buffer_type}")
    if not isinstance(buffer_type.layout, NoneAttr):
        raise VerifyException("buffer type must have the identity layout")
    if buffer_type.get_num_dims() and any(d < 0 for d in buffer_type.get_shape()):
        raise VerifyException("buffer type must have a static shape")
    element = buffer_type.get_element_type()
    if isinstance(element, IndexType):
        element_bytes = 8
    elif isinstance(element, IntegerType) or hasattr(element, "bitwidth"):
        element_bytes = (element.bitwidth + 7) // 8
    else:
        raise VerifyException(f"element type {element} has no size in bytes")
    return buffer_type.element_count() * element_bytes


@irdl_op_definition
class PoolOp(IRDLOperation):
    """A memory pool: a module-level symbol the planner places buffers into.

    `size_hint` is the most the pool may hold (absent: unrestricted); `size` is what the
    plan needs. The other numbers describe the memory for schedulers and code generators,
    as TVM's PoolInfo did; the planner reads only kind, alignment, size hint and targets.
    """

    name = "usmp.pool"

    sym_name = prop_def(SymbolNameConstraint())
    kind = prop_def(PoolKindAttr)
    alignment = prop_def(IntegerAttr[I64], default_value=IntegerAttr(DEFAULT_ALIGNMENT, i64))
    size_hint = opt_prop_def(IntegerAttr[I64])
    size = opt_prop_def(IntegerAttr[I64])
    targets = prop_def(ArrayAttr[StringAttr], default_value=ArrayAttr(()))
    clock_frequency_hz = opt_prop_def(IntegerAttr[I64])
    read_bandwidth_bytes_per_cycle = opt_prop_def(IntegerAttr[I64])
    write_bandwidth_bytes_per_cycle = opt_prop_def(IntegerAttr[I64])
    read_latency_cycles = opt_prop_def(IntegerAttr[I64])
    write_latency_cycles = opt_prop_def(IntegerAttr[I64])
    target_burst_bytes = opt_prop_def(DictionaryAttr)
    is_internal = opt_prop_def(UnitAttr)
    section = opt_prop_def(StringAttr)
    """The linker section a C library's runner puts the pool's array in (`.dtcm`)."""

    # As `memref.global`: the pool's bytes exist for the whole program.
    traits = traits_def(SymbolOpInterface(), MemoryAllocEffect())
    irdl_options = (ParsePropInAttrDict(),)
    custom_directives = (KeywordInt64,)
    assembly_format = (
        "$sym_name $kind custom<KeywordInt64>($alignment) custom<KeywordInt64>($size_hint)"
        " (`targets` $targets^)? custom<KeywordInt64>($size) attr-dict"
    )

    DESCRIPTIVE_PROPERTIES: ClassVar[tuple[str, ...]] = (
        *_INT_POOL_PROPERTIES,
        "target_burst_bytes",
        "is_internal",
        "section",
    )

    def __init__(
        self,
        sym_name: str,
        kind: str = "workspace",
        alignment: int = DEFAULT_ALIGNMENT,
        size_hint: int | None = None,
        targets: Sequence[str] = (),
        size: int | None = None,
        descriptive: dict[str, Attribute] | None = None,
    ):
        properties: dict[str, Attribute | None] = {
            "sym_name": StringAttr(sym_name),
            "kind": PoolKindAttr(PoolKind(kind)),
            "alignment": int_attr(alignment),
            "size_hint": None if size_hint is None else int_attr(size_hint),
            "size": None if size is None else int_attr(size),
            "targets": ArrayAttr(StringAttr(t) for t in targets),
            **(descriptive or {}),
        }
        super().__init__(properties=properties)

    @property
    def size_hint_bytes(self) -> int | None:
        return None if self.size_hint is None else self.size_hint.value.data

    @property
    def planned_size(self) -> int | None:
        return None if self.size is None else self.size.value.data

    @property
    def target_names(self) -> tuple[str, ...]:
        return tuple(t.data for t in self.targets.data)

    def verify_(self) -> None:
        # Properties share the attribute dictionary in the syntax; a name without a
        # dialect prefix there is a misspelt property, not a discardable attribute.
        for key in self.attributes:
            if "." not in key:
                raise VerifyException(
                    f"unknown pool property '{key}' (known: "
                    f"{', '.join(self.DESCRIPTIVE_PROPERTIES)})"
                )
        if not _is_power_of_two(self.alignment.value.data):
            raise VerifyException(
                f"pool alignment must be a positive power of two, got {self.alignment.value.data}"
            )
        for field in ("size_hint", "size", *_INT_POOL_PROPERTIES):
            value = getattr(self, field)
            if value is not None and value.value.data < 0:
                raise VerifyException(f"pool {field} must not be negative")
        hint, size = self.size_hint_bytes, self.planned_size
        if hint is not None and size is not None and size > hint:
            raise VerifyException(
                f"planned size {size} bytes exceeds the pool's size hint of {hint} bytes"
            )
        if self.target_burst_bytes is not None:
            for target, burst in self.target_burst_bytes.data.items():
                if not isinstance(burst, IntegerAttr) or burst.value.data < 0:
                    raise VerifyException(
                        f"target_burst_bytes of '{target}' must be a non-negative integer"
                    )


class PlacedInModulePools(SymbolUserOpInterface):
    """`usmp.alloc_offset` refers to its pools as symbols (`AllocOffsetOp.verify_pools`)."""

    def verify(self, op: Operation) -> None:
        assert isinstance(op, AllocOffsetOp)
        op.verify_pools()


@irdl_op_definition
class AllocOffsetOp(IRDLOperation):
    """One buffer placed in a pool at a byte offset (`?` until planned).

    Before planning it may list several candidate pools, in order of preference, or none
    yet (`[]`, until `usmp-assign-pools` gives them); after planning it names exactly the
    pool it went into. Its result is the buffer the rest of
    the program uses.
    """

    name = "usmp.alloc_offset"

    buffer_name = prop_def(StringAttr)
    """The buffer's name in the source program, what reports and the emitted code call it;
    nothing refers to the buffer by it."""
    pools = prop_def(ArrayAttr[SymbolRefAttr])
    offset = opt_prop_def(IntegerAttr[I64])
    alignment = prop_def(IntegerAttr[I64])
    live = opt_prop_def(I64_ARRAY)
    """Its live intervals `[start, end)` on the program's one timeline, as their bounds
    `start, end, start, end, ...` (a buffer may have several, one per call of the operator
    that holds it); none: never live."""

    conflicts = var_operand_def()
    """Buffers it conflicts with whatever the intervals say (hand-written problems):
    earlier `usmp.alloc_offset`s of its block. Two buffers conflict when an interval of one
    overlaps an interval of the other, or when one lists the other."""

    buffer = result_def()

    # It reserves the buffer's bytes in its pool whether or not the buffer is used (a
    # planning problem read from a trace has no uses at all): no pass may drop it.
    traits = traits_def(MemoryAllocEffect(), PlacedInModulePools())
    custom_directives = (PoolSlot, Int64, LiveIntervals, EarlierBuffers)
    assembly_format = (
        "$buffer_name custom<PoolSlot>($pools, $offset) `align` custom<Int64>($alignment)"
        " custom<LiveIntervals>($live)"
        " (`conflicts` `(` custom<EarlierBuffers>($conflicts, type($conflicts))^ `)`)?"
        " attr-dict `:` type($buffer)"
    )

    def __init__(
        self,
        buffer_name: str,
        pools: Sequence[str],
        buffer_type: Attribute,
        alignment: int = DEFAULT_ALIGNMENT,
        offset: int | None = None,
        live: Sequence[int] | bytes = (),
        conflicts: Sequence[SSAValue] = (),
    ):
        properties: dict[str, Attribute] = {
            "buffer_name": StringAttr(buffer_name),
            "pools": symbol_refs(tuple(pools)),
            "alignment": int_attr(alignment),
        }
        if offset is not None:
            properties["offset"] = i64_attr(int(offset))
        if len(live):
            properties["live"] = i64_array(live)
        # Not through IRDL's generic builder, which cost more than reading the op's text:
        # the op's shape is fixed here, and the verifier checks it.
        Operation.__init__(
            self, operands=conflicts, result_types=(buffer_type,), properties=properties
        )

    @property
    def pool_names(self) -> tuple[str, ...]:
        return tuple(p.root_reference.data for p in self.pools.data)

    @property
    def offset_bytes(self) -> int | None:
        return None if self.offset is None else self.offset.value.data

    @property
    def size_in_bytes(self) -> int:
        return buffer_size_in_bytes(self.buffer.type)

    @property
    def alignment_bytes(self) -> int:
        return self.alignment.value.data

    def live_array(self) -> DenseArrayBase | None:
        """`live`, read from the properties directly (its typed accessor costs more than
        printing the intervals, at tens of thousands of buffers)."""
        return cast(DenseArrayBase | None, self.properties.get("live"))

    def live_bounds(self) -> list[int]:
        """`live`'s bounds, `start, end, start, end, ...`."""
        live = self.live_array()
        return [] if live is None else memoryview(live.data.data).cast("q").tolist()

    def set_live(self, bounds: Sequence[int] | bytes) -> None:
        if len(bounds):
            self.properties["live"] = i64_array(bounds)
        else:
            self.properties.pop("live", None)

    def add_conflict(self, earlier: AllocOffsetOp) -> None:
        self.operands = (*self.operands, earlier.buffer)

    def release_conflicts(self) -> None:
        """Drops the conflicts that later buffers list with this one: they go with it when
        it is lowered away."""
        for use in list(self.buffer.uses):
            user = use.operation
            if type(user) is AllocOffsetOp:
                user.operands = tuple(v for v in user.operands if v is not self.buffer)

    def pool_ops(self) -> list[PoolOp]:
        pools: list[PoolOp] = []
        for ref, pool in zip(self.pools.data, _lookup_pools(self, self.pools.data), strict=True):
            # By exact type first: `isinstance` on an op class goes through `ABCMeta`.
            if type(pool) is not PoolOp and not isinstance(pool, PoolOp):
                raise VerifyException(
                    f"buffer '{self.buffer_name.data}': unknown pool @{ref.root_reference.data}"
                )
            pools.append(pool)
        return pools

    def has_plain_shape(self) -> bool:
        """No operands, regions or successors, one result, and properties of exactly the
        declared kinds: what IRDL's generic verifier checks, decided in a fraction of its
        time (it was most of verifying a large problem)."""
        properties = self.properties
        offset = properties.get("offset")
        live = properties.get("live")
        return (
            has_no_operands_or_successors(self)
            and len(self.results) == 1
            and not self.regions
            and len(properties) == 3 + (offset is not None) + (live is not None)
            and type(properties.get("buffer_name")) is StringAttr
            and _is_symbol_list(properties.get("pools"))
            and _is_i64_attr(properties.get("alignment"))
            and (offset is None or _is_i64_attr(offset))
            and (live is None or is_i64_array(live))
        )

    def verify_placement(self) -> None:
        """What the op says by itself: a power-of-two alignment and, once placed, one
        pool and an aligned, non-negative offset. Its pools are checked as symbols
        (`PlacedInModulePools`)."""
        size = buffer_size_in_bytes(self.results[0].type)
        alignment = self.alignment.value.data
        name = self.buffer_name.data
        if not _is_power_of_two(alignment):
            raise VerifyException(
                f"buffer '{name}': alignment must be a positive power of two, got {alignment}"
            )
        self._verify_live(name)
        self._verify_distinct_pools(name)
        offset = self.offset_bytes
        if offset is None:
            return
        if len(self.pools.data) != 1:
            raise VerifyException(
                f"buffer '{name}' has an offset but {len(self.pools.data)} candidate pools; "
                "a planned buffer names exactly one pool"
            )
        if offset < 0:
            raise VerifyException(f"buffer '{name}' has a negative offset {offset}")
        if offset % alignment:
            raise VerifyException(
                f"buffer '{name}': offset {offset} is not a multiple of its alignment {alignment}"
            )
        end = offset + size
        if end > INT64_MAX:
            raise VerifyException(f"buffer '{name}' ends at byte {end}, past the limit of 2**63-1")

    def _verify_distinct_pools(self, name: str) -> None:
        refs = self.pools.data
        if len(refs) < 2:
            return
        seen: set[str] = set()
        for ref in refs:
            pool = ref.root_reference.data
            if pool in seen:
                raise VerifyException(f"buffer '{name}' lists candidate pool @{pool} twice")
            seen.add(pool)

    def _verify_live(self, name: str) -> None:
        live = self.live_array()
        if live is None:
            return
        if len(live.data.data) % 16:
            raise VerifyException(f"buffer '{name}': live must hold (start, end) pairs")
        for start, end in live_pairs(live):
            if start < 0 or end <= start:
                raise VerifyException(
                    f"buffer '{name}': live interval [{start}, {end}) must have 0 <= start < end"
                )

    def verify_conflicts(self) -> None:
        """Each conflict an earlier `usmp.alloc_offset` of its block, listed once."""
        name = self.buffer_name.data
        seen: set[int] = set()
        for value in self.conflicts:
            other = value.owner
            if other is self:
                raise VerifyException(f"buffer '{name}' is listed as conflicting with itself")
            if type(other) is not AllocOffsetOp:
                raise VerifyException(
                    f"buffer '{name}': a conflict must be a usmp.alloc_offset's buffer"
                )
            other_name = other.buffer_name.data
            if not is_before_in_block(other, self):
                raise VerifyException(
                    f"buffer '{name}' conflicts with '{other_name}', which is not before it "
                    "in its block: write the conflict on the later of the two"
                )
            if id(other) in seen:
                raise VerifyException(
                    f"buffer '{name}' lists its conflict with '{other_name}' twice"
                )
            seen.add(id(other))

    def verify_pools(self) -> None:
        """Its pools are `usmp.pool`s of the kind it needs, and a placed buffer ends
        within its pool's size and size hint."""
        pools = self.pool_ops()
        self._verify_pool_kinds(pools)
        offset = self.offset_bytes
        if offset is None or len(pools) != 1:
            return
        end = offset + buffer_size_in_bytes(self.results[0].type)
        pool = pools[0]
        for limit, what in ((pool.size, "size"), (pool.size_hint, "size hint")):
            if limit is not None and end > limit.value.data:
                raise VerifyException(
                    f"buffer '{self.buffer_name.data}' ends at byte {end}, past the {what} of "
                    f"pool @{pool.sym_name.data} ({limit.value.data} bytes)"
                )

    def pool_kind(self) -> PoolKind:
        """The kind of pool the buffer belongs in: a constant's is a constant pool, a
        state variable's a state pool, any other's a workspace pool."""
        mark = self.attributes.get(IO_ATTR) if self.attributes else None
        if isinstance(mark, IOAttr) and mark.kind.data in _POOL_KIND_OF_IO:
            return _POOL_KIND_OF_IO[mark.kind.data]
        return PoolKind.WORKSPACE

    def _verify_pool_kinds(self, pools: list[PoolOp]) -> None:
        """A constant pool holds the entry's constants, which go nowhere else: its bytes
        are written before the run and never change; a state pool holds the entry's
        state, which the caller keeps from run to run."""
        wanted = self.pool_kind()
        for pool in pools:
            kind = pool.kind.data
            if kind != wanted:
                special = PoolKind(kind) if wanted == PoolKind.WORKSPACE else wanted
                raise VerifyException(
                    f"{_BUFFER_OF_POOL_KIND[wanted]} '{self.buffer_name.data}' cannot go in "
                    f"{kind} pool @{pool.sym_name.data}; a {special} pool holds exactly the "
                    f"entry's {_HELD_BY_POOL_KIND[special]}"
                )

    @classmethod
    def parse_plain(cls, parser: Parser, position: int) -> AllocOffsetOp | None:
        """The common form, read from `position` (after the op's name) with one regular
        expression; None, the parser untouched, for any other. `LocatingParser` calls it
        on a whole line, before it lexes the line's first tokens."""
        found = plain_alloc(parser.lexer.input.content, position)
        if found is None:
            return None
        end, arguments = found
        resume_parser_at(parser, end)
        return cls(*arguments)


_parse_alloc_offset_with_format = AllocOffsetOp.parse


def _parse_alloc_offset(cls: type[AllocOffsetOp], parser: Parser) -> AllocOffsetOp:
    """The common form through `parse_plain`'s one regular expression, anything else
    (and every diagnostic) through the assembly format: an op with an assembly format
    may not define `parse` itself."""
    if (op := cls.parse_plain(parser, parser.pos)) is not None:
        return op
    op = _parse_alloc_offset_with_format(parser)
    # The format sets the properties in the order it reads them; the generic form prints
    # them in the constructor's order whichever way the op was read.
    properties = op.properties
    op.properties = {name: properties[name] for name in _ALLOC_PROPERTIES if name in properties}
    return op


_ALLOC_PROPERTIES = ("buffer_name", "pools", "alignment", "offset", "live")

print_alloc_offset_with_format = AllocOffsetOp.print
"""The assembly format's printer, which the one-string printer of the common form must
agree with."""


def _print_alloc_offset(op: AllocOffsetOp, printer: Printer) -> None:
    """The common form as one string (`plain_alloc_text`); anything else through the
    format."""
    if op.attributes or not has_no_operands_or_successors(op):
        print_alloc_offset_with_format(op, printer)
        return
    printer.print_string(plain_alloc_text(op, op.buffer.type))


_verify_alloc_offset_shape = AllocOffsetOp.get_irdl_definition().verify


def _verify_alloc_offset(op: Operation) -> None:
    """`usmp.alloc_offset`'s verifier, in place of the one `irdl_op_definition` makes
    (IRDL's generic checks, its traits' among them, first, always): the generic checks run
    only when the fast `has_plain_shape` finds something to say, else its pools are
    checked here as the symbol-user trait would."""
    assert isinstance(op, AllocOffsetOp)
    if op.has_plain_shape():
        op.verify_pools()
    else:
        _verify_alloc_offset_shape(op)
        op.verify_conflicts()
    op.verify_placement()


put_in_front_of_format(
    AllocOffsetOp,
    parse=_parse_alloc_offset,
    print_op=_print_alloc_offset,
    verify=_verify_alloc_offset,
)


@irdl_op_definition
class LivenessOp(IRDLOperation):
    """Says that the module's live intervals are known: those each `usmp.alloc_offset`
    carries (`live`, none: never live) and the conflicts it lists are all there is. The
    anchor at which `usmp-plan` plans the module, and at which the verifier checks that no
    two planned buffers live at the same time share a byte.

    There is at most one per module. It has no memory-effect trait, which xDSL reads as
    unknown effects: an op without results and without effects would be dead code to
    `dce`. Its older form, which named the buffers (`usmp.liveness { "a" [0, 5) }`), is
    read as these properties, and moved onto the buffers by `upgrade_named_liveness` once
    the module is read.
    """

    name = "usmp.liveness"

    traits = traits_def(HasParent(ModuleOp))

    @classmethod
    def parse(cls, parser: Parser) -> LivenessOp:
        if parser.parse_optional_punctuation("{") is not None:
            return cls.create(properties=parse_named_liveness(parser))
        op = cls()
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        module = self.parent_op()
        if module is not None:
            verify_module_plan(module, self)


# ------------------------------------------------------------- the module's usmp ops
# Its ops found, and their buffers read as the columns of a `BufferTable`
# (`planning/buffer_table.py`): the planning problem `usmp.liveness`'s verifier checks a
# plan against (with the planner's independent validator) and the one
# `analysis/module_problem.py` gives the passes and reports.


# A large problem's module holds tens of thousands of ops, and a run looks for its pools,
# allocations and liveness a dozen times: the ops are matched by exact type (`isinstance`
# on an op class goes through `ABCMeta`, three times slower), and blocks walked as
# `block_ops` does, not by `Operation.walk`'s chain of generators.


def module_pools(module: Operation) -> list[PoolOp]:
    return [op for op in block_ops(module.regions[0].block) if type(op) is PoolOp]


def module_allocs(module: Operation) -> list[AllocOffsetOp]:
    """Every `usmp.alloc_offset` in the module, nested ones too, in `walk` order."""
    return [op for op in nested_ops(module) if type(op) is AllocOffsetOp]


def nested_ops(parent: Operation) -> list[Operation]:
    """Every op inside `parent`, in `walk` order."""
    found: list[Operation] = []
    _collect_ops(parent, found)
    return found


def _collect_ops(parent: Operation, found: list[Operation]) -> None:
    for region in parent.regions:
        for block in region.blocks:
            for op in block_ops(block):
                found.append(op)
                if op.regions:
                    _collect_ops(op, found)


def module_liveness(module: Operation) -> LivenessOp | None:
    block = module.regions[0].block
    return _the_liveness([op for op in block_ops(block) if type(op) is LivenessOp])


def _the_liveness(found: list[LivenessOp]) -> LivenessOp | None:
    if len(found) > 1:
        raise VerifyException("a module holds at most one usmp.liveness")
    return found[0] if found else None


def module_usmp_ops(
    module: Operation,
) -> tuple[list[AllocOffsetOp], list[PoolOp], LivenessOp | None]:
    """`module_allocs`, `module_pools` and `module_liveness` in one walk."""
    allocs: list[AllocOffsetOp] = []
    pools: list[PoolOp] = []
    livenesses: list[LivenessOp] = []
    for op in block_ops(module.regions[0].block):
        if type(op) is AllocOffsetOp:
            allocs.append(op)
        elif type(op) is PoolOp:
            pools.append(op)
        elif type(op) is LivenessOp:
            livenesses.append(op)
        if op.regions:
            allocs.extend(nested for nested in nested_ops(op) if type(nested) is AllocOffsetOp)
    return allocs, pools, _the_liveness(livenesses)


def _candidate_indices(
    allocs: Sequence[AllocOffsetOp], pool_index: dict[str, int]
) -> tuple[tuple[int, ...], ...]:
    # Buffers share their candidate lists (attributes are immutable): each list is read once.
    known: dict[int, tuple[int, ...]] = {}
    candidates: list[tuple[int, ...]] = []
    for op in allocs:
        listed = op.properties["pools"]
        indices = known.get(id(listed))
        if indices is None:
            for name in op.pool_names:
                if name not in pool_index:
                    raise VerifyException(f"buffer '{op.buffer_name.data}': unknown pool @{name}")
            indices = known[id(listed)] = tuple(pool_index[name] for name in op.pool_names)
        candidates.append(indices)
    return tuple(candidates)


def _explicit_conflicts(allocs: Sequence[AllocOffsetOp]) -> np.ndarray:
    """The conflicts the buffers list, as `(k, 2)` buffer indices; those with a buffer
    not among `allocs` are left out."""
    listing = [(i, op) for i, op in enumerate(allocs) if op.conflicts]
    if not listing:
        return np.zeros((0, 2), dtype=np.int64)
    index = {id(op): i for i, op in enumerate(allocs)}
    pairs = [
        (i, j)
        for i, op in listing
        for value in op.conflicts
        if (j := index.get(id(value.owner))) is not None
    ]
    return np.array(pairs, dtype=np.int64).reshape(-1, 2)


def _check_total(allocs: Sequence[AllocOffsetOp], sizes: list[int], alignments: list[int]) -> None:
    """The sum of sizes and alignments within `MAX_TOTAL_BYTES`."""
    if sum(sizes) + sum(alignments) <= MAX_TOTAL_BYTES:
        return
    total = 0
    for op, size, alignment in zip(allocs, sizes, alignments, strict=True):
        total += size + alignment
        if total > MAX_TOTAL_BYTES:
            raise UsmpError(
                f"buffer '{op.buffer_name.data}' brings the sum of buffer sizes and "
                f"alignments to {total} bytes, past the limit of 2**60",
                op,
            )


def _size_in_bytes(op: AllocOffsetOp) -> int:
    """The buffer's size; a planning pass may meet an unverified op, so a size past the
    limit is a diagnostic at it."""
    try:
        return buffer_size_in_bytes(op.results[0].type)
    except VerifyException as error:
        raise UsmpError(str(error), op) from None


def _buffer_columns(
    allocs: Sequence[AllocOffsetOp],
) -> tuple[tuple[str, ...], list[int], list[int], list[bytes]]:
    """Each buffer's name, size, alignment and `live` bounds, in one pass over the ops."""
    names: list[str] = []
    sizes: list[int] = []
    alignments: list[int] = []
    lives: list[bytes] = []
    # Buffers share their type objects (attributes are immutable): a lookup here instead of
    # a call to `buffer_size_in_bytes` (itself cached) per op, 0.1 s of a 62k-buffer run.
    size_of_type: dict[int, int] = {}
    # The properties read directly, not through their typed accessors: at tens of
    # thousands of buffers, three times a run, the accessors' calls were most of the work.
    for op in allocs:
        properties: dict[str, Any] = op.properties
        names.append(properties["buffer_name"].data)
        alignments.append(properties["alignment"].value.data)
        live = properties.get("live")
        lives.append(b"" if live is None else live.data.data)
        buffer_type = op.results[0].type
        size = size_of_type.get(id(buffer_type))
        if size is None:
            size = size_of_type[id(buffer_type)] = _size_in_bytes(op)
        sizes.append(size)
    return tuple(names), sizes, alignments, lives


def buffer_table(allocs: Sequence[AllocOffsetOp], pools: Sequence[PoolOp]) -> BufferTable:
    """`allocs`' buffers, placed in `pools`, as the columns the planning problem is made of."""
    names, sizes, alignments, lives = _buffer_columns(allocs)
    pool_index = {pool.sym_name.data: i for i, pool in enumerate(pools)}
    _check_total(allocs, sizes, alignments)
    offsets: list[Any] = [op.properties.get("offset") for op in allocs]
    return BufferTable(
        names=names,
        sizes=sizes,
        alignments=alignments,
        lives=lives,
        candidates=_candidate_indices(allocs, pool_index),
        explicit=_explicit_conflicts(allocs),
        offsets=[None if o is None else o.value.data for o in offsets],
        pools=tuple(PoolSpec(p.sym_name.data, p.size_hint_bytes) for p in pools),
    )


def _check_unique_names(allocs: Sequence[AllocOffsetOp]) -> None:
    """Reports and the emitted code know a buffer by its name: no two share one."""
    # Read from the properties directly, as `_buffer_columns` does.
    properties: list[dict[str, Any]] = [op.properties for op in allocs]
    names: list[str] = [p["buffer_name"].data for p in properties]
    if len(set(names)) == len(names):
        return
    earlier: set[str] = set()
    for name in names:
        if name in earlier:
            raise VerifyException(f"two usmp.alloc_offset ops are named '{name}'")
        earlier.add(name)


def verify_module_plan(module: Operation, liveness: LivenessOp) -> None:
    """The facts that span the module: names are unique, and no two planned buffers that
    are live at the same time share a byte of the same pool."""
    allocs, pools, found = module_usmp_ops(module)
    if found is not liveness:
        return
    _check_unique_names(allocs)
    planned = [op for op in allocs if "offset" in op.properties]
    if not planned:
        return
    placed = buffer_table(planned, pools)
    problem, _ = table_problem(placed)
    errors = validate(problem, written_plan(problem, placed.offsets))
    if errors:
        raise VerifyException(errors[0])


USMP = Dialect(
    "usmp",
    [PoolOp, AllocOffsetOp, LivenessOp],
    [
        PoolKindAttr,
        IOKindAttr,
        IOAttr,
        PlanAttr,
        PoolSizesAttr,
        IOOffsetAttr,
        IOOffsetsAttr,
        SharedConstantsAttr,
        NarrowedConstantsAttr,
        StateAttr,
        InPlaceResultsAttr,
        StateValuesAttr,
        ScheduleAttr,
    ],
)
