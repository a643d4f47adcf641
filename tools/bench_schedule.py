"""BENCHMARKS.md's "Schedule" section: the schedule passes (`tir-reorder-for-memory`,
`tir-in-place-results`, `tir-band-stages`) on the models people deploy, against
TensorFlow Lite Micro's arena:

    python tools/bench_schedule.py [MODEL ...] [--no-zoo] [--runs N] [--m55]
                                   [--write [BENCHMARKS.md]]

Models: the `.tflite`/`.onnx` files given (`.onnx` by the name `tools/model_path.py`
knows, e.g. `inception-v1-onnx`; by default the files the issue names where they are on
this machine: `person_detect.tflite` and `vww_96_int8.tflite` of
/work/shared/benchmarks/models, MLPerf Tiny's `pretrainedResnet_quant.tflite` from
~/.cache/usmp-bench/models or a mirror of mlcommons/tiny, its keyword spotter
`kws_ref_model.tflite` where it is in ~/.cache/usmp-bench/models, and the ONNX zoo's
`inception-v1-onnx` and `squeezenet-onnx` from the test extras), and the model zoo's
ResNet-18 and U-Net (`examples/models`, at the sizes BENCHMARKS.md's "Models" uses;
`--no-zoo` leaves them out).

Each is planned as `usmp-opt --plan-pools --use-workspace-io` plans it (inputs and outputs
in the workspace pool, as TFLM's arena holds them), five times: with none of the three
passes (*plan alone*: `--no-reorder --no-in-place --no-band-stages`), with each alone, and
with all three (the default); a cell is the workspace pool's bytes (a state pool apart).
TFLM's column is its arena's non-persistent head (`tflm_arena`). *MACs*: the
multiply-accumulates of the default plan relative to the unbanded one (bands keep halo
rows in rolling buffers: every row is computed once), and what recomputing the halo rows
in each band instead would cost (`recomputed_rows`, each operator's row weighted by its
loops' products). A `.tflite` file's plan with all passes and without bands is written as
a C library, built and run on `--runs` random int8 inputs: *exact* when both give TFLM's
interpreter's bytes; with `--m55`, *M55 instructions* are one run of each library on
QEMU's Cortex-M55 (GCC -O2, `/work/shared/tools/m55/count.sh` or `--count`), banded /
unbanded. An `.onnx` file's or a zoo model's library is not built here (tests/test_model_files.py
compares the ONNX files' plans with onnxruntime).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from benchmark_sections import add_write_option, markdown_section, publish  # noqa: E402

SHARED_MODELS = Path("/work/shared/benchmarks/models")
BENCH_CACHE = Path.home() / ".cache" / "usmp-bench" / "models"
MLPERF_MIRROR = Path("/work/.mirror/mlcommons+tiny/repo")
MLPERF_RESNET = (
    "benchmark/training/image_classification/trained_models/pretrainedResnet_quant.tflite"
)
ONNX_MODELS = ("inception-v1-onnx", "squeezenet-onnx")
ZOO = {
    'resnet.py:resnet(size=224, config="resnet18")': "ResNet-18, 224x224",
    "unet.py:unet(size=128, channels=16)": "U-Net, 128x128, 16-128 channels",
}
COUNT = "/work/shared/tools/m55/count.sh"
PASSES = {
    "plan alone": {"reorder": False, "in_place": False, "band_stages": False},
    "order": {"reorder": True, "in_place": False, "band_stages": False},
    "in place": {"reorder": False, "in_place": True, "band_stages": False},
    "bands": {"reorder": False, "in_place": False, "band_stages": True},
    "all": {"reorder": True, "in_place": True, "band_stages": True},
}
"""Each column's passes."""
UNBANDED = {"reorder": True, "in_place": True, "band_stages": False}


def default_models(directory: Path) -> list[str]:
    files = [SHARED_MODELS / n for n in ("person_detect.tflite", "vww_96_int8.tflite")]
    found = [str(f) for f in files if f.exists()]
    resnet = BENCH_CACHE / "pretrainedResnet_quant.tflite"
    if not resnet.exists() and MLPERF_MIRROR.exists():
        resnet = directory / "pretrainedResnet_quant.tflite"
        shown = subprocess.run(
            ["git", f"--git-dir={MLPERF_MIRROR}", "show", f"HEAD:{MLPERF_RESNET}"],
            capture_output=True,
            check=False,
        )
        if shown.returncode == 0:
            resnet.write_bytes(shown.stdout)
    if resnet.exists():
        found.append(str(resnet))
    kws = BENCH_CACHE / "kws_ref_model.tflite"
    if kws.exists():
        found.append(str(kws))
    return found + list(ONNX_MODELS)


def planned_with(module: Any, passes: dict, lower: bool) -> Any:
    """`module` planned with `passes`: a copy, unless lowered to be built (a copy leaves
    the constants' bytes behind)."""
    from usmp_dialect.pipeline import plan_pools, plan_pools_pipeline

    planned = module if lower else module.clone()
    plan_pools(
        planned,
        plan_pools_pipeline(lower=lower, workspace_io=True, constant_pool=lower, **passes),
    )
    return planned


def workspace_bytes(planned: Any) -> int:
    """The workspace pools' bytes of a planned module (a state pool apart)."""
    from usmp_dialect.dialects.usmp import IOKind
    from usmp_dialect.reports.report import plan_report

    report = plan_report(planned)
    state = {b["pool"] for b in report["buffers"] if b["io"] == IOKind.STATE}
    return sum(p["size"] for p in report["pools"] if p["name"] not in state)


def macs(module: Any) -> tuple[float, float]:
    """The default plan's multiply-accumulates relative to the unbanded module's, with the
    halo rows kept (the pass's schedule) and recomputed in each band; each operator's row
    costs its loops' products over its rows."""
    from usmp_dialect.analysis.tir_entry import module_calls
    from usmp_dialect.analysis.tir_rows import multiplications
    from usmp_dialect.lowering.allocations_to_usmp import tir_program_before_lowering
    from usmp_dialect.pipeline import plan_pools
    from usmp_dialect.planning.bands import choose_stages, recomputed_rows
    from usmp_dialect.transforms.tir_band_stages import band_program

    ready = module.clone()
    plan_pools(ready, "tir-state-to-allocations,tir-io-to-allocations,tir-reorder-for-memory")
    program = tir_program_before_lowering(ready, "", "bench_schedule")
    assert program is not None
    functions, entry = program
    unbanded = sum(multiplications(functions[c]) for _, c in module_calls(entry, functions))
    model = band_program(ready)
    if not unbanded or model is None:
        return 1.0, 1.0
    kept = recomputed = 0
    for stage in choose_stages(model):
        chain = model.chains[stage.chain][stage.first : stage.last + 1]
        rows = recomputed_rows(chain, stage.plan.band_height)
        for k, op in enumerate(chain):
            per_row = multiplications(functions[op.name]) // op.rows
            once = sum(step[k][1] - step[k][0] for step in stage.plan.steps)
            kept += (once - op.rows) * per_row
            recomputed += (rows[k] - op.rows) * per_row
    return (unbanded + kept) / unbanded, (unbanded + recomputed) / unbanded


def _count(count: str, directory: Path, image: np.ndarray) -> int:
    """Guest instructions of one run of the library's runner on the board."""
    from tests.support import c_check

    c_check.build(str(directory), qemu=True)
    image.tofile(directory / "i0.bin")
    done = subprocess.run(
        [count, "run.elf", "i0.bin", "o0.bin"],
        cwd=directory,
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout.split()[-1])


def run_libraries(
    path: str, planned: dict[str, Any], runs: int, count: str | None, work: Path
) -> tuple[str, str]:
    """Exactness of each planned module's C library against TFLM's interpreter, and the
    banded library's M55 instructions relative to the unbanded one's."""
    from tests.support import c_check
    from tests.support.reference_runtime import reference_outputs
    from usmp_dialect.tvm.c import library as c_library
    from usmp_dialect.tvm.c.bundle import write_library

    libraries = {}
    for name, module in planned.items():
        directory = work / f"{Path(path).stem}_{name}"
        write_library(module, str(directory), "model")
        c_check.build(str(directory))
        libraries[name] = (
            directory,
            c_library.interface(module, c_library.check_module(module), "model"),
        )
    (tensor,) = next(iter(libraries.values()))[1].inputs
    rng = np.random.default_rng(0)
    images = [rng.integers(-128, 128, tensor.shape).astype(tensor.dtype) for _ in range(runs)]
    exact = True
    for image in images:
        theirs = [o.ravel() for o in reference_outputs(path, [image])]
        for directory, interface in libraries.values():
            ours = c_check.run(str(directory), interface, {tensor.name: image})
            exact &= all(
                np.array_equal(a.ravel(), b) for a, b in zip(ours.values(), theirs, strict=True)
            )
    instructions = "-"
    if count is not None:
        banded, unbanded = (_count(count, d, images[0]) for d, _ in libraries.values())
        instructions = f"{banded:,} / {unbanded:,} ({banded / unbanded:.3f})"
    return (f"bit-exact vs TFLM ({runs} inputs)" if exact else "DIFFERS from TFLM"), instructions


def measure(name: str, module: Any, tflm: int | None, library: Any) -> dict:
    """A model's row of the table; each figure, once measured, as a line on stderr."""
    row: dict[str, Any] = {"model": name, "tflm": tflm}
    if tflm is not None:
        _progress(name, f"TFLM head {tflm:,} bytes")
    for column, passes in PASSES.items():
        row[column] = workspace_bytes(planned_with(module, passes, lower=False))
        ratio = row[column] / row["plan alone"]
        against = "" if column == "plan alone" else f" ({ratio:.3f}x the plan alone)"
        _progress(name, f"{column}: {row[column]:,} bytes{against}")
    row["macs"] = macs(module)
    kept, recomputed = row["macs"]
    _progress(name, f"MACs with halo rows kept {kept:.2f}x, recomputed {recomputed:.2f}x")
    if library:
        row["exact"], row["m55"] = library()
        counted = "" if row["m55"] == "-" else f"; M55 instructions, all / unbanded: {row['m55']}"
        _progress(name, f"outputs {row['exact']}{counted}")
    else:
        row["exact"], row["m55"] = "-", "-"
    return row


def _progress(model: str, line: str) -> None:
    print(f"bench_schedule: {model}: {line}", file=sys.stderr, flush=True)


def measure_file(path: str, runs: int, count: str | None, work: Path) -> dict:
    from usmp_dialect.tvm.model_files.loading import import_model_file

    if path.endswith(".tflite"):
        from usmp_dialect.tvm.tflm.arena import tflm_arena

        module = import_model_file(path, "tflite")
        head, _ = tflm_arena(path)

        def library() -> tuple[str, str]:
            planned = {
                banded: planned_with(import_model_file(path, "tflite"), passes, lower=True)
                for banded, passes in (("all", PASSES["all"]), ("unbanded", UNBANDED))
            }
            return run_libraries(path, planned, runs, count, work)

        return measure(Path(path).name, module, head, library)
    from model_path import WHEEL_MODELS, wheel_model_path

    file = wheel_model_path(path)
    shapes = {
        s.split("=")[0]: [int(d) for d in s.split("=")[1].split("x")]
        for s in WHEEL_MODELS[path].input_shapes
    }
    module = import_model_file(str(file), "onnx", shapes or None)
    return measure(Path(file).name, module, None, None)


def measure_zoo(spec: str, label: str) -> dict:
    from usmp_dialect.tvm.relax.model_spec import load_model
    from usmp_dialect.tvm.relax.to_tir import DEFAULT_TIR_IMPORT, model_to_tir
    from usmp_dialect.tvm.tvmscript.importer import import_module

    mod, weights = load_model(str(ROOT / "examples" / "models" / spec))
    lowered = model_to_tir(mod, weights, spec, DEFAULT_TIR_IMPORT)
    return measure(label, import_module(lowered.tir), None, None)


def _cell(row: dict, column: str) -> str:
    value, base = row[column], row["plan alone"]
    return f"{value:,}" if value == base else f"{value:,} ({value / base:.3f}x)"


def section(rows: list[dict], command: str) -> str:
    header = [
        "model",
        "TFLM head",
        *PASSES,
        "all ÷ TFLM",
        "MACs: kept halo / recomputed",
        "M55 instructions: all / unbanded",
        "outputs",
    ]
    table = [
        [
            r["model"],
            "-" if r["tflm"] is None else f"{r['tflm']:,}",
            *(_cell(r, c) for c in PASSES),
            "-" if r["tflm"] is None else f"{r['all'] / r['tflm']:.3f}",
            f"{r['macs'][0]:.2f} / {r['macs'][1]:.2f}",
            r["m55"],
            r["exact"],
        ]
        for r in rows
    ]
    preamble = [
        f"`{command}` (models, columns and how each is measured: the script's docstring).",
        "Bytes of the workspace pool with inputs and outputs in it (`--plan-pools",
        "--use-workspace-io`): with none of the schedule passes (*plan alone*), with",
        "`tir-reorder-for-memory` (*order*), `tir-in-place-results` (*in place*) or",
        "`tir-band-stages` (*bands*) alone, and with all three (the default); a ratio is",
        "against the plan alone. TFLM head: its arena's non-persistent part, every tensor",
        "of the graph with inputs and outputs. MACs: the default plan's multiply-accumulates",
        "relative to the unbanded ones, with halo rows kept (what the pass does) and if",
        "each band recomputed them. M55 instructions: the C libraries with all passes and",
        "with all but bands, one run each on QEMU's Cortex-M55.",
    ]
    return markdown_section("## Schedule", preamble, header, table)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*")
    parser.add_argument("--no-zoo", action="store_true", help="leave out the zoo's models")
    parser.add_argument("--runs", type=int, default=3, help="random inputs a library runs")
    parser.add_argument("--m55", action="store_true", help="count instructions on QEMU")
    parser.add_argument("--count", default=COUNT, help="the instruction counter")
    add_write_option(parser)
    args = parser.parse_args(argv)
    count = args.count if args.m55 else None
    if count is not None and not os.access(count, os.X_OK):
        sys.exit(f"bench_schedule: {count} not found: pass --count PATH")
    with tempfile.TemporaryDirectory(prefix="usmp-bench-schedule-") as directory:
        work = Path(directory)
        rows = [
            measure_file(model, args.runs, count, work)
            for model in args.models or default_models(work)
        ]
    if not args.no_zoo:
        rows += [measure_zoo(spec, label) for spec, label in ZOO.items()]
    command = "python tools/bench_schedule.py" + (" --m55" if args.m55 else "") + " --write"
    publish(section(rows, command), args, complete=bool(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
