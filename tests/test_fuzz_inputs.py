"""Random bytes and random mutations of valid inputs (byte flips, truncations, splices,
duplications, inserted numbers and brackets) through both console scripts: each run ends in
exit status 0 with valid output, or exit status 1 with exactly one located diagnostic and no
output file, never a traceback. `test_fuzz_output_kinds` draws what `-o` names too (a new,
regular, read-only file, a symlink, a dangling one, a FIFO, a directory, a path in a missing
directory): a success writes what standard output gets, without replacing a link or FIFO; a
failure leaves every file as it was. Pipes and signals: tests/test_driver_io.py.

Generic-form IR (`"usmp.liveness"() <{...}>`) is mutated where the byte mutations rarely
reach: an attribute's value replaced by one of another type or out of range, an attribute
dropped, an op moved before the ops that define its operands. It goes through the passes
alone, with and without `--disable-verify`, the report and the TVMScript emitter.

The mains run in-process, for speed; `test_random_bytes_through_the_console_scripts` runs a
few through the real scripts. Fixed seeds by default; `USMP_FUZZ_EXAMPLES=5000` runs that
many examples a test, with fresh random seeds (see README).
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from usmp_dialect.formats.csv_instance import read_csv_instance
from usmp_dialect.parsing import parse_module
from usmp_dialect.tools import usmp_opt, usmp_translate

ROOT = Path(__file__).parent.parent
LONG_RUN = "USMP_FUZZ_EXAMPLES" in os.environ


def fuzz_settings(ci_examples: int) -> settings:
    return settings(
        max_examples=int(os.environ.get("USMP_FUZZ_EXAMPLES", ci_examples)),
        derandomize=not LONG_RUN,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def _planned_usmp() -> bytes:
    """chain.mlir lowered and planned in usmp form: pools, offsets and liveness to break."""
    code, out, err = run(
        usmp_opt.main,
        [
            str(ROOT / "examples/memref/chain.mlir"),
            "-p",
            "memref-to-usmp,usmp-assign-pools,usmp-plan",
        ],
    )
    assert code == 0, err
    return out.encode()


MLIR_SEEDS = [
    (ROOT / "examples/memref/chain.mlir").read_bytes(),
    (ROOT / "tests/filecheck/translate/emit-tvmscript.mlir").read_bytes(),  # tir dialect
    (ROOT / "tests/filecheck/inputs/too_small.mlir").read_bytes(),
]
CSV_SEEDS = [
    (ROOT / "examples/csv/input.12.csv").read_bytes(),
    (ROOT / "tests/filecheck/inputs/hill_climb_five.csv").read_bytes(),
]
TVMSCRIPT_SEEDS = [(ROOT / "examples/tir/chain.py").read_bytes()]
# Inserted whole: numbers at and past the limits, brackets, sigils, bytes that are not UTF-8.
TOKENS = [
    b"9" * 30,
    b"9" * 5000,
    b"18446744073709551616",
    b"9223372036854775807",
    b"1152921504606846976",
    b"2147483648",
    b"-1",
    b"0",
    b"\xff",
    b"\xed\xa0\x80",
    b"{",
    b"}",
    b"(",
    b")",
    b"[",
    b"]",
    b"<",
    b">",
    b"%",
    b"@",
    b'"',
    b",",
    b"\n",
    b"?",
    b"x",
]


@st.composite
def mutated(draw: st.DrawFn, seeds: Sequence[bytes]) -> bytes:
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        end = draw(st.integers(at, min(len(data), at + 300)))
        match draw(st.sampled_from(["flip", "truncate", "splice", "duplicate", "delete", "token"])):
            case "flip" if at < len(data):
                data[at] ^= 1 << draw(st.integers(0, 7))
            case "truncate":
                del data[at:]
            case "splice":
                other = draw(st.sampled_from(seeds))
                start = draw(st.integers(0, len(other)))
                data[at:end] = other[start : start + draw(st.integers(0, 300))]
            case "duplicate":
                data[at:at] = data[at:end]
            case "delete":
                del data[at:end]
            case "token":
                data[at:at] = draw(st.sampled_from(TOKENS))
    return bytes(data)


def inputs(seeds: Sequence[bytes]) -> st.SearchStrategy[bytes]:
    return st.one_of(st.binary(max_size=400), mutated(seeds), mutated(seeds))


def run(main: Callable[[list[str]], int], argv: list[str]) -> tuple[int, str, str]:
    """A main's exit status, standard output and standard error; an exception that is not
    SystemExit propagates, failing the test (it would be a traceback)."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exit:
            code = exit.code
    return code, out.getvalue(), err.getvalue()


def check_run(
    main: Callable[[list[str]], int],
    argv: list[str],
    input_path: Path,
    output: Path,
    output_flag: bool = True,
) -> str | None:
    """Runs the tool with `-o output` (or, not `output_flag`, with `argv` naming `output`,
    a directory); the output text (a directory's: "") on success, None on a diagnostic."""
    code, _, err = run(main, [*argv, "-o", str(output)] if output_flag else argv)
    assert "Traceback" not in err
    if code == 0:
        assert output.exists(), err
        return output.read_text() if output_flag else ""
    assert code == 1, (code, err)
    errors = [line for line in err.splitlines() if ": error: " in line]
    assert len(errors) == 1, err
    assert re.match(rf"{re.escape(str(input_path))}(:\d+:\d+)?: error: ", errors[0]), errors[0]
    assert not output.exists()
    return None


def plan_mlir(path: Path, work: Path) -> None:
    planned = check_run(
        usmp_opt.main, [str(path), "--plan-pools", "--time-limit", "1"], path, work / "planned.mlir"
    )
    if planned is not None:
        parse_module(planned, "planned.mlir")  # valid: it parses and verifies
    report = check_run(
        usmp_opt.main,
        [str(path), "--plan-pools", "--time-limit", "1", "-t", "usmp-report{format=json}"],
        path,
        work / "report.json",
    )
    assert report is None or report.startswith("{")


def export_csv(path: Path, work: Path) -> None:
    exported = check_run(usmp_translate.main, ["--export-csv", str(path)], path, work / "out.csv")
    if exported is not None:
        read_csv_instance(exported, "out.csv")


def fuzz_in(work: Path, name: str, data: bytes) -> Path:
    path = work / name
    path.write_bytes(data)
    return path


@fuzz_settings(ci_examples=20)
@given(inputs(MLIR_SEEDS))
def test_fuzz_mlir(data: bytes):
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        path = fuzz_in(work, "fuzz.mlir", data)
        plan_mlir(path, work)


@fuzz_settings(ci_examples=15)
@given(mutated([_planned_usmp()]))
def test_fuzz_planned_usmp(data: bytes):
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        path = fuzz_in(work, "fuzz_planned.mlir", data)
        export_csv(path, work)
        plan_mlir(path, work)


def import_and_plan(data: bytes, name: str, import_flag: str) -> None:
    """Imports `data` as file `name`; what imports cleanly is planned too."""
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        path = fuzz_in(work, name, data)
        imported = work / "imported.mlir"
        if check_run(usmp_translate.main, [import_flag, str(path)], path, imported) is not None:
            plan_mlir(imported, work)


@fuzz_settings(ci_examples=30)
@given(inputs(CSV_SEEDS))
def test_fuzz_csv(data: bytes):
    import_and_plan(data, "fuzz.csv", "--import-csv")


@pytest.mark.slow
@fuzz_settings(ci_examples=10)
@given(inputs(TVMSCRIPT_SEEDS))
def test_fuzz_tvmscript(data: bytes):
    import_and_plan(data, "fuzz.py", "--import-tvmscript")


@pytest.mark.slow
@fuzz_settings(ci_examples=10)
@given(mutated(MLIR_SEEDS[1:2]))
def test_fuzz_emit_tvmscript(data: bytes):
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        path = fuzz_in(work, "tir.mlir", data)
        check_run(usmp_translate.main, ["--emit-tvmscript", str(path)], path, work / "out.py")


@pytest.mark.parametrize(
    ("command", "suffix"),
    [(["usmp-opt", "--plan-pools"], ".mlir"), (["usmp-translate", "--import-csv"], ".csv")],
)
def test_random_bytes_through_the_console_scripts(command: list[str], suffix: str, tmp_path: Path):
    path = tmp_path / f"random{suffix}"
    path.write_bytes(random.Random(12).randbytes(300))
    output = tmp_path / "out"
    tool = str(Path(sys.executable).parent / command[0])
    completed = subprocess.run(
        [tool, *command[1:], str(path), "-o", str(output)], capture_output=True, text=True
    )
    assert completed.returncode == 1
    assert "Traceback" not in completed.stderr
    assert re.fullmatch(rf"{re.escape(str(path))}:\d+:\d+: error: [^\n]*\n", completed.stderr)
    assert not output.exists()


def _generic(path: Path, passes: str | None = None) -> bytes:
    """The file, through `passes`, in generic form: every attribute written out."""
    code, out, err = run(
        usmp_opt.main,
        [str(path), "--print-op-generic", *(["-p", passes] if passes else [])],
    )
    assert code == 0, err
    return out.encode()


GENERIC_USMP_SEEDS = [
    _generic(ROOT / "examples/memref/chain.mlir", "memref-to-usmp"),
    _generic(ROOT / "examples/memref/chain.mlir", "memref-to-usmp,usmp-assign-pools,usmp-plan"),
]
GENERIC_TIR_SEEDS = [
    _generic(ROOT / "tests/filecheck/translate/emit-tvmscript.mlir"),
    _generic(ROOT / "tests/filecheck/translate/emit-tvmscript.mlir", "tir-to-usmp"),
]
WRONG_VALUES = [
    b"0 : i32",
    b"-1 : i64",
    b"9223372036854775807 : i64",
    b"18446744073709551615 : ui64",
    b"1.5 : f32",
    b'"s"',
    b'""',
    b"unit",
    b"@main",
    b"@missing",
    b"[]",
    b"{}",
    b'["a", "a"]',
    b"array<i64>",
    b"array<i64: -1, 5>",
    b"array<i32: 0, 1>",
    b"array<i8: 1>",
    b"array<f64: 1.0>",
    b"array<i128: 1>",
    b"dense<1> : tensor<2xi64>",
    b"dense<[1, 2]> : tensor<2xi128>",
    b"i32",
    b"i99999999999",
    b"memref<4xi8>",
    b"() -> ()",
    b"(i32) -> i32",
    b"#usmp<pool_kind constant>",
    b"#tir<for_kind unrolled>",
    b"!tir.buffer<16xf32>",
    b"!tir.ptr<f32>",
]
_ATTRIBUTE_NAME = re.compile(rb"\b[A-Za-z_][\w.]* = ")
_CLOSING = {ord(")"), ord("]"), ord("}"), ord(">")}
_OPENING = {ord("("), ord("["), ord("{"), ord("<")}


def _value_end(text: bytes, start: int) -> int:
    """Where the attribute value at `start` ends: the `,` or closing bracket after it."""
    depth, quoted, at = 0, False, start
    while at < len(text):
        byte = text[at]
        if quoted:
            at += byte == ord("\\")
            quoted = byte != ord('"')
        elif byte == ord('"'):
            quoted = True
        elif byte in _OPENING:
            depth += 1
        elif byte in _CLOSING and not (byte == ord(">") and text[at - 1] == ord("-")):
            if depth == 0:
                return at
            depth -= 1
        elif byte == ord(",") and depth == 0:
            return at
        at += 1
    return at


@st.composite
def generic_mutated(draw: st.DrawFn, seeds: Sequence[bytes]) -> bytes:
    data = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 3))):
        entries = [(m.start(), m.end()) for m in _ATTRIBUTE_NAME.finditer(data)]
        start, value = draw(st.sampled_from(entries))
        end = _value_end(data, value)
        match draw(st.sampled_from(["replace", "replace", "copy", "drop", "move-op"])):
            case "replace":
                data = data[:value] + draw(st.sampled_from(WRONG_VALUES)) + data[end:]
            case "copy":
                _, other_value = draw(st.sampled_from(entries))
                data = data[:value] + data[other_value : _value_end(data, other_value)] + data[end:]
            case "drop":
                data = data[:start] + data[end + 2 if data[end : end + 2] == b", " else end :]
            case "move-op":
                lines = data.split(b"\n")
                line = lines.pop(draw(st.integers(0, len(lines) - 1)))
                lines.insert(draw(st.integers(0, len(lines))), line)
                data = b"\n".join(lines)
    return data


GENERIC_COMMANDS = [
    ["--plan-pools"],
    ["--plan-pools", "--disable-verify"],
    ["--plan-pools", "-t", "usmp-report{format=json}", "--disable-verify"],
    ["--plan-pools", "-t", "usmp-svg"],
    ["--disable-verify"],
    ["-p", "usmp-assign-pools,usmp-plan", "--disable-verify"],
    ["-p", "usmp-to-memref", "--disable-verify"],
    ["-p", "memref-to-usmp", "--disable-verify"],
    ["-p", "tir-hoist-workspaces,tir-io-to-allocations,tir-to-usmp", "--disable-verify"],
    ["-p", "usmp-to-tir", "--disable-verify"],
]


@fuzz_settings(ci_examples=40)
@given(
    st.one_of(generic_mutated(GENERIC_USMP_SEEDS), generic_mutated(GENERIC_TIR_SEEDS)),
    st.sampled_from(GENERIC_COMMANDS),
)
def test_fuzz_generic_attributes(data: bytes, command: list[str]):
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        path = fuzz_in(work, "generic.mlir", data)
        check_run(usmp_opt.main, [str(path), *command], path, work / "out.mlir")
        export_csv(path, work)


@pytest.mark.slow
@fuzz_settings(ci_examples=15)
@given(generic_mutated(GENERIC_TIR_SEEDS))
def test_fuzz_generic_emit_tvmscript(data: bytes):
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        path = fuzz_in(work, "generic_tir.mlir", data)
        check_run(usmp_translate.main, ["--emit-tvmscript", str(path)], path, work / "out.py")


OUTPUT_KINDS = ["new", "regular", "read-only", "symlink", "dangling symlink", "fifo", "directory"]
OUTPUT_KINDS += ["in a missing directory"]


def make_output(work: Path, kind: str) -> Path:
    """An `-o` target of the given kind, in `work`."""
    output = work / "out" / "output"
    output.parent.mkdir()
    match kind:
        case "regular" | "read-only":
            output.write_text("old")
            output.chmod(0o444 if kind == "read-only" else 0o644)
        case "symlink" | "dangling symlink":
            target = work / "out" / "target"
            if kind == "symlink":
                target.write_text("old")
            output.symlink_to(target)
        case "fifo":
            os.mkfifo(output)
        case "directory":
            output.mkdir()
        case "in a missing directory":
            output = work / "out" / "missing" / "output"
    return output


def snapshot(directory: Path) -> dict[str, tuple[int, str]]:
    """Each entry under `directory`: its file type, and a regular file's text."""
    found = {}
    for path in sorted(directory.rglob("*")):
        mode = path.lstat().st_mode
        text = path.read_text() if stat.S_ISREG(mode) else ""
        found[str(path.relative_to(directory))] = (stat.S_IFMT(mode), text)
    return found


def run_into_fifo(argv: list[str], fifo: Path) -> tuple[int, str, str, bytes]:
    """The run, with a reader on the FIFO; what the reader got."""
    received = bytearray()

    def read_all() -> None:
        with open(fifo, "rb") as reader:
            received.extend(reader.read())

    reader = threading.Thread(target=read_all)
    reader.start()
    code, out, err = run(usmp_opt.main, argv)
    # A run that never opened the FIFO leaves the reader waiting for a writer: be one.
    with contextlib.suppress(OSError):
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    reader.join(timeout=60)
    return code, out, err, bytes(received)


@fuzz_settings(ci_examples=20)
@given(st.one_of(st.just(MLIR_SEEDS[0]), mutated(MLIR_SEEDS[:1])), st.sampled_from(OUTPUT_KINDS))
def test_fuzz_output_kinds(data: bytes, kind: str):
    """Whatever `-o` names: a success writes exactly what standard output would get, into
    the file (a symlink's target, a FIFO) without replacing what is not a regular file; a
    failure is one diagnostic and leaves every file as it was."""
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        path = fuzz_in(work, "fuzz.mlir", data)
        argv = [str(path), "--plan-pools", "--time-limit", "1"]
        code, expected, _ = run(usmp_opt.main, argv)
        output = make_output(work, kind)
        before = snapshot(work / "out")
        argv += ["-o", str(output)]
        if kind == "fifo":
            code_with_output, _, err, received = run_into_fifo(argv, output)
        else:
            code_with_output, _, err = run(usmp_opt.main, argv)
        assert "Traceback" not in err
        after = snapshot(work / "out")
        if code_with_output == 1:
            assert len([line for line in err.splitlines() if ": error: " in line]) == 1, err
            assert after == before
            return
        assert code == code_with_output == 0, err
        written = (
            received.decode() if kind == "fifo" else Path(os.path.realpath(output)).read_text()
        )
        assert written == expected
        created = {"new": "output", "dangling symlink": "target"}
        expected_modes = {name: mode for name, (mode, _) in before.items()}
        if kind in created:
            expected_modes[created[kind]] = stat.S_IFREG
        assert {name: mode for name, (mode, _) in after.items()} == expected_modes
