"""`tools/run_tvmscript.py`: build and run a TVMScript module's entry function with TVM
0.27, planned or not, and print its outputs.

```
python tools/run_tvmscript.py planned.py --target c      # or llvm; prints each output
usmp-translate --import-tvmscript examples/tir/chain.py | usmp-opt --plan-pools \\
  | usmp-translate --emit-tvmscript > planned.py && python tools/run_tvmscript.py planned.py
# a model's weights in a constant pool, loaded from its file, one of them replaced:
python tools/run_tvmscript.py planned.py --constants weights.bin --override fc1_bias=b.npy
```
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects.usmp import POOLS_ATTR
from usmp_dialect.tools.errors import UsageParser, report_user_errors, requires_tvm

TOOL = "run_tvmscript"


def main(argv: Sequence[str] | None = None) -> int:
    parser = UsageParser(prog=TOOL, description="build and run a TVMScript module's entry function")
    parser.add_argument("file", help="a TVMScript module (.py), e.g. usmp-translate's output")
    parser.add_argument("--target", default="c", choices=("c", "llvm"))
    parser.add_argument("--plan", action="store_true", help="plan its pools first")
    parser.add_argument(
        "--use-workspace-io",
        action="store_true",
        help="with --plan: place the entry's inputs and outputs in the pool too",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    parser.add_argument(
        "--constants",
        metavar="FILE.bin",
        help="the constant pool's initial bytes (usmp-translate --constants-out); without "
        "it the constants are random",
    )
    parser.add_argument(
        "--override",
        action="append",
        default=[],
        metavar="NAME=FILE.npy",
        help="write this array in place of constant NAME (its bytes at NAME's offset); a "
        "model file's int32 constant stored narrower takes its file name and type, converted "
        "when its values fit",
    )
    args = parser.parse_args(argv)
    with report_user_errors(TOOL) as context, requires_tvm(TOOL, "running TVMScript"):
        from usmp_dialect.tvm.tvmscript.planned_module import plan_module
        from usmp_dialect.tvm.tvmscript.run import (
            entry_constants,
            entry_name,
            load_tvmscript,
            narrowed_constants,
            random_inputs,
            read_constant_pool,
            read_overrides,
            run_module,
            shared_constants,
            stored_overrides,
        )

        overrides = read_overrides(args.override)
        context.input_name = args.file
        mod = load_tvmscript(args.file)
        _check_public(mod, entry_name(mod))
        if args.plan:
            mod = plan_module(mod, workspace_io=args.use_workspace_io)
        overrides = stored_overrides(
            overrides, entry_constants(mod), shared_constants(mod), narrowed_constants(mod)
        )
        pool_bytes = {} if args.constants is None else read_constant_pool(mod, args.constants)
        inputs = random_inputs(mod, args.seed, constants=not pool_bytes)
        outputs = run_module(mod, {**inputs, **overrides}, args.target, pool_bytes=pool_bytes)
    func = mod[entry_name(mod)]
    if func.attrs is not None and POOLS_ATTR in func.attrs:
        for name, size in func.attrs[POOLS_ATTR].items():
            print(f"pool {name}: {int(size)} bytes")
    np.set_printoptions(precision=4, threshold=16, edgeitems=4)
    for name, array in outputs.items():
        print(f"{name} {array.dtype}{list(array.shape)}: {array.ravel()}")
    return 0


def _check_public(mod: Any, entry: str) -> None:
    """TVM builds and calls only a function with a `global_symbol`; on a private entry its
    build stops inside a pass ("This pass must be called after MakePackedAPI")."""
    attrs = mod[entry].attrs
    if attrs is None or "global_symbol" not in attrs:
        raise UsmpError(
            f"the entry function {entry} is private (no global_symbol), and TVM runs only "
            "a public one: declare it @T.prim_func without private=True (in .mlir: "
            f'attributes {{global_symbol = "{entry}"}})'
        )


if __name__ == "__main__":
    sys.exit(main())
