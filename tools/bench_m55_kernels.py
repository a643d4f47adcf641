#!/usr/bin/env python3
"""The "int8 kernels on the Cortex-M55" (and "... on the Cortex-M4") sections of
BENCHMARKS.md: instructions per inference of each int8 `.tflite`'s C library
(`usmp-translate --emit-c`) on QEMU's Cortex-M55 (MPS3 AN547) or, with `--board m4`, its
Cortex-M4 (MPS2 AN386), counted exactly by the TCG plugin beside `count.sh`, for the
library's int8 kernels (Helium on the M55, the DSP extension's SXTB16/SMLAD on the M4), the
same kernels' portable C, and TVM's loops (`--target tvm`, the library before the kernels);
the operators' code size; each output checked against TensorFlow Lite Micro's interpreter
(the `tflite-micro` wheel) on this machine and on the board.

    python tools/bench_m55_kernels.py --count-sh PATH/count.sh [--board m4] \
        MODEL.tflite ... [--write]

count.sh runs a semihosting program under `qemu-system-arm -M mps3-an547` with an
instruction-counting plugin (insncount.c beside it) and prints `insns N`; this tool builds
that plugin into ~/.cache/usmp-bench and runs QEMU with it on the chosen board itself. A
figure per inference is the count of a runner that runs the model N+1 times less that of
one that runs it once, over N. Needs the ARM toolchain and QEMU (`apt-get install -y
gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm`).

    python tools/bench_m55_kernels.py --count-sh PATH/count.sh [--board m4] --by-symbol \
        MODEL.tflite ...

prints instead, for each model's kernels build, its instructions per inference split by
the function of the ELF's symbol table each instruction lies in (nm's sizes), counted by
the TCG plugin tb_profile.c beside this tool (built on demand as the counter's plugin is).
(tools/symbol_split.py). Each function of model.c (kernels, operators, entry) is marked
"model.c"; each other one ("runner, start-up, C library": newlib's memcpy, expf and the
like that the model calls) keeps its own row too, an instruction in no function's span
counts as "(no function)", and the runner's `main`, whose loop runs the model again, takes
the division's remainder, so the rows add up to the bench's figure for the kernels.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmark_sections import (  # noqa: E402
    add_write_option,
    markdown_section,
    publish,
    table_row,
)
from symbol_split import by_function, functions, per_inference_split  # noqa: E402

from usmp_dialect.pipeline import plan_pools, plan_pools_pipeline  # noqa: E402
from usmp_dialect.tvm.c import bundle as c_bundle  # noqa: E402
from usmp_dialect.tvm.fast_kernels import portable_operators  # noqa: E402
from usmp_dialect.tvm.model_files.loading import import_model_file  # noqa: E402


@dataclass(frozen=True)
class Board:
    """A QEMU board the runner is counted on: its machine, compiler flags, the linker script
    `--emit-c` writes for it, and what the kernels' fast path is there."""

    title: str
    name: str
    machine: str
    flags: str
    linker_script: str
    fast_path: str


BOARDS = {
    "m55": Board(
        "Cortex-M55",
        "MPS3 AN547",
        "mps3-an547",
        "-std=c11 -O2 -mcpu=cortex-m55 -mthumb -mfloat-abi=hard",
        "an547.ld",
        "Helium",
    ),
    "m4": Board(
        "Cortex-M4",
        "MPS2 AN386",
        "mps2-an386",
        "-std=c11 -O2 -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16",
        "an386.ld",
        "DSP",
    ),
}
REPEATS = 2
_RUN_CALL = "  if (model_run(&inputs, &outputs, &pools, NULL) != 0) {"


def _write(module: object, directory: Path, target: str) -> None:
    directory.mkdir(parents=True)
    for name, text in c_bundle.library_files(module, "model", target).items():  # type: ignore[arg-type]
        (directory / name).write_text(text)


def _elf(board: Board, directory: Path, runs: int, extra: str = "") -> Path:
    """The runner for the board, running the model `runs` times."""
    runner = (directory / "run.c").read_text()
    assert _RUN_CALL in runner, "the runner's call of model_run changed"
    repeated = (
        f"  for (int r = 1; r < {runs}; ++r) (void)model_run(&inputs, &outputs, &pools, NULL);\n"
    )
    (directory / "run_repeat.c").write_text(runner.replace(_RUN_CALL, repeated + _RUN_CALL))
    elf = directory / f"run{runs}{extra.replace(' ', '').replace('-D', '_')}.elf"
    sources = ["startup.c", "run_repeat.c", "model.c", "model_constants.c"]
    subprocess.run(
        [
            "arm-none-eabi-gcc",
            *board.flags.split(),
            *extra.split(),
            "--specs=rdimon.specs",
            "-T",
            board.linker_script,
            "-o",
            elf.name,
            *sources,
            "-lm",
        ],
        cwd=directory,
        check=True,
    )
    return elf


def _plugin(source: Path) -> Path:
    """A TCG plugin's shared object, built from its C source into this user's cache (for
    the counter beside count.sh: count.sh runs the M55's board only; the plugin counts on
    any)."""
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "usmp-bench"
    plugin = cache / f"lib{source.stem}.so"
    if not plugin.exists() or plugin.stat().st_mtime < source.stat().st_mtime:
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["gcc", "-shared", "-fPIC", "-O2", "-o", str(plugin), str(source)], check=True
        )
    return plugin


def _qemu(board: Board, plugin: str, elf: Path, inputs: list[str]) -> str:
    """QEMU's output of the runner on the board with the plugin (its `-plugin` argument)."""
    done = subprocess.run(
        [
            *("qemu-system-arm", "-M", board.machine, "-nographic", "-monitor", "none"),
            *("-serial", "none", "-semihosting-config", "enable=on,target=native"),
            *("-plugin", plugin, "-d", "plugin", "-kernel", str(elf)),
            *("-append", " ".join([*inputs, "out.bin"])),
        ],
        cwd=elf.parent,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout + done.stderr


def _count(board: Board, plugin: Path, elf: Path, inputs: list[str]) -> int:
    output = _qemu(board, str(plugin), elf, inputs)
    return int(re.search(r"insns (\d+)", output)[1])  # type: ignore[index]


def _per_inference(
    board: Board, plugin: Path, directory: Path, extra: str = ""
) -> tuple[int, bytes]:
    """Instructions per inference, and the outputs' bytes of the last run."""
    inputs = ["x.bin"]
    once = _count(board, plugin, _elf(board, directory, 1, extra), inputs)
    output = (directory / "out.bin").read_bytes()
    more = _count(board, plugin, _elf(board, directory, REPEATS + 1, extra), inputs)
    return (more - once) // REPEATS, output


OTHER = "runner, start-up, C library"


def _profile(board: Board, plugin: Path, elf: Path, inputs: list[str]) -> Counter[str]:
    """Instructions of one run of the runner, by function."""
    lines = elf.with_suffix(".profile")
    _qemu(board, f"{plugin},out={lines}", elf, inputs)
    executed = (line.split() for line in lines.read_text().splitlines())
    return by_function(functions(_nm(elf)), ((int(a, 16), int(n)) for a, n in executed))


def _nm(binary: Path) -> str:
    return subprocess.run(
        ["arm-none-eabi-nm", "-S", "-n", "--defined-only", str(binary)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def symbol_split(path: str, board: Board, plugin: Path, scratch: Path) -> list[list[str]]:
    """The rows of a model's kernels build's split by function, largest first, its total
    last (the bench's "kernels" figure)."""
    name = Path(path).stem
    kernels = scratch / name
    _write(_planned(path), kernels, "any")
    _random_input(path).tofile(kernels / "x.bin")
    once = _profile(board, plugin, _elf(board, kernels, 1), ["x.bin"])
    more = _profile(board, plugin, _elf(board, kernels, REPEATS + 1), ["x.bin"])
    split = per_inference_split(once, more, REPEATS)
    mine = {f.name for f in functions(_nm(_model_object(board, kernels)))}
    total = sum(split.values())
    rows = [
        [
            name,
            function,
            "model.c" if function in mine else OTHER,
            f"{count:,}",
            f"{count / total:.1%}",
        ]
        for function, count in sorted(split.items(), key=lambda item: -item[1])
    ]
    return [*rows, [name, "total", "", f"{total:,}", "100.0%"]]


def _model_object(board: Board, directory: Path) -> Path:
    """The library's operators (model.c) compiled for the board."""
    obj = directory / "model.o"
    subprocess.run(
        ["arm-none-eabi-gcc", *board.flags.split(), "-c", "model.c", "-o", obj.name],
        cwd=directory,
        check=True,
    )
    return obj


def _code_size(board: Board, directory: Path) -> int:
    """Bytes of `.text` of the library's operators (model.c) for the board."""
    obj = _model_object(board, directory)
    done = subprocess.run(
        ["arm-none-eabi-size", "-A", str(obj)], capture_output=True, text=True, check=True
    )
    return sum(
        int(parts[1])
        for line in done.stdout.splitlines()
        if (parts := line.split()) and parts[0].startswith(".text")
    )


def _tflm(path: str, x: np.ndarray) -> bytes:
    from tflite_micro.python.tflite_micro import runtime

    interpreter = runtime.Interpreter.from_file(path)
    interpreter.set_input(x, 0)
    interpreter.invoke()
    return np.ascontiguousarray(interpreter.get_output(0)).tobytes()


def _pool(directory: Path) -> str:
    header = (directory / "model.h").read_text()
    sizes = re.findall(r"_WORKSPACE_POOL_SIZE (\d+)", header)
    return str(sum(map(int, sizes)))


def _planned(path: str) -> object:
    """The `.tflite` imported and planned as TFLM runs it (whole operators, no bands)."""
    module = import_model_file(path, "tflite")
    plan_pools(module, plan_pools_pipeline(constant_pool=True, band_stages=False))
    return module


def _random_input(path: str) -> np.ndarray:
    from tflite_micro.python.tflite_micro import runtime

    detail = runtime.Interpreter.from_file(path).get_input_details(0)
    return np.random.default_rng(0).integers(-128, 128, detail["shape"]).astype(detail["dtype"])


def measure(path: str, board: Board, plugin: Path, scratch: Path) -> list[str]:
    name = Path(path).stem
    module = _planned(path)
    kernels, loops = scratch / name / "kernels", scratch / name / "tvm"
    _write(module, kernels, "any")
    _write(module, loops, "tvm")
    x = _random_input(path)
    for directory in (kernels, loops):
        x.tofile(directory / "x.bin")
    subprocess.run(["make", "-s", "-C", str(kernels), "run"], check=True)
    subprocess.run([str(kernels / "run"), "x.bin", "out.bin"], cwd=kernels, check=True)
    theirs = _tflm(path, x)
    host_exact = (kernels / "out.bin").read_bytes() == theirs
    fast, fast_out = _per_inference(board, plugin, kernels)
    portable, portable_out = _per_inference(board, plugin, kernels, "-DUSMP_KERNELS_PORTABLE")
    tvm, tvm_out = _per_inference(board, plugin, loops)
    exact = {
        "host": host_exact,
        f"board {board.fast_path}": fast_out == theirs,
        "board portable": portable_out == theirs,
        "board TVM loops": tvm_out == theirs,
    }
    verdict = (
        "all" if all(exact.values()) else "NOT " + ", ".join(k for k, v in exact.items() if not v)
    )
    left = portable_operators((kernels / "model.c").read_text())
    return [
        name,
        f"{tvm:,}",
        f"{portable:,}",
        f"{fast:,}",
        f"{tvm / fast:.1f}x",
        f"{_code_size(board, loops):,}",
        f"{_code_size(board, kernels):,}",
        _pool(kernels),
        verdict,
        ", ".join(left) or "none",
    ]


def print_symbol_splits(models: list[str], board: Board) -> None:
    plugin = _plugin(Path(__file__).resolve().parent / "tb_profile.c")
    print(f"Instructions per inference of each model's kernels on the {board.title}, by function:")
    print()
    print(table_row(["model", "function", "in", "instructions", "share"]))
    print("|---|---|---|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="bench-kernels-") as scratch:
        for path in models:
            for row in symbol_split(path, board, plugin, Path(scratch)):
                print(table_row(row), flush=True)


def header(board: Board) -> list[str]:
    return [
        "model",
        "TVM's loops",
        "kernels, portable C",
        f"kernels, {board.fast_path}",
        "gain",
        "code: TVM's loops",
        "code: kernels",
        "workspace pool",
        "TFLM's bytes",
        "operators left on TVM's loops",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="+", metavar="MODEL.tflite")
    parser.add_argument("--count-sh", help="the instruction counter's count.sh")
    parser.add_argument(
        "--board", choices=sorted(BOARDS), default="m55", help="the QEMU board (default m55)"
    )
    parser.add_argument(
        "--by-symbol",
        action="store_true",
        help="print each model's kernels' instructions per inference by function instead",
    )
    add_write_option(parser)
    args = parser.parse_args()
    board = BOARDS[args.board]
    if args.by_symbol:
        if args.write is not None:
            parser.error("--by-symbol prints its tables; it writes no section")
        print_symbol_splits(args.models, board)
        return
    if not args.count_sh:
        parser.error("the following arguments are required: --count-sh")
    plugin = _plugin(Path(args.count_sh).resolve().parent / "insncount.c")
    with tempfile.TemporaryDirectory(prefix="bench-kernels-") as scratch:
        rows = [measure(path, board, plugin, Path(scratch)) for path in args.models]
    options = "" if args.board == "m55" else f" --board {args.board}"
    flags = board.flags.replace("-std=c11 ", "")
    preamble = [
        f"`python tools/bench_m55_kernels.py --count-sh .../count.sh{options} MODEL.tflite ... "
        "--write`: each int8 `.tflite` planned (`--plan-pools --constant-pool "
        "--no-band-stages`: the operators as TFLM runs them, whole; the banded libraries "
        'are in "Schedule") and written by '
        "`usmp-translate --emit-c` (`--target any`, and `--target tvm` for TVM's loops), its "
        f"runner built with `arm-none-eabi-gcc {flags}` (GCC 12.2) and run on "
        f"QEMU 7.2's {board.name}; guest instructions per inference counted exactly by a TCG "
        f"plugin (runs of {REPEATS} + 1 less 1, over {REPEATS}). Portable C: the same "
        "library compiled with `-DUSMP_KERNELS_PORTABLE`. Code: `.text` bytes of `model.c`'s "
        "object (the operators, the kernels and the entry). Workspace pool: bytes; the "
        "kernels need no workspace in the pools (the convolution's im2col is stack: at most "
        "1,152 bytes for one pixel with Helium, 1,792 bytes for two with the DSP; the Helium "
        "depthwise's padded rows at most 1,024). "
        "TFLM's bytes: the output equals the "
        "`tflite-micro` wheel's interpreter's on one random input, on this machine and on "
        "the board in each build.",
    ]
    section = markdown_section(
        f"## int8 kernels on the {board.title}", preamble, header(board), rows
    )
    publish(section, args)


if __name__ == "__main__":
    main()
