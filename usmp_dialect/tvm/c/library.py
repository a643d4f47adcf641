"""`usmp-translate --emit-c DIR`: a planned module as a self-contained C library, with the
interface TVM's AOT executor gave in its Model Library Format (`tvmgen_default.h`).

The operators and the body of the entry come from TVM 0.27's C code generator: given a
module whose functions are all private and take raw pointers, `tvm.compile(mod, "c")`
writes each as a plain C function over those pointers and no FFI entry at all (only a
public function gets TVM's calling convention and runtime headers). The entry is made
such a function (`c.operators`): a pointer param per buffer param, and one per constant,
so that a user's tensor can replace it. The interface around it is written here, from the
plan's records:

    struct <m>_inputs { float* x; };            one member per input, in the entry's order
    struct <m>_outputs { float* output; };      one per output
    struct <m>_workspace_pools { uint8_t* global_workspace; };
    struct <m>_constants { const float* fc1_bias; ... };   NULL: the constant pool's copy
    int32_t <m>_run(struct <m>_inputs*, struct <m>_outputs*,
                    struct <m>_workspace_pools*, const struct <m>_constants*);
    #define <M>_<POOL>_WORKSPACE_POOL_SIZE, ..._ALIGNMENT; <M>_INPUT_<X>_SIZE, ...

With the inputs and outputs planned into a pool (`--use-workspace-io`) the run takes the
pools only, and `<m>_map_inputs(pools)` / `<m>_map_outputs(pools)` give their addresses
there. The constant pool is a `const` array (flash) in `<m>_constants.c`. A model that
keeps state from run to run (`tir-state-to-allocations`) has a state pool among the pools
the caller passes (`<M>_<POOL>_STATE_POOL_SIZE`), whose bytes it keeps between runs, and
`struct <m>_state <m>_map_state(pools)` gives each variable's address there, for the
caller to set it once before the first run.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, ModuleOp, StringAttr

from usmp_dialect.analysis.tir_entry import choose_entry, prim_funcs
from usmp_dialect.analysis.tir_params import io_kind, output_params, param_uses
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import (
    CONSTANTS_ATTR,
    NARROWED_CONSTANTS_ATTR,
    POOL_ALIGNMENTS_ATTR,
    POOL_SECTIONS_ATTR,
    POOLS_ATTR,
    SHARED_CONSTANTS_ATTR,
    STATE_ATTR,
    IOKind,
    NarrowedConstantsAttr,
    SharedConstantsAttr,
    StateAttr,
    placed_io,
    planned_pool_sizes,
)
from usmp_dialect.formats.constant_pool import entry_constant_pool_bytes, state_values
from usmp_dialect.reports.names import NAME_LIMIT, short_names
from usmp_dialect.tvm.model_files.io_quantization import io_quantization
from usmp_dialect.tvm.relax.narrowed_constants import FILE_DTYPE, FILE_STORAGE_OPTION
from usmp_dialect.tvm_options import MACRO_AFFIXES, SHORTEST_IDENTIFIER

C_TYPES = {
    "bool": "bool",
    "int8": "int8_t",
    "int16": "int16_t",
    "int32": "int32_t",
    "int64": "int64_t",
    "uint8": "uint8_t",
    "uint16": "uint16_t",
    "uint32": "uint32_t",
    "uint64": "uint64_t",
    "float32": "float",
    "float64": "double",
}
"""The dtypes standard C holds exactly (float16 and bfloat16 need a compiler's extension)."""

MATH_FUNCTIONS = frozenset(
    f"{name}{suffix}"
    for suffix in ("", "f")
    for name in [
        "exp",
        "exp2",
        "expm1",
        "log",
        "log2",
        "log10",
        "log1p",
        "pow",
        "sqrt",
        "cbrt",
        "sin",
        "cos",
        "tan",
        "asin",
        "acos",
        "atan",
        "atan2",
        "sinh",
        "cosh",
        "tanh",
        "asinh",
        "acosh",
        "atanh",
        "erf",
        "erfc",
        "fabs",
        "floor",
        "ceil",
        "round",
        "trunc",
        "nearbyint",
        "fmod",
        "fmin",
        "fmax",
        "hypot",
        "copysign",
        "ldexp",
    ]
)
"""The externs a call may name: C's math library, which the bundle links (`-lm`)."""

_NAMED_CALLS = ("tirx.call_extern", "tirx.call_pure_extern")
_RUNTIME_CALLS = ("tirx.tvm_call_packed", "tirx.tvm_call_cpacked", "tirx.lookup_param")
_C_KEYWORDS = frozenset(
    [
        "auto",
        "break",
        "case",
        "char",
        "const",
        "continue",
        "default",
        "do",
        "double",
        "else",
        "enum",
        "extern",
        "float",
        "for",
        "goto",
        "if",
        "inline",
        "int",
        "long",
        "register",
        "restrict",
        "return",
        "short",
        "signed",
        "sizeof",
        "static",
        "struct",
        "switch",
        "typedef",
        "union",
        "unsigned",
        "void",
        "volatile",
        "while",
        "bool",
        "true",
        "false",
        "main",
        # C23's new keywords, the header's users compile with
        *["alignas", "alignof", "constexpr", "nullptr", "static_assert", "thread_local"],
        *["typeof", "typeof_unqual"],
        # C++'s, where the header is included by its `extern "C"`
        *["asm", "catch", "char8_t", "char16_t", "char32_t", "class", "concept"],
        *["const_cast", "consteval", "constinit", "co_await", "co_return", "co_yield"],
        *["decltype", "delete", "dynamic_cast", "explicit", "export", "friend", "mutable"],
        *["namespace", "new", "noexcept", "operator", "private", "protected", "public"],
        *["reinterpret_cast", "requires", "static_cast", "template", "this", "throw", "try"],
        *["typeid", "typename", "using", "virtual", "wchar_t"],
        *["and", "and_eq", "bitand", "bitor", "compl", "not", "not_eq", "or", "or_eq"],
        *["xor", "xor_eq"],
    ]
)
_LOWER_CASE_MACROS = frozenset(
    [
        *["errno", "stdin", "stdout", "stderr", "offsetof", "math_errhandling", "L_tmpnam"],
        *["st_atime", "st_mtime", "st_ctime", "tzname", "linux", "unix", "i386"],
    ]
)
"""Names the headers the library and its runner include (glibc's, newlib's) or GNU C
define as macros that are not all upper case (those all are: `NULL`, `EOF`, `INFINITY`).
A macro's name as a member would be replaced by its body."""
POOL_ALIGNMENT = 16
"""The least alignment of a pool's array: every view the plan places in it assumes it."""
LARGEST_ARRAY = 2**31 - 1
"""The most bytes an array has in a 32-bit target's C (its PTRDIFF_MAX: the M55's), which a
pool and a tensor of the library must fit."""


@dataclass(frozen=True)
class Tensor:
    """An input, output or constant of the entry, and its C identifier."""

    name: str
    ident: str
    shape: tuple[int, ...]
    dtype: str

    @property
    def ctype(self) -> str:
        return C_TYPES[self.dtype]

    @property
    def nbytes(self) -> int:
        return math.prod(self.shape) * _itemsize(self.dtype)


@dataclass(frozen=True)
class Pool:
    name: str
    ident: str
    size: int
    constant: bool
    state: bool = False
    """It holds the state the model keeps from run to run: the caller keeps its bytes."""
    section: str | None = None
    """The linker section its array goes in (the pool's `section`), if it names one."""
    alignment: int = POOL_ALIGNMENT
    """The alignment of its array in bytes: the pool's own (`alignment=64`), at least
    `POOL_ALIGNMENT`."""


@dataclass(frozen=True)
class Interface:
    """What the header declares, and where each tensor lives."""

    model: str
    inputs: list[Tensor]
    outputs: list[Tensor]
    pools: list[Pool]
    constants: list[Tensor]
    offsets: dict[str, tuple[str, int]]
    """Tensor name: (pool, offset), for the inputs, outputs and constants in a pool."""
    in_pools: bool
    """The inputs and outputs live in the workspace pools (`--use-workspace-io`)."""
    shared: dict[str, str]
    """A constant stored once with an equal one (`usmp.shared_constants`): that one's
    member of the constants struct."""
    narrowed: dict[str, str]
    """A member of the constants struct holding a file's int32 constant in fewer bytes
    (`usmp.narrowed_constants`): that constant's name in the file."""
    state: list[Tensor]
    """The variables of the state the model keeps from run to run, in a state pool, by the
    name of the value before a run."""
    state_after: dict[str, str]
    """The name of each variable's value after a run (the same bytes), by its name."""
    state_initial: dict[str, bytes]
    """Each variable's first value (the model's CALL_ONCE values), when the model gives
    every one (`usmp.state_values`)."""
    quantization: dict[str, tuple[float, int]]
    """An input's or output's scale and zero point, by name, where the model file gives
    them (`usmp.io_quantization`)."""
    constant_bytes: bytes = b""
    """The constant pool's first bytes (its constants at their offsets), b"" without one."""

    @property
    def workspace_pools(self) -> list[Pool]:
        """The pools the caller owns (the state pools too, which it keeps from run to run)."""
        return [pool for pool in self.pools if not pool.constant]


def _itemsize(dtype: str) -> int:
    return 1 if dtype == "bool" else tir.element_bytes(tir.dtype_to_type(dtype))


def _macro_name(ident: str) -> bool:
    """Whether `ident` is, or could be, the name of a macro of the headers: one of theirs,
    or all upper case as theirs are."""
    return ident in _LOWER_CASE_MACROS or ident.upper() == ident != ident.lower()


def c_identifier(name: str) -> str:
    """`name` as a C identifier: other characters `_`, a leading digit or underscore
    prefixed, a C or C++ keyword or a name the headers may define as a macro suffixed."""
    ident = re.sub(r"\W", "_", name, flags=re.ASCII) or "_"
    if ident[0].isdigit() or ident.startswith("_"):
        ident = f"t{ident}"
    if ident in _C_KEYWORDS or _macro_name(ident):
        ident = f"{ident}_"
    return ident


def _unique_identifiers(names: list[str], model: str) -> dict[str, str]:
    """A C identifier for each name, distinct even upper-cased (the macros'), given in
    order: a later clash gets `_1`, `_2`, ...; short enough that every macro made of it is
    at most 63 characters (`short_names`: the full name goes in a comment)."""
    taken: set[str] = set()
    idents = {}
    for name in names:
        base = c_identifier(name)
        ident, count = base, 0
        while ident.upper() in taken:
            count += 1
            ident = f"{base}_{count}"
        taken.add(ident.upper())
        idents[name] = ident
    limit = max(SHORTEST_IDENTIFIER, NAME_LIMIT - len(model) - MACRO_AFFIXES)
    short = short_names(idents.values(), limit, fold_case=True)
    return {name: short[ident] for name, ident in idents.items()}


# ----------------------------------------------------------------------- checking input


def _check_types(function: tir.PrimFuncOp) -> None:
    for op in function.walk():
        for value in (*op.results, *(arg for r in op.regions for b in r.blocks for arg in b.args)):
            element = value.type
            if isinstance(element, tir.BufferType | tir.PointerType):
                element = element.element_type
            if isinstance(value.type, tir.BufferType):
                dtype = tir.type_to_dtype(element)
                if dtype not in C_TYPES:
                    raise UsmpError(
                        f"buffer of dtype {dtype} in @{function.sym_name.data}: C has no "
                        f"type for it (the bundle holds {', '.join(C_TYPES)})",
                        op,
                    )


def _check_calls(function: tir.PrimFuncOp, module_functions: set[str]) -> None:
    """Calls C can make: of module functions (also by name, as TVM's own tests call their
    operators), of TVM's intrinsics, and of externs of C's math library."""
    for op in function.walk():
        if not isinstance(op, tir.CallIntrinOp):
            continue
        name = op.op_name.data
        owner = op.args[0].owner if op.args else None
        callee = owner.value.data if isinstance(owner, tir.StringOp) else "?"
        if name in _RUNTIME_CALLS:
            raise UsmpError(
                f"@{function.sym_name.data} calls '{callee}' of TVM's runtime "
                f"({name}): the C library cannot run it (it has no TVM runtime)",
                op,
            )
        if name in _NAMED_CALLS and op.args and callee not in MATH_FUNCTIONS | module_functions:
            raise UsmpError(
                f"@{function.sym_name.data} calls extern '{callee}', which the bundle "
                "cannot provide (it links C's math library only)",
                op,
            )


def _check_allocations(function: tir.PrimFuncOp) -> None:
    for op in function.walk():
        if isinstance(op, tir.AllocBufferOp) and op.buffer.type.scope.data != "local":
            name = tir.allocation_name(op) or "?"
            raise UsmpError(
                f"allocation '{name}' in @{function.sym_name.data} is not planned: the "
                "bundle has no allocator (plan it with usmp-opt --plan-pools)",
                op,
            )


def _check_array_bytes(what: str, size: int, entry: tir.PrimFuncOp) -> None:
    if size > LARGEST_ARRAY:
        raise UsmpError(
            f"{what} holds {size} bytes, past 2**31-1, the largest array the C of a 32-bit "
            "target (the library's) has",
            entry,
        )


def check_module(module: ModuleOp) -> tir.PrimFuncOp:
    """The planned entry, after checking that C can run the module without anything but
    its pools: else a `UsmpError` naming what stands in the way."""
    functions = prim_funcs(module)
    if not functions:
        raise UsmpError("no tir.prim_func to emit as C", module)
    entry = choose_entry(functions, "")
    pool_sizes = planned_pool_sizes(entry)
    if pool_sizes is None:
        raise UsmpError(
            f"@{entry.sym_name.data} is not planned (no {POOLS_ATTR}): run usmp-opt "
            "--plan-pools first",
            entry,
        )
    arrays = {f"pool '{pool}'": size for pool, size in pool_sizes.items()}
    seen: dict[str | None, int] = {}
    for index, (name, arg) in enumerate(
        zip(entry.param_names(), entry.body.block.args, strict=True)
    ):
        if name is not None and name in seen:
            raise UsmpError(
                f"params #{seen[name]} and #{index} of @{entry.sym_name.data} are both named "
                f"'{name}': the interface names each tensor by its name",
                entry,
            )
        seen[name] = index
        if not isinstance(arg.type, tir.BufferType):
            raise UsmpError(
                f"param '{name}' of @{entry.sym_name.data} is a {arg.type}, not a buffer of "
                "static shape: the interface has no size for it",
                entry,
            )
        arrays[f"param '{name}'"] = arg.type.size_in_bytes()
    for what, size in arrays.items():
        _check_array_bytes(what, size, entry)
    listed = entry.attributes.get(CONSTANTS_ATTR)
    if isinstance(listed, ArrayAttr) and len(listed.data):
        params = set(entry.param_names())
        if loose := [a.data for a in listed.data if isinstance(a, StringAttr) and a.data in params]:
            raise UsmpError(
                f"constant '{loose[0]}' is a param, in no constant pool: plan with one "
                "(usmp-opt --plan-pools --constant-pool) so the bundle can hold it",
                entry,
            )
    for function in functions.values():
        _check_types(function)
        _check_calls(function, set(functions))
        _check_allocations(function)
    return entry


# ----------------------------------------------------------------------- the interface


def _io_kinds(
    module: ModuleOp, entry: tir.PrimFuncOp, params: Mapping[str, tir.BufferType]
) -> dict[str, IOKind]:
    """The kind of each buffer param `params` names: as the entry's `usmp.outputs` says (an
    importer's record of the model's outputs). A module without it (hand-written TIR,
    planned by any version of the pipeline) gets TVM's rule from how its operators use each
    param (`param_uses`): both read and written is input_output, a member of the inputs
    struct the run updates in place."""
    outputs = output_params(entry)
    if outputs is not None:
        return {name: io_kind(name, outputs, False, False) for name in params}
    uses = param_uses(module, entry.sym_name.data, params)
    return {name: io_kind(name, None, use.read, use.written) for name, use in uses.items()}


def interface(module: ModuleOp, entry: tir.PrimFuncOp, model: str) -> Interface:
    pools = planned_pool_sizes(entry) or {}
    sections = pool_sections(entry)
    alignments = _pool_alignments(entry)
    offsets: dict[str, tuple[str, int]] = {}
    placed: list[tuple[str | None, str, tuple[int, ...], str]] = []
    for name, io in placed_io(entry).items():
        offsets[name] = (io.pool.data, io.offset_bytes)
        dtype = tir.type_to_dtype(io.buffer_type.element_type)
        if io.offset_bytes % _itemsize(dtype):
            # Read through a pointer of its type, which C requires aligned (C11 6.3.2.3).
            raise UsmpError(
                f"'{name}' is placed at byte {io.offset_bytes} of pool '{io.pool.data}', not "
                f"a multiple of its {dtype}'s {_itemsize(dtype)} bytes: C cannot read it there",
                entry,
            )
        placed.append((name, io.kind.data, io.shape, dtype))
    constant_pools = {offsets[str(n)][0] for n, kind, _, _ in placed if kind == IOKind.CONSTANT}
    state_pools = {offsets[str(n)][0] for n, kind, _, _ in placed if kind == IOKind.STATE}
    # The constants file keeps its array in .rodata; a header and linker script naming
    # the pool's section would say it is where it is not (and NOLOAD drops its bytes).
    pool = min(constant_pools & sections.keys(), default=None)
    if pool is not None:
        raise UsmpError(
            f"constant pool '{pool}' names section '{sections[pool]}': the C library keeps "
            "its constants in .rodata; give the section to a workspace or state pool only",
            entry,
        )
    record = entry.attributes.get(STATE_ATTR)
    state_after = record.after if isinstance(record, StateAttr) else {}
    initial = state_values(module, entry)
    constant_bytes = bytes(entry_constant_pool_bytes(module, entry)) if constant_pools else b""
    params = {
        name: arg.type
        for name, arg in zip(entry.param_names(), entry.body.block.args, strict=True)
        if name is not None and name not in pools and isinstance(arg.type, tir.BufferType)
    }
    kinds = _io_kinds(module, entry, params)
    tensors: list[tuple[str | None, str, tuple[int, ...], str]] = [
        (name, kinds[name], t.dims, tir.type_to_dtype(t.element_type)) for name, t in params.items()
    ]
    tensors += placed
    names = [name for name, *_ in tensors if name is not None]
    ident = _unique_identifiers([*names, *pools], model)

    def of(kinds_wanted: tuple[str, ...]) -> list[Tensor]:
        return [
            Tensor(name, ident[name], shape, dtype)
            for name, kind, shape, dtype in tensors
            if kind in kinds_wanted and name is not None
        ]

    planned_pools = [
        Pool(
            n,
            ident[n],
            size,
            n in constant_pools,
            n in state_pools,
            sections.get(n),
            max(POOL_ALIGNMENT, alignments.get(n, POOL_ALIGNMENT)),
        )
        for n, size in pools.items()
    ]
    _check_pool_macros(model, planned_pools, entry)
    made = Interface(
        model,
        of((IOKind.INPUT, IOKind.INPUT_OUTPUT)),
        of((IOKind.OUTPUT,)),
        planned_pools,
        of((IOKind.CONSTANT,)),
        offsets,
        any(kind not in (IOKind.CONSTANT, IOKind.STATE) for _, kind, _, _ in placed),
        _shared_constants(entry, ident),
        _narrowed_constants(entry, ident),
        [t for t in of((IOKind.STATE,)) if t.name in state_after],
        state_after,
        {name: initial[name] for name in state_after} if set(state_after) <= set(initial) else {},
        io_quantization(entry),
        constant_bytes,
    )
    _check_names_distinct(made, entry)
    return made


_FUNCTIONS = ("run", "entry", "map_inputs", "map_outputs", "map_state", "init_state")
"""The library's functions, each `<m>_<function>`."""


def _made_names(interface: Interface) -> list[tuple[str, list[str]]]:
    """Each user's name, and the macros and file-scope C names the library makes of it."""
    m = interface.model

    def defined(lines: list[str]) -> list[str]:
        return [line.split()[1] for line in lines if line.startswith("#define ")]

    made = [("the library", [_macro(interface, "H"), *(f"{m}_{f}" for f in _FUNCTIONS)])]
    made += [
        (
            f"pool '{p.name}'",
            [
                *defined(_pool_macros(interface, p)),
                *defined([_section_macro(interface, p)] if p.section is not None else []),
                *([f"{m}_{p.ident}"] if p.constant else []),
            ],
        )
        for p in interface.pools
    ]
    roles = [("INPUT", interface.inputs), ("OUTPUT", interface.outputs)]
    made += [
        (
            f"{role.lower()} '{t.name}'",
            defined(_tensor_macros(interface, role, [t]) + _described(interface, role, [t])),
        )
        for role, tensors in roles
        for t in tensors
    ]
    made += [
        (f"constant '{t.name}'", defined(_tensor_macros(interface, "CONSTANT", [t])))
        for t in interface.constants
    ]
    made += [
        (
            f"state variable '{t.name}'",
            [*defined(_tensor_macros(interface, "STATE", [t])), f"{m}_first_{t.ident}"],
        )
        for t in interface.state
    ]
    return made


def _check_names_distinct(interface: Interface, entry: tir.PrimFuncOp) -> None:
    """A `UsmpError` when two names make one macro or C name (a pool `input` and an input
    `workspace_pool` both `M_INPUT_WORKSPACE_POOL_SIZE`): a redefinition, an error under
    -Werror and a silent last-one-wins without."""
    owner: dict[str, str] = {}
    for what, names in _made_names(interface):
        for name in names:
            first = owner.setdefault(name, what)
            if first != what:
                raise UsmpError(
                    f"{first} and {what} both make the C name {name}: rename one of them",
                    entry,
                )


def _check_pool_macros(model: str, pools: list[Pool], entry: tir.PrimFuncOp) -> None:
    """A `UsmpError` for a pool whose longest macro passes `NAME_LIMIT`: a pool's name is
    the user's (`--pools`), given again in a firmware, so it is not shortened."""
    for pool in pools:
        macro = f"{model}_{pool.ident}_{_pool_kind(pool)}_ALIGNMENT".upper()
        if len(macro) > NAME_LIMIT:
            raise UsmpError(
                f"pool '{pool.name}' makes the macro {macro} of {len(macro)} characters, "
                f"more than the {NAME_LIMIT} C keeps apart: give the pool a shorter name",
                entry,
            )


def pool_sections(entry: tir.PrimFuncOp) -> dict[str, str]:
    """The linker section of each pool that names one (`usmp.pool_sections`)."""
    record = entry.attributes.get(POOL_SECTIONS_ATTR)
    if not isinstance(record, DictionaryAttr):
        return {}
    return {pool: s.data for pool, s in record.data.items() if isinstance(s, StringAttr)}


def _pool_alignments(entry: tir.PrimFuncOp) -> dict[str, int]:
    """The alignment of each pool that records one (`usmp.pool_alignments`)."""
    record = entry.attributes.get(POOL_ALIGNMENTS_ATTR)
    if not isinstance(record, DictionaryAttr):
        return {}
    return {pool: a.value.data for pool, a in record.data.items() if isinstance(a, IntegerAttr)}


def _shared_constants(entry: tir.PrimFuncOp, ident: dict[str, str]) -> dict[str, str]:
    record = entry.attributes.get(SHARED_CONSTANTS_ATTR)
    if not isinstance(record, SharedConstantsAttr):
        return {}
    return {name: ident[kept] for name, kept in record.stored_with.items() if kept in ident}


def _narrowed_constants(entry: tir.PrimFuncOp, ident: dict[str, str]) -> dict[str, str]:
    record = entry.attributes.get(NARROWED_CONSTANTS_ATTR)
    if not isinstance(record, NarrowedConstantsAttr):
        return {}
    return {ident[stored]: name for name, stored in record.stored_as.items() if stored in ident}


# ----------------------------------------------------------------------- the entry


@dataclass(frozen=True)
class EntryParams:
    """The params of the C entry, in order: the buffer params its C names (by name; a pool
    it never reads, the constant pool whose every view became a constant's param, is left
    out), then the constants it takes as params."""

    buffers: list[str]
    constants: list[str]


# ----------------------------------------------------------------------- the files


def _macro(interface: Interface, *parts: str) -> str:
    return "_".join((interface.model, *parts)).upper()


def _struct(name: str, members: list[str], tensors: list[Tensor] | None = None) -> str:
    """The struct; each member of a tensor whose identifier shortens its name followed by
    the name in a comment."""
    notes = [f" /* {t.name} */" if t.ident != c_identifier(t.name) else "" for t in tensors or []]
    notes += [""] * (len(members) - len(notes))
    # C11 has no empty struct: a model without inputs still gets a well-formed one.
    body = "".join(f"  {m};{n}\n" for m, n in zip(members, notes, strict=True))
    return f"struct {name} {{\n{body or '  uint8_t unused;' + chr(10)}}};\n"


def _tensor_macros(interface: Interface, role: str, tensors: list[Tensor]) -> list[str]:
    return [
        f"#define {_macro(interface, role, t.ident, suffix)} {value}"
        for t in tensors
        for suffix, value in (("SIZE", t.nbytes), ("ALIGNMENT", _itemsize(t.dtype)))
    ]


def _described(interface: Interface, role: str, tensors: list[Tensor]) -> list[str]:
    """What a firmware needs to fill an input or read an output: its shape, its element
    type, and for a quantized tensor its scale and zero point (real = scale * (q - zero
    point), TFLite's rule); its full name when the identifier shortens it."""
    lines = []
    for t in tensors:
        lines.append(f"/* {role.lower()} '{t.name}' */")
        shape = ", ".join(str(d) for d in t.shape) or "1"
        described = [
            ("RANK", str(len(t.shape))),
            ("SHAPE", f"{{{shape}}}"),
            ("TYPE", t.ctype),
            ("ELEMENTS", str(math.prod(t.shape))),
        ]
        if t.name in interface.quantization:
            scale, zero_point = interface.quantization[t.name]
            described += [("SCALE", f"{scale!r}f"), ("ZERO_POINT", f"({zero_point})")]
        lines += [f"#define {_macro(interface, role, t.ident, k)} {v}" for k, v in described]
    return lines


def _run_signature(interface: Interface) -> str:
    m = interface.model
    io = "" if interface.in_pools else f"struct {m}_inputs* inputs, struct {m}_outputs* outputs, "
    return (
        f"int32_t {m}_run({io}struct {m}_workspace_pools* workspace_pools, "
        f"const struct {m}_constants* overrides)"
    )


def _pool_macros(interface: Interface, pool: Pool) -> list[str]:
    kind = _pool_kind(pool)
    return [
        f"#define {_macro(interface, pool.ident, kind, suffix)} {value}"
        for suffix, value in (("SIZE", pool.size), ("ALIGNMENT", pool.alignment))
    ]


def _section_macro(interface: Interface, pool: Pool) -> str:
    return f'#define {_macro(interface, pool.ident, "SECTION")} "{pool.section}"'


def header(interface: Interface) -> str:
    m = interface.model
    guard = _macro(interface, "H")
    pool_macros = [line for pool in interface.pools for line in _pool_macros(interface, pool)]
    placed = [p for p in interface.pools if p.section is not None]
    if placed:
        pool_macros += [
            "/* Where each pool goes: its array in that linker section (run.c puts it there,",
            " * an547.ld places the section in the board's memory). */",
            *(_section_macro(interface, p) for p in placed),
        ]
    lines = [
        f"/* {m}: a planned model (usmp-translate --emit-c). No allocation at run time: the",
        " * caller owns the workspace pools (and the inputs and outputs, unless they live in",
        " * the pools). */",
        f"#ifndef {guard}",
        f"#define {guard}",
        "#include <stdbool.h>",
        "#include <stdint.h>",
        "",
        "#ifdef __cplusplus",
        'extern "C" {',
        "#endif",
        "",
        *pool_macros,
        *_tensor_macros(interface, "INPUT", interface.inputs),
        *_tensor_macros(interface, "OUTPUT", interface.outputs),
        *_described(interface, "INPUT", interface.inputs),
        *_described(interface, "OUTPUT", interface.outputs),
        *_tensor_macros(interface, "CONSTANT", interface.constants),
        *_tensor_macros(interface, "STATE", interface.state),
        "",
        _struct(
            f"{m}_inputs", [f"{t.ctype}* {t.ident}" for t in interface.inputs], interface.inputs
        ),
        _struct(
            f"{m}_outputs", [f"{t.ctype}* {t.ident}" for t in interface.outputs], interface.outputs
        ),
        _struct(f"{m}_workspace_pools", [f"uint8_t* {p.ident}" for p in interface.workspace_pools]),
        "/* A constant's replacement (the RFC's override); NULL: its bytes in the constant",
        " * pool. */",
        *(
            f"/* {c_identifier(name)}: stored once with {kept} (equal bytes): override {kept}, "
            "which both read. */"
            for name, kept in interface.shared.items()
        ),
        *(
            f"/* {t.ident}: the file's {FILE_DTYPE} {interface.narrowed[t.ident]}, stored as "
            f"{t.dtype} (its values fit; {FILE_STORAGE_OPTION} keeps it {FILE_DTYPE}). */"
            for t in interface.constants
            if t.ident in interface.narrowed
        ),
        _struct(
            f"{m}_constants",
            [f"const {t.ctype}* {t.ident}" for t in interface.constants],
            interface.constants,
        ),
    ]
    lines += [
        f"extern const uint8_t {m}_{pool.ident}[{pool.size}];"
        for pool in interface.pools
        if pool.constant
    ]
    if interface.in_pools:
        lines += [
            "/* Where the inputs and outputs live inside the workspace pools. */",
            f"struct {m}_inputs {m}_map_inputs(struct {m}_workspace_pools* workspace_pools);",
            f"struct {m}_outputs {m}_map_outputs(struct {m}_workspace_pools* workspace_pools);",
        ]
    if interface.state:
        state_pools = ", ".join(p.ident for p in interface.pools if p.state)
        lines += [
            f"/* The state {m} keeps from run to run (its variables), in the state pool",
            f" * ({state_pools}): keep its bytes from one run to the next, and set each variable",
            " * once before the first (to its first value, which the model's CALL_ONCE",
            " * subgraph gives it). Each run reads a variable's value and writes its next",
            " * value in place. */",
            _struct(
                f"{m}_state", [f"{t.ctype}* {t.ident}" for t in interface.state], interface.state
            ),
            f"struct {m}_state {m}_map_state(struct {m}_workspace_pools* workspace_pools);",
        ]
    if interface.state_initial:
        lines += [
            "/* Sets each variable to its first value (the model's CALL_ONCE subgraph's):",
            " * once, before the first run. */",
            f"void {m}_init_state(struct {m}_workspace_pools* workspace_pools);",
        ]
    lines += [
        "/* Runs the model once; `overrides` may be NULL. Returns 0, or non-zero on error. */",
        f"{_run_signature(interface)};",
        "",
        "#ifdef __cplusplus",
        "}",
        "#endif",
        f"#endif /* {guard} */",
        "",
    ]
    return "\n".join(lines)


def _pool_kind(pool: Pool) -> str:
    return "CONSTANT_POOL" if pool.constant else "STATE_POOL" if pool.state else "WORKSPACE_POOL"


def _pool_address(interface: Interface, pool: str, offset: int) -> str:
    found = next(p for p in interface.pools if p.name == pool)
    base = (
        f"(uint8_t*){interface.model}_{found.ident}"
        if found.constant
        else f"workspace_pools->{found.ident}"
    )
    return f"&({base})[{offset}]"


def _io_struct(interface: Interface, name: str) -> str | None:
    """The struct of `model_run` that holds the entry's buffer param `name`: `inputs` or
    `outputs`; None for a pool."""
    if any(t.name == name for t in interface.outputs):
        return "outputs"
    return "inputs" if any(t.name == name for t in interface.inputs) else None


def _entry_arguments(interface: Interface, params: EntryParams) -> list[str]:
    by_name = {t.name: t for t in (*interface.inputs, *interface.outputs)}
    arguments = []
    for name in params.buffers:
        struct = _io_struct(interface, name)
        if struct is None:
            arguments.append(_pool_address(interface, name, 0))
        else:
            arguments.append(f"{struct}->{by_name[name].ident}")
    constants = {t.name: t for t in interface.constants}
    for name in params.constants:
        tensor = constants[name]
        default = _pool_address(interface, *interface.offsets[name])
        arguments.append(
            f"overrides != NULL && overrides->{tensor.ident} != NULL ? "
            f"({tensor.ctype}*)overrides->{tensor.ident} : ({tensor.ctype}*){default}"
        )
    return arguments


def _map_function(interface: Interface, role: str, tensors: list[Tensor]) -> str:
    m = interface.model
    lines = [
        f"struct {m}_{role} {m}_map_{role}(struct {m}_workspace_pools* workspace_pools) {{",
        f"  struct {m}_{role} mapped;",
    ]
    if not tensors:
        lines.append("  (void)workspace_pools;")
        lines.append("  mapped.unused = 0;")
    lines += [
        f"  mapped.{t.ident} = ({t.ctype}*){_pool_address(interface, *interface.offsets[t.name])};"
        for t in tensors
    ]
    return "\n".join([*lines, "  return mapped;", "}", ""])


def _infinities(operators: str) -> list[str]:
    """TVM prints an infinity as `inff` or `inf` (`-inff`: a max's initial value), names
    no header declares."""
    spelled = {"inff": "((float)INFINITY)", "inf": "((double)INFINITY)"}
    return [f"#define {n} {v}" for n, v in spelled.items() if re.search(rf"\b{n}\b", operators)]


def library_source(interface: Interface, operators: str, params: EntryParams) -> str:
    m = interface.model
    arguments = ",\n      ".join(_entry_arguments(interface, params))
    # A model may have no workspace pool (nothing left to plan) or no constants, and an
    # entry none of its inputs (or outputs) reach once unused params are dropped.
    unused = ["  (void)workspace_pools;", "  (void)overrides;"]
    if not interface.in_pools:
        reached = {_io_struct(interface, name) for name in params.buffers}
        unused += [f"  (void){s};" for s in ("inputs", "outputs") if s not in reached]
    lines = [
        "/* Generated by usmp-translate --emit-c: the operators are TVM's C code generator's,",
        "   but those on the int8 kernels (usmp_dialect/tvm/kernels/int8_kernels.c). */",
        "#include <math.h>",
        "#include <stddef.h>",
        f'#include "{m}.h"',
        "",
        *_infinities(operators),
        operators,
        f"{_run_signature(interface)} {{",
        *unused,
        f"  {m}_entry(\n      {arguments});",
        "  return 0;",
        "}",
        "",
    ]
    if interface.in_pools:
        lines += [
            _map_function(interface, "inputs", interface.inputs),
            _map_function(interface, "outputs", interface.outputs),
        ]
    if interface.state:
        lines.append(_map_function(interface, "state", interface.state))
    if interface.state_initial:
        lines.append(_init_state_function(interface))
    return "\n".join(lines)


def _byte_rows(data: bytes) -> list[str]:
    return [
        "  " + ", ".join(f"0x{b:02x}" for b in data[i : i + 16]) + ","
        for i in range(0, len(data), 16)
    ]


def _init_state_function(interface: Interface) -> str:
    """`<m>_init_state`: each variable's first value copied into its bytes of the pool."""
    m = interface.model
    lines = []
    for t in interface.state:
        lines += [
            f"static const uint8_t {m}_first_{t.ident}[{t.nbytes}] = {{",
            *_byte_rows(interface.state_initial[t.name]),
            "};",
        ]
    lines.append(f"void {m}_init_state(struct {m}_workspace_pools* workspace_pools) {{")
    for t in interface.state:
        address = _pool_address(interface, *interface.offsets[t.name])
        lines += [
            f"  for (size_t i = 0; i < {t.nbytes}; ++i) {{",
            f"    ({address})[i] = {m}_first_{t.ident}[i];",
            "  }",
        ]
    return "\n".join([*lines, "}", ""])


def constants_source(interface: Interface) -> str:
    m = interface.model
    pool = next(p for p in interface.pools if p.constant)
    # C zero-fills what the initializer leaves out: the text is of the constants' bytes
    # (the input's), whatever the pool's size.
    rows = _byte_rows(interface.constant_bytes.rstrip(b"\0"))
    return "\n".join(
        [
            f"/* The constant pool of {m}: read-only, so it stays in flash. */",
            f'#include "{m}.h"',
            "",
            f"_Alignas({pool.alignment}) const uint8_t {m}_{pool.ident}[{pool.size}] = {{",
            *rows,
            "};",
            "",
        ]
    )
