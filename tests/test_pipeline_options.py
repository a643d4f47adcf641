"""Every option value the CLI accepts survives its trip through the pass-pipeline text
(issue 19): `--time-limit 1000000` once became `time-limit=1e+06`, which xDSL cannot read."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.passes import PassPipeline
from xdsl.utils.arg_spec import parse_spec

from usmp_dialect.pipeline import option_text, plan_pools_pipeline
from usmp_dialect.planning.registry import available_algorithms
from usmp_dialect.transforms.usmp_plan import MAX_EFFORT, UsmpPlan
from usmp_dialect.universe import USMP_UNIVERSE

FINITE = st.floats(allow_nan=False, allow_infinity=False)


def read_back(value):
    (parsed,) = parse_spec(f"some-pass{{option={option_text(value)}}}").parameters["option"]
    return parsed


@settings(max_examples=300, deadline=None)
@given(FINITE | st.integers(-(2**63), 2**63 - 1))
def test_a_number_reads_back_as_itself(value):
    parsed = read_back(value)
    assert parsed == value and type(parsed) is type(value)
    assert math.copysign(1, parsed) == math.copysign(1, value)


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(blacklist_characters="\r\f\v", blacklist_categories=("Cs",))))
def test_a_string_reads_back_as_itself(value):
    assert read_back(value) == value


@settings(max_examples=50, deadline=None)
@given(
    algorithm=st.sampled_from(available_algorithms()),
    time_limit=st.floats(min_value=0, allow_infinity=False),
    effort=st.floats(min_value=0, max_value=MAX_EFFORT, exclude_min=True),
)
def test_the_plan_pools_pipeline_keeps_every_option(algorithm, time_limit, effort):
    text = plan_pools_pipeline(algorithm, time_limit, effort=effort)
    (plan,) = [
        p
        for p in PassPipeline.parse_spec(USMP_UNIVERSE.all_passes, text).passes
        if isinstance(p, UsmpPlan)
    ]
    assert (plan.algorithm, plan.time_limit, plan.effort) == (algorithm, time_limit, effort)
