"""Readers of a rule's keys, shared by the context analyzer and the multi-turn modes: each is
called once when an analyzer or a mode is built, never per query. A key that is absent reads as
empty (no words, no pattern); a regular expression that does not compile is a located
:class:`~rulerewrite.errors.LexiconError` (RR108), not a bare ``re.error``."""

from __future__ import annotations

import re
import sys
from typing import Any

from rulerewrite.errors import Diagnostic, LexiconError
from rulerewrite.lexicon.model import Rule

if sys.version_info >= (3, 11):
    import re._constants as _sre_constants
    import re._parser as _sre_parser
else:  # pragma: no cover - Python 3.10
    import sre_constants as _sre_constants
    import sre_parse as _sre_parser

# the repeat and group opcodes Python 3.11 added (None before: no pattern holds them)
_POSSESSIVE_REPEAT = getattr(_sre_constants, "POSSESSIVE_REPEAT", None)
_ATOMIC_GROUP = getattr(_sre_constants, "ATOMIC_GROUP", None)
_MAX_NEEDS = 64  # strings a required-text search lists at most


def rule_pattern(rule: Rule | None, key: str, *, ending: bool = False) -> re.Pattern[str] | None:
    """The regular expression a rule gives under ``key`` (besides its ``pattern``), compiled
    once when the mode is built (``ending``: anchored to the end of what it searches); None
    when the rule or the key is absent."""
    value = rule.get(key) if rule is not None else None
    if not value or rule is None:
        return None
    return rule_regex(rule, key, f"(?:{value})$" if ending else str(value))


def rule_regex(rule: Rule, key: str, value: object) -> re.Pattern[str]:
    """``value``, a regular expression rule ``rule`` gives under ``key`` (or deeper in it),
    compiled; a bad one is a :class:`~rulerewrite.errors.LexiconError` naming the rule file
    and line (RR108), not a bare ``re.error`` from deep inside a mode."""
    try:
        return re.compile(str(value))
    except re.error as e:
        file, _, line = rule.source.rpartition(":")
        raise LexiconError(
            [
                Diagnostic(
                    file or rule.source,
                    int(line) if line.isdigit() else 1,
                    1,
                    "RR108",
                    f"invalid regular expression under {key!r} in rule {rule.id!r}: {e}",
                )
            ]
        ) from e


def rule_match(rule: Rule | None, text: str, *, whole: bool = False) -> re.Match[str] | None:
    """A rule's ``pattern`` matched at the start of ``text`` (``whole``: over all of it); None
    when the rule or its pattern is absent or it does not match."""
    if rule is None or rule.pattern is None:
        return None
    return rule.pattern.fullmatch(text) if whole else rule.pattern.match(text)


def rule_words(rule: Rule | None, key: str) -> frozenset[str]:
    """The words a rule lists under ``key`` (empty when the rule or the key is absent)."""
    return frozenset(str(w) for w in ((rule.get(key) or ()) if rule is not None else ()))


def rule_tuple(rule: Rule | None, key: str) -> tuple[str, ...]:
    """The words a rule lists under ``key`` in their order, for ``str.startswith`` /
    ``str.endswith`` (empty when the rule or the key is absent)."""
    return tuple(str(w) for w in ((rule.get(key) or ()) if rule is not None else ()))


def rule_alternation(rule: Rule | None, key: str, *, ending: bool = False) -> re.Pattern[str]:
    """One regular expression matching any word a rule lists under ``key``, the longest first
    (``ending``: anchored to the end of what it searches); it matches nothing when the rule or
    the key is absent."""
    words = sorted(rule_tuple(rule, key), key=len, reverse=True)
    if not words:
        return re.compile("(?!)")
    body = "|".join(re.escape(w) for w in words)
    return re.compile(f"(?:{body})$" if ending else body)


def required_text(pattern: re.Pattern[str]) -> re.Pattern[str] | None:
    """A search for the strings every match of ``pattern`` holds, one of which must occur in a
    text for ``pattern`` to match anywhere in it: a cheap test that skips a frame whose words
    the text does not hold, derived from the pattern's own structure (its mandatory literal
    runs and alternations of them) when it is built, never per query. None when no such
    strings can be read off the pattern (case-insensitive, or nothing literal is mandatory).

    Example:
        >>> required_text(re.compile("^(?P<x>.{2,8}?)(?:知道|认识)吗")).pattern
        '知道吗|认识吗'
    """
    if pattern.flags & re.IGNORECASE:
        return None
    try:
        tree = _sre_parser.parse(pattern.pattern, pattern.flags)
    except (re.error, RecursionError, ValueError):  # pragma: no cover - compiled already
        return None
    need = _required(list(tree.data))
    if not need:
        return None
    return re.compile("|".join(re.escape(s) for s in sorted(need, key=lambda s: (-len(s), s))))


def _required(items: list[Any]) -> frozenset[str] | None:
    """The strings one of which every match of the parsed sequence ``items`` holds (None for
    none): the best of its mandatory parts, a run of literal characters (and of what follows
    each string of an alternation of literal runs) counting as one part."""
    best: frozenset[str] | None = None
    runs: frozenset[str] | None = frozenset({""})  # strings the items so far end with

    def better(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
        if b is None or not all(b):
            return a
        if a is None:
            return b
        return b if (min(map(len, b)), -len(b)) > (min(map(len, a)), -len(a)) else a

    for op, av in items:
        exact = _exact(op, av)
        if exact is not None and runs is not None and len(runs) * len(exact) <= _MAX_NEEDS:
            runs = frozenset(r + s for r in runs for s in exact)
            continue
        best = better(best, runs)
        if exact is not None:
            runs = exact if len(exact) <= _MAX_NEEDS else None
            continue
        runs = frozenset({""})
        best = better(best, _required_item(op, av))
    return better(best, runs)


def _exact(op: Any, av: Any) -> frozenset[str] | None:
    """The strings a parsed item matches, when it matches exactly one of a few literal strings
    (a character, a class of listed characters, an alternation or group of literal runs)."""
    c = _sre_constants
    if op is c.LITERAL:
        return frozenset({chr(av)})
    if op is c.IN:
        if len(av) <= _MAX_NEEDS and all(o is c.LITERAL for o, _v in av):
            return frozenset(chr(v) for _o, v in av)
        return None
    if op is c.SUBPATTERN:
        _group, add_flags, _del_flags, sub = av
        return None if add_flags & re.IGNORECASE else _exact_seq(list(sub))
    if op is c.BRANCH:
        out: set[str] = set()
        for alt in av[1]:
            strings = _exact_seq(list(alt))
            if strings is None:
                return None
            out |= strings
        return frozenset(out) if len(out) <= _MAX_NEEDS else None
    return None


def _exact_seq(items: list[Any]) -> frozenset[str] | None:
    out = frozenset({""})
    for op, av in items:
        strings = _exact(op, av)
        if strings is None or len(out) * len(strings) > _MAX_NEEDS:
            return None
        out = frozenset(r + s for r in out for s in strings)
    return out


def _required_item(op: Any, av: Any) -> frozenset[str] | None:
    """The strings one of which every match of one parsed item holds (None for none)."""
    c = _sre_constants
    if op in (c.MAX_REPEAT, c.MIN_REPEAT, _POSSESSIVE_REPEAT):
        low, _high, sub = av
        return _required(list(sub)) if low >= 1 else None
    if op is c.SUBPATTERN:
        _group, add_flags, _del_flags, sub = av
        return None if add_flags & re.IGNORECASE else _required(list(sub))
    if op is _ATOMIC_GROUP:
        return _required(list(av))
    if op is c.ASSERT:  # a lookahead or lookbehind: what it needs is in the text all the same
        _direction, sub = av
        return _required(list(sub))
    if op is c.BRANCH:
        out: set[str] = set()
        for alt in av[1]:
            strings = _required(list(alt))
            if strings is None:
                return None
            out |= strings
        return frozenset(out) if len(out) <= _MAX_NEEDS else None
    return None
