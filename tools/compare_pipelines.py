#!/usr/bin/env python3
"""`tools/compare_pipelines.py`: run several pass pipelines on one program and print what
each plans, side by side.

```
python tools/compare_pipelines.py examples/pass_ordering/diamond.mlir
python tools/compare_pipelines.py examples/pass_ordering/diamond.py --check
python tools/compare_pipelines.py examples/models/cnn.py:cnn -p tvm-usmp -p no-fusion --svg plans
python tools/compare_pipelines.py in.mlir -p hoisted -p 'tir-to-usmp,usmp-plan{algorithm=exact}'
```

The input is an `.mlir` file, a TVMScript module (`.py`) or a Relax model
(`PATH.py:NAME`, as `usmp-translate --import-relax` takes it). Each `-p` is a preset
(`tvm-usmp`, `hoisted`, `io-in-pool`, and for a Relax model `no-fusion`, which imports it
again with `--fusion=none`; all of them by default, planned with `--algorithm`) or a pass
pipeline as `usmp-opt -p` takes it. `--svg DIR` writes `DIR/plans.html`, the picture of
each pipeline's plan (as `-t usmp-svg` draws it) under the pipeline's name. `--check`
builds each pipeline's result that is lowered back to TIR with TVM and runs it against the
un-planned module (not for a Relax model, whose un-planned TIR TVM does not build:
`tools/check_relax_model.py` checks it against the Relax VM).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from xdsl.dialects.builtin import ModuleOp

from tests.support.pipeline_comparison import (
    PRESETS,
    PipelineRun,
    check_outputs,
    format_comparison,
    pipeline_fusion,
    run_pipeline,
)
from usmp_dialect.diagnostics import decode_input
from usmp_dialect.parsing import parse_module
from usmp_dialect.pipeline import DEFAULT_ALGORITHM
from usmp_dialect.reports.plan_html import plans_page
from usmp_dialect.tools.console import ends_as_unix_tools_do
from usmp_dialect.tools.errors import UsageParser, report_user_errors, requires_tvm, usage_error
from usmp_dialect.tools.output import staged_outputs

TOOL = "compare_pipelines"
PLANS_PAGE = "plans.html"


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = UsageParser(prog=TOOL, description=(__doc__ or "").splitlines()[0])
    parser.add_argument("input", help="an .mlir file, a TVMScript .py, or a Relax PATH.py:NAME")
    parser.add_argument(
        "-p",
        "--pipeline",
        action="append",
        help=f"a preset ({', '.join(PRESETS)}) or a pass pipeline; repeat for several "
        "(default: every preset)",
    )
    parser.add_argument(
        "--algorithm", default=DEFAULT_ALGORITHM, help="the presets' planning algorithm"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="build and run each result lowered to TIR with TVM, against the un-planned module",
    )
    parser.add_argument("--target", default="llvm", choices=("c", "llvm"))
    parser.add_argument(
        "--svg",
        metavar="DIR",
        help=f"write DIR/{PLANS_PAGE}: every pipeline's plan pictured, stacked on one page",
    )
    return parser.parse_args(argv)


def _is_model_spec(spec: str) -> bool:
    return ".py:" in spec


def _pipelines(args: argparse.Namespace) -> list[str]:
    """The `-p` pipelines, by default every preset the input can run; a preset that lowers
    a Relax model its own way is a usage error on TIR, which is lowered already."""
    if _is_model_spec(args.input):
        return args.pipeline or list(PRESETS)
    if args.pipeline is None:
        return [name for name in PRESETS if pipeline_fusion(name) == "default"]
    for pipeline in args.pipeline:
        if pipeline_fusion(pipeline) != "default":
            usage_error(
                TOOL,
                f"preset '{pipeline}' imports a Relax model again with "
                f"--fusion={pipeline_fusion(pipeline)}, but '{args.input}' is lowered "
                "already: give the model as PATH.py:NAME",
            )
    return args.pipeline


def _load(spec: str, fusion: str) -> ModuleOp:

    if _is_model_spec(spec):
        from usmp_dialect.tvm.relax.model_spec import import_relax_file
        from usmp_dialect.tvm_options import TirImport

        return import_relax_file(spec, TirImport(fusion=fusion))
    try:
        with open(spec, "rb") as file:
            text = decode_input(file.read(), spec)
    except OSError as error:
        usage_error(TOOL, f"cannot read '{spec}': {error.strerror}")
    if spec.endswith(".py"):
        from usmp_dialect.tvm.tvmscript.importer import import_tvmscript

        return import_tvmscript(text, spec)
    return parse_module(text, spec)


def _plans_page(runs: list[PipelineRun]) -> str:
    return plans_page([(run.pipeline, run.report) for run in runs], "pass orderings")


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    pipelines = _pipelines(args)
    if args.check and _is_model_spec(args.input):
        usage_error(
            TOOL,
            "--check runs the un-planned TIR, which TVM does not build for a Relax model; "
            "check a model against the Relax VM with tools/check_relax_model.py",
        )
    with report_user_errors(TOOL) as context, staged_outputs() as outputs:
        context.input_name = args.input
        with requires_tvm(TOOL, "reading a Relax model or TVMScript, and --check,"):
            modules: dict[str, ModuleOp] = {}
            runs = []
            for pipeline in pipelines:
                fusion = pipeline_fusion(pipeline)
                if fusion not in modules:
                    modules[fusion] = _load(args.input, fusion)
                try:
                    runs.append(run_pipeline(modules[fusion], pipeline, args.algorithm))
                except ValueError as error:
                    usage_error(TOOL, f"invalid pass pipeline '{pipeline}': {error}")
            verdicts = (
                check_outputs(modules["default"], runs, args.input, args.target)
                if args.check
                else None
            )
        if args.svg is not None:
            outputs.add_in_directory(args.svg, PLANS_PAGE, _plans_page(runs))
        outputs.add(None, format_comparison(runs, verdicts))
    return 1 if verdicts is not None and False in verdicts else 0


if __name__ == "__main__":
    with ends_as_unix_tools_do("compare_pipelines"):
        status = main()
    sys.exit(status)
