"""Which pools each function needs as arguments once its buffers are views into them:
those it places buffers in, and those of everything it calls (`usmp-to-memref`,
`usmp-to-tir`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from usmp_dialect.dialects.usmp import AllocOffsetOp


def pools_needed(
    allocs: Mapping[str, Sequence[AllocOffsetOp]], callees: Mapping[str, Sequence[str]]
) -> dict[str, set[str]]:
    """Per function, the pools it or anything it calls places buffers in (a fixpoint over
    the call graph `callees`, each function's callees by name, so any call order and
    shape works)."""
    needed = {name: {op.pool_names[0] for op in found} for name, found in allocs.items()}
    changed = True
    while changed:
        changed = False
        for name, called in callees.items():
            for callee in called:
                extra = needed.get(callee, set()) - needed.setdefault(name, set())
                if extra:
                    needed[name] |= extra
                    changed = True
    return needed
