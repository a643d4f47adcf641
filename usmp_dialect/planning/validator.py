"""The independent check every plan passes before it is written back.

It shares no code with any algorithm: a plan is valid when each buffer sits in one of its
candidate pools at a non-negative offset that respects its alignment, inside the pool's
size hint, and no two conflicting buffers (listed in either direction) in the same pool
share a byte.
"""

from __future__ import annotations

import numpy as np

from usmp_dialect.planning.problem import Plan, PlanningError, Problem

MAX_MESSAGES = 10


def _placement_errors(problem: Problem, plan: Plan) -> list[str]:
    errors: list[str] = []
    for index, name in enumerate(problem.names):
        pool, offset = int(plan.pool[index]), int(plan.offset[index])
        size, alignment = int(problem.sizes[index]), int(problem.alignments[index])
        if pool not in problem.candidates[index]:
            errors.append(f"buffer '{name}' is in pool #{pool}, not one of its candidates")
            continue
        spec = problem.pools[pool]
        if offset < 0:
            errors.append(f"buffer '{name}' has a negative offset {offset}")
        elif offset % alignment:
            errors.append(
                f"buffer '{name}': offset {offset} is not a multiple of its alignment {alignment}"
            )
        if spec.size_hint is not None and offset + size > spec.size_hint:
            errors.append(
                f"buffer '{name}' ends at byte {offset + size}, past the size hint of pool "
                f"{spec.name} ({spec.size_hint} bytes)"
            )
    return errors


def _overlap_errors(problem: Problem, plan: Plan) -> list[str]:
    conflicts = problem.conflicts
    first = np.repeat(np.arange(problem.num_buffers, dtype=np.int64), conflicts.counts())
    second = conflicts.indices
    offsets, sizes, pools = plan.offset, problem.sizes, plan.pool
    begin_a, begin_b = offsets[first], offsets[second]
    end_a, end_b = begin_a + sizes[first], begin_b + sizes[second]
    overlapping = (
        (first != second)
        & (pools[first] == pools[second])
        & (begin_a < end_b)
        & (begin_b < end_a)
        & (sizes[first] > 0)
        & (sizes[second] > 0)
    )
    errors: list[str] = []
    seen: set[tuple[int, int]] = set()
    for a, b in zip(first[overlapping], second[overlapping]):
        pair = (min(a, b), max(a, b))
        if pair in seen:
            continue
        seen.add(pair)
        a, b = pair
        pool = problem.pools[int(pools[a])].name
        errors.append(
            f"buffers '{problem.names[a]}' and '{problem.names[b]}' are live at the same "
            f"time and share bytes of pool {pool}: [{offsets[a]}, {offsets[a] + sizes[a]}) "
            f"and [{offsets[b]}, {offsets[b] + sizes[b]})"
        )
        if len(errors) >= MAX_MESSAGES:
            break
    return errors


def validate(problem: Problem, plan: Plan) -> list[str]:
    """Every fault of the plan (up to a few per kind), each naming the buffers involved."""
    if len(plan.pool) != problem.num_buffers or len(plan.offset) != problem.num_buffers:
        return [
            f"the plan places {len(plan.offset)} buffers but the problem has "
            f"{problem.num_buffers}"
        ]
    errors = _placement_errors(problem, plan)[:MAX_MESSAGES]
    return errors + _overlap_errors(problem, plan)


def check_plan(problem: Problem, plan: Plan) -> None:
    errors = validate(problem, plan)
    if errors:
        raise PlanningError("invalid plan: " + "; ".join(errors[:3]))
