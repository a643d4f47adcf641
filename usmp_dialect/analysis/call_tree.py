"""What the memref and tir liveness timelines share: a program is the call tree under one
entry function, each function's allocations met on the way; an allocation off the tree is
never planned."""

from __future__ import annotations

from collections.abc import Callable, Container, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from xdsl.ir import Operation

from usmp_dialect.diagnostics import UsmpError

FunctionT = TypeVar("FunctionT", bound=Operation)
AllocT = TypeVar("AllocT", bound=Operation)
AllocationT = TypeVar("AllocationT")

UNREACHABLE_REASON = "not reachable from the entry function"


@dataclass
class Allocation(Generic[AllocT]):
    """One allocation op and what a timeline knows about it."""

    op: AllocT
    function: str
    intervals: list[tuple[int, int]] = field(default_factory=list)
    unplanned_reason: str | None = None


@dataclass
class ProgramLiveness(Generic[AllocationT]):
    """The allocations of the program run from `entry`, and those it never reaches."""

    entry: str
    allocations: list[AllocationT]
    unreachable: list[AllocationT]


def requested_entry(functions: Mapping[str, FunctionT], requested: str) -> FunctionT | None:
    """The function an `entry` option names (an error when there is none), or None when
    the option is empty and each dialect's own rule chooses. The error points at the first
    function: the option has no place in the input."""
    if not requested:
        return None
    if requested not in functions:
        raise UsmpError(
            f"entry function @{requested} does not exist", next(iter(functions.values()), None)
        )
    return functions[requested]


def allocs_by_function(
    functions: Mapping[str, Operation], alloc_type: type[AllocT]
) -> list[tuple[str, AllocT]]:
    """`(function name, alloc op)` of every allocation of the module, in order."""
    return [
        (name, op) for name, f in functions.items() for op in f.walk() if isinstance(op, alloc_type)
    ]


def unreachable_allocations(
    allocs: list[tuple[str, AllocT]],
    reached: Container[AllocT],
    allocation: Callable[..., AllocationT],
) -> list[AllocationT]:
    """The allocations the walk from the entry never met, each with its reason."""
    return [
        allocation(op, name, unplanned_reason=UNREACHABLE_REASON)
        for name, op in allocs
        if op not in reached
    ]


class CallStack:
    """The functions the walk is inside, innermost last."""

    def __init__(self) -> None:
        self.names: list[str] = []

    @contextmanager
    def entered(self, name: str, at: Operation) -> Iterator[None]:
        """Inside function `name` (called at `at`); recursion is an error at `at`, since
        a static plan gives each allocation one place and needs a call tree."""
        if name in self.names:
            raise UsmpError(f"recursive call of @{name}: a static plan needs a call tree", at)
        self.names.append(name)
        yield
        self.names.pop()
