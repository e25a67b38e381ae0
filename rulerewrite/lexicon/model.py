"""The compiled form of packs and rule files: plain, immutable, picklable records."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from rulerewrite.fastinit import fast_init

# Entry kinds, in the order overlaps are resolved: a protected entity or a blocking word wins
# over any other match it overlaps, whatever its length; among the rest the longest match wins.
PROTECTED_KINDS = frozenset({"entity", "blocking"})


def _rebuilt(cls: Any, values: tuple[Any, ...]) -> Any:
    """The record of ``cls`` whose fields (in ``__match_args__`` order) are ``values``: what
    :func:`_reduced` pickles a record as."""
    return _MAKERS[cls](*values)


def _reduced(self: Any) -> tuple[Any, tuple[Any, tuple[Any, ...]]]:
    """``__reduce__`` of a frozen slots record: its class and its field values, rebuilt by
    :func:`_rebuilt`.

    Why: a slots dataclass is otherwise unpickled through the ``__setstate__`` dataclasses
    generates, which reads ``fields()`` again for every object; the lexicon cache holds
    thousands of entries, and loading it is most of building a Rewriter on a warm cache.

    Example:
        >>> import pickle
        >>> e = Entry("entity", "iPhone 15", "products", "products.yaml:3", etype="product")
        >>> pickle.loads(pickle.dumps(e)) == e
        True
    """
    cls = type(self)
    return _rebuilt, (cls, tuple(getattr(self, name) for name in cls.__match_args__))


@dataclass(frozen=True, slots=True)
class Entry:
    """One term of a pack as the automaton sees it.

    ``kind``: entity | synonym | synonym_canonical | alias | negation | blocking | colloquial |
    intent | slot | pronoun | demonstrative | fw:<category> (function words).
    ``source`` is ``file:line`` of the term in its pack, the id used in traces.
    """

    kind: str
    text: str
    pack: str
    source: str
    canonical: str | None = None
    targets: tuple[str, ...] = ()
    etype: str | None = None
    intent: str | None = None
    features: tuple[tuple[str, str], ...] = ()
    col: int = 1

    __reduce__ = _reduced

    def feature(self, name: str, default: str | None = None) -> str | None:
        for k, v in self.features:
            if k == name:
                return v
        return default


@dataclass(frozen=True, slots=True)
class Intent:
    label: str
    keywords: tuple[str, ...]
    filters: tuple[tuple[str, Any], ...]
    pack: str
    source: str

    __reduce__ = _reduced


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of a rule file. ``data`` holds the mode-specific keys (plain values)."""

    id: str
    mode: str
    source: str
    pattern: re.Pattern[str] | None
    data: dict[str, Any] = field(default_factory=dict)

    __reduce__ = _reduced

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)


@dataclass(frozen=True, slots=True)
class Match:
    """A dictionary hit on normalised text: half-open ``[start, end)`` and the entries it names."""

    start: int
    end: int
    key: str
    entries: tuple[Entry, ...]

    @property
    def protected(self) -> bool:
        return not PROTECTED_KINDS.isdisjoint([e.kind for e in self.entries])

    def kinds(self) -> frozenset[str]:
        return frozenset(e.kind for e in self.entries)

    def first(self, kind: str) -> Entry | None:
        for e in self.entries:
            if e.kind == kind:
                return e
        return None


# Match(start, end, key, entries) without the frozen __init__ (the automaton scan makes several
# per query)
new_match = fast_init(Match)


# each picklable record's constructor without the frozen __init__ (fastinit), for _rebuilt
_MAKERS: dict[type, Any] = {cls: fast_init(cls) for cls in (Entry, Intent, Rule)}
