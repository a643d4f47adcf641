"""The built-in planning algorithms; importing a module registers its algorithms."""
from usmp_dialect.planning.algorithms import portfolio  # noqa: F401
from usmp_dialect.planning.algorithms import exact  # noqa: F401
from usmp_dialect.planning.algorithms import greedy  # noqa: F401
from usmp_dialect.planning.algorithms import fit  # noqa: F401
from usmp_dialect.planning.algorithms import hill_climb  # noqa: F401
