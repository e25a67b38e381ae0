"""One normalisation, used identically when packs are compiled and when queries are matched.

Steps: NFKC (full width → half width, compatibility forms), Latin lower-casing, a fixed table of
Chinese punctuation → ASCII, traditional → simplified (OpenCC ``t2s``), whitespace collapsed and
dropped next to CJK characters. Every character of the normalised text keeps the index of the
original character it came from, so a match on normalised text maps back to the user's own
characters (their casing, their full-width digits) for output.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

# Control and format characters (except ordinary whitespace) are removed from user input.
_CONTROL_RE = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]"
)
_WS_RE = re.compile(r"\s+")

# 1:1 punctuation table applied after NFKC (NFKC already maps ？，！：；（） to ASCII).
_PUNCT = str.maketrans(
    {
        "。": ".",
        "、": ",",
        "【": "[",
        "】": "]",
        "《": "<",
        "》": ">",
        "“": '"',
        "”": '"',
        "‘": "'",
        "’": "'",
        "「": '"',
        "」": '"',
        "『": '"',
        "』": '"',
        "〈": "<",
        "〉": ">",
        "…": ".",
        "—": "-",
        "–": "-",
        "～": "~",
        "·": ".",
        "〜": "~",
    }
)


def clean_query(text: str) -> str:
    """Strip control/format characters and surrounding whitespace (the API boundary's cleaning)."""
    return _CONTROL_RE.sub("", text).strip()


def is_cjk(ch: str) -> bool:
    """True for CJK unified ideographs (the characters jieba segments)."""
    o = ord(ch)
    return 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0x20000 <= o <= 0x2FFFF


@dataclass(frozen=True, slots=True)
class NormText:
    """A normalised string plus the map back to the original.

    ``offsets[i]`` is the index in ``original`` of normalised character ``i``; ``offsets`` has one
    extra entry, ``len(original)``, so half-open spans map with :meth:`to_original`.
    """

    original: str
    text: str
    offsets: tuple[int, ...] | None  # None: identity mapping

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """Map a half-open span of ``text`` to a half-open span of ``original``."""
        if self.offsets is None:
            return start, end
        if end <= start:
            o = self.offsets[start]
            return o, o
        return self.offsets[start], self.offsets[end - 1] + 1

    def original_slice(self, start: int, end: int) -> str:
        s, e = self.to_original(start, end)
        return self.original[s:e]


class Normalizer:
    """Normalise text for matching. Build once (it holds the OpenCC converter), call often.

    Example:
        >>> n = Normalizer()
        >>> n("請問 iPhone１５ 這個保險能退嗎？").text
        '请问iphone15这个保险能退吗?'
    """

    def __init__(self, *, cache_size: int = 16384) -> None:
        import opencc

        self._t2s: Any = opencc.OpenCC("t2s")
        # The characters t2s changes, found once with one conversion of the whole CJK block:
        # queries without any of them skip OpenCC entirely (the common case costs a set lookup).
        block = "\n".join(chr(c) for c in range(0x4E00, 0xA000))
        conv = self._t2s.convert(block).split("\n")
        self._traditional = frozenset(
            chr(0x4E00 + i) for i, c in enumerate(conv) if c != chr(0x4E00 + i)
        )
        self._cached = functools.lru_cache(maxsize=cache_size)(self._normalize)

    def to_simplified(self, text: str) -> str:
        """Traditional → simplified, to a fixed point: OpenCC maps a few characters to another
        convertible one (薴 → 苧 → 苎), and normalising must give the same text twice."""
        for _ in range(3):
            if text.isascii() or self._traditional.isdisjoint(text):
                return text
            out = self._simplified_once(text)
            if out == text:
                return text
            text = out
        return text

    def _simplified_once(self, text: str) -> str:
        out: str = self._t2s.convert(text)
        if len(out) == len(text):
            return out
        # Phrase conversion changed the length: fall back to a per-character conversion so the
        # offset map stays exact.
        return "".join(c2 if len(c2 := self._t2s.convert(c)) == 1 else c for c in text)

    def __call__(self, text: str) -> NormText:
        return self._cached(text)  # ``normalize``, one call level fewer (called ~20x a rewrite)

    def normalize(self, text: str) -> NormText:
        """Normalise ``text`` (memoised per instance: dictionary terms, templates and repeated
        queries are normalised many times per rewrite; a ``NormText`` is immutable)."""
        return self._cached(text)

    def _normalize(self, text: str) -> NormText:
        if text.isascii():
            base = text.lower()
            offsets: list[int] | None = None
        elif len(low := unicodedata.normalize("NFKC", text).lower()) == len(text):
            base = low.translate(_PUNCT)
            offsets = None
        else:
            chars: list[str] = []
            offsets = []
            for i, ch in enumerate(text):
                piece = unicodedata.normalize("NFKC", ch).lower().translate(_PUNCT)
                for c in piece:
                    chars.append(c)
                    offsets.append(i)
            base = "".join(chars)
        base = self.to_simplified(base)
        if offsets is not None:
            base, offsets = _canonical_order(base, offsets)
        # Whitespace: collapse runs to one space, drop spaces at the ends and next to CJK.
        if not _needs_ws_fix(base):
            return NormText(text, base, None if offsets is None else (*offsets, len(text)))
        if offsets is None:
            offsets = list(range(len(base)))
        pieces: list[str] = []
        offs: list[int] = []
        last = 0
        n = len(base)
        for m in _WS_RE.finditer(base):
            a, b = m.span()
            pieces.append(base[last:a])
            offs.extend(offsets[last:a])
            prev = base[a - 1] if a > 0 else ""
            nxt = base[b] if b < n else ""
            if prev and nxt and not is_cjk(prev) and not is_cjk(nxt):
                pieces.append(" ")
                offs.append(offsets[a])
            last = b
        pieces.append(base[last:])
        offs.extend(offsets[last:])
        out, offs = _canonical_order("".join(pieces), offs)
        return NormText(text, out, (*offs, len(text)))


def _canonical_order(s: str, offsets: list[int]) -> tuple[str, list[int]]:
    """Put every run of combining marks in canonical order, moving the offsets with them.

    Why: NFKC applied one character at a time (so that offsets stay exact) does not reorder marks
    across characters, and dropping a space can bring two runs together: ``¨`` becomes a space
    plus U+0308, and ``¨`` + U+05A2 gave U+0308 U+05A2, which NFKC itself orders U+05A2 U+0308,
    so normalising the output again changed it. Example: ``_canonical_order("\u0308\u05a2",
    [0, 1])`` is ``("\u05a2\u0308", [1, 0])``. Text already in order is returned as it is.
    """
    if s.isascii() or unicodedata.is_normalized("NFKC", s):
        return s, offsets
    chars = list(s)
    offs = list(offsets)
    i, n = 0, len(chars)
    while i < n:
        if not unicodedata.combining(chars[i]):
            i += 1
            continue
        j = i
        while j < n and unicodedata.combining(chars[j]):
            j += 1
        run = sorted(range(i, j), key=lambda k: unicodedata.combining(chars[k]))  # stable
        chars[i:j] = [chars[k] for k in run]
        offs[i:j] = [offsets[k] for k in run]
        i = j
    return "".join(chars), offs


def _needs_ws_fix(s: str) -> bool:
    if not s:
        return False
    if s[0].isspace() or s[-1].isspace():
        return True
    for m in _WS_RE.finditer(s):
        a, b = m.start(), m.end()
        if m.group() != " " or is_cjk(s[a - 1]) or is_cjk(s[b]):
            return True
    return False
