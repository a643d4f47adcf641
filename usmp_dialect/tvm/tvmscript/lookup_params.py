"""TVM's legacy AOT params (`T.lookup_param("p0")`) bound to their bytes, as constants.

    import_tvmscript_with_params(text, filename, params_file) -> ModuleOp
    read_params(path) -> {name: array}              a numpy `.npz`, one array a param
    bind_lookup_params(mod, params, filename, params_file) -> (mod, entry, constants)

An entry that reads `T.lookup_param("p0", dtype="handle")` can only be run by a runtime
holding the params. Given their arrays, each name the entry looks up becomes a buffer param
of the entry, called as the lookup names it (`p0`, after the entry's own params, in the
order of first lookup), and each lookup becomes that buffer's `.data`; the entry's
`usmp.constants` lists them, exactly as `--import-relax` leaves bound weights, so a
constant pool takes them and `--constants-out` writes their bytes.

The arrays must be exactly the params the entry looks up: a name missing from the file, an
array the entry never looks up, or an array whose dtype or element count differs from a
buffer an operator (or the entry) declares over the param is a `TVMScriptError` at the
lookup, naming the param and the file. A lookup outside the entry cannot be bound, nor
one whose name a variable of the entry already has (the constant keeps the name), except a
buffer the entry declares over that very lookup.
"""

from __future__ import annotations

import math
import zipfile
from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np
import tvm
import tvm_ffi
from tvm import tirx
from xdsl.dialects.builtin import ModuleOp

from usmp_dialect.analysis.tir_entry import prim_funcs
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import CONSTANTS_ATTR
from usmp_dialect.formats.constant_pool import set_constant_values
from usmp_dialect.tvm.relax.nodes import nodes_of
from usmp_dialect.tvm.relax.to_tir import var_names
from usmp_dialect.tvm.tvmscript.emitter import tvm_attrs
from usmp_dialect.tvm.tvmscript.importer import TVMScriptError, import_module, parse_tvmscript
from usmp_dialect.tvm.tvmscript.run import entry_name

LOOKUP_PARAM = "tirx.lookup_param"


def read_params(path: str) -> dict[str, np.ndarray]:
    """The arrays of a numpy `.npz` file by name, or a `TVMScriptError` at the file."""
    try:
        archive = np.load(path, allow_pickle=False)
    except OSError as error:
        raise TVMScriptError(f"cannot read the params: {error.strerror}", path) from None
    except (ValueError, EOFError, zipfile.BadZipFile):  # neither zip nor .npy: "a pickle"
        raise TVMScriptError("the params are not a numpy .npz archive", path) from None
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise TVMScriptError("the params are one array (.npy), not an .npz of named ones", path)
    with archive:
        arrays = {}
        for name in archive.files:
            try:
                array = archive[name]
            except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
                raise TVMScriptError(f"cannot read array '{name}': {error}", path) from None
            # A member that is not a .npy file comes back as its raw bytes.
            if not isinstance(array, np.ndarray):
                raise TVMScriptError(f"member '{name}' is not a .npy array", path)
            arrays[name] = array
    return arrays


class _Lookup(NamedTuple):
    """A `T.lookup_param` call of the entry, and the buffers declared over its pointer
    (what reads them, shape, dtype)."""

    call: Any
    views: list[tuple[str, tuple[int, ...], str]]


def _is_lookup(node: Any) -> bool:
    return getattr(getattr(node, "op", None), "name", None) == LOOKUP_PARAM


def _location(filename: str, node: Any) -> str:
    span = getattr(node, "span", None)
    return f"{filename}:{span.line}:{span.column}" if span is not None else filename


def _calls(func: Any) -> list[Any]:
    return nodes_of(tvm.ir.Call, func.body)


def _decls(func: Any) -> list[Any]:
    return nodes_of(tirx.DeclBuffer, func.body)


def _view(reader: str, decl: Any) -> tuple[str, tuple[int, ...], str]:
    return reader, tuple(int(d) for d in decl.buffer.shape), str(decl.buffer.dtype)


def _lookups(mod: Any, entry: str) -> dict[str, list[_Lookup]]:
    """Each param the entry looks up, by name in order of first lookup, with its lookups."""
    func = mod[entry]
    calls = _calls(func)
    views: dict[Any, list[tuple[str, tuple[int, ...], str]]] = {}
    for call in calls:
        if not isinstance(call.op, tvm.ir.GlobalVar) or call.op.name_hint not in mod:
            continue
        callee = mod[call.op]
        decls = _decls(callee)
        reader = f"operator '{call.op.name_hint}'"
        for arg, param in zip(call.args, callee.params, strict=False):
            if _is_lookup(arg):
                over = [d for d in decls if d.data is not None and d.data.same_as(param)]
                views.setdefault(arg, []).extend(_view(reader, d) for d in over)
    for decl in _decls(func):
        if _is_lookup(decl.data):
            views.setdefault(decl.data, []).append(_view(f"'{entry}'", decl))
    lookups: dict[str, list[_Lookup]] = {}
    for call in filter(_is_lookup, calls):
        name = str(call.args[0].value)
        lookups.setdefault(name, []).append(_Lookup(call, views.get(call, [])))
    return lookups


def _lookup_outside(mod: Any, entry: str) -> Any:
    """A `T.lookup_param` call in a function other than the entry, if there is one."""
    for gvar, func in mod.functions_items():
        if gvar.name_hint != entry:
            for call in filter(_is_lookup, _calls(func)):
                return call
    return None


def _check(
    lookups: Mapping[str, list[_Lookup]],
    params: Mapping[str, np.ndarray],
    filename: str,
    params_file: str,
    taken: set[str],
) -> None:
    """The arrays are exactly the params looked up, each as every buffer over it reads it."""

    for name, uses in lookups.items():
        here = _location(filename, uses[0].call)
        if name not in params:
            raise TVMScriptError(f"param '{name}' is not in {params_file}", here)
        if name in taken:
            raise TVMScriptError(
                f"param '{name}' has the name of a variable of the entry (a param, buffer or "
                "loop var); rename one of them",
                here,
            )
        array = params[name]
        try:
            tir.dtype_to_type(str(array.dtype))
        except ValueError:
            raise TVMScriptError(
                f"param '{name}' in {params_file} is {array.dtype}, which TIR has no dtype for",
                here,
            ) from None
        for use in uses:
            for reader, shape, dtype in use.views:
                if dtype != str(array.dtype) or math.prod(shape) != array.size:
                    raise TVMScriptError(
                        f"param '{name}' is {array.dtype}{list(array.shape)} in {params_file}, "
                        f"{reader} reads it as {dtype}{list(shape)}",
                        _location(filename, use.call),
                    )
    if extra := sorted(set(params) - set(lookups)):
        looked_up = ", ".join(lookups) or "none"
        raise TVMScriptError(
            f"array '{extra[0]}' is not a param the entry looks up with T.lookup_param "
            f"(its params: {looked_up})",
            params_file,
        )


def bind_lookup_params(
    mod: Any, params: Mapping[str, np.ndarray], filename: str, params_file: str
) -> tuple[Any, str, dict[str, np.ndarray]]:
    """`mod` with the entry's `T.lookup_param` calls bound to `params` (see the module
    docstring), the entry's name, and the constants' arrays by param name."""
    try:
        entry = entry_name(mod)
    except ValueError as error:
        raise TVMScriptError(str(error), filename) from None
    if (outside := _lookup_outside(mod, entry)) is not None:
        raise TVMScriptError(
            f"T.lookup_param outside the entry '{entry}': only the entry's params can be bound",
            _location(filename, outside),
        )
    func = mod[entry]
    lookups = _lookups(mod, entry)
    # A view the entry declares over a lookup may be named as the param (`b =
    # T.decl_buffer(..., data=T.lookup_param("b"))`): it stays a view of the constant `b`.
    views_as_named = {
        str(decl.buffer.name)
        for decl in _decls(func)
        if _is_lookup(decl.data) and str(decl.data.args[0].value) == str(decl.buffer.name)
    }
    _check(lookups, params, filename, params_file, var_names(func) - views_as_named)
    constants = {name: np.asarray(params[name]) for name in lookups}
    buffers = {
        name: tirx.decl_buffer(array.shape, str(array.dtype), name)
        for name, array in constants.items()
    }

    def bind(call: Any) -> Any:
        return buffers[str(call.args[0].value)].data if _is_lookup(call) else call

    body = tvm_ffi.structural_map(func.body, (tvm.ir.Call, bind))
    attrs = {} if func.attrs is None else dict(func.attrs.items())
    known = [str(name) for name in attrs.get(CONSTANTS_ATTR, [])]
    attrs[CONSTANTS_ATTR] = [*known, *constants]
    bound = tirx.PrimFunc(
        [*func.params, *buffers.values()], body, func.ret_type, attrs=tvm_attrs(attrs)
    )
    out = tvm.IRModule({gv: f for gv, f in mod.functions_items() if gv.name_hint != entry})
    out[entry] = bound
    return out, entry, constants


def import_tvmscript_with_params(text: str, filename: str, params_file: str) -> ModuleOp:
    """The `tir` dialect of a TVMScript module, its entry's `T.lookup_param` calls bound
    to the arrays of `params_file` and their values in the entry's
    `usmp.constant_values`."""

    params = read_params(params_file)
    mod, entry, constants = bind_lookup_params(
        parse_tvmscript(text, filename), params, filename, params_file
    )
    module = import_module(mod, filename)
    if constants:
        set_constant_values(module, prim_funcs(module)[entry], constants)
    return module
