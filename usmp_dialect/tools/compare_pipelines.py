"""`tools/compare_pipelines.py`: run several pass pipelines on one program and print what
each plans, side by side.

```
python tools/compare_pipelines.py examples/pass_ordering/diamond.mlir
python tools/compare_pipelines.py examples/pass_ordering/diamond.py --check
python tools/compare_pipelines.py examples/models/cnn.py:cnn -p tvm-usmp -p hoisted
python tools/compare_pipelines.py in.mlir -p hoisted -p 'tir-to-usmp,usmp-plan{algorithm=exact}'
```

The input is an `.mlir` file, a TVMScript module (`.py`) or a Relax model
(`PATH.py:NAME`, as `usmp-translate --import-relax` takes it). Each `-p` is a preset
(`tvm-usmp`, `hoisted`, `io-in-pool`; all three by default, planned with `--algorithm`)
or a pass pipeline as `usmp-opt -p` takes it. `--check` builds each pipeline's result
that is lowered back to TIR with TVM and runs it against the un-planned module (not for a
Relax model, whose un-planned TIR TVM does not build: `tools/check_relax_model.py` checks
it against the Relax VM).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from xdsl.dialects.builtin import ModuleOp

from usmp_dialect.pipeline import DEFAULT_ALGORITHM
from usmp_dialect.pipeline_comparison import (
    PRESETS,
    check_outputs,
    format_comparison,
    run_pipeline,
)
from usmp_dialect.tools.errors import UsageParser, report_user_errors, requires_tvm, usage_error

TOOL = "compare_pipelines"


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
    return parser.parse_args(argv)


def _is_model_spec(spec: str) -> bool:
    return ".py:" in spec


def _load(spec: str) -> ModuleOp:
    from usmp_dialect.diagnostics import decode_input
    from usmp_dialect.parsing import parse_module

    if _is_model_spec(spec):
        from usmp_dialect.frontends.model_file import import_relax_file

        return import_relax_file(spec)
    try:
        with open(spec, "rb") as file:
            text = decode_input(file.read(), spec)
    except OSError as error:
        usage_error(TOOL, f"cannot read '{spec}': {error.strerror}")
    if spec.endswith(".py"):
        from usmp_dialect.frontends.tvmscript import import_tvmscript

        return import_tvmscript(text, spec)
    return parse_module(text, spec)


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    pipelines = args.pipeline or list(PRESETS)
    if args.check and _is_model_spec(args.input):
        usage_error(
            TOOL,
            "--check runs the un-planned TIR, which TVM does not build for a Relax model; "
            "check a model against the Relax VM with tools/check_relax_model.py",
        )
    with report_user_errors(TOOL) as context:
        context.input_name = args.input
        with requires_tvm(TOOL, "reading a Relax model or TVMScript, and --check,"):
            module = _load(args.input)
            runs = []
            for pipeline in pipelines:
                try:
                    runs.append(run_pipeline(module, pipeline, args.algorithm))
                except ValueError as error:
                    usage_error(TOOL, f"invalid pass pipeline '{pipeline}': {error}")
            verdicts = check_outputs(module, runs, args.input, args.target) if args.check else None
    print(format_comparison(runs, verdicts), end="")
    return 1 if verdicts is not None and False in verdicts else 0


if __name__ == "__main__":
    sys.exit(main())
