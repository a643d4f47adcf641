"""The names a lowered Relax module is built with.

ENTRY                       the entry function every lowering works on
fresh_name(name, taken)     `name`, made unique among `taken`
"""

from __future__ import annotations

ENTRY = "forward"


def fresh_name(name: str, taken: set[str]) -> str:
    """`name` with `_` appended while it is taken; the result is taken from then on."""
    while name in taken:
        name += "_"
    taken.add(name)
    return name
