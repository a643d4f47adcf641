"""The child process of `ahead_of_time.build`: `python -m` this module MODULE QUALNAME NAME
DIRECTORY TYPE... writes the extension module NAME into DIRECTORY."""

from __future__ import annotations

import sys
import warnings
from typing import Any

from usmp_dialect.planning.algorithms import kernel
from usmp_dialect.planning.algorithms.ahead_of_time import EXPORT


def build(module: str, qualname: str, name: str, directory: str, types: tuple[str, ...]) -> None:
    """The kernel `qualname` of `module` and every kernel it calls compiled by numba's
    `pycc` for the argument `types`, its return type as numba's JIT infers it."""
    from numba.core import sigutils  # noqa: PLC0415

    function = kernel.named(module, qualname)
    if kernel.module_name_of(function, types) != name:
        raise SystemExit(f"the sources of {module}.{qualname} differ from those asked for")
    kernel.compile_kernels()  # its JIT function calls the other kernels' JIT functions
    arguments, _ = sigutils.normalize_signature(f"none({', '.join(types)})")
    dispatcher: Any = function.compiled  # numba's dispatcher, untyped
    dispatcher.compile(arguments)
    signature = dispatcher.overloads[tuple(arguments)].signature
    with warnings.catch_warnings():
        # numba.pycc's pending deprecation, in this child only: kept, and the plan for its
        # removal, in docs/algorithms.md ("numba's pycc").
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        from numba.pycc import CC  # noqa: PLC0415

    compiler = CC(name)
    compiler.output_dir = directory
    compiler.verbose = False
    compiler.export(EXPORT, signature)(dispatcher.py_func)
    compiler.compile()


if __name__ == "__main__":
    build(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], tuple(sys.argv[5:]))
