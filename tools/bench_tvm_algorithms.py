#!/usr/bin/env python3
"""Pool size of TVM's algorithms and the gap-reusing greedy ones on benchmark instances,
as a ratio to max-live (the lower bound), with the time each took.

    PYTHONPATH=. python tools/bench_tvm_algorithms.py [CSV ...]

Without arguments it runs the MiniMalloc A-K suite and TVM's hill-climb interval sets from
../shared/benchmarks (or $USMP_BENCHMARKS). Every plan goes through the validator.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from usmp_dialect.frontends.csv_instance import read_csv_instance
from usmp_dialect.planning.conflicts import max_live
from usmp_dialect.planning.registry import Budget, get_algorithm
from usmp_dialect.planning.validator import check_plan

ALGORITHMS = (
    "greedy_by_size",
    "greedy_by_conflicts",
    "hill_climb",
    "first_fit",
    "best_fit",
)
DEFAULT_SUITES = ("minimalloc/[A-K].*.csv", "tvm/*.csv")


def default_instances() -> list[Path]:
    root = Path(
        os.environ.get(
            "USMP_BENCHMARKS",
            Path(__file__).resolve().parents[2] / "shared" / "benchmarks",
        )
    )
    return [path for pattern in DEFAULT_SUITES for path in sorted(root.glob(pattern))]


def main(arguments: list[str]) -> int:
    instances = [Path(a) for a in arguments] or default_instances()
    budget = Budget(time_limit=60.0)
    print(f"{'instance':<24}{'max-live':>14}" + "".join(f"{a:>22}" for a in ALGORITHMS))
    for path in instances:
        problem = read_csv_instance(path).problem()
        lower_bound = max_live(problem)
        cells = []
        for name in ALGORITHMS:
            started = time.perf_counter()
            plan = get_algorithm(name)(problem, budget)
            seconds = time.perf_counter() - started
            check_plan(problem, plan)
            ratio = plan.total_size(problem) / lower_bound
            cells.append(f"{ratio:.3f} ({seconds:5.2f}s)")
        print(f"{path.stem:<24}{lower_bound:>14}" + "".join(f"{c:>22}" for c in cells))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
