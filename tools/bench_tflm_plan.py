#!/usr/bin/env python3
"""BENCHMARKS.md's "TFLM with our plan": each `.tflite` file planned for TensorFlow Lite
Micro (`usmp-translate --emit-tflite-plan --verify`) and run by TFLM's interpreter before
and after:

    python tools/bench_tflm_plan.py DIR_OR_FILE... [--write [FILE]]

The files are those under each DIR (recursively) and the `.tflite` files the test extra
installs (tests/wheel_models.py). A file TFLM cannot run as it is gets a row saying why.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from benchmark_sections import add_write_option, markdown_section, publish  # noqa: E402

from usmp_dialect.diagnostics import LocatedError  # noqa: E402
from usmp_dialect.planning.budget import DEFAULT_ALGORITHM, Budget  # noqa: E402
from usmp_dialect.tvm.tflm.arena import TflmError, tflm_arena  # noqa: E402
from usmp_dialect.tvm.tflm.plan import planned_tflite  # noqa: E402

TITLE = "## TFLM with our plan"
HEADER = [
    "file",
    "tensors planned",
    "TFLM head before",
    "TFLM head after",
    "our plan",
    "TFLM scratch above our plan",
    "after / before",
    "outputs identical",
    "plan s",
]


def _files(arguments: list[str]) -> list[Path]:
    wheel_models = importlib.import_module("wheel_models")
    found = [
        Path(path)
        for name in wheel_models.WHEEL_MODELS
        if name.endswith("-tflite") and (path := wheel_models.wheel_model_path(name))
    ]
    for argument in arguments:
        given = Path(argument)
        found += sorted(given.rglob("*.tflite")) if given.is_dir() else [given]
    return found


def _row(path: Path) -> list[str]:
    name = path.name
    try:
        tflm_arena(str(path))
    except TflmError as error:
        return [name, "", "TFLM fails: " + str(error)[:80], "", "", "", "", "", ""]
    try:
        start = time.process_time()
        planned = planned_tflite(str(path), DEFAULT_ALGORITHM, Budget())
        seconds = time.process_time() - start
        planned, check = planned.verified(str(path), Budget())
    except LocatedError as error:
        return [name, "", "", "", "", "", "", "no: " + error.message.splitlines()[0], ""]
    tensors = planned.tensors
    room = sum(planned.plan.scratch.values())
    return [
        name,
        f"{int(tensors.planned.sum())} of {tensors.count}",
        f"{check.head_before:,}",
        f"{check.head_after:,}",
        f"{planned.plan.size:,}" + (f" (room for scratch: {room:,})" if room else ""),
        f"{check.scratch:,}",
        f"{check.head_after / check.head_before:.3f}",
        "yes" if check.outputs_identical else "NO",
        f"{seconds:.2f}",
    ]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("paths", nargs="*", help="folders of .tflite files, or files")
    add_write_option(parser)
    args = parser.parse_args(argv)
    rows = [_row(path) for path in _files(args.paths)]
    preamble = [
        f"`python tools/bench_tflm_plan.py {' '.join(args.paths)} --write` (this 2-core "
        "machine): each file planned by `usmp-translate --emit-tflite-plan` (default "
        "algorithm, TFLM's lifetimes and 16-byte alignment) and run by the `tflite-micro` "
        "wheel's interpreter, the original and the planned file on the same random inputs "
        "(two invocations). TFLM head: its non-persistent arena (`print_allocations`), "
        "before (TFLM's own greedy plan) and after (our offsets from the file's "
        "OfflineMemoryAllocation metadata), as `--verify` writes it: where TFLM puts its "
        "kernels' scratch buffers on top of our plan, the file is planned again with room "
        "for each operator's scratch (measured by TFLM on the operator alone) when that "
        "makes TFLM's head smaller; *room for scratch* is then the sum of what the plan "
        "leaves room for, *TFLM scratch above our plan* what TFLM still puts on top. Bytes; "
        "plan s: CPU seconds of reading, planning and writing (the first plan).",
    ]
    publish(markdown_section(TITLE, preamble, HEADER, rows), args)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
