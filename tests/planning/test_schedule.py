"""The order of least peak memory (planning/schedule.py) on random operator DAGs: a
topological order, never above the given order's peak, equal to the brute-force optimum
where the search is exact, and still a valid order no worse than the given one where the
beam prunes."""

from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from usmp_dialect.planning.schedule import (
    OperatorGraph,
    is_topological,
    least_peak_order,
    order_peak,
)


@st.composite
def graphs(draw, max_ops: int = 7) -> OperatorGraph:
    """A DAG whose edges go from lower to higher indices (the given order is topological);
    each operator writes one tensor of its own and reads some earlier ones."""
    n = draw(st.integers(1, max_ops))
    sizes = draw(st.lists(st.integers(0, 64), min_size=n, max_size=n))
    touches, predecessors = [], []
    for op in range(n):
        read = draw(st.sets(st.integers(0, op - 1), max_size=3)) if op else set()
        touches.append(frozenset(read | {op}))
        predecessors.append(frozenset(read))
    workspaces = draw(st.lists(st.integers(0, 32), min_size=n, max_size=n))
    live_in = draw(st.sets(st.integers(0, n - 1), max_size=2))
    live_out = draw(st.sets(st.integers(0, n - 1), max_size=2))
    return OperatorGraph(
        tuple(sizes),
        tuple(touches),
        tuple(predecessors),
        tuple(workspaces),
        frozenset(live_in),
        frozenset(live_out),
    )


def brute_force_peak(graph: OperatorGraph) -> int:
    return min(
        order_peak(graph, order)
        for order in permutations(range(len(graph)))
        if is_topological(graph, order)
    )


@settings(max_examples=150, deadline=None)
@given(graphs())
def test_least_peak_is_the_brute_force_optimum(graph):
    schedule = least_peak_order(graph)
    assert schedule.exact
    assert is_topological(graph, schedule.order)
    assert schedule.peak == order_peak(graph, schedule.order)
    assert schedule.peak == brute_force_peak(graph)
    assert schedule.peak <= order_peak(graph, range(len(graph)))


@settings(max_examples=100, deadline=None)
@given(graphs(max_ops=10), st.integers(1, 3))
def test_a_pruned_search_gives_an_order_no_worse_than_the_file(graph, max_states):
    schedule = least_peak_order(graph, max_states)
    assert is_topological(graph, schedule.order)
    assert schedule.peak == order_peak(graph, schedule.order)
    assert schedule.peak <= order_peak(graph, range(len(graph)))
    assert least_peak_order(graph, max_states) == schedule


def test_a_branch_runs_the_side_that_frees_memory_first():
    # 0 writes a (8 B); 1 and 2 read a and write b (100 B) and c (50 B); 3 reads b into
    # d (1 B); 4 joins c and d. The file's order keeps b live while 2 runs (158 B);
    # running 3 right after 1 frees b first (109 B, while 3 runs).
    graph = OperatorGraph(
        tensor_sizes=(8, 100, 50, 1, 1),
        touches=(
            frozenset({0}),
            frozenset({0, 1}),
            frozenset({0, 2}),
            frozenset({1, 3}),
            frozenset({2, 3, 4}),
        ),
        predecessors=(
            frozenset(),
            frozenset({0}),
            frozenset({0}),
            frozenset({1}),
            frozenset({2, 3}),
        ),
        workspaces=(0, 0, 0, 0, 0),
    )
    assert order_peak(graph, range(5)) == 158
    schedule = least_peak_order(graph)
    assert schedule.order == (0, 1, 3, 2, 4)
    assert schedule.peak == 109 and schedule.exact


def test_a_chain_of_many_operators_is_exact():
    n = 200
    graph = OperatorGraph(
        tensor_sizes=tuple(range(1, n + 1)),
        touches=tuple(frozenset({op - 1, op} if op else {op}) for op in range(n)),
        predecessors=tuple(frozenset({op - 1} if op else set()) for op in range(n)),
        workspaces=(0,) * n,
    )
    schedule = least_peak_order(graph)
    assert schedule.exact and schedule.order == tuple(range(n))


def test_max_states_below_one_is_refused():
    graph = OperatorGraph((1,), (frozenset({0}),), (frozenset(),), (0,))
    with pytest.raises(ValueError, match="max_states"):
        least_peak_order(graph, 0)
