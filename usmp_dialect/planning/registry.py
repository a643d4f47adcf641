"""Planning algorithms by name, as TVM's `tir.usmp.algo.<name>` were.

An algorithm is a function `(problem, budget) -> Plan`. The built-in ones are listed
below as `module:function`, loaded when asked for; other packages add theirs through the
`usmp_dialect.algorithms` entry point group (`name = "module:function"`), under a name the
built-ins do not use.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points

from usmp_dialect.planning.budget import Budget
from usmp_dialect.planning.problem import Plan, PlanningError, Problem

Algorithm = Callable[[Problem, Budget], Plan]

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


def _entry_points() -> dict[str, EntryPoint]:
    found = {name: EntryPoint(name, value, ENTRY_POINT_GROUP) for name, value in _BUILT_IN.items()}
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(entry.name, entry)
    return found


def available_algorithms() -> list[str]:
    return sorted(_entry_points())


def get_algorithm(name: str) -> Algorithm:
    found = _entry_points()
    if name not in found:
        raise PlanningError(
            f"unknown planning algorithm '{name}' (available: {', '.join(sorted(found))})"
        )
    return found[name].load()
