"""BENCHMARKS.md's "Schedule: bands" section: `.tflite` files planned with their inputs and
outputs in the workspace (`--plan-pools --use-workspace-io --constant-pool`), with and
without `--band-stages`, against TFLM's head; each plan written as a C library, built and
run on this machine on random inputs, its outputs compared with TFLM's interpreter (the
`tflite-micro` wheel) and with each other; with `--m55`, the instructions of one run of
each library on QEMU's Cortex-M55 (`/work/shared/tools/m55/count.sh`, or `--count`).

    python tools/bench_bands.py FILE.tflite ... [--runs N] [--m55] [--write]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))
from benchmark_sections import add_write_option, markdown_section, publish  # noqa: E402

from tests.support import c_check  # noqa: E402
from tests.support.reference_runtime import reference_outputs  # noqa: E402
from usmp_dialect.pipeline import plan_pools, plan_pools_pipeline  # noqa: E402
from usmp_dialect.reports.bands import module_bands  # noqa: E402
from usmp_dialect.tvm.c import library as c_library  # noqa: E402
from usmp_dialect.tvm.c.bundle import write_library  # noqa: E402
from usmp_dialect.tvm.model_files.loading import import_model_file  # noqa: E402
from usmp_dialect.tvm.tflm.arena import tflm_arena  # noqa: E402

TITLE = "## Schedule: bands"
COUNT = "/work/shared/tools/m55/count.sh"


def _count(count: str, directory: Path, inputs: list[np.ndarray]) -> int:
    """Guest instructions of one run of the library's runner on the board."""
    c_check.build(str(directory), qemu=True)
    names = []
    for i, array in enumerate(inputs):
        names.append(f"i{i}.bin")
        array.tofile(directory / names[-1])
    done = subprocess.run(
        [count, "run.elf", *names, "o0.bin"],
        cwd=directory,
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout.split()[-1])


def measure(path: str, runs: int, count: str | None, work: Path) -> list[str]:
    head, _ = tflm_arena(path)
    rng = np.random.default_rng(0)
    workspace, libraries, stages = {}, {}, "-"
    for banded in (False, True):
        module = import_model_file(path, "tflite")
        plan_pools(
            module,
            plan_pools_pipeline(workspace_io=True, constant_pool=True, band_stages=banded),
        )
        if banded and (bands := module_bands(module)) is not None:
            stages = "; ".join(
                f"{len(s['operators'])} operators, {s['steps']} steps" for s in bands["stages"]
            )
        directory = work / f"{Path(path).stem}_{'banded' if banded else 'plain'}"
        write_library(module, str(directory), "model")
        c_check.build(str(directory))
        interface = c_library.interface(module, c_library.check_module(module), "model")
        workspace[banded] = sum(p.size for p in interface.pools if not p.constant)
        libraries[banded] = (directory, interface)
    (tensor,) = libraries[False][1].inputs
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
        before, after = (_count(count, d, [images[0]]) for d, _ in libraries.values())
        instructions = f"{before:,} / {after:,} ({after / before:.3f})"
    return [
        Path(path).name,
        f"{head:,}",
        f"{workspace[False]:,}",
        f"{workspace[True]:,}",
        f"{workspace[True] / head:.3f}",
        stages,
        "1.00",
        instructions,
        f"yes ({runs} inputs)" if exact else "NO",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--m55", action="store_true", help="count instructions on QEMU")
    parser.add_argument("--count", default=COUNT, help="the instruction counter")
    add_write_option(parser)
    args = parser.parse_args()
    count = args.count if args.m55 else None
    if count is not None and not os.access(count, os.X_OK):
        sys.exit(f"bench_bands: {count} not found: pass --count PATH")
    with tempfile.TemporaryDirectory(prefix="usmp-bands-") as work:
        rows = [measure(path, args.runs, count, Path(work)) for path in args.files]
    preamble = [
        f"`python tools/bench_bands.py {' '.join(Path(f).name for f in args.files)}"
        f"{' --m55' if args.m55 else ''} --write` (files: `/work/shared/benchmarks/models/`): "
        "each file planned with its inputs and outputs in the workspace "
        "(`--plan-pools --use-workspace-io --constant-pool`), without and with "
        "`--band-stages`; *TFLM head*: the `tflite-micro` wheel's arena head (its tensors, "
        "inputs and outputs included); *workspace*: the C library's workspace pool; "
        "*MACs*: multiply-accumulates of the banded program relative to the unbanded one "
        "(halo rows are kept in rolling buffers, never recomputed); *M55 instructions*: "
        "one run of each library on QEMU's Cortex-M55 (GCC -O2), unbanded / banded; "
        "*exact*: both libraries' outputs equal to each other and to TFLM's interpreter "
        "on random int8 inputs. Bytes.",
    ]
    header = [
        "model",
        "TFLM head",
        "workspace, plan alone",
        "workspace, bands",
        "bands / TFLM",
        "stages",
        "MACs",
        "M55 instructions (unbanded / banded)",
        "exact",
    ]
    publish(markdown_section(TITLE, preamble, header, rows), args, complete=True)


if __name__ == "__main__":
    main()
