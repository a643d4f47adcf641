"""A model file: `PATH.py:NAME` or `PATH.py:NAME(key=value, ...)`, where `NAME(...)` returns
a Relax model's `(mod, weights)`.

    load_model(spec) -> (mod, weights)      run the file, call NAME with the arguments
    model_location(spec) -> str             `PATH:line:col` of NAME, where the model's errors point
    import_relax_file(spec) -> ModuleOp     `usmp-translate --import-relax`

The file failing to parse or run, and NAME failing or returning something else, are each
a `RelaxImportError` at the model file's line that failed.
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
import re
import sys
import traceback
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from usmp_dialect.tvm.relax.to_tir import RelaxImportError, import_relax
from usmp_dialect.tvm_options import DEFAULT_TIR_IMPORT, Stages, TirImport, unshown

# The path ends at the first `.py:`, so a string argument may hold `:` and `)`.
_SPEC = re.compile(r"(?P<path>.+?\.py):(?P<name>[A-Za-z_]\w*)(?:\((?P<arguments>.*)\))?", re.S)


class ModelSpec(NamedTuple):
    """`PATH.py:NAME` or `PATH.py:NAME(key=value, ...)`, the values Python literals."""

    path: str
    name: str
    arguments: dict[str, Any]


def parse_model_spec(spec: str) -> ModelSpec:
    match = _SPEC.fullmatch(spec)
    if match is None:
        raise RelaxImportError(
            "expected PATH.py:NAME or PATH.py:NAME(key=value, ...) "
            "(a function returning (mod, weights))",
            spec,
        )
    path, name = match["path"], match["name"]
    if not Path(path).is_file():
        raise RelaxImportError(f"no such model file '{path}'", spec)
    return ModelSpec(path, name, _spec_arguments(match["arguments"] or "", spec))


def _spec_arguments(text: str, spec: str) -> dict[str, Any]:
    """`key=value, ...` with literal values, as a dict."""
    error = RelaxImportError(
        f"model arguments must be key=value, each key once, with Python literals; got '{text}'",
        spec,
    )
    try:
        call = ast.parse(f"f({text})", mode="eval").body
    except SyntaxError:
        raise error from None
    if not isinstance(call, ast.Call) or call.args:
        raise error
    keys = [k.arg for k in call.keywords]
    names = [k for k in keys if k is not None]  # None: a `**mapping` argument
    if len(names) != len(keys) or len(set(names)) != len(names):
        raise error
    try:
        return {
            name: ast.literal_eval(k.value) for name, k in zip(names, call.keywords, strict=True)
        }
    except ValueError:
        raise error from None


def model_location(spec: str) -> str:
    """`PATH:line:col` of `def NAME` in the model file, where its errors point; else `spec`."""
    path, name, _ = parse_model_spec(spec)
    try:
        tree = ast.parse(Path(path).read_text(), path)
    except (SyntaxError, ValueError, UnicodeDecodeError):
        return spec
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
            return f"{path}:{node.lineno}:{node.col_offset + 1}"
    return spec


def _raised_at(error: BaseException, path: str, fallback: str) -> str:
    """`PATH:line:col` of the model file's innermost frame in the traceback of `error` (the
    user's line that failed), else `fallback`."""
    source = Path(path).resolve()
    if (
        isinstance(error, SyntaxError)
        and error.filename
        and Path(error.filename).resolve() == source
    ):
        return f"{path}:{error.lineno}:{error.offset or 1}"
    frames = [
        f for f in traceback.extract_tb(error.__traceback__) if Path(f.filename).resolve() == source
    ]
    if not frames:
        return fallback
    frame = frames[-1]
    return f"{path}:{frame.lineno}:{(frame.colno or 0) + 1}"


def _described(error: BaseException) -> str:
    """`Type: message`, or `Type` alone when the message is empty (`KeyboardInterrupt`)."""
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def load_model(spec: str, **arguments: Any) -> tuple[Any, dict[str, np.ndarray]]:
    """`PATH.py:NAME(key=value, ...)` -> NAME(key=value, ..., **arguments), which must return
    `(mod, weights)`; the model file failing to load or run is a `RelaxImportError` at its
    failing line."""
    path, name, spec_arguments = parse_model_spec(spec)
    arguments = {**spec_arguments, **arguments}
    # Imported before the model file runs, so that a missing TVM is the missing optional
    # dependency rather than the model file's failure.

    module_spec = importlib.util.spec_from_file_location(f"_usmp_model_{Path(path).stem}", path)
    if module_spec is None or module_spec.loader is None:
        raise RelaxImportError(f"cannot load '{path}' as a Python module", spec)
    module = importlib.util.module_from_spec(module_spec)
    # Registered first, as `import` does: TVMScript's decorators look their module up.
    sys.modules[module_spec.name] = module
    try:
        module_spec.loader.exec_module(module)
    # BaseException: the user's code may raise anything, KeyboardInterrupt and
    # SystemExit included, and each is a failure of the model file, not of this tool.
    except BaseException as error:  # the user's file failed to run
        at = _raised_at(error, path, spec)
        raise RelaxImportError(f"loading '{path}' failed: {_described(error)}", at) from None
    factory = getattr(module, name, None)
    if not callable(factory):
        found = sorted(
            n
            for n, v in vars(module).items()
            if inspect.isfunction(v) and v.__module__ == module.__name__ and not n.startswith("_")
        )
        its = ", ".join(found) or "none"
        raise RelaxImportError(
            f"'{path}' has no model function '{name}' (it has: {its})", f"{path}:1:1"
        )
    location = model_location(spec)
    try:
        result = factory(**arguments)
    except BaseException as error:  # the user's model failed to build (see above)
        at = _raised_at(error, path, location)
        raise RelaxImportError(f"'{name}()' failed: {_described(error)}", at) from None
    if not (isinstance(result, tuple) and len(result) == 2):
        raise RelaxImportError(
            f"'{name}()' must return (mod, weights), got {type(result).__name__}", location
        )
    return result


def import_relax_file(
    spec: str, tir_import: TirImport = DEFAULT_TIR_IMPORT, stage: Stages = unshown
) -> ModuleOp:
    """`usmp-translate --import-relax PATH.py:NAME [--weights=...] [--fusion=...]`."""
    stage("running the model file")
    mod, weights = load_model(spec)
    return import_relax(mod, weights, model_location(spec), tir_import, stage)
