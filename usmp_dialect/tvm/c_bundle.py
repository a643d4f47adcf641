"""`usmp-translate --emit-c DIR`: the library (`c_library`), its runner and Makefile
(`c_runner`) written into DIR at once: staged in a directory beside it, renamed into
place only when every file is complete, so a failure leaves nothing behind."""

from __future__ import annotations

import os
import shutil
import tempfile

from xdsl.dialects.builtin import ModuleOp

from usmp_dialect.diagnostics import LocatedError
from usmp_dialect.formats.constant_pool import constant_pool_bytes
from usmp_dialect.tvm import c_library, c_runner
from usmp_dialect.tvm.tvmscript_emitter import emit_module


def library_files(module: ModuleOp, model: str) -> dict[str, str]:
    """File name: text, for a planned module of the `tir` dialect."""
    entry = c_library.check_module(module)
    interface = c_library.interface(module, entry, model)
    tvm_mod = emit_module(module)
    constant_params = {t.name: f"constant_{t.ident}" for t in interface.constants}
    operators, overridable = c_library.operators_source(
        tvm_mod, entry.sym_name.data, f"{model}_entry", constant_params
    )
    params = [str(name) for name in entry.param_names()]
    files = {
        f"{model}.h": c_library.header(interface),
        f"{model}.c": c_library.library_source(interface, operators, params, overridable),
        c_runner.RUNNER: c_runner.runner_source(interface),
        c_runner.STARTUP: c_runner.STARTUP_SOURCE,
        c_runner.LINKER_SCRIPT: c_runner.LINKER_SCRIPT_SOURCE,
        "Makefile": c_runner.makefile(interface),
    }
    if any(pool.constant for pool in interface.pools):
        files[f"{model}_constants.c"] = c_library.constants_source(
            interface, constant_pool_bytes(module)
        )
    return files


def write_library(module: ModuleOp, directory: str, model: str) -> None:
    """The files of `library_files` in `directory` (created; an existing one is replaced
    only by a complete new one)."""
    files = library_files(module, model)
    target = os.path.abspath(directory)
    parent = os.path.dirname(target)
    try:
        staging = tempfile.mkdtemp(prefix=f".{os.path.basename(target)}.", dir=parent)
    except OSError as error:
        raise LocatedError(f"cannot create a directory: {error.strerror}", directory) from None
    try:
        for name, text in files.items():
            with open(os.path.join(staging, name), "w") as file:
                file.write(text)
        if os.path.isdir(target):
            shutil.rmtree(target)
        os.rename(staging, target)
    except OSError as error:
        shutil.rmtree(staging, ignore_errors=True)
        raise LocatedError(f"cannot write the library: {error.strerror}", directory) from None
