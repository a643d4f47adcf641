"""A pipeline's pass options checked in the user's words: xDSL's own check names the
Python field (`band_height`) and type (`<class 'int'>`), and takes `true` for an integer
(a bool is one in Python)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from types import NoneType, UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ParameterListType, parse_pipeline
from xdsl.utils.hints import isa

_KINDS = {int: "an integer", float: "a number", bool: "true or false", str: "a string"}


def _allowed(hint: Any) -> tuple[type, ...]:
    """The types an option of this hint takes, None apart (an option left out)."""
    if get_origin(hint) in (Union, UnionType):
        return tuple(t for t in get_args(hint) if t is not NoneType)
    return (hint,)


def _kind(allowed: tuple[type, ...]) -> str:
    if set(allowed) == {int, float}:
        return _KINDS[float]
    return " or ".join(
        _KINDS[t] if t in _KINDS else str(t) if get_origin(t) else t.__name__ for t in allowed
    )


def _fits(value: ParameterListType, hint: Any) -> bool:
    allowed = _allowed(hint)
    if any(isa(value, t) for t in allowed):  # a list option: sizes=1,2,3
        return True
    if not value:  # `name` alone: None, where the option may be
        return NoneType in get_args(hint)
    if len(value) != 1:
        return False
    (item,) = value
    # A bool is an int in Python, never in a pipeline: band-height=true is a mistake.
    return any(isa(item, t) and (t is bool or not isinstance(item, bool)) for t in allowed)


def _text(value: ParameterListType) -> str:
    if not value:
        return "nothing"
    return ",".join(repr(v) if isinstance(v, str) else str(v).lower() for v in value)


def check_pass_options(passes: Mapping[str, Callable[[], type[ModulePass]]], pipeline: str) -> None:
    """ValueError naming the pass and the option as typed, for the first option of
    `pipeline` its pass does not have or whose value is not of its type. Unknown passes
    and malformed text are left to xDSL's parser, which says so."""
    for spec in parse_pipeline(pipeline):
        if spec.name not in passes:
            continue
        pass_class = passes[spec.name]()
        hints = get_type_hints(pass_class)
        options = {
            field.name.replace("_", "-"): hints[field.name]
            for field in dataclasses.fields(pass_class)
            if field.init and field.name != "name"
        }
        for given, value in spec.parameters.items():
            option = given.replace("_", "-")
            if option not in options:
                known = ", ".join(options) if options else "none"
                raise ValueError(f"{spec.name} has no option '{given}' (its options: {known})")
            if not _fits(value, options[option]):
                raise ValueError(
                    f"{spec.name}: option {option} takes {_kind(_allowed(options[option]))}, "
                    f"got {_text(value)}"
                )
