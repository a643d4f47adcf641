"""`usmp-translate`: between usmp IR and the formats planning problems come in.

    usmp-translate --import-csv A.csv           benchmark instance -> usmp IR
    usmp-translate --export-csv planned.mlir    planned usmp IR -> CSV with an offset column
    usmp-translate --import-tvmscript model.py  TVMScript -> tir dialect
        [--params P.npz]                        the entry's T.lookup_param("p0") as constants
    usmp-translate --emit-tvmscript in.mlir     tir dialect -> TVMScript
        [--constants-out FILE.bin]              and the constant pool's initial bytes
    usmp-translate --emit-c DIR planned.mlir    planned tir -> C library, runner, Makefile
        [--model-name NAME]                     (NAME.h: struct NAME_inputs, NAME_run, ...)
        [--target any|cortex-m55|portable|tvm]  (the int8 kernels: docs/c-library.md)
    usmp-translate --import-relax m.py:NAME     Relax model NAME() -> (mod, weights) -> tir
        [--weights=bound|params] [--fusion=default|none]   how TVM lowers it first
        [--temporaries=keep|inline]             operators' temporaries kept or inlined
        [--constant-storage=compact|file]       constants narrowed and shared, or as stored
    usmp-translate --import-tflite m.tflite [--input-shape NAME=1x1760 ...]
                                                TFLite model file -> tir (as --import-relax,
                                                but --temporaries=inline by default)
    usmp-translate --import-onnx m.onnx [--input-shape NAME=1x3x224x224 ...]
                                                ONNX model file -> tir (as --import-relax)
    usmp-translate --emit-c-models DIR --model A=a.mlir --model B=b.mlir
                                                planned models run one after another -> one
                                                C library, one shared workspace
        [--pipeline [--stack A=N]]              A's outputs B's inputs (of A's last N runs),
        [--algorithm NAME] [--time-limit S]     planned as one program
    usmp-translate --emit-tflite-plan m.tflite -o planned.tflite
        [--algorithm NAME] [--time-limit S]     the file's tensors planned as TFLM runs
        [--verify]                              them, as its OfflineMemoryAllocation
                                                metadata; --verify: checked with TFLM

--import-tvmscript and --import-relax run the Python code of their input (TVMScript and
Relax models are Python programs); model files, .mlir and .csv are only read.

As `mlir-translate` does, the mode is a flag and the input a positional file (default, or
`-`: standard input); the output goes to standard output or `-o FILE`, written only once the
whole translation succeeded (as `--constants-out FILE.bin`).
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING

from usmp_dialect.diagnostics import MODELS_EXTRA, LocatedError, decode_input
from usmp_dialect.formats.constant_pool import constant_pool_bytes
from usmp_dialect.formats.csv_export import module_to_csv
from usmp_dialect.formats.csv_to_usmp import read_csv_module
from usmp_dialect.formats.resources import read_all
from usmp_dialect.parsing import module_pieces, parse_module, print_module
from usmp_dialect.planning.budget import DEFAULT_ALGORITHM, DEFAULT_TIME_LIMIT, Budget
from usmp_dialect.tools.errors import (
    STDIN_NAME,
    UsageParser,
    check_not_empty,
    report_user_errors,
    requires_tvm,
    usage_error,
)
from usmp_dialect.tools.help_text import VersionAction
from usmp_dialect.tools.output import StagedOutputs, staged_outputs
from usmp_dialect.tools.progress import terminal_progress
from usmp_dialect.tvm_options import (
    CONSTANT_STORAGE_HELP,
    CONSTANT_STORAGE_MODES,
    DEFAULT_TARGET,
    DEFAULT_TIR_IMPORT,
    FUSION_MODES,
    MODEL_FILE_TIR_IMPORT,
    MODEL_NAME_LIMIT,
    RUNNER,
    STARTUP,
    TARGETS,
    TEMPORARIES_HELP,
    TEMPORARIES_MODES,
    WEIGHT_MODES,
    Stages,
    TirImport,
    parse_input_shapes,
    unshown,
)

if TYPE_CHECKING:
    from usmp_dialect.tvm.tflm.check import TflmCheck
    from usmp_dialect.tvm.tflm.plan import PlannedTflite

TOOL = "usmp-translate"


def _read_input(path: str | None, mlir: bool = False) -> bytearray:
    """The bytes of file `path`, or of standard input when `path` is None (a buffer a
    file's blobs are decoded into, `usmp_dialect.formats.resources`); `mlir` input with
    nothing but comments is as empty as one of white space."""
    if path is None:
        data, name = read_all(sys.stdin.buffer), STDIN_NAME
    else:
        try:
            with open(path, "rb") as file:
                data, name = read_all(file), path
        except OSError as error:
            usage_error(TOOL, f"cannot read '{path}': {error.strerror}")
    check_not_empty(data, name, mlir)
    return data


def import_csv(text: str, name: str) -> str:

    return print_module(read_csv_module(text, name))


def export_csv(text: bytearray, name: str) -> str:

    return module_to_csv(parse_module(text, name))


def import_tvmscript(
    text: str, name: str, params: str | None = None, elide_constants: bool = False
) -> Iterator[str | bytes]:
    """The tir dialect; with `params` (an .npz), the entry's `T.lookup_param` calls bound
    to its arrays as constants, else kept as calls."""
    from usmp_dialect.tvm.tvmscript.importer import import_tvmscript as tvmscript_to_tir
    from usmp_dialect.tvm.tvmscript.lookup_params import import_tvmscript_with_params

    if params is None:
        return module_pieces(tvmscript_to_tir(text, name))
    return module_pieces(import_tvmscript_with_params(text, name, params), elide_constants)


def import_relax(
    text: str,
    name: str,
    tir_import: TirImport = DEFAULT_TIR_IMPORT,
    elide_constants: bool = False,
    stage: Stages = unshown,
) -> Iterator[str | bytes]:
    from usmp_dialect.tvm.relax.model_spec import import_relax_file

    return module_pieces(import_relax_file(name, tir_import, stage), elide_constants)


def _check_model_file_packages(name: str, kind: str) -> None:
    """A package reading the file needs, missing, as one diagnostic naming the extra: TVM's
    ONNX frontend, which the importer loads for either kind, needs onnx as it is imported,
    before the importer itself could say so."""
    for package in ("onnx", "tflite") if kind == "tflite" else ("onnx",):
        if importlib.util.find_spec(package) is None:
            raise LocatedError(
                f"reading this model file needs the '{package}' package: {MODELS_EXTRA}", name
            )


def import_model_file(
    text: str,
    name: str,
    kind: str,
    tir_import: TirImport = MODEL_FILE_TIR_IMPORT,
    input_shapes: Mapping[str, tuple[int, ...]] | None = None,
    elide_constants: bool = False,
    stage: Stages = unshown,
) -> Iterator[str | bytes]:
    _check_model_file_packages(name, kind)
    from usmp_dialect.tvm.model_files.loading import import_model_file as model_file_to_tir

    module = model_file_to_tir(name, kind, input_shapes, tir_import, stage)
    return module_pieces(module, elide_constants)


def emit_tvmscript(
    text: bytearray,
    name: str,
    outputs: StagedOutputs | None = None,
    constants_out: str | None = None,
) -> str:
    """TVMScript; with `constants_out`, the constant pool's bytes staged in `outputs` for
    that file too (written with the script, once the command has succeeded)."""
    from usmp_dialect.tvm.tvmscript.emitter import emit_tvmscript as tir_to_tvmscript

    module = parse_module(text, name)
    del text  # the file's bytes: its blobs are the module's now
    script = tir_to_tvmscript(module)
    if constants_out is not None:
        assert outputs is not None, "the constants are staged with the command's outputs"
        outputs.add(constants_out, constant_pool_bytes(module))
    return script


TRANSLATIONS: dict[str, tuple[Callable[..., str | Iterable[str | bytes]], str]] = {
    "import-csv": (import_csv, "benchmark CSV (id,lower,upper,size) to usmp IR"),
    "export-csv": (export_csv, "planned usmp IR to CSV with an offset column"),
    "import-tvmscript": (
        import_tvmscript,
        "TVMScript (TVM 0.27 TIR, .py) to the tir dialect; this RUNS the file's Python code, "
        "as python would: import only files you trust",
    ),
    "emit-tvmscript": (emit_tvmscript, "tir dialect to TVMScript"),
    "import-relax": (
        import_relax,
        "Relax model PATH.py:NAME (NAME() -> (mod, weights)) to the tir dialect; this RUNS "
        "PATH.py and NAME, as python would: import only files you trust",
    ),
    "import-tflite": (
        partial(import_model_file, kind="tflite"),
        "TensorFlow Lite model file to the tir dialect (read as data: runs nothing)",
    ),
    "import-onnx": (
        partial(import_model_file, kind="onnx"),
        "ONNX model file to the tir dialect (read as data: runs nothing; external data only "
        "from the model's folder)",
    ),
}
# Modes that lower a model as --import-relax does, and take its options.
MODEL_MODES = ("import-relax", "import-tflite", "import-onnx")
# Modes whose positional argument names the input (PATH.py:NAME, a model file) rather than
# a text file to read, and what it names.
PARSED_INPUTS = ("export-csv", "emit-tvmscript")
"""Modes that parse .mlir: from its bytes, a file's blobs read without a text copy."""
NAMED_INPUTS = {
    "import-relax": "PATH.py:NAME",
    "import-tflite": "a .tflite file",
    "import-onnx": "an .onnx file",
}


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = UsageParser(prog=TOOL, description=(__doc__ or "").splitlines()[0])
    modes = parser.add_mutually_exclusive_group(required=True)
    for flag, (_, help_text) in TRANSLATIONS.items():
        modes.add_argument(f"--{flag}", action="store_true", help=help_text)
    modes.add_argument(
        "--emit-c",
        metavar="DIR",
        help="planned tir dialect to a C library in DIR (header, operators, constant pool, "
        "a runner and a Makefile for the host and for QEMU's Cortex-M55)",
    )
    modes.add_argument(
        "--emit-c-models",
        metavar="DIR",
        help="several planned tir modules (--model NAME=FILE each) to one C library in DIR: "
        "the models run one after another and share one workspace",
    )
    modes.add_argument(
        "--emit-tflite-plan",
        action="store_true",
        help="a .tflite file's tensors planned with TensorFlow Lite Micro's lifetimes, written "
        "into a copy of the file as the OfflineMemoryAllocation metadata TFLM places them by",
    )
    parser.add_argument("input_file", nargs="?", help="input file (default, or -: stdin)")
    parser.add_argument(
        "more_inputs",
        nargs="*",
        metavar="MORE.tflite",
        help="--emit-tflite-plan: more .tflite files, all planned for one TFLM arena their "
        "interpreters share (run one after another); -o names their directory",
    )
    parser.add_argument(
        "-o", "--output-file", help="output file, written once all succeeded (default: stdout)"
    )
    parser.add_argument(
        "-v",
        "--version",
        action=VersionAction,
        tool=TOOL,
        help="print the versions of usmp-dialect, xDSL and Apache TVM",
    )
    tvmscript = parser.add_argument_group("--import-tvmscript options")
    tvmscript.add_argument(
        "--params",
        metavar="P.npz",
        help="numpy .npz holding one array per param the entry reads with "
        'T.lookup_param("NAME"): each becomes constant NAME of the entry, as --import-relax '
        "makes bound weights (without it the lookups stay calls)",
    )
    relax = parser.add_argument_group("--import-relax, --import-tflite, --import-onnx options")
    relax.add_argument(
        "--weights",
        choices=WEIGHT_MODES,
        help="bound (default): bound into the model, expressions of weights alone folded at "
        "compile time; params: entry parameters, loaded at run time",
    )
    relax.add_argument(
        "--fusion",
        choices=FUSION_MODES,
        help="TVM's operator fusion (FuseOps, FuseTIR): default (on) or none",
    )
    relax.add_argument(
        "--temporaries",
        choices=TEMPORARIES_MODES,
        help=TEMPORARIES_HELP,
    )
    relax.add_argument(
        "--constant-storage",
        choices=CONSTANT_STORAGE_MODES,
        help=CONSTANT_STORAGE_HELP,
    )
    relax.add_argument(
        "--input-shape",
        action="append",
        default=[],
        metavar="NAME=1x3x224x224",
        help="--import-onnx, --import-tflite: the static shape of input NAME (one flag per "
        "input; a .tflite file's inputs default to the file's shapes)",
    )
    parser.add_argument(
        "--elide-constants",
        action="store_true",
        help="the imports print the module without its constants' bytes (the "
        "dialect_resources section), for reading: it does not parse again",
    )
    emit = parser.add_argument_group("--emit-tvmscript options")
    emit.add_argument(
        "--constants-out",
        metavar="FILE.bin",
        help="write the constant pool's initial bytes (raw, little-endian, the pool's size) "
        "to FILE.bin",
    )
    library = parser.add_argument_group("--emit-c options")
    library.add_argument(
        "--model-name",
        metavar="NAME",
        help="the C prefix of the interface: NAME.h, struct NAME_inputs, NAME_run (default: model)",
    )
    library.add_argument(
        "--target",
        metavar="NAME",
        help="the int8 kernels' target: "
        + ", ".join(f"{t} ({what})" for t, what in TARGETS.items())
        + f" (default: {DEFAULT_TARGET})",
    )
    models = parser.add_argument_group("--emit-c-models options")
    models.add_argument(
        "--model",
        action="append",
        default=[],
        metavar="NAME=FILE.mlir",
        help="a planned model and its C prefix (one flag per model, in the order they run)",
    )
    models.add_argument(
        "--pipeline",
        action="store_true",
        help="each model's outputs are the next one's inputs: left in the workspace where one "
        "model writes them for the next to read, no copy (plan each with --use-workspace-io); "
        "the models planned again as one program (--algorithm, --time-limit)",
    )
    models.add_argument(
        "--stack",
        action="append",
        default=[],
        metavar="NAME=RUNS",
        help="--pipeline: the next model's inputs are model NAME's outputs of its last RUNS "
        "runs, oldest first (micro_speech's classifier reads 49 runs of its front end), kept "
        "in the workspace from run to run; run NAME with models_NAME_run",
    )
    tflm = parser.add_argument_group("--emit-tflite-plan and --emit-c-models --pipeline options")
    tflm.add_argument(
        "--algorithm",
        help=f"planning algorithm (default: the portfolio '{DEFAULT_ALGORITHM}')",
    )
    tflm.add_argument(
        "--time-limit",
        type=float,
        help="seconds the algorithm may spend at most, a safety cap "
        f"(default: {DEFAULT_TIME_LIMIT:g})",
    )
    tflm.add_argument(
        "--verify",
        action="store_true",
        help="run the input and the output in TFLM's interpreter (the tflite-micro package): "
        "outputs must be identical; prints TFLM's head before and after",
    )
    return parser.parse_args(argv)


def emit_c(
    text: bytearray,
    name: str,
    directory: str,
    model: str,
    outputs: StagedOutputs,
    target: str = DEFAULT_TARGET,
) -> None:
    """The library's files staged for `directory`: written with the command's outputs, so
    only those files of the directory are replaced, and only once all are made."""
    from usmp_dialect.tvm.c.bundle import library_files

    for file_name, content in library_files(parse_module(text, name), model, target).items():
        outputs.add_in_directory(directory, file_name, content)


def _tir_import(args: argparse.Namespace, mode: str) -> TirImport:
    """The lowering options given; any of them with another mode is a usage error."""
    keys = ("weights", "fusion", "temporaries", "constant_storage")
    given = {key: value for key in keys if (value := getattr(args, key))}
    for key in given:
        if mode not in MODEL_MODES:
            flag = key.replace("_", "-")
            usage_error(TOOL, f"--{flag} is an option of --import-relax, not of --{mode}")
    default = DEFAULT_TIR_IMPORT if mode == "import-relax" else MODEL_FILE_TIR_IMPORT
    return dataclasses.replace(default, **given)


def _input_shapes(args: argparse.Namespace, mode: str) -> dict[str, tuple[int, ...]]:
    """`--input-shape NAME=DIMS`, each input once, given with a model file only."""

    if args.input_shape and mode not in ("import-onnx", "import-tflite"):
        owners = "--import-onnx and --import-tflite"
        usage_error(TOOL, f"--input-shape is an option of {owners}, not of --{mode}")
    try:
        return parse_input_shapes(args.input_shape)
    except ValueError as error:
        usage_error(TOOL, f"--input-shape: {error}")


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    if args.emit_tflite_plan:
        return _emit_tflite_plan(args)
    if args.more_inputs:
        usage_error(TOOL, "only --emit-tflite-plan reads several input files")
    if args.emit_c_models is not None:
        return _emit_c_models(args)
    if args.model or args.pipeline or args.stack:
        usage_error(TOOL, "--model, --pipeline and --stack are options of --emit-c-models")
    for flag in ("algorithm", "time_limit", "verify"):
        if getattr(args, flag) not in (None, False):
            option = flag.replace("_", "-")
            usage_error(TOOL, f"--{option} is an option of --emit-tflite-plan")
    if args.emit_c is not None:
        return _emit_c(args)
    if args.model_name is not None or args.target is not None:
        option = "--model-name" if args.model_name is not None else "--target"
        usage_error(TOOL, f"{option} is an option of --emit-c")
    mode = next(flag for flag in TRANSLATIONS if getattr(args, flag.replace("-", "_")))
    tir_import = _tir_import(args, mode)
    input_shapes = _input_shapes(args, mode)
    if args.input_file == "-":
        if mode in NAMED_INPUTS:
            usage_error(TOOL, f"--{mode} reads {NAMED_INPUTS[mode]}, not standard input")
        args.input_file = None
    name = args.input_file or STDIN_NAME
    with (
        report_user_errors(TOOL) as context,
        staged_outputs() as outputs,
        terminal_progress(TOOL) as line,
    ):
        context.input_name = name
        translate, _ = TRANSLATIONS[mode]
        stage = unshown if line is None else line.stage
        if mode == "import-relax":
            translate = partial(import_relax, tir_import=tir_import, stage=stage)
        elif mode in MODEL_MODES:
            translate = partial(
                import_model_file,
                kind=mode.removeprefix("import-"),
                tir_import=tir_import,
                input_shapes=input_shapes,
                stage=stage,
            )
        if args.params is not None:
            if mode != "import-tvmscript":
                usage_error(TOOL, f"--params is an option of --import-tvmscript, not of --{mode}")
            translate = partial(import_tvmscript, params=args.params)
        if args.constants_out is not None:
            if mode != "emit-tvmscript":
                usage_error(
                    TOOL, f"--constants-out is an option of --emit-tvmscript, not of --{mode}"
                )
            translate = partial(emit_tvmscript, outputs=outputs, constants_out=args.constants_out)
        if args.elide_constants:
            if mode not in (*MODEL_MODES, "import-tvmscript"):
                usage_error(TOOL, f"--elide-constants is an option of the imports, not of --{mode}")
            translate = partial(translate, elide_constants=True)
        text: str | bytearray = ""
        if mode in NAMED_INPUTS:
            if args.input_file is None:
                usage_error(TOOL, f"--{mode} needs {NAMED_INPUTS[mode]}")
        elif mode in PARSED_INPUTS:
            text = _read_input(args.input_file, mlir=True)
        else:
            text = decode_input(_read_input(args.input_file), name)
        # Handed over, not kept: the input's bytes go once parsed (a model's weights).
        given = [text]
        del text
        with requires_tvm(TOOL, f"--{mode}"):
            result = translate(given.pop(), name)
        outputs.add(args.output_file, result)
    return 0


def _emit_c(args: argparse.Namespace) -> int:
    for flag, value in (("-o", args.output_file), ("--constants-out", args.constants_out)):
        if value is not None:
            usage_error(TOOL, f"{flag} is not an option of --emit-c (it writes DIR)")
    model = "model" if args.model_name is None else args.model_name
    target = DEFAULT_TARGET if args.target is None else args.target
    if target not in TARGETS:
        usage_error(
            TOOL, f"unknown --target '{target}': the known targets are {', '.join(TARGETS)}"
        )
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", model):
        usage_error(TOOL, f"--model-name must be a C identifier, got '{model}'")
    _check_prefix_length("--model-name", model)
    if f"{model}.c" in (RUNNER, STARTUP):
        usage_error(TOOL, f"--model-name {model} would name the library {model}.c, the runner's")
    path = None if args.input_file == "-" else args.input_file
    name = path or STDIN_NAME
    with report_user_errors(TOOL) as context, staged_outputs() as outputs:
        context.input_name = name
        text = _read_input(path, mlir=True)
        with requires_tvm(TOOL, "--emit-c"):
            emit_c(text, name, args.emit_c, model, outputs, target)
    return 0


def _check_prefix_length(flag: str, model: str) -> None:
    """C guarantees 63 significant characters; the prefix starts every macro."""
    if len(model) > MODEL_NAME_LIMIT:
        usage_error(
            TOOL,
            f"{flag} '{model}' is {len(model)} characters, more than {MODEL_NAME_LIMIT}: "
            "its header's macros would pass the 63 characters C keeps apart",
        )


def _planning_options(args: argparse.Namespace) -> tuple[str, Budget]:
    """`--algorithm` (a known one) and `--time-limit` (a positive number), or a usage error."""
    from usmp_dialect.planning.problem import PlanningError
    from usmp_dialect.planning.registry import get_algorithm

    if args.time_limit is not None and not args.time_limit > 0:
        usage_error(TOOL, f"--time-limit must be a positive number, got {args.time_limit:g}")
    algorithm = args.algorithm or DEFAULT_ALGORITHM
    try:
        get_algorithm(algorithm)
    except PlanningError as error:
        usage_error(TOOL, str(error))
    return algorithm, Budget() if args.time_limit is None else Budget(time_limit=args.time_limit)


def _emit_tflite_plan(args: argparse.Namespace) -> int:
    path = args.input_file
    if path in (None, "-"):
        usage_error(TOOL, "--emit-tflite-plan needs a .tflite file")
    if args.output_file is None:
        target = "DIR" if args.more_inputs else "OUT.tflite"
        usage_error(TOOL, f"--emit-tflite-plan needs -o {target}")
    if "-" in args.more_inputs:
        usage_error(TOOL, "--emit-tflite-plan reads .tflite files, not stdin")
    algorithm, budget = _planning_options(args)
    paths = [path, *args.more_inputs]
    with report_user_errors(TOOL) as context, staged_outputs() as outputs:
        from usmp_dialect.tvm.tflm.plan import planned_tflite

        targets = _tflite_plan_targets(paths, args.output_file)
        planned, checks = [], []
        for source, target in zip(paths, targets, strict=True):
            context.input_name = source
            if _same_file(source, target):
                raise LocatedError("the output would replace the input: name another file", source)
            file = planned_tflite(source, algorithm, budget)
            if args.verify:
                file, check = file.verified(source, budget)
                checks.append(check)
            planned.append(file)
            if args.more_inputs:
                outputs.add_in_directory(args.output_file, os.path.basename(target), file.data)
            else:
                outputs.add(target, file.data)
    # What was planned, once it is written: a failed write is the one diagnostic.
    print(_tflite_plan_summary(paths, planned, checks), end="", file=sys.stderr)
    return 0


def _tflite_plan_targets(paths: list[str], output: str) -> list[str]:
    """Where each planned file goes: `output` for one, `output/NAME` for several (a
    `LocatedError` where two inputs share a name)."""
    if len(paths) == 1:
        return [output]
    names: dict[str, str] = {}
    for path in paths:
        name = os.path.basename(path)
        if name in names:
            raise LocatedError(
                f"'{names[name]}' has the same name: both would be written to "
                f"{os.path.join(output, name)}",
                path,
            )
        names[name] = path
    return [os.path.join(output, os.path.basename(path)) for path in paths]


def _tflite_plan_summary(
    paths: list[str], planned: list[PlannedTflite], checks: list[TflmCheck]
) -> str:
    if len(paths) == 1:
        return planned[0].summary() + "".join(check.report() for check in checks)
    from usmp_dialect.tvm.tflm.arena import shared_arena

    lines = []
    for k, (path, file) in enumerate(zip(paths, planned, strict=True)):
        lines.append(f"{os.path.basename(path)}: {file.summary()}")
        lines += [checks[k].report()] if checks else []
    planned_head = max(file.plan.size for file in planned)
    if not checks:
        lines.append(
            f"shared TFLM head of the {len(paths)} models run one after another: the largest "
            f"plan, {planned_head} B, and what TFLM's kernels' scratch adds above it\n"
        )
        return "".join(lines)
    head = max(check.head_after for check in checks)
    before = shared_arena([(check.head_before, check.total_before) for check in checks])
    after = shared_arena([(check.head_after, check.total_after) for check in checks])
    lines.append(
        f"shared TFLM head of the {len(paths)} models run one after another: {head} B "
        f"(largest plan {planned_head} B)\n"
        f"shared TFLM arena, the largest head and every model's tail: {before} B before, "
        f"{after} B after\n"
    )
    return "".join(lines)


def _emit_c_models(args: argparse.Namespace) -> int:
    if args.input_file is not None or args.output_file is not None:
        usage_error(TOOL, "--emit-c-models reads --model NAME=FILE and writes DIR, nothing else")
    if len(args.model) < 2:
        usage_error(TOOL, "--emit-c-models needs two or more --model NAME=FILE.mlir")
    if args.verify:
        usage_error(TOOL, "--verify is an option of --emit-tflite-plan")
    if not args.pipeline:
        for flag in ("stack", "algorithm", "time_limit"):
            if getattr(args, flag) not in (None, []):
                option = flag.replace("_", "-")
                usage_error(TOOL, f"--{option} is an option of --pipeline: nothing else is planned")
    algorithm, budget = _planning_options(args)
    given = []
    for flag in args.model:
        name, _, path = flag.partition("=")
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name) or not path:
            usage_error(TOOL, f"--model must be NAME=FILE with NAME a C identifier, got '{flag}'")
        _check_prefix_length("--model", name)
        given.append((name, path))
    stacks = _stacks(args.stack, [name for name, _ in given])
    with (
        report_user_errors(TOOL) as context,
        staged_outputs() as outputs,
        requires_tvm(TOOL, "--emit-c-models"),
    ):
        from usmp_dialect.tvm.c.models import check_model_names, models_files

        check_model_names(given)
        models = []
        for name, path in given:
            context.input_name = path
            models.append((name, parse_module(_read_input(path, mlir=True), path), path))
        context.input_name = None
        planned = models_files(models, args.pipeline, stacks, algorithm, budget)
        for file, text in planned.items():
            outputs.add_in_directory(args.emit_c_models, file, text)
    return 0


def _stacks(flags: list[str], names: list[str]) -> dict[str, int]:
    """`--stack NAME=RUNS` each: a model but the last, RUNS a whole number of at least 2."""
    stacks = {}
    for flag in flags:
        name, _, runs = flag.partition("=")
        if name not in names[:-1] or not re.fullmatch(r"[0-9]+", runs) or int(runs) < 2:
            usage_error(
                TOOL,
                f"--stack must be NAME=RUNS, NAME a --model before the last, RUNS 2 or more, "
                f"got '{flag}'",
            )
        if name in stacks:
            usage_error(TOOL, f"--stack '{name}' is given twice")
        stacks[name] = int(runs)
    return stacks


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


if __name__ == "__main__":
    sys.exit(main())
