"""`usmp-translate --emit-c DIR`: the files of the library (`c.library`), its runner and
Makefile (`c.runner`); the command writes them into DIR as it writes every output
(`usmp_dialect.tools.output`), leaving the user's other files there alone."""

from __future__ import annotations

from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from usmp_dialect.tvm.c import library as c_library
from usmp_dialect.tvm.c import runner as c_runner
from usmp_dialect.tvm.c.operators import operators_source
from usmp_dialect.tvm.fast_kernels import with_kernel_calls
from usmp_dialect.tvm.tvmscript.emitter import emit_module
from usmp_dialect.tvm_options import DEFAULT_TARGET, RUNNER, STARTUP


def library_files(module: ModuleOp, model: str, target: str = DEFAULT_TARGET) -> dict[str, str]:
    """File name: text, for a planned module of the `tir` dialect, its int8 kernels for
    `target` (`fast_kernels.TARGETS`)."""
    entry = c_library.check_module(module)
    interface = c_library.interface(module, entry, model)
    tvm_mod, kernels = with_kernel_calls(emit_module(module), entry.sym_name.data, target)
    constant_params = {t.name: f"constant_{t.ident}" for t in interface.constants}
    operators, params = operators_source(
        tvm_mod, entry.sym_name.data, f"{model}_entry", constant_params
    )
    operators = f"{kernels}\n{operators}"
    files = {
        f"{model}.h": c_library.header(interface),
        f"{model}.c": c_library.library_source(interface, operators, params),
        RUNNER: c_runner.runner_source(interface),
        STARTUP: c_runner.STARTUP_SOURCE,
        c_runner.LINKER_SCRIPT: c_runner.linker_script(interface),
        c_runner.M4_LINKER_SCRIPT: c_runner.m4_linker_script(interface),
        "Makefile": c_runner.makefile(interface),
        c_runner.CMAKE_LISTS: c_runner.cmake_lists(interface),
    }
    if any(pool.constant for pool in interface.pools):
        files[f"{model}_constants.c"] = c_library.constants_source(interface)
    return files


def write_library(module: ModuleOp, directory: str, model: str) -> None:
    """The files of `library_files` written into `directory` (created when missing), for a
    build in a directory of the caller's (`tests/support/c_check.py`)."""
    Path(directory).mkdir(parents=True, exist_ok=True)
    for name, text in library_files(module, model).items():
        Path(directory, name).write_text(text)
