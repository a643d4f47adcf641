"""The built-in planning algorithms; importing a module registers its algorithms."""

from usmp_dialect.planning.algorithms import (
    exact,  # noqa: F401
    fit,  # noqa: F401
    greedy,  # noqa: F401
    hill_climb,  # noqa: F401
    portfolio,  # noqa: F401
)
