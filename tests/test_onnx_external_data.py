"""ONNX external data (issue 33): a tensor stored in another file is read from the model's
own folder, whatever the current directory, and a location outside it (`../x`, an absolute
path) is one diagnostic: a model file cannot make the importer read any file it names."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

pytestmark = pytest.mark.tvm

WEIGHTS = np.arange(4, dtype=np.float32)


def _model_with_external_weight(path: Path, location: str) -> None:
    """`y = x + w`, `w`'s 16 bytes stored at `location`."""
    weight = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[4])
    weight.data_location = TensorProto.EXTERNAL
    for key, value in (("location", location), ("offset", "0"), ("length", "16")):
        weight.external_data.add(key=key, value=value)
    graph = helper.make_graph(
        [helper.make_node("Add", ["x", "w"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])],
        [weight],
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)


def _import(model: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "usmp_dialect.tools.usmp_translate", "--import-onnx", str(model)],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    """The model's folder, holding `w.bin`, and the current directory, which holds a
    decoy `w.bin` and the file `x` the crafted locations point at."""
    model_folder, elsewhere = tmp_path / "model", tmp_path / "elsewhere"
    model_folder.mkdir()
    elsewhere.mkdir()
    WEIGHTS.tofile(model_folder / "w.bin")
    (WEIGHTS + 100).tofile(elsewhere / "w.bin")
    (WEIGHTS + 200).tofile(tmp_path / "x")
    return model_folder, elsewhere


def test_external_data_is_read_next_to_the_model(folders: tuple[Path, Path]) -> None:
    model_folder, elsewhere = folders
    _model_with_external_weight(model_folder / "m.onnx", "w.bin")
    result = _import(model_folder / "m.onnx", cwd=elsewhere)
    assert result.returncode == 0, result.stderr
    # The weight's bytes, 0.0 1.0 2.0 3.0 as float32 after MLIR's 4-byte alignment header.
    assert 'w: "0x04000000000000000000803f0000004000004040"' in result.stdout


@pytest.mark.parametrize(
    ("location", "why"),
    [
        ("../x", "'../x' points outside the directory"),
        ("ABSOLUTE", "should be a relative path, but it is an absolute path"),
        ("missing.bin", "missing.bin"),
    ],
)
def test_external_data_outside_the_models_folder_is_one_diagnostic(
    folders: tuple[Path, Path], location: str, why: str
) -> None:
    model_folder, elsewhere = folders
    if location == "ABSOLUTE":
        location = str(model_folder.parent / "x")
    model = model_folder / "m.onnx"
    _model_with_external_weight(model, location)
    # From the model's folder `../x` exists, and from `elsewhere` a `missing.bin` would be
    # looked for in the current directory: neither is read.
    for cwd in (model_folder, elsewhere):
        result = _import(model, cwd=cwd)
        assert result.returncode == 1
        assert result.stdout == ""
        (line,) = result.stderr.splitlines()
        assert line.startswith(f"{model}: error: external data of the model cannot be read: ")
        assert why in line
