"""The validator finds each kind of fault in a plan and names the buffers, pools and
bytes."""

import numpy as np
import pytest
from problems import listed_problem

from usmp_dialect.planning.problem import (
    Plan,
    PlanningError,
    PoolSpec,
)
from usmp_dialect.planning.validator import MORE_FAULTS, check_plan, validate

POOLS = (PoolSpec("sram", size_hint=64), PoolSpec("dram"))


def problem_of(sizes, lists, alignments=1, candidates=()):
    return listed_problem(
        sizes,
        lists,
        names=[f"buf{i}" for i in range(len(sizes))],
        alignments=alignments,
        pools=POOLS,
        candidates=candidates or ((0, 1),) * len(sizes),
    )


def plan_of(pools, offsets):
    return Plan(np.asarray(pools, dtype=np.int64), np.asarray(offsets, dtype=np.int64))


def test_a_valid_plan_has_no_faults():
    problem = problem_of([16, 16, 8], [[1], [0, 2], [1]])
    # Touching ranges share no byte; buf0 and buf2 do not conflict and may overlap.
    assert validate(problem, plan_of([0, 0, 0], [0, 16, 0])) == []


def test_overlap_names_both_buffers_pool_and_ranges():
    problem = problem_of([16, 16], [[1], [0]])
    assert validate(problem, plan_of([1, 1], [0, 8])) == [
        "buffers 'buf0' and 'buf1' conflict but overlap in pool 'dram': "
        "'buf0' at [0, 16), 'buf1' at [8, 24)"
    ]


def test_a_conflict_listed_on_one_side_only_counts():
    problem = problem_of([16, 16], [[], [0]])
    [error] = validate(problem, plan_of([0, 0], [0, 0]))
    assert "'buf0' and 'buf1'" in error


def test_overlap_in_different_pools_is_fine():
    problem = problem_of([16, 16], [[1], [0]])
    assert validate(problem, plan_of([0, 1], [0, 0])) == []


def test_empty_buffers_hold_no_byte():
    problem = problem_of([0, 16], [[1], [0]])
    assert validate(problem, plan_of([0, 0], [4, 0])) == []


def test_self_conflicts_are_ignored():
    problem = problem_of([16], [[0]])
    assert validate(problem, plan_of([0], [0])) == []


def test_pool_outside_the_candidates():
    problem = problem_of([8], [[]], candidates=((1,),))
    assert validate(problem, plan_of([0], [0])) == [
        "buffer 'buf0' is in pool 'sram', which is not one of its candidates (dram)"
    ]


def test_pool_index_out_of_range():
    problem = problem_of([8], [[]])
    assert validate(problem, plan_of([2], [0])) == [
        "buffer 'buf0' is in pool #2, but there are 2 pools"
    ]


def test_negative_offset():
    problem = problem_of([8], [[]])
    assert validate(problem, plan_of([1], [-8])) == [
        "buffer 'buf0' has a negative offset -8 in pool 'dram'"
    ]


def test_misaligned_offset():
    problem = problem_of([8], [[]], alignments=[16])
    assert validate(problem, plan_of([1], [8])) == [
        "buffer 'buf0' at offset 8 in pool 'dram' is not aligned to 16 bytes"
    ]


def test_past_the_size_hint():
    problem = problem_of([8], [[]])
    assert validate(problem, plan_of([0], [60])) == [
        "buffer 'buf0' at [60, 68) passes the size hint of pool 'sram' (64 bytes)"
    ]


def test_plan_of_the_wrong_length():
    problem = problem_of([8, 8], [[], []])
    assert validate(problem, plan_of([0], [0])) == [
        "the plan places 1 pools and 1 offsets for 2 buffers"
    ]


def test_each_overlapping_pair_is_reported_once():
    problem = problem_of([8] * 3, [[1, 2], [0, 2], [0, 1]])
    errors = validate(problem, plan_of([1] * 3, [0] * 3))
    assert len(errors) == 3
    assert len(set(errors)) == 3


def test_many_faults_are_cut_short():
    problem = problem_of([8] * 30, [[]] * 30, alignments=[16] * 30)
    errors = validate(problem, plan_of([1] * 30, [8] * 30), max_messages=5)
    assert len(errors) == 6
    assert errors[-1] == MORE_FAULTS


def test_check_plan_raises_with_the_faults():
    problem = problem_of([16, 16], [[1], [0]])
    check_plan(problem, plan_of([0, 0], [0, 16]))
    with pytest.raises(PlanningError, match="'buf0' and 'buf1' conflict"):
        check_plan(problem, plan_of([0, 0], [0, 8]))
