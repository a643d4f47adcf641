"""Properties of planned IR over random instances: whatever the algorithm, the planned
module verifies (the planned-IR verifier re-checks every placement), each pool is at
least the max-live bound, and the plan survives a trip through CSV."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.passes import PassPipeline

from usmp_dialect.analysis.module_problem import module_problem
from usmp_dialect.formats.csv_export import module_to_csv
from usmp_dialect.formats.csv_instance import CsvInstance, read_csv_instance
from usmp_dialect.formats.csv_to_usmp import csv_instance_to_module
from usmp_dialect.parsing import usmp_context
from usmp_dialect.planning.problem import Intervals
from usmp_dialect.planning.registry import available_algorithms
from usmp_dialect.reports.report import plan_report
from usmp_dialect.universe import USMP_UNIVERSE


@st.composite
def instances(draw) -> CsvInstance:
    n = draw(st.integers(1, 25))
    starts = [draw(st.integers(0, 30)) for _ in range(n)]
    ends = [s + draw(st.integers(1, 10)) for s in starts]
    sizes = [draw(st.integers(0, 5000)) for _ in range(n)]
    return CsvInstance(
        names=tuple(f"t{i}" for i in range(n)),
        sizes=np.array(sizes, dtype=np.int64),
        intervals=Intervals.from_lists(range(n), starts, ends),
    )


def plan(module, algorithm: str) -> None:
    spec = f"usmp-plan{{algorithm={algorithm} time-limit=0.5}}"
    PassPipeline.parse_spec(USMP_UNIVERSE.all_passes, spec).apply(usmp_context(), module)


@settings(max_examples=25, deadline=None)
@given(instance=instances(), algorithm=st.sampled_from(available_algorithms()))
def test_every_algorithm_gives_planned_ir_that_verifies(instance, algorithm):
    module = csv_instance_to_module(instance)
    plan(module, algorithm)
    module.verify()
    report = plan_report(module)
    assert all(b["offset"] >= 0 for b in report["buffers"])
    (pool,) = report["pools"]
    assert pool["size"] >= report["max_live"]
    assert module_problem(module).pools[0].planned_size == pool["size"]


@settings(max_examples=10, deadline=None)
@given(instance=instances())
def test_planned_csv_round_trips(instance):
    module = csv_instance_to_module(instance)
    plan(module, "default")
    exported = read_csv_instance(module_to_csv(module), "planned.csv")
    assert exported.names == instance.names
    np.testing.assert_array_equal(exported.sizes, instance.sizes)
    np.testing.assert_array_equal(exported.intervals.start, instance.intervals.start)
    offsets = [b["offset"] for b in plan_report(module, "ir")["buffers"]]
    np.testing.assert_array_equal(exported.offsets, offsets)
