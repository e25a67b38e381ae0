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
import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

import ahocorasick

from rulerewrite.fastinit import fast_replace
from rulerewrite.lexicon import Lexicon, Match
from rulerewrite.text.normalize import Normalizer
from rulerewrite.text.perspective import user_side

_WORDISH = re.compile(r"[0-9a-z\u3400-\u4dbf\u4e00-\u9fff]")
# 不 as an A-not-A question (能退不 / 好不好 / 是不是) is not a negation of the content.
# words that contain a negation character without negating (区别, 别人, 不一样)
_NOT_NEGATING = frozenset({"blocking", "fw:comparison"})
_FUNCTION_KINDS = frozenset({"negation", "pronoun", "demonstrative", "intent"})
_ANOTA = re.compile(r"(.)不\1|不$|没$|不[?？]|没[?？]")


@dataclass(frozen=True, slots=True)
class Protected:
    """What the original query commits to, computed once per rewrite."""

    items: tuple[tuple[str, str, str], ...]  # (kind, normalised text, rule source)
    negations: dict[str, int]
    expansions: frozenset[str]  # normalised dictionary expansions of original terms
    history: tuple[str, ...]  # normalised history turns in the window
    # dictionary terms of the query that contain a negation and map to targets:
    # (term, targets, negations in the term) — a target stands for the term's negations
    neg_terms: tuple[tuple[str, tuple[str, ...], int], ...] = ()

    # ``p.with_history(history)``: the same commitments with the dialogue window's normalised
    # turns, what ``dataclasses.replace(p, history=history)`` gives, without its per-call field
    # introspection nor the frozen ``__init__`` (once per rewrite with a history); generated
    # from the fields below the class, and set as the method itself (no wrapper call)
    with_history: ClassVar[Callable[[Protected, tuple[str, ...]], Protected]]


Protected.with_history = fast_replace(Protected, "history")


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
        # every glue word occurring in a text (overlaps included) in one automaton pass, as
        # indexes into ``self.glue``; None when a glue word holds a space (see ``_glue_in``)
        self._glue_auto: ahocorasick.Automaton | None = None
        if self.glue and not any(" " in g for g in self.glue):
            self._glue_auto = ahocorasick.Automaton()
            for i, g in enumerate(self.glue):
                self._glue_auto.add_word(g, i)
            self._glue_auto.make_automaton()
        # a lone history character allowed when a turn says it after one of these (how_verbs)
        how = next((r for r in lexicon.rules.get("guard", ()) if r.id == "how_verbs"), None)
        self.how_words = tuple(str(w) for w in ((how.get("how_words") or ()) if how else ()))
        self.negation_words = sorted(
            {self.norm(e.text).text for e in lexicon.entries_of("negation")}, key=len, reverse=True
        )
        # one regex pass, longest word first at each position (same result as trying each word)
        self._negation_re = (
            re.compile("|".join(map(re.escape, self.negation_words)))
            if self.negation_words
            else None
        )
        # with 不 and 没 negation words themselves, a text in which no negation word occurs has
        # no negation (the A-not-A patterns removed before counting all hold a 不 or a 没, and
        # masking never creates a word): ``free_negations`` can answer 0 without the automaton
        self._plain_negations = {"不", "没"} <= set(self.negation_words)
        # per rewrite, every produced text is checked against the same history window (and
        # the query): the window joined for searching, built once per distinct window
        self._said = functools.lru_cache(maxsize=1024)(_Said)

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
            negations={"*": self.free_negations(norm_text, matches)},
            neg_terms=tuple(self._neg_terms(matches)),
            expansions=frozenset(expansions),
            history=self.history_view(history),
        )

    def history_view(self, history: Iterable[str]) -> tuple[str, ...]:
        """The window's turns as the guards read them: normalised, with each turn that
        addresses someone also as the other speaker would say it."""
        return with_perspective(tuple(self.norm(h).text for h in history))

    def _neg_terms(self, matches: Sequence[Match]) -> list[tuple[str, tuple[str, ...], int]]:
        out = []
        for m in matches:
            if m.kinds() <= _FUNCTION_KINDS:
                continue
            k = sum(self.count_negations(m.key).values())
            if not k:
                continue
            targets: list[str] = []
            for e in m.entries:
                if e.kind in ("synonym", "alias") and e.canonical:
                    targets.append(self.norm(e.canonical).text)
                elif e.kind in ("synonym_canonical", "colloquial"):
                    targets.extend(self.norm(t).text for t in e.targets)
            if targets:
                out.append((m.key, tuple(targets), k))
        return out

    def count_negations(self, text: str) -> dict[str, int]:
        counts: dict[str, int] = {}
        if self._negation_re is None:
            return counts
        for w in self._negation_re.findall(_ANOTA.sub("", text)):
            counts[w] = counts.get(w, 0) + 1
        return counts

    def free_negations(self, text: str, matches: Sequence[Match] | None = None) -> int:
        """How many negations ``text`` has, not counting words that merely contain a negation
        character (区别, 别人, 不一样: blocking words and comparison words in the packs)."""
        if self._negation_re is None or (
            self._plain_negations and self._negation_re.search(text) is None
        ):
            return 0
        if matches is None:
            matches = self.lexicon.match(self.norm(text))
        spans = [(m.start, m.end) for m in matches if m.kinds() & _NOT_NEGATING]
        if spans:
            # mask each word with its own private-use character, so the mask never forms an
            # A-not-A pattern (X不X) around a free 不
            chars = list(text)
            for k, (a, b) in enumerate(spans):
                chars[a:b] = chr(0xE000 + k % 4096) * (b - a)
            text = "".join(chars)
        return sum(self.count_negations(text).values())

    def _negations_after(self, prot: Protected, out: str) -> int:
        """Negations of a produced text, where a dictionary target that replaced a negating
        term (跑不起来 → 启动失败, 没有发票能报销吗 → 无票报销) carries that term's negations."""
        n = self.free_negations(out)
        for term, targets, k in prot.neg_terms:
            if term in out:
                continue
            for t in targets:
                if t in out:
                    n += k - self.free_negations(t)
                    break
        return n

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
        neg_out = self._negations_after(prot, out)
        neg_in = prot.negations.get("*", 0)
        if neg_out < neg_in - len(allowed_negation_drops) and not partial:
            return f"drops negation ({neg_in} in the query, {neg_out} in the rewrite)"
        # Fast path: one edit region (common prefix and suffix stripped) covers most rewrites;
        # only when that coarse region does not pass is the exact character diff computed.
        fast = self.edit_region(orig, out)
        why = self._check_inserted(prot, orig, out, fast, neg_in, neg_out)
        if why is None:
            return None
        exact = self.inserted_spans(orig, out)
        if exact == fast:
            return why
        return self._check_inserted(prot, orig, out, exact, neg_in, neg_out)

    def _check_inserted(
        self,
        prot: Protected,
        orig: str,
        out: str,
        spans: list[tuple[int, int]],
        neg_in: int,
        neg_out: int,
    ) -> str | None:
        covered: list[bool] | None = None
        for j1, j2 in spans:
            chunk = out[j1:j2]
            if (
                neg_out > neg_in
                and self._negation_re is not None
                and self._negation_re.search(chunk)
                and not _from_history(chunk, self._said(prot.history))
            ):  # the more specific reason first
                # 莫扎特 + the glue 是: the name was said, the glue word negates nothing
                if covered is None:
                    covered = self._glue_cover(out)
                a, b = j1, j2
                while a < b and covered[b - 1]:
                    b -= 1
                while a < b and covered[a]:
                    a += 1
                core = out[a:b]
                if not (
                    core
                    and core != chunk
                    and not self._negation_re.search(out[j1:a] + out[b:j2])
                    and _from_history(core, self._said(prot.history))
                ):
                    return f"adds negation in {chunk!r}"
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

    @staticmethod
    def edit_region(orig: str, out: str) -> list[tuple[int, int]]:
        """The span of ``out`` between the longest common prefix and suffix with ``orig``."""
        n = min(len(orig), len(out))
        p = _common_prefix(orig, out, n)
        s = _common_suffix(orig, out, n - p)
        end = len(out) - s
        return [(p, end)] if end > p else []

    def _glue_cover(self, out: str) -> list[bool]:
        """Which characters of ``out`` belong to an occurrence of a glue word."""
        cov = [False] * len(out)
        if self._glue_auto is not None:
            glue = self.glue
            for end, i in self._glue_auto.iter(out):
                for k in range(end + 1 - len(glue[i]), end + 1):
                    cov[k] = True
            return cov
        for g in self.glue:
            i = out.find(g)
            while i >= 0:
                for k in range(i, i + len(g)):
                    cov[k] = True
                i = out.find(g, i + 1)
        return cov

    def _glue_in(self, text: str) -> list[str]:
        """The glue words that occur in ``text``, in ``self.glue`` order. Replacing them in that
        order with a space gives what replacing every glue word in that order gives: a word
        found after earlier replacements lies between inserted spaces, so (holding no space
        itself) it already occurred in ``text``."""
        if self._glue_auto is None:
            return self.glue
        return [self.glue[i] for i in sorted({i for _end, i in self._glue_auto.iter(text)})]

    def _how_verb(self, ch: str, said: _Said) -> bool:
        """Whether a history turn says ``ch`` right after a how-word (rules/guards.yaml
        ``how_verbs``): a one-character verb the user asked how to do, moved before its object
        (手风琴怎么拉 / 你会吗 -> 你会拉手风琴吗), which no run of two characters covers. Asked
        only of a character that would otherwise be reported as invented."""
        return any(said.has(w + ch) for w in self.how_words)

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

    def _unsupported(self, chunk: str, prot: Protected, orig: str = "") -> str | None:
        if not _WORDISH.search(chunk):
            return None
        # text moved from elsewhere in the query (a distributed subject, 上海呢 → 上海的…) is the
        # user's own; so is history text and a dictionary expansion
        history = (*prot.history, orig) if orig else prot.history
        said = self._said(history)
        if said.has(chunk) or any(chunk in x for x in prot.expansions):
            return None
        rest = chunk
        for piece in sorted(prot.expansions, key=len, reverse=True):
            rest = rest.replace(piece, " ")
        # pieces of history phrases (a noun phrase taken from a turn) are fine
        rest = _strip_history(rest, said)
        for g in self._glue_in(rest):
            rest = rest.replace(g, " ")
        left = "".join(ch for ch in rest if _WORDISH.match(ch) and not self._how_verb(ch, said))
        if "我" in left and said.has("你"):
            # 你和X是啥关系 / 前女友 -> X是我前女友: the 你 said to the user is the user's 我
            left = left.replace("我", "")
        if left:
            return (
                f"introduces {left!r}, found neither in the query, the history nor the dictionaries"
            )
        return None


class _Said:
    """Whether a string occurs in one of some texts (the history turns), with one search over
    the texts joined by a separator instead of one search per text. A string holding the
    separator itself is searched text by text (a match must not span two texts)."""

    __slots__ = ("joined", "texts")
    SEP = "\x00"

    def __init__(self, texts: Sequence[str]) -> None:
        self.texts = texts
        self.joined = self.SEP.join(texts)

    def __bool__(self) -> bool:
        return bool(self.texts)

    def has(self, s: str) -> bool:
        """``any(s in t for t in texts)``."""
        if self.SEP in s:
            return any(s in t for t in self.texts)
        return s in self.joined if self.texts else False


def _strip_history(rest: str, said: _Said) -> str:
    """Remove every run of >= 2 characters of ``rest`` that occurs in a history turn."""
    if not said:
        return rest
    out: list[str] = []
    i = 0
    n = len(rest)
    has = said.has
    while i < n:
        pair = rest[i : i + 2]
        if len(pair) < 2 or not has(pair):
            # no run of >= 2 characters starting here occurs in a turn: each one starts with
            # this pair
            out.append(rest[i])
            i += 1
            continue
        # the runs starting at i that occur in a turn are exactly rest[i:j] for i+2 <= j <= J
        # (a prefix of an occurring run occurs too): grow to J, one search per character,
        # instead of trying every end from the last one down. The longest run holding a
        # non-space character is then rest[i:J] itself, or none (all shorter ones are spaces)
        j = i + 2
        while j < n and has(rest[i : j + 1]):
            j += 1
        if rest[i:j].strip():
            out.append(" ")
            i = j
        else:
            out.append(rest[i])
            i += 1
    return "".join(out)


def _common_prefix(a: str, b: str, n: int) -> int:
    """The length of the longest common prefix of ``a`` and ``b``, at most ``n`` (<= both
    lengths). A plain character loop: the texts a guard compares are short (12 characters on
    average over the benchmark log) and differ early, where halving the range with slice
    comparisons cost ~4x more (a new slice pair per step)."""
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _common_suffix(a: str, b: str, n: int) -> int:
    """The length of the longest common suffix of ``a`` and ``b``, at most ``n`` (<= both
    lengths), as :func:`_common_prefix` finds a prefix."""
    i = 0
    la, lb = len(a) - 1, len(b) - 1
    while i < n and a[la - i] == b[lb - i]:
        i += 1
    return i


def _from_history(chunk: str, said: _Said) -> bool:
    """Was ``chunk`` said in the dialogue (the history turns ``said`` searches), whole or as two
    pieces of two or more characters each said there (不喜欢 from the answer + 朱飞 from the
    question: 为啥不喜欢朱飞)? A lone 不 is no piece: a negation must come with the word it
    negates."""
    has = said.has
    if has(chunk):
        return True
    return any(has(chunk[:k]) and has(chunk[k:]) for k in range(2, len(chunk) - 1))


def with_perspective(history: tuple[str, ...]) -> tuple[str, ...]:
    """The turns, plus each turn that addresses someone as the other speaker would say it
    (:func:`user_side`: 你 / 您 become 我, an opening 我 goes, a 我 inside becomes 你: 我可以帮
    您查订单吗 -> 可以帮我查订单吗, 你会想我吗 -> 我会想你吗). Why: an answer that repeats the
    question from the user's side (可以帮我查订单 / 会想你) invents nothing, while one that
    drops a 我 inside the sentence (需要我教你吗 -> 需要教我) or swaps a 你 no turn says is
    still new."""
    views = dict.fromkeys(history)
    for h in history:
        if "你" in h or "您" in h or "我" in h:
            views.setdefault(user_side(h))
    return tuple(views) if len(views) > len(history) else history
