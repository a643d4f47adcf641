"""int8 operators that TVM's frontend computes in float32 and TensorFlow Lite Micro in
integers (`usmp_dialect.tvm.model_files.int8_unweighted_kernels`): each on a one-operator
`.tflite` (tests/quantized_operator_tflite.py), planned, emitted as the C library of
`usmp-translate --emit-c`, built and run, gives TFLM's interpreter's values exactly, and
the Relax VM's."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
pytest.importorskip("tflite")
pytestmark = pytest.mark.tvm

from quantized_operator_tflite import (  # noqa: E402
    QUANTIZED_OPERATORS,
    operator_inputs,
    quantized_operator_tflite,
)

from tests.support import c_check  # noqa: E402
from tests.support.model_check import check_model  # noqa: E402
from tests.support.reference_runtime import reference_outputs  # noqa: E402
from usmp_dialect.tvm.model_files.loading import load_model_file  # noqa: E402
from usmp_dialect.tvm.relax.to_tir import sanitize  # noqa: E402
from usmp_dialect.tvm_options import MODEL_FILE_TIR_IMPORT  # noqa: E402


@pytest.mark.parametrize("name", QUANTIZED_OPERATORS)
def test_operator_gives_tflms_values(name: str, tmp_path: Path) -> None:
    """The C library's outputs equal TFLM's, to the last step, on inputs covering the
    operator's range (halfway points of a float32 QUANTIZE included)."""
    pytest.importorskip("tflite_micro")
    try:
        c_check.require_tools(qemu=False)
    except c_check.MissingTools as error:
        pytest.fail(str(error))
    path = tmp_path / f"{name}.tflite"
    path.write_bytes(quantized_operator_tflite(name))
    mod, weights = load_model_file(str(path), "tflite")
    names = [sanitize(p.name) for p in mod["forward"].params if p.name not in weights]
    given = operator_inputs(name)
    check = check_model(
        mod,
        weights,
        str(path),
        tir_import=MODEL_FILE_TIR_IMPORT,
        target="c",
        tolerance=0,
        executor="c",
        inputs=dict(zip(names, given, strict=True)),
    )
    assert all(o.agrees for o in check.outputs), check.outputs
    (ours,) = (check.values or {}).values()
    (theirs,) = reference_outputs(str(path), given)
    assert ours.dtype == theirs.dtype
    np.testing.assert_array_equal(ours, theirs)
