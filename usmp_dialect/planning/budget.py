"""What a caller allows a planning algorithm to spend, and the defaults of `usmp-plan`:
kept apart from the problem's arrays so that a tool's `--help` needs no numpy."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field

DEFAULT_ALGORITHM = "default"
"""`usmp-plan`'s algorithm unless told: the portfolio."""


@dataclass(frozen=True)
class SearchProgress:
    """Where a long search stands, for a caller that shows it while the search runs."""

    elapsed: float
    """Seconds since the algorithm started."""
    best: int | None
    """Bytes of the best plan of the pool being searched (None: no plan yet)."""
    bound: int | None
    """Bytes the pool being searched cannot go below, as far as proven."""


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
    progress: Callable[[SearchProgress], None] | None = field(default=None, compare=False)
    """Called a few times a second by a long search (`exact`) with where it stands; it
    decides nothing, so the plan is the same with it or without."""


DEFAULT_TIME_LIMIT = Budget.time_limit
DEFAULT_EFFORT = Budget.effort


PLANNING_PROGRESS: ContextVar[Callable[[SearchProgress], None] | None] = ContextVar(
    "planning_progress", default=None
)
"""Where a long search reports how it stands (`Budget.progress`): set by a driver that
shows it (usmp-opt on a terminal), since a pass built from pipeline text has no field to
carry a function."""
