"""Guest instructions split by the function they lie in, for
`tools/bench_m55_kernels.py --by-symbol`: the functions of an ELF's symbol table (`nm`'s
spans), each executed instruction address given to the one it lies in, and a program's
split per inference from a run of the model once and one of it N + 1 times."""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

NO_FUNCTION = "(no function)"


@dataclass(frozen=True)
class Function:
    """A function of an ELF's symbol table: its first address (the Thumb bit cleared), its
    bytes and its name."""

    start: int
    size: int
    name: str


def functions(nm_output: str) -> list[Function]:
    """The functions of `nm -S -n --defined-only`'s lines ("ADDRESS SIZE TYPE NAME"; a
    symbol without a size is no function's span), by address."""
    found = []
    for line in nm_output.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTwW":
            found.append(Function(int(parts[0], 16) & ~1, int(parts[1], 16), parts[3]))
    return sorted(found, key=lambda f: f.start)


def by_function(spans: list[Function], executed: Iterable[tuple[int, int]]) -> Counter[str]:
    """Instructions by function name, of (address, executions) pairs: an address in no
    function's [start, start + size) counts as NO_FUNCTION."""
    starts = [f.start for f in spans]
    counts: Counter[str] = Counter()
    for address, executions in executed:
        i = bisect.bisect_right(starts, address) - 1
        inside = i >= 0 and address < spans[i].start + spans[i].size
        counts[spans[i].name if inside else NO_FUNCTION] += executions
    return counts


def per_inference_split(once: Counter[str], more: Counter[str], repeats: int) -> dict[str, int]:
    """Each function's instructions per inference, of a run of the model once and one of
    it `repeats` + 1 times: the difference over `repeats`. The total is the bench's (the
    whole difference over `repeats`, rounded down); `main`, whose loop runs the model again,
    gets what is left of it after the other functions' rows, so the rows add up to it."""
    total = (sum(more.values()) - sum(once.values())) // repeats
    split = {name: (more[name] - once[name]) // repeats for name in more.keys() | once.keys()}
    split["main"] = total - sum(count for name, count in split.items() if name != "main")
    return {name: count for name, count in split.items() if count}
