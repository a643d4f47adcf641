"""Whether the time cap or the work budget stops `default`, at rest and on a loaded machine.

    python tools/bench_time_cap.py [--load 4] [--dense 16000,64000,256000]
                                   [--instances A,Y_1] [--time-limit 60] [--write [FILE]]

Each instance (every `*.csv` under benchmarks/, then dense random traces of the given sizes,
seed 0: `bench_planner.dense_instance`) is planned by `default` in a process of its own,
with the CLI's time limit, once at rest and, with `--load N`, once more while N busy loops
(`python -c 'while 1: pass'`) run beside it; they are stopped when the runs are done. Each
run gives the planning's CPU and wall seconds, the process's peak memory, and whether the
time cap ended work the budget still allowed (`Plan.time_capped`). A work budget makes the
plan a function of the problem alone: the last column says whether both runs gave the same
bytes (pools and offsets). Writes the "Time cap under load" section.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from benchmark_sections import add_write_option, markdown_section, publish  # beside this script

ROOT = Path(__file__).resolve().parents[1]
SECTION_TITLE = "## Time cap under load"

CHILD = """
import hashlib, json, sys, time
sys.path.insert(0, {tools!r})
from pathlib import Path
import numpy as np
from bench_planner import dense_instance, read_instance
from usmp_dialect.planning.conflicts import max_live
from usmp_dialect.planning.registry import Budget, get_algorithm
source = {source!r}
problem = dense_instance(int(source)) if source.isdigit() else read_instance(Path(source))[0]
wall, cpu = time.perf_counter(), time.process_time()
plan = get_algorithm("default")(problem, Budget(time_limit={time_limit!r}))
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
digest = hashlib.sha256(np.asarray(plan.pool, np.int64).tobytes())
digest.update(np.asarray(plan.offset, np.int64).tobytes())
print(json.dumps(dict(
    buffers=problem.num_buffers, wall=wall, cpu=cpu, capped=plan.time_capped,
    ratio=plan.total_size(problem) / max(max_live(problem), 1), digest=digest.hexdigest(),
)))
"""


@dataclass(frozen=True)
class Run:
    buffers: int
    wall: float
    cpu: float
    peak_mb: float
    capped: bool
    ratio: float
    digest: str


def plan_once(source: str, time_limit: float) -> Run:
    """`default` on `source` (a CSV path, or a dense trace's size) in a process of its own."""
    code = CHILD.format(tools=str(ROOT / "tools"), source=source, time_limit=time_limit)
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"planning {source} failed")
    return Run(peak_mb=usage.ru_maxrss / 1024, **json.loads(output))


def busy_loops(count: int) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(count)]


def stop(loops: list[subprocess.Popen[bytes]]) -> None:
    for loop in loops:
        loop.kill()
        loop.wait()


def sources(args: argparse.Namespace) -> list[tuple[str, str]]:
    """`(name, source)` of every instance to plan."""
    wanted = set(args.instances.split(",")) if args.instances else None
    found = []
    for path in sorted((ROOT / "benchmarks").glob("*/*.csv")):
        name = f"{path.parent.name}/{path.name.split('.')[0]}"
        if wanted is None or name.split("/")[1] in wanted:
            found.append((name, str(path)))
    sizes = [size for size in args.dense.split(",") if size]
    return found + [(f"dense {size}", size) for size in sizes]


def cells(run: Run) -> list[str]:
    return [f"{run.cpu:.2f}", f"{run.wall:.2f}", f"{run.peak_mb:.0f}", "yes" if run.capped else ""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--load", type=int, default=0, help="busy loops beside the second runs")
    parser.add_argument("--dense", default="16000,64000,256000", help="dense trace sizes")
    parser.add_argument("--instances", help="comma-separated benchmark instance names")
    parser.add_argument("--time-limit", type=float, default=60.0)
    add_write_option(parser)
    args = parser.parse_args()
    instances = sources(args)
    at_rest = {}
    for name, source in instances:
        at_rest[name] = plan_once(source, args.time_limit)
        print(name, "at rest:", at_rest[name], flush=True)
    loaded = {}
    if args.load:
        loops = busy_loops(args.load)
        try:
            for name, source in instances:
                loaded[name] = plan_once(source, args.time_limit)
                print(name, "loaded:", loaded[name], flush=True)
        finally:
            stop(loops)
    header = ["instance", "buffers", "x max-live", "CPU s", "wall s", "peak MB", "capped"]
    if args.load:
        header += ["CPU s, load", "wall s, load", "peak MB, load", "capped, load", "same plan"]
    rows = []
    for name, _ in instances:
        run = at_rest[name]
        row = [name, str(run.buffers), f"{run.ratio:.5f}", *cells(run)]
        if args.load:
            row += [*cells(loaded[name]), "yes" if loaded[name].digest == run.digest else "**NO**"]
        rows.append(row)
    command = "python tools/bench_time_cap.py " + " ".join(sys.argv[1:])
    preamble = [
        f"Produced by `{command.strip()}`: `default` with a {args.time_limit:g} s time limit in a",
        "process of its own on each instance (dense: `bench_planner.dense_instance`, seed 0), at",
        "rest and, with `--load N`, while N busy loops run beside it; seconds and peak MB of the",
        "planning (peak MB of the whole process); *capped*: the time cap ended work the budget",
        "still allowed.",
    ]
    publish(markdown_section(SECTION_TITLE, preamble, header, rows), args, complete=True)


if __name__ == "__main__":
    main()
