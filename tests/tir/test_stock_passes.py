"""Every stock xDSL pass that applies to TIR leaves what the program computes unchanged:
each example, imported, run through the pass, printed, parsed again, emitted and built
with TVM, gives the outputs the original TVMScript module gives.

The passes are those of `xdsl-opt` that work on any dialect: the rest lower or rewrite
dialects TIR does not use (riscv, stencil, linalg, ...). `licm` moves code out of
`scf.for` loops only and `control-flow-hoist` out of pure `scf.if`s: on TIR they run and
change little, which is also a result.

A load merged across a store (`cse` did that while `tir.load` was pure) does not show
here: the TVMScript emitter rebuilds each load where its value is used, which re-reads the
buffer. tests/filecheck/dialects/tir/effects.mlir pins that case on the IR."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

from xdsl.passes import PassPipeline  # noqa: E402
from xdsl.universe import Universe  # noqa: E402

from usmp_dialect.parsing import parse_module, print_module, usmp_context  # noqa: E402
from usmp_dialect.tvm.tvmscript.emitter import emit_module  # noqa: E402
from usmp_dialect.tvm.tvmscript.importer import import_module, parse_tvmscript  # noqa: E402
from usmp_dialect.tvm.tvmscript.run import random_inputs, run_module  # noqa: E402

ROOT = Path(__file__).parents[2]
STOCK_PASSES = ("cse", "dce", "canonicalize", "licm", "control-flow-hoist", "constant-fold-interp")
RUNNABLE = [
    ROOT / "examples" / "tir" / f"{name}.py"
    for name in ("chain", "branch_concat", "same_op_twice", "loops")
]


def _original(path: Path):
    # TVM 0.27 builds no parallel loop inside a private operator: `loops` runs serially.
    return parse_tvmscript(path.read_text().replace("T.parallel(", "T.serial("), str(path))


@pytest.mark.parametrize("path", RUNNABLE, ids=lambda p: p.stem)
@pytest.mark.parametrize("stock_pass", STOCK_PASSES)
def test_stock_pass_keeps_the_outputs(path: Path, stock_pass: str) -> None:
    original = _original(path)
    module = import_module(original, str(path))
    passes = Universe.get_multiverse().all_passes
    PassPipeline.parse_spec(passes, stock_pass).apply(usmp_context(), module)
    module.verify()
    rewritten = emit_module(parse_module(print_module(module), f"{path.stem}.mlir"))
    inputs = random_inputs(original)
    expected = run_module(original, inputs, target="llvm")
    outputs = run_module(rewritten, inputs, target="llvm")
    assert outputs.keys() == expected.keys()
    for buffer, values in expected.items():
        np.testing.assert_array_equal(outputs[buffer], values, err_msg=buffer)
