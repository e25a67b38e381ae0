"""Intent-fidelity guards, run after every mode on every query text the mode produced.

A step is rejected when a query it produced
- drops or alters a protected entity, a number, a version, a date, an order id or another hard
  constraint of the original (for split sub-queries: each item must survive in at least one);
- drops a negation (不/没/没有/别/无/非/未 ...) or adds one that the history does not supply;
- introduces anything that is neither in the original, in the history window, a dictionary
  expansion of an original term, nor sentence glue (``rules/glue.yaml``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rulerewrite.lexicon import Lexicon, Match
from rulerewrite.text.normalize import Normalizer

_WORDISH = re.compile(r"[0-9a-z\u3400-\u4dbf\u4e00-\u9fff]")
# 不 as an A-not-A question (能退不 / 好不好 / 是不是) is not a negation of the content.
_FUNCTION_KINDS = frozenset({"negation", "pronoun", "demonstrative", "intent"})
_ANOTA = re.compile(r"(.)不\1|不$|没$|不[?？]|没[?？]")


@dataclass(frozen=True, slots=True)
class Protected:
    """What the original query commits to, computed once per rewrite."""

    items: tuple[tuple[str, str, str], ...]  # (kind, normalised text, rule source)
    negations: dict[str, int]
    expansions: frozenset[str]  # normalised dictionary expansions of original terms
    history: tuple[str, ...]  # normalised history turns in the window


class Guards:
    """Build once per Rewriter; ``protected()`` per query; ``check()`` per produced text."""

    def __init__(self, lexicon: Lexicon, normalizer: Normalizer) -> None:
        self.lexicon = lexicon
        self.norm = normalizer
        self.patterns = [
            (r.get("type", r.id), r.pattern, r.source)
            for r in lexicon.rules.get("guard", ())
            if r.pattern
        ]
        glue: set[str] = set()
        for r in lexicon.rules.get("glue", ()):
            glue.update(self.norm(w).text for w in r.get("words", []))
        for e in lexicon.entries:
            if e.kind.startswith("fw:") or e.kind in ("pronoun", "demonstrative"):
                glue.add(self.norm(e.text).text)
        self.glue = sorted((g for g in glue if g), key=len, reverse=True)
        self.negation_words = sorted(
            {self.norm(e.text).text for e in lexicon.entries_of("negation")}, key=len, reverse=True
        )
        # one regex pass, longest word first at each position (same result as trying each word)
        self._negation_re = (
            re.compile("|".join(map(re.escape, self.negation_words)))
            if self.negation_words
            else None
        )

    def protected(
        self, norm_text: str, matches: Sequence[Match], history: Iterable[str]
    ) -> Protected:
        items: list[tuple[str, str, str]] = []
        expansions: set[str] = set()
        for m in matches:
            for e in m.entries:
                if e.kind == "entity":
                    items.append(("entity", m.key, e.source))
                    if e.canonical:
                        expansions.add(self.norm(e.canonical).text)
                elif e.kind in ("synonym", "alias") and e.canonical:
                    expansions.add(self.norm(e.canonical).text)
                elif e.kind in ("synonym_canonical", "colloquial"):
                    expansions.update(self.norm(t).text for t in e.targets)
        # constraints inside a dictionary term are that term's business (k8s is an alias, not 8)
        spans = [(m.start, m.end) for m in matches if not m.kinds() <= _FUNCTION_KINDS]
        # a count inside a referring expression (这两个 / 第二个) is replaced with its referent
        refs = [(m.start, m.end) for m in matches if m.kinds() & {"pronoun", "demonstrative"}]
        for kind, pat, src in self.patterns:
            for mm in pat.finditer(norm_text):
                a0, b0 = mm.span()
                if any(a <= a0 and b0 <= b for a, b in refs):
                    continue
                if any(a <= a0 and b0 <= b for a, b in spans):
                    continue  # inside an entity already protected
                spans.append((a0, b0))
                items.append((kind, mm.group(), src))
        return Protected(
            items=tuple(items),
            negations=self.count_negations(norm_text),
            expansions=frozenset(expansions),
            history=tuple(self.norm(h).text for h in history),
        )

    def count_negations(self, text: str) -> dict[str, int]:
        counts: dict[str, int] = {}
        if self._negation_re is None:
            return counts
        for w in self._negation_re.findall(_ANOTA.sub("", text)):
            counts[w] = counts.get(w, 0) + 1
        return counts

    def check(
        self,
        prot: Protected,
        original: str,
        produced: str,
        *,
        partial: bool = False,
        allowed_negation_drops: frozenset[str] = frozenset(),
    ) -> str | None:
        """Why ``produced`` is unsafe, or None. ``partial``: a split sub-query, which need not
        carry every protected item (the set of sub-queries is checked with :meth:`check_cover`)."""
        out = self.norm(produced).text
        orig = self.norm(original).text
        if not partial:
            for kind, text, src in prot.items:
                if text not in out and text.replace(" ", "") not in out.replace(" ", ""):
                    return f"drops {kind} {text!r} ({src})"
        neg_out = self.count_negations(out)
        for w, n in prot.negations.items():
            if neg_out.get(w, 0) < n and w not in allowed_negation_drops and not partial:
                return f"drops negation {w!r}"
        covered: list[bool] | None = None
        for j1, j2 in self.inserted_spans(orig, out):
            chunk = out[j1:j2]
            for w in self.negation_words:  # the more specific reason first
                if w in chunk and not any(chunk in h for h in prot.history):
                    return f"adds negation {w!r}"
            why = self._unsupported(chunk, prot, orig)
            if why:
                # the diff may cut a glue word in two (能 kept, 否 inserted → 能否): characters
                # that belong to a glue word occurring in the produced text are glue too
                if covered is None:
                    covered = self._glue_cover(out)
                bare = "".join(" " if covered[j] else out[j] for j in range(j1, j2))
                why = self._unsupported(bare, prot, orig)
            if why:
                return why
        return None

    def _glue_cover(self, out: str) -> list[bool]:
        cov = [False] * len(out)
        for g in self.glue:
            i = out.find(g)
            while i >= 0:
                for k in range(i, i + len(g)):
                    cov[k] = True
                i = out.find(g, i + 1)
        return cov

    def check_cover(self, prot: Protected, texts: Sequence[str]) -> str | None:
        joined = " ".join(self.norm(t).text for t in texts)
        for kind, text, src in prot.items:
            if text not in joined and text.replace(" ", "") not in joined.replace(" ", ""):
                return f"sub-queries drop {kind} {text!r} ({src})"
        return None

    @staticmethod
    def inserted_spans(orig: str, out: str) -> list[tuple[int, int]]:
        sm = difflib.SequenceMatcher(None, orig, out, autojunk=False)
        return [
            (j1, j2) for tag, _i1, _i2, j1, j2 in sm.get_opcodes() if tag in ("insert", "replace")
        ]

    @staticmethod
    def inserted(orig: str, out: str) -> list[str]:
        sm = difflib.SequenceMatcher(None, orig, out, autojunk=False)
        return [
            out[j1:j2] for tag, _i1, _i2, j1, j2 in sm.get_opcodes() if tag in ("insert", "replace")
        ]

    def _unsupported(self, chunk: str, prot: Protected, orig: str = "") -> str | None:
        if not _WORDISH.search(chunk):
            return None
        # text moved from elsewhere in the query (a distributed subject, 上海呢 → 上海的…) is the
        # user's own; so is history text and a dictionary expansion
        history = (*prot.history, orig) if orig else prot.history
        if any(chunk in h for h in history) or any(chunk in x for x in prot.expansions):
            return None
        rest = chunk
        for piece in sorted(prot.expansions, key=len, reverse=True):
            rest = rest.replace(piece, " ")
        # pieces of history phrases (a noun phrase taken from a turn) are fine
        rest = _strip_history(rest, history)
        for g in self.glue:
            rest = rest.replace(g, " ")
        left = "".join(ch for ch in rest if _WORDISH.match(ch))
        if left:
            return (
                f"introduces {left!r}, found neither in the query, the history nor the dictionaries"
            )
        return None


def _strip_history(rest: str, history: Sequence[str]) -> str:
    """Remove every run of >= 2 characters of ``rest`` that occurs in a history turn."""
    if not history:
        return rest
    out: list[str] = []
    i = 0
    n = len(rest)
    while i < n:
        best = 0
        for j in range(n, i + 1, -1):
            seg = rest[i:j]
            if seg.strip() and any(seg in h for h in history):
                best = j - i
                break
        if best:
            out.append(" ")
            i += best
        else:
            out.append(rest[i])
            i += 1
    return "".join(out)
