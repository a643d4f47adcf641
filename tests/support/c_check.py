"""Build and run a library of `usmp-translate --emit-c` with its own Makefile, on this
machine (`run`) or on QEMU's Cortex-M55 (`run.elf`), moving the tensors through the raw
files the runner reads and writes; and the sizes of the linked images (`size`).

With `USMP_SANITIZE_C=1` in the environment (tools/run-tests sets it for the whole suite),
each library built and run on this machine is built once more with AddressSanitizer and
UndefinedBehaviorSanitizer, every report fatal, and run on the same inputs: any report,
or an output other than the plain build's, fails the run."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, NamedTuple

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from usmp_dialect.analysis.tir_entry import prim_funcs
from usmp_dialect.formats.constant_pool import set_constant_values
from usmp_dialect.tvm.c import library as c_library
from usmp_dialect.tvm.c.bundle import write_library
from usmp_dialect.tvm.c.runner import ARM_FLAGS, ARM_INSTALL, HOST_FLAGS
from usmp_dialect.tvm.tvmscript.importer import import_module

HOST_TOOLS = ("make", "cc", "size")
ARM_TOOLS = ("arm-none-eabi-gcc", "arm-none-eabi-size", "qemu-system-arm")
QEMU_TIMEOUT = 600
"""Seconds a run on the emulated board may take (a large model runs minutes there)."""
SANITIZE_ENV = "USMP_SANITIZE_C"
SANITIZER_FLAGS = "-fsanitize=address,undefined -fno-sanitize-recover=all -g"
"""What C11 leaves undefined (shifts, signed overflow, out-of-range float to int
conversions, misaligned or out-of-bounds accesses) stops the run with a report."""


class MissingTools(RuntimeError):
    """A program the build needs is not installed; the message says what to install."""


class ImageSizes(NamedTuple):
    """`size -A` of a linked image, bytes by section."""

    text: int
    rodata: int
    data: int
    bss: int


def require_tools(qemu: bool) -> None:
    missing = [
        tool for tool in (*HOST_TOOLS, *(ARM_TOOLS if qemu else ())) if not shutil.which(tool)
    ]
    if missing:
        install = ARM_INSTALL if qemu else "apt-get install -y make gcc binutils"
        raise MissingTools(f"{', '.join(missing)} not found: install them with `{install}`")


def sanitizing() -> bool:
    """Whether the environment asks for each host library's sanitized run too."""
    return os.environ.get(SANITIZE_ENV) == "1"


BOARDS = {"m55": ("run.elf", "qemu", "ARM_CFLAGS"), "m4": ("run-m4.elf", "qemu-m4", "M4_CFLAGS")}
"""The Makefile's image, run target and flags variable of each QEMU board: the MPS3 AN547
(Cortex-M55) and the MPS2 AN386 (Cortex-M4)."""


def build(directory: str, qemu: bool = False, flags: str | None = None, board: str = "m55") -> str:
    """The runner built by the library's Makefile (`run`, or `run.elf` for the board,
    `run-m4.elf` for the Cortex-M4 one); with `flags`, rebuilt with those compiler flags
    instead of the Makefile's."""
    require_tools(qemu)
    image, _, arm_flags = BOARDS[board]
    image = image if qemu else "run"
    variable = [f"{arm_flags if qemu else 'CFLAGS'}={flags}", "-B"] if flags else []
    done = subprocess.run(
        ["make", "-s", "-C", directory, image, *variable],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"make {image} failed:\n{done.stdout}{done.stderr}")
    return os.path.join(directory, image)


def image_sizes(image: str, qemu: bool = False) -> ImageSizes:
    """The bytes of `.text` (code, the vector table and exception tables with it),
    `.rodata` (constants), `.data` and `.bss` (the pools) of a linked image."""
    tool = "arm-none-eabi-size" if qemu else "size"
    done = subprocess.run([tool, "-A", image], capture_output=True, text=True, check=True)
    sections: dict[str, int] = {}
    for line in done.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1].isdigit():
            sections[parts[0]] = int(parts[1])

    def total(*prefixes: str) -> int:
        return sum(size for name, size in sections.items() if name.startswith(prefixes))

    return ImageSizes(
        total(".text", ".init", ".fini", ".plt", ".ARM"),
        total(".rodata"),
        total(".data", ".init_array", ".fini_array", ".preinit_array"),
        total(".bss"),
    )


def run(
    directory: str,
    interface: c_library.Interface,
    inputs: Mapping[str, np.ndarray],
    qemu: bool = False,
    board: str = "m55",
) -> dict[str, np.ndarray]:
    """Each output of one run of the built runner on `inputs` (by tensor name), on this
    machine or on QEMU's `board`."""
    with tempfile.TemporaryDirectory(prefix="usmp-c-run-") as files:
        # Short names, relative to the run's directory: newlib's semihosting start-up
        # keeps a command line of 255 characters only.
        arguments = []
        # Each state variable: its value before the run after the inputs, its value after
        # (under that value's name) after the outputs.
        for i, tensor in enumerate([*interface.inputs, *interface.state]):
            arguments.append(f"i{i}.bin")
            array = np.ascontiguousarray(inputs[tensor.name], dtype=tensor.dtype)
            array.tofile(os.path.join(files, arguments[-1]))
        after = [replace(t, name=interface.state_after[t.name]) for t in interface.state]
        written = [*interface.outputs, *after]
        outputs = {t.name: f"o{i}.bin" for i, t in enumerate(written)}
        arguments += outputs.values()
        directory = os.path.abspath(directory)
        if qemu:
            target = BOARDS[board][1]
            command = ["make", "-s", "-C", directory, target, f"ARGS={' '.join(arguments)}"]
        else:
            command = [os.path.join(directory, "run"), *arguments]
        done = subprocess.run(
            command,
            cwd=files,
            env={**os.environ, "PWD": files},  # as a shell sets it: make's START_DIR
            capture_output=True,
            text=True,
            check=False,
            timeout=QEMU_TIMEOUT,
        )
        if done.returncode != 0:
            where = f"on QEMU's {board.upper()} board" if qemu else "on this machine"
            raise RuntimeError(
                f"the runner failed {where} (status {done.returncode}):\n{done.stdout}{done.stderr}"
            )
        return {
            t.name: np.fromfile(os.path.join(files, outputs[t.name]), dtype=t.dtype).reshape(
                t.shape
            )
            for t in written
        }


def check_sanitized(
    directory: str,
    interface: c_library.Interface,
    inputs: Mapping[str, np.ndarray],
    outputs: Mapping[str, np.ndarray],
) -> None:
    """The host runner in `directory` rebuilt with `SANITIZER_FLAGS` and run on `inputs`:
    a `RuntimeError` on a sanitizer's report, or on outputs other than `outputs`."""
    build(directory, flags=f"{HOST_FLAGS} {SANITIZER_FLAGS}")
    sanitized = run(directory, interface, inputs)
    differing = [
        name for name, array in outputs.items() if sanitized[name].tobytes() != array.tobytes()
    ]
    if differing:
        raise RuntimeError(
            f"built with {SANITIZER_FLAGS}, the runner gives other bytes for {', '.join(differing)}"
        )


def stack_bound(directory: str, model: str = "model") -> int:
    """Bytes of stack `<model>_run` needs at most on the Cortex-M55, by gcc's
    `-fstack-usage` of the library: its frame, the entry's and the largest operator's
    (the entry calls the operators, none calls another; every frame is static)."""
    with tempfile.TemporaryDirectory(prefix="usmp-stack-") as out:
        source = os.path.join(os.path.abspath(directory), f"{model}.c")
        compile_only = ["arm-none-eabi-gcc", *ARM_FLAGS.split(), "-fstack-usage", "-c", source]
        subprocess.run([*compile_only, "-o", "library.o"], cwd=out, check=True)
        frames = {}
        with open(os.path.join(out, "library.su")) as usage:
            for line in usage:
                where, size, kind = line.rstrip("\n").split("\t")
                if kind != "static":
                    raise RuntimeError(f"a frame of {where} is {kind}: no bound")
                frames[where.rsplit(":", 1)[1]] = int(size)
    run = frames.pop(f"{model}_run")
    entry = sum(frames.pop(n) for n in list(frames) if n.startswith(f"{model}_entry"))
    return run + entry + max(frames.values(), default=0)


class LibraryRun(NamedTuple):
    outputs: dict[str, np.ndarray]
    pools: dict[str, int]
    constant_pool: str | None
    sizes: ImageSizes
    build_seconds: float
    """Wall-clock seconds of `make` building the runner (library included)."""
    stack: int | None
    """On the board, the bytes of stack the run needs at most (`stack_bound`)."""
    state_pool: str | None = None
    """The pool holding the state the model keeps from run to run, if one does."""


def run_planned(
    module: ModuleOp,
    inputs: Mapping[str, np.ndarray],
    directory: str,
    qemu: bool = False,
    model: str = "model",
    sanitize: bool | None = None,
    board: str = "m55",
) -> LibraryRun:
    """Write the planned `module`'s library into `directory`, build it and run it once
    (with `qemu`, on that `board`); on this machine, with `sanitize` (by default:
    `sanitizing()`), its sanitized build too (`check_sanitized`)."""
    write_library(module, directory, model)
    entry = c_library.check_module(module)
    interface = c_library.interface(module, entry, model)
    start = time.perf_counter()
    image = build(directory, qemu, board=board)
    build_seconds = time.perf_counter() - start
    outputs = run(directory, interface, inputs, qemu, board=board)
    pools = {p.name: p.size for p in interface.pools}
    constant = next((p.name for p in interface.pools if p.constant), None)
    state = next((p.name for p in interface.pools if p.state), None)
    stack = stack_bound(directory, model) if qemu else None
    sizes = image_sizes(image, qemu)
    if not qemu and (sanitizing() if sanitize is None else sanitize):
        check_sanitized(directory, interface, inputs, outputs)
    return LibraryRun(outputs, pools, constant, sizes, build_seconds, stack, state)


def planned_tir_module(tir_mod: Any, constants: Mapping[str, np.ndarray]) -> ModuleOp:
    """The `tir` dialect of a lowered model, `main` holding its constants' values."""
    module = import_module(tir_mod, "<lowered>")
    if constants:
        set_constant_values(module, prim_funcs(module)["main"], constants)
    return module
