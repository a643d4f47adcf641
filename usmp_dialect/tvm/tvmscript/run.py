"""Build and run a TVMScript module's entry function with TVM 0.27, planned or not
(`tools/run_tvmscript.py` is its command line).

`run_module(tvm_mod, inputs)` returns every buffer param of the entry after the call
(inputs are random unless given; a pool param named in the entry's `usmp.pools` attribute
is filled with 0xFF first, so that a plan that lets buffers overlap shows). Inputs and
outputs planned into a pool (`--use-workspace-io`, listed in the entry's
`usmp.io_offsets`) are written into and read from their pool bytes, as an application
does, and so is the state a model keeps from run to run (its value before the run written,
its value after read at the same bytes); so are constants placed in a constant pool,
whose bytes may also come from `usmp-translate --constants-out` (`pool_bytes`), an
override written over them.

Facts this relies on (see TVM 0.27 notes): `tvm.compile` on targets `c` and `llvm`; LLVM's
TBAA must be off (`-enable-tbaa=false`) or it reorders accesses of operators inlined into
one another through the same pool; an un-planned module whose operators allocate more than
about 1 KiB builds only with its entry body inside `device_id`/`device_type` attrs and
storage rewrite off, which `build` arranges. TVM's C prints a float constant with 7
significant digits, which `build` makes every digit (`exact_floats`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import tvm
from tvm import tirx
from tvm.support import cc

from usmp_dialect.analysis.tir_liveness import ENTRY_ATTR, ENTRY_NAMES
from usmp_dialect.diagnostics import LocatedError
from usmp_dialect.dialects.usmp import (
    CONSTANTS_ATTR,
    IO_OFFSETS_ATTR,
    NARROWED_CONSTANTS_ATTR,
    POOLS_ATTR,
    SHARED_CONSTANTS_ATTR,
    STATE_ATTR,
    IOKind,
)
from usmp_dialect.tvm.exact_floats import exact_float_placeholders, exact_floats
from usmp_dialect.tvm.relax.narrowed_constants import FILE_DTYPE, FILE_STORAGE_OPTION
from usmp_dialect.tvm.tvmscript.importer import parse_tvmscript

POOL_FILL = 0xFF
# TVM's C codegen declares a float16 value `half`, a type it leaves to the platform's
# headers (Arm's compilers have `__fp16`); the host compiler's is `_Float16`. It prints a
# float32 infinity (a max's initial value, `-inff`) as `inff`, which no header declares.
C_OPTIONS = ["-Dhalf=_Float16", "-Dinff=__builtin_inff()"]


def tvm_target(name: str) -> Any:
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
    """`mod` built for `target` and loaded; on target `c`, its float constants exact."""
    built = generate_code(mod, target)
    if target != "c":
        return built
    return built.jit(fcompile=_compile_exact_floats, options=C_OPTIONS)


def generate_code(mod: Any, target: str = "c") -> Any:
    """`mod`'s code for `target`, not compiled: on target `c`, with each float constant a
    placeholder that only `build`'s compile step makes a literal."""
    if target == "c":
        mod = tvm.IRModule(
            {gv: exact_float_placeholders(mod[gv]) for gv in mod.get_global_vars()},
            attrs=mod.attrs,
        )
    config = {"tirx.disable_storage_rewrite": True}
    try:
        with tvm.transform.PassContext(config=config):
            return tvm.compile(mod, target=tvm_target(target))
    except Exception:
        with tvm.transform.PassContext(config=config):
            return tvm.compile(_with_device_attrs(mod, entry_name(mod)), target=tvm_target(target))


def _compile_exact_floats(output: str, files: list[str], **options: Any) -> None:
    """TVM's C compile of `files` into `output`, after its C files' placeholders are made
    literals (see `exact_floats`)."""
    for path in files:
        if path.endswith(".c"):
            with open(path) as file:
                source = exact_floats(file.read())
            with open(path, "w") as file:
                file.write(source)
    cc.create_shared(output, files, **options)


def _buffer_params(func: Any) -> list[tuple[str, tuple[int, ...], str]]:
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


def state_after(func: Any) -> dict[str, str]:
    """The entry's state variables, each the name of its value after the run by the name of
    its value before (its `usmp.state`)."""
    return _names_record(func, STATE_ATTR)


def read_overrides(specs: Sequence[str]) -> dict[str, np.ndarray]:
    """The arrays of `--override NAME=FILE.npy` options, by constant name."""
    overrides = {}
    for spec in specs:
        name, equals, path = spec.partition("=")
        if not name or not equals or not path:
            raise LocatedError(f"--override takes NAME=FILE.npy, got '{spec}'", "--override")
        try:
            overrides[name] = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as error:
            raise LocatedError(f"cannot read a .npy array: {error}", path) from None
    return overrides


def stored_overrides(
    overrides: Mapping[str, np.ndarray],
    constants: Mapping[str, tuple[tuple[int, ...], str]],
    shared: Mapping[str, str] | None = None,
    narrowed: Mapping[str, str] | None = None,
) -> dict[str, np.ndarray]:
    """Each override as the constant it replaces stores it, by that constant's name. An
    override names one of `constants` (name: shape, dtype) and has its shape and dtype, or
    names a file's int32 constant stored narrower (`narrowed`: its name -> the stored one,
    `narrowed_constants`), is int32 of its shape and has values that all fit the stored
    type (it is converted); else a `LocatedError` at the option, which names the values
    that do not fit, or the constant one of `shared` (name: the one it is stored with,
    `shared_constants`) is stored with, and the import option that keeps either apart."""
    stored: dict[str, np.ndarray] = {}
    for name, array in overrides.items():
        target = (narrowed or {}).get(name, name)
        if shared and target in shared:
            kept = shared[target]
            raise LocatedError(
                f"'{name}' is stored once with '{kept}' (equal bytes): override '{kept}', "
                f"which both read, or import the model with {FILE_STORAGE_OPTION} to store "
                "each apart",
                "--override",
            )
        if target not in constants:
            known = ", ".join(constants) or "none"
            raise LocatedError(
                f"'{name}' is not a constant of the model (its constants: {known})",
                "--override",
            )
        shape, dtype = constants[target]
        given = FILE_DTYPE if target != name else dtype
        if array.shape != shape or array.dtype != np.dtype(given):
            raise LocatedError(
                f"'{name}' is {given}{list(shape)}, the array {array.dtype}{list(array.shape)}",
                "--override",
            )
        if target in stored:
            raise LocatedError(f"'{target}' is overridden twice (once as '{name}')", "--override")
        stored[target] = array if target == name else _narrowed(array, name, target, dtype)
    return stored


def _narrowed(array: np.ndarray, name: str, target: str, dtype: str) -> np.ndarray:
    """`array` as `dtype`, the type constant `name` is stored in (as `target`), if each of
    its values fits; else a `LocatedError` naming those that do not."""
    limits = np.iinfo(dtype)
    outside = np.flatnonzero((array < limits.min) | (array > limits.max))
    if outside.size:
        shown = ", ".join(
            f"{list(map(int, np.unravel_index(i, array.shape)))}: {array.flat[i]}"
            for i in outside[:3]
        )
        more = f" and {outside.size - 3} more" if outside.size > 3 else ""
        raise LocatedError(
            f"'{name}' is stored as {dtype} ('{target}'), and {outside.size} of the array's "
            f"values do not fit {dtype} ({shown}{more}); import the model with "
            f"{FILE_STORAGE_OPTION} to keep it {FILE_DTYPE}",
            "--override",
        )
    return array.astype(dtype)


def entry_constants(mod: Any) -> dict[str, tuple[tuple[int, ...], str]]:
    """The entry's constants, name: (shape, dtype): those placed in a constant pool and
    those still params (its `usmp.constants`)."""
    func = mod[entry_name(mod)]
    listed = (
        {str(n) for n in func.attrs[CONSTANTS_ATTR]}
        if CONSTANTS_ATTR in (func.attrs or {})
        else set()
    )
    found = {n: (s, d) for n, s, d in _buffer_params(func) if n in listed}
    found.update(
        (n, (t.shape, t.dtype)) for n, t in io_tensors(func).items() if t.kind == IOKind.CONSTANT
    )
    return found


def shared_constants(mod: Any) -> dict[str, str]:
    """The entry's constants stored with an equal one, name: that one's name."""
    return _names_record(mod[entry_name(mod)], SHARED_CONSTANTS_ATTR)


def narrowed_constants(mod: Any) -> dict[str, str]:
    """The file's constants stored narrower, its name: the name it is stored under."""
    return _names_record(mod[entry_name(mod)], NARROWED_CONSTANTS_ATTR)


def _names_record(func: Any, key: str) -> dict[str, str]:
    """A name-map record of `func`'s attributes (TVM carries it as a dictionary)."""
    attrs = func.attrs or {}
    if key not in attrs:
        return {}
    return {str(n): str(kept) for n, kept in attrs[key].items()}


def constant_pool(mod: Any) -> str | None:
    """The pool that holds the entry's constants, if any."""
    return _pool_holding(mod, IOKind.CONSTANT)


def state_pool(mod: Any) -> str | None:
    """The pool that holds the state the entry keeps from run to run, if any."""
    return _pool_holding(mod, IOKind.STATE)


def _pool_holding(mod: Any, kind: IOKind) -> str | None:
    pools = {t.pool for t in io_tensors(mod[entry_name(mod)]).values() if t.kind == kind}
    return next(iter(sorted(pools)), None)


def read_constant_pool(mod: Any, path: str) -> dict[str, bytes]:
    """The bytes of `path` (`usmp-translate --constants-out`) as the initial bytes of the
    entry's constant pool."""
    func = mod[entry_name(mod)]
    pool = constant_pool(mod)
    if pool is None:
        raise LocatedError("the module has no constant pool to load these bytes into", path)
    size = int(func.attrs[POOLS_ATTR][pool])
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError as error:
        raise LocatedError(
            f"cannot read the constant pool's bytes: {error.strerror}", path
        ) from None
    if len(data) != size:
        raise LocatedError(f"holds {len(data)} bytes; constant pool '{pool}' has {size}", path)
    return {pool: data}


def random_inputs(mod: Any, seed: int = 0, constants: bool = True) -> dict[str, np.ndarray]:
    """A random array for every input of the entry: its buffer params that are not pools,
    and the inputs placed in a pool; the constants placed in a pool too, unless
    `constants` is false."""
    rng = np.random.default_rng(seed)
    func = mod[entry_name(mod)]
    pools = _pool_names(func)
    wanted = [(n, s, d) for n, s, d in _buffer_params(func) if n not in pools]
    after = set(state_after(func).values())
    wanted += [
        (n, t.shape, t.dtype)
        for n, t in io_tensors(func).items()
        if t.kind in (IOKind.INPUT, IOKind.INPUT_OUTPUT)
        or (constants and t.kind == IOKind.CONSTANT)
        or (t.kind == IOKind.STATE and n not in after)
    ]
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
    inputs: Mapping[str, np.ndarray] | None = None,
    target: str = "c",
    seed: int = 0,
    pool_bytes: Mapping[str, bytes] | None = None,
) -> dict[str, np.ndarray]:
    """Build `mod`, call its entry on `inputs` (the other buffer params: pools filled with
    0xFF, or their `pool_bytes` such as a constant pool's file, the rest zero) and return
    every non-pool buffer param, and every output placed in a pool, afterwards. Inputs
    (and constants) placed in a pool are written at their offsets over those bytes."""
    entry = entry_name(mod)
    func = mod[entry]
    pools = _pool_names(func)
    io = io_tensors(func)
    pool_bytes = pool_bytes or {}
    if inputs is None:
        inputs = random_inputs(mod, seed, constants=constant_pool(mod) not in pool_bytes)
    arrays: dict[str, np.ndarray] = {}
    for name, shape, dtype in _buffer_params(func):
        if name in pool_bytes:
            arrays[name] = np.frombuffer(pool_bytes[name], dtype=dtype).reshape(shape).copy()
        elif name in pools:
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
    results.update(
        {
            name: t.view(after).copy()
            for name, t in io.items()
            if t.kind in (IOKind.OUTPUT, IOKind.INPUT_OUTPUT, IOKind.STATE)
        }
    )
    return results


def load_tvmscript(path: str) -> Any:

    with open(path) as file:
        return parse_tvmscript(file.read(), path)
