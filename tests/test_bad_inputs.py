"""The corpus of bad inputs (tests/bad_inputs/, one file a case) through the real console
scripts: each is exit status 1, exactly one diagnostic that says where, no traceback, and no
output file left behind.

A diagnostic about an input's text is `FILE:LINE:COL: error: ...`; about a file as a whole
(`-o` that cannot be written) `FILE: error: ...`; about the command line `TOOL: error: ...`.
"""

from __future__ import annotations

import dataclasses
import os
import re
import resource
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

CORPUS = Path(__file__).parent / "bad_inputs"
ROOT = Path(__file__).parent.parent
TOOLS = Path(sys.executable).parent
EXAMPLE_MLIR = ROOT / "examples" / "memref" / "chain.mlir"
EXAMPLE_CSV = ROOT / "examples" / "csv" / "input.12.csv"
AT_LINE = r"{input}:\d+:\d+"


@dataclass(frozen=True)
class Case:
    command: tuple[str, ...]
    """The tool and its arguments; `{input}` is the corpus file, `{output}` the `-o` file."""
    message: str
    """A fragment of the one diagnostic's message."""
    where: str = AT_LINE
    """The diagnostic's location, a regular expression over `{input}` and `{output}`."""
    stdin: str | None = None
    """A corpus file fed on standard input."""
    memory_guard: bool = False
    """The tool runs with its address space limited to `GUARD_BYTES`, so an input that
    makes it allocate without bound fails the test rather than the machine."""


GUARD_BYTES = 4 << 30


def opt(name: str, message: str, *extra: str) -> Case:
    return Case(("usmp-opt", str(CORPUS / name), "--plan-pools", *extra, "-o", "{output}"), message)


def dominance(name: str, line_and_column: str, message: str) -> Case:
    """A use its definition does not dominate: the diagnostic is at the use."""
    return dataclasses.replace(opt(name, message), where=f"{{input}}:{line_and_column}")


def translate(mode: str, name: str, message: str) -> Case:
    return Case(("usmp-translate", f"--{mode}", str(CORPUS / name), "-o", "{output}"), message)


def tflite(name: str, message: str) -> Case:
    """A `.tflite` file: its diagnostic is at the file (a binary has no lines)."""
    return dataclasses.replace(translate("import-tflite", name, message), where="{input}")


def emit_c(name: str, message: str, *extra: str) -> Case:
    """`--emit-c` into `{tmp}/lib`, under the memory guard: a library is refused before
    anything of its size is made."""
    command = ("usmp-translate", "--emit-c", "{tmp}/lib", str(CORPUS / name), *extra)
    return Case(command, message, memory_guard=True)


def guarded(name: str, message: str) -> Case:
    return dataclasses.replace(opt(name, message), memory_guard=True)


def model(function: str, message: str) -> Case:
    spec = f"{CORPUS / 'model_raises.py'}:{function}"
    return Case(("usmp-translate", "--import-relax", spec, "-o", "{output}"), message)


def bad_output(tool: tuple[str, ...], output: str, message: str) -> Case:
    return Case((*tool, "-o", output), message, where=output)


OPT_EXAMPLE = ("usmp-opt", str(EXAMPLE_MLIR), "--plan-pools")
TRANSLATE_EXAMPLE = ("usmp-translate", "--import-csv", str(EXAMPLE_CSV))
READ_ONLY = "{tmp}/read_only.mlir"

CASES = {
    "mlir-binary": opt("not_utf8_binary.mlir", "not UTF-8"),
    "mlir-latin-1": opt("not_utf8_latin1.mlir", "not UTF-8"),
    "mlir-surrogate": opt("not_utf8_surrogate.mlir", "not UTF-8"),
    "mlir-stdin-binary": Case(
        ("usmp-opt", "--plan-pools"), "not UTF-8", r"<stdin>:2:118", "not_utf8_binary.mlir"
    ),
    "mlir-unclosed-string": opt("unclosed_string.mlir", "before closing string literal"),
    "mlir-5000-digits": opt("integer_of_5000_digits.mlir", "5000 digits"),
    "offset-past-int64": opt(
        "offset_past_int64.mlir", "offset 18446744073709551616 is past the limit of 2**63-1"
    ),
    "alignment-past-int64": opt(
        "alignment_past_int64.mlir", "alignment 9223372036854775808 is past"
    ),
    "pool-alignment-past-int64": opt(
        "pool_alignment_past_int64.mlir", "pool alignment 9223372036854775808 is past"
    ),
    "size-hint-past-int64": opt(
        "pool_size_hint_past_int64.mlir", "pool size_hint 1180591620717411303424 is past"
    ),
    "pool-property-past-i64": opt(
        "pool_property_past_i64.mlir", "36893488147419103232 is out of range"
    ),
    "interval-past-int64": opt(
        "interval_past_int64.mlir", "live interval end 18446744073709551616 is past"
    ),
    "buffer-bytes-past-int64": opt(
        "buffer_bytes_past_int64.mlir",
        "holds 18446744073709551616 bytes, past the limit of 2**63-1",
    ),
    "alloc-bytes-past-int64": opt(
        "memref_alloc_bytes_past_int64.mlir", "holds 18446744073709551616 bytes"
    ),
    "offset-plus-size": opt("offset_plus_size_past_int64.mlir", "ends at byte 9223372036854775810"),
    "sizes-sum": opt(
        "sizes_sum_past_limit.mlir",
        "buffer 'b' brings the sum of buffer sizes and alignments to 1152921504606846978 bytes, "
        "past the limit of 2**60",
    ),
    "alignments-sum": opt("alignments_sum_past_limit.mlir", "buffer 'b' brings the sum"),
    "alignments-sum-report": opt(
        "alignments_sum_past_limit.mlir", "buffer 'b' brings the sum", "-t", "usmp-report"
    ),
    "nested-regions": opt("nested_regions.mlir", "ops nest deeper than the limit of 500 levels"),
    "nested-scf-for": opt("nested_scf_for.mlir", "ops nest deeper than the limit of 500 levels"),
    "operand-defined-in-own-region": opt(
        "operand_defined_in_own_region.mlir", "operand #2 does not dominate this use"
    ),
    "operand-defined-in-later-region": dominance(
        "operand_defined_in_later_region.mlir", "6:3", "operand #1 does not dominate this use"
    ),
    "use-before-definition-in-block": dominance(
        "use_before_definition_in_block.mlir", "5:3", "operand #0 does not dominate this use"
    ),
    "use-in-loop-before-definition": dominance(
        "use_in_loop_before_definition.mlir", "7:5", "operand #1 does not dominate this use"
    ),
    "forward-use-in-undominated-block": dominance(
        "forward_use_in_undominated_block.mlir", "6:3", "operand #0 does not dominate this use"
    ),
    "use-in-undominated-later-block": dominance(
        "use_in_undominated_later_block.mlir", "9:3", "operand #1 does not dominate this use"
    ),
    "tir-dimension-past-int32": translate(
        "emit-tvmscript",
        "tir_dimension_past_int32.mlir",
        "buffer dimension 4294967296 does not fit its index type i32",
    ),
    "liveness-i32-array": opt("liveness_i32_array.mlir", "Expected attribute i64 but got i32"),
    "liveness-f64-array": opt("liveness_f64_array.mlir", "Expected attribute i64 but got f64"),
    "liveness-index-disable-verify": opt(
        "liveness_index_out_of_range.mlir", "a buffer index is out of range", "--disable-verify"
    ),
    "func-type-integer": opt("func_type_integer.mlir", "0 : i32 should be of base attribute"),
    "array-i128": opt("array_i128.mlir", "elements of type i128 are not supported"),
    "dense-i128": opt("dense_i128.mlir", "elements of type i128 are not supported"),
    "cmpi-predicate": opt(
        "cmpi_predicate_out_of_range.mlir", "'arith.cmpi' predicate must be one of 0 to 9"
    ),
    "tir-empty-for-region": opt("tir_empty_for_region.mlir", "expected a single block"),
    "integer-width-past-limit": guarded(
        "integer_width_past_limit.mlir", "integer bitwidth is limited to 16777215 bits"
    ),
    "dense-splat-past-memory": guarded(
        "dense_splat_past_memory.mlir",
        "a dense literal of 1000000000000000 elements would need 9000000000000000 bytes",
    ),
    "effort-past-limit": Case(
        (*OPT_EXAMPLE, "--effort", "1e300", "-o", "{output}"),
        "effort 1e+300 is past the limit of 1e+06",
        "usmp-opt",
    ),
    "tir-use-before-definition": translate(
        "emit-tvmscript",
        "tir_use_before_definition.mlir",
        "operand #1 does not dominate this use",
    ),
    "tir-unknown-intrinsic": translate(
        "emit-tvmscript", "tir_unknown_intrinsic.mlir", "TVM has no intrinsic"
    ),
    "csv-latin-1": translate("import-csv", "not_utf8_latin1.csv", "not UTF-8"),
    "csv-stdin-latin-1": Case(
        ("usmp-translate", "--import-csv"), "not UTF-8", r"<stdin>:2:4", "not_utf8_latin1.csv"
    ),
    "csv-size-past-int64": translate(
        "import-csv",
        "size_past_int64.csv",
        "'size' is 1180591620717411303424, past the limit of 2**63-1",
    ),
    "csv-sizes-sum": translate("import-csv", "sizes_sum_past_limit.csv", "past the limit of 2**60"),
    "csv-time-past-int64": translate(
        "import-csv", "time_past_int64.csv", "'upper' is 18446744073709551616, past"
    ),
    "csv-5000-digits": translate(
        "import-csv", "size_of_5000_digits.csv", "'size' is a number of 5000 digits"
    ),
    "csv-negative-lower": translate(
        "import-csv", "negative_lower.csv", "'lower' must not be negative"
    ),
    "csv-offset-plus-size": translate(
        "import-csv", "offset_plus_size_past_int64.csv", "ends at byte 9223372036854775815"
    ),
    "tvmscript-latin-1": translate("import-tvmscript", "not_utf8_latin1.py", "not UTF-8"),
    "model-keyboard-interrupt": model(
        "keyboard_interrupt", "'keyboard_interrupt()' failed: KeyboardInterrupt"
    ),
    "model-base-exception": model(
        "base_exception", "'base_exception()' failed: Stop: the model gave up"
    ),
    "model-system-exit": model("system_exit", "'system_exit()' failed: SystemExit: 3"),
    "opt-output-missing-directory": bad_output(
        OPT_EXAMPLE, "{tmp}/missing/out.mlir", "No such file or directory"
    ),
    "opt-output-directory": bad_output(OPT_EXAMPLE, "{tmp}", "it is a directory"),
    "opt-output-read-only": bad_output(OPT_EXAMPLE, READ_ONLY, "the file is read-only"),
    "translate-output-missing-directory": bad_output(
        TRANSLATE_EXAMPLE, "{tmp}/missing/out.mlir", "No such file or directory"
    ),
    "translate-output-directory": bad_output(TRANSLATE_EXAMPLE, "{tmp}", "it is a directory"),
    "translate-output-read-only": bad_output(TRANSLATE_EXAMPLE, READ_ONLY, "the file is read-only"),
    "tflite-scale-nan": tflite("tflite_scale_nan.tflite", "tensor 0 ('input') has scale nan"),
    "tflite-scale-denormal": tflite(
        "tflite_scale_denormal.tflite", "tensor 3 ('output') has scale 9.99995e-41"
    ),
    "tflite-zero-point-out-of-range": tflite(
        "tflite_zero_point_out_of_range.tflite",
        "tensor 0 ('input') of type int8 has zero point 128, outside [-128, 127]",
    ),
    "tflite-per-channel-scales-short": tflite(
        "tflite_per_channel_scales_short.tflite",
        "tensor 1 ('weights') of shape [6, 16] has 5 scales, one a channel of its quantized "
        "dimension 0",
    ),
    "tflite-scales-past-the-end": tflite(
        "tflite_scales_past_the_end.tflite",
        "the quantization of tensor 0 ('input') runs past the file's end",
    ),
    "tflite-no-subgraph": tflite("tflite_no_subgraph.tflite", "corrupt: it has no subgraph"),
    "tflite-tensors-past-the-end": tflite(
        "tflite_tensors_past_the_end.tflite",
        "tensors holds 4294967280 entries, more than the file's bytes",
    ),
    "tflite-operator-input-out-of-range": tflite(
        "tflite_operator_input_out_of_range.tflite",
        "operator 0 of subgraph 0's inputs name 99, not one of 0..3",
    ),
    "tflite-constant-broadcast-past-memory": dataclasses.replace(
        tflite(
            "tflite_constant_broadcast_past_memory.tflite",
            "ADD operator 0, computing 's': 'relax.add' of constants alone would be computed "
            "at compile time into 268960000 bytes, past the limit of 268435456",
        ),
        memory_guard=True,
    ),
    "emit-c-constant-pool-past-2gib": emit_c(
        "emit_c_constant_pool_past_2gib.mlir",
        "pool 'global_constant' holds 3000000000 bytes, past 2**31-1",
    ),
    "emit-c-tensor-past-2gib": emit_c(
        "emit_c_tensor_past_2gib.mlir", "param 'out' holds 12000000000 bytes, past 2**31-1"
    ),
    "emit-c-duplicate-param-names": emit_c(
        "emit_c_duplicate_param_names.mlir", "params #0 and #1 of @main are both named 'x'"
    ),
    "emit-c-model-name-of-the-runner": dataclasses.replace(
        emit_c(
            "emit_c_duplicate_param_names.mlir",
            "--model-name run would name",
            "--model-name",
            "run",
        ),
        where="usmp-translate",
    ),
    "emit-c-unknown-target": dataclasses.replace(
        emit_c(
            "emit_c_duplicate_param_names.mlir",
            "unknown --target 'cortex-m4': the known targets are any, cortex-m55, portable, tvm",
            "--target",
            "cortex-m4",
        ),
        where="usmp-translate",
    ),
    "target-format": Case(
        (*OPT_EXAMPLE, "-t", "usmp-report{format=xml}"),
        "invalid target 'usmp-report{format=xml}'",
        "usmp-opt",
    ),
    "target-option": Case(
        (*OPT_EXAMPLE, "-t", "usmp-svg{colour=red}"),
        "invalid target 'usmp-svg{colour=red}'",
        "usmp-opt",
    ),
}


def limit_address_space() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (GUARD_BYTES, GUARD_BYTES))


def run_case(case: Case, tmp_path: Path) -> tuple[subprocess.CompletedProcess[str], Path, str]:
    output = tmp_path / "out.mlir"
    read_only = tmp_path / "read_only.mlir"
    read_only.write_text("kept\n")
    read_only.chmod(0o444)

    def expand(text: str, escape=lambda text: text) -> str:
        return text.replace("{output}", escape(str(output))).replace("{tmp}", escape(str(tmp_path)))

    command = [str(TOOLS / case.command[0]), *map(expand, case.command[1:])]
    stdin = (CORPUS / case.stdin).read_bytes() if case.stdin else b""
    completed = subprocess.run(
        command,
        input=stdin,
        capture_output=True,
        timeout=120,
        preexec_fn=limit_address_space if case.memory_guard else None,
    )
    result = subprocess.CompletedProcess(
        completed.args,
        completed.returncode,
        completed.stdout.decode("utf-8", "replace"),
        completed.stderr.decode("utf-8", "replace"),
    )
    corpus_file = re.compile(rf"{re.escape(str(CORPUS))}/[\w.]+")
    input_name = next((m[0] for a in case.command if (m := corpus_file.match(a))), "")
    where = expand(case.where, re.escape).replace("{input}", re.escape(input_name))
    return result, read_only, where


TVM_CASES = ("model-", "tvmscript-", "tir-dimension-", "tir-use-", "tir-unknown-", "emit-c-")
TVM_CASES += ("tflite-",)
"""Cases whose tool runs TVM (the `tvm` tier)."""


@pytest.mark.parametrize(
    "name",
    [pytest.param(n, marks=pytest.mark.tvm) if n.startswith(TVM_CASES) else n for n in CASES],
)
def test_bad_input_is_one_located_diagnostic(name: str, tmp_path: Path):
    case = CASES[name]
    result, read_only, where = run_case(case, tmp_path)
    assert "Traceback" not in result.stderr
    assert result.returncode == 1, result.stderr
    errors = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert len(errors) == 1, result.stderr
    assert re.match(f"{where}: error: ", errors[0]), (where, errors[0])
    assert case.message in errors[0]
    assert not (tmp_path / "out.mlir").exists()
    assert read_only.read_text() == "kept\n"
    assert [p.name for p in tmp_path.iterdir()] == ["read_only.mlir"], "a temporary file was left"
    assert result.stdout == ""


def test_output_replaces_a_file_whole_and_keeps_its_mode(tmp_path: Path):
    """The counterpart of the -o cases: a writable target is replaced, nothing else left."""
    from usmp_dialect.tools.usmp_translate import main

    output = tmp_path / "out.mlir"
    output.write_text("old\n")
    output.chmod(0o640)
    assert main(["--import-csv", str(EXAMPLE_CSV), "-o", str(output)]) == 0
    assert output.read_text().startswith("builtin.module {")
    assert os.stat(output).st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["out.mlir"]


def test_nesting_below_the_limit_plans(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """300 nested scf.for (the issue's case) are within the limit and plan."""
    from usmp_dialect.tools.usmp_opt import main

    depth = 300
    loops = "".join(f"scf.for %i{k} = %c0 to %c1 step %c1 {{\n" for k in range(depth))
    source = tmp_path / "deep.mlir"
    source.write_text(
        "func.func @main() {\n%c0 = arith.constant 0 : index\n%c1 = arith.constant 1 : index\n"
        + loops
        + "%m = memref.alloc() : memref<4xi8>\n"
        + "}\n" * depth
        + "func.return\n}\n"
    )
    assert main([str(source), "--plan-pools", "-t", "usmp-report"]) == 0
    assert "total 4 bytes in 1 pool(s)" in capsys.readouterr().out
