"""The Relax VM with TVM's default pipeline against the same pipeline with our planner in
place of StaticPlanBlockMemory (`usmp_dialect.tvm.relax_vm.plan_memory.pipeline`), on every model of
examples/models (their small defaults) and the model files of the test extras
(tests/wheel_models.py):

    python tools/bench_relax_vm.py [--only NAMES] [--write BENCHMARKS.md]

Each model, weights bound, is compiled for llvm with each pipeline and run once on the
same random inputs: the bytes the VM's storage allocations hand out in the run (counted at
`vm.builtin.alloc_storage`), whether the outputs are bitwise equal, and each compile's CPU
seconds (after warm-up builds of two models with each, so that neither pays Python's
imports or numba's first compile of the planner's kernels). With
`--write` the "Relax VM" section of that file is replaced, only if every row was measured.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tools"))

from benchmark_sections import add_write_option, markdown_section, publish  # noqa: E402

from tests.support.relax_vm_measure import (  # noqa: E402
    compare_pipelines,
    random_inputs,
    with_weights_bound,
)
from usmp_dialect.tvm.model_files.loading import load_model_file, model_file_kind  # noqa: E402
from usmp_dialect.tvm.relax.model_spec import load_model  # noqa: E402

# tests/wheel_models.py, which lists the model files of the test extras.
wheel_models = importlib.import_module("wheel_models")
MODELS = ROOT / "examples" / "models"
ZOO = ("mlp", "cnn", "mobilenet", "resnet", "transformer", "unet")
TARGET = "llvm"


def zoo_model(name: str) -> tuple[Any, dict[str, Any]]:
    return load_model(f"{MODELS / name}.py:{name}")


def wheel_model(name: str) -> tuple[Any, dict[str, Any]]:
    path = wheel_models.wheel_model_path(name)
    if path is None:
        raise FileNotFoundError(f"{name}: install the test extra, pip install -e '.[test]'")
    shapes = {}
    for text in wheel_models.WHEEL_MODELS[name].input_shapes:
        key, _, dims = text.rpartition("=")
        shapes[key] = tuple(int(d) for d in dims.split("x"))
    return load_model_file(str(path), model_file_kind(str(path)), shapes)


def measure(name: str, load: Any) -> list[str] | None:
    try:
        mod, weights = load(name)
        mod = with_weights_bound(mod, weights)
        result = compare_pipelines(mod, TARGET, random_inputs(mod))
    except Exception as error:  # a row that could not be measured is reported, not written
        print(f"{name}: not measured: {type(error).__name__}: {error}", file=sys.stderr)
        return None
    theirs, ours = result.tvm.storage_bytes, result.ours.storage_bytes
    row = [
        name,
        str(theirs),
        str(ours),
        f"{ours / theirs:.3f}" if theirs else "-",
        "yes" if result.outputs_equal else "NO",
        f"{result.tvm.compile_seconds:.2f}",
        f"{result.ours.compile_seconds:.2f}",
    ]
    print(" | ".join(row), file=sys.stderr)
    return row


def section(rows: list[list[str]], command: str) -> str:
    preamble = [
        f"`{command}` (one process, this 2-core machine shared with other jobs: CPU seconds). "
        "Each model, weights bound (`relax.transform.BindParams`), compiled for llvm by "
        "`tvm.compile` with TVM's default pipeline (`relax.get_default_pipeline`) and with "
        "`usmp_dialect.tvm.relax_vm.plan_memory.pipeline`, the same passes with `PlanMemory` "
        "(default algorithm, one pool) in place of StaticPlanBlockMemory, and run once on the same "
        "random inputs. Bytes are what the VM's storage allocations handed out in the run "
        "(`vm.builtin.alloc_storage`): the planned intermediates and, in both, the returned "
        "tensors, which no plan holds (operator workspaces are not storage allocations). "
        "*Outputs equal* is bitwise equality. Compile seconds are CPU seconds of "
        "`tvm.compile`, after warm-up builds with each pipeline. Where our 64-byte aligned "
        "offsets would take more bytes than TVM's exact-size storages, `PlanMemory` keeps "
        "TVM's plan (ratio 1.000)."
    ]
    header = [
        "model",
        "Relax bytes",
        "ours",
        "ratio",
        "outputs equal",
        "compile s, Relax",
        "compile s, ours",
    ]
    return markdown_section("## Relax VM", preamble, header, rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated model names")
    add_write_option(parser)
    args = parser.parse_args()
    models = [(n, zoo_model) for n in ZOO] + [(n, wheel_model) for n in wheel_models.WHEEL_MODELS]
    if args.only:
        wanted = set(args.only.split(","))
        models = [(n, load) for n, load in models if n in wanted]
    for name in ("mlp", "unet"):  # the warm-up: imports, first builds, numba's first compile
        measure(name, zoo_model)
    rows = [measure(name, load) for name, load in models]
    command = "python tools/bench_relax_vm.py" + (f" --only {args.only}" if args.only else "")
    measured = [row for row in rows if row is not None]
    body = section(measured, command + " --write BENCHMARKS.md")
    publish(body, args, complete=len(measured) == len(rows))


if __name__ == "__main__":
    main()
