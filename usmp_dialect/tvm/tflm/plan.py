"""A `.tflite` file's tensors planned as TensorFlow Lite Micro runs them, for TFLM itself:

    planned_tflite(path, algorithm, budget) -> PlannedTflite    the file with our plan
    tflm_tensors(data, path) -> TflmTensors      what TFLM plans, and when each tensor lives
    plan_for_tflm(tensors, algorithm, budget, path) -> TflmPlan    our planner's offsets

The lifetimes are TFLM's (`AllocationInfoBuilder::MarkAllocationLifetimes` in
micro_allocation_info.cc): one time step per operator, counted across every subgraph that
IF, WHILE and CALL_ONCE enter, each entry a step of its own; a subgraph's inputs are
created at its start, a tensor at the operator that writes it, and it lives to the last
operator that reads it, the subgraph's outputs to its end. A subgraph entered twice lives
from its first entry to its last, as TFLM marks it. The sizes are TFLM's (element count
times its type's size) rounded up to its arena alignment, 16 bytes.

Which tensors we plan: those TFLM puts in its arena's head (no constant data, not a
variable, not empty) that its walk reaches. The rest stay -1, planned by TFLM at run time:
variable tensors keep their place in TFLM's persistent tail, since TFLM would fit its
kernels' scratch buffers around a variable in the head by the lifetime it marks, not the
whole run, and overwrite the variable's state.
"""

from __future__ import annotations

import struct
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from usmp_dialect.diagnostics import LocatedError
from usmp_dialect.planning.budget import Budget
from usmp_dialect.planning.conflicts import conflicts_from_intervals
from usmp_dialect.planning.problem import Conflicts, Intervals, Plan, PlanningError, Problem
from usmp_dialect.planning.registry import get_algorithm
from usmp_dialect.tvm.tflm.arena import TflmError, tflm_arena
from usmp_dialect.tvm.tflm.check import TflmCheck, check_offline_plan
from usmp_dialect.tvm.tflm.offline_plan import single_operator_model, with_offline_plan

ARENA_ALIGNMENT = 16
"""TFLM's `MicroArenaBufferAlignment()`: offsets and sizes in its head are multiples."""

# Bytes per element of each tflite TensorType TFLM takes (TfLiteTypeSizeOf in
# memory_helpers.cc); STRING and VARIANT have none.
_TYPE_SIZES = {
    0: 4,  # FLOAT32
    1: 2,  # FLOAT16
    2: 4,  # INT32
    3: 1,  # UINT8
    4: 8,  # INT64
    6: 1,  # BOOL
    7: 2,  # INT16
    8: 8,  # COMPLEX64
    9: 1,  # INT8
    10: 8,  # FLOAT64
    11: 16,  # COMPLEX128
    12: 8,  # UINT64
    13: 4,  # RESOURCE
    15: 4,  # UINT32
    16: 2,  # UINT16
    17: 1,  # INT4: TFLM keeps one per byte
    18: 2,  # BFLOAT16
}

_UNMARKED = -1


@dataclass(frozen=True)
class TflmTensors:
    """Every tensor of every subgraph, in TFLM's order (the subgraphs' tensors one after
    another), and what TFLM's planner sees of each."""

    names: tuple[str, ...]
    sizes: np.ndarray
    """Bytes, rounded up to `ARENA_ALIGNMENT`."""
    first: np.ndarray
    """TFLM's step that creates the tensor, -1 if its walk never reaches it."""
    last: np.ndarray
    """TFLM's last step that uses it (inclusive)."""
    planned: np.ndarray
    """Whether we give the tensor an offset (else -1: TFLM's own planner places it)."""

    @property
    def count(self) -> int:
        return len(self.names)


@dataclass(frozen=True)
class TflmPlan:
    offsets: np.ndarray
    """One int32 per tensor of `TflmTensors`, -1 where TFLM plans at run time."""
    size: int
    """Bytes of TFLM's head our offsets use."""
    proven_optimal: bool
    scratch: dict[int, int] = field(default_factory=dict)
    """The bytes of TFLM's kernels' scratch buffers the plan leaves room for, by step."""


def tflm_tensors(data: bytes, path: str) -> TflmTensors:
    """What TFLM plans of the flatbuffer `data` (the file `path`), or a `LocatedError` if
    TFLM would not run it with a static plan (a dynamic shape, an unsized type)."""
    import tflite

    with _flatbuffer_read(path):
        model = tflite.Model.GetRootAsModel(data, 0)
        graphs = [model.Subgraphs(k) for k in range(model.SubgraphsLength())]
        if not graphs:
            raise LocatedError("the model has no subgraph", path)
        tensors = _Tensors(model, graphs, path)
        _Walk(model, graphs, tensors, path).subgraph(0)
    return tensors.result()


class _Tensors:
    """Sizes and lifetimes of all subgraphs' tensors, indexed as TFLM indexes them."""

    def __init__(self, model: Any, graphs: list[Any], path: str):
        self.base = np.cumsum([0] + [g.TensorsLength() for g in graphs])
        count = int(self.base[-1])
        self.names: list[str] = []
        self.sizes = np.zeros(count, dtype=np.int64)
        self.head = np.zeros(count, dtype=bool)
        self.first = np.full(count, _UNMARKED, dtype=np.int64)
        self.last = np.full(count, _UNMARKED, dtype=np.int64)
        # TFLM's AllocateVariables looks a variable of any subgraph up by its index in
        # that subgraph but in the offsets of all subgraphs: those entries must stay -1.
        self.variable_slots: set[int] = set()
        for k, graph in enumerate(graphs):
            for i in range(graph.TensorsLength()):
                tensor = graph.Tensors(i)
                name = (tensor.Name() or b"").decode("utf-8", "replace")
                self.names.append(f"subgraph {k} tensor {i} '{name}'")
                if tensor.IsVariable():
                    self.variable_slots.add(i)
                    continue
                if _has_data(model, tensor):
                    continue
                where = f"{self.names[-1]}"
                self.sizes[self.base[k] + i] = _bytes(tensor, where, path)
                self.head[self.base[k] + i] = self.sizes[self.base[k] + i] > 0

    def result(self) -> TflmTensors:
        planned = self.head & (self.first != _UNMARKED)
        planned[[i for i in self.variable_slots if i < len(planned)]] = False
        aligned = -(-self.sizes // ARENA_ALIGNMENT) * ARENA_ALIGNMENT
        return TflmTensors(tuple(self.names), aligned, self.first, self.last, planned)


@contextmanager
def _flatbuffer_read(path: str) -> Iterator[None]:
    """Reading a file that is no flatbuffer fails anywhere, with any error: one diagnostic."""
    try:
        yield
    except struct.error:
        raise LocatedError("not a TFLite flatbuffer: an offset points past its end", path) from None
    except (IndexError, ValueError, TypeError, OverflowError) as error:
        raise LocatedError(f"not a TFLite flatbuffer ({error})", path) from None


def _has_data(model: Any, tensor: Any) -> bool:
    buffer = model.Buffers(tensor.Buffer()) if tensor.Buffer() < model.BuffersLength() else None
    return buffer is not None and (buffer.DataLength() > 0 or buffer.Offset() > 1)


def _bytes(tensor: Any, where: str, path: str) -> int:
    """TFLM's bytes for the tensor: by its `shape` (TFLM reads no `shape_signature`, whose
    -1 batch dimension converters write for a static model too)."""
    shape = tensor.ShapeAsNumpy() if tensor.ShapeLength() else np.zeros(0, dtype=np.int32)
    if (shape < 0).any():
        raise LocatedError(
            f"{where} has a dynamic shape ({'x'.join(map(str, shape))}): TFLM's arena is "
            "planned for static shapes only",
            path,
        )
    if tensor.Type() not in _TYPE_SIZES:
        raise LocatedError(f"{where} has a type TFLM cannot size ({tensor.Type()})", path)
    return int(np.prod(shape, dtype=np.int64)) * _TYPE_SIZES[tensor.Type()]


class _Walk:
    """TFLM's walk over the operators, subgraphs entered where control flow calls them."""

    def __init__(self, model: Any, graphs: list[Any], tensors: _Tensors, path: str):
        self.model, self.graphs, self.tensors, self.path = model, graphs, tensors, path
        self.step = 0
        self.entered: list[int] = []

    def subgraph(self, k: int) -> None:
        if not 0 <= k < len(self.graphs):
            raise LocatedError(f"an operator calls subgraph {k}, which the model lacks", self.path)
        if k in self.entered:
            raise LocatedError(f"subgraph {k} calls itself: TFLM cannot plan it", self.path)
        self.entered.append(k)
        graph, base = self.graphs[k], int(self.tensors.base[k])
        for i in _indices(graph.InputsAsNumpy, graph.InputsLength()):
            self._create(base + i)
            self._use(base + i)
        for j in range(graph.OperatorsLength()):
            self.step += 1
            op = graph.Operators(j)
            for i in _indices(op.OutputsAsNumpy, op.OutputsLength()):
                self._create(base + i)
            for called in self._called_subgraphs(op):
                self.step += 1
                self.subgraph(called)
            for i in _indices(op.InputsAsNumpy, op.InputsLength()):
                self._use(base + i)
            for i in _indices(op.OutputsAsNumpy, op.OutputsLength()):
                self._use(base + i)
        for i in _indices(graph.OutputsAsNumpy, graph.OutputsLength()):
            self._create(base + i)
            self._use(base + i)
        self.entered.pop()

    def _create(self, index: int) -> None:
        if self.tensors.first[index] == _UNMARKED:
            self.tensors.first[index] = self.step

    def _use(self, index: int) -> None:
        self.tensors.last[index] = self.step

    def _called_subgraphs(self, op: Any) -> list[int]:
        from tflite.BuiltinOperator import BuiltinOperator as Op
        from tflite.CallOnceOptions import CallOnceOptions
        from tflite.IfOptions import IfOptions
        from tflite.WhileOptions import WhileOptions

        code = self.model.OperatorCodes(op.OpcodeIndex())
        builtin = max(code.BuiltinCode(), code.DeprecatedBuiltinCode())
        fields: dict[int, tuple[Any, tuple[str, ...]]] = {
            Op.IF: (IfOptions, ("ThenSubgraphIndex", "ElseSubgraphIndex")),
            Op.WHILE: (WhileOptions, ("CondSubgraphIndex", "BodySubgraphIndex")),
            Op.CALL_ONCE: (CallOnceOptions, ("InitSubgraphIndex",)),
        }
        if builtin not in fields:
            return []
        options_type, names = fields[builtin]
        table = op.BuiltinOptions()
        if table is None:
            raise LocatedError("a control flow operator has no options", self.path)
        options = options_type()
        options.Init(table.Bytes, table.Pos)
        return [getattr(options, name)() for name in names]


def _indices(as_numpy: Any, length: int) -> list[int]:
    """A flatbuffer index vector's entries but the -1s (an omitted optional input)."""
    if length == 0:
        return []
    return [int(i) for i in as_numpy() if i >= 0]


def plan_for_tflm(
    tensors: TflmTensors,
    algorithm: str,
    budget: Budget,
    path: str,
    scratch: dict[int, int] | None = None,
) -> TflmPlan:
    """Our planner's offsets for the tensors TFLM's head holds (of the file `path`), by
    TFLM's lifetimes; `scratch`: bytes TFLM's kernels ask for at a step, by step, planned
    as buffers of that step (room left for them; TFLM places them at run time)."""
    planned = np.flatnonzero(tensors.planned)
    steps = sorted((scratch or {}).items())
    offsets = np.full(tensors.count, -1, dtype=np.int64)
    if len(planned) == 0:
        return TflmPlan(offsets.astype(np.int32), 0, True)
    count = len(planned) + len(steps)
    intervals = Intervals.from_lists(
        np.arange(count),
        np.concatenate([tensors.first[planned], [step for step, _ in steps]]),
        np.concatenate([tensors.last[planned] + 1, [step + 1 for step, _ in steps]]),
    )
    sizes = [-(-size // ARENA_ALIGNMENT) * ARENA_ALIGNMENT for _, size in steps]
    problem = Problem(
        names=(
            *(tensors.names[i] for i in planned),
            *(f"scratch of step {step}" for step, _ in steps),
        ),
        sizes=np.concatenate([tensors.sizes[planned], sizes]).astype(np.int64),
        alignments=np.full(count, ARENA_ALIGNMENT, dtype=np.int64),
        conflicts=Conflicts.lazy(lambda: conflicts_from_intervals(intervals, count)),
        intervals=intervals,
    )
    plan: Plan = get_algorithm(algorithm)(problem, budget)
    offsets[planned] = plan.offset[: len(planned)]
    if int(offsets.max()) + int(tensors.sizes.max()) >= 1 << 31:
        raise LocatedError("the plan does not fit TFLM's 32-bit offsets", path)
    return TflmPlan(
        offsets.astype(np.int32), plan.total_size(problem), plan.proven_optimal, dict(steps)
    )


@dataclass(frozen=True)
class PlannedTflite:
    """A `.tflite` file with our plan for TFLM in its metadata."""

    data: bytes
    tensors: TflmTensors
    plan: TflmPlan
    algorithm: str

    def summary(self) -> str:
        optimal = ", proven optimal" if self.plan.proven_optimal else ""
        room = self.plan.scratch
        scratch = (
            f", room for {sum(room.values())} B of TFLM's kernels' scratch at {len(room)} operators"
            if room
            else ""
        )
        return (
            f"planned {int(self.tensors.planned.sum())} of the file's {self.tensors.count} "
            f"tensors for TFLM's head: {self.plan.size} B ({self.algorithm}{optimal}{scratch})\n"
        )

    def checked(self, original: str) -> TflmCheck:
        """TFLM's run of the original and of this file (a `LocatedError` at `original` if
        TFLM cannot run one)."""

        with tempfile.TemporaryDirectory() as directory:
            planned = Path(directory) / "planned.tflite"
            planned.write_bytes(self.data)
            try:
                return check_offline_plan(original, str(planned), self.plan.size)
            except TflmError as error:
                raise LocatedError(f"TFLM cannot run the file: {error}", original) from None

    def verified(self, original: str, budget: Budget) -> tuple[PlannedTflite, TflmCheck]:
        """This file, or, where TFLM puts its kernels' scratch buffers on top of our plan,
        one planned again with room for them (`operator_scratch`) if TFLM's head is smaller
        so; and TFLM's run of it. A `LocatedError` unless TFLM's outputs are identical
        and its head no larger than with its own plan."""
        check = self.checked(original)
        planned = self
        if check.scratch > 0 and check.outputs_identical:
            data = Path(original).read_bytes()
            scratch = operator_scratch(data, self.tensors)
            if scratch:
                plan = plan_for_tflm(self.tensors, self.algorithm, budget, original, scratch)
                with _flatbuffer_read(original):
                    written = with_offline_plan(data, plan.offsets, original)
                with_room = PlannedTflite(written, self.tensors, plan, self.algorithm)
                second = with_room.checked(original)
                if second.head_after < check.head_after or not second.outputs_identical:
                    planned, check = with_room, second
        if not check.outputs_identical or check.scratch < 0:
            raise LocatedError(
                "TFLM does not run the planned file as the original:\n" + check.report(), original
            )
        if check.head_after > check.head_before:
            raise LocatedError(
                "TFLM's head with our plan is larger than with its own: its kernels' scratch "
                "buffers do not fit the gaps our plan leaves (the output is not written)\n"
                + check.report(),
                original,
            )
        return planned, check


def operator_scratch(data: bytes, tensors: TflmTensors) -> dict[int, int]:
    """The bytes of scratch buffers each operator's kernel asks TFLM for, by TFLM's step,
    measured by TFLM: its head for the operator alone less the operator's tensors. Only for
    a model of one subgraph (whose operator j is step j + 1); an operator TFLM cannot run
    alone counts none."""
    import tflite

    model = tflite.Model.GetRootAsModel(data, 0)
    if model.SubgraphsLength() != 1:
        return {}
    graph = model.Subgraphs(0)
    found = {}
    with tempfile.TemporaryDirectory() as directory:
        alone = Path(directory) / "operator.tflite"
        for j in range(graph.OperatorsLength()):
            op = graph.Operators(j)
            inputs = [
                i for i in _indices(op.InputsAsNumpy, op.InputsLength()) if tensors.planned[i]
            ]
            outputs = _indices(op.OutputsAsNumpy, op.OutputsLength())
            alone.write_bytes(single_operator_model(data, j, inputs, outputs))
            try:
                head, _ = tflm_arena(str(alone))
            except TflmError:
                continue
            own = sum(int(tensors.sizes[i]) for i in set(inputs + outputs) if tensors.planned[i])
            if head > own:
                found[j + 1] = head - own
    return found


def planned_tflite(path: str, algorithm: str, budget: Budget) -> PlannedTflite:
    """The file `path` with its tensors planned for TFLM by `algorithm`."""
    try:
        import tflite  # noqa: F401
    except ModuleNotFoundError:
        raise LocatedError(
            "reading a .tflite file needs the 'tflite' package: pip install -e '.[models]' in "
            "the usmp_dialect checkout",
            path,
        ) from None
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise LocatedError(f"cannot read '{path}': {error.strerror}", path) from None
    tensors = tflm_tensors(data, path)
    try:
        plan = plan_for_tflm(tensors, algorithm, budget, path)
    except PlanningError as error:
        raise LocatedError(str(error), path) from None
    with _flatbuffer_read(path):
        planned = with_offline_plan(data, plan.offsets, path)
    return PlannedTflite(planned, tensors, plan, algorithm)
