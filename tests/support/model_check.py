"""Plan a Relax model, build and run it with TVM, and compare it with the Relax VM
(`tools/check_relax_model.py` is its command line).

The model is lowered to AOT-style TIR as `lowering` says (by default its weights bound and
folded; the folded tensors are passed as `main`'s constant params), planned as `usmp-opt
--plan-pools [--use-workspace-io] [--pools SPEC]` plans it, built for `target` and run on
random inputs with every pool prefilled with 0xFF, so that a plan letting two live buffers
share bytes shows as a wrong output. Each output is compared with the Relax VM's on the
original model, within `tolerance` (absolute and relative, as `numpy.allclose`).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from tests.support.c_check import LibraryRun, planned_tir_module, run_planned
from usmp_dialect.diagnostics import LocatedError
from usmp_dialect.dialects.usmp import POOLS_ATTR
from usmp_dialect.pipeline import plan_pools, plan_pools_pipeline
from usmp_dialect.tvm.relax.to_tir import (
    model_to_tir,
    relax_planner_bytes,
    relax_vm_outputs,
    sanitize,
)
from usmp_dialect.tvm.tvmscript.importer import TVMScriptError
from usmp_dialect.tvm.tvmscript.planned_module import plan_module
from usmp_dialect.tvm.tvmscript.run import (
    constant_pool,
    narrowed_constants,
    run_module,
    shared_constants,
    state_pool,
    stored_overrides,
)
from usmp_dialect.tvm_options import DEFAULT_TIR_IMPORT, TirImport


class OutputCheck(NamedTuple):
    name: str
    dtype: str
    shape: tuple[int, ...]
    max_error: float
    agrees: bool


class ModelCheck(NamedTuple):
    pools: dict[str, int]
    relax_bytes: int
    outputs: list[OutputCheck]
    constant_pool: str | None = None
    """The pool among `pools` that holds the constants, if one does."""
    constant_bytes: int = 0
    """The sum of the constants' sizes."""
    library: Any = None
    """With a C executor, its `LibraryRun`: our outputs, the image's sizes, build time."""
    inputs: dict[str, np.ndarray] | None = None
    """The inputs it ran on, by TIR name, in `main`'s order."""
    values: dict[str, np.ndarray] | None = None
    """Our outputs, by TIR name, in `main`'s order."""
    state_pool: str | None = None
    """The pool among `pools` that holds the state the model keeps from run to run, if
    one does."""


def _random_inputs(tir_main: Any, names: list[str], seed: int) -> dict[str, np.ndarray]:
    """Floats from a standard normal; integers and booleans 0 or 1, valid as indices into
    any table (an embedding's token ids) and as masks."""
    rng = np.random.default_rng(seed)
    params = {p.name: p for p in tir_main.params}
    inputs = {}
    for name in names:
        shape, dtype = [int(d) for d in params[name].shape], np.dtype(str(params[name].dtype))
        values = rng.standard_normal(shape) if dtype.kind == "f" else rng.integers(0, 2, shape)
        inputs[name] = values.astype(dtype)
    return inputs


class Overridden(NamedTuple):
    """`_overridden`'s result: the weights for the Relax VM, the arrays for our run (by
    constant name, in its stored type)."""

    weights: Mapping[str, np.ndarray]
    constants: dict[str, np.ndarray]


def _overridden(
    weights: Mapping[str, np.ndarray],
    constants: Mapping[str, np.ndarray],
    overrides: Mapping[str, np.ndarray],
    tir_mod: Any,
) -> Overridden:
    """`weights` with the overridden ones replaced (at the file's type), and the overrides
    as the constants store them (`stored_overrides`); an override of a constant that is not
    a weight (one folded at compile time) is an error, as the Relax VM cannot be given it,
    and so is one of a constant stored with another (`shared_constants`)."""
    narrowed = narrowed_constants(tir_mod)
    stored = stored_overrides(
        overrides,
        {n: (a.shape, str(a.dtype)) for n, a in constants.items()},
        shared_constants(tir_mod),
        narrowed,
    )
    file_names = {kept: name for name, kept in narrowed.items()}
    by_name = {sanitize(k): k for k in weights}
    replaced = dict(weights)
    for name, array in overrides.items():
        weight = by_name.get(file_names.get(name, name))
        if weight is None:
            raise LocatedError(
                f"'{name}' is computed from the weights at compile time; override a weight "
                "the model reads as it is, or lower with --weights=params",
                "--override",
            )
        replaced[weight] = array.astype(weights[weight].dtype)
    return Overridden(replaced, stored)


def tvm_failure_reason(error: Exception) -> str:
    """What a TVM failure says of why: the C compiler's first error, else its last line."""
    text = str(error).strip()
    if compiler := re.search(r":\d+:\d+: error: (.*)", text):
        return f"the generated C does not compile: {compiler[1]}"
    return text.splitlines()[-1] if text else ""


EXECUTORS_C = ("c", "qemu")


def _run_c(
    tir_mod: Any,
    constants: Mapping[str, np.ndarray],
    inputs: Mapping[str, np.ndarray],
    where: str,
    workspace_io: bool,
    pools: str,
    qemu: bool,
) -> LibraryRun:
    """One run of the model's C library (its constants in a constant pool)."""
    module = planned_tir_module(tir_mod, constants)
    plan_pools(
        module, plan_pools_pipeline(workspace_io=workspace_io, pools=pools, constant_pool=True)
    )
    with tempfile.TemporaryDirectory(prefix="usmp-check-") as directory:
        try:
            run = run_planned(module, inputs, f"{directory}/model", qemu)
        except RuntimeError as error:
            raise TVMScriptError(f"the C library failed: {error}", where) from None
    return run


def check_model(
    mod: Any,
    weights: Mapping[str, np.ndarray],
    where: str = "<relax>",
    *,
    tir_import: TirImport = DEFAULT_TIR_IMPORT,
    workspace_io: bool = False,
    target: str = "llvm",
    seed: int = 0,
    tolerance: float = 1e-5,
    pools: str = "",
    overrides: Mapping[str, np.ndarray] | None = None,
    executor: str = "tvm",
    inputs: Mapping[str, np.ndarray] | None = None,
) -> ModelCheck:
    """Lower `mod` as `lowering` says, plan, build and run it, and compare each output with
    the Relax VM's; Relax's own plan is of the module lowered alike (weights bound or not,
    fused or not). `pools` is a `--pools` spec (`sram:size_hint=256K,dram`, with
    `flash:kind=constant` the constants go in a pool). `overrides` replace constants by
    name (weights the model reads as they are), in our run and the Relax VM's.
    `executor` runs the planned model: `tvm` (built by `tvm.compile` for `target`), `c`
    (the C library of `usmp-translate --emit-c`, its constants in a constant pool, built
    and run on this machine) or `qemu` (that library on QEMU's Cortex-M55). `inputs`, by
    TIR name, replace the random ones drawn from `seed`."""

    tir_mod, constants = model_to_tir(mod, weights, where, tir_import)
    weights, stored = _overridden(weights, constants, overrides or {}, tir_mod)
    constants = {**constants, **stored}
    main = tir_mod["main"]
    params = [p.name for p in main.params]
    weight_names = {sanitize(k) for k in weights}
    input_names = [
        sanitize(p.name) for p in mod["forward"].params if sanitize(p.name) not in weight_names
    ]
    # main's params: the inputs, the weights and constants (folded ones too), the outputs.
    output_names = params[len(input_names) + len(constants) :]
    inputs = dict(inputs) if inputs is not None else _random_inputs(main, input_names, seed)

    library = None
    if executor in EXECUTORS_C:
        library = _run_c(tir_mod, constants, inputs, where, workspace_io, pools, executor == "qemu")
        ours, pool_sizes, constant_pool_name = library.outputs, library.pools, library.constant_pool
        state_pool_name = library.state_pool
    else:
        planned = plan_module(tir_mod, workspace_io=workspace_io, pools=pools)
        try:
            ours = run_module(planned, {**inputs, **constants}, target)
        except Exception as error:  # TVM's build of the planned TIR; its last line says why
            raise TVMScriptError(
                f"TVM could not build and run the planned model: {type(error).__name__}: "
                f"{tvm_failure_reason(error)}",
                where,
            ) from None
        # No pool at all when nothing is left to plan (one operator, its accumulator a
        # register).
        sizes: Any = planned["main"].attrs.get(POOLS_ATTR, {})
        pool_sizes = {str(k): int(v) for k, v in sizes.items()}
        constant_pool_name, state_pool_name = constant_pool(planned), state_pool(planned)
    references = relax_vm_outputs(mod, weights, inputs)
    checks = []
    for name, reference in zip(output_names, references, strict=True):
        got = ours[name]
        difference = np.abs(got.astype(np.float64) - reference)
        max_error = float(np.max(difference)) if got.size else 0.0
        agrees = bool(np.allclose(got, reference, rtol=tolerance, atol=tolerance))
        checks.append(OutputCheck(name, str(got.dtype), tuple(got.shape), max_error, agrees))
    bound = weights if tir_import.weights == "bound" else None
    return ModelCheck(
        pool_sizes,
        relax_planner_bytes(mod, bound, tir_import.fusion),
        checks,
        constant_pool_name,
        sum(array.nbytes for array in constants.values()),
        library,
        inputs,
        {name: ours[name] for name in output_names},
        state_pool_name,
    )
