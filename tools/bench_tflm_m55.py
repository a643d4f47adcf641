#!/usr/bin/env python3
"""The yardstick of the "TFLM + CMSIS-NN on the device" section of BENCHMARKS.md:
TensorFlow Lite Micro built from its public sources, with its reference kernels and with
Arm's CMSIS-NN, each `.tflite` model linked into a small program of ours and run under
QEMU, its guest instructions per inference counted exactly by a TCG plugin.

    python tools/bench_tflm_m55.py MODEL.tflite ... [--boards m55,m4]
        [--kernels cmsis_nn,reference] [--cache DIR] [--git-mirrors DIR] [--runs N]
        [--counter insncount.c] [--write [BENCHMARKS.md]]

Boards: `m55`, a Cortex-M55 with Helium (QEMU's `mps3-an547`, TFLM's
`TARGET_ARCH=cortex-m55`, CMSIS-NN's MVE path), and `m4`, a Cortex-M4 with the DSP
extension (`mps2-an386`, `TARGET_ARCH=cortex-m4`: no FPU, CMSIS-NN's DSP path). Both run
on the startup file and linker script `usmp-translate --emit-c` writes for the AN547, the
M4's with the AN386's memory map.

Nothing of TFLM's or CMSIS-NN's goes into this repository: tflite-micro (at `TFLM_COMMIT`)
and the third-party sources its Makefile downloads (CMSIS, CMSIS-NN, flatbuffers,
gemmlowp, ruy, kissfft, at the commits it pins) live in the cache directory (default
`~/.cache/usmp-bench`), and so do the builds, made once and kept. Offline, `--git-mirrors
DIR` takes every source from bare git repositories `DIR/OWNER+NAME/repo` instead, at the
same commits. TFLM's Makefile compiles, with its own rules and flags, the objects the
models' programs link (its core, the models' operators' kernels, all of CMSIS-NN), not
the whole library: the linker takes the same members either way.

Each program runs the model once and `--runs`+1 times on a fixed pseudo-random input; the
difference of the two counts over `--runs` is one inference (TFLM's interpreter start-up
and the semihosting I/O cancel out; the copy of the input into TFLM's input tensor, which
a real application makes too, does not). The output must equal the `tflite_micro`
wheel's on the same input, byte for byte.

Needs `apt-get install -y gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm`, make,
git, curl, unzip, wget (TFLM's download scripts) and Pillow (TFLM's Makefile runs a Python
script that imports it). The first run builds TFLM four times (two boards, two kernel
sets): an hour on two busy cores.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmark_sections import add_write_option, markdown_section, publish  # noqa: E402

TFLM_COMMIT = "90b983c2b3f1480642e040bbd2ddb37b998f3424"
TFLM_ARCHIVE = f"https://github.com/tensorflow/tflite-micro/archive/{TFLM_COMMIT}.tar.gz"
MAKE_DIR = "tensorflow/lite/micro/tools/make"
COUNTER = Path("/work/shared/tools/m55/insncount.c")
"""The TCG plugin that counts guest instructions (`count.sh`'s, beside it)."""
ARENA_BYTES = 1 << 20
"""TFLM's arena in the program: more than any of these models needs (the program reports
what it used); its size changes no instruction of an inference."""


@dataclass(frozen=True)
class Board:
    name: str
    machine: str
    target_arch: str
    memory: str | None
    """The head comment and MEMORY block of the linker script for this board, in place of
    the AN547's in the one `usmp-translate --emit-c` writes (None: that one as it is)."""


AN386_MEMORY = """\
/* QEMU's mps2-an386 (a Cortex-M4): 4 MiB of ZBT SSRAM1 at 0 for code and constants, and
 * 4 MiB of SSRAM2/3 at 0x20000000 for variables and, at its top, the stack; under the
 * region names of the MPS3 AN547's script that `usmp-translate --emit-c` writes. */
MEMORY {
  ITCM (rwx) : ORIGIN = 0x00000000, LENGTH = 2M
  QSPI (r) : ORIGIN = 0x00200000, LENGTH = 2M
  SRAM (rwx) : ORIGIN = 0x20000000, LENGTH = 3M
  DTCM (rwx) : ORIGIN = 0x20300000, LENGTH = 1M
  DDR (rwx) : ORIGIN = 0x21000000, LENGTH = 16M
}"""

BOARDS = {
    "m55": Board("m55", "mps3-an547", "cortex-m55", None),
    "m4": Board("m4", "mps2-an386", "cortex-m4", AN386_MEMORY),
}
KERNELS = {"reference": "", "cmsis_nn": "cmsis_nn"}


# ---------------------------------------------------------------- sources and builds


def _run(command: list[str], cwd: Path | None = None) -> str:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(
            f"{' '.join(command)} failed (in {cwd}):\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
        )
    return done.stdout


def _from_mirror(mirrors: Path, repo: str, ref: str, into: Path) -> None:
    """`into` holds the files of `repo` (owner+name) at `ref`, from its bare mirror."""
    git_dir = mirrors / repo / "repo"
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", f"--git-dir={git_dir}", "archive", ref], capture_output=True, check=False
    )
    if archive.returncode != 0:
        sys.exit(f"no {ref} in {git_dir}: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "x", "-C", str(into)], input=archive.stdout, check=True)


def tflm_source(cache: Path, mirrors: Path | None) -> Path:
    """tflite-micro at `TFLM_COMMIT` in the cache, fetched once."""
    tree = cache / f"tflite-micro-{TFLM_COMMIT}"
    if (tree / MAKE_DIR / "Makefile").exists():
        return tree
    partial = Path(tempfile.mkdtemp(prefix="tflite-micro-", dir=cache))
    if mirrors is not None:
        _from_mirror(mirrors, "tensorflow+tflite-micro", TFLM_COMMIT, partial)
    else:
        archive = partial / "tflm.tar.gz"
        urllib.request.urlretrieve(TFLM_ARCHIVE, archive)
        with tarfile.open(archive) as tar:
            tar.extractall(partial, filter="data")
        archive.unlink()
        (inner,) = partial.iterdir()
        for entry in inner.iterdir():
            entry.rename(partial / entry.name)
        inner.rmdir()
    partial.rename(tree)
    return tree


# What TFLM's Makefile downloads into its downloads directory (its download scripts and
# `third_party_downloads.inc`), by the variable that names the pinned commit or tag (read
# from there, so the pin is TFLM's own): the folder, the mirror, and the patch it applies.
_THIRD_PARTY = [
    ("cmsis", "ext_libs/cmsis_download.sh", "ZIP_PREFIX", 0, "ARM-software+CMSIS_6", None),
    ("cmsis/Cortex_DFP", "ext_libs/cmsis_download.sh", "ZIP_PREFIX", 1,
     "ARM-software+Cortex_DFP", None),
    ("cmsis_nn", "ext_libs/cmsis_nn_download.sh", "ZIP_PREFIX_NN", 0,
     "ARM-software+CMSIS-NN", None),
    ("flatbuffers", "third_party_downloads.inc", "FLATBUFFERS_URL", 0, "google+flatbuffers",
     f"{MAKE_DIR}/flatbuffers.patch"),
    ("gemmlowp", "third_party_downloads.inc", "GEMMLOWP_URL", 0, "google+gemmlowp", None),
    ("ruy", "third_party_downloads.inc", "RUY_URL", 0, "google+ruy", None),
    ("kissfft", "third_party_downloads.inc", "KISSFFT_URL", 0, "mborgerding+kissfft",
     "third_party/kissfft/kissfft.patch"),
]  # fmt: skip
# Fetched by TFLM's Makefile (a git clone) but compiled into no library built here (its
# tests' framework): an empty folder stops the download.
_UNUSED_DOWNLOADS = ["pigweed"]


def _pin(tree: Path, script: str, variable: str, occurrence: int) -> str:
    text = (tree / MAKE_DIR / script).read_text()
    values = re.findall(rf'^\s*{variable}\s*:?=\s*"?([^"\s]+)"?', text, re.M)
    value = values[occurrence]
    found = re.search(r"/archive/(?:refs/tags/)?([^/]+)\.zip$", value)
    return found[1] if found else value


def seed_downloads(tree: Path, mirrors: Path) -> None:
    """TFLM's downloads directory filled from the git mirrors at the pinned commits, as
    its download scripts would from github.com (which then skip them)."""
    downloads = tree / MAKE_DIR / "downloads"
    for folder, script, variable, occurrence, repo, patch in _THIRD_PARTY:
        into = downloads / folder
        if into.exists() and any(into.iterdir()):
            continue
        _from_mirror(mirrors, repo, _pin(tree, script, variable, occurrence), into)
        for bazel_file in [*into.rglob("*BUILD"), *into.rglob("BUILD.bazel")]:
            bazel_file.unlink()
        if patch is not None:
            _run(["patch", "-p1", "-d", str(into), "-i", str(tree / patch)])
    for folder in _UNUSED_DOWNLOADS:
        (downloads / folder).mkdir(parents=True, exist_ok=True)


@dataclass(frozen=True)
class Build:
    board: Board
    kernels: str
    library: Path
    cxxflags: list[str]
    third_party_objects: set[str]
    """The archive members that are CMSIS-NN's (empty with the reference kernels)."""


def _make(tree: Path, board: Board, kernels: str, build_type: str) -> list[str]:
    toolchain = Path(
        shutil.which("arm-none-eabi-gcc")
        or sys.exit(
            "no arm-none-eabi-gcc: apt-get install -y gcc-arm-none-eabi libnewlib-arm-none-eabi"
        )
    ).parent
    return [
        "make", "-f", f"{MAKE_DIR}/Makefile", "TARGET=cortex_m_generic",
        f"TARGET_ARCH={board.target_arch}", f"TARGET_TOOLCHAIN_ROOT={toolchain}/",
        f"BUILD_TYPE={build_type}",
        *([f"OPTIMIZED_KERNEL_DIR={KERNELS[kernels]}"] if KERNELS[kernels] else []),
    ]  # fmt: skip


# An operator's kernel file where it is not the resolver's name in snake case; and the
# kernel helpers every kernel calls.
_KERNEL_FILES = {"Conv2D": "conv", "DepthwiseConv2D": "depthwise_conv", "AveragePool2D": "pooling",
                 "MaxPool2D": "pooling"}  # fmt: skip
_KERNEL_HELPERS = {"kernel_util", "micro_tensor_utils"}
_OBJECTS = ["MICROLITE_LIB_OBJS", "MICROLITE_KERNEL_OBJS", "MICROLITE_THIRD_PARTY_KERNEL_OBJS"]


def kernel_stems(ops: set[str]) -> set[str]:
    """The names of the kernel files (`conv.cc`, `conv_common.cc`) of these operators."""
    stems = {_KERNEL_FILES.get(op, re.sub(r"(?<=[a-z])(?=[A-Z])", "_", op).lower()) for op in ops}
    return stems | {f"{stem}_common" for stem in stems} | _KERNEL_HELPERS


def _source(tree: Path, objdir: str, obj: str) -> Path:
    """The source file TFLM's Makefile compiles into the object `obj` (`.cc` or `.c`)."""
    stem = tree / obj.split(f"/obj/{objdir}/", 1)[1].removesuffix(".o")
    cc = stem.with_name(stem.name + ".cc")
    return cc if cc.exists() else stem.with_name(stem.name + ".c")


_CMSIS_NN_NAME = re.compile(r"\barm_\w+")
_CMSIS_NN_DEFINITION = re.compile(r"^(?:\w+[ *]+)+(arm_\w+)\s*\(", re.M)


def called_cmsis_nn(tree: Path, kernels: list[str], cmsis_nn: list[str]) -> list[str]:
    """The CMSIS-NN objects defining a function the kernels call, and those defining one
    that these call in turn."""
    defined_in: dict[str, str] = {}
    for obj in cmsis_nn:
        text = _source(tree, "third_party_kernels", obj).read_text(errors="replace")
        for name in _CMSIS_NN_DEFINITION.findall(text):
            defined_in.setdefault(name, obj)
    todo = [_source(tree, "kernels", o) for o in kernels]
    called: set[str] = set()
    while todo:
        names = set(_CMSIS_NN_NAME.findall(todo.pop().read_text(errors="replace")))
        for obj in {defined_in[name] for name in names & defined_in.keys()} - called:
            called.add(obj)
            todo.append(_source(tree, "third_party_kernels", obj))
    return sorted(called)


def needed_objects(tree: Path, objects: dict[str, list[str]], ops: set[str]) -> list[str]:
    """The objects of TFLM's library a program running these operators links: TFLM's core
    (less its audio front end), TensorFlow Lite's kernel helpers, the operators' kernels,
    and the CMSIS-NN functions they call. The linker takes the same members from them as
    from the whole library, so the program is the same."""
    stems = kernel_stems(ops)
    core = [o for o in objects["MICROLITE_LIB_OBJS"] if "/obj/core/signal/" not in o]
    kernels = [
        o
        for o in objects["MICROLITE_KERNEL_OBJS"]
        if "/tensorflow/lite/kernels/" in o or ("/signal/" not in o and Path(o).stem in stems)
    ]
    cmsis_nn = objects["MICROLITE_THIRD_PARTY_KERNEL_OBJS"]
    return core + kernels + called_cmsis_nn(tree, kernels, cmsis_nn)


def build_tflm(tree: Path, board: Board, kernels: str, ops: set[str], build_type: str) -> Build:
    """TFLM's library for the board and kernel set, of the objects that programs running
    `ops` link, each compiled by TFLM's Makefile with its own flags (once: make finds them
    up to date afterwards), and the flags it compiles with."""
    make = _make(tree, board, kernels, build_type)
    # TFLM's Makefile runs Python scripts (with numpy and Pillow) as `python3`: this one's.
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    names = ["CXXFLAGS", "INCLUDES", "GENDIR", *_OBJECTS]
    printed = _run([*make, *(f"print-{name}" for name in names)], cwd=tree)
    values = dict(re.findall(rf"^({'|'.join(names)})=(.*)$", printed, re.M))
    objects = needed_objects(tree, {name: values[name].split() for name in _OBJECTS}, ops)
    print(f"building TFLM for {board.target_arch}, {kernels} kernels ...", file=sys.stderr)
    _run(["nice", "-n", "10", *make, "-j2", *objects], cwd=tree)
    gendir = tree / values["GENDIR"]
    library = gendir / "lib" / "libtensorflow-microlite-subset.a"
    library.parent.mkdir(parents=True, exist_ok=True)
    library.unlink(missing_ok=True)
    _run(["arm-none-eabi-ar", "rcs", str(library), *objects], cwd=tree)
    # The flags as make's shell reads them (`-D"ARMCM55"`).
    includes = [f"-I{(tree / flag[2:]).resolve()}" for flag in shlex.split(values["INCLUDES"])]
    flags = [f for f in shlex.split(values["CXXFLAGS"]) if f != "-MD"] + includes
    third_party = {Path(o).name for o in values["MICROLITE_THIRD_PARTY_KERNEL_OBJS"].split()}
    return Build(board, kernels, library, flags, third_party)


# ---------------------------------------------------------------- the program


def _c_bytes(data: bytes) -> str:
    return ",\n".join(", ".join(str(b) for b in data[i : i + 24]) for i in range(0, len(data), 24))


def operator_names(model: Path) -> list[str]:
    """The builtin operators the model's graphs run (its table of operator codes may list
    more), as `MicroMutableOpResolver::Add...` names them."""
    import tflite
    from tflite.BuiltinOperator import BuiltinOperator

    by_code = {v: k for k, v in vars(BuiltinOperator).items() if not k.startswith("_")}
    parsed = tflite.Model.GetRootAsModel(model.read_bytes(), 0)
    names = set()
    for graph in (parsed.Subgraphs(g) for g in range(parsed.SubgraphsLength())):
        for position in range(graph.OperatorsLength()):
            code = parsed.OperatorCodes(graph.Operators(position).OpcodeIndex())
            name = by_code[max(code.BuiltinCode(), code.DeprecatedBuiltinCode())]
            names.add("".join(part.capitalize() if part[0].isalpha() else part.upper()
                              for part in name.split("_")))  # fmt: skip
    return sorted(names)


def program_source(model: Path, input_bytes: bytes) -> str:
    ops = operator_names(model)
    adds = "\n".join(f"  resolver.Add{op}();" for op in ops)
    return f"""\
// Runs {model.name} with TFLM: main RUNS OUT.bin ARENA.txt (semihosting). Each run
// copies the input in and invokes; the last run's output and the arena TFLM used go
// to the files.
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensorflow/lite/micro/micro_interpreter.h"
#include "tensorflow/lite/micro/micro_mutable_op_resolver.h"

alignas(16) static const unsigned char model_data[] = {{
{_c_bytes(model.read_bytes())}
}};
static const unsigned char input_data[] = {{
{_c_bytes(input_bytes)}
}};
alignas(16) static uint8_t arena[{ARENA_BYTES}];

static void put(const char* path, const void* data, size_t size) {{
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 || write(fd, data, size) != (ssize_t)size) exit(4);
  close(fd);
}}

int main(int argc, char** argv) {{
  if (argc != 4) return 5;
  const int runs = atoi(argv[1]);
  tflite::MicroMutableOpResolver<{len(ops)}> resolver;
{adds}
  tflite::MicroInterpreter interpreter(tflite::GetModel(model_data), resolver, arena,
                                       sizeof(arena));
  if (interpreter.AllocateTensors() != kTfLiteOk) return 1;
  TfLiteTensor* input = interpreter.input(0);
  if (input->bytes != sizeof(input_data)) return 6;
  for (int run = 0; run < runs; ++run) {{
    memcpy(input->data.raw, input_data, sizeof(input_data));
    if (interpreter.Invoke() != kTfLiteOk) return 2;
  }}
  const TfLiteTensor* output = interpreter.output(0);
  put(argv[2], output->data.raw, output->bytes);
  char used[24];
  int at = sizeof(used);
  for (size_t n = interpreter.arena_used_bytes(); at == (int)sizeof(used) || n; n /= 10)
    used[--at] = (char)('0' + n % 10);
  put(argv[3], used + at, sizeof(used) - at);
  return 0;
}}
"""


def board_linker_script(board: Board) -> str:
    """The linker script `usmp-translate --emit-c` writes (a library without pools placed
    in named sections), its memory map the board's."""
    from usmp_dialect.tvm.c.library import Interface
    from usmp_dialect.tvm.c.runner import linker_script

    emitted = linker_script(Interface("tflm", [], [], [], [], {}, False, {}, {}, [], {}, {}, {}))
    if board.memory is None:
        return emitted
    return re.sub(r"\A.*?\nMEMORY \{.*?\n\}", board.memory, emitted, count=1, flags=re.S)


def link_program(build: Build, model: Path, input_bytes: bytes, into: Path) -> Path:
    from usmp_dialect.tvm.c.runner import STARTUP_SOURCE

    into.mkdir(parents=True, exist_ok=True)
    (into / "main.cc").write_text(program_source(model, input_bytes))
    (into / "startup.c").write_text(STARTUP_SOURCE)
    (into / "board.ld").write_text(board_linker_script(build.board))
    arch = [f for f in build.cxxflags if f.startswith(("-mcpu", "-mfpu", "-mfloat-abi", "-mthumb"))]
    elf = into / "main.elf"
    _run(["arm-none-eabi-gcc", *arch, "-O2", "-c", "startup.c", "-o", "startup.o"], cwd=into)
    _run(["arm-none-eabi-g++", *build.cxxflags, "-O2", "-c", "main.cc", "-o", "main.o"], cwd=into)
    _run(["arm-none-eabi-g++", *arch, "--specs=rdimon.specs", "-T", "board.ld",
          "-Wl,--gc-sections", "-Wl,-Map=main.map", "-o", str(elf), "startup.o", "main.o",
          str(build.library), "-lm"], cwd=into)  # fmt: skip
    return elf


# ---------------------------------------------------------------- measuring


def _plugin(cache: Path, counter: Path) -> Path:
    plugin = cache / "libinsncount.so"
    if not plugin.exists() or plugin.stat().st_mtime < counter.stat().st_mtime:
        _run(["gcc", "-shared", "-fPIC", "-O2", "-o", str(plugin), str(counter)])
    return plugin


def count_instructions(elf: Path, board: Board, args: str, plugin: Path) -> int:
    """Guest instructions of one run of the program (its directory the semihosting
    files' directory), counted as `count.sh` beside `COUNTER` does, on the board."""
    done = subprocess.run(
        ["qemu-system-arm", "-M", board.machine, "-nographic", "-monitor", "none", "-serial",
         "none", "-semihosting-config", "enable=on,target=native", "-plugin", str(plugin),
         "-d", "plugin", "-kernel", str(elf), "-append", args],
        cwd=elf.parent, capture_output=True, text=True, check=False,
    )  # fmt: skip
    found = re.search(r"insns (\d+)", done.stdout + done.stderr)
    if done.returncode != 0 or found is None:
        sys.exit(f"{elf} {args} on {board.machine} exited {done.returncode}: {done.stderr[-2000:]}")
    return int(found[1])


def per_inference(once: int, runs_plus_one: int, runs: int) -> int:
    """Instructions of one inference from the counts of a program running it once and
    `runs`+1 times: what the extra runs added, over their number (rounded)."""
    return round((runs_plus_one - once) / runs)


def attributed_sizes(map_text: str, library: str, third_party: set[str]) -> dict[str, int]:
    """Bytes of code (`.text`) and constants (`.rodata`) the linked program keeps from
    `library`: TFLM's own members' and the `third_party` (CMSIS-NN) members', from the
    linker's map (its memory map part: the input sections kept, not the discarded)."""
    kept = map_text.split("Linker script and memory map", 1)[-1]
    sizes = {"tflm .text": 0, "tflm .rodata": 0, "cmsis_nn .text": 0, "cmsis_nn .rodata": 0}
    pattern = re.compile(r"^ (\.(?:text|rodata)\S*)\s+0x[0-9a-f]+\s+0x([0-9a-f]+) (\S+)$", re.M)
    for section, size, source in pattern.findall(kept):
        member = re.fullmatch(rf"{re.escape(library)}\((.+)\)", source)
        if member is None:
            continue
        owner = "cmsis_nn" if member[1] in third_party else "tflm"
        kind = ".text" if section.startswith(".text") else ".rodata"
        sizes[f"{owner} {kind}"] += int(size, 16)
    return sizes


@dataclass(frozen=True)
class Measurement:
    instructions: int
    arena: int
    sizes: dict[str, int]
    exact: bool


def reference_output(model: Path, input_bytes: bytes) -> bytes:
    from tflite_micro.python.tflite_micro import runtime

    interpreter = runtime.Interpreter.from_file(str(model))
    details = interpreter.get_input_details(0)
    data = np.frombuffer(input_bytes, details["dtype"]).reshape(details["shape"])
    interpreter.set_input(data, 0)
    interpreter.invoke()
    return bytes(interpreter.get_output(0).tobytes())


def model_input(model: Path) -> bytes:
    """A fixed pseudo-random input of the model's first input's size."""
    from tflite_micro.python.tflite_micro import runtime

    details = runtime.Interpreter.from_file(str(model)).get_input_details(0)
    size = int(np.prod(details["shape"])) * np.dtype(details["dtype"]).itemsize
    return np.random.default_rng(44).integers(0, 256, size, dtype=np.uint8).tobytes()


def measure(build: Build, model: Path, into: Path, runs: int, plugin: Path) -> Measurement:
    input_bytes = model_input(model)
    elf = link_program(build, model, input_bytes, into)
    expected = reference_output(model, input_bytes)
    once = count_instructions(elf, build.board, "1 out1.bin arena.txt", plugin)
    first = (into / "out1.bin").read_bytes()
    many = count_instructions(elf, build.board, f"{runs + 1} outn.bin arena.txt", plugin)
    exact = first == expected and (into / "outn.bin").read_bytes() == expected
    sizes = attributed_sizes((into / "main.map").read_text(), str(build.library),
                             build.third_party_objects)  # fmt: skip
    arena = int((into / "arena.txt").read_text())
    return Measurement(per_inference(once, many, runs), arena, sizes, exact)


# ---------------------------------------------------------------- the table


HEADER = [
    "model",
    "board",
    "instructions per inference: reference kernels",
    "CMSIS-NN",
    "ratio",
    "arena used (reference / CMSIS-NN)",
    "TFLM .text + .rodata (reference)",
    "TFLM .text + .rodata (CMSIS-NN build)",
    "CMSIS-NN .text + .rodata",
    "outputs = wheel's",
]


def _code_and_constants(text: int, rodata: int) -> str:
    return f"{text:,} + {rodata:,}"


def table_row(
    model: str, board: Board, ref: Measurement | None, nn: Measurement | None
) -> list[str]:
    """The model's row for the board; a kernel set not measured (`--kernels`) shows "-"."""
    cells = [model, f"{board.machine} ({board.target_arch})"]
    cells += [f"{ref.instructions:,}" if ref else "-", f"**{nn.instructions:,}**" if nn else "-"]
    cells.append(f"{ref.instructions / nn.instructions:.1f}x" if ref and nn else "-")
    cells.append(" / ".join(f"{m.arena:,}" if m else "-" for m in (ref, nn)))
    cells += [
        _code_and_constants(m.sizes["tflm .text"], m.sizes["tflm .rodata"]) if m else "-"
        for m in (ref, nn)
    ]
    cells.append(
        _code_and_constants(nn.sizes["cmsis_nn .text"], nn.sizes["cmsis_nn .rodata"]) if nn else "-"
    )
    cells.append("yes" if all(m.exact for m in (ref, nn) if m) else "NO")
    return cells


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="+", type=Path, help=".tflite files (int8)")
    parser.add_argument("--boards", default="m55,m4", help="comma-separated: m55, m4")
    parser.add_argument("--runs", type=int, default=2, help="N: the runs beyond the first")
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path.home() / ".cache" / "usmp-bench",
        help="where the sources and builds live (never this repository)",
    )
    parser.add_argument(
        "--git-mirrors",
        type=Path,
        help="take tflite-micro and its third-party sources from bare git "
        "repositories DIR/OWNER+NAME/repo instead of github.com",
    )
    parser.add_argument(
        "--kernels",
        default="cmsis_nn,reference",
        help="comma-separated: cmsis_nn, reference (built and measured in this order)",
    )
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        metavar="BOARD:KERNELS",
        help="leave out one board's kernel set (m4:reference): its cells show -",
    )
    parser.add_argument(
        "--build-type",
        default="default",
        help="TFLM's BUILD_TYPE: default (its TFLITE_DCHECKs on), release_with_logs "
        "(-DNDEBUG), release (-DNDEBUG, no error strings)",
    )
    parser.add_argument(
        "--counter",
        type=Path,
        default=COUNTER,
        help="the instruction-counting QEMU plugin's source (built into the cache)",
    )
    add_write_option(parser)
    args = parser.parse_args()
    boards = [BOARDS[b] for b in args.boards.split(",")]
    cache = args.cache.expanduser().resolve()
    if cache.is_relative_to(ROOT):
        sys.exit(f"the cache {cache} is inside the repository: choose another --cache")
    cache.mkdir(parents=True, exist_ok=True)
    tree = tflm_source(cache, args.git_mirrors)
    if args.git_mirrors is not None:
        seed_downloads(tree, args.git_mirrors)
    plugin = _plugin(cache, args.counter)
    ops = {op for model in args.models for op in operator_names(model)}
    measured: dict[tuple[str, str, str], Measurement] = {}
    for board in boards:
        for kernels in args.kernels.split(","):
            if f"{board.name}:{kernels}" in args.skip:
                continue
            build = build_tflm(tree, board, kernels, ops, args.build_type)
            for model in args.models:
                work = cache / "programs" / args.build_type / board.name / model.stem / kernels
                found = measure(build, model, work, args.runs, plugin)
                measured[board.name, kernels, model.stem] = found
                print(f"{board.name} {kernels} {model.stem}: {found}", file=sys.stderr)
    rows = [
        table_row(
            model.stem,
            board,
            *(measured.get((board.name, kernels, model.stem)) for kernels in KERNELS),
        )
        for board in boards
        for model in args.models
    ]
    models = " ".join(m.name for m in args.models)
    build_type = "" if args.build_type == "default" else f" --build-type {args.build_type}"
    preamble = [
        f"`python tools/bench_tflm_m55.py {models}{build_type} --write` (sources and builds "
        "in `~/.cache/usmp-bench`, never in this repository): TensorFlow Lite Micro at "
        f"tflite-micro {TFLM_COMMIT[:8]}, built by its own Makefile "
        f"(`TARGET=cortex_m_generic BUILD_TYPE={args.build_type}`: `-Os` core, `-O2` "
        f"kernels, GCC {_gcc_version()}) with its reference kernels and with CMSIS-NN "
        "(`OPTIMIZED_KERNEL_DIR=cmsis_nn`, at the commit TFLM pins), each model linked as "
        "a C array into a program (`MicroMutableOpResolver` of the operators it runs, "
        "`-O2`) on `usmp-translate --emit-c`'s startup file and linker script, run under "
        "QEMU with semihosting. Instructions per inference: guest instructions counted by "
        f"the TCG plugin of `tools/m55` for {args.runs}+1 runs less 1 run, over "
        f"{args.runs}; each run copies the input into TFLM's input tensor (TFLM reuses its "
        "bytes). Arena used: TFLM's `arena_used_bytes()`. Code: bytes of the linked "
        "program's `.text` + `.rodata` from TFLM's library, TFLM's own and CMSIS-NN's "
        "(linker map). Outputs: every run's output equals the `tflite_micro` wheel's on "
        "the same input, byte for byte.",
    ]
    title = "## TFLM + CMSIS-NN on the device" + (
        "" if args.build_type == "default" else f", BUILD_TYPE={args.build_type}"
    )
    section = markdown_section(title, preamble, HEADER, rows)
    wanted = [f"{b.name}:{k}" for b in boards for k in KERNELS]
    complete = len(measured) == len(set(wanted) - set(args.skip)) * len(args.models)
    publish(section, args, complete=complete and all(row[-1] == "yes" for row in rows))


def _gcc_version() -> str:
    printed = _run(["arm-none-eabi-gcc", "-dumpversion"])
    return printed.strip()


if __name__ == "__main__":
    main()
