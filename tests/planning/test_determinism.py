"""The same input and options give the same bytes out of `usmp-opt --plan-pools`, whatever
the hash seed and however busy the machine: the algorithms stop on work budgets computed
from the problem, never on the clock (the time limit is only a safety cap, set far away
here, and a run it stopped would say so on stderr)."""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from usmp_dialect.tools.usmp_translate import import_csv

DATA = Path(__file__).parent / "data"
HASH_SEEDS = ("0", "1", "4242")
"""One run a seed, all three at once beside a process burning a core."""
OPTIONS = {
    "default": [],
    # A tenth of exact's work: still millions of search steps past the default's plan.
    "exact": ["--effort", "0.1"],
    "hill_climb": [],
}
CASES = [
    ("random600", "default"),
    ("random600", "exact"),
    ("minimalloc_A", "default"),
    ("minimalloc_A", "exact"),
    # TVM's 500 climb rounds take seconds on A alone: the climb gets a smaller problem.
    ("random60", "hill_climb"),
]


def random_instance_csv(n: int, seed: int) -> str:
    rng = np.random.default_rng(seed)
    start = rng.integers(0, 2 * n, n)
    end = start + rng.integers(1, n // 4, n)
    size = rng.integers(1, 1 << 12, n) * 16
    rows = [f"{i},{s},{e},{b}" for i, (s, e, b) in enumerate(zip(start, end, size))]
    return "id,lower,upper,size\n" + "\n".join(rows) + "\n"


@pytest.fixture(scope="module")
def instances(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("determinism")
    sources = {
        "random600": random_instance_csv(600, seed=12),
        "random60": random_instance_csv(60, seed=12),
        "minimalloc_A": (DATA / "minimalloc" / "A.1048576.csv").read_text(),
    }
    paths = {}
    for name, csv in sources.items():
        paths[name] = folder / f"{name}.mlir"
        paths[name].write_text(import_csv(csv, f"{name}.csv"))
    return paths


def plan(path: Path, algorithm: str, hash_seed: str) -> subprocess.CompletedProcess:
    command = ["usmp-opt", str(path), "--plan-pools", "--algorithm", algorithm,
               "--time-limit", "600", *OPTIONS[algorithm]]
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    return subprocess.run(command, capture_output=True, env=env, check=True)


@pytest.fixture
def busy_machine():
    """A process that burns a core for as long as the test runs."""
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    yield
    burner.kill()
    burner.wait()


@pytest.mark.slow
@pytest.mark.parametrize(("instance", "algorithm"), CASES)
def test_same_bytes_across_hash_seeds_and_load(instances, instance, algorithm, busy_machine):
    path = instances[instance]
    with ThreadPoolExecutor(len(HASH_SEEDS)) as pool:
        runs = list(pool.map(lambda seed: plan(path, algorithm, seed), HASH_SEEDS))
    assert all(run.stderr == b"" for run in runs), runs[0].stderr.decode()
    assert b"usmp.plan" in runs[0].stdout
    assert all(run.stdout == runs[0].stdout for run in runs)
