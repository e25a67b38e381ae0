"""Segmentation over jieba's dictionary in a compact form: jieba's HMM-free cut, exactly.

What: :class:`Segmenter` gives ``cut`` (words) and ``pos`` (words with jieba POS tags) identical
to ``jieba.Tokenizer().lcut(text, HMM=False)`` and ``jieba.posseg.POSTokenizer(tok).lcut(text,
HMM=False)`` after ``tok.add_word(word, freq=20000, tag=tag)`` for every dictionary term (so
entities such as ``Galaxy S24 Ultra`` or ``安心福终身寿险`` stay whole). The dictionary is the
installed jieba's ``dict.txt``; the algorithm is jieba's: every dictionary word starting at each
position forms a DAG, the route maximises the sum of ``log(freq / total)``, single Latin letters
and digits are glued back together. ``tests/test_segment.py`` checks the equality against jieba.

Why: jieba's Tokenizer keeps its 349k words *and every prefix of them* as Python strings
(~65 MB), ``jieba.posseg`` loads the word-tag table a second time (~43 MB) and, on import, a
global tokenizer's table and HMM tables (~51 MB): ~180 MB and ~3 s for a tool most single-turn
queries never need. Here one dict maps each word to ``freq * 256 + tag`` (no prefix entries: the
lengths of the words per first character say which substrings to look up) and is loaded in ~0.25 s from a disk cache
keyed by the hash of ``dict.txt`` (built from it on first use, ~1 s): ~55 MB in all.

Example:
    >>> Segmenter([("安心福终身寿险", "nz")]).cut("安心福终身寿险怎么退保")
    ('安心福终身寿险', '怎么', '退保')
"""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from math import log
from pathlib import Path

CACHE_FORMAT = b"rulerewrite-segdict-3"
USER_FREQ = 20000  # the frequency every dictionary term is added with (keeps it whole)
_TAG_BITS = 8
_NO_TAG = 0  # index of "x": what jieba's posseg says for a word without a tag

# jieba's block patterns: the Tokenizer's (cut) and posseg's (pos) differ slightly
_HAN_CUT = re.compile("([\u4e00-\u9fd5a-zA-Z0-9+#&\\._%\\-]+)")
_SKIP_CUT = re.compile("(\r\n|\\s)")
_HAN_POS = re.compile("([\u4e00-\u9fd5a-zA-Z0-9+#&\\._]+)")
_SKIP_POS = re.compile("(\r\n|\\s)")
_NUM = re.compile("[\\.0-9]+")
_ENG = re.compile("[a-zA-Z0-9]+")


_ONE = (1,)  # the lengths to try at a character no dictionary word starts with

# The part-of-speech tags a word added, retagged, joined or split may carry: the tags of
# jieba's dictionary (ICTCLAS's set) and the two posseg gives words outside it (eng, x).
POS_TAGS = frozenset(
    [
        "a",
        "ad",
        "ag",
        "an",
        "b",
        "c",
        "d",
        "df",
        "dg",
        "e",
        "eng",
        "f",
        "g",
        "h",
        "i",
        "j",
        "k",
        "l",
        "m",
        "mg",
        "mq",
        "n",
        "ng",
        "nr",
        "nrfg",
        "nrt",
        "ns",
        "nt",
        "nz",
        "o",
        "p",
        "q",
        "r",
        "rg",
        "rr",
        "rz",
        "s",
        "t",
        "tg",
        "u",
        "ud",
        "ug",
        "uj",
        "ul",
        "uv",
        "uz",
        "v",
        "vd",
        "vg",
        "vi",
        "vn",
        "vq",
        "x",
        "y",
        "z",
        "zg",
    ]
)


def parse_pieces(spec: str) -> tuple[tuple[str, str], ...]:
    """The ``(piece, tag)`` pairs of a split's ``"piece/tag piece/tag"`` text (a piece without
    ``/tag`` has the empty tag; the caller decides whether that is an error).

    Example:
        >>> parse_pieces("买/v 房/n")
        (('买', 'v'), ('房', 'n'))
    """
    return tuple(
        (w, t)
        for w, _slash, t in (
            item.rpartition("/") if "/" in item else (item, "", "") for item in spec.split()
        )
    )


def _is_alnum1(word: str) -> bool:
    return len(word) == 1 and word.isascii() and word.isalnum()


class Segmenter:
    """Word segmentation and POS tags (jieba's ``HMM=False`` results; see the module doc).

    ``words``: ``(term, tag)`` pairs added to jieba's dictionary (an empty tag keeps the word's
    jieba tag). ``retag``: ``(word, tag)`` pairs that give a word of jieba's dictionary another
    tag and nothing else (帅 is tagged nr there; a word the dictionary lacks is left alone).
    ``drop``: words of jieba's dictionary that are no words (霍金的, a name and 的), removed as
    ``jieba.del_word`` removes them (frequency 0: never a word of the route; the total stays).
    ``join``: ``(word, tag)`` pairs kept whole with the smallest frequency that keeps the word
    whole on its own (jieba's ``suggest_freq(word, tune=True)``, never below the word's own), so
    the segmentation around it moves as little as it can (审批人, not 审批/人).
    ``split``: ``(word, ((piece, tag), ...))``: a word the route takes is given out as its pieces
    with their tags (买房 -> 买/v 房/n), nothing else changes (the route is jieba's, so the
    text around the word is cut as before). A split word jieba's dictionary lacks is joined
    first, so a wrong cut can be mended (发表/情 -> 发表情 -> 发/v 表情/n).
    Built lazily on the first ``cut`` / ``pos``; results are memoised per text.
    """

    def __init__(
        self,
        words: Iterable[tuple[str, str]] = (),
        *,
        retag: Iterable[tuple[str, str]] = (),
        drop: Iterable[str] = (),
        join: Iterable[tuple[str, str]] = (),
        split: Iterable[tuple[str, Sequence[tuple[str, str]]]] = (),
        cache_size: int = 4096,
        cache_dir: str | os.PathLike[str] | None = None,
    ) -> None:
        self._words = list(words)
        self._retag = list(retag)
        self._drop = [w for w in drop if len(w) > 1]
        self._join = [(w, t) for w, t in join if len(w) > 1]
        self._split = {w: tuple(pieces) for w, pieces in split if len(pieces) > 1}
        self._cache_dir = cache_dir
        self._freq: dict[str, int] | None = None
        self._tags: list[str] = []
        # first character -> the lengths of the dictionary words starting with it, ascending
        self._lengths: dict[str, tuple[int, ...]] = {}
        self._total = 0
        self._logtotal = 0.0
        self._weights: dict[int, float] = {}  # dictionary value -> log(freq) - log(total)
        self.cut = lru_cache(maxsize=cache_size)(self._cut)
        self.pos = lru_cache(maxsize=cache_size)(self._posseg)

    # -- the dictionary -----------------------------------------------------------------------

    def _ensure(self) -> dict[str, int]:
        if self._freq is not None:
            return self._freq
        freq, tags, total, lengths = load_jieba_dictionary(self._cache_dir)
        tag_of = {t: i for i, t in enumerate(tags)}
        user_value: dict[int, int] = {}
        for w, tag in self._words:
            if not w.strip():
                continue
            if tag:
                ti = _tag_index(
                    tag, tag_of, tags, f"[RR530] too many POS tags in the segmenter ({tag!r})"
                )
            else:
                old = freq.get(w)
                ti = _NO_TAG if old is None else old & ((1 << _TAG_BITS) - 1)
            v = (USER_FREQ << _TAG_BITS) | ti
            freq[w] = user_value.setdefault(v, v)
            total += USER_FREQ
            have = lengths.get(w[0], ())
            if len(w) not in have:
                lengths[w[0]] = tuple(sorted((*have, len(w))))
        mask = (1 << _TAG_BITS) - 1
        for w, tag in self._retag:
            # a new tag only: the word's frequency, and so the segmentation, stays jieba's
            old = freq.get(w)
            if old is not None:
                ti = _tag_index(tag, tag_of, tags, f"[RR530] too many POS tags ({tag!r})")
                freq[w] = (old & ~mask) | ti
        for w in self._drop:
            if w in freq:
                freq[w] = 0  # jieba's del_word: frequency 0, so the route never takes it
        self._tags = tags
        self._lengths = lengths
        self._total = total
        self._logtotal = log(total)
        self._freq = freq
        if self._join or self._split:
            self._join_words(tag_of)
        return freq

    def _join_words(self, tag_of: dict[str, int]) -> None:
        """Add the ``join`` words with jieba's ``suggest_freq(word, tune=True)``: the product of
        the probabilities of the pieces the route cuts the word into, times the total, plus one
        (never below the word's own frequency), so the word outscores its pieces. Each word is
        tuned against the dictionary as the words before it left it, as jieba's calls would be.

        Example: 审批人 (审批 is a pack term kept whole, so the route cut 审批/人) gets just
        enough to stay whole; 审批 alone is still 审批."""
        freq, tags, lengths = self._freq, self._tags, self._lengths
        assert freq is not None
        mask = (1 << _TAG_BITS) - 1
        total = self._total
        # a split word jieba lacks (发表情, cut 发表/情) is joined too, so the route takes it
        unknown = [(w, "") for w in self._split if not freq.get(w)]
        for w, tag in (*self._join, *unknown):
            p = 1.0
            for piece, _glued in self._words_of(w):
                v = freq.get(piece)
                p *= (v >> _TAG_BITS if v else 1) / total
            old = freq.get(w) or 0
            f = max(int(p * total) + 1, old >> _TAG_BITS, 1)
            ti = (
                _tag_index(tag, tag_of, tags, f"[RR530] too many POS tags ({tag!r})")
                if tag
                else old & mask
            )
            freq[w] = (f << _TAG_BITS) | ti
            total += f  # jieba's add_word counts the new frequency into the total
            have = lengths.get(w[0], ())
            if len(w) not in have:
                lengths[w[0]] = tuple(sorted((*have, len(w))))
            self._total = total
            self._logtotal = log(total)
            self._weights.clear()  # the weights hang on the total

    def freq(self, word: str) -> int:
        """jieba's frequency of ``word`` (``Tokenizer.FREQ.get(word) or 0``: 0 for a string that
        is no dictionary word; dictionary terms added here count ``USER_FREQ``)."""
        v = self._ensure().get(word)
        return 0 if v is None else v >> _TAG_BITS

    # -- jieba's HMM-free route ----------------------------------------------------------------

    def _route(self, s: str) -> list[int]:
        """Best segmentation of a block: ``ends[i]``, the last index of the word at ``i``.

        jieba's route: from the end, the best score of the words starting at each position
        (``log(freq / total)`` plus the best score after the word), a later end winning a tie
        (jieba's max() over ``(score, end)`` tuples); a position no word starts at takes the
        character alone (frequency 1). The scores are kept in a list of their own and only the
        ends are handed out (no tuple per candidate). Only the lengths some dictionary word
        starting with the character has are looked up, shortest first (as jieba's DAG lists
        the ends): ~4 lookups per character on the benchmark log instead of ~5.6 for every
        length up to the longest such word."""
        freq = self._ensure()
        get = freq.get
        lengths = self._lengths
        weights = self._weights
        logtotal = self._logtotal
        alone = log(1) - logtotal  # the weight of a character no word starts with
        n = len(s)
        scores: list[float] = [0.0] * (n + 1)
        ends = [0] * (n + 1)
        for idx in range(n - 1, -1, -1):
            best = -1  # the end (exclusive) of the best word so far; -1: none yet
            top = 0.0
            for size in lengths.get(s[idx], _ONE):
                x = idx + size
                if x > n:
                    break
                v = get(s[idx:x])
                if v:
                    w = weights.get(v)
                    if w is None:  # log(freq / total), once per distinct dictionary value
                        w = weights[v] = log(v >> _TAG_BITS) - logtotal
                    score = w + scores[x]
                    if best < 0 or score >= top:
                        top = score
                        best = x
            if best < 0:
                scores[idx] = alone + scores[idx + 1]
                ends[idx] = idx
            else:
                scores[idx] = top
                ends[idx] = best - 1
        return ends

    def _words_of(self, s: str) -> Iterator[tuple[str, bool]]:
        """The route's words, each with whether it is a run of single Latin letters / digits
        glued together (``iphone``, ``15``: posseg tags those ``eng``)."""
        ends = self._route(s)
        x, n, buf = 0, len(s), ""
        while x < n:
            y = ends[x] + 1
            w = s[x:y]
            if _is_alnum1(w):
                buf += w
            else:
                if buf:
                    yield buf, True
                    buf = ""
                yield w, False
            x = y
        if buf:
            yield buf, True

    def _cut(self, text: str) -> tuple[str, ...]:
        out: list[str] = []
        for blk in _HAN_CUT.split(text):
            if not blk:
                continue
            if _HAN_CUT.match(blk):
                split = self._split
                for w, _glued in self._words_of(blk):
                    pieces = split.get(w) if split else None
                    if pieces is None:
                        out.append(w)
                    else:
                        out.extend(p for p, _t in pieces)
            else:
                for x in _SKIP_CUT.split(blk):
                    if _SKIP_CUT.match(x):
                        out.append(x)
                    else:
                        out.extend(x)
        return tuple(out)

    def _posseg(self, text: str) -> tuple[tuple[str, str], ...]:
        freq = self._ensure()
        tags = self._tags
        mask = (1 << _TAG_BITS) - 1
        out: list[tuple[str, str]] = []
        for blk in _HAN_POS.split(text):
            if _HAN_POS.match(blk):
                split = self._split
                for w, glued in self._words_of(blk):
                    if glued:
                        out.append((w, "eng"))
                    elif split and w in split:
                        out.extend(split[w])
                    else:
                        v = freq.get(w)
                        out.append((w, "x" if v is None else tags[v & mask]))
                continue
            for x in _SKIP_POS.split(blk):
                if _SKIP_POS.match(x):
                    out.append((x, "x"))
                    continue
                for xx in x:
                    if _NUM.match(xx):
                        out.append((xx, "m"))
                    elif _ENG.match(x):
                        out.append((xx, "eng"))
                    else:
                        out.append((xx, "x"))
        return tuple(out)


def jieba_dict_path() -> Path:
    """The installed jieba's ``dict.txt`` (found without importing jieba)."""
    spec = importlib.util.find_spec("jieba")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("[RR531] jieba is not installed (pip install jieba)")
    path = Path(next(iter(spec.submodule_search_locations))) / "dict.txt"
    if not path.is_file():
        raise RuntimeError(f"[RR531] jieba's dictionary not found at {path}")
    return path


def load_jieba_dictionary(
    cache_dir: str | os.PathLike[str] | None = None,
) -> tuple[dict[str, int], list[str], int, dict[str, tuple[int, ...]]]:
    """jieba's dictionary as ``(word -> freq * 256 + tag index, tags, total frequency, lengths
    of the words per first character, ascending)``.

    Cached on disk (``marshal``) under the rulerewrite cache folder, keyed by a hash of
    ``dict.txt``: built once per jieba version, loaded in ~0.1 s afterwards.
    """
    from rulerewrite.lexicon import _cache_dir

    src = jieba_dict_path()
    data = src.read_bytes()
    key = hashlib.sha256(CACHE_FORMAT + data).hexdigest()[:32]
    path = _cache_dir(cache_dir) / f"segdict-{key}.marshal"
    try:
        # marshal.loads on the bytes: ~4x faster than marshal.load on the file object
        freq, tags, total, lengths = marshal.loads(path.read_bytes())
        if isinstance(freq, dict) and isinstance(tags, list) and isinstance(lengths, dict):
            return freq, tags, int(total), lengths
    except (OSError, EOFError, ValueError, TypeError):
        pass
    freq, tags, total = _parse_dict(data, src)
    sizes: dict[str, set[int]] = {}
    for w in freq:
        sizes.setdefault(w[0], set()).add(len(w))
    lengths = {c: tuple(sorted(ls)) for c, ls in sizes.items()}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_bytes(marshal.dumps((freq, tags, total, lengths)))
        os.replace(tmp, path)
    except OSError:  # a read-only cache folder must not break segmentation
        pass
    return freq, tags, total, lengths


def _parse_dict(data: bytes, src: Path) -> tuple[dict[str, int], list[str], int]:
    """``word freq tag`` lines; a repeated word keeps its last line but counts in the total
    (as jieba does). Equal values share one int object (smaller in memory and on disk)."""
    tags = ["x"]
    tag_of = {"x": 0}
    freq: dict[str, int] = {}
    values: dict[int, int] = {}
    total = 0
    for lineno, raw in enumerate(data.decode("utf-8").splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        parts = line.split(" ")
        try:
            word, f = parts[0], int(parts[1])
        except (IndexError, ValueError):
            raise ValueError(f"[RR532] {src}:{lineno}: invalid dictionary line {line!r}") from None
        tag = parts[2] if len(parts) > 2 else "x"
        ti = _tag_index(tag, tag_of, tags, f"[RR532] {src}:{lineno}: too many POS tags")
        v = (f << _TAG_BITS) | ti
        freq[word] = values.setdefault(v, v)
        total += f
    return freq, tags, total


def _tag_index(tag: str, tag_of: dict[str, int], tags: list[str], too_many: str) -> int:
    """The index of a POS tag in the table, added when new; ``too_many`` is the error when the
    table outgrows the bits a frequency value keeps for the tag."""
    ti = tag_of.get(tag)
    if ti is None:
        ti = tag_of[tag] = len(tags)
        tags.append(tag)
        if ti >= 1 << _TAG_BITS:
            raise ValueError(too_many)
    return ti
