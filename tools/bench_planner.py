"""Run the planning algorithms over the benchmark instances and record the results.

    python tools/bench_planner.py [--benchmarks DIR] [--algorithms a,b] [--effort N]
                                  [--time-limit S] [--instances A,B] [--write [FILE]]
    python tools/bench_planner.py --scaling 1000,4000,16000,64000 [--seeds 5]
                                  [--family random|dense] [--write [FILE]]
    python tools/bench_planner.py --vs-minimalloc PATH [--minimalloc-timeout S]
                                  [--algorithms exact] [--instances A,B] [--write [FILE]]

For every instance (every `*.csv` under the benchmarks folder) and algorithm it prints and
writes to the "Planner" section of BENCHMARKS.md: the pool size, its ratio to max-live and
to the best known size, whether the algorithm proved it optimal, the time, and whether an
independent validator found the plan valid. A run the time limit stopped before its work
budget is marked (its plan may differ from run to run).

`--vs-minimalloc PATH` runs MiniMalloc's solver (the binary built from google/minimalloc)
and ours on each instance in turn, ours first, and writes the "Against MiniMalloc" section:
the capacity asked of MiniMalloc (the one in the file's name, else the best known size),
our pool size, whether it is proven optimal and its CPU seconds, and whether MiniMalloc
found a placement within the capacity, in how many CPU seconds (its own, from `wait4`). Both
plans are checked by the validator: MiniMalloc's output CSV is read back as a plan.

`--scaling` instead plans random instances of the given sizes (`--seeds` of each; `--family
dense` for traces with about a third of the buffers live at once) with
`default` and writes the "Scaling" section: CPU seconds of one greedy order, the orders
`default` ran, its worst and median ratio to max-live over the seeds, the seeds at most
1.01x, and its CPU seconds (the most over the seeds).
"""

from __future__ import annotations

import argparse
import csv
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmark_sections import (  # beside this script
    add_write_option,
    markdown_section,
    no_data,
    publish,
    table_row,
)

from usmp_dialect.formats.csv_instance import read_csv_instance
from usmp_dialect.planning.algorithms.placement import Fit, geometry_of, place_in_order
from usmp_dialect.planning.algorithms.portfolio import ORDERS, order_of
from usmp_dialect.planning.conflicts import conflicts_from_intervals, max_live
from usmp_dialect.planning.problem import Conflicts, Intervals, Plan, Problem
from usmp_dialect.planning.registry import (
    Budget,
    available_algorithms,
    get_algorithm,
)
from usmp_dialect.planning.validator import validate

# The smallest valid pool anyone reported, from the table in
# benchmarks/README.md ("best known"). D and J: MiniMalloc's feasible 1048576, their
# optima are unknown; mlperf_tiny and tvm instances are at max-live (filled in at run time).
BEST_KNOWN = {
    **dict.fromkeys("ABDEFGHIJK", 1048576),
    "C": 1039360,
    "resnet50": 1515472556,
    "G_1": 3030937746,
    "pangu_2.6B": 5572042815,
    "S_1": 1538088827,
    "Y_1": 498973390000,
}
AT_MAX_LIVE_FOLDERS = {"mlperf_tiny", "tvm", "minimalloc"}
"""Folders whose instances not in BEST_KNOWN are known to be solvable at max-live."""

MAX_CONFLICT_PAIRS = 20_000_000
"""Above this many conflicting pairs the explicit conflict lists are not built (Y_1 has
180M): only algorithms that read the live intervals can run there."""
INTERVAL_ALGORITHMS = {"default", "exact"}

DEFAULT_BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
SECTION_TITLE = "## Planner"
SCALING_TITLE = "## Scaling"
MINIMALLOC_TITLE = "## Against MiniMalloc"
MINIMALLOC_GRACE = 60.0
"""Wall seconds MiniMalloc may run past its --timeout before it is stopped."""


def instance_name(path: Path) -> str:
    return path.name.split(".")[0] if path.parent.name == "minimalloc" else path.stem


def read_instance(path: Path) -> tuple[Problem, bool]:
    """The instance as a problem (conflict lists built only when read), and whether its
    conflict lists are small enough to build."""
    instance = read_csv_instance(path.read_text(), str(path))
    n = len(instance.names)
    intervals = instance.intervals
    problem = Problem(
        instance.names,
        instance.sizes,
        np.ones(n, dtype=np.int64),
        Conflicts.lazy(lambda: conflicts_from_intervals(intervals, n)),
        intervals=intervals,
    )
    return problem, conflict_pairs(intervals) <= MAX_CONFLICT_PAIRS


def conflict_pairs(intervals: Intervals) -> int:
    starts, ends = np.sort(intervals.start), np.sort(intervals.end)
    overlapping = np.searchsorted(starts, intervals.end) - np.searchsorted(
        ends, intervals.start, "right"
    )
    return int((overlapping - 1).sum()) // 2


def run(args: argparse.Namespace) -> list[list[str]]:
    algorithms = args.algorithms.split(",") if args.algorithms else available_algorithms()
    wanted = set(args.instances.split(",")) if args.instances else None
    rows = []
    for path in sorted(Path(args.benchmarks).glob("*/*.csv")):
        name = instance_name(path)
        if wanted is not None and name not in wanted:
            continue
        problem, with_conflicts = read_instance(path)
        lower_bound = max_live(problem)
        best_known = BEST_KNOWN.get(name)
        if best_known is None and path.parent.name in AT_MAX_LIVE_FOLDERS:
            best_known = lower_bound
        for algorithm in algorithms:
            if not with_conflicts and algorithm not in INTERVAL_ALGORITHMS:
                rows.append(
                    [f"{path.parent.name}/{name}", str(problem.num_buffers), algorithm]
                    + ["conflicts not built"]
                    + [""] * 5
                )
                continue
            began = time.perf_counter()
            budget = Budget(time_limit=args.time_limit, effort=args.effort)
            plan = get_algorithm(algorithm)(problem, budget)
            seconds = time.perf_counter() - began
            size = plan.total_size(problem)
            valid = not validate(problem, plan)
            rows.append(
                [
                    f"{path.parent.name}/{name}",
                    str(problem.num_buffers),
                    algorithm,
                    str(size),
                    f"{size / lower_bound:.4f}" if lower_bound else "-",
                    f"{size / best_known:.4f}" if best_known else "-",
                    "yes" if plan.proven_optimal else "",
                    f"{seconds:.2f}" + (" (time limit)" if plan.time_capped else ""),
                    "yes" if valid else "**NO**",
                ]
            )
            print(" | ".join(rows[-1]), flush=True)
    return rows


def markdown(rows: list[list[str]], command: str) -> str:
    header = [
        "instance",
        "buffers",
        "algorithm",
        "pool size",
        "x max-live",
        "x best known",
        "proven optimal",
        "seconds",
        "valid",
    ]
    preamble = [
        f"Produced by `{command}` on the project's 2-core machine. Every algorithm stops on",
        "its work budget (the same plan on every run), `default` on about 1.5 s + 0.12 ms per",
        "buffer of work here and `exact` on about 10 s (40 s where its search leaves a pool",
        "of at most 2000 buffers unproven: D and J); the time limit is only a safety cap.",
        "Best known sizes are from `benchmarks/README.md`.",
    ]
    return markdown_section(SECTION_TITLE, preamble, header, rows)


def random_instance(n: int, seed: int = 0) -> Problem:
    """`n` buffers live from a random time in `[0, n)` for 1-99 steps, of 16-65520 bytes:
    about 50 buffers live at a time, whatever `n`."""
    rng = np.random.default_rng(seed)
    start = rng.integers(0, n, n)
    intervals = Intervals.from_lists(range(n), start, start + rng.integers(1, 100, n))
    return Problem(
        tuple(f"b{i}" for i in range(n)),
        rng.integers(1, 1 << 12, n) * 16,
        np.ones(n, dtype=np.int64),
        Conflicts.lazy(lambda: conflicts_from_intervals(intervals, n)),
        intervals=intervals,
    )


def dense_instance(n: int, seed: int = 0) -> Problem:
    """`n` buffers, each live between two uniformly random times in `[0, n)`, of 1-65536
    bytes: about a third of the buffers live at a time, so a buffer meets `n / 2` others
    on average."""
    rng = np.random.default_rng(seed)
    ends = np.sort(rng.integers(0, n, (n, 2)), axis=1)
    intervals = Intervals.from_lists(range(n), ends[:, 0], ends[:, 1] + 1)
    return Problem(
        tuple(f"b{i}" for i in range(n)),
        rng.integers(1, 1 << 16, n, endpoint=True),
        np.ones(n, dtype=np.int64),
        Conflicts.lazy(lambda: conflicts_from_intervals(intervals, n)),
        intervals=intervals,
    )


FAMILIES = {"random": random_instance, "dense": dense_instance}
"""`--family`: short-lived random traces (about 50 live at a time) or dense ones."""


def scaling(sizes: list[int], seeds: int, command: str, family: str = "random") -> str:
    header = [
        "buffers",
        "seconds per order",
        "orders run",
        "x max-live, worst",
        "median",
        "seeds <= 1.01x",
        "default CPU seconds, most",
    ]
    preamble = [
        f"Produced by `{command}` on the project's 2-core machine: {family} instances",
        f"(`{FAMILIES[family].__name__}`, seeds 0-{seeds - 1} of each size), one size-first",
        "first-fit order of seed 0 timed in CPU seconds, then `default` at effort 1 on each",
        "seed (CPU seconds too: wall time says more about the machine's load); orders run is",
        "the most over the seeds.",
    ]
    rows = []
    for n in sizes:
        ratios, runs, seconds = [], [], []
        for seed in range(seeds):
            problem = FAMILIES[family](n, seed)
            began = time.process_time()
            plan = get_algorithm("default")(problem, Budget(time_limit=600.0))
            seconds.append(time.process_time() - began)
            ratios.append(plan.total_size(problem) / max_live(problem))
            runs.append(int(str(plan.notes.get("greedy_runs", 0))))
        rows.append(
            [
                str(n),
                f"{_seconds_per_order(FAMILIES[family](n)):.3f}",
                str(max(runs)),
                f"{max(ratios):.4f}",
                f"{float(np.median(ratios)):.4f}",
                f"{sum(ratio <= 1.01 for ratio in ratios)} of {seeds}",
                f"{max(seconds):.2f}",
            ]
        )
        print(table_row(rows[-1]), flush=True)
    return markdown_section(SCALING_TITLE, preamble, header, rows)


def _seconds_per_order(problem: Problem) -> float:
    geometry = geometry_of(problem)
    order = order_of(problem, geometry, ORDERS[0])
    place_in_order(problem, geometry, order[:2], Fit.FIRST)  # compiled before timing
    began = time.process_time()
    place_in_order(problem, geometry, order, Fit.FIRST)
    return time.process_time() - began


def instance_capacity(path: Path, lower_bound: int) -> int:
    """MiniMalloc's benchmarks say their capacity in the name (`A.1048576.csv`); for the
    others, the best known size, else max-live."""
    parts = path.name.split(".")
    if len(parts) == 3 and parts[1].isdigit():
        return int(parts[1])
    return BEST_KNOWN.get(instance_name(path), lower_bound)


def minimalloc_plan(problem: Problem, output: Path) -> Plan:
    """MiniMalloc's solution CSV (`id,lower,upper,size,offset`) as a plan of `problem`."""
    position = {name: index for index, name in enumerate(problem.names)}
    offsets = np.full(problem.num_buffers, -1, dtype=np.int64)
    with output.open(newline="") as file:
        for row in csv.DictReader(file):
            offsets[position[row["id"]]] = int(row["offset"])
    if (offsets < 0).any():
        raise ValueError(f"{output}: a buffer has no offset")
    return Plan(pool=np.zeros(problem.num_buffers, dtype=np.int64), offset=offsets)


def run_minimalloc(
    binary: str, path: Path, capacity: int, timeout: float, output: Path
) -> tuple[int, float, str]:
    """Exit status, CPU seconds of the solver alone, and its last line of log."""
    arguments = [
        binary,
        f"--input={path}",
        f"--output={output}",
        f"--capacity={capacity}",
        f"--timeout={timeout:g}s",
    ]
    child = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # Its --timeout bounds the search only: reading and preparing Y_1 took it minutes and
    # gigabytes. A wall-clock cap is fine here: it decides no plan of ours.
    cap = threading.Timer(timeout + MINIMALLOC_GRACE, child.kill)
    cap.start()
    assert child.stderr is not None
    log = child.stderr.read().decode(errors="replace").strip().splitlines()
    _, status, usage = os.wait4(child.pid, 0)
    cap.cancel()
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode == -signal.SIGKILL:
        log.append(f"stopped after {timeout + MINIMALLOC_GRACE:g} s")
    return child.returncode, usage.ru_utime + usage.ru_stime, log[-1] if log else ""


def against_minimalloc(args: argparse.Namespace, output_dir: Path) -> list[list[str]]:
    algorithm = args.algorithms.split(",")[0] if args.algorithms else "exact"
    wanted = set(args.instances.split(",")) if args.instances else None
    rows = []
    for path in sorted(Path(args.benchmarks).glob("*/*.csv")):
        name = instance_name(path)
        if path.parent.name not in ("minimalloc", "idealloc") or (
            wanted is not None and name not in wanted
        ):
            continue
        problem, _ = read_instance(path)
        capacity = instance_capacity(path, max_live(problem))
        began = time.process_time()
        plan = get_algorithm(algorithm)(
            problem, Budget(time_limit=args.time_limit, effort=args.effort)
        )
        ours_seconds = time.process_time() - began
        ours_valid = not validate(problem, plan)
        size = plan.total_size(problem)
        solution = output_dir / f"{name}.minimalloc.csv"
        solution.unlink(missing_ok=True)
        status, theirs_seconds, log = run_minimalloc(
            args.vs_minimalloc, path, capacity, args.minimalloc_timeout, solution
        )
        if status == 0:
            theirs = minimalloc_plan(problem, solution)
            faults = validate(problem, theirs)
            within = theirs.total_size(problem) <= capacity
            solved = "yes" if not faults and within else "**invalid plan**"
        else:
            solved = "no: " + log.replace("|", "/")[:60]
        rows.append(
            [
                f"{path.parent.name}/{name}",
                str(problem.num_buffers),
                str(capacity),
                str(size) + ("" if size <= capacity else " (over)"),
                "yes" if plan.proven_optimal else "",
                f"{ours_seconds:.2f}",
                "yes" if ours_valid else "**NO**",
                solved,
                f"{theirs_seconds:.2f}",
            ]
        )
        print(" | ".join(rows[-1]), flush=True)
    return rows


def minimalloc_markdown(rows: list[list[str]], command: str, algorithm: str, timeout: float) -> str:
    header = [
        "instance",
        "buffers",
        "capacity",
        f"ours: `{algorithm}` pool size",
        "proven optimal",
        "CPU s",
        "valid",
        "MiniMalloc: solved",
        "CPU s",
    ]
    preamble = [
        f"Produced by `{command}` on the project's 2-core machine, MiniMalloc built from",
        "google/minimalloc (its `minimalloc` binary, default flags) and run on each instance",
        "right after ours, asked for a placement within the capacity, with "
        f"`--timeout={timeout:g}s` (and stopped {MINIMALLOC_GRACE:g} s after it).",
        'CPU seconds of each alone. Both plans are checked by our validator; "solved" means',
        "MiniMalloc's output is a valid placement within the capacity.",
    ]
    return markdown_section(MINIMALLOC_TITLE, preamble, header, rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--benchmarks", default=str(DEFAULT_BENCHMARKS))
    parser.add_argument("--algorithms", help="comma-separated; default: all registered")
    parser.add_argument("--instances", help="comma-separated instance names; default: all")
    parser.add_argument("--time-limit", type=float, default=600.0)
    parser.add_argument("--effort", type=float, default=1.0)
    add_write_option(parser)
    parser.add_argument("--scaling", help="comma-separated random instance sizes")
    parser.add_argument("--seeds", type=int, default=5, help="random instances of each size")
    parser.add_argument("--family", choices=sorted(FAMILIES), default="random")
    parser.add_argument("--vs-minimalloc", metavar="PATH", help="MiniMalloc's binary")
    parser.add_argument("--minimalloc-timeout", type=float, default=60.0, metavar="S")
    args = parser.parse_args(argv)
    command = shlex.join(["python", "tools/bench_planner.py", *(argv or sys.argv[1:])])
    if args.scaling:
        sizes = [int(n) for n in args.scaling.split(",")]
        publish(scaling(sizes, args.seeds, command, args.family), args)
        return
    if not any(Path(args.benchmarks).glob("*/*.csv")):
        no_data("benchmark instances (FOLDER/*.csv, see benchmarks/README.md)", args.benchmarks)
    if args.vs_minimalloc:
        if not os.access(args.vs_minimalloc, os.X_OK):
            sys.exit(
                f"{args.vs_minimalloc}: not an executable: build MiniMalloc's solver from "
                "google/minimalloc and give its `minimalloc` binary"
            )
        with tempfile.TemporaryDirectory() as directory:
            rows = against_minimalloc(args, Path(directory))
        algorithm = args.algorithms.split(",")[0] if args.algorithms else "exact"
        publish(minimalloc_markdown(rows, command, algorithm, args.minimalloc_timeout), args)
        return
    publish(markdown(run(args), command), args)


if __name__ == "__main__":
    main()
