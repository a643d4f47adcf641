"""The schedule passes on the models people deploy: the workspace pool with the file's
order and with each pass, against TensorFlow Lite Micro's arena:

    python tools/bench_schedule.py [FILE.tflite ...] [--no-zoo] [--write [BENCHMARKS.md]]

Models: the `.tflite` files given (by default the MLPerf Tiny and TFLM files the issue
names where they are on this machine: `person_detect.tflite` and `vww_96_int8.tflite` of
/work/shared/benchmarks/models, MLPerf Tiny's `pretrainedResnet_quant.tflite` from a
mirror of mlcommons/tiny, read into a temporary directory), and the model zoo's ResNet-18
and U-Net (`examples/models`, at the sizes BENCHMARKS.md's "Models" uses; `--no-zoo`
leaves them out).

Each is planned as `usmp-opt --plan-pools --use-workspace-io` plans it (inputs and outputs
in the workspace pool, as TFLM's arena holds them; operator workspaces planned too), four
times: with neither schedule pass (`--no-reorder --no-in-place`), with
`tir-reorder-for-memory` alone, with `tir-in-place-results` alone, and with both (the
default); a cell is the workspace pool's bytes (a state pool apart). TFLM's column is its
arena's non-persistent head (`tflm_arena`), where it plans every tensor, inputs and
outputs included. Exactness: a `.tflite` file's C library, planned with both passes, run
on random int8 inputs against TFLM's interpreter, "bit-exact" when every output byte is
TFLM's; a zoo model's is not built here (its C library of 11 M weights takes long to
compile: tests/tir/test_schedule_passes.py compares the small ResNet's library with and
without the passes, byte for byte).
With `--write` the "Schedule" section of BENCHMARKS.md is replaced.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from benchmark_sections import add_write_option, markdown_section, publish  # noqa: E402

SHARED_MODELS = Path("/work/shared/benchmarks/models")
MLPERF_MIRROR = Path("/work/.mirror/mlcommons+tiny/repo")
MLPERF_RESNET = (
    "benchmark/training/image_classification/trained_models/pretrainedResnet_quant.tflite"
)
ZOO = {
    'resnet.py:resnet(size=224, config="resnet18")': "ResNet-18, 224x224",
    "unet.py:unet(size=128, channels=16)": "U-Net, 128x128, 16-128 channels",
}
PASSES = {
    "file order": (False, False),
    "+ reorder": (True, False),
    "+ in place": (False, True),
    "both": (True, True),
}
"""Each column's (reorder, in_place)."""


def default_files(directory: Path) -> list[Path]:
    files = [SHARED_MODELS / n for n in ("person_detect.tflite", "vww_96_int8.tflite")]
    found = [f for f in files if f.exists()]
    if MLPERF_MIRROR.exists():
        resnet = directory / "pretrainedResnet_quant.tflite"
        shown = subprocess.run(
            ["git", f"--git-dir={MLPERF_MIRROR}", "show", f"HEAD:{MLPERF_RESNET}"],
            capture_output=True,
            check=False,
        )
        if shown.returncode == 0:
            resnet.write_bytes(shown.stdout)
            found.append(resnet)
    return found


def workspace_bytes(module: Any, reorder: bool, in_place: bool) -> int:
    """The workspace pools' bytes of `module` (a copy) planned with the passes asked."""
    from usmp_dialect.dialects.usmp import IOKind
    from usmp_dialect.pipeline import plan_pools, plan_pools_pipeline
    from usmp_dialect.reports.report import plan_report

    planned = module.clone()
    plan_pools(
        planned,
        plan_pools_pipeline(lower=False, workspace_io=True, reorder=reorder, in_place=in_place),
    )
    report = plan_report(planned)
    state = {b["pool"] for b in report["buffers"] if b["io"] == IOKind.STATE}
    return sum(p["size"] for p in report["pools"] if p["name"] not in state)


def library_outputs(tir_mod: Any, constants: Any, inputs: dict, schedule: bool) -> list:
    from tests.support import c_check
    from usmp_dialect.pipeline import plan_pools, plan_pools_pipeline

    module = c_check.planned_tir_module(tir_mod, constants)
    plan_pools(
        module,
        plan_pools_pipeline(
            workspace_io=True, constant_pool=True, reorder=schedule, in_place=schedule
        ),
    )
    with tempfile.TemporaryDirectory(prefix="usmp-schedule-") as directory:
        run = c_check.run_planned(module, inputs, f"{directory}/model", sanitize=False)
    return list(run.outputs.values())


def _row(name: str, module: Any, tflm: int | None, exact: Callable[[], str]) -> dict:
    row: dict[str, Any] = {"model": name, "tflm": tflm}
    for column, (reorder, in_place) in PASSES.items():
        row[column] = workspace_bytes(module, reorder, in_place)
    row["exact"] = exact()
    return row


def _random_int_inputs(tir_mod: Any, count: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    inputs = {}
    for param in list(tir_mod["main"].params)[:count]:
        shape = [int(d) for d in param.shape]
        dtype = str(param.dtype)
        info = np.iinfo(dtype) if dtype.startswith(("int", "uint")) else None
        inputs[param.name] = (
            rng.integers(info.min, info.max + 1, shape).astype(dtype)
            if info
            else rng.standard_normal(shape).astype(dtype)
        )
    return inputs


def measure_file(path: Path) -> dict:
    from tests.support.reference_runtime import reference_outputs
    from usmp_dialect.tvm.model_files.loading import load_model_file
    from usmp_dialect.tvm.relax.to_tir import model_to_tir
    from usmp_dialect.tvm.tflm.arena import tflm_arena
    from usmp_dialect.tvm.tvmscript.importer import import_module
    from usmp_dialect.tvm_options import MODEL_FILE_LOWERING

    mod, weights = load_model_file(str(path), "tflite")
    lowered = model_to_tir(mod, weights, str(path), MODEL_FILE_LOWERING)
    module = import_module(lowered.tir)
    head, _ = tflm_arena(str(path))

    def exact() -> str:
        count = int(mod["forward"].attrs["num_input"])
        inputs = _random_int_inputs(lowered.tir, count)
        ours = library_outputs(lowered.tir, lowered.constants, inputs, True)
        theirs = reference_outputs(str(path), list(inputs.values()))
        same = all(np.array_equal(a, b) for a, b in zip(ours, theirs, strict=True))
        return "bit-exact vs TFLM" if same else "DIFFERS from TFLM"

    return _row(path.name, module, head, exact)


def measure_zoo(spec: str, label: str) -> dict:
    from usmp_dialect.tvm.relax.model_spec import load_model
    from usmp_dialect.tvm.relax.to_tir import DEFAULT_LOWERING, model_to_tir
    from usmp_dialect.tvm.tvmscript.importer import import_module

    mod, weights = load_model(str(ROOT / "examples" / "models" / spec))
    lowered = model_to_tir(mod, weights, spec, DEFAULT_LOWERING)
    module = import_module(lowered.tir)

    return _row(label, module, None, lambda: "-")


def _cell(row: dict, column: str) -> str:
    value, base = row[column], row["file order"]
    return str(value) if value == base else f"{value} ({value / base:.3f}x)"


def section(rows: list[dict]) -> str:
    header = ["model", "TFLM head", *PASSES, "both ÷ TFLM", "outputs"]
    table = [
        [
            r["model"],
            "-" if r["tflm"] is None else str(r["tflm"]),
            *(_cell(r, c) for c in PASSES),
            "-" if r["tflm"] is None else f"{r['both'] / r['tflm']:.3f}",
            r["exact"],
        ]
        for r in rows
    ]
    preamble = [
        "`python tools/bench_schedule.py --write BENCHMARKS.md` (models and columns: the",
        "script's docstring). Bytes of the workspace pool with inputs and outputs in it",
        "(`--plan-pools --use-workspace-io`), with neither schedule pass, with",
        "`tir-reorder-for-memory` alone, `tir-in-place-results` alone, and both (the",
        "default); a ratio is against the file's order. TFLM head: its arena's",
        "non-persistent part, every tensor of the graph with inputs and outputs.",
    ]
    return markdown_section("## Schedule", preamble, header, table)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--no-zoo", action="store_true", help="leave out the zoo's models")
    add_write_option(parser)
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="usmp-bench-schedule-") as directory:
        for path in args.files or default_files(Path(directory)):
            rows.append(measure_file(path))
            print(rows[-1], file=sys.stderr, flush=True)
    if not args.no_zoo:
        for spec, label in ZOO.items():
            rows.append(measure_zoo(spec, label))
            print(rows[-1], file=sys.stderr, flush=True)
    publish(section(rows), args, complete=bool(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
