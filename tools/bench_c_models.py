#!/usr/bin/env python3
"""BENCHMARKS.md's "Several models": two `.tflite` files as one C library whose models run
one after another (`usmp-translate --emit-c-models`), its RAM against TensorFlow Lite
Micro's for the same two files:

    python tools/bench_c_models.py A.tflite B.tflite [--pipeline C.tflite D.tflite]...
        [--stacked E.tflite F.tflite RUNS]... [--write [FILE]]

`--pipeline`: a row more, C's outputs are D's inputs (`--emit-c-models --pipeline`);
`--stacked`: F's inputs are E's outputs of its last RUNS runs (`--stack E=RUNS`:
micro_speech's front end and classifier).
Each file is imported, planned with its inputs and outputs in its workspace
(`--plan-pools --use-workspace-io --constant-pool`), and both written as one library; a
main calling both run functions is linked (`cc -O2`) and its `.bss` read (`size -A`).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmark_sections import add_write_option, markdown_section, publish  # noqa: E402
from tflm_shared_arena import joint_stacked, shared_arena_bytes  # noqa: E402

from tests.support.c_check import image_sizes  # noqa: E402
from usmp_dialect.parsing import parse_module  # noqa: E402
from usmp_dialect.planning.budget import DEFAULT_ALGORITHM, Budget  # noqa: E402
from usmp_dialect.tvm.c.library import Interface, check_module, interface  # noqa: E402
from usmp_dialect.tvm.tflm.arena import tflm_arena  # noqa: E402
from usmp_dialect.tvm.tflm.plan import planned_tflite  # noqa: E402

TITLE = "## Several models"
HEADER = [
    "models",
    "schedule",
    "ours: .bss",
    "ours before: workspace, plans shifted",
    "ours: each model's pools",
    "TFLM: separate arenas (heads + tails)",
    "TFLM: one shared arena",
    "TFLM: one shared arena, our offline plans (stacked: our joint plan)",
]
TRANSLATE = [sys.executable, str(ROOT / "tools" / "usmp-translate")]
OPT = [sys.executable, str(ROOT / "tools" / "usmp-opt")]


def _planned_mlir(path: Path, out: Path) -> None:
    imported = subprocess.run(
        [*TRANSLATE, "--import-tflite", str(path)], check=True, capture_output=True
    ).stdout
    subprocess.run(
        [*OPT, "--plan-pools", "--use-workspace-io", "--constant-pool", "-o", str(out)],
        input=imported,
        check=True,
    )


def _interface(mlir: Path, name: str) -> Interface:
    module = parse_module(mlir.read_bytes(), str(mlir))
    return interface(module, check_module(module), name)


def _shifted(first: Interface, second: Interface) -> int:
    """The workspace of two separately planned models, the second's shifted so that its
    input lies on the first's output (what `--pipeline` did before it planned jointly)."""
    (out,), (given,) = first.outputs, second.inputs
    shift = first.offsets[out.name][1] - second.offsets[given.name][1]
    sizes = [first.workspace_pools[0].size, second.workspace_pools[0].size]
    return max(sizes[0], shift + sizes[1]) - min(0, shift)


def _bss(names: list[str], directory: Path, stacked: str | None) -> int:
    main = directory / "main.c"
    runs = " | ".join(
        f"{'models_' if n == stacked else ''}{n}_run(&{n}_pools, NULL)" for n in names
    )
    main.write_text(
        '#include <stddef.h>\n#include "models.h"\nint main(void) {\n'
        + "".join(f"  struct {n}_workspace_pools {n}_pools = models_{n}_pools();\n" for n in names)
        + f"  return (int)({runs});\n}}\n"
    )
    sources = sorted(str(p) for p in directory.glob("*.c"))
    image = directory / "main"
    subprocess.run(["cc", "-std=c11", "-O2", "-o", str(image), *sources, "-lm"], check=True)
    empty = directory / "empty"
    (directory / "empty.c").write_text("int main(void) { return 0; }\n")
    subprocess.run(["cc", "-O2", "-o", str(empty), str(directory / "empty.c")], check=True)
    # The C runtime's own .bss (a few bytes) is not the models'.
    return image_sizes(str(image)).bss - image_sizes(str(empty)).bss


def _names(paths: list[Path]) -> list[str]:
    """C prefixes: each file's name up to its first '_', numbered where two are alike."""
    stems = [p.stem.split("_")[0] for p in paths]
    return [f"{s}{k}" if stems.count(s) > 1 else s for k, s in enumerate(stems)]


def _row(paths: list[Path], pipeline: bool, runs: int = 1) -> list[str]:
    """The table's row for `paths` run one after another, or as a `pipeline`, the first
    model's last `runs` outputs the second's inputs."""
    names = _names(paths)
    with tempfile.TemporaryDirectory() as work:
        directory = Path(work)
        flags = []
        for name, path in zip(names, paths, strict=True):
            mlir = directory / f"{name}.mlir"
            _planned_mlir(path, mlir)
            flags += ["--model", f"{name}={mlir}"]
        library = directory / "library"
        if pipeline:
            flags.append("--pipeline")
        if runs > 1:
            flags += ["--stack", f"{names[0]}={runs}"]
        subprocess.run([*TRANSLATE, "--emit-c-models", str(library), *flags], check=True)
        own = [_interface(directory / f"{n}.mlir", n) for n in names]
        pools = [sum(p.size for p in i.workspace_pools) for i in own]
        bss = _bss(names, library, names[0] if runs > 1 else None)
        # TFLM's application keeps the stack itself: micro_speech's features array.
        stack = (runs * own[0].outputs[0].nbytes) if runs > 1 else 0
        arenas = [tflm_arena(str(p)) for p in paths]
        shared = shared_arena_bytes([p.read_bytes() for p in paths])
        if runs > 1:
            # Our joint plan for TFLM: the stack in the second's input tensor, no array apart.
            ours_shared = shared_arena_bytes(list(joint_stacked(str(paths[0]), str(paths[1]))))
        else:
            files = [planned_tflite(str(p), DEFAULT_ALGORITHM, Budget()).data for p in paths]
            ours_shared = shared_arena_bytes(files) + stack
    tails = sum(total - head for head, total in arenas)
    separate = sum(total for _, total in arenas)
    heads = " + ".join(f"{head:,}" for head, _ in arenas)
    kept = f" + {stack:,}" if stack else ""
    schedule = "one after another"
    if pipeline:
        schedule = f"pipeline, the last {runs} runs stacked" if runs > 1 else "pipeline (no copy)"
    return [
        " then ".join(p.name for p in paths),
        schedule,
        f"{bss:,}",
        f"{_shifted(*own):,}" if pipeline and runs == 1 else "-",
        " / ".join(f"{p:,}" for p in pools),
        f"{separate + stack:,} ({heads} + {tails:,}{kept})",
        f"{shared + stack:,}",
        f"{ours_shared:,}",
    ]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("files", nargs="+", help=".tflite files, in the order they run")
    parser.add_argument(
        "--pipeline",
        nargs=2,
        action="append",
        default=[],
        metavar="FILE",
        help="a row of two files as a pipeline (repeatable)",
    )
    parser.add_argument(
        "--stacked",
        nargs=3,
        action="append",
        default=[],
        metavar=("FRONT", "CLASSIFIER", "RUNS"),
        help="a row of a pipeline whose second model reads the first's last RUNS outputs",
    )
    add_write_option(parser)
    args = parser.parse_args(argv)
    rows = [_row([Path(f) for f in args.files], pipeline=False)]
    rows += [_row([Path(f) for f in pair], pipeline=True) for pair in args.pipeline]
    rows += [_row([Path(a), Path(b)], True, int(runs)) for a, b, runs in args.stacked]
    command = " ".join(args.files) + "".join(f" --pipeline {' '.join(p)}" for p in args.pipeline)
    command += "".join(f" --stacked {' '.join(s)}" for s in args.stacked)
    preamble = [
        f"`python tools/bench_c_models.py {command} --write` (this 2-core "
        "machine): the files imported and planned with their inputs and outputs in their "
        "workspace (`--plan-pools --use-workspace-io --constant-pool`), written as one "
        "library by `usmp-translate --emit-c-models` and linked with a main running each "
        "once (`cc -O2`, x86-64): *.bss* is the RAM the library holds (a C runtime's own "
        "`.bss` taken off), *each model's pools* what each needs alone. A pipeline is "
        "planned as one program (the first's output and the second's input one buffer, "
        "from the first's writer to the second's last reader, each model's other buffers "
        "its own); *before*: the two plans kept and the second's workspace shifted so that "
        "its input lies on the first's output, the workspace `--pipeline` made before. "
        "TFLM: the `tflite-micro` wheel's arena for each file (head: its tensors, inputs "
        "and outputs included; tail: its interpreter's persistent structures, variables, "
        "quantization data); *separate arenas*: the sum of both arenas; *one shared "
        "arena*: the bytes TFLM's multi-tenant allocator takes of one arena for both "
        "interpreters (one `MicroAllocator` handed to both, run by the wheel's own runtime "
        "through tools/tflm_shared_arena.py, since its Python API has no such "
        "interpreter); *our offline plans*: the same with each file planned by "
        "`--emit-tflite-plan`, a stacked pipeline's two planned jointly "
        "(tools/tflm_shared_arena.py: the stack in the second's input tensor, apart from "
        "every other tensor, the first's output its newest place); TFLM has no pipeline: its "
        "figures are the same for one, and the caller copies each output to the next "
        "input. A stacked pipeline (`--stack FRONT=RUNS`): the first model's outputs of its "
        "last RUNS runs, oldest first, are the second's inputs, kept in our workspace from "
        "run to run and counted in its `.bss`; TFLM's application keeps them in an array "
        "of its own (micro_speech's features), added to TFLM's figures (the `+` term after "
        "the tails). Bytes.",
    ]
    publish(markdown_section(TITLE, preamble, HEADER, rows), args)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
