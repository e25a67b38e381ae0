"""Readers of a rule's keys, shared by the context analyzer and the multi-turn modes: each is
called once when an analyzer or a mode is built, never per query. A key that is absent reads as
empty (no words, no pattern); a regular expression that does not compile is a located
:class:`~rulerewrite.errors.LexiconError` (RR108), not a bare ``re.error``."""

from __future__ import annotations

import re

from rulerewrite.errors import Diagnostic, LexiconError
from rulerewrite.lexicon.model import Rule


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
