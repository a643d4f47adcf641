"""How a whole `usmp-opt` run on a large instance compares with reading and printing it.

    python tools/bench_pipeline.py [--repetitions 3] [--instance PATH] [--write [FILE]]

Runs, in one process tree and interleaved (repetition after repetition, every command once
per repetition, so the machine's load falls on all of them alike), each command of
`COMMANDS` on the instance (by default the 62185-buffer trace Y_1): the CSV import, a
parse+print round trip of its `.mlir`, planning it with `--plan-pools -t usmp-report`, and
the same two from the `.csv`. Each run is timed in CPU seconds (user + system of that child
alone, from `wait4`), not wall seconds. It writes the "Pipeline" section of BENCHMARKS.md:
the median CPU seconds and peak memory of each command, and the ratio of each to the
parse+print round trip of the same input, measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bench_planner import DEFAULT_BENCHMARKS  # beside this script
from benchmark_sections import add_write_option, markdown_section, publish

TOOLS = Path(__file__).resolve().parent
SECTION_TITLE = "## Pipeline"
DEFAULT_INSTANCE = DEFAULT_BENCHMARKS / "idealloc" / "Y_1.csv"


@dataclass(frozen=True)
class Command:
    label: str
    arguments: tuple[str, ...]
    """`{csv}`, `{mlir}` and `{out}` stand for the instance, its import and an output file."""
    baseline: str | None = None
    """The label of the command this one is compared with."""


COMMANDS = (
    Command("import", ("usmp-translate", "--import-csv", "{csv}", "-o", "{mlir}")),
    Command("mlir parse+print", ("usmp-opt", "{mlir}", "-o", "{out}")),
    Command(
        "mlir plan+report",
        ("usmp-opt", "{mlir}", "--plan-pools", "-t", "usmp-report", "-o", "{out}"),
        baseline="mlir parse+print",
    ),
    Command("csv read+print", ("usmp-opt", "{csv}", "-o", "{out}")),
    Command(
        "csv plan+report",
        ("usmp-opt", "{csv}", "--plan-pools", "-t", "usmp-report", "-o", "{out}"),
        baseline="csv read+print",
    ),
)


@dataclass(frozen=True)
class Measurement:
    cpu_seconds: float
    peak_mb: float


def run_once(arguments: list[str]) -> Measurement:
    """One child's own CPU seconds and peak resident memory."""
    child = subprocess.Popen(arguments, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise SystemExit(f"failed (exit {child.returncode}): {shlex.join(arguments)}")
    return Measurement(usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def command_line(command: Command, files: dict[str, str]) -> list[str]:
    tool, *rest = command.arguments
    return [sys.executable, str(TOOLS / tool), *(a.format(**files) for a in rest)]


def measure(instance: Path, repetitions: int) -> dict[str, list[Measurement]]:
    results: dict[str, list[Measurement]] = {c.label: [] for c in COMMANDS}
    with tempfile.TemporaryDirectory() as directory:
        files = {
            "csv": str(instance),
            "mlir": str(Path(directory) / f"{instance.stem}.mlir"),
            "out": str(Path(directory) / "out"),
        }
        for repetition in range(repetitions):
            for command in COMMANDS:
                measurement = run_once(command_line(command, files))
                results[command.label].append(measurement)
                print(
                    f"{repetition + 1}/{repetitions} {command.label}: "
                    f"{measurement.cpu_seconds:.2f} CPU s, {measurement.peak_mb:.0f} MB",
                    flush=True,
                )
    return results


def markdown(instance: Path, results: dict[str, list[Measurement]], command: str) -> str:
    median = {
        label: statistics.median(m.cpu_seconds for m in runs) for label, runs in results.items()
    }
    preamble = [
        f"Produced by `{command}` on the project's 2-core machine: each command run "
        f"{len(next(iter(results.values())))} times on `{instance.name}`, interleaved; "
        "CPU seconds (user + system) of each run alone, the median; the ratio is to the "
        "round trip of the same input, from the same run."
    ]
    header = ["command", "CPU seconds (median)", "min", "max", "peak MB", "x round trip"]
    rows = []
    for entry in COMMANDS:
        runs = results[entry.label]
        seconds = [m.cpu_seconds for m in runs]
        ratio = f"{median[entry.label] / median[entry.baseline]:.2f}" if entry.baseline else ""
        shown = " ".join(entry.arguments).replace(" -o {out}", "")
        shown = shown.format(csv=instance.name, mlir=f"{instance.stem}.mlir")
        rows.append(
            [
                f"`{shown}`",
                f"{median[entry.label]:.2f}",
                f"{min(seconds):.2f}",
                f"{max(seconds):.2f}",
                f"{max(m.peak_mb for m in runs):.0f}",
                ratio,
            ]
        )
    return markdown_section(SECTION_TITLE, preamble, header, rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--instance", default=str(DEFAULT_INSTANCE), help="a benchmark CSV")
    add_write_option(parser)
    args = parser.parse_args(argv)
    instance = Path(args.instance)
    results = measure(instance, args.repetitions)
    command = shlex.join(["python", "tools/bench_pipeline.py", *(argv or sys.argv[1:])])
    publish(markdown(instance, results, command), args)


if __name__ == "__main__":
    main()
