"""A Relax model built with TVM's default pipeline and with ours, run once each: outputs,
the bytes the VM's storage allocations hand out, compile seconds.

    compare_pipelines(mod, target, inputs, **options) -> Comparison
    storage_bytes_counted()     a context in which `vm.builtin.alloc_storage` is counted

Used by the tests and `tools/bench_relax_vm.py`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from usmp_dialect.tvm.relax_vm.plan_memory import FunctionReport, pipeline

ALLOC_STORAGE = "vm.builtin.alloc_storage"
ENTRY = "forward"


@contextmanager
def storage_bytes_counted() -> Iterator[list[int]]:
    """A list that gets the bytes of each `vm.builtin.alloc_storage` call made inside
    (VMs created inside; TVM's own function is back afterwards)."""
    import tvm

    original = tvm.get_global_func(ALLOC_STORAGE)
    counted: list[int] = []

    def counting(vm: Any, shape: Any, device: Any, dtype: Any, scope: Any) -> Any:
        element = tvm.DataType(str(dtype))
        counted.append(int(np.prod([int(d) for d in shape])) * element.bits * element.lanes // 8)
        return original(vm, shape, device, dtype, scope)

    tvm.register_global_func(ALLOC_STORAGE, counting, override=True)
    try:
        yield counted
    finally:
        tvm.register_global_func(ALLOC_STORAGE, original, override=True)


@dataclass(frozen=True)
class Run:
    outputs: list[np.ndarray]
    storage_bytes: int
    """What `vm.builtin.alloc_storage` handed out in the run."""
    compile_seconds: float


@dataclass(frozen=True)
class Comparison:
    tvm: Run
    ours: Run
    report: list[FunctionReport]

    @property
    def outputs_equal(self) -> bool:
        return len(self.tvm.outputs) == len(self.ours.outputs) and all(
            np.array_equal(a, b, equal_nan=True)
            for a, b in zip(self.tvm.outputs, self.ours.outputs, strict=True)
        )

    @property
    def planned_bytes(self) -> int:
        """Our pools plus the static allocations the VM makes outside them: what the run
        must have handed out."""
        return sum(
            sum(r.pools.values()) + sum(u.size or 0 for u in r.unplanned) for r in self.report
        )


def random_inputs(mod: Any, seed: int = 0, entry: str = ENTRY) -> list[np.ndarray]:
    """One array for each parameter of `entry` (static shapes)."""
    rng = np.random.default_rng(seed)
    arrays = []
    for param in mod[entry].params:
        shape = [int(d) for d in param.ty.shape.values]
        dtype = np.dtype(str(param.ty.dtype))
        if dtype.kind == "f":
            arrays.append(rng.standard_normal(shape).astype(dtype))
        else:
            info = np.iinfo(dtype)
            arrays.append(
                rng.integers(max(info.min, -100), min(info.max, 100), shape).astype(dtype)
            )
    return arrays


def with_weights_bound(mod: Any, weights: Mapping[str, np.ndarray], entry: str = ENTRY) -> Any:
    """`mod` with the weights bound into `entry` (`relax.transform.BindParams`), as an
    application of `tvm.compile` does to fold them."""
    import tvm
    from tvm import relax

    return relax.transform.BindParams(
        entry, {k: tvm.runtime.tensor(v) for k, v in weights.items()}
    )(mod)


def run(
    mod: Any, target: Any, inputs: Sequence[np.ndarray], relax_pipeline: Any, entry: str = ENTRY
) -> Run:
    import tvm
    from tvm import relax

    start = time.process_time()
    executable = tvm.compile(mod, target, relax_pipeline=relax_pipeline)
    seconds = time.process_time() - start
    device = tvm.device_from_target(target)
    with storage_bytes_counted() as counted:
        vm = relax.VirtualMachine(executable, device)
        result = vm[entry](*[tvm.runtime.tensor(x, device) for x in inputs])
    results = [result] if isinstance(result, tvm.runtime.Tensor) else list(result)
    return Run([r.numpy() for r in results], sum(counted), seconds)


def compare_pipelines(
    mod: Any, target: Any, inputs: Sequence[np.ndarray], entry: str = ENTRY, **options: Any
) -> Comparison:
    """`mod` built and run with `relax.get_default_pipeline(target)` and with
    `pipeline(target, **options)`."""
    import tvm
    from tvm import relax

    target = tvm.target.Target(target) if isinstance(target, str) else target
    reference = run(mod, target, inputs, relax.get_default_pipeline(target), entry)
    ours = pipeline(target, **options)
    planned = run(mod, target, inputs, ours, entry)
    return Comparison(reference, planned, list(ours.plan_memory.report))
