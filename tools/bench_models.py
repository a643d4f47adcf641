"""Plan every model of examples/models against Relax's StaticPlanBlockMemory:

    python tools/bench_models.py [--write BENCHMARKS.md]

Per model, small (the function's defaults) and full size (224x224 for the CNNs; sequence
128, width 256 for the Transformer): Relax's StaticPlanBlockMemory total bytes
(`relax_planner_bytes`), and our `--plan-pools` planning (`tir-to-usmp`, `usmp-plan`,
default algorithm) of the AOT-style TIR from `relax_to_tir`, twice:

- intermediates only: the entry function's `alloc_buffer`s, the tensors Relax plans too.
  `tir-to-usmp` has no option for this, so the script runs the pass's own liveness and
  lowering with every allocation outside the entry function marked unplanned;
- with operator workspaces: the `--plan-pools` pipeline as it is.

The model output is a parameter of `main` (as in Relax, where it is unplanned too), so it
is in neither pool; its bytes are a column of their own. Max-live is `plan_report`'s lower
bound for each pool; seconds are tir-to-usmp plus usmp-plan. With `--write` the "Models"
section of that file is replaced (the other sections are kept).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xdsl.context import Context  # noqa: E402
from xdsl.passes import ModulePass  # noqa: E402

from usmp_dialect.backends.report import plan_report  # noqa: E402
from usmp_dialect.transforms.tir_to_usmp import WORKSPACE_LEFT_OUT, TirToUsmp  # noqa: E402
from usmp_dialect.transforms.usmp_plan import UsmpPlan  # noqa: E402

MODELS = ROOT / "examples" / "models"
# (file and function, label, keyword arguments); the first of each is the small default.
VARIANTS = [
    ("mlp", "small", {}),
    ("mlp", "batch 64, 256-1024-1024-1000",
     {"batch": 64, "features": 256, "hidden": 1024, "classes": 1000}),
    ("cnn", "8x8", {}),
    ("cnn", "224x224", {"size": 224}),
    ("mobilenet", "16x16", {}),
    ("mobilenet", "224x224", {"size": 224}),
    ("resnet", "16x16", {}),
    ("resnet", "224x224", {"size": 224}),
    ("transformer", "seq 8, width 16", {}),
    ("transformer", "seq 128, width 256", {"seq": 128, "width": 256}),
]


def plan(tir_mod, front: ModulePass, time_limit: float) -> tuple[dict, float]:
    from usmp_dialect.frontends.tvmscript import import_module

    module = import_module(tir_mod)
    began = time.perf_counter()
    ctx = Context()
    for p in (front, UsmpPlan("default", time_limit)):
        p.apply(ctx, module)
    seconds = time.perf_counter() - began
    module.verify()
    return plan_report(module), seconds


def pool_bytes(report: dict) -> tuple[int, int]:
    return sum(p["size"] for p in report["pools"]), report["max_live"]


def measure(name: str, kwargs: dict, time_limit: float) -> dict:
    import importlib.util

    from usmp_dialect.frontends.relax import relax_planner_bytes, relax_to_tir

    # As `load_model("PATH.py:NAME")`, but NAME is called with the variant's arguments.
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", MODELS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    mod, weights = getattr(module, name)(**kwargs)
    relax = relax_planner_bytes(mod)
    tir_mod = relax_to_tir(mod, weights, name)
    out = tir_mod["main"].params[-1]  # the output buffer, last (see relax_to_tir)
    output = int(np.prod([int(d) for d in out.shape])) * np.dtype(str(out.dtype)).itemsize
    inter, inter_s = plan(tir_mod, TirToUsmp(workspaces=False), time_limit)
    full, full_s = plan(tir_mod, TirToUsmp(), time_limit)
    excluded = [u for u in inter["unplanned"] if u["reason"] == WORKSPACE_LEFT_OUT]
    other_unplanned = list(full["unplanned"])
    assert len(excluded) == len(full["buffers"]) - len(inter["buffers"]), (name, excluded)
    ours, ours_live = pool_bytes(inter)
    ws, ws_live = pool_bytes(full)
    return {
        "relax": relax,
        "ours": ours,
        "ours_live": ours_live,
        "ours_buffers": len(inter["buffers"]),
        "ours_s": inter_s,
        "ws": ws,
        "ws_live": ws_live,
        "ws_buffers": len(full["buffers"]),
        "ws_s": full_s,
        "workspaces": len(excluded),
        "unplanned": other_unplanned,
        "output": output,
    }


def table(rows: list[tuple[str, str, dict]]) -> list[str]:
    lines = [
        "| model | size | Relax StaticPlanBlockMemory | ours, intermediates | max-live "
        "| ours ÷ Relax | seconds | ours, + operator workspaces | max-live | seconds "
        "| output (not in pool) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, label, r in rows:
        lines.append(
            f"| {name} | {label} | {r['relax']} | {r['ours']} ({r['ours_buffers']} buffers) "
            f"| {r['ours_live']} | {r['ours'] / r['relax']:.3f} | {r['ours_s']:.2f} "
            f"| {r['ws']} ({r['ws_buffers']} buffers) | {r['ws_live']} | {r['ws_s']:.2f} "
            f"| {r['output']} |"
        )
    return lines


def section(rows, command: str, time_limit: float) -> str:
    unplanned = sorted({u["reason"] for _, _, r in rows for u in r["unplanned"]})
    ours_le = all(r["ours"] <= r["relax"] for _, _, r in rows)
    missed = [f"{n} {label}" for n, label, r in rows if r["ours"] != r["ours_live"]]
    ws_missed = [f"{n} {label}" for n, label, r in rows if r["ws"] != r["ws_live"]]
    text = [
        "## Models",
        "",
        f"`{command}` (one process, this 2-core machine; `usmp-plan` default algorithm, "
        f"time limit {time_limit:g} s). Each model of `examples/models` is lowered by "
        "`relax_to_tir` to AOT-style TIR and planned twice: *intermediates* plans only the "
        "entry function's `alloc_buffer`s, the tensors Relax's `StaticPlanBlockMemory` plans "
        "too (`tir-to-usmp{workspaces=false}`); *+ operator "
        "workspaces* is `--plan-pools` as it is. The model's output is a parameter of `main`, "
        "so it is in neither pool (Relax leaves it unplanned as well); its bytes are the last "
        "column. Bytes throughout; max-live is `plan_report`'s lower bound for that pool; "
        "seconds are `tir-to-usmp` + `usmp-plan`.",
        "",
        *table(rows),
        "",
        f"Intermediates-only pool ≤ Relax on every model: {'yes' if ours_le else 'NO'}. "
        f"Pool = max-live (intermediates) on {len(rows) - len(missed)} of {len(rows)} rows"
        + (f" (not: {', '.join(missed)})" if missed else "")
        + f"; with workspaces on {len(rows) - len(ws_missed)} of {len(rows)}"
        + (f" (not: {', '.join(ws_missed)})" if ws_missed else "")
        + ". The MLP's large variant is this script's choice; the others are issue 4's "
        "benchmark sizes (224x224 for the CNNs, sequence 128 and width 256 for the "
        "Transformer).",
    ]
    if unplanned:
        text += ["", "Left unplanned by `tir-to-usmp`: " + "; ".join(unplanned) + "."]
    return "\n".join(text) + "\n"


def write_section(path: Path, body: str) -> None:
    old = path.read_text() if path.exists() else "# Benchmarks\n"
    pattern = re.compile(r"^## Models\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(old):
        new = pattern.sub(lambda _: body + "\n", old, count=1)
    else:
        new = old.rstrip("\n") + "\n\n" + body
    path.write_text(new.rstrip("\n") + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", metavar="FILE", help="replace the Models section of FILE")
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--only", help="comma-separated model names")
    args = parser.parse_args()
    command = "python tools/bench_models.py" + "".join(
        f" {a}" for a in sys.argv[1:]
    )
    only = set(args.only.split(",")) if args.only else None
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
            f"{time.perf_counter() - began:6.1f} s total",
            flush=True,
        )
    body = section(rows, command, args.time_limit)
    print()
    print(body)
    if args.write:
        write_section(Path(args.write), body)


if __name__ == "__main__":
    main()
