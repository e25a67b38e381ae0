"""Rule-based intent classification from dictionary keyword features and query patterns."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import ahocorasick

from rulerewrite.lexicon import Lexicon, Match, Rule

DEFAULT_INTENT = "其他"
KEYWORD_WEIGHT = 1.0
COLLOQUIAL_WEIGHT = 1.5
# a label a domain pack defines gets a little credit for every term of that pack in the query
DOMAIN_WEIGHT = 0.6
DOMAIN_MAX_TERMS = 1
# a pattern matching the same phrase a keyword already voted for counts half
OVERLAP_FACTOR = 0.5
_GATE = frozenset({"fw:question", "fw:comparison", "negation", "intent", "colloquial"})
_LATIN = re.compile(r"[a-z]{4}")
_DOMAIN_KINDS = frozenset({"entity", "synonym", "synonym_canonical", "alias", "canonical", "slot"})


@dataclass(frozen=True, slots=True)
class IntentScore:
    """One label's evidence: total score and the features that voted (for explanations)."""

    label: str
    score: float
    longest: int
    evidence: tuple[str, ...]


class IntentClassifier:
    """What: score every intent label the loaded packs define from three kinds of evidence —
    the pack's intent keywords found by the automaton (1.0 each), colloquial patterns that name
    an intent (1.5), and the structural patterns of ``rules/intent.yaml`` (``A和B哪个好`` →
    产品对比, ``怎么申请`` → 流程咨询; each with its weight, half of it when a keyword already voted
    for the same phrase) — plus a domain credit (0.6 when the query has a term of the pack that defines a
    domain-only label such as 理赔咨询, counted once), so a topic label beats a bare question
    type (怎么申请理赔 → 理赔咨询) but not an explicit cost question (退保要扣多少钱 → 费用查询). The best score wins;
    ties go to the label whose pack has more terms in the query, then to the longer keyword,
    then to the label defined first. Nothing above zero →
    ``其他``. The winning label's ``filters`` are returned as metadata filter hints.
    Why: a label lets the caller add metadata filters (费用查询 → category: 费用) and route the
    query; rules keep it explainable and instant.
    Labels are pack-configurable: a pack lists its own labels and keywords (and may extend a
    label of ``general``); a pattern whose label no loaded pack defines is ignored.
    Example: ``退保要扣多少钱`` -> ``费用查询`` (扣多少 pattern + 多少钱 keyword).
    """

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon
        self.order = {label: i for i, label in enumerate(lexicon.intents)}
        self.patterns: list[tuple[Rule, str, float]] = []
        for r in lexicon.rules.get("intent", ()):
            label = r.get("label")
            if r.pattern is None or not isinstance(label, str) or label not in lexicon.intents:
                continue
            try:
                weight = float(r.get("weight", 1.0))
            except (TypeError, ValueError):
                weight = 1.0
            self.patterns.append((r, label, weight))
        # labels general defines are question types (流程咨询, 费用查询 ...); only a label that a
        # domain pack alone defines (退保咨询, 理赔咨询 ...) gets the domain credit
        self.general_labels = {
            e.intent for e in lexicon.entries_of("intent") if e.pack == "general" and e.intent
        }
        self.inner = _inner_keywords(lexicon)
        self._profiles: dict[
            str, tuple[tuple[tuple[str, float, int, tuple[Any, ...]], ...], frozenset[str], bool]
        ] = {}

    def scores(
        self, matches: Sequence[Match], *, text: str | None = None, explain: bool = True
    ) -> list[IntentScore]:
        """Every label with evidence, best first (``explain=False``: no evidence strings)."""
        score, longest, evidence, packs = self._tally(matches, text, explain)
        out = [
            IntentScore(k, round(score[k], 3), longest[k], tuple(evidence.get(k, ())))
            for k in score
            if score[k] > 0
        ]
        out.sort(key=lambda s: self._rank(s.label, s.score, s.longest, packs))
        return out

    def _rank(
        self, label: str, score: float, longest: int, packs: dict[str, int]
    ) -> tuple[float, int, int, int]:
        """Sort key, best first. Ties: the label whose pack has more terms in the query, the
        longer keyword, pack order."""
        it = self.lexicon.intents.get(label)
        terms = packs.get(it.pack, 0) if it is not None else 0
        return (-score, -terms, -longest, self.order.get(label, 99))

    def _tally(
        self, matches: Sequence[Match], text: str | None, explain: bool
    ) -> tuple[dict[str, float], dict[str, int], dict[str, list[str]], dict[str, int]]:
        """Raw scores, longest evidence and (``explain``) evidence per label; terms per pack."""
        score: dict[str, float] = {}
        longest: dict[str, int] = {}
        evidence: dict[str, list[str]] = {}

        def vote(label: str, w: float, length: int, why: tuple[Any, ...]) -> None:
            score[label] = score.get(label, 0.0) + w
            if length > longest.get(label, -1):
                longest[label] = length
            if explain:
                evidence.setdefault(label, []).append(str(why[0]).format(*why[1:]))

        packs: dict[str, int] = {}
        spans: dict[str, list[tuple[int, int]]] = {}
        gate = False
        for m in matches:
            votes, mpacks, mgate = self._profile(m)
            for label, w, length, why in votes:
                vote(label, w, length, why)
                spans.setdefault(label, []).append((m.start, m.end))
            for pk in mpacks:
                packs[pk] = packs.get(pk, 0) + 1
            gate = gate or mgate
        # the patterns are structural cues around question, comparison, negation or intent words:
        # a query with none of those (most precise queries) skips them
        if text and self.patterns and (gate or _LATIN.search(text)):
            for r, label, w in self.patterns:
                assert r.pattern is not None
                mm = r.pattern.search(text)
                if mm is None:
                    continue
                a, b = mm.span()
                if any(s < b and a < e for s, e in spans.get(label, ())):
                    w = w * OVERLAP_FACTOR  # a keyword already voted for this very phrase
                vote(label, w, len(mm.group()), ("pattern {} ({})", r.id, r.source))
        if packs:
            for label in list(score):
                it = self.lexicon.intents.get(label)
                if it is None or label in self.general_labels:
                    continue
                if packs.get(it.pack):
                    n = min(packs[it.pack], DOMAIN_MAX_TERMS)
                    vote(label, DOMAIN_WEIGHT * n, 0, ("domain {} x{}", it.pack, n))
        return score, longest, evidence, packs

    def _profile(
        self, m: Match
    ) -> tuple[tuple[tuple[str, float, int, tuple[Any, ...]], ...], frozenset[str], bool]:
        """What one dictionary hit contributes (its votes, its domain packs, whether it opens
        the pattern gate); it depends on the hit's key only, so it is computed once per key."""
        cached = self._profiles.get(m.key)
        if cached is not None:
            return cached
        votes: list[tuple[str, float, int, tuple[Any, ...]]] = []
        seen: set[str] = set()
        # intent keywords inside a longer dictionary term (受益人 in 受益人变更); a colloquial
        # pattern that names its own intent speaks for the whole phrase
        own = any(e.kind == "colloquial" and e.intent for e in m.entries)
        for label, kw, src in () if own else self.inner.get(m.key, ()):
            if label not in seen:
                votes.append(
                    (label, KEYWORD_WEIGHT, len(kw), ("keyword {} in {} ({})", kw, m.key, src))
                )
                seen.add(label)
        length = m.end - m.start
        for e in m.entries:
            if not e.intent or e.intent in seen:
                continue
            if e.kind == "intent":
                votes.append(
                    (e.intent, KEYWORD_WEIGHT, length, ("keyword {} ({})", m.key, e.source))
                )
            elif e.kind == "colloquial":
                votes.append((e.intent, COLLOQUIAL_WEIGHT, length, ("colloquial {}", m.key)))
            else:
                continue
            seen.add(e.intent)
        packs = frozenset(
            e.pack for e in m.entries if e.kind in _DOMAIN_KINDS and e.pack != "general"
        )
        gate = any(e.kind in _GATE for e in m.entries)
        out = (tuple(votes), packs, gate)
        self._profiles[m.key] = out
        return out

    def classify(
        self, matches: Sequence[Match], *, text: str | None = None
    ) -> tuple[str, dict[str, Any]]:
        """The best label and its filter hints (``其他`` and ``{}`` when nothing votes)."""
        score, longest, _evidence, packs = self._tally(matches, text, False)
        best: tuple[float, int, int, int] | None = None
        label = DEFAULT_INTENT
        for k, v in score.items():  # the first best in vote order, as the stable sort gives
            if v <= 0:
                continue
            key = self._rank(k, round(v, 3), longest[k], packs)
            if best is None or key < best:
                best, label = key, k
        if best is None:
            return DEFAULT_INTENT, {}
        it = self.lexicon.intents.get(label)
        return label, (dict(it.filters) if it else {})


def _inner_keywords(lexicon: Lexicon) -> dict[str, tuple[tuple[str, str, str], ...]]:
    """For every dictionary term, the intent keywords strictly inside it (computed once).

    Longest-match resolution gives 受益人变更 one match; its keywords 受益人 / 变更 still vote.
    """
    norm = lexicon.normalizer
    kws: dict[str, list[tuple[str, str]]] = {}
    for e in lexicon.entries_of("intent"):
        if e.intent:
            kws.setdefault(norm(e.text).text, []).append((e.intent, e.source))
    if not kws:
        return {}
    auto = ahocorasick.Automaton()
    for k in kws:
        auto.add_word(k, k)
    auto.make_automaton()
    out: dict[str, tuple[tuple[str, str, str], ...]] = {}
    for e, key in zip(lexicon.entries, lexicon.normalized_entries(), strict=True):
        if e.kind in ("intent", "fw:question", "fw:filler", "fw:chitchat"):
            continue
        if key in out:
            continue
        found: list[tuple[str, str, str]] = []
        for _end, kw in auto.iter(key):
            if kw != key:
                found.extend((label, kw, src) for label, src in kws[kw])
        if found:
            out[key] = tuple(dict.fromkeys(found))
            if " " in key:
                out[key.replace(" ", "")] = out[key]
    return out
