"""Planned TIR that TVM builds and runs computes what the un-planned module computes.

Each example goes through `--plan-pools` (tir-to-usmp, usmp-plan, usmp-to-tir), is emitted
as TVMScript, built with `tvm.compile` (target `c`, and `llvm` with TBAA off) and run on
random inputs with the pool prefilled with 0xFF; every output equals the un-planned
module's, built the same way. Hypothesis adds random elementwise operator chains.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from usmp_dialect.tvm.tvmscript.importer import parse_tvmscript  # noqa: E402
from usmp_dialect.tvm.tvmscript.planned_module import plan_module  # noqa: E402
from usmp_dialect.tvm.tvmscript.run import (  # noqa: E402
    generate_code,
    io_tensors,
    random_inputs,
    run_module,
)

EXAMPLES = Path(__file__).parents[2] / "examples" / "tir"

# (example, targets). TVM 0.27's C back end has no vector types, so `loops` (a vectorized
# loop) runs on llvm only; neither back end builds a parallel loop inside a private
# operator, even un-planned, so its parallel loop runs serially here.
RUNNABLE = [
    ("chain", ("c", "llvm")),
    ("branch_concat", ("c", "llvm")),
    ("same_op_twice", ("c", "llvm")),
    ("loops", ("llvm",)),
]


def _load(name: str):
    text = (EXAMPLES / f"{name}.py").read_text()
    if name == "loops":
        text = text.replace("T.parallel(", "T.serial(")
    return parse_tvmscript(text, f"{name}.py")


def _same_outputs(reference: dict, planned: dict) -> None:
    assert reference.keys() == planned.keys()
    for name, expected in reference.items():
        np.testing.assert_array_equal(planned[name], expected, err_msg=name)


@pytest.mark.parametrize("name,target", [(name, t) for name, targets in RUNNABLE for t in targets])
def test_example_runs_planned(name: str, target: str) -> None:
    mod = _load(name)
    planned = plan_module(mod)
    entry = planned["main"]
    assert "usmp.pools" in entry.attrs
    assert any(p.name == "global_workspace" for p in entry.params)
    _same_outputs(run_module(mod, target=target), run_module(planned, target=target))


@pytest.mark.parametrize("name", [name for name, _ in RUNNABLE])
def test_example_runs_with_its_io_in_the_pool(name: str) -> None:
    """`--use-workspace-io`: the application writes the inputs into the pool and reads the
    outputs from it, at the offsets the entry publishes; the outputs are the same."""
    mod = _load(name)
    planned = plan_module(mod, workspace_io=True)
    entry = planned["main"]
    assert [p.name for p in entry.params] == ["global_workspace"]
    kinds = {name: t.kind for name, t in io_tensors(entry).items()}
    # loops' kernel reads back what it wrote to its output: TVM's rule makes that an
    # input_output (TVM refused it), live for the whole program.
    assert kinds == {"inp": "input", "out": "input_output" if name == "loops" else "output"}
    inputs = random_inputs(mod)
    reference = run_module(mod, inputs, target="llvm")
    outputs = run_module(planned, inputs, target="llvm")
    assert outputs.keys() == {"out"}
    _same_outputs({n: reference[n] for n in outputs}, outputs)


def test_io_in_the_pool_costs_at_most_its_bytes() -> None:
    # chain's input dies before its last operator and its output is born after the first:
    # both fit in bytes the intermediates leave free, so the pool does not grow.
    mod = _load("chain")
    plain = int(plan_module(mod)["main"].attrs["usmp.pools"]["global_workspace"])
    with_io = int(
        plan_module(mod, workspace_io=True)["main"].attrs["usmp.pools"]["global_workspace"]
    )
    assert plain == with_io == 136


def test_loops_example_keeps_its_parallel_allocation() -> None:
    planned = plan_module(parse_tvmscript((EXAMPLES / "loops.py").read_text(), "loops.py"))
    text = planned.script()
    assert "tmp = T.alloc_buffer" in text and "pair = T.alloc_buffer" in text
    assert "row = T.decl_buffer" in text and "mid = T.decl_buffer" in text


def test_legacy_example_builds_with_c() -> None:
    # Its entry takes raw handles and reads `T.lookup_param`, which needs a runtime with
    # bound params: its code is generated, not compiled or run. (`--params` binds them as
    # constants: test_lookup_param.py.)
    planned = plan_module(parse_tvmscript((EXAMPLES / "legacy_usmp.py").read_text(), "legacy"))
    assert int(planned["__tvm_main__"].attrs["usmp.pools"]["global_workspace"]) > 0
    generate_code(planned, "c")


def test_command_line_pipeline_and_runner(tmp_path: Path) -> None:
    """The commands a user types: translate, plan, emit, then build and run."""
    imported = subprocess.run(
        ["usmp-translate", "--import-tvmscript", str(EXAMPLES / "chain.py")],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    planned = subprocess.run(
        ["usmp-opt", "--plan-pools"], input=imported, check=True, capture_output=True, text=True
    ).stdout
    emitted = subprocess.run(
        ["usmp-translate", "--emit-tvmscript"],
        input=planned,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = tmp_path / "planned.py"
    path.write_text(emitted)
    runner = Path(__file__).parents[2] / "tools" / "run_tvmscript.py"
    result = subprocess.run(
        [sys.executable, str(runner), str(path), "--target", "c"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert "pool global_workspace: 136 bytes" in result
    assert "out float32[16]" in result


def test_run_tvmscript_on_a_private_entry_is_one_diagnostic(tmp_path, capsys) -> None:
    from usmp_dialect.parsing import parse_module
    from usmp_dialect.tools.run_tvmscript import main
    from usmp_dialect.tvm.tvmscript.emitter import emit_tvmscript

    text = (EXAMPLES.parent / "bands" / "chain.mlir").read_text()
    attributes = ' attributes {global_symbol = "main", runner_function = true, tirx.noalias = true}'
    assert attributes in text
    path = tmp_path / "private.py"
    path.write_text(emit_tvmscript(parse_module(text.replace(attributes, ""), "chain.mlir")))
    with pytest.raises(SystemExit) as exit_status:
        main([str(path), "--target", "llvm"])
    assert exit_status.value.code == 1
    captured = capsys.readouterr()
    assert captured.err.startswith(f"{path}: error: the entry function main is private")
    assert "Traceback" not in captured.err and captured.out == ""


# ------------------------------------------------------------------ random operator chains

_BODIES = {
    "scale": (1, "y[i] = a0[i] * T.float32(1.5)"),
    "relu": (1, "y[i] = T.max(a0[i], T.float32(0))"),
    "add": (2, "y[i] = a0[i] + a1[i]"),
    "sub": (2, "y[i] = a0[i] - a1[i]"),
}


def chain_source(ops: list[tuple[str, list[int]]], n: int) -> str:
    """TVMScript: operator k reads values `srcs` of [inp, t0, t1, ...] and writes t_k (the
    last writes `out`); `smooth` has a workspace of its own."""
    lines = ["@I.ir_module", "class Module:"]
    for k, (kind, srcs) in enumerate(ops):
        params = ", ".join(
            [f'a{j}_ptr: T.handle("float32")' for j in range(len(srcs))]
            + ['y_ptr: T.handle("float32")']
        )
        lines += ["    @T.prim_func(private=True)", f"    def op{k}({params}):"]
        for j in range(len(srcs)):
            lines.append(f'        a{j} = T.decl_buffer(({n},), "float32", data=a{j}_ptr)')
        lines.append(f'        y = T.decl_buffer(({n},), "float32", data=y_ptr)')
        if kind == "smooth":
            lines += [
                f'        ws = T.alloc_buffer(({n},), "float32")',
                f"        for i in T.serial({n}):",
                "            ws[i] = a0[i] * T.float32(2)",
                f"        for i in T.serial({n}):",
                f"            y[i] = ws[i] + ws[{n - 1} - i]",
            ]
        else:
            lines += [f"        for i in T.serial({n}):", f"            {_BODIES[kind][1]}"]
    lines += [
        "    @T.prim_func",
        f'    def main(inp: T.Buffer(({n},), "float32"), out: T.Buffer(({n},), "float32")):',
        '        T.func_attr({"global_symbol": "main", "tirx.noalias": True})',
    ]
    names = ["inp"] + [f"t{k}" for k in range(len(ops) - 1)] + ["out"]
    for k in range(len(ops) - 1):
        lines.append(f'        t{k} = T.alloc_buffer(({n},), "float32")')
    for k, (_, srcs) in enumerate(ops):
        args = ", ".join([f"{names[s]}.data" for s in srcs] + [f"{names[k + 1]}.data"])
        lines.append(f"        Module.op{k}({args})")
    return "\n".join(lines) + "\n"


@st.composite
def operator_chains(draw):
    length = draw(st.integers(2, 6))
    ops = []
    for k in range(length):
        kind = draw(st.sampled_from([*_BODIES, "smooth"]))
        arity = 1 if kind == "smooth" else _BODIES[kind][0]
        srcs = [draw(st.integers(0, k)) for _ in range(arity)]
        ops.append((kind, srcs))
    return ops, draw(st.sampled_from([4, 8, 12, 24]))


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(operator_chains(), st.booleans())
def test_random_operator_chains_run_planned(chain, workspace_io: bool) -> None:
    # An operator may read `inp` late in the chain: with its I/O in the pool, the input
    # must stay live from the start until then.
    ops, n = chain
    mod = parse_tvmscript(chain_source(ops, n), "chain")
    planned = plan_module(mod, workspace_io=workspace_io)
    inputs = random_inputs(mod)
    outputs = run_module(planned, inputs, target="llvm")
    reference = run_module(mod, inputs, target="llvm")
    _same_outputs({n: reference[n] for n in outputs}, outputs)
    assert "out" in outputs
