"""Planning algorithms by name, as TVM's `tir.usmp.algo.<name>` were.

An algorithm is a function `(problem, budget) -> Plan`. Other packages add theirs through
the `usmp_dialect.algorithms` entry point group (`name = "module:function"`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points

from usmp_dialect.planning.problem import Plan, PlanningError, Problem


@dataclass(frozen=True)
class Budget:
    """What the caller allows an algorithm to spend."""

    time_limit: float = 60.0
    """Seconds: a safety cap. An algorithm stops on its own work budget, a function of the
    problem alone, so that a plan does not depend on the machine or its load; only when
    this cap ends the work first does it stop early, and the plan says so
    (`Plan.time_capped`)."""
    effort: float = 1.0
    """Scales every work budget (search nodes, greedy orders, climb rounds): 2 does twice
    the work, for the same plan on any machine."""


Algorithm = Callable[[Problem, Budget], Plan]

_ALGORITHMS: dict[str, Algorithm] = {}
ENTRY_POINT_GROUP = "usmp_dialect.algorithms"


def register_algorithm(name: str) -> Callable[[Algorithm], Algorithm]:
    def register(function: Algorithm) -> Algorithm:
        if name in _ALGORITHMS and _ALGORITHMS[name] is not function:
            raise ValueError(f"planning algorithm '{name}' is registered twice")
        _ALGORITHMS[name] = function
        return function

    return register


def _load_all() -> None:
    # Importing the package registers the built-in algorithms.
    import usmp_dialect.planning.algorithms  # noqa: F401

    for entry in entry_points(group=ENTRY_POINT_GROUP):
        if entry.name not in _ALGORITHMS:
            _ALGORITHMS[entry.name] = entry.load()


def available_algorithms() -> list[str]:
    _load_all()
    return sorted(_ALGORITHMS)


def get_algorithm(name: str) -> Algorithm:
    _load_all()
    if name not in _ALGORITHMS:
        raise PlanningError(
            f"unknown planning algorithm '{name}' (available: {', '.join(sorted(_ALGORITHMS))})"
        )
    return _ALGORITHMS[name]
