"""How a whole `usmp-opt` run on a large instance compares with reading and printing it,
and what a model's weights cost each step of the pipeline.

    python tools/bench_pipeline.py [--repetitions 3] [--instance PATH] [--write [FILE]]
    python tools/bench_pipeline.py --model NAME [--model NAME ...] [--repetitions 3]
        [--write [FILE]]

Runs, in one process tree and interleaved (repetition after repetition, every command once
per repetition, so the machine's load falls on all of them alike), each command of
`COMMANDS` on the instance (by default the 62185-buffer trace Y_1): the CSV import, a
parse+print round trip of its `.mlir`, planning it with `--plan-pools -t usmp-report`, and
the same two from the `.csv`. Each run is timed in CPU seconds (user + system of that child
alone, from `wait4`), not wall seconds. The "Pipeline" section of BENCHMARKS.md: the median
CPU seconds and peak memory of each command, and the ratio of each to the parse+print
round trip of the same input, measured in the same run.

With `--model`, a full-size zoo model (`MODELS`) goes through the steps of `MODEL_STEPS`
(import, planning with a constant pool, TVMScript with the pool's bytes) twice a
repetition, interleaved: with its weights bound (their bytes in the `.mlir`) and with its
weights as entry parameters (`--weights params`, printed without their values): the "Weights in the
pipeline" section, each step's CPU seconds and peak MB both ways and their ratio and
difference, against the weights' bytes.

The section is printed; `--write` also puts it into BENCHMARKS.md (or FILE), and only when
every command of every repetition ran (a failed one stops the script).
"""

from __future__ import annotations

import argparse
import os
import re
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


MODELS = {
    "mlp": "mlp.py:mlp(batch=64, features=256, hidden=1024, classes=1000)",
    "cnn": "cnn.py:cnn(size=224)",
    "mobilenet_v2": 'mobilenet.py:mobilenet(size=224, config="v2")',
    "resnet18": 'resnet.py:resnet(size=224, config="resnet18")',
    "transformer": "transformer.py:transformer(seq=128, width=256)",
}
"""The zoo's models at full size (as tools/bench_models.py plans them)."""
WEIGHTS_SECTION_TITLE = "## Weights in the pipeline"
MODEL_STEPS = (
    Command(
        "import",
        ("usmp-translate", "--import-relax", "{model}", "{weights}", "-o", "{mlir}"),
    ),
    Command(
        "plan",
        ("usmp-opt", "{mlir}", "--plan-pools", "--constant-pool", "-o", "{planned}"),
    ),
    Command(
        "emit",
        ("usmp-translate", "--emit-tvmscript", "{planned}", "{constants}", "-o", "{out}"),
    ),
)
WAYS: dict[str, dict[str, tuple[str, ...] | None]] = {
    "bound": {"weights": None, "constants": ("--constants-out", "{bin}")},
    "params": {"weights": ("--weights", "params", "--elide-constants"), "constants": None},
}
"""Each way's arguments in place of the steps' `{weights}` and `{constants}`. The entry's
weight params still carry their values (for a constant pool's file): printed without them
(`--elide-constants`) and their `usmp.constant_values` taken out (`without_values`), the
module is the one the bound weights' is without their bytes."""
_CONSTANT_VALUES = re.compile(
    r", usmp\.constant_values = \{[^{}]*\}|\n// .* \(--elide-constants\)\n"
)


def without_values(path: str) -> None:
    """The `.mlir` at `path` without its constants' values."""
    text = Path(path).read_text()
    Path(path).write_text(_CONSTANT_VALUES.sub("", text))


def model_command_line(step: Command, way: str, files: dict[str, str]) -> list[str]:
    arguments: list[str] = []
    for argument in step.arguments:
        key = argument.strip("{}")
        if key in WAYS[way]:
            arguments += [a.format(**files) for a in WAYS[way][key] or ()]
        else:
            arguments.append(argument.format(**files))
    tool, *rest = arguments
    return [sys.executable, str(TOOLS / tool), *rest]


def measure_model(
    name: str, repetitions: int
) -> tuple[dict[tuple[str, str], list[Measurement]], int]:
    """Per (step, way) its runs, and the bytes of the weights (the constant pool's file)."""
    results: dict[tuple[str, str], list[Measurement]] = {
        (step.label, way): [] for step in MODEL_STEPS for way in WAYS
    }
    with tempfile.TemporaryDirectory() as directory:
        weights_bytes = 0
        for repetition in range(repetitions):
            for step in MODEL_STEPS:
                for way in WAYS:
                    files = {
                        "model": str(TOOLS.parent / "examples" / "models" / MODELS[name]),
                        **{
                            key: str(Path(directory) / f"{way}.{key}")
                            for key in ("mlir", "planned", "out", "bin")
                        },
                    }
                    measurement = run_once(model_command_line(step, way, files))
                    results[(step.label, way)].append(measurement)
                    if step.label == "import" and way == "params":
                        without_values(files["mlir"])
                    print(
                        f"{name} {repetition + 1}/{repetitions} {step.label} ({way}): "
                        f"{measurement.cpu_seconds:.2f} CPU s, {measurement.peak_mb:.0f} MB",
                        flush=True,
                    )
            weights_bytes = (Path(directory) / "bound.bin").stat().st_size
    return results, weights_bytes


def model_rows(
    name: str, results: dict[tuple[str, str], list[Measurement]], weights_bytes: int
) -> list[list[str]]:
    rows = []
    for step in MODEL_STEPS:
        bound, params = results[(step.label, "bound")], results[(step.label, "params")]
        seconds = [statistics.median(m.cpu_seconds for m in runs) for runs in (bound, params)]
        peaks = [max(m.peak_mb for m in runs) for runs in (bound, params)]
        rows.append(
            [
                name,
                f"{weights_bytes / 1e6:.1f}",
                step.label,
                f"{seconds[0]:.2f}",
                f"{seconds[1]:.2f}",
                f"{seconds[0] / seconds[1]:.2f}",
                f"{peaks[0]:.0f}",
                f"{peaks[1]:.0f}",
                f"{(peaks[0] - peaks[1]) * 2**20 / weights_bytes:.2f}",
            ]
        )
    return rows


def models_markdown(rows: list[list[str]], repetitions: int, command: str) -> str:
    preamble = [
        f"Produced by `{command}` on the project's 2-core machine: each step run "
        f"{repetitions} times with the model's weights bound (their bytes in the `.mlir`'s "
        "dialect_resources section, the constant pool's bytes written by `--constants-out`) "
        "and with them as entry parameters (`--weights params`, printed without their "
        "values), interleaved; CPU seconds "
        "(user + system) of each run alone, the median; peak MB the largest. Steps: "
        + "; ".join(
            f"{step.label}: `{' '.join(step.arguments).replace(' -o {out}', '')}`"
            for step in MODEL_STEPS
        )
        + ". Goal: bound at most 1.2x the CPU of params, and at most 3x the weights' bytes "
        "more memory."
    ]
    header = [
        "model",
        "weights MB",
        "step",
        "CPU s bound",
        "CPU s params",
        "x params",
        "peak MB bound",
        "peak MB params",
        "extra peak / weights",
    ]
    return markdown_section(WEIGHTS_SECTION_TITLE, preamble, header, rows)


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
    parser.add_argument(
        "--model", action="append", choices=sorted(MODELS), help="a full-size zoo model"
    )
    add_write_option(parser)
    args = parser.parse_args(argv)
    command = shlex.join(["python", "tools/bench_pipeline.py", *(argv or sys.argv[1:])])
    if args.model:
        rows = []
        for name in args.model:
            runs, weights_bytes = measure_model(name, args.repetitions)
            rows += model_rows(name, runs, weights_bytes)
        publish(models_markdown(rows, args.repetitions, command), args)
    else:
        instance = Path(args.instance)
        results = measure(instance, args.repetitions)
        publish(markdown(instance, results, command), args)


if __name__ == "__main__":
    main()
