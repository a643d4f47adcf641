"""Build and run a TVMScript module's entry function with TVM 0.27, planned or not
(`tools/run_tvmscript.py` is its command line).

`run_module(tvm_mod, inputs)` returns every buffer param of the entry after the call
(inputs are random unless given; a pool param named in the entry's `usmp.pools` attribute
is filled with 0xFF first, so that a plan that lets buffers overlap shows). Inputs and
outputs planned into a pool (`--use-workspace-io`, listed in the entry's
`usmp.io_offsets`) are written into and read from their pool bytes, as an application
does.

Facts this relies on (see TVM 0.27 notes): `tvm.compile` on targets `c` and `llvm`; LLVM's
TBAA must be off (`-enable-tbaa=false`) or it reorders accesses of operators inlined into
one another through the same pool; an un-planned module whose operators allocate more than
about 1 KiB builds only with its entry body inside `device_id`/`device_type` attrs and
storage rewrite off, which `build` arranges.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from usmp_dialect.analysis.tir_liveness import ENTRY_ATTR, ENTRY_NAMES
from usmp_dialect.dialects.usmp import IO_OFFSETS_ATTR, POOLS_ATTR

POOL_FILL = 0xFF


def tvm_target(name: str) -> Any:
    import tvm

    if name == "llvm":
        return tvm.target.Target({"kind": "llvm", "cl-opt": ["-enable-tbaa=false"]})
    return tvm.target.Target(name)


def entry_name(mod: Any) -> str:
    names = [gv.name_hint for gv in mod.get_global_vars()]
    for gv in mod.get_global_vars():
        attrs = mod[gv].attrs
        if attrs is not None and ENTRY_ATTR in attrs and bool(attrs[ENTRY_ATTR]):
            return gv.name_hint
    for name in ENTRY_NAMES:
        if name in names:
            return name
    raise ValueError(f"no entry function among {names}")


def _with_device_attrs(mod: Any, entry: str) -> Any:
    """The entry's body inside `device_id`/`device_type` attrs, which TVM needs to turn an
    operator's large allocation into a workspace request (un-planned modules only)."""
    import tvm
    from tvm import tirx

    func = mod[entry]
    body = tirx.AttrStmt(
        tvm.ir.StringImm("default"), "device_id", tirx.IntImm("int32", 0), func.body
    )
    body = tirx.AttrStmt(tvm.ir.StringImm("default"), "device_type", tirx.IntImm("int32", 1), body)
    new = tirx.PrimFunc(func.params, body, ret_type=func.ret_type, attrs=func.attrs)
    out = tvm.IRModule({gv: mod[gv] for gv in mod.get_global_vars() if gv.name_hint != entry})
    out[entry] = new
    return out


def build(mod: Any, target: str = "c") -> Any:
    import tvm

    config = {"tirx.disable_storage_rewrite": True}
    try:
        with tvm.transform.PassContext(config=config):
            return tvm.compile(mod, target=tvm_target(target))
    except Exception:
        with tvm.transform.PassContext(config=config):
            return tvm.compile(_with_device_attrs(mod, entry_name(mod)), target=tvm_target(target))


def _buffer_params(func: Any) -> list[tuple[str, tuple[int, ...], str]]:
    from tvm import tirx

    params = []
    for p in func.params:
        if not tirx.is_buffer_var(p):
            raise ValueError(f"entry param '{p.name}' is not a buffer; run_module needs buffers")
        params.append((p.name, tuple(int(d) for d in p.shape), str(p.dtype)))
    return params


def _pool_names(func: Any) -> set[str]:
    return set(func.attrs[POOLS_ATTR].keys()) if POOLS_ATTR in (func.attrs or {}) else set()


class IoTensor(NamedTuple):
    """An input or output the plan placed in a pool (`usmp.io_offsets`)."""

    kind: str
    pool: str
    offset: int
    shape: tuple[int, ...]
    dtype: str

    def view(self, pools: dict[str, np.ndarray]) -> np.ndarray:
        size = int(np.prod(self.shape)) * np.dtype(self.dtype).itemsize
        data = pools[self.pool][self.offset : self.offset + size]
        return data.view(self.dtype).reshape(self.shape)


def io_tensors(func: Any) -> dict[str, IoTensor]:
    if func.attrs is None or IO_OFFSETS_ATTR not in func.attrs:
        return {}
    return {
        str(name): IoTensor(
            str(info["kind"]),
            str(info["pool"]),
            int(info["offset"]),
            tuple(int(d) for d in info["shape"]),
            str(info["dtype"]),
        )
        for name, info in func.attrs[IO_OFFSETS_ATTR].items()
    }


def random_inputs(mod: Any, seed: int = 0) -> dict[str, np.ndarray]:
    """A random array for every input of the entry: its buffer params that are not pools,
    and the inputs placed in a pool."""
    rng = np.random.default_rng(seed)
    func = mod[entry_name(mod)]
    pools = _pool_names(func)
    wanted = [(n, s, d) for n, s, d in _buffer_params(func) if n not in pools]
    wanted += [(n, t.shape, t.dtype) for n, t in io_tensors(func).items() if t.kind != "output"]
    arrays = {}
    for name, shape, dtype in wanted:
        if np.dtype(dtype).kind == "f":
            arrays[name] = rng.standard_normal(shape).astype(dtype)
        else:
            info = np.iinfo(dtype)
            arrays[name] = rng.integers(max(info.min, -100), min(info.max, 100), shape).astype(
                dtype
            )
    return arrays


def run_module(
    mod: Any,
    inputs: dict[str, np.ndarray] | None = None,
    target: str = "c",
    seed: int = 0,
) -> dict[str, np.ndarray]:
    """Build `mod`, call its entry on `inputs` (the other buffer params: pools filled with
    0xFF, the rest zero) and return every non-pool buffer param, and every output placed
    in a pool, afterwards."""
    import tvm

    entry = entry_name(mod)
    func = mod[entry]
    pools = _pool_names(func)
    io = io_tensors(func)
    inputs = random_inputs(mod, seed) if inputs is None else inputs
    arrays: dict[str, np.ndarray] = {}
    for name, shape, dtype in _buffer_params(func):
        if name in pools:
            arrays[name] = np.full(shape, POOL_FILL, dtype=dtype)
        elif name in inputs:
            arrays[name] = np.array(inputs[name], dtype=dtype).reshape(shape)
        else:
            arrays[name] = np.zeros(shape, dtype=dtype)
    for name, tensor in io.items():
        if tensor.kind != "output" and name in inputs:
            tensor.view(arrays)[...] = np.asarray(inputs[name], dtype=tensor.dtype).reshape(
                tensor.shape
            )
    lib = build(mod, target)
    tensors = {name: tvm.runtime.tensor(array) for name, array in arrays.items()}
    lib[entry](*tensors.values())
    after = {name: t.numpy() for name, t in tensors.items()}
    results = {name: array for name, array in after.items() if name not in pools}
    # An input's pool bytes are reused once it is dead: only outputs are worth reading.
    results.update({name: t.view(after).copy() for name, t in io.items() if t.kind != "input"})
    return results


def load_tvmscript(path: str) -> Any:
    from usmp_dialect.frontends.tvmscript import parse_tvmscript

    with open(path) as file:
        return parse_tvmscript(file.read(), path)
