#!/usr/bin/env python3
"""`tools/check_relax_model.py`: plan a Relax model, build and run it with TVM, and
compare it with the Relax VM.

```
python tools/check_relax_model.py examples/models/mobilenet.py:mobilenet --use-workspace-io
python tools/check_relax_model.py examples/models/mlp.py:mlp --pools flash:kind=constant \\
    --override fc1_bias=bias.npy     # weights in a constant pool, one of them replaced
python tools/check_relax_model.py model.tflite
python tools/check_relax_model.py model.onnx --input-shape x=1x3x48x192
```

The model is `PATH.py:NAME`, or a `.tflite` or `.onnx` file read as `usmp-translate
--import-tflite/--import-onnx` reads it, lowered as `usmp-translate --import-relax` lowers
it (the same `--weights`, `--fusion`, `--temporaries` and `--constant-storage`); see
`tests.support.model_check`. The exit status is 0 when every output agrees with the Relax
VM's within `--tolerance`, 1 otherwise or on a bad model.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from usmp_dialect.tools.console import ends_as_unix_tools_do
from usmp_dialect.tools.errors import UsageParser, report_user_errors, requires_tvm, usage_error
from usmp_dialect.tvm_options import (
    CONSTANT_STORAGE_HELP,
    CONSTANT_STORAGE_MODES,
    DEFAULT_TIR_IMPORT,
    FUSION_MODES,
    MODEL_FILE_TIR_IMPORT,
    TEMPORARIES_HELP,
    TEMPORARIES_MODES,
    WEIGHT_MODES,
    TirImport,
)

TOOL = "check_relax_model"
EXECUTORS = ("tvm", "c", "qemu")
"""What runs the planned model (`check_model`'s `executor`)."""


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = UsageParser(
        prog=TOOL, description="plan a Relax model, run it with TVM and compare with the Relax VM"
    )
    parser.add_argument(
        "model", help="PATH.py:NAME, NAME() returning (mod, weights); or a .tflite or .onnx file"
    )
    parser.add_argument(
        "--input-shape",
        action="append",
        default=[],
        metavar="NAME=1x3x224x224",
        help="a model file's input shape, as usmp-translate --import-onnx/--import-tflite takes it",
    )
    parser.add_argument(
        "--use-workspace-io",
        action="store_true",
        help="place the inputs and outputs in the pool too",
    )
    parser.add_argument(
        "--pools", default="", metavar="SPEC", help="pools as usmp-opt --pools takes them"
    )
    parser.add_argument(
        "--weights",
        choices=WEIGHT_MODES,
        default=DEFAULT_TIR_IMPORT.weights,
        help="bound (default): bound into the model and folded; params: entry parameters",
    )
    parser.add_argument(
        "--fusion",
        choices=FUSION_MODES,
        default=DEFAULT_TIR_IMPORT.fusion,
        help="TVM's operator fusion: default (on) or none",
    )
    parser.add_argument(
        "--temporaries",
        choices=TEMPORARIES_MODES,
        help=TEMPORARIES_HELP,
    )
    parser.add_argument(
        "--constant-storage",
        choices=CONSTANT_STORAGE_MODES,
        default=DEFAULT_TIR_IMPORT.constant_storage,
        help=CONSTANT_STORAGE_HELP,
    )
    parser.add_argument(
        "--override",
        action="append",
        default=[],
        metavar="NAME=FILE.npy",
        help="run with this array in place of weight NAME (ours: its bytes written at its "
        "offset, converted to the type it is stored in if its values fit; the Relax VM: "
        "the weight replaced)",
    )
    parser.add_argument(
        "--target",
        default="c",
        choices=("c", "llvm"),
        help="what the planned model is built for (default c: its C source compiles in "
        "seconds where LLVM's -O3 of a 100-operator main takes minutes)",
    )
    parser.add_argument(
        "--executor",
        choices=EXECUTORS,
        default="tvm",
        help="what runs the planned model: tvm (tvm.compile for --target, default), c (the "
        "C library of usmp-translate --emit-c, built with cc and run here) or qemu (that "
        "library built with arm-none-eabi-gcc and run on QEMU's Cortex-M55)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    parser.add_argument(
        "--tolerance", type=float, default=1e-5, help="rtol and atol (default 1e-5)"
    )
    return parser.parse_args(argv)


def _loaded(args: argparse.Namespace) -> tuple[Any, dict[str, np.ndarray], str, str | None]:
    """The model, its weights, where its errors point, and the kind of model file it
    is (None: a Relax model)."""
    from usmp_dialect.tvm.model_files import loading as model_files
    from usmp_dialect.tvm.relax.model_spec import load_model, model_location
    from usmp_dialect.tvm_options import parse_input_shapes

    if not args.model.endswith(tuple(f".{kind}" for kind in model_files.KINDS)):
        if args.input_shape:
            usage_error(TOOL, "--input-shape is for a .tflite or .onnx model file")
        mod, weights = load_model(args.model)
        return mod, weights, model_location(args.model), None
    try:
        shapes = parse_input_shapes(args.input_shape)
    except ValueError as error:
        usage_error(TOOL, f"--input-shape: {error}")
    kind = model_files.model_file_kind(args.model)
    mod, weights = model_files.load_model_file(args.model, kind, shapes)
    return mod, weights, args.model, kind


def _lowering(args: argparse.Namespace) -> TirImport:
    """The lowering options, `--temporaries` defaulting as `usmp-translate`'s import of
    the model does (inline for a model file, keep for a Relax model)."""
    from usmp_dialect.tvm.model_files.loading import KINDS

    is_file = args.model.endswith(tuple(f".{kind}" for kind in KINDS))
    default = MODEL_FILE_TIR_IMPORT if is_file else DEFAULT_TIR_IMPORT
    temporaries = args.temporaries or default.temporaries
    return TirImport(args.weights, args.fusion, temporaries, args.constant_storage)


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    with report_user_errors(TOOL), requires_tvm(TOOL, "checking a Relax model"):
        from tests.support.model_check import check_model
        from usmp_dialect.tvm.model_files.loading import file_operators_named
        from usmp_dialect.tvm.tvmscript.run import read_overrides

        overrides = read_overrides(args.override)
        mod, weights, location, kind = _loaded(args)

        with file_operators_named(mod, location, kind):
            result = check_model(
                mod,
                weights,
                location,
                tir_import=_lowering(args),
                workspace_io=args.use_workspace_io,
                target=args.target,
                seed=args.seed,
                tolerance=args.tolerance,
                pools=args.pools,
                overrides=overrides,
                executor=args.executor,
            )
    held = "intermediates, operator workspaces" + (
        ", inputs and outputs" if args.use_workspace_io else ""
    )
    for pool, size in result.pools.items():
        what = (
            f"constants, {result.constant_bytes} bytes together"
            if pool == result.constant_pool
            else "the state kept from run to run"
            if pool == result.state_pool
            else held
        )
        print(f"pool {pool}: {size} bytes ({what})")
    if not result.pools:
        print(f"no pool: nothing to plan ({held})")
    print(f"Relax StaticPlanBlockMemory: {result.relax_bytes} bytes (intermediates only)")
    if result.library is not None:
        sizes = ", ".join(f"{k} {v}" for k, v in result.library.sizes._asdict().items())
        print(f"{args.executor} image: {sizes} bytes")
    for out in result.outputs:
        verdict = "agrees" if out.agrees else "DIFFERS"
        print(
            f"{out.name} {out.dtype}{list(out.shape)}: "
            f"max |ours - Relax VM| = {out.max_error:.3g}, "
            f"{verdict} within {args.tolerance:g}"
        )
    return 0 if all(out.agrees for out in result.outputs) else 1


if __name__ == "__main__":
    with ends_as_unix_tools_do("check_relax_model"):
        status = main()
    sys.exit(status)
