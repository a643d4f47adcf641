"""Planning algorithms by name, as TVM's `tir.usmp.algo.<name>` were.

An algorithm is a function `(problem, budget) -> Plan`. The built-in ones are listed
below as `module:function`, loaded when asked for; other packages add theirs through the
`usmp_dialect.algorithms` entry point group (`name = "module:function"`), under a name the
built-ins do not use.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING

from usmp_dialect.planning.budget import Budget

if TYPE_CHECKING:
    from usmp_dialect.planning.problem import Plan, Problem

Algorithm = Callable[["Problem", Budget], "Plan"]

ENTRY_POINT_GROUP = "usmp_dialect.algorithms"
_ALGORITHMS = "usmp_dialect.planning.algorithms"
_BUILT_IN = {
    "default": f"{_ALGORITHMS}.portfolio:default",
    "exact": f"{_ALGORITHMS}.exact:exact",
    "greedy_by_size": f"{_ALGORITHMS}.greedy:greedy_by_size",
    "greedy_by_conflicts": f"{_ALGORITHMS}.greedy:greedy_by_conflicts",
    "hill_climb": f"{_ALGORITHMS}.hill_climb:tvm_hill_climb",
    "first_fit": f"{_ALGORITHMS}.fit:first_fit",
    "best_fit": f"{_ALGORITHMS}.fit:best_fit",
}

_BUILT_IN_SUMMARIES = {
    "default": "a portfolio of fast heuristics, then a short exact search",
    "exact": "MiniMalloc-style branch and bound: proves a plan optimal within its budget",
    "greedy_by_size": "TVM's: largest buffer first, above its highest placed conflict",
    "greedy_by_conflicts": "TVM's: the buffer with most conflicts first",
    "hill_climb": "TVM's: 500 rounds of swaps in the order greedy_by_size places",
    "first_fit": "largest buffer first, in the lowest gap between its placed conflicts",
    "best_fit": "largest buffer first, in the tightest gap that holds it",
}


def _entry_points() -> dict[str, EntryPoint]:
    found = {name: EntryPoint(name, value, ENTRY_POINT_GROUP) for name, value in _BUILT_IN.items()}
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(entry.name, entry)
    return found


def available_algorithms() -> list[str]:
    return sorted(_entry_points())


def algorithm_summaries() -> dict[str, str]:
    """One line per available algorithm, without loading any (`usmp-opt --help`); one
    another package adds says where it comes from."""
    return {
        name: _BUILT_IN_SUMMARIES.get(name) or f"from {entry.value}"
        for name, entry in sorted(_entry_points().items())
    }


def get_algorithm(name: str) -> Algorithm:
    # The rules and the problem's arrays (numpy) are loaded with the first algorithm, so
    # that listing the algorithms (`usmp-opt --help`) loads neither.
    from usmp_dialect.planning.problem import PlanningError  # noqa: PLC0415
    from usmp_dialect.planning.rules import planned_by_rules  # noqa: PLC0415

    if name in _BUILT_IN:
        # A built-in name is never another package's: no scan of every installed package's
        # entry points (3 ms of a 0.3 s start-up).
        built_in = EntryPoint(name, _BUILT_IN[name], ENTRY_POINT_GROUP)
        return partial(planned_by_rules, built_in.load(), name)
    found = _entry_points()
    if name not in found:
        raise PlanningError(
            f"unknown planning algorithm '{name}' (available: {', '.join(sorted(found))})"
        )
    return partial(planned_by_rules, found[name].load(), name)
