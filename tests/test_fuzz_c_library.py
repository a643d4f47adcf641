"""`usmp-translate --emit-c` on random planned modules: tensor and model names that are C
or C++ keywords, macros of the headers the library and its runner include, empty, not
ASCII or equal once made C identifiers; 0-d and zero-size tensors; many inputs and
outputs; int8, int32 and float32. Each run is exit status 0 with a library that builds
with its own Makefile (`-Wall -Wextra -Werror`), whose header also compiles as C++ (its
`extern "C"`) and as GNU C (where `linux` and `unix` are macros), and whose runner gives
the outputs the module computes; or exit status 1 with one diagnostic at the input and no
directory. Fixed seeds by default; `USMP_FUZZ_EXAMPLES=N` runs N with fresh seeds.
Output directories (existing, a file, a symlink, read-only): tests/test_c_library.py."""

from __future__ import annotations

import math
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("tvm")
pytestmark = [pytest.mark.tvm, pytest.mark.slow]

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from test_fuzz_inputs import check_run, fuzz_settings  # noqa: E402

from usmp_dialect.tools import usmp_translate  # noqa: E402
from usmp_dialect.tvm.c.library import c_identifier  # noqa: E402

NAMES = [
    # C11, C23 and C++ keywords
    *["int", "for", "main", "restrict", "_Bool", "bool", "typeof", "constexpr", "nullptr"],
    *["class", "new", "delete", "this", "template", "private", "and", "not", "xor_eq"],
    # macros of stdint.h, stddef.h, stdbool.h, math.h, stdio.h, unistd.h, fcntl.h, errno.h
    *["NULL", "EOF", "errno", "stdin", "INFINITY", "NAN", "SIZE_MAX", "INT8_MAX", "O_RDONLY"],
    *["true", "offsetof", "L_tmpnam", "st_atime", "linux", "unix", "math_errhandling"],
    # the runner's and the library's own names
    *["inputs", "outputs", "pools", "argc", "argv", "transfer", "size_t", "uint8_t"],
    # empty, not ASCII, equal once made identifiers (even upper-cased: the macros)
    *["", "größe", "张量", "\u00e9", "🙂", "a.b", "a_b", "A_B", "a-b", "0", "_", "__x", "x_1"],
]
MODEL_NAMES = ["model", "an547", "Makefile", "int", "NULL", "errno", "m"]
"""Those the tool takes (`run` and `startup` would name the runner's files:
tests/test_bad_inputs.py)."""
SHAPES = [(), (0,), (1,), (3,), (2, 3), (0, 3), (4, 0)]
DTYPES = {"f32": np.float32, "i32": np.int32, "i8": np.int8}


@dataclass(frozen=True)
class Module:
    """A planned `tir` entry: each output's element 0 is an input's element 0 plus a
    constant (the input `j % inputs` for output `j`, when both have elements)."""

    inputs: list[tuple[str, tuple[int, ...]]]
    outputs: list[tuple[str, tuple[int, ...]]]
    dtype: str
    model: str

    def text(self) -> str:
        def param(i: int, name: str, shape: tuple[int, ...]) -> str:
            dims = "".join(f"{d}x" for d in shape)
            quoted = name.replace("\\", "\\\\").replace('"', '\\"')
            return f'%t{i}: !tir.buffer<{dims}{self.dtype}> {{tir.name = "{quoted}"}}'

        tensors = [*self.inputs, *self.outputs]
        params = [param(i, name, shape) for i, (name, shape) in enumerate(tensors)]
        params.append('%pool: !tir.buffer<16xui8> {tir.name = "pool_of_the_plan"}')
        outputs = ", ".join(f'"{n}"' for n, _ in self.outputs)
        add = "arith.addf" if self.dtype == "f32" else "arith.addi"
        body = ["    %zero = arith.constant 0 : i32"]
        for j, (_, shape) in enumerate(self.outputs):
            if not math.prod(shape):
                continue
            k = j % len(self.inputs)
            constant = f"{j + 1}.0" if self.dtype == "f32" else str(j + 1)
            body.append(f"    %c{j} = arith.constant {constant} : {self.dtype}")
            value = f"%c{j}"
            if math.prod(self.inputs[k][1]):
                index = ", ".join(["%zero"] * len(self.inputs[k][1]))
                body.append(f"    %l{j} = tir.load %t{k}[{index}] : {self.dtype}")
                body.append(f"    %s{j} = {add} %l{j}, %c{j} : {self.dtype}")
                value = f"%s{j}"
            index = ", ".join(["%zero"] * len(shape))
            body.append(f"    tir.store {value}, %t{len(self.inputs) + j}[{index}]")
        return "\n".join(
            [
                "builtin.module {",
                f"  tir.prim_func @main({', '.join(params)}) attributes {{runner_function = "
                f"true, usmp.outputs = [{outputs}], "
                "usmp.pools = {pool_of_the_plan = 16 : i64}} {",
                *body,
                "  }",
                "}",
                "",
            ]
        )

    def expected(self, inputs: list[np.ndarray]) -> list[np.ndarray]:
        """What the runner writes: zeros (its output arrays' first value) where nothing
        is stored."""
        results = []
        for j, (_, shape) in enumerate(self.outputs):
            out = np.zeros(shape, DTYPES[self.dtype])
            if math.prod(shape):
                source = inputs[j % len(inputs)]
                base = source.reshape(-1)[0] if source.size else 0
                out.reshape(-1)[0] = DTYPES[self.dtype](base + j + 1)
            results.append(out)
        return results


@st.composite
def modules(draw: st.DrawFn) -> Module:
    # Distinct names (those equal once made C identifiers among them), now and then one
    # twice (a diagnostic: the interface names each tensor by its name).
    names = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=18, unique=True))
    if draw(st.integers(0, 9)) == 0:
        names[-1] = names[0]
    inputs = draw(st.integers(1, len(names) - 1))
    shapes = [draw(st.sampled_from(SHAPES)) for _ in names]
    tensors = list(zip(names, shapes, strict=True))
    return Module(
        tensors[:inputs],
        tensors[inputs:],
        draw(st.sampled_from(list(DTYPES))),
        draw(st.sampled_from(MODEL_NAMES)),
    )


def _compiles(command: list[str], directory: Path) -> None:
    done = subprocess.run(command, cwd=directory, capture_output=True, text=True)
    assert done.returncode == 0, (command, done.stderr)


def build_and_run(module: Module, library: Path, work: Path) -> None:
    """The library built by its Makefile, its header compiled as C++ and as GNU C, the
    runner run on random inputs: the outputs the module computes."""
    m = module.model
    sources = ["CMakeLists.txt", "Makefile", f"{m}.c", f"{m}.h", "run.c", "startup.c"]
    assert sorted(p.name for p in library.iterdir()) == sorted([*sources, "an386.ld", "an547.ld"])
    _compiles(["make", "-s"], library)
    (work / "header.cc").write_text(f'#include "{m}.h"\nint main() {{ return 0; }}\n')
    _compiles(["g++", "-fsyntax-only", "-Wall", "-Werror", "-I.", str(work / "header.cc")], library)
    gnu_object = str(work / "gnu11.o")
    _compiles(["cc", "-std=gnu11", "-Wall", "-Werror", "-c", f"{m}.c", "-o", gnu_object], library)
    rng = np.random.default_rng(0)
    dtype = DTYPES[module.dtype]
    inputs = [rng.integers(0, 50, shape).astype(dtype) for _, shape in module.inputs]
    paths = []
    for i, array in enumerate(inputs):
        paths.append(work / f"in{i}.bin")
        array.tofile(paths[-1])
    outputs = [work / f"out{j}.bin" for j in range(len(module.outputs))]
    done = subprocess.run(
        [str(library / "run"), *map(str, paths), *map(str, outputs)], capture_output=True
    )
    assert done.returncode == 0, done.stderr
    for path, expected in zip(outputs, module.expected(inputs), strict=True):
        np.testing.assert_array_equal(np.fromfile(path, dtype).reshape(expected.shape), expected)


@fuzz_settings(ci_examples=8)
@given(modules())
def test_fuzz_emit_c(module: Module) -> None:
    if shutil.which("make") is None or shutil.which("g++") is None:
        pytest.fail(
            "--emit-c's libraries are built with make and checked with g++: "
            "apt-get install -y build-essential"
        )
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        path = work / "planned.mlir"
        path.write_text(module.text())
        library = work / "lib"
        argv = ["--emit-c", str(library), str(path), "--model-name", module.model]
        if check_run(usmp_translate.main, argv, path, library, output_flag=False) is not None:
            build_and_run(module, library, work)


HEADERS = ["stdint.h", "stddef.h", "stdbool.h", "math.h", "string.h", "fcntl.h", "unistd.h"]
"""What the library and its runner include (the runner with `_POSIX_C_SOURCE`)."""


@pytest.mark.parametrize("compiler", ["cc", "arm-none-eabi-gcc"])
@pytest.mark.parametrize("dialect", ["c11", "gnu11"])
def test_no_identifier_is_a_macro_of_the_headers(compiler: str, dialect: str) -> None:
    """Every object-like macro the headers define (glibc's, newlib's), or the compiler in
    `dialect` (GNU C's `linux`), is made another identifier: as a member it would be
    replaced by its body."""
    if shutil.which(compiler) is None:
        pytest.fail(f"{compiler} is missing: apt-get install -y gcc gcc-arm-none-eabi")
    source = "#define _POSIX_C_SOURCE 200809L\n" + "".join(f"#include <{h}>\n" for h in HEADERS)
    done = subprocess.run(
        [compiler, f"-std={dialect}", "-dM", "-E", "-"],
        input=source,
        capture_output=True,
        text=True,
        check=True,
    )
    macros = {line.split()[1] for line in done.stdout.splitlines()}
    names = {m for m in macros if "(" not in m and not m.startswith("_")}
    assert len(names) > 100
    assert [name for name in sorted(names) if c_identifier(name) == name] == []
