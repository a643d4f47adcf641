"""Every builtin operator TensorFlow Lite Micro's interpreter resolves, one operator at a
time, against TFLM:

    python tools/operator_table.py [--only OPERATOR ...] [--write docs/models.md]

For each case of tools/builtin_tflite.py (an operator on float32, int8 or int16 tensors):
the one-operator `.tflite` file is imported as `usmp-translate --import-tflite` imports it,
planned as `--plan-pools --use-workspace-io` plans it, emitted as the C library of
`--emit-c` (constants in a constant pool), built and run on this machine on random inputs
(`check_model` with the C executor), and its outputs compared with TFLM's interpreter's on
the same inputs. Each row is one of:

- exact: every output equal to TFLM's, bit for bit;
- float rounding: float32 outputs within 1e-5 relative (1e-6 absolute) of TFLM's, the
  largest difference given in absolute terms and in units in the last place;
- refused: our import or planning stops with a diagnostic, its first line given;
- wrong: an output differs from TFLM's (integers by any step, floats past rounding), or
  our side fails without a diagnostic (or the C library of a file that imported fails to
  build or run): a bug;
- TFLM fails: TFLM's interpreter rejects the file (a type its kernel does not take), its
  message given, or its kernel is at fault (`TFLM_FAULTS`, our side run all the same);
  not counted.

Builtins TFLM registers without a one-operator case (control flow, resource variables,
the stateful SVDF and LSTM compared by their own tests) are listed with why. Each case
runs in a child process, so that a crash is a row. With `--write FILE` the "Builtin
operators against TFLM" section of FILE is replaced (only when every case ran).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import numpy as np  # noqa: E402
from benchmark_sections import add_write_option, markdown_section, publish  # noqa: E402
from builtin_tflite import (  # noqa: E402
    CASES,
    NOT_ONE_OPERATOR,
    Case,
    custom_operator_tflite,
)

EXACT, FLOAT, REFUSED, WRONG, TFLM_FAILS = (
    "exact",
    "float rounding",
    "refused",
    "wrong",
    "TFLM fails",
)
RESULTS = (EXACT, FLOAT, REFUSED, WRONG)
RELATIVE, ABSOLUTE = 1e-5, 1e-6


class Row(NamedTuple):
    operator: str
    dtype: str
    result: str
    detail: str = ""


def _first_line(text: str) -> str:
    lines = [line.strip() for line in str(text).strip().splitlines() if line.strip()]
    return lines[0] if lines else ""


def _last_line(text: str) -> str:
    lines = [line.strip() for line in str(text).strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""


LIBRARY_FAILED = "the C library failed"
_WHY_NOT_QUANTIZED = " Quantized operators require explicit QDQ lowering"


def _reason(message: str) -> str:
    """A diagnostic's first line, without where in the file (one operator here) and
    without TVM's advice on quantized operators."""
    first = _first_line(message).partition("; the first is")[0]
    return first.partition(_WHY_NOT_QUANTIZED)[0]


def _tflm_outputs(path: str, inputs: list[np.ndarray]) -> list[np.ndarray] | str:
    """TFLM's outputs, or what it says when it rejects the file (the kernel's message,
    which it prints on the C side's stderr)."""
    from tests.support.reference_runtime import reference_outputs

    with tempfile.TemporaryFile("w+b") as captured:
        saved = os.dup(2)
        os.dup2(captured.fileno(), 2)
        try:
            return reference_outputs(path, inputs)
        except Exception as error:  # TFLM's kernel rejects the tensors or options
            os.dup2(saved, 2)
            captured.seek(0)
            said = captured.read().decode(errors="replace")
            return _first_line(said) or _first_line(str(error))
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def _compare(ours: list[np.ndarray], theirs: list[np.ndarray]) -> tuple[str, str]:
    """exact, float rounding (with its largest error) or wrong (with where it differs)."""
    worst_abs, worst_ulp = 0.0, 0
    for index, (mine, given) in enumerate(zip(ours, theirs, strict=True)):
        reference = np.asarray(given)
        if mine.shape != reference.shape or mine.dtype != reference.dtype:
            return WRONG, (
                f"output {index} is {mine.dtype}{list(mine.shape)}, TFLM's "
                f"{reference.dtype}{list(reference.shape)}"
            )
        if np.array_equal(mine, reference, equal_nan=mine.dtype.kind == "f"):
            continue
        difference = np.abs(mine.astype(np.float64) - reference.astype(np.float64))
        if mine.dtype.kind != "f":
            count = int(np.count_nonzero(difference))
            return WRONG, (
                f"output {index}: {count} of {mine.size} values differ, by up to "
                f"{difference.max():g}"
            )
        close = np.allclose(mine, reference, rtol=RELATIVE, atol=ABSOLUTE)
        if not close:
            return WRONG, f"output {index}: off by up to {difference.max():.3g}"
        ulps = np.abs(mine.view(np.int32).astype(np.int64) - reference.view(np.int32))
        worst_abs, worst_ulp = max(worst_abs, difference.max()), max(worst_ulp, int(ulps.max()))
    if worst_ulp == 0:
        return EXACT, ""
    return FLOAT, f"max abs {worst_abs:.2g}, {worst_ulp} ulp"


# Rows where TFLM's own kernel is at fault, its outputs not what the operator means (or,
# for SPACE_TO_BATCH_ND's padding, not the same from run to run).
TFLM_FAULTS = {
    ("GREATER", "int16"): "its int16 inputs are left unscaled (the wheel's ComparisonsPrepare "
    "scales int8 only): every answer is false",
    **{
        ("SPACE_TO_BATCH_ND", dtype): "its padded cells hold whatever its persistent "
        "buffer held (the wheel's kernel never sets SpaceToBatchParams' output_offset): "
        "they differ from run to run"
        for dtype in ("float32", "int8")
    },
}


def run_case(case: Case, seed: int = 0) -> Row:
    """The case imported, planned with its inputs and outputs in the workspace, emitted as
    the C library, built and run, and compared with TFLM on the same inputs."""
    outputs = case_outputs(case, case.inputs_of(seed))
    if isinstance(outputs, Row):
        return outputs
    return Row(case.operator, case.dtype, *_compare(*outputs))


def case_outputs(case: Case, given: list[np.ndarray]) -> Row | tuple[list, list]:
    """Our C library's outputs and TFLM's on the inputs `given`, or the row saying why
    there are none (refused, failing, TFLM failing or at fault)."""
    with tempfile.TemporaryDirectory(prefix="usmp-operator-") as folder:
        path = f"{folder}/{case.operator.lower()}_{case.dtype}.tflite"
        Path(path).write_bytes(case.tflite())
        theirs = _tflm_outputs(path, given)
        if isinstance(theirs, str):
            return Row(case.operator, case.dtype, TFLM_FAILS, theirs)
        ours = library_outputs(case, path, given)
    if isinstance(ours, Row):
        return ours
    if (case.operator, case.dtype) in TFLM_FAULTS:  # whatever TFLM's outputs were this run
        return Row(case.operator, case.dtype, TFLM_FAILS, TFLM_FAULTS[(case.operator, case.dtype)])
    return ours, theirs


def library_outputs(case: Case, path: str, given: list[np.ndarray]) -> Row | list[np.ndarray]:
    """The case's file at `path` imported, planned with its inputs and outputs in the
    workspace, emitted as the C library, built and run on `given` (sanitized too where
    the environment asks, tests/support/c_check.py): its outputs, or the row saying why
    there are none (refused, failing)."""
    from tests.support.model_check import check_model
    from usmp_dialect.diagnostics import LocatedError
    from usmp_dialect.tvm.model_files.loading import load_model_file
    from usmp_dialect.tvm.relax.to_tir import RelaxImportError, sanitize
    from usmp_dialect.tvm.tvmscript.importer import TVMScriptError
    from usmp_dialect.tvm_options import MODEL_FILE_TIR_IMPORT

    def row(result: str, detail: str = "") -> Row:
        return Row(case.operator, case.dtype, result, detail)

    try:
        mod, weights = load_model_file(path, "tflite")
    except (RelaxImportError, LocatedError) as error:
        return row(REFUSED, _reason(str(getattr(error, "message", error))))
    names = [sanitize(p.name) for p in mod["forward"].params if p.name not in weights]
    try:
        check = check_model(
            mod,
            weights,
            path,
            tir_import=MODEL_FILE_TIR_IMPORT,
            workspace_io=True,
            target="c",
            executor="c",
            inputs=dict(zip(names, given, strict=True)),
        )
    except (RelaxImportError, TVMScriptError, LocatedError) as error:
        message = str(getattr(error, "message", error))
        if message.startswith(LIBRARY_FAILED):  # it imported: the build or run broke
            return row(WRONG, f"fails: {_last_line(message)}")
        return row(REFUSED, _reason(message))
    except Exception as error:  # a failure without a diagnostic: a bug
        return row(WRONG, f"fails: {type(error).__name__}: {_last_line(str(error))}")
    return list((check.values or {}).values())


def npu_row() -> Row:
    """TFLM's ETHOS_U (the custom operator `ethos-u` Vela compiles NPU operators into):
    refused, its diagnostic saying the file was compiled for an NPU."""
    from usmp_dialect.tvm.model_files.loading import load_model_file
    from usmp_dialect.tvm.relax.to_tir import RelaxImportError

    with tempfile.TemporaryDirectory(prefix="usmp-operator-") as folder:
        path = Path(folder) / "ethos_u.tflite"
        path.write_bytes(custom_operator_tflite("ethos-u"))
        try:
            load_model_file(str(path), "tflite")
        except RelaxImportError as error:
            return Row("ETHOS_U (custom 'ethos-u')", "int8", REFUSED, _reason(error.message))
    return Row("ETHOS_U (custom 'ethos-u')", "int8", WRONG, "imports")


def _run_in_child(key: tuple[str, str]) -> Row:
    return run_case(CASES[key])


def run_cases(keys: list[tuple[str, str]]) -> list[Row]:
    """Each case in a child process (one at a time); a child that dies is a wrong row."""
    rows: list[Row] = []
    pool = ProcessPoolExecutor(max_workers=1)
    for key in keys:
        try:
            row = pool.submit(_run_in_child, key).result()
        except BrokenProcessPool:
            row = Row(*key, WRONG, "crashes (the process died)")
            pool = ProcessPoolExecutor(max_workers=1)
        rows.append(row)
        print(f"{row.operator:<28}{row.dtype:<9}{row.result:<16}{row.detail}", flush=True)
    pool.shutdown()
    return rows


def totals(rows: list[Row]) -> dict[str, Counter[str]]:
    """How many rows of each result, by type."""
    counts: dict[str, Counter[str]] = {}
    for r in rows:
        counts.setdefault(r.dtype, Counter())[r.result] += 1
    return counts


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def section(rows: list[Row], command: str) -> str:
    counted = totals(rows)
    kinds = [*RESULTS, TFLM_FAILS]
    summary = [
        f"- {dtype}: " + ", ".join(f"{counted[dtype][k]} {k}" for k in kinds if counted[dtype][k])
        for dtype in sorted(counted)
    ]
    overall = Counter(r.result for r in rows)
    preamble = [
        f"`{command}` builds a one-operator `.tflite` file for every builtin operator "
        "TensorFlow Lite Micro's interpreter resolves (the `tflite-micro` wheel's), in each "
        "tensor type its kernel takes (tools/builtin_tflite.py: broadcast operands, SAME "
        "padding, fused activations, inputs and outputs of other quantizations), imports "
        "it, plans it with its inputs and outputs in the workspace, emits, builds and runs "
        "the C library on random inputs and compares the outputs with TFLM's on the same "
        "inputs. *exact*: bit for bit; *float rounding*: float32 within 1e-5 relative of "
        "TFLM's (largest difference given); *refused*: our diagnostic's first line; "
        "*wrong*: a difference, a bug; *TFLM fails*: TFLM rejects the file itself (a type "
        "its kernel does not take) or its kernel is at fault, not counted. The same rows "
        "are asserted, a few of them, by tests/test_builtin_operators.py.",
        "",
        f"Totals of {len(rows)} rows: "
        + ", ".join(f"{overall[k]} {k}" for k in kinds if overall[k])
        + ".",
        "",
        *summary,
    ]
    table = [[r.operator, r.dtype, r.result, _cell(r.detail)] for r in rows]
    table += [[op, "", "not one operator", why] for op, why in sorted(NOT_ONE_OPERATOR.items())]
    return markdown_section(
        "## Builtin operators against TFLM",
        preamble,
        ["operator", "type", "result", "detail"],
        table,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="OPERATOR", help="these operators only")
    add_write_option(parser)
    args = parser.parse_args()
    keys = [k for k in CASES if not args.only or k[0] in args.only]
    rows = run_cases(keys)
    if not args.only:
        rows.append(npu_row())
    command = "python tools/operator_table.py" + (f" --write {args.write}" if args.write else "")
    publish(section(rows, command), args, complete=not args.only)


if __name__ == "__main__":
    main()
