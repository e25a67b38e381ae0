"""Typo and alias normalisation against the packs' vocabulary (used by the expand mode).

Two detectors, both conservative ("confident and unique"), both returning :class:`Correction`
records that the expand mode turns into *one extra query* and trace lines — never an in-place
change of the user's words:

- **Latin names and codes**: a Latin/digit run of the query that is not a dictionary term is
  compared (spaces and case ignored) with the packs' Latin terms using ``rapidfuzz``; it is
  corrected when the best ``fuzz.ratio`` reaches ``min_score`` with the runner-up (a different
  term) at least ``margin`` lower, or when exactly one term is within ``max_edits``
  Damerau-Levenshtein edits (one for names of up to six letters) — and only if the digits are
  identical (iphone14 never becomes iPhone 15). An
  entity matched through its compact form (``iphone15pro``) is given its dictionary spelling
  (``iPhone 15 Pro``).
- **Chinese homophones**: every 2-4 character vocabulary term is expanded once, at build time,
  into its one-character homophone variants (``pypinyin``, tones ignored, common characters
  only) kept in a table, so finding candidates costs one set lookup per character.
  A candidate is corrected when it maps to exactly one term, is not itself a dictionary term or an
  exempt word, does not overlap a protected entity, lines up with word boundaries, and is not a
  frequent real word (jieba frequency above ``max_word_freq``).

Example: ``包修多久`` -> extra query ``保修多久``; ``iphone15pro 多少钱`` -> ``iPhone 15 Pro 多少钱``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rulerewrite.lexicon import Lexicon, Match
from rulerewrite.text.normalize import NormText

_LATIN_RUN = re.compile(r"[a-z][a-z0-9]*(?:[ .+-]?[a-z0-9]+)*")
_LATIN_TOKEN = re.compile(r"[a-z][a-z0-9]{2,}")
_HAS_LATIN = re.compile(r"[a-z]{3}")
_CJK_TERM = re.compile(r"^[\u4e00-\u9fff]+$")
_DIGITS = re.compile(r"\d+")
_VOCAB_KINDS = frozenset(
    {"entity", "canonical", "synonym_canonical", "alias", "synonym", "intent", "slot"}
)
_TARGET_KINDS = frozenset({"canonical", "synonym_canonical", "intent"})


@dataclass(frozen=True, slots=True)
class Correction:
    """One correction: the user's ``text`` (original characters, ``start:end`` in the original
    query) → ``replacement``; ``kind`` is ``latin``, ``alias_form`` or ``homophone``."""

    start: int
    end: int
    text: str
    replacement: str
    kind: str
    source: str
    note: str


_TONES = str.maketrans(
    {
        **{c: "a" for c in "āáǎà"},
        **{c: "e" for c in "ēéěèê"},
        **{c: "i" for c in "īíǐì"},
        **{c: "o" for c in "ōóǒò"},
        **{c: "u" for c in "ūúǔù"},
        **{c: "v" for c in "üǖǘǚǜ"},
        **{c: "n" for c in "ńňǹ"},
        **{c: "m" for c in "ḿ"},
    }
)
CACHE_FORMAT = "rulerewrite-typo-2"


def _toneless(syllable: str) -> str:
    s = syllable.translate(_TONES)
    if s.isascii():
        return s
    s = unicodedata.normalize("NFD", s)
    return "".join(ch for ch in s if ch.isascii() and ch.isalpha())


def _pinyin_table() -> dict[int, str]:
    """pypinyin's character table, read from its JSON file (importing ``pypinyin`` itself also
    loads its large phrase dictionary, which a sound-only comparison does not need)."""
    import importlib.util
    import json
    from pathlib import Path

    spec = importlib.util.find_spec("pypinyin")
    locs = list(spec.submodule_search_locations or []) if spec else []
    for loc in locs:
        path = Path(loc) / "pinyin_dict.json"
        if path.is_file():
            raw = json.loads(path.read_text(encoding="utf-8"))
            return {int(k): v for k, v in raw.items()}
    from pypinyin.pinyin_dict import pinyin_dict

    return dict(pinyin_dict)


class TypoCorrector:
    """Build once per Rewriter (lazily, on first use: pypinyin is imported then)."""

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon
        rules = {r.id: r for r in lexicon.rules.get("typo", ())}

        def opt(rid: str, key: str, default: Any) -> Any:
            r = rules.get(rid)
            v = r.get(key, default) if r else default
            return default if v is None else v

        self.min_score = float(opt("latin", "min_score", 85))
        self.margin = float(opt("latin", "margin", 6))
        self.min_latin = int(opt("latin", "min_length", 4))
        self.max_edits = int(opt("latin", "max_edits", 2))
        self.max_freq = int(opt("homophone", "max_word_freq", 2000))
        self.min_len = int(opt("homophone", "min_length", 2))
        self.max_len = int(opt("homophone", "max_length", 3))
        self.extra_vocab = [str(w) for w in opt("vocabulary", "words", [])]
        self.exempt = {str(w) for w in opt("exempt", "words", [])}
        self.vocab_src = rules["vocabulary"].source if "vocabulary" in rules else "rules/typo.yaml"
        # Latin vocabulary: compact lower-case key -> (display form, source)
        self.latin: dict[str, tuple[str, str]] = {}
        self.latin_words: set[str] = set()
        self.compact_keys: set[str] = set()
        keys = lexicon.normalized_entries()  # norm(e.text).text, kept by the lexicon cache
        for e, key in zip(lexicon.entries, keys, strict=True):
            if e.kind not in _VOCAB_KINDS or not any(c.isascii() and c.isalpha() for c in e.text):
                continue
            display = e.canonical if e.kind in ("alias", "synonym") and e.canonical else e.text
            compact = key.replace(" ", "")
            self.latin.setdefault(compact, (display, e.source))
            self.latin_words.update(_LATIN_TOKEN.findall(key))
            if " " in key:
                self.compact_keys.add(compact)
        self.latin_keys = list(self.latin)
        self.known = set(keys)
        self._variants: dict[str, str] | None = None
        self._heads: frozenset[str] = frozenset()

    # -- cheap test --------------------------------------------------------------------------

    def may_apply(self, norm_text: str, matches: Sequence[Match]) -> bool:
        """A cheap test: could :meth:`find` return anything for this query?"""
        if any(m.key in self.compact_keys for m in matches):
            return True
        if _HAS_LATIN.search(norm_text):
            for tok in _LATIN_TOKEN.findall(norm_text):
                if len(tok) >= self.min_latin and tok not in self.latin_words:
                    return True
        v = self.homophones
        if not v or norm_text.isascii():
            return False
        heads = self._heads
        t = norm_text
        for i in range(len(t) - 1):
            if t[i : i + 2] in heads and (t[i : i + 2] in v or t[i : i + 3] in v):
                return True
        return False

    # -- detection ---------------------------------------------------------------------------

    def find(self, norm: NormText, matches: Sequence[Match]) -> list[Correction]:
        """Corrections for one query (non-overlapping, in reading order)."""
        out: list[Correction] = []
        out.extend(self._alias_forms(norm, matches))
        out.extend(self._latin(norm, matches))
        out.extend(self._homophones(norm, matches))
        out.sort(key=lambda c: c.start)
        kept: list[Correction] = []
        for c in out:
            if all(c.start >= k.end or c.end <= k.start for k in kept):
                kept.append(c)
        return kept

    def _alias_forms(self, norm: NormText, matches: Sequence[Match]) -> Iterable[Correction]:
        for m in matches:
            if m.key not in self.compact_keys:
                continue
            e = m.first("entity") or m.first("canonical") or m.first("alias")
            if e is None:
                continue
            display = e.canonical if e.kind == "alias" and e.canonical else e.text
            s, end = norm.to_original(m.start, m.end)
            yield Correction(
                s, end, norm.original[s:end], display, "alias_form", e.source,
                f"alias form: {norm.original[s:end]} -> {display}",
            )  # fmt: skip

    def _latin(self, norm: NormText, matches: Sequence[Match]) -> Iterable[Correction]:
        text = norm.text
        if text.isascii() and not any(c.isalpha() for c in text):
            return
        from rapidfuzz import fuzz, process

        covered = [(m.start, m.end) for m in matches if not m.kinds() <= {"intent"}]
        for run in _LATIN_RUN.finditer(text):
            s, e = run.span()
            word = run.group()
            compact = word.replace(" ", "")
            if len(compact) < self.min_latin or compact in self.latin:
                continue
            if any(a < e and s < b for a, b in covered):
                continue
            if all(t in self.latin_words for t in _LATIN_TOKEN.findall(word)):
                continue
            found = self._latin_best(compact, process, fuzz)
            if found is None:
                continue
            key, score = found
            display, src = self.latin[key]
            if _DIGITS.findall(compact) != _DIGITS.findall(key):
                continue
            os_, oe = norm.to_original(s, e)
            yield Correction(
                os_, oe, norm.original[os_:oe], display, "latin", src,
                f"latin typo: {norm.original[os_:oe]} -> {display} (score {score:.0f})",
            )  # fmt: skip

    def _latin_best(self, compact: str, process: Any, fuzz: Any) -> tuple[str, float] | None:
        """The one vocabulary key ``compact`` is a typo of: best fuzz.ratio >= min_score with a
        clear margin, else a unique key within ``max_edits`` Damerau-Levenshtein edits (a swap
        of two letters is one edit: nignx → nginx)."""
        from rapidfuzz.distance import DamerauLevenshtein

        best = process.extract(compact, self.latin_keys, scorer=fuzz.ratio, limit=3)
        if best and best[0][1] >= self.min_score:
            display = self.latin[best[0][0]][0]
            rivals = [b for b in best[1:] if self.latin[b[0]][0] != display]
            if not rivals or rivals[0][1] <= best[0][1] - self.margin:
                return best[0][0], float(best[0][1])
            return None
        limit = 1 if len(compact) <= 6 else self.max_edits
        near = process.extract(
            compact,
            self.latin_keys,
            scorer=DamerauLevenshtein.distance,
            limit=3,
            score_cutoff=limit,
        )
        if not near:
            return None
        displays = {self.latin[k][0] for k, d, _i in near if d == near[0][1]}
        if len(displays) != 1:
            return None  # two names equally close: ambiguous, no correction
        key = near[0][0]
        return key, float(fuzz.ratio(compact, key))

    def _homophones(self, norm: NormText, matches: Sequence[Match]) -> Iterable[Correction]:
        variants = self.homophones
        text = norm.text
        if not variants or text.isascii():
            return
        protected = [(m.start, m.end) for m in matches if m.protected]
        terms = [(m.start, m.end) for m in matches]
        cands: list[tuple[int, int, str, str]] = []
        for i in range(len(text) - 1):
            if text[i : i + 2] not in self._heads:
                continue
            for n in (3, 2):  # the longer variant first; both are candidates
                w = text[i : i + n]
                if len(w) == n and w in variants:
                    cands.append((i, i + n, w, variants[w]))
        if not cands:
            return
        bounds: set[int] | None = None
        for start, end, variant, target in cands:
            if any(a < end and start < b for a, b in protected):
                continue
            if any(a <= start and end <= b and (a, b) != (start, end) for a, b in terms):
                continue  # inside a longer dictionary term
            if self.freq(variant) > self.max_freq:
                continue
            if bounds is None:  # segmentation only for a candidate that passed the cheap tests
                bounds = self._boundaries(text)
            if start not in bounds or end not in bounds:
                continue
            os_, oe = norm.to_original(start, end)
            yield Correction(
                os_, oe, norm.original[os_:oe], target, "homophone", self.vocab_src,
                f"homophone: {norm.original[os_:oe]} -> {target}",
            )  # fmt: skip

    def _boundaries(self, text: str) -> set[int]:
        bounds = {0, len(text)}
        pos = 0
        for tok in self.lexicon.segmenter.cut(text):
            pos += len(tok)
            bounds.add(pos)
        return bounds

    def freq(self, word: str) -> int:
        """jieba's frequency of ``word`` (the segmenter's dictionary)."""
        return self.lexicon.segmenter.freq(word)

    # -- the homophone table -------------------------------------------------------------------

    @property
    def homophones(self) -> dict[str, str]:
        """Unambiguous homophone variant → the vocabulary term it is a typo of."""
        if self._variants is None:
            self._variants = self._cached_build()
            self._heads = frozenset(k[:2] for k in self._variants)
        return self._variants

    def _cached_build(self) -> dict[str, str]:
        """Build the homophone table, or load it from the lexicon cache folder (keyed by the
        lexicon's content hash, so any pack or rule edit rebuilds it)."""
        import os
        import pickle

        from rulerewrite.lexicon import _cache_dir

        path = _cache_dir(None) / f"typo-{CACHE_FORMAT}-{self.lexicon.fingerprint}.pickle"
        try:
            with path.open("rb") as fh:
                data = pickle.load(fh)
            if isinstance(data, dict):
                return data
        except Exception:  # missing, corrupt or incompatible: rebuild
            pass
        table = self._build()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".tmp{os.getpid()}")
            with tmp.open("wb") as fh:
                pickle.dump(table, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except OSError:  # a read-only cache folder must not break rewriting
            pass
        return table

    def _build(self) -> dict[str, str]:
        pinyin_dict = _pinyin_table()
        # every reading of a character, tones dropped (no phrase dictionary: it is slow to load
        # and a typo is judged by sound alone)
        sounds_of: dict[str, frozenset[str]] = {}
        by_sound: dict[str, set[str]] = {}
        for cp, readings in pinyin_dict.items():
            ch = chr(cp)
            if not (0x4E00 <= cp <= 0x9FFF):
                continue
            snd = frozenset(_toneless(r) for r in readings.split(","))
            sounds_of[ch] = snd
            if _common(ch):
                for r in snd:
                    by_sound.setdefault(r, set()).add(ch)
        # correct only into the packs' canonical vocabulary (never into a protected name: a
        # product or company is too easily "corrected" into its neighbour)
        vocab = {e.text for e in self.lexicon.entries if e.kind in _TARGET_KINDS}
        vocab.update(self.extra_vocab)
        variants: dict[str, set[str]] = {}
        for term in vocab:
            if not (self.min_len <= len(term) <= self.max_len) or not _CJK_TERM.match(term):
                continue
            for i, ch in enumerate(term):
                alts: set[str] = set()
                for sound in sounds_of.get(ch, ()):
                    alts |= by_sound.get(sound, set())
                alts.discard(ch)
                head, tail = term[:i], term[i + 1 :]
                for alt in alts:
                    variants.setdefault(head + alt + tail, set()).add(term)
        # keep only what can become a correction: one target, not itself a known or exempt word
        return {
            v: next(iter(ts))
            for v, ts in variants.items()
            if len(ts) == 1 and v not in self.known and v not in self.exempt
        }


def _common(ch: str) -> bool:
    """GB2312 level-1 characters (the ~3,750 most common hanzi): typos are common characters."""
    try:
        b = ch.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return 0xB0 <= b[0] <= 0xD7
