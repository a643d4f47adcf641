"""Relax models (examples/models) into AOT-style TIR, planned, built and run against the
Relax VM.

Each model is lowered by `usmp_dialect.tvm.relax.to_tir`, planned with `--plan-pools`
(`plan_module`), built with TVM (llvm, `-enable-tbaa=false`) and run with the pool
prefilled with 0xFF; its output equals the Relax VM's on the original model within
rtol = atol = 1e-5 (float32; the lowered loops are TVM's own, so in practice it is exact).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context

tvm = pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

from tests.support.model_check import check_model  # noqa: E402
from usmp_dialect.reports.report import plan_report  # noqa: E402
from usmp_dialect.transforms.tir_align_to_pools import TirAlignToPools  # noqa: E402
from usmp_dialect.transforms.tir_io_to_allocations import TirIoToAllocations  # noqa: E402
from usmp_dialect.transforms.tir_to_usmp import TirToUsmp  # noqa: E402
from usmp_dialect.transforms.usmp_assign_pools import UsmpAssignPools  # noqa: E402
from usmp_dialect.transforms.usmp_plan import UsmpPlan  # noqa: E402
from usmp_dialect.tvm.relax.model_spec import load_model  # noqa: E402
from usmp_dialect.tvm.relax.to_tir import (  # noqa: E402
    RelaxImportError,
    import_relax,
    model_to_tir,
    random_weights,
    relax_planner_bytes,
    relax_to_tir,
    relax_vm_outputs,
    sanitize,
)
from usmp_dialect.tvm.tvmscript.importer import import_module  # noqa: E402
from usmp_dialect.tvm.tvmscript.planned_module import plan_module  # noqa: E402
from usmp_dialect.tvm.tvmscript.run import run_module  # noqa: E402
from usmp_dialect.tvm_options import TirImport  # noqa: E402

MODELS = Path(__file__).parents[2] / "examples" / "models"
TOLERANCE = 1e-5
ZOO = ["mlp", "cnn", "mobilenet", "resnet", "transformer"]
WEIGHTS_AS_PARAMS = TirImport(weights="params")


def _model(name: str):
    return load_model(f"{MODELS / name}.py:{name}")


def _relax_source(result: str, input_name: str = "x") -> str:
    """A weightless Relax module whose `forward` computes `y = relu(x)` and returns `result`."""
    return (
        "@I.ir_module\n"
        "class Module:\n"
        "    @R.function\n"
        f'    def forward({input_name}: R.Tensor((2, 8), "float32")):\n'
        "        with R.dataflow():\n"
        f"            y = R.nn.relu({input_name})\n"
        f"            gv = {result}\n"
        "            R.output(gv)\n"
        "        return gv\n"
    )


def _dynamic_batch_model():
    from tvm.relax.frontend import nn

    class Dyn(nn.Module):
        def __init__(self):
            self.fc1 = nn.Linear(8, 4)
            self.fc2 = nn.Linear(4, 4)

        def forward(self, x):
            return self.fc2(nn.op.relu(self.fc1(x)))

    mod, params = Dyn().export_tvm(spec={"forward": {"x": nn.spec.Tensor(("n", 8), "float32")}})
    return mod, random_weights(params, seed=0)


def _two_output_model():
    """`forward` returns `(y, relu(y))`: one output is also the next operator's input."""
    from tvm.relax.frontend import nn

    class Two(nn.Module):
        def __init__(self):
            self.fc = nn.Linear(8, 4)

        def forward(self, x):
            y = self.fc(x)
            return y, nn.op.relu(y)

    mod, params = Two().export_tvm(spec={"forward": {"x": nn.spec.Tensor((2, 8), "float32")}})
    return mod, random_weights(params, seed=0)


@pytest.mark.parametrize("name", ZOO)
@pytest.mark.parametrize("workspace_io", [False, True], ids=["params-io", "pool-io"])
def test_model_plans_and_matches_relax_vm(name: str, workspace_io: bool) -> None:
    mod, weights = _model(name)
    tir_mod = relax_to_tir(mod, weights, name, WEIGHTS_AS_PARAMS)
    main = tir_mod["main"]
    params = [p.name for p in main.params]
    assert params == ["x", *(sanitize(k) for k in weights), "output"]
    assert list(main.attrs["usmp.constants"]) == [sanitize(k) for k in weights]

    planned = plan_module(tir_mod, workspace_io=workspace_io)
    # With --use-workspace-io the input and output live in the pool; the weights stay.
    kept = [sanitize(k) for k in weights] + ["global_workspace"]
    assert [p.name for p in planned["main"].params] == (
        kept if workspace_io else [*params, "global_workspace"]
    )

    rng = np.random.default_rng(7)
    x_param = main.params[0]
    x = rng.standard_normal([int(d) for d in x_param.shape]).astype("float32")
    inputs = {"x": x, **{sanitize(k): v for k, v in weights.items()}}
    out = run_module(planned, inputs, target="llvm")["output"]
    (ref,) = relax_vm_outputs(mod, weights, {"x": x})
    np.testing.assert_allclose(out, ref, rtol=TOLERANCE, atol=TOLERANCE)


@pytest.mark.slow
@pytest.mark.parametrize("name", ZOO)
def test_bound_weights_model_matches_relax_vm(name: str) -> None:
    """Weights bound and folded (the default): the folded tensors are passed as `main`'s
    constant params, and the planned model still computes what the Relax VM does."""
    mod, weights = _model(name)
    result = check_model(mod, weights, name, workspace_io=True)
    assert result.outputs and all(o.agrees for o in result.outputs)


def test_bound_weights_leave_no_weight_transpose_to_run() -> None:
    """The MLP's three `nn.Linear` transposes are folded: three operator calls instead of
    six, and no transposed weight among the intermediates."""
    mod, weights = _model("mlp")
    params = _plan_report(relax_to_tir(mod, weights, tir_import=WEIGHTS_AS_PARAMS), [TirToUsmp()])
    bound = _plan_report(relax_to_tir(mod, weights), [TirToUsmp()])
    assert [b["name"] for b in params["buffers"] if b["name"].startswith("permute_dims")] == [
        "permute_dims",
        "permute_dims1",
        "permute_dims2",
    ]
    assert not [b for b in bound["buffers"] if b["name"].startswith("permute_dims")]
    assert (params["pools"][0]["size"], bound["pools"][0]["size"]) == (18432, 2048)


def test_fusion_none_calls_one_operator_per_op() -> None:
    """`--fusion=none` leaves out TVM's FuseOps/FuseTIR: the MLP's matmul, bias add and
    relu are separate operators (8 calls instead of 3), and the result still agrees."""

    def calls(tir_import: TirImport) -> list[str]:
        module = import_relax(*_model("mlp"), tir_import=tir_import)
        return [op.callee.root_reference.data for op in module.walk() if op.name == "tir.call"]

    assert calls(TirImport()) == [
        "fused_matmul_add_relu",
        "fused_matmul1_add_relu",
        "fused_matmul2_add1",
    ]
    assert calls(TirImport(fusion="none")) == [
        "matmul",
        "add",
        "relu",
        "matmul1",
        "add",
        "relu",
        "matmul2",
        "add1",
    ]
    mod, weights = _two_input_model()
    result = check_model(mod, weights, tir_import=TirImport(fusion="none"), workspace_io=True)
    assert result.outputs[0].agrees


@pytest.mark.slow
@pytest.mark.parametrize("name", ["mobilenet", "transformer"])
def test_inlined_temporaries_shrink_the_pool_and_keep_every_value(name: str) -> None:
    """`--temporaries=inline` on float models: the pool with every operator workspace and
    the inputs and output is smaller than with TVM's fusion as it is (no padded copy, no
    whole sum), and every output bit equals the Relax VM's."""
    mod, weights = _model(name)
    pools = {}
    for temporaries in ("keep", "inline"):
        result = check_model(
            mod,
            weights,
            tir_import=TirImport(temporaries=temporaries),
            workspace_io=True,
            tolerance=0,
        )
        assert [o.max_error for o in result.outputs] == [0] * len(result.outputs)
        pools[temporaries] = sum(result.pools.values())
    assert pools["inline"] < pools["keep"], pools


@pytest.mark.parametrize(
    "name,arguments",
    [
        ("cnn", {"size": 224}),
        ("mobilenet", {"size": 224}),
        ("resnet", {"size": 224}),
        ("transformer", {"seq": 128, "width": 256}),
    ],
    ids=["cnn-224", "mobilenet-224", "resnet-224", "transformer-128x256"],
)
def test_full_size_model_with_io_in_the_pool_matches_relax_vm(name: str, arguments: dict) -> None:
    mod, weights = load_model(f"{MODELS / name}.py:{name}", **arguments)
    result = check_model(mod, weights, name, workspace_io=True)
    assert result.outputs and all(o.agrees for o in result.outputs)


def test_tuple_output_plans_and_matches_relax_vm() -> None:
    mod, weights = _two_output_model()
    tir_mod = relax_to_tir(mod, weights, tir_import=WEIGHTS_AS_PARAMS)
    assert [p.name for p in tir_mod["main"].params] == [
        "x",
        "fc_weight",
        "fc_bias",
        "output0",
        "output1",
    ]

    for workspace_io in (False, True):
        result = check_model(mod, weights, workspace_io=workspace_io, seed=3)
        assert [(o.name, o.shape) for o in result.outputs] == [
            ("output0", (2, 4)),
            ("output1", (2, 4)),
        ]
        assert all(o.agrees for o in result.outputs)


def _two_input_model():
    from tvm.relax.frontend import nn

    class Gate(nn.Module):
        def __init__(self):
            self.fc = nn.Linear(8, 8)

        def forward(self, x, gate):
            return self.fc(x) * gate

    spec = {
        "forward": {
            "x": nn.spec.Tensor((2, 8), "float32"),
            "gate": nn.spec.Tensor((2, 8), "float32"),
        }
    }
    mod, params = Gate().export_tvm(spec=spec)
    return mod, random_weights(params, seed=1)


def test_inputs_reach_their_own_params() -> None:
    """Both inputs are random and distinct: swapping them would change the output."""
    mod, weights = _two_input_model()
    result = check_model(mod, weights, workspace_io=True, target="c")
    assert result.outputs[0].agrees and result.outputs[0].max_error < 1e-5


def _constant_model():
    """A model reading one constant tensor twice (as a fused operator's argument)."""
    from tvm.relax.frontend import nn

    class Offset(nn.Module):
        def __init__(self):
            self.fc = nn.Linear(8, 8)

        def forward(self, x):
            c = nn.Tensor.from_const(np.arange(16, dtype="float32").reshape(2, 8))
            return nn.op.relu(self.fc(x) + c) * c

    mod, params = Offset().export_tvm(spec={"forward": {"x": nn.spec.Tensor((2, 8), "float32")}})
    return mod, random_weights(params, seed=2)


def test_constant_tensor_is_a_constant_param() -> None:
    mod, weights = _constant_model()
    tir_mod, constants = model_to_tir(mod, weights, tir_import=WEIGHTS_AS_PARAMS)
    main = tir_mod["main"]
    assert [p.name for p in main.params] == ["x", "fc_weight", "fc_bias", "constant0", "output"]
    assert list(main.attrs["usmp.constants"]) == ["fc_weight", "fc_bias", "constant0"]
    np.testing.assert_array_equal(
        constants["constant0"], np.arange(16, dtype="float32").reshape(2, 8)
    )
    # The constant's values reach the operators: planned, built and run, the model agrees.
    for workspace_io in (False, True):
        result = check_model(mod, weights, tir_import=WEIGHTS_AS_PARAMS, workspace_io=workspace_io)
        assert result.outputs[0].agrees


def test_bound_weights_are_folded_into_constant_params() -> None:
    """By default the weights are bound and folded: the transpose of `fc.weight` is computed
    at compile time (no operator, no intermediate) and reaches `main` as a constant param
    named after the weight and the op; the bias, read as it is, keeps its name; the
    model's nameless constant is `constant0`."""
    mod, weights = _constant_model()
    tir_mod, constants = model_to_tir(mod, weights)
    main = tir_mod["main"]
    names = ["fc_weight_permute_dims", "fc_bias", "constant0"]
    assert [p.name for p in main.params] == ["x", *names, "output"]
    assert list(main.attrs["usmp.constants"]) == names
    np.testing.assert_array_equal(constants["fc_weight_permute_dims"], weights["fc.weight"].T)
    np.testing.assert_array_equal(constants["fc_bias"], weights["fc.bias"])
    np.testing.assert_array_equal(
        constants["constant0"], np.arange(16, dtype="float32").reshape(2, 8)
    )
    assert [g.name_hint for g in tir_mod.get_global_vars()] == [
        "fused_matmul_add_add1_relu_multiply",
        "main",
    ]


def test_output_names_avoid_param_names() -> None:
    mod = tvm.script.from_source(_relax_source("(y, R.add(y, y))", input_name="output1"))
    assert [p.name for p in relax_to_tir(mod, {})["main"].params] == [
        "output1",
        "output0",
        "output1_",
    ]


@pytest.mark.parametrize(
    "result,message",
    [
        ("(y, x)", "output 1 ('x') is a model parameter, not computed by an operator"),
        ("(y, (y,))", "output 1 is a nested tuple"),
        ("(y, R.shape([2]))", "output 1 (ShapeExpr) is not a tensor computed by an operator"),
    ],
)
def test_bad_tuple_output_is_an_error(result: str, message: str) -> None:
    with pytest.raises(RelaxImportError, match=re.escape(message)):
        relax_to_tir(tvm.script.from_source(_relax_source(result)), {})


def test_a_tensor_returned_twice_is_copied_into_the_second_output() -> None:
    """Each output is its own buffer: the operator writes the first, a copy the second."""
    main = relax_to_tir(tvm.script.from_source(_relax_source("(y, y)")), {})["main"]
    assert [p.name for p in main.params] == ["x", "output0", "output1"]
    assert list(main.attrs["usmp.outputs"]) == ["output0", "output1"]
    assert "relu(x.data, output0.data)\n    copy(output0.data, output1.data)" in str(main)


def test_model_without_weights_lists_no_constants() -> None:
    main = relax_to_tir(tvm.script.from_source(_relax_source("y")), {})["main"]
    assert [p.name for p in main.params] == ["x", "output"]
    assert list(main.attrs["usmp.constants"]) == []


def _plan_report(tir_mod, front) -> dict:
    module = import_module(tir_mod)
    for p in (*front, UsmpAssignPools(), TirAlignToPools(), UsmpPlan()):
        p.apply(Context(), module)
    return plan_report(module)


@pytest.mark.parametrize("name", ZOO)
@pytest.mark.parametrize("weights_mode", ["bound", "params"])
def test_model_pool_is_max_live_and_below_relax(name: str, weights_mode: str) -> None:
    """The tensors Relax's StaticPlanBlockMemory plans on the same module (weights bound or
    not) take fewer bytes in our pool, and every pool (with operator workspaces, and inputs
    and output too) is the max-live bound."""
    mod, weights = _model(name)
    tir_mod = relax_to_tir(mod, weights, tir_import=TirImport(weights=weights_mode))
    intermediates = _plan_report(tir_mod, [TirToUsmp(workspaces=False)])
    (pool,) = intermediates["pools"]
    bound = weights if weights_mode == "bound" else None
    assert pool["size"] == pool["max_live"] < relax_planner_bytes(mod, bound)
    for front in ([TirToUsmp()], [TirIoToAllocations(), TirToUsmp()]):
        (pool,) = _plan_report(tir_mod, front)["pools"]
        assert pool["size"] == pool["max_live"]


def test_relax_planner_bytes_is_tvm_builds_own_plan() -> None:
    """The bytes to beat are those of `relax.build`'s own CPU pipeline, reshapes as views."""
    mod, _ = _model("mobilenet")
    assert relax_planner_bytes(mod) == 20736


def test_import_reads_no_printed_tvmscript(monkeypatch) -> None:
    """The lowered module is built as TIR nodes: a TVM printer or parser that fails cannot
    break the import."""

    def broken(*_args, **_kwargs):
        raise AssertionError("the importer printed or parsed TVMScript")

    monkeypatch.setattr(tvm.script, "from_source", broken)
    monkeypatch.setattr(tvm.tirx.PrimFunc, "script", broken)
    mod, weights = _constant_model()
    assert "tir.call @fused_matmul_add_add1_relu_multiply" in str(import_relax(mod, weights))


def test_import_relax_gives_tir_dialect() -> None:
    module = import_relax(*_model("mlp"))
    text = str(module)
    assert "tir.prim_func" in text and "tir.alloc_buffer" in text


def test_command_line() -> None:
    imported = subprocess.run(
        ["usmp-translate", "--import-relax", f"{MODELS / 'mlp.py'}:mlp"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    planned = subprocess.run(
        ["usmp-opt", "--plan-pools"], input=imported, check=True, capture_output=True, text=True
    ).stdout
    assert "global_workspace" in planned


def test_check_relax_model_command() -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).parents[2] / "tools" / "check_relax_model.py"),
            f"{MODELS / 'resnet.py'}:resnet",
            "--use-workspace-io",
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert (
        "pool global_workspace: 7296 bytes (intermediates, operator workspaces, inputs and outputs)"
        in result.stdout
    )
    assert "Relax StaticPlanBlockMemory: 6272 bytes" in result.stdout
    assert re.search(
        r"output float32\[1, 10\]: max \|ours - Relax VM\| = \S+, agrees within 1e-05",
        result.stdout,
    )


def test_dynamic_shape_is_an_error() -> None:
    with pytest.raises(RelaxImportError, match="parameter 'x' has a dynamic shape"):
        relax_to_tir(*_dynamic_batch_model())


def test_relax_plan_of_a_dynamic_size_is_an_error() -> None:
    mod, _ = _dynamic_batch_model()
    with pytest.raises(
        RelaxImportError, match=r"storage of non-constant size R\.shape\(\[16 \* n\]\)"
    ):
        relax_planner_bytes(mod)


def test_missing_weight_is_an_error() -> None:
    mod, weights = _model("mlp")
    del weights["fc2.bias"]
    with pytest.raises(RelaxImportError, match=r"weight 'fc2\.bias' is missing"):
        relax_to_tir(mod, weights)


def test_weight_the_model_does_not_take_is_an_error() -> None:
    mod, weights = _model("mlp")
    weights["fc4.weight"] = np.zeros((10, 10), "float32")
    message = (
        r"weight 'fc4\.weight' is not a weight parameter of 'forward' "
        r"\(its weights: fc1\.weight, fc1\.bias, "
    )
    with pytest.raises(RelaxImportError, match=message):
        relax_to_tir(mod, weights)


def test_weight_names_alike_once_sanitized_are_an_error() -> None:
    mod, weights = _model("mlp")
    weights["fc1_bias"] = weights["fc1.bias"]
    with pytest.raises(
        RelaxImportError, match=r"weights 'fc1\.bias' and 'fc1_bias' are both named 'fc1_bias'"
    ):
        relax_to_tir(mod, weights)


def _nn_model(forward, inputs: dict[str, tuple[tuple[int, ...], str]], seed: int = 0):
    """A one-layer `nn` model (`fc`, Linear 8 -> 8) whose `forward(self, **inputs)` is given."""
    from tvm.relax.frontend import nn

    class Model(nn.Module):
        def __init__(self):
            self.fc = nn.Linear(8, 8)

    Model.forward = forward
    spec = {name: nn.spec.Tensor(shape, dtype) for name, (shape, dtype) in inputs.items()}
    mod, params = Model().export_tvm(spec={"forward": spec})
    return mod, random_weights(params, seed)


def test_scalar_output_plans_and_matches_relax_vm() -> None:
    from tvm.relax.frontend import nn

    mod, weights = _nn_model(lambda self, x: nn.op.sum(self.fc(x)), {"x": ((2, 8), "float32")})
    main = relax_to_tir(mod, weights)["main"]
    assert [tuple(p.shape) for p in main.params if p.name == "output"] == [()]
    result = check_model(mod, weights, workspace_io=True)
    assert [(o.shape, o.agrees) for o in result.outputs] == [((), True)]


def test_reshape_is_a_view_of_its_source() -> None:
    """A reshape Relax's build turns into a view is no operator and no buffer here either: the
    operator after it reads its source. (A reshape into the output stays a copy, as in Relax.)"""
    from tvm.relax.frontend import nn

    def forward(self, x):
        h = self.fc(nn.op.reshape(x, (2, 8)))
        return nn.op.reshape(nn.op.softmax(h, axis=-1), (16,))

    mod, weights = _nn_model(forward, {"x": ((16,), "float32")})
    main = relax_to_tir(mod, weights)["main"].script()
    assert "fused_matmul_add(x.data, " in main and main.count("reshape") == 1
    for workspace_io in (False, True):
        result = check_model(mod, weights, workspace_io=workspace_io)
        assert [(o.shape, o.agrees) for o in result.outputs] == [((16,), True)]


@pytest.mark.parametrize("name", ["T", "I", "Module", "lambda"])
def test_weight_named_like_script_names_is_renamed(name: str) -> None:
    """Names the lowered TVMScript binds (`T`, `I`, `Module`) and Python keywords get a `_`."""
    from tvm.relax.frontend import nn

    class Scale(nn.Module):
        def __init__(self):
            setattr(self, name, nn.Parameter((2, 8), "float32"))

        def forward(self, x):
            return x * getattr(self, name)

    mod, params = Scale().export_tvm(spec={"forward": {"x": nn.spec.Tensor((2, 8), "float32")}})
    weights = random_weights(params, seed=0)
    main = relax_to_tir(mod, weights)["main"]
    assert [p.name for p in main.params] == ["x", f"{name}_", "output"]
    assert list(main.attrs["usmp.constants"]) == [f"{name}_"]
    assert check_model(mod, weights, workspace_io=True).outputs[0].agrees


def test_weights_that_are_not_a_dict_are_an_error() -> None:
    mod, weights = _model("mlp")
    with pytest.raises(RelaxImportError, match="the weights are a list, not a dict"):
        relax_to_tir(mod, list(weights.values()))


def test_sort_argsort_topk_operators_plan_and_match_relax_vm() -> None:
    """On the CPU TVM dispatches these to the packed `tvm.contrib.sort.sort`: their operators
    get the device attrs and int32 status a packed call needs, and still run from the pool."""
    from tvm.relax.frontend import nn

    def forward(self, x):
        h = self.fc(x)
        values = nn.op.topk(h, k=3, axis=-1, ret_type="values")
        return nn.op.sort(h, axis=-1), nn.op.argsort(h, axis=-1), values

    mod, weights = _nn_model(forward, {"x": ((2, 8), "float32")})
    for workspace_io in (False, True):
        result = check_model(mod, weights, workspace_io=workspace_io)
        assert [(o.dtype, o.shape, o.agrees) for o in result.outputs] == [
            ("float32", (2, 8), True),
            ("int32", (2, 8), True),
            ("float32", (2, 3), True),
        ]


_LATE_VIEW = """
@I.ir_module
class Module:
    @R.function
    def forward(
        x: R.Tensor((8, 8), "float32"),
        w: R.Tensor((8, 8), "float32"),
        w4: R.Tensor((4, 8), "float32"),
    ):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            a = R.matmul(x, w)
            view = R.reshape(a, (16, 4))
            b = R.matmul(x, w)
            c = R.matmul(b, w)
            d = R.matmul(c, w)
            late = R.matmul(view, w4)
            out = (late, R.matmul(d, w))
            R.output(out)
        return out
"""


def test_view_read_late_keeps_its_source_live() -> None:
    """`view` (a reshape of `a`) is read three operators after `a`'s last direct use: `a`'s
    buffer lives until then, so nothing planned meanwhile takes its bytes."""
    mod = tvm.script.from_source(_LATE_VIEW)
    rng = np.random.default_rng(0)
    weights = {
        "w": rng.standard_normal((8, 8)).astype("float32"),
        "w4": rng.standard_normal((4, 8)).astype("float32"),
    }
    module = import_relax(mod, weights)
    TirToUsmp().apply(Context(), module)
    UsmpAssignPools().apply(Context(), module)
    TirAlignToPools().apply(Context(), module)
    UsmpPlan().apply(Context(), module)
    report = plan_report(module)
    live = {b["name"]: b["live"] for b in report["buffers"]}
    ((_, a_end),), ((d_start, _),) = live["a"], live["d"]
    assert a_end > d_start  # `d` is computed after `a`'s last direct use, before `late`
    for workspace_io in (False, True):
        assert all(o.agrees for o in check_model(mod, weights, workspace_io=workspace_io).outputs)


def _add_weight_model(input_name: str, weight_name: str):
    """`forward(input, weight) = softmax(input + weight)`, with the names given."""
    from tvm import relax

    builder = relax.BlockBuilder()
    x = relax.Var(input_name, relax.TensorType((2, 8), "float32"))
    w = relax.Var(weight_name, relax.TensorType((2, 8), "float32"))
    with builder.function("forward", [x, w], attrs={"num_input": 1}):
        with builder.dataflow():
            y = builder.emit(relax.op.nn.softmax(builder.emit(relax.op.add(x, w))))
            out = builder.emit_output(y)
        builder.emit_func_output(out)
    return builder.get(), {weight_name: np.full((2, 8), 0.5, "float32")}


@pytest.mark.parametrize(
    "input_name,weight_name,params",
    [
        ("1x", "a.b", ["_1x", "a_b"]),
        ("é", "def", ["_", "def_"]),
        ("Module", "main", ["Module_", "main"]),
    ],
)
def test_param_names_tvmscript_cannot_take_are_sanitized(input_name, weight_name, params) -> None:
    mod, weights = _add_weight_model(input_name, weight_name)
    assert [p.name for p in relax_to_tir(mod, weights)["main"].params] == [*params, "output"]
    assert check_model(mod, weights, workspace_io=True).outputs[0].agrees


def test_params_named_alike_in_tir_are_an_error() -> None:
    mod, weights = _add_weight_model("T", "T_")
    with pytest.raises(
        RelaxImportError, match="parameters 'T' and 'T_' are both named 'T_' in TIR"
    ):
        relax_to_tir(mod, weights)


def _digit_suffixed_model():
    """`forward(input_1, w_1, w_2) = softmax(input_1 * w_1 + w_2)`: names ending in `_<digits>`,
    which xDSL's SSA names would strip (`input_1` -> `input`, both weights -> `w`)."""
    from tvm import relax

    builder = relax.BlockBuilder()
    x, w1, w2 = (
        relax.Var(n, relax.TensorType((2, 8), "float32")) for n in ("input_1", "w_1", "w_2")
    )
    with builder.function("forward", [x, w1, w2], attrs={"num_input": 1}):
        with builder.dataflow():
            scaled = builder.emit(relax.op.multiply(x, w1))
            y = builder.emit(relax.op.nn.softmax(builder.emit(relax.op.add(scaled, w2))))
            out = builder.emit_output(y)
        builder.emit_func_output(out)
    rng = np.random.default_rng(7)
    weights = {n: rng.standard_normal((2, 8)).astype("float32") for n in ("w_1", "w_2")}
    return builder.get(), weights


@pytest.mark.slow
def test_digit_suffixed_names_are_the_params_names() -> None:
    mod, weights = _digit_suffixed_model()
    module = import_relax(mod, weights)
    main = next(f for f in module.ops if getattr(f, "sym_name", None) and f.sym_name.data == "main")
    assert main.param_names() == ["input_1", "w_1", "w_2", "output"]
    assert [a.data for a in main.attributes["usmp.constants"]] == ["w_1", "w_2"]
    TirIoToAllocations().apply(Context(), module)
    assert main.param_names() == ["w_1", "w_2"]


@pytest.mark.slow
@pytest.mark.parametrize("workspace_io", [False, True], ids=["params-io", "pool-io"])
def test_check_relax_model_feeds_inputs_by_their_names(workspace_io: bool) -> None:
    """`input_1` gets its random values (zeros would not match the Relax VM's output)."""
    mod, weights = _digit_suffixed_model()
    result = check_model(mod, weights, workspace_io=workspace_io)
    assert result.outputs[0].agrees and result.outputs[0].max_error < 1e-5
