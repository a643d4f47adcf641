"""Names a person can read and a C compiler keeps apart: a model file's tensor names run to
hundreds of characters (TFLite joins every name of a tensor, `a/b/Relu;a/c/BiasAdd;...`,
and the import makes `/` and `;` `_`), past the 63 characters C guarantees significant in
an identifier, and alike for their first hundred.

    short_names(names, limit, fold_case) -> {name: short}

A name within `limit` stays as it is (but for one that only case tells from a name before
it, with `fold_case`, which is made another as a longer one is). A longer one loses the
scope it starts with and repeats (`functional_1_`, wherever it recurs), is cut at a word
boundary and gets `_` and 4 hex digits of a hash of the whole name:
`activation_7_Relu_batch_normalizati_3f0c`.
Deterministic (the hash is of the name alone), distinct (a clash takes more digits), and
the full name stays where the short one is shown (a comment, the JSON report).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

NAME_LIMIT = 63
"""The significant characters C guarantees in an internal identifier (C11 5.2.4.1)."""


def _scope(name: str) -> str:
    """The fewest words (ending in `_`) `name` starts with and repeats later on (the
    scope of TFLite's joined names, `functional_1_`), what is left starting with a
    letter; "" when there is none."""
    ends = [i + 1 for i, c in enumerate(name) if c == "_"]
    scopes = [name[:end] for end in ends if f"_{name[:end]}" in name[end:]]
    return next((s for s in scopes if name[len(s) :][:1].isalpha()), "")


def _digest(name: str, digits: int) -> str:
    return hashlib.sha256(name.encode()).hexdigest()[:digits]


def short_names(
    names: Iterable[str], limit: int = NAME_LIMIT, fold_case: bool = False
) -> dict[str, str]:
    """Each of `names` (distinct) within `limit` characters, distinct from every other
    (also upper-cased when `fold_case`: C macros are; a name within `limit` that only case
    tells from one before it is made another, as a longer one is)."""
    names = list(names)
    key = str.upper if fold_case else str
    taken: set[str] = set()
    result = {}
    for name in names:
        if len(name) <= limit and key(name) not in taken:
            taken.add(key(name))
            result[name] = name
    for name in (name for name in names if name not in result):
        scope = _scope(name)
        readable = name.removeprefix(scope).replace(f"_{scope}", "_") if scope else name
        for digits in range(4, 65):
            kept = readable[: max(1, limit - digits - 1)]
            if readable[len(kept) : len(kept) + 1].isalnum() and "_" in kept[-10:]:
                kept = kept[: kept.rfind("_")]  # not half a word
            short = f"{kept.rstrip('_')}_{_digest(name, digits)}"
            if key(short) not in taken:
                break
        taken.add(key(short))
        result[name] = short
    return result
