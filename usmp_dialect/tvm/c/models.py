"""Several planned models in one C library, run one after another (never at once), so that
they share one workspace (`usmp-translate --emit-c-models DIR --model NAME=FILE ...`):

    models_files(models) -> {file name: text}

Each model's own library (`bundle.library_files`: NAME.h, NAME.c, NAME_constants.c), and
`models.h`/`models.c`, which own the memory: one workspace array as large as the largest
model's workspace pools together (a model's pools lie one after another in it), and one
state array per model that keeps state from run to run (never shared: a model's variables
must survive the other's runs). `models_NAME_pools()` gives model NAME's
`struct NAME_workspace_pools` inside them, for NAME_run (and NAME_map_inputs, ...).

A pipeline (each model's outputs the next one's inputs, left where written) is planned
again as one program (`joint_plan.plan_pipeline`): every model's workspace starts at the
shared one's start, its buffers at their joint offsets. A model whose outputs the next
reads N runs at a time (`stacks`: micro_speech's front end, a frame of features a run,
its classifier the last 49) writes into a stack the joint plan keeps in the workspace
from run to run (no other buffer shares its bytes), oldest run first; `models_NAME_run`
moves it one run toward its start (the oldest dropped) and runs NAME, which writes the
newest at its end.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import NoReturn

from xdsl.dialects.builtin import ModuleOp

from usmp_dialect.diagnostics import LocatedError
from usmp_dialect.planning.budget import DEFAULT_ALGORITHM, Budget
from usmp_dialect.tvm.c import library as c_library
from usmp_dialect.tvm.c.bundle import library_files
from usmp_dialect.tvm.c.joint_plan import Stack, Stage, plan_pipeline

SYSTEM = "models"
"""The prefix of the shared part: models.h, models_workspace, models_NAME_pools()."""


def _aligned(size: int, alignment: int) -> int:
    return -(-size // alignment) * alignment


def _workspace_alignment(interfaces: list[c_library.Interface]) -> int:
    """The shared workspace's alignment: the strictest of the pools that live in it."""
    return max(
        (pool.alignment for i in interfaces for pool, _ in _shared_pools(i)),
        default=c_library.POOL_ALIGNMENT,
    )


def models_files(
    models: Sequence[tuple[str, ModuleOp, str]],
    pipeline: bool = False,
    stacks: Mapping[str, int] | None = None,
    algorithm: str = DEFAULT_ALGORITHM,
    budget: Budget | None = None,
) -> dict[str, str]:
    """The library of `models`, each (C prefix, planned module, where it came from), run
    one after another; `pipeline`: each model's outputs are the next one's inputs, left
    where the one wrote them for the next to read, all planned as one program
    (`_plan_pipeline`); `stacks`: the models (by name) whose outputs the next reads that
    many runs at a time; `algorithm` and `budget` plan the pipeline."""
    check_model_names([(name, origin) for name, _, origin in models])
    interfaces = [_interface(module, name) for name, module, _ in models]
    held: tuple[Stack, ...] = ()
    if pipeline:
        held = _plan_pipeline(models, interfaces, stacks or {}, algorithm, budget or Budget())
        # The views moved: each model's interface is read again from its joint plan.
        interfaces = [_interface(module, name) for name, module, _ in models]
    files: dict[str, str] = {}
    for name, module, _ in models:
        own = (f"{name}.h", f"{name}.c", f"{name}_constants.c")  # not its runner's files
        files |= {file: text for file, text in library_files(module, name).items() if file in own}
    files[f"{SYSTEM}.h"] = _header(interfaces, pipeline, held)
    files[f"{SYSTEM}.c"] = _source(interfaces, held)
    return files


def _interface(module: ModuleOp, name: str) -> c_library.Interface:
    return c_library.interface(module, c_library.check_module(module), name)


def check_model_names(models: Sequence[tuple[str, str]]) -> None:
    """A `LocatedError` (at the file named second) unless the C prefixes, each (name, file),
    give distinct files and macros."""
    seen: dict[str, str] = {}
    for name, origin in models:
        if name == SYSTEM:
            raise LocatedError(
                f"the model name '{SYSTEM}' is the shared part's: name it else", origin
            )
        # The header's macros are the prefix in capitals: kws and KWS would collide.
        if name.upper() in seen:
            raise LocatedError(
                f"two models are named '{name}' ({seen[name.upper()]} too; the macros are in "
                "capitals): give each its own",
                origin,
            )
        seen[name.upper()] = origin
    # A model named as another's plus '_constants' would write that one's constants file.
    for name, origin in models:
        if name.upper().endswith("_CONSTANTS") and name.upper()[: -len("_CONSTANTS")] in seen:
            raise LocatedError(f"'{name}.c' would be the constants of another model", origin)


def _shared_pools(interface: c_library.Interface) -> list[tuple[c_library.Pool, int]]:
    """The model's workspace pools that live in the shared workspace, and their offsets."""
    placed, offset = [], 0
    for pool in interface.workspace_pools:
        if not pool.state:
            offset = _aligned(offset, pool.alignment)
            placed.append((pool, offset))
            offset += pool.size
    return placed


def _workspace_size(interfaces: list[c_library.Interface]) -> int:
    return max(
        (offset + pool.size for i in interfaces for pool, offset in _shared_pools(i)),
        default=0,
    )


def _plan_pipeline(
    models: Sequence[tuple[str, ModuleOp, str]],
    interfaces: list[c_library.Interface],
    stacks: Mapping[str, int],
    algorithm: str,
    budget: Budget,
) -> tuple[Stack, ...]:
    """Plans the models as one program whose models each read the outputs of the one before
    where it wrote them (`joint_plan.plan_pipeline`): their modules are rewritten to it;
    the stacks it keeps."""
    origins = [origin for _, _, origin in models]
    for (before, after), origin in zip(itertools.pairwise(interfaces), origins[1:], strict=True):
        _check_handover(before, after, origin, stacks.get(before.model, 1))
    stages = [
        Stage(
            i.model,
            c_library.check_module(module),
            _shared_pools(i)[0][0].name,
            tuple(t.name for t in i.inputs),
            tuple(t.name for t in i.outputs),
            origin,
            stacks.get(i.model, 1),
        )
        for (_, module, origin), i in zip(models, interfaces, strict=True)
    ]
    return plan_pipeline(stages, _workspace_alignment(interfaces), algorithm, budget).stacks


def _check_handover(
    before: c_library.Interface, after: c_library.Interface, origin: str, stack: int
) -> None:
    """A `LocatedError` at `origin` (after's file) unless `after`'s inputs can be
    `before`'s outputs (of its last `stack` runs): the same bytes, types and scales, all in
    one workspace pool."""

    def refuse(why: str) -> NoReturn:
        raise LocatedError(f"{after.model} cannot take {before.model}'s outputs: {why}", origin)

    for i in (before, after):
        if not i.in_pools or len(_shared_pools(i)) != 1:
            refuse(
                f"{i.model} must be planned with its inputs and outputs in its one "
                "workspace pool (usmp-opt --plan-pools --use-workspace-io)"
            )
    if [stack * t.nbytes for t in before.outputs] != [t.nbytes for t in after.inputs]:
        runs = f" of {stack} runs" if stack > 1 else ""
        refuse(
            f"its inputs are {[t.nbytes for t in after.inputs]} bytes, the outputs{runs} "
            f"{[stack * t.nbytes for t in before.outputs]}"
        )
    # Equal bytes of another type, or of another scale, are other numbers: no pipeline.
    if [t.dtype for t in before.outputs] != [t.dtype for t in after.inputs]:
        refuse(
            f"its inputs are {[t.dtype for t in after.inputs]}, the outputs "
            f"{[t.dtype for t in before.outputs]}"
        )
    for out, given in zip(before.outputs, after.inputs, strict=True):
        written, read = before.quantization.get(out.name), after.quantization.get(given.name)
        if written is not None and read is not None and written != read:
            refuse(
                f"input '{given.name}' has scale and zero point {read}, the output "
                f"'{out.name}' {written}"
            )


def _stacked_run(model: str) -> str:
    """The run function of a model whose outputs the next reads in a stack (in a pipeline
    its inputs and outputs are in its pools: its run takes no inputs or outputs)."""
    return (
        f"int32_t {SYSTEM}_{model}_run(struct {model}_workspace_pools* workspace_pools, "
        f"const struct {model}_constants* overrides)"
    )


def _stack_declarations(
    stacks: tuple[Stack, ...], interfaces: list[c_library.Interface]
) -> list[str]:
    following = {a.model: b.model for a, b in itertools.pairwise(interfaces)}
    lines = []
    for stack in stacks:
        m, macro = stack.model, f"{SYSTEM.upper()}_{stack.model.upper()}"
        lines += [
            f"/* {following[m]}'s inputs are {m}'s outputs of its last {stack.count} runs,",
            f" * oldest first: {stack.size} bytes kept from run to run (zeros before the",
            f" * first {stack.count} runs). Run {m} with {SYSTEM}_{m}_run, never {m}_run alone:",
            " * it moves them one run toward their start (the oldest dropped), then runs",
            f" * {m}, which writes the newest at their end. */",
            f"#define {macro}_STACK_RUNS {stack.count}",
            f"#define {macro}_STACK_SIZE {stack.size}",
            f"{_stacked_run(m)};",
        ]
    return lines


def _header(
    interfaces: list[c_library.Interface], pipeline: bool, stacks: tuple[Stack, ...]
) -> str:
    guard = f"{SYSTEM.upper()}_H"
    includes = [f'#include "{i.model}.h"' for i in interfaces]
    pools = [
        f"struct {i.model}_workspace_pools {SYSTEM}_{i.model}_pools(void);" for i in interfaces
    ]
    return "\n".join(
        [
            f"/* {', '.join(i.model for i in interfaces)}: planned models that run one after "
            "another,",
            " * never at once (usmp-translate --emit-c-models). They share one workspace; the",
            " * state a model keeps from run to run has its own array. */",
            *(
                [
                    "/* A pipeline planned as one program: each model's outputs are the next one's",
                    " * inputs, in place (run them in this order; no copy between them). */",
                ]
                if pipeline
                else []
            ),
            f"#ifndef {guard}",
            f"#define {guard}",
            *includes,
            "",
            f"#define {SYSTEM.upper()}_WORKSPACE_SIZE {_workspace_size(interfaces)}",
            "/* A model's workspace pools inside the shared memory: pass them to its run",
            " * function (another model's run overwrites its workspace, not its state). */",
            *pools,
            *_stack_declarations(stacks, interfaces),
            f"#endif /* {guard} */",
            "",
        ]
    )


def _source(interfaces: list[c_library.Interface], stacks: tuple[Stack, ...]) -> str:
    size = _workspace_size(interfaces)
    alignment = _workspace_alignment(interfaces)
    lines = [
        "/* Generated by usmp-translate --emit-c-models. */",
        *(["#include <string.h>"] if stacks else []),
        f'#include "{SYSTEM}.h"',
        "",
    ]
    if size:
        lines.append(
            f"static uint8_t {SYSTEM}_workspace[{size}] __attribute__((aligned({alignment})));"
        )
    for i in interfaces:
        lines += [
            f"static uint8_t {SYSTEM}_{i.model}_{pool.ident}[{max(pool.size, 1)}] "
            f"__attribute__((aligned({pool.alignment})));"
            for pool in i.workspace_pools
            if pool.state
        ]
    lines.append("")
    for i in interfaces:
        shared = {pool.ident: offset for pool, offset in _shared_pools(i)}
        lines += [
            f"struct {i.model}_workspace_pools {SYSTEM}_{i.model}_pools(void) {{",
            f"  struct {i.model}_workspace_pools pools;",
        ]
        if not i.workspace_pools:
            lines.append("  pools.unused = 0;")
        for pool in i.workspace_pools:
            where = (
                f"&{SYSTEM}_workspace[{shared[pool.ident]}]"
                if pool.ident in shared
                else f"{SYSTEM}_{i.model}_{pool.ident}"
            )
            lines.append(f"  pools.{pool.ident} = {where};")
        lines += ["  return pools;", "}", ""]
    for stack in stacks:
        kept = stack.size - stack.step
        lines += [
            f"{_stacked_run(stack.model)} {{",
            f"  memmove(&{SYSTEM}_workspace[{stack.offset}], "
            f"&{SYSTEM}_workspace[{stack.offset + stack.step}], {kept});",
            f"  return {stack.model}_run(workspace_pools, overrides);",
            "}",
            "",
        ]
    return "\n".join(lines)
