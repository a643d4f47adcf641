"""The operators and the entry of the C library (`usmp-translate --emit-c`), in C: the
planned module's TIR, made what TVM 0.27's C code generator writes as plain C functions
over raw pointers (the entry a pointer param per buffer and per constant, an accumulator
on the stack), lowered by TVM's own pipeline for target `c`, without a param no function
names, and written by its generator; then its text as the library's (`_library_text`).

    operators_source(mod, entry, entry_c_name, constants) -> (C text, EntryParams)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

import tvm
import tvm_ffi
from tvm import ir, tirx
from tvm.tirx.build import codegen_build

from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.reports.names import NAME_LIMIT, short_names
from usmp_dialect.tvm.c.library import MATH_FUNCTIONS, EntryParams, c_identifier
from usmp_dialect.tvm.exact_floats import exact_float_placeholders, exact_floats
from usmp_dialect.tvm.relax.nodes import nodes_of


@dataclass(frozen=True)
class _EntryParam:
    """A param `_callable_entry` made: the buffer's (or constant's) name it stands for."""

    var: Any
    name: str
    constant: bool = False


def _entry_params(entry: Any, made: list[_EntryParam]) -> EntryParams:
    """The params of `made` that `entry` kept."""
    kept = [m for m in made if any(m.var.same_as(p) for p in entry.params)]
    return EntryParams(
        [m.name for m in kept if not m.constant], [m.name for m in kept if m.constant]
    )


def _callable_entry(func: Any, constants: Mapping[str, str]) -> tuple[Any, list[_EntryParam]]:
    """The entry as TVM's C code generator writes a plain function: a pointer param per
    buffer param its body names (re-declaring the buffer over it), then one per constant
    its view over the constant pool had (`constants`: buffer name to the new param's
    name); and what each new param is."""
    replaced: dict[str, Any] = {}

    def rebind(decl: Any) -> Any:
        name = str(decl.buffer.name)
        if name not in constants:
            return decl
        pointer = ir.PointerType(ir.PrimType(decl.buffer.dtype), "global")
        replaced[name] = ir.Var(constants[name], pointer)
        return tirx.DeclBuffer(decl.buffer, data=replaced[name])

    body = tvm_ffi.structural_map(func.body, (tirx.DeclBuffer, rebind))
    flags, body = _named(func.params, body)
    kept = [p for p, named in zip(func.params, flags, strict=True) if named]
    params, decls = [], []
    for p in kept:
        pointer = ir.PointerType(ir.PrimType(p.dtype), p.scope())
        params.append(_EntryParam(ir.Var(f"{c_identifier(p.name)}_ptr", pointer), str(p.name)))
        decls.append(tirx.DeclBuffer(p, data=params[-1].var))
    params += [_EntryParam(replaced[n], n, constant=True) for n in constants if n in replaced]
    entry = tirx.PrimFunc([p.var for p in params], tirx.stmt_seq(*decls, body))
    return entry, params


def _locals_on_stack(func: Any) -> Any:
    """`func` with its `local` buffers (an accumulator the import made a register) of
    scope `global` and zeroed where they are allocated: TVM's C code generator declares a
    small `global` buffer inside the import's `device_type` attr as a C array on the
    stack, but a `local` one it asks its runtime's workspace for (its last resort for a
    larger one too, which the bundle then refuses, see `operators_source`); gcc cannot
    see that a reduction's first iteration writes the accumulator before it reads it
    (-Wmaybe-uninitialized, an error under -Werror)."""
    stacked = {
        alloc.buffer: tirx.decl_buffer(
            alloc.buffer.shape, alloc.buffer.dtype, str(alloc.buffer.name), scope="global"
        )
        for alloc in nodes_of(tirx.AllocBuffer, func.body)
        if alloc.buffer.scope() == "local"
    }
    if not stacked:
        return func

    def rebind(var: Any, *_: Any) -> Any:
        return next((new for old, new in stacked.items() if var.same_as(old)), var)

    def zeroed(seq: Any) -> Any:
        stmts = []
        for stmt in seq.seq:
            stmts.append(stmt)
            if isinstance(stmt, tirx.AllocBuffer) and any(
                stmt.buffer.same_as(new) for new in stacked.values()
            ):
                stmts.append(_zero_filled(stmt.buffer))
        return tirx.SeqStmt(stmts) if len(stmts) > len(seq.seq) else seq

    body = tvm_ffi.structural_map(func.body, (ir.Var, rebind))
    return func.with_body(tvm_ffi.structural_map(body, (tirx.SeqStmt, zeroed)))


def _zero_filled(buffer: Any) -> Any:
    """Stores of 0 to each element of `buffer`: an unrolled loop for each dim of more than
    one, which TVM's pipeline makes a store per element (GCC compiles them as it does an
    array's `= {0}`, a loop it may not)."""
    indices, loops = [], []
    for axis, extent in enumerate(buffer.shape):
        if int(extent) == 1:
            indices.append(tirx.const(0, extent.ty.dtype))
        else:
            loops.append((ir.Var(f"{buffer.name}_zeroed{axis}", extent.ty), extent))
            indices.append(loops[-1][0])
    stmt = tirx.BufferStore(buffer, tirx.const(0, buffer.dtype), indices)
    for var, extent in reversed(loops):
        stmt = tirx.For(var, tirx.const(0, extent.ty.dtype), extent, tirx.ForKind.UNROLLED, stmt)
    return stmt


def _with_empty_operator(entry: Any, name: str, operators: dict[Any, Any]) -> Any:
    """`entry` calling an empty operator added to `operators`: TVM takes a function alone
    in its module for the public entry, whatever its attributes say."""
    empty = tirx.PrimFunc([], tirx.Evaluate(tirx.IntImm("int32", 0)))
    callee = ir.GlobalVar(name)
    operators[callee] = empty
    call = tirx.Evaluate(ir.Call(callee, [], ret_ty=empty.ret_type))
    return tirx.PrimFunc(entry.params, tirx.stmt_seq(entry.body, call), attrs=entry.attrs)


def _views_left_out(body: Any, views: list[Any]) -> Any:
    def left_out(decl: Any) -> Any:
        unused = any(decl.same_as(view) for view in views)
        return tirx.Evaluate(tirx.IntImm("int32", 0)) if unused else decl

    return tvm_ffi.structural_map(body, (tirx.DeclBuffer, left_out))


def _named(params: Any, body: Any) -> tuple[list[bool], Any]:
    """For each of `params`, whether the C of `body` names it; and `body` without the
    buffers declared over a var that nothing uses (TVM writes no C for such a view: its
    uses name the var)."""
    views = [d for d in nodes_of(tirx.DeclBuffer, body) if isinstance(d.data, ir.Var)]
    used = tirx.analysis.undefined_vars(_views_left_out(body, views), [])
    unused = [v for v in views if not any(v.buffer.same_as(u) for u in used)]
    named = [*used, *(v.data for v in views if not any(v.same_as(u) for u in unused))]
    flags = [any(p.same_as(v) for v in named) for p in params]
    return flags, _views_left_out(body, unused)


def _without_unused_params(mod: Any) -> Any:
    """`mod` with each param a function never names left out, and its argument at every
    call (by GlobalVar, or by name through `call_extern`), until every param is named (a
    caller's param that only such an argument named goes too): C's -Wunused-parameter is
    an error, and an operator may be handed a pool it does not use."""
    functions = dict(mod.functions.items())
    named = {gv.name_hint: _named(f.params, f.body) for gv, f in functions.items()}
    kept = {name: flags for name, (flags, _) in named.items()}

    def callee(call: Any) -> tuple[str | None, int]:
        """The module function `call` calls and the index of its first argument."""
        if isinstance(call.op, ir.GlobalVar):
            return call.op.name_hint, 0
        if call.op.same_as(ir.Op.get("tirx.call_extern")) and isinstance(
            call.args[0], ir.StringImm
        ):
            return str(call.args[0].value), 1
        return None, 0

    def dropped(call: Any) -> Any:
        name, first = callee(call)
        if name not in kept or all(kept[name]) or len(call.args) - first != len(kept[name]):
            return call
        passed = zip(call.args[first:], kept[name], strict=True)
        args = [*call.args[:first], *(arg for arg, named in passed if named)]
        return ir.Call(call.op, args, call.attrs, call.ty_args, call.span, ret_ty=call.ty)

    if all(all(flags) for flags in kept.values()):
        return mod
    return _without_unused_params(
        tvm.IRModule(
            {
                gv: tirx.PrimFunc(
                    [p for p, k in zip(f.params, kept[gv.name_hint], strict=True) if k],
                    tvm_ffi.structural_map(named[gv.name_hint][1], (ir.Call, dropped)),
                    ret_type=f.ret_type,
                    attrs=f.attrs,
                )
                for gv, f in functions.items()
            },
            attrs=mod.attrs,
        )
    )


_C_TARGET = tvm.target.Target("c")


def _lowered(mod: Any) -> Any:
    """`mod` as TVM's C code generator takes it: lowered by TVM's own pipeline for target
    `c` (what `tvm.compile` runs before its code generator), then without the params no
    function names (`_without_unused_params`): they are decided on what the generator
    sees, after TVM's simplification (a signal kernel's select whose condition is always
    true reads one of its buffers no more)."""
    mod = tvm.tirx.transform.BindTarget(_C_TARGET)(mod)
    pipeline, finalize_host, _ = tvm.tirx.get_default_tir_pipeline(_C_TARGET)
    # Without TVM's storage rewrite, as every build of a planned module (`tvmscript/run.py`).
    with tvm.transform.PassContext(config={"tirx.disable_storage_rewrite": True}):
        return _without_unused_params(finalize_host()(pipeline(mod)))


_EXTERN_C = '#ifdef __cplusplus\nextern "C"\n#endif\n'


def operators_source(
    mod: Any, entry: str, entry_c_name: str, constants: Mapping[str, str]
) -> tuple[str, EntryParams]:
    """TVM's C for every function of `mod`, the entry as `entry_c_name`, all `static`;
    and the params the C entry takes."""
    # The entry's calls name the operators' GlobalVars: the new module keeps them.
    operators = {
        gv: exact_float_placeholders(_locals_on_stack(mod[gv]))
        for gv in mod.get_global_vars()
        if gv.name_hint != entry
    }
    callable_entry, made = _callable_entry(exact_float_placeholders(mod[entry]), constants)
    if not operators:
        callable_entry = _with_empty_operator(callable_entry, f"{entry_c_name}_nothing", operators)
    entry_gv = tvm.ir.GlobalVar(entry_c_name)
    lowered = _lowered(tvm.IRModule({**operators, entry_gv: callable_entry}))
    source = codegen_build(lowered, _C_TARGET).inspect_source()
    entry_params = _entry_params(lowered[entry_gv], made)
    return _library_text(source), entry_params


def _library_text(source: str) -> str:
    """TVM's C text as the library's, rewritten where TVM's `target.build.c` prints what no
    TIR and no option of it changes (docs/c-library.md measures each): the runtime header
    it prints before the first `extern "C"` cut, `TVM_DLL` made `static` and its
    declarations of C's math functions left to `<math.h>`, the exact floats' placeholders
    made literals (`exact_floats`) and each identifier longer than C keeps apart
    shortened (`_short_identifiers`)."""
    source = exact_floats(source[source.index(_EXTERN_C) :].replace(_EXTERN_C, ""))
    source = re.sub(
        r"^TVM_DLL \w+ (\w+)\(.*\);\n",
        lambda m: "" if m[1] in MATH_FUNCTIONS else m[0],
        source,
        flags=re.MULTILINE,
    )
    source = source.replace("TVM_DLL ", "static ")
    if leftover := re.search(r"\bTVM\w+", source):
        raise UsmpError(
            f"TVM's C for the module calls its runtime ({leftover[0]}); the bundle has none"
        )
    source = _POOL_POINTER.sub(partial(_unless_unread, source), source)
    return _short_identifiers(source)


# A local pointer into a pool: an input the model never reads (its output a constant of
# the input's shape: SHAPE, ZEROS_LIKE), if no line but this one names it.
_POOL_POINTER = re.compile(r"^\s+\w+\* (\w+) = \(\(\w+\*\)\(&\(\w+\[\d+\]\)\)\);\n", re.MULTILINE)


def _unless_unread(source: str, match: re.Match[str]) -> str:
    """The declaration, left out when nothing reads the pointer (-Wunused-variable is an
    error)."""
    return match[0] if len(re.findall(rf"\b{match[1]}\b", source)) > 1 else ""


def _short_identifiers(source: str) -> str:
    """`source` with each identifier TVM made of a long buffer name (`<name>_ptr`, a
    local) made at most 63 characters (`short_names`)."""
    identifiers = set(re.findall(r"\b[A-Za-z_]\w*\b", source))
    short = short_names(sorted(identifiers))
    longer = {name: s for name, s in short.items() if s != name}
    if not longer:
        return source
    return re.sub(rf"\b[A-Za-z_]\w{{{NAME_LIMIT},}}\b", lambda m: longer[m[0]], source)
