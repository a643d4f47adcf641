"""Issue 42: random compositions of reshapes, views, tuples and `If`s over the tensors
`PlanMemory` plans; every plan passes the overlap check that runs after it (a failure
would keep TVM's plan with a warning, which the test makes an error), and the same
compositions with the planner's alias rule broken are caught by it. Fixed seed in CI;
`USMP_FUZZ_EXAMPLES=N` for a longer, random run."""

from __future__ import annotations

import os
import warnings
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

import tvm  # noqa: E402

from usmp_dialect.tvm.relax_vm import tensors as relax_vm_tensors  # noqa: E402
from usmp_dialect.tvm.relax_vm.overlap_check import check_no_overlap  # noqa: E402
from usmp_dialect.tvm.relax_vm.plan_memory import PlanMemory  # noqa: E402

HEADER = """
@I.ir_module
class Module:
    @T.prim_func
    def add(x: T.Buffer((16,), "float32"), y: T.Buffer((16,), "float32"),
            z: T.Buffer((16,), "float32")):
        for i in range(16):
            z[i] = x[i] + y[i]

    @R.function(pure=False)
    def main(x: R.Tensor((16,), "float32"), flag: R.Tensor((), "bool")
             ) -> R.Tensor((16,), "float32"):
"""
TENSOR = 'R.Tensor((16,), "float32")'
ALIASES = {
    "packed reshape": f'R.call_packed("vm.builtin.reshape", {{}}, R.shape([16]), ty_args={TENSOR})',
    "pure reshape": (
        f'R.call_pure_packed("vm.builtin.reshape", {{}}, R.shape([16]), ty_args={TENSOR})'
    ),
    "reshape": "R.reshape({}, R.shape([16]))",
    "view": "R.memory.view({}, R.shape([16]))",
    "ensure_zero_offset": "R.memory.ensure_zero_offset({})",
    "variable": "{}",
}
STEP = st.one_of(
    st.tuples(st.just("compute"), st.integers(0, 99), st.integers(0, 99)),
    st.tuples(st.just("alias"), st.sampled_from(sorted(ALIASES)), st.integers(0, 99)),
    st.tuples(st.just("tuple"), st.integers(0, 99), st.integers(0, 99)),
    st.tuples(st.just("if"), st.integers(0, 99), st.integers(0, 99)),
)


def composed(steps: list[tuple[Any, ...]]) -> str:
    """A planned function (one storage a computed tensor, as TVM's planner leaves them when
    it cannot reuse) whose steps compute new tensors from earlier values, alias them, put
    them in tuples and read items back, or pick one of two by an `If`."""
    tensors, lines = ["x"], []
    for n, step in enumerate(steps):
        kind, a, b = step
        if kind == "compute":
            lines += [
                f's{n} = R.memory.alloc_storage(R.shape([64]), 0, "global", "uint8")',
                f't{n} = R.memory.alloc_tensor(s{n}, 0, R.shape([16]), "float32")',
                f"Module.add({tensors[a % len(tensors)]}, {tensors[b % len(tensors)]}, t{n})",
            ]
        elif kind == "alias":
            lines.append(f"v{n} = " + ALIASES[a].format(tensors[b % len(tensors)]))
        elif kind == "tuple":
            lines += [
                f"p{n} = ({tensors[a % len(tensors)]}, {tensors[b % len(tensors)]})",
                f"v{n} = p{n}[{(a + b) % 2}]",
            ]
        else:
            then, other = tensors[a % len(tensors)], tensors[b % len(tensors)]
            lines += [f"if flag:\n    v{n} = {then}\nelse:\n    v{n} = {other}"]
        tensors.append(f"{'t' if kind == 'compute' else 'v'}{n}")
    lines += [
        'out = R.builtin.alloc_tensor(R.shape([16]), "float32", 0)',
        f"Module.add({tensors[-1]}, {tensors[len(tensors) // 2]}, out)",
        "return out",
    ]
    body = "\n".join(lines).replace("\n", "\n        ")
    return HEADER + "        " + body + "\n"


FUZZ = settings(
    max_examples=int(os.environ.get("USMP_FUZZ_EXAMPLES", "25")),
    derandomize="USMP_FUZZ_EXAMPLES" not in os.environ,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@FUZZ
@given(st.lists(STEP, min_size=2, max_size=14))
def test_every_composition_is_planned_without_overlap(steps: list[tuple[Any, ...]]) -> None:
    mod = tvm.script.from_source(composed(steps))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        planned = PlanMemory()(mod)
    check_no_overlap(planned["main"])


def planned_with_the_alias_rule_broken(mod: Any) -> tuple[Any, list[Any]]:
    with pytest.MonkeyPatch.context() as patch, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        patch.setattr(relax_vm_tensors, "may_alias", lambda var, value: False)
        planned = PlanMemory()(mod)
    return planned, caught


@FUZZ
@given(st.lists(STEP, min_size=2, max_size=14))
def test_with_the_alias_rule_broken_no_overlapping_plan_is_returned(
    steps: list[tuple[Any, ...]],
) -> None:
    planned, caught = planned_with_the_alias_rule_broken(tvm.script.from_source(composed(steps)))
    check_no_overlap(planned["main"])
    assert len(caught) <= 1


def test_a_composition_the_broken_rule_misplans_is_caught() -> None:
    # t0 = x + x; v1 = reshape(t0); t2 = x + x; t3 = v1 + t2: t0 is read after t2 is written.
    steps = [("compute", 0, 0), ("alias", "packed reshape", 1), ("compute", 0, 0)]
    steps.append(("compute", 2, 3))
    planned, caught = planned_with_the_alias_rule_broken(tvm.script.from_source(composed(steps)))
    (warning,) = caught
    assert "tensors 't0' and 't2' overlap" in str(warning.message)
    check_no_overlap(planned["main"])
