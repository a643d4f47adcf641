"""TVM's legacy AOT params: an entry that reads its weights with `T.lookup_param`,
imported with the params' arrays (`--import-tvmscript --params`), planned with a constant
pool, emitted with the pool's bytes, built and run (pools prefilled with 0xFF, the constant
pool loaded from `--constants-out`), computes what numpy computes from the same arrays.
The reference is numpy's: TVM 0.27 has no runtime that answers `T.lookup_param`."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

from usmp_dialect.parsing import parse_module  # noqa: E402
from usmp_dialect.tools import usmp_opt, usmp_translate  # noqa: E402
from usmp_dialect.tvm.tvmscript.emitter import emit_module  # noqa: E402
from usmp_dialect.tvm.tvmscript.run import load_tvmscript, read_constant_pool, run_module  # noqa: E402

EXAMPLE = Path(__file__).parents[2] / "examples" / "tir" / "lookup_param.py"
PARAMS = EXAMPLE.with_suffix(".npz")


def _plan_and_emit(tmp_path: Path, pool_options: list[str]) -> tuple[Path, Path]:
    """The commands a user types, run in this process: import with the params, plan with a
    constant pool, emit the TVMScript and the constant pool's bytes."""
    imported, planned = tmp_path / "imported.mlir", tmp_path / "planned.mlir"
    script, constants = tmp_path / "planned.py", tmp_path / "w.bin"
    translate = ["--import-tvmscript", str(EXAMPLE), "--params", str(PARAMS), "-o", str(imported)]
    assert usmp_translate.main(translate) == 0
    assert usmp_opt.main([str(imported), "--plan-pools", *pool_options, "-o", str(planned)]) == 0
    emit = ["--emit-tvmscript", str(planned), "--constants-out", str(constants)]
    assert usmp_translate.main([*emit, "-o", str(script)]) == 0
    return script, constants


@pytest.mark.parametrize(
    "pool_options,pool",
    [(["--constant-pool"], "global_constant"), (["--pools", "flash:kind=constant"], "flash")],
)
def test_params_run_from_the_constant_pool(tmp_path: Path, pool_options, pool) -> None:
    script, constants = _plan_and_emit(tmp_path, pool_options)
    mod = load_tvmscript(str(script))
    offsets = mod["main"].attrs["usmp.io_offsets"]
    assert {name: str(offsets[name]["pool"]) for name in offsets} == {"w": pool, "b": pool}
    params = dict(np.load(PARAMS))
    data = constants.read_bytes()
    for name, array in params.items():
        start = int(offsets[name]["offset"])
        assert data[start : start + array.nbytes] == array.tobytes(), name
    inp = np.random.default_rng(7).standard_normal(8).astype("float32")
    out = run_module(mod, {"inp": inp}, pool_bytes=read_constant_pool(mod, str(constants)))
    expected = np.maximum(params["w"] @ inp + params["b"], 0)
    np.testing.assert_allclose(out["out"], expected, rtol=1e-6, atol=1e-6)
    assert [p.name for p in mod["main"].params] == ["inp", "out", "global_workspace", pool]


def test_legacy_example_param_goes_to_the_constant_pool(tmp_path: Path) -> None:
    """TVM's own USMP test module: its `p0` (read by an extern operator, whose view of it
    the import cannot see) becomes a constant of the array's shape, kept as `p0`."""
    params = tmp_path / "p0.npz"
    np.savez(params, p0=np.array([3], "int16"))
    legacy = EXAMPLE.parent / "legacy_usmp.py"
    imported, planned = tmp_path / "legacy.mlir", tmp_path / "planned.mlir"
    translate = ["--import-tvmscript", str(legacy), "--params", str(params)]
    assert usmp_translate.main([*translate, "-o", str(imported)]) == 0
    plan = [str(imported), "--plan-pools", "--constant-pool", "-o", str(planned)]
    assert usmp_opt.main(plan) == 0
    text = planned.read_text()
    assert 'p0 = constant "global_constant"[0] : memref<1xi16>' in text
    assert re.search(r"#usmp.pool_sizes<[^>]*\bglobal_constant = 2[,>]", text)
    assert "lookup_param" not in text


@pytest.mark.parametrize(
    "rename,arrays,message",
    [
        (
            None,
            {"w": ("float16", (4, 8)), "b": ("float32", (4,))},
            "43:32: error: param 'w' is float16[4, 8] in {params}, operator 'dense' reads it "
            "as float32[4, 8]",
        ),
        (
            ("t0", "w"),
            {"w": ("float32", (4, 8)), "b": ("float32", (4,))},
            "43:32: error: param 'w' has the name of a variable of the entry (a param, buffer "
            "or loop var); rename one of them",
        ),
    ],
)
def test_params_that_do_not_fit_are_one_diagnostic(
    tmp_path: Path, capsys, rename, arrays, message
) -> None:
    """What the FileCheck tests (import-tvmscript-params-errors.test) leave to one process:
    a dtype mismatch, and a lookup named as an intermediate of the entry."""
    source = tmp_path / "model.py"
    text = EXAMPLE.read_text()
    source.write_text(text if rename is None else re.sub(rf"\b{rename[0]}\b", rename[1], text))
    params = tmp_path / "params.npz"
    np.savez(params, **{n: np.zeros(shape, dtype) for n, (dtype, shape) in arrays.items()})
    with pytest.raises(SystemExit) as exit_status:
        usmp_translate.main(["--import-tvmscript", str(source), "--params", str(params)])
    assert exit_status.value.code == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"{source}:{message.format(params=params)}\n"


ENTRY_VIEW = """
from tvm.script import ir as I
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func
    def main(inp: T.Buffer((4,), "float32"), out: T.Buffer((4,), "float32")):
        T.func_attr({"runner_function": True})
        b = T.decl_buffer((4,), "float32", data=T.lookup_param("b", dtype="handle"))
        for i in T.serial(4):
            out[i] = inp[i] + b[i]
"""


def test_entry_that_views_a_param_itself_checks_it_and_runs(tmp_path: Path, capsys) -> None:
    source, params = tmp_path / "entry.py", tmp_path / "b.npz"
    source.write_text(ENTRY_VIEW)
    np.savez(params, b=np.zeros(3, "float32"))
    with pytest.raises(SystemExit):
        usmp_translate.main(["--import-tvmscript", str(source), "--params", str(params)])
    assert capsys.readouterr().err == (
        f"{source}:11:49: error: param 'b' is float32[3] in {params}, 'main' reads it as "
        "float32[4]\n"
    )
    b = np.array([1, -2, 3, -4], "float32")
    np.savez(params, b=b)
    imported = tmp_path / "entry.mlir"
    translate = ["--import-tvmscript", str(source), "--params", str(params), "-o", str(imported)]
    assert usmp_translate.main(translate) == 0
    module = parse_module(imported.read_text(), str(imported))
    mod = emit_module(module)
    inp = np.arange(4, dtype="float32")
    out = run_module(mod, {"inp": inp, "b": b})["out"]
    np.testing.assert_array_equal(out, inp + b)
