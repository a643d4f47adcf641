"""Apache TVM is an optional dependency (`usmp-dialect[tvm]`): without it, planning .mlir
and CSV works, and each feature that needs TVM says so in one diagnostic naming the extra."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from tools import check_relax_model
from usmp_dialect.tools import run_tvmscript, usmp_opt, usmp_translate

ROOT = Path(__file__).parents[1]
EXTRA = "needs Apache TVM: pip install -e '.[tvm]' in the usmp_dialect checkout"


@pytest.fixture
def without_tvm(monkeypatch: pytest.MonkeyPatch) -> None:
    """`import tvm` (and `tvm_ffi`, and any submodule) fails as it does when not installed;
    the TVM wing and the test harness, which import TVM at their top, are imported anew."""
    for name in [*sys.modules, "tvm", "tvm_ffi"]:
        if name.partition(".")[0] in ("tvm", "tvm_ffi"):
            monkeypatch.setitem(sys.modules, name, None)
        elif name.startswith(("usmp_dialect.tvm.", "tests.support.")):
            monkeypatch.delitem(sys.modules, name)


@pytest.mark.parametrize(
    "main, argv, message",
    [
        (
            usmp_translate.main,
            ["--import-tvmscript", str(ROOT / "examples/tir/chain.py")],
            f"usmp-translate: error: --import-tvmscript {EXTRA}",
        ),
        (
            usmp_translate.main,
            ["--emit-tvmscript", str(ROOT / "tests/filecheck/dialects/tir/ops.mlir")],
            f"usmp-translate: error: --emit-tvmscript {EXTRA}",
        ),
        (
            usmp_translate.main,
            ["--import-relax", f"{ROOT / 'examples/models/mlp.py'}:mlp"],
            f"usmp-translate: error: --import-relax {EXTRA}",
        ),
        (
            usmp_translate.main,
            [
                "--emit-c",
                "/nonexistent/never-written",
                str(ROOT / "tests/filecheck/inputs/tir/emit_c/copy.mlir"),
            ],
            f"usmp-translate: error: --emit-c {EXTRA}",
        ),
        (
            run_tvmscript.main,
            [str(ROOT / "examples/tir/chain.py")],
            f"run_tvmscript: error: running TVMScript {EXTRA}",
        ),
        (
            check_relax_model.main,
            [f"{ROOT / 'examples/models/mlp.py'}:mlp"],
            f"check_relax_model: error: checking a Relax model {EXTRA}",
        ),
    ],
)
def test_a_tvm_feature_without_tvm_is_one_error_naming_the_extra(
    without_tvm: None,
    capsys: pytest.CaptureFixture[str],
    main: Callable[[Sequence[str]], int],
    argv: list[str],
    message: str,
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(argv)
    assert exit.value.code == 1
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [message]
    assert captured.out == ""


def test_csv_and_mlir_plan_without_tvm(
    without_tvm: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    imported = tmp_path / "instance.mlir"
    csv = str(ROOT / "examples/csv/input.12.csv")
    assert usmp_translate.main(["--import-csv", csv, "-o", str(imported)]) == 0
    planned = tmp_path / "planned.mlir"
    assert usmp_opt.main([str(imported), "--plan-pools", "-o", str(planned)]) == 0
    assert usmp_translate.main(["--export-csv", str(planned)]) == 0
    assert capsys.readouterr().out.startswith("id,")


@pytest.mark.parametrize(
    "missing, flag, model",
    [
        ("onnx", "--import-tflite", "tests/data/tflm/audio_preprocessor_int8.tflite"),
        ("tflite", "--import-tflite", "tests/data/tflm/audio_preprocessor_int8.tflite"),
        ("onnx", "--import-onnx", "tests/data/tflm/README.md"),
    ],
)
def test_a_model_file_without_the_models_extra_is_one_error_naming_it(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    missing: str,
    flag: str,
    model: str,
) -> None:
    """TVM's ONNX frontend needs onnx as it is imported, for .tflite files too: without it
    the import was a traceback, before the importer could name the extra."""
    monkeypatch.setitem(sys.modules, missing, None)
    with pytest.raises(SystemExit) as exit:
        usmp_translate.main([flag, str(ROOT / model)])
    assert exit.value.code == 1
    assert capsys.readouterr().err.splitlines() == [
        f"{ROOT / model}: error: reading this model file needs the '{missing}' package: "
        "pip install -e '.[models]' in the usmp_dialect checkout"
    ]
