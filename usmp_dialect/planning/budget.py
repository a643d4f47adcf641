"""What a caller allows a planning algorithm to spend, and the defaults of `usmp-plan`:
kept apart from the problem's arrays so that a tool's `--help` needs no numpy."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_ALGORITHM = "default"
"""`usmp-plan`'s algorithm unless told: the portfolio."""


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


DEFAULT_TIME_LIMIT = Budget.time_limit
DEFAULT_EFFORT = Budget.effort
