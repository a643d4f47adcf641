"""`dense_resource` blobs of .mlir inputs, mutated where byte mutations rarely land: a
blob's length changed (its hex cut or grown by whole bytes, or by one digit), its
alignment header replaced (0, 3, 2**31, 2**32-1), an entry duplicated, dropped or renamed,
a `dense_resource<key>` pointed at another key or a missing one, its tensor type changed
(another length, element type, 0 or 10**12 elements). Through `usmp-opt` (printed back,
and planned with a constant pool) and, with TVM, `--emit-tvmscript --constants-out` and
`--emit-c` of a planned module: each run is exit status 0 with output that parses
again (the blobs as they were read), or exit status 1 with one located diagnostic and no
output. Fixed seeds by default; `USMP_FUZZ_EXAMPLES=N` runs N with fresh seeds."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_fuzz_inputs import ROOT, check_run, fuzz_in, fuzz_settings, run

from usmp_dialect.formats import resources
from usmp_dialect.parsing import parse_module
from usmp_dialect.tools import usmp_opt, usmp_translate

INPUTS = ROOT / "tests/filecheck/inputs"


def _planned(path: Path) -> bytes:
    with tempfile.TemporaryDirectory() as directory:
        output = Path(directory) / "planned.mlir"
        code, _, err = run(
            usmp_opt.main, [str(path), "--plan-pools", "--constant-pool", "-o", str(output)]
        )
        assert code == 0, err
        return output.read_bytes()


CONSTANTS = INPUTS / "resources/constants.mlir"
SEEDS = [
    CONSTANTS.read_bytes(),
    (INPUTS / "resources/two_blobs.mlir").read_bytes(),
    (INPUTS / "tir/emit_c/state.mlir").read_bytes(),
]
PLANNED_SEEDS = [_planned(CONSTANTS)]

_ENTRY = re.compile(rb'^ *([\w$.]+): "0x([0-9a-fA-F]*)",?$', re.MULTILINE)
_REFERENCE = re.compile(rb"dense_resource<([\w$.]+)> : (tensor<[^>]*>)")
ALIGNMENTS = [b"00000000", b"03000000", b"00000080", b"ffffffff", b"0100000"]
TYPES = [b"tensor<5xf32>", b"tensor<4xf64>", b"tensor<0xf32>", b"tensor<3xi8>"]
TYPES += [b"tensor<1000000000000xf32>", b"tensor<2x2xf32>", b"tensor<i1>"]


@st.composite
def resource_mutated(draw: st.DrawFn, seeds: Sequence[bytes]) -> bytes:
    data = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 3))):
        entries = list(_ENTRY.finditer(data))
        references = list(_REFERENCE.finditer(data))
        entry = draw(st.sampled_from(entries)) if entries else None
        reference = draw(st.sampled_from(references)) if references else None
        kind = draw(
            st.sampled_from(["length", "digit", "alignment", "duplicate", "drop", "rename"])
            | st.sampled_from(["retarget", "retype"])
        )
        if entry is not None and kind in ("length", "digit", "alignment"):
            start = entry.start(2)
            at = draw(st.integers(start + 8, entry.end(2)))
            if kind == "length" and draw(st.booleans()):
                data = data[:at] + b"ab" * draw(st.integers(1, 5)) + data[at:]
            elif kind == "length":
                data = data[:at] + data[min(at + 2 * draw(st.integers(1, 5)), entry.end(2)) :]
            elif kind == "digit":
                data = data[:at] + b"7" + data[at:]
            else:
                data = data[:start] + draw(st.sampled_from(ALIGNMENTS)) + data[start + 8 :]
        elif entry is not None and kind == "duplicate":
            line = entry.group(0).rstrip(b",") + b","
            data = data[: entry.start()] + line + b"\n" + data[entry.start() :]
        elif entry is not None and kind == "drop":
            data = data[: entry.start()] + data[entry.end() + 1 :]
        elif entry is not None and kind == "rename":
            new = draw(st.sampled_from([b"missing", b"w", b"b.0", b"s"]))
            data = data[: entry.start(1)] + new + data[entry.end(1) :]
        elif reference is not None and kind == "retarget":
            key = draw(st.sampled_from([b"missing", b"w", b"b.0", b"s", b"t", b"short"]))
            data = data[: reference.start(1)] + key + data[reference.end(1) :]
        elif reference is not None and kind == "retype":
            new_type = draw(st.sampled_from(TYPES))
            data = data[: reference.start(2)] + new_type + data[reference.end(2) :]
    return data


def _same_blobs(text: str, path: Path) -> None:
    """What a run printed parses again, with the blobs of the input it read."""
    printed = parse_module(text, "printed.mlir")
    read = parse_module(path.read_text(), str(path))
    kept, original = resources.blobs_of(printed), resources.blobs_of(read)
    for name in kept.spans:
        assert bytes(kept.view(name)) == bytes(original.view(name))


@fuzz_settings(ci_examples=15)
@given(resource_mutated(SEEDS))
def test_fuzz_blobs_through_usmp_opt(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        path = fuzz_in(work, "blobs.mlir", data)
        printed = check_run(usmp_opt.main, [str(path)], path, work / "printed.mlir")
        if printed is not None:
            _same_blobs(printed, path)
        planned = check_run(
            usmp_opt.main,
            [str(path), "--plan-pools", "--constant-pool"],
            path,
            work / "planned.mlir",
        )
        if planned is not None:
            parse_module(planned, "planned.mlir")


@pytest.mark.tvm
@pytest.mark.slow
@fuzz_settings(ci_examples=6)
@given(resource_mutated(PLANNED_SEEDS), st.sampled_from(["constants-out", "emit-c"]))
def test_fuzz_blobs_of_a_planned_module(data: bytes, command: str) -> None:
    pytest.importorskip("tvm")
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        path = fuzz_in(work, "planned.mlir", data)
        if command == "emit-c":
            library = work / "lib"
            argv = ["--emit-c", str(library), str(path)]
            check_run(usmp_translate.main, argv, path, library, output_flag=False)
            return
        pool = work / "pool.bin"
        argv = ["--emit-tvmscript", str(path), "--constants-out", str(pool)]
        if check_run(usmp_translate.main, argv, path, work / "out.py") is None:
            assert not pool.exists()
