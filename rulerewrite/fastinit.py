"""Constructors of frozen dataclasses for the per-query path, generated from their fields.

What: ``fast_init(cls)`` returns a function with the parameters of the dataclass's own
``__init__`` (names, order, defaults, default factories) that builds the same object without
the frozen ``__init__``'s ``object.__setattr__`` per field: ``object.__new__(cls)``, then each
field set through its slot's descriptor (``slots=True``) or written into the instance's
``__dict__``. ``fast_replace(cls, name)`` returns ``f(obj, value)``, the same object as
``dataclasses.replace(obj, name=value)``, built the same way. Both are written as source from
``dataclasses.fields(cls)`` and compiled once with ``exec``, as :mod:`dataclasses` builds
``__init__`` itself.

Why: a frozen dataclass's ``__init__`` pays an ``object.__setattr__`` call per field, and
``dataclasses.replace`` reads the fields again on every call; matches, mentions, turns,
candidates, trace steps and result parts are made several times per query. Hand-unrolled
constructors were as fast but typed the field order by hand, so a field added to a class was
silently left unset (or not carried over). Generated from the fields, it cannot be missed.

Example:
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, slots=True)
    ... class Pair:
    ...     left: str
    ...     right: str = ""
    >>> new_pair = fast_init(Pair)
    >>> new_pair("a") == Pair("a"), fast_replace(Pair, "right")(Pair("a"), "b")
    (True, Pair(left='a', right='b'))
"""

from __future__ import annotations

import dataclasses
import inspect
import types
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class _Factory:
    """The default of a parameter whose field has a ``default_factory`` (shown as the
    dataclass's own ``__init__`` shows it)."""

    def __repr__(self) -> str:
        return "<factory>"


_HAS_FACTORY: Any = _Factory()


def fast_init(cls: Callable[P, T]) -> Callable[P, T]:
    """A constructor equal to ``cls(...)`` for a dataclass ``cls`` whose ``__init__`` is the
    generated one: every field an ``init`` field, positional, and no ``__post_init__``
    (:class:`TypeError` otherwise, naming the class)."""
    klass: Any = cls
    fields, slotted = _plan(klass)
    env: dict[str, Any] = {"__fi_new": object.__new__, "__fi_cls": klass}
    params: list[str] = []
    values: list[str] = []
    for k, f in enumerate(fields):
        if f.default is not dataclasses.MISSING:
            env[f"__fi_default_{k}"] = f.default
            params.append(f"{f.name}=__fi_default_{k}")
            values.append(f.name)
        elif f.default_factory is not dataclasses.MISSING:
            env[f"__fi_factory_{k}"] = f.default_factory
            env["__fi_HAS_FACTORY"] = _HAS_FACTORY
            params.append(f"{f.name}=__fi_HAS_FACTORY")
            values.append(f"__fi_factory_{k}() if {f.name} is __fi_HAS_FACTORY else {f.name}")
        else:
            params.append(f.name)
            values.append(f.name)
    make: Callable[P, T] = _compile(
        klass, slotted, fields, env, "fast_init", ", ".join(params), values
    )
    return make


def fast_replace(cls: type[T], name: str) -> Callable[[T, Any], T]:
    """``f(obj, value)``: the same object as ``dataclasses.replace(obj, **{name: value})`` for an
    instance of ``cls`` (a dataclass :func:`fast_init` accepts)."""
    fields, slotted = _plan(cls)
    if name not in [f.name for f in fields]:
        raise TypeError(f"fast_replace: {cls.__qualname__} has no field {name!r}")
    env: dict[str, Any] = {"__fi_new": object.__new__, "__fi_cls": cls}
    values = ["__fi_value" if f.name == name else f"__fi_obj.{f.name}" for f in fields]
    replace: Callable[[T, Any], T] = _compile(
        cls, slotted, fields, env, "fast_replace", "__fi_obj, __fi_value", values
    )
    return replace


def _plan(cls: Any) -> tuple[tuple[dataclasses.Field[Any], ...], bool]:
    """The fields of ``cls`` and whether they are all slots (else none may be)."""
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise TypeError(f"fast_init: {cls!r} is not a dataclass")
    where = cls.__qualname__
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"fast_init: {where} has a __post_init__, which the fast path would skip")
    fields = dataclasses.fields(cls)
    sig = inspect.signature(cls)
    if [p.name for p in sig.parameters.values()] != [f.name for f in fields] or any(
        p.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD for p in sig.parameters.values()
    ):
        raise TypeError(
            f"fast_init: {where}'s __init__ does not take exactly its fields, positionally "
            "(init=False, InitVar or kw_only fields, or an __init__ of its own)"
        )
    slots = [isinstance(getattr(cls, f.name, None), types.MemberDescriptorType) for f in fields]
    if any(slots) and not all(slots):
        raise TypeError(f"fast_init: {where} mixes slot and __dict__ fields")
    if not any(slots) and not hasattr(cls, "__dict__"):
        raise TypeError(f"fast_init: {where} has neither slots nor an instance __dict__")
    return fields, all(slots) and bool(fields)


def _compile(
    cls: Any,
    slotted: bool,
    fields: tuple[dataclasses.Field[Any], ...],
    env: dict[str, Any],
    kind: str,
    params: str,
    values: list[str],
) -> Any:
    """Compile ``def f(params): obj = object.__new__(cls); <set field k to values[k]>; return
    obj`` with ``env`` as its closure (locals of a factory function, as :mod:`dataclasses`
    does), and name it after ``kind`` and the class."""
    body = ["    __fi_self = __fi_new(__fi_cls)"]
    if slotted:
        for k, (f, v) in enumerate(zip(fields, values, strict=True)):
            env[f"__fi_set_{k}"] = getattr(cls, f.name).__set__
            body.append(f"    __fi_set_{k}(__fi_self, {v})")
    elif fields:
        body.append("    __fi_dict = __fi_self.__dict__")
        body.extend(f"    __fi_dict[{f.name!r}] = {v}" for f, v in zip(fields, values, strict=True))
    body.append("    return __fi_self")
    fn = f"{kind}_{cls.__name__}"
    src = "\n".join(
        [
            f"def __fi_create({', '.join(env)}):",
            f"  def {fn}({params}):",
            *("  " + line for line in body),
            f"  return {fn}",
        ]
    )
    scope: dict[str, Any] = {}
    exec(compile(src, f"<{kind} {cls.__module__}.{cls.__qualname__}>", "exec"), scope)
    made = scope["__fi_create"](**env)
    made.__qualname__ = fn
    made.__module__ = cls.__module__
    made.__doc__ = (
        f"``{cls.__qualname__}(...)`` built without the frozen ``__init__``'s per-field "
        f"``object.__setattr__`` (generated by rulerewrite.fastinit.{kind})."
    )
    return made
