"""The built-in parser: a fast, deterministic light dependency analysis over jieba POS tags.

What: segment with the project's :class:`~rulerewrite.text.segment.Segmenter` (``posseg``,
``HMM=False``), merge Latin product names (``Galaxy S24 Ultra``, ``Python 3.12``) into one token,
then attach every token to a head with a small set of rules: noun phrases (modifiers and 的 attach
to the last noun), coordination (A 和 B, A、B 和 C), the main predicate (the first verb that is not
inside a 的-modifier, else an adjective, else the last noun), its subject/topic (the noun phrase
before it), its object (the noun phrase after it), adverbials and question particles.

Why: completeness checks and antecedent choice need to know *which* noun is the subject and
whether a verb lacks its object; a neural parser is too slow for every query. This analysis
costs a few microseconds after segmentation and is cached per text.

Example:
    >>> from rulerewrite.text.segment import Segmenter
    >>> p = BuiltinParser(Segmenter(), surnames=()).parse("iPhone 15 的保修期是多久")
    >>> [(t.text, t.rel) for t in p.tokens if t.rel in ("root", "subj")]
    [('iPhone 15', 'subj'), ('保修期', 'subj'), ('是', 'root')]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from rulerewrite.text.parse import Parse, Token, new_token
from rulerewrite.text.segment import Segmenter

if TYPE_CHECKING:
    from rulerewrite.lexicon import Lexicon

QUESTION_PARTICLES = frozenset("吗呢吧么嘛啊呀哇啦哦")
QUESTION_WORDS = frozenset(
    [
        "什么",
        "怎么",
        "怎样",
        "怎么样",
        "如何",
        "为什么",
        "为啥",
        "哪",
        "哪个",
        "哪些",
        "哪里",
        "哪儿",
        "多少",
        "多久",
        "几",
        "谁",
        "啥",
        "咋",
        "咋样",
        "是否",
        "能否",
        "多长",
        "多大",
        "多高",
        "多远",
        "多重",
        "多快",
        "几个",
        "几天",
        "几次",
        "多少钱",
        "什么时候",
        "啥时候",
    ]
)
_VAGUE_UNITS = frozenset("十百千万亿")
_QUESTION_PREFIXES = ("什么", "怎么", "多少", "哪", "为什么", "为啥", "啥", "咋", "多久", "几")


def is_question_word(text: str) -> bool:
    """A question word, or a token jieba glued onto one (什么时候发 / 多少钱); 几千 / 几十 are
    vague amounts (几千到几万不等), not questions."""
    if text.startswith("几") and text[1:2] in _VAGUE_UNITS:
        return False
    return text in QUESTION_WORDS or text.startswith(_QUESTION_PREFIXES)


# coordinators only: jieba also tags 不是 / 但是 / 因为 as conjunctions (冷感不是噱头 is no set)
CONJ_WORDS = frozenset({"和", "与", "及", "以及", "跟", "或", "或者", "或是", "还是", "、"})
# words jieba tags as nouns that act as predicates after a modal or question adverb
_MODAL_BEFORE = frozenset({"怎么", "如何", "能", "可以", "要", "会", "能不能", "可不可以", "咋"})

_MODEL_SUFFIX = frozenset({"款", "版", "型", "代", "号", "系列"})
_NOUN = ("n", "nr", "nrt", "nrfg", "ns", "nt", "nz", "ng", "eng", "j", "vn", "s", "an", "x_latin")
_VERB = ("v", "vd", "vg", "vi", "vq", "l", "i")


def kind_of(tag: str, text: str) -> str:
    """A coarse word class from a jieba tag: NOUN VERB ADJ PRON NUM TIME ADV PREP CONJ DE AUX
    PART LOC PUNCT OTHER."""
    if text in QUESTION_PARTICLES and tag in ("y", "e", "o", "zg", "x"):
        return "PART"
    if tag in ("x", "w") or not text.strip():
        return "PUNCT"
    if tag == "uj" or text in ("的", "之"):
        return "DE"
    kind = _KIND_OF_TAG.get(tag)
    return kind if kind is not None else _kind_of_tag(tag)


def _kind_of_tag(tag: str) -> str:
    """The word class :func:`kind_of` gives a tag once the text-dependent cases are ruled out."""
    if tag in _NOUN:
        return "NOUN"
    if tag in _VERB:
        return "VERB"
    if tag.startswith("a") or tag == "b":
        return "ADJ"
    if tag.startswith("r"):
        return "PRON"
    if tag in ("m", "mq", "q"):
        return "NUM"
    if tag in ("t", "tg"):
        return "TIME"
    if tag.startswith("d"):
        return "ADV"
    if tag == "p":
        return "PREP"
    if tag.startswith("c"):
        return "CONJ"
    if tag.startswith("u"):
        return "AUX"
    if tag in ("y", "e", "o"):
        return "PART"
    if tag == "f":
        return "LOC"
    return "OTHER"


# the tags jieba gives (dict.txt, posseg) and the parser's own, with their classes computed
# once (kind_of looks a tag up; a tag not listed takes the rule chain of _kind_of_tag)
_TAGS = (
    *_NOUN,
    *_VERB,
    "a", "ad", "ag", "al", "an", "b", "c", "cc", "d", "df", "dg", "e", "f", "g", "h", "i", "j",
    "k", "l", "m", "mg", "mq", "n", "ng", "o", "p", "q", "r", "rg", "rr", "rz", "s", "t", "tg",
    "u", "ud", "ug", "uj", "ul", "uv", "uz", "v", "vd", "vg", "vi", "vn", "vq", "x", "y", "z",
    "zg", "nrfg", "nrt", "eng", "w",
)  # fmt: skip
_KIND_OF_TAG = {t: _kind_of_tag(t) for t in _TAGS}


def _merge_latin(pairs: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """Merge ``Galaxy`` ``" "`` ``S24`` / ``3`` ``.`` ``12`` into one ``eng`` token."""
    out: list[tuple[str, str]] = []
    i, n = 0, len(pairs)
    while i < n:
        w, t = pairs[i]
        if t == "eng" or (w.isascii() and w.isalnum()):
            j = i + 1
            text = w
            while j < n:
                w2, t2 = pairs[j]
                if (t2 == "eng" or (w2.isascii() and w2.isalnum())) and w2.strip():
                    text += w2
                    j += 1
                elif (
                    w2 in (" ", ".", "-", "_", "+")
                    and j + 1 < n
                    and pairs[j + 1][0].isascii()
                    and pairs[j + 1][0].isalnum()
                ):
                    text += w2 + pairs[j + 1][0]
                    j += 2
                else:
                    break
            if j < n and pairs[j][0] in _MODEL_SUFFIX:  # A款 / Pro版 / 2代
                text += pairs[j][0]
                j += 1
            out.append((text, "eng"))
            i = j
        else:
            out.append((w, t))
            i += 1
    return out


# a surname and two single characters jieba left apart (卢/本/伟, 朱/正/廷): an unknown name
# when neither character is a function word or a pronoun and no further single character follows
# predicates that follow a two-character name, never a given name's last character (杨阳|胖,
# 韩庚|帅, 吴磊|招, 汤唯|好有气质, 彭于晏|残了)
_PREDICATE_CHARS = frozenset("胖瘦帅丑矮招走跑吃喝笑哭好残病惨萌酷")
# function words that never open or continue an unknown name after a surname
_NOT_NAME = frozenset("是有在说要会能想去来的了吗呢吧啊也都就还很太不没")
_NAME_STOP = _NOT_NAME | frozenset("我你他她它这那和与跟把被给对从向到里上下") | _PREDICATE_CHARS
_NAME_STOP_TAGS = frozenset(
    {"p", "c", "u", "uj", "ul", "uz", "ug", "uv", "ud", "y", "x", "m", "e", "o"}
)


def is_stray_char(word: str, tag: str) -> bool:
    """A single Chinese character the segmenter left on its own that is no function word,
    pronoun, measure word, adverb or verb (抖 of 抖/音, 道 of 穆/赫/兰/道): a piece of an unknown
    word when it touches another such piece. An untagged character (x: 婷 of 陈婉/婷) counts."""
    return may_end_name(word) and (
        tag == "x" or (tag not in _NAME_STOP_TAGS and tag not in _STRAY_STOP_TAGS)
    )


def may_end_name(word: str) -> bool:
    """A single Chinese character that may be the last of a given name (兴 of 张艺/兴, 大 of
    金钟/大): no function word, pronoun, measure word or predicate that follows names."""
    return (
        len(word) == 1
        and "\u4e00" <= word <= "\u9fff"
        and word not in _NAME_STOP
        and word not in _STRAY_STOP
    )


_STRAY_STOP = frozenset("个些位只条种件")
# a verb or an adverb next to a name is the clause going on (吴亦凡|唱|慢歌, 没|人|爱)
_STRAY_STOP_TAGS = frozenset({"v", "vg", "vd", "vn", "d", "a", "ad", "ag", "r", "f", "t"})


# (g: a bound morpheme jieba could not attach, 鹿/晗 -> 鹿晗)
_NAME_TAIL_TAGS = frozenset(
    {"n", "nr", "ns", "nz", "ng", "a", "ag", "v", "vg", "q", "zg", "j", "b", "g", "nrfg", "nrt"}
)
# a time word may be a single given-name character (陈/含/秋 -> 陈含秋), never a longer one
_NAME_TAIL_CHAR_TAGS = frozenset({"t", "tg"})


def _doubled_state_word(word: str, tag: str) -> bool:
    """A doubled character jieba's dictionary keeps as a state word (依依 / 盈盈 / 冉冉: z):
    after a surname it tags a name, the given name (蒋/依依 -> 蒋依依), as a pet name is."""
    return tag == "z" and len(word) == 2 and word[0] == word[1]


def _three_char_name(pairs: list[tuple[str, str]], i: int) -> bool:
    """pairs[i] (a surname) and the next two single characters form an unknown name."""
    if i + 2 >= len(pairs):
        return False
    parts = pairs[i + 1 : i + 3]
    if any(len(w) != 1 or w in _NAME_STOP or t in _NAME_STOP_TAGS for w, t in parts):
        return False
    after = pairs[i + 3][0] if i + 3 < len(pairs) else ""
    return len(after) != 1 or after in _NAME_STOP or not after.strip()


def _compound_name(pairs: list[tuple[str, str]], i: int) -> bool:
    """pairs[i] (a two-character surname) opens an unknown name: one or two single characters
    of a name's tags follow it (端木/蓉), and no further single character after them."""
    k = i + 1
    while (
        k < len(pairs)
        and k - i <= 2
        and len(pairs[k][0]) == 1
        and pairs[k][1] in _NAME_TAIL_TAGS
        and may_end_name(pairs[k][0])
    ):
        k += 1
    if k == i + 1:
        return False
    after = pairs[k][0] if k < len(pairs) else ""
    return len(after) != 1 or not may_end_name(after)


def _word_then_noun(after: tuple[str, str]) -> bool:
    """Whether ``after``, the token right after a family-name character jieba did not tag a
    name (白 a, 张 q, 高 a), is a two-character common noun (鼻孔 / 照片 / 人品 n): the
    character is then a word of its own before the noun (白鼻孔 = white nostrils, 张照片 =
    a photo), not a family name. 吕/小雨 (吕 nr) is still a name."""
    return after[1] == "n" and len(after[0]) == 2


def _merge_names(
    pairs: list[tuple[str, str]],
    surnames: frozenset[str],
    *,
    last_tags: frozenset[str] = frozenset(),
    last_before: frozenset[str] = frozenset(),
    counted: Callable[[str, str], bool] = lambda _w, _t: False,
    clause_word: Callable[[str, str], bool] = lambda _w, _t: False,
) -> list[tuple[str, str]]:
    """A single-character surname token followed by one or two short tokens that jieba (HMM
    off) could not join is an unknown personal name (张/殿/菲 -> 张殿菲). After the surname and
    one given-name character, a character tagged one of ``last_tags`` (an adverb, a
    conjunction) that ends the text or comes before a tag of ``last_before`` (a particle, 了),
    having nothing to modify or join, is the name's last character (张/梦/然, 张/绍/刚/了).
    ``counted(surname_tag, next_word)`` says the surname is a measure word counting the noun
    after it (找张/照片, 一段/视频): no name is joined there. ``clause_word(word, tag)`` says a
    word after the surname goes on the clause (王/厉害/了, 毛/没有): it is no given name. A
    given name never ends with its own surname character (杨/导/杨东升 is 杨导 + 杨东升)."""
    out: list[tuple[str, str]] = []
    i, n = 0, len(pairs)
    while i < n:
        w, t = pairs[i]
        if len(w) == 1 and i + 1 < n and counted(t, pairs[i + 1][0]):
            out.append((w, t))  # 张/照片: a measure and the noun it counts, no 张照片
            i += 1
            continue
        if (
            i + 1 < n
            and pairs[i + 1][0] == w
            and t in _NICKNAME_TAGS
            and pairs[i + 1][1] in _NICKNAME_TAGS
            and is_stray_char(w, t)
            and (i + 2 >= n or pairs[i + 2][0] != w)
        ):
            # 君/君, 康/康, 嘉/嘉: a doubled character jieba left apart is a pet name (君君)
            out.append((w + w, "nr"))
            i += 2
            continue
        if len(w) == 2 and w in surnames and _compound_name(pairs, i):
            # 端木/蓉, 欧阳/娜/娜: a two-character surname and the one or two single characters
            # jieba left after it
            j = i + 1
            while j < n and j - i <= 2 and len(pairs[j][0]) == 1 and may_end_name(pairs[j][0]):
                j += 1
            out.append(("".join(p[0] for p in pairs[i:j]), "nr"))
            i = j
            continue
        if len(w) == 1 and w in surnames and i + 1 < n:
            j, tail = i + 1, ""
            while j < n and len(tail) < 2:
                w2, t2 = pairs[j]
                if (
                    (
                        t2 not in _NAME_TAIL_TAGS
                        and not (len(w2) == 1 and t2 in _NAME_TAIL_CHAR_TAGS)
                        and not (t == "nr" and _doubled_state_word(w2, t2))
                    )
                    or len(tail) + len(w2) > 2
                    or w2 in _NOT_NAME
                    or w2 in _PREDICATE_CHARS
                    or clause_word(w2, t2)
                    or (w2 == w and tail)
                ):
                    break
                if t2 in ("v", "vg") and t != "nr":
                    break
                tail += w2
                j += 1
            if (
                len(tail) == 1
                and j < n
                and len(pairs[j][0]) == 1
                and pairs[j][1] in last_tags
                and may_end_name(pairs[j][0])
                and (j + 1 >= n or pairs[j + 1][1] in last_before)
            ):
                # 张/梦/然, 张/绍/刚/了: the given name's last character
                tail += pairs[j][0]
                j += 1
            if (
                tail
                and (len(tail) == 2 or j - i >= 2)
                and (j - i >= 3 or len(pairs[i + 1][0]) <= 2)
                and (
                    j - i >= 3
                    or t == "nr"
                    or (
                        pairs[i + 1][1] in ("nr", "ns", "n", "zg", "a", "nrfg", "nrt")
                        and not _word_then_noun(pairs[i + 1])
                    )
                )
            ):
                out.append((w + tail, "nr"))
                i = j
                continue
            if _three_char_name(pairs, i):
                out.append((w + pairs[i + 1][0] + pairs[i + 2][0], "nr"))
                i += 3
                continue
        out.append((w, t))
        i += 1
    return out


def _counted(toks: Sequence[Token], i: int) -> bool:
    """``toks[i]`` is a measure word the tagger says it is (``q``) right after a demonstrative
    or a number (这张 / 那条 / 两张 / 每张), not a family name (张 / 田 / 支 open names too).

    Example:
        >>> toks = [Token(0, "这", "r", -1, "dep", 0, 1), Token(1, "张", "q", -1, "dep", 1, 2)]
        >>> _counted(toks, 1)
        True
    """
    if i == 0 or toks[i].pos != "q" or toks[i - 1].end != toks[i].start:
        return False
    before = toks[i - 1]
    return before.pos in ("m", "mq") or before.text[-1] in _COUNT_OPENERS


# what opens a counted noun phrase before its measure word (这张 / 哪条 / 每张 / 几张)
_COUNT_OPENERS = frozenset("这那哪每几")


def unseen_names(
    tokens: Sequence[Token],
    *,
    surnames: frozenset[str],
    max_len: int,
    not_doubled: frozenset[str],
    known: Callable[[str], int],
    predicate_before: frozenset[str] = frozenset(),
) -> Iterator[tuple[str, int]]:
    """Personal names the segmenter does not know, as ``(name, start)`` in text order, from the
    pieces it left (what :func:`_merge_names` does not join, being unsure out of context; the
    coreference mode accepts one when 他 / 她 has nothing else to point at):

    - a single-character family name in ``surnames`` and the tokens right after it while each
      of their characters may end a name, ``max_len`` characters in all, the whole no word
      ``known`` gives a frequency (刘/振, 周/冬雨); not when more such pieces follow
      (易/烊/千/玺 with ``max_len`` 3) or the family name ends a Latin word (C罗); a piece
      right before a particle tagged one of ``predicate_before`` is the predicate, not more
      of the name (顾/亦/沁/长/得: 长得 follows the name);
    - a doubled character, as one token or two (格格, 瑶/瑶), not one of ``not_doubled``
      (interjections and baby talk: 哈哈, 看看).

    Example:
        >>> toks = [Token(k, w, "x", -1, "dep", k, k + 1) for k, w in enumerate("我梦到刘振了")]
        >>> list(unseen_names(toks, surnames=frozenset("刘"), max_len=3,
        ...                   not_doubled=frozenset(), known=lambda w: 0))
        [('刘振', 3)]
    """
    toks = [t for t in tokens if t.text.strip()]
    for i, t in enumerate(toks):
        if t.text in surnames:
            name = t.text
            j = i + 1
            while (
                j < len(toks)
                and toks[j].start == toks[j - 1].end
                and len(name) + len(toks[j].text) <= max_len
                and all(may_end_name(c) for c in toks[j].text)
            ):
                name += toks[j].text
                j += 1
            if (
                len(name) < 2
                or known(name) > 0
                # 易/烊/千/玺: more pieces follow than a name of max_len holds
                or (
                    j < len(toks)
                    and toks[j].start == toks[j - 1].end
                    and may_end_name(toks[j].text)
                    and not (j + 1 < len(toks) and toks[j + 1].pos in predicate_before)
                )
                # C罗最佳: the surname character ends a Latin word
                or (i > 0 and toks[i - 1].end == t.start and toks[i - 1].text.isascii())
                # 这张图片 / 两张票: a measure word after a demonstrative or a number
                or _counted(toks, i)
            ):
                continue
            yield name, t.start
        elif (
            len(t.text) == 2
            and t.text[0] == t.text[1]
            and may_end_name(t.text[0])
            and t.text[0] not in not_doubled
        ):
            yield t.text, t.start
        elif (
            # 瑶/瑶: the segmenter split the doubled character
            i + 1 < len(toks)
            and toks[i + 1].text == t.text
            and toks[i + 1].start == t.end
            and may_end_name(t.text)
            and t.text not in not_doubled
            and (i == 0 or toks[i - 1].text != t.text)
            and (i + 2 >= len(toks) or toks[i + 2].text != t.text)
        ):
            yield t.text * 2, t.start


# tags of a doubled character that makes a pet name (君君 / 康康), not a reduplicated
# adverb or adjective (常常 / 好好)
_NICKNAME_TAGS = frozenset({"nr", "nz", "n", "ng", "x"})


def _context_set(lexicon: Lexicon, key: str) -> frozenset[str]:
    """The strings rules/context.yaml lists under ``key`` (all its rules together)."""
    return frozenset(str(x) for r in lexicon.rules.get("context", ()) for x in (r.get(key) or ()))


def _context_int(lexicon: Lexicon, key: str) -> int:
    """The number rules/context.yaml gives ``key`` (the first rule that has it; 0 if none)."""
    for r in lexicon.rules.get("context", ()):
        if r.get(key) is not None:
            return int(r.get(key))
    return 0


def surnames_of(lexicon: Lexicon) -> frozenset[str]:
    """The family names listed by ``lexicon``'s context rules (rules/context.yaml, rule
    ``surnames``): the one list both the parser (张/殿/菲 -> 张殿菲) and the context analysis
    (a run of single characters opening with one is a name) read."""
    return _context_set(lexicon, "surnames")


class BuiltinParser:
    """The default :class:`~rulerewrite.text.parse.Parser` backend (``name = "builtin"``).

    Build once with a segmenter (``lexicon.segmenter`` keeps dictionary terms whole) and the
    family names that open an unknown personal name (``surnames``: rules/context.yaml, see
    :meth:`for_lexicon`), with the tags of a name's last character jieba left as an adverb or a
    conjunction and of what may follow it (``last_tags`` / ``last_before``: rules/context.yaml
    ``name_last_tags`` / ``name_last_before``); ``parse`` is cached per text (``cache_size``
    entries).
    """

    name = "builtin"

    def __init__(
        self,
        segmenter: Segmenter,
        *,
        surnames: Iterable[str],
        last_tags: Iterable[str] = (),
        last_before: Iterable[str] = (),
        measure_tags: Iterable[str] = (),
        counted_freq: int = 0,
        clause_tags: Iterable[str] = (),
        clause_freq: int = 0,
        person_ends: Iterable[str] = (),
        purpose_heads: Iterable[str] = (),
        cache_size: int = 8192,
    ) -> None:
        self.segmenter = segmenter
        self.surnames = frozenset(surnames)
        self.last_tags = frozenset(last_tags)
        self.last_before = frozenset(last_before)
        self.measure_tags = frozenset(measure_tags)
        self.counted_freq = counted_freq
        self.clause_tags = frozenset(clause_tags)
        self.clause_freq = clause_freq
        self.person_ends = tuple(person_ends)
        self.purpose_heads = frozenset(purpose_heads)
        self.parse = lru_cache(maxsize=cache_size)(self._parse)  # type: ignore[method-assign]

    @classmethod
    def for_lexicon(cls, lexicon: Lexicon, *, cache_size: int = 8192) -> BuiltinParser:
        """The parser of ``lexicon``: its segmenter and the family names of its context rules
        (:func:`surnames_of`) with their ``name_last_tags`` / ``name_last_before``."""
        return cls(
            lexicon.segmenter,
            surnames=surnames_of(lexicon),
            last_tags=_context_set(lexicon, "name_last_tags"),
            last_before=_context_set(lexicon, "name_last_before"),
            measure_tags=_context_set(lexicon, "measure_surname_tags"),
            counted_freq=_context_int(lexicon, "counted_noun_freq"),
            clause_tags=_context_set(lexicon, "name_tail_clause_tags"),
            clause_freq=_context_int(lexicon, "name_tail_clause_freq"),
            person_ends=_context_set(lexicon, "human_heads"),
            purpose_heads=_context_set(lexicon, "purpose_heads"),
            cache_size=cache_size,
        )

    def parse(self, text: str) -> Parse:  # replaced by the cached version in __init__
        return self._parse(text)

    def _counted(self, tag: str, word: str) -> bool:
        """Is a surname tagged ``tag`` (张 q) a measure word counting ``word``, a common noun of
        two characters or more (照片: freq at least ``counted_freq``)? 找张照片 names no 张照片;
        张学友 is one dictionary word and 张殿菲 no noun follows 张. A person word (老师 of 张老师,
        ``person_ends``) is a title after the surname, not a thing counted."""
        if (
            tag not in self.measure_tags
            or self.counted_freq <= 0
            or len(word) < 2
            or word.endswith(self.person_ends)
        ):
            return False
        pos = self.segmenter.pos(word)
        return len(pos) == 1 and pos[0][1] == "n" and self.segmenter.freq(word) >= self.counted_freq

    def _clause_word(self, word: str, tag: str) -> bool:
        """Is ``word`` (tagged ``tag``), right after a surname, a common verb, adjective or
        adverb of the clause (one of ``clause_tags``, two characters or more, at least
        ``clause_freq`` frequent: 没有 / 觉得 / 厉害) rather than a given name? 王厉害了 names
        nobody; rarer words stay a given name (陈/清扬, 陈/平安)."""
        return (
            self.clause_freq > 0
            and len(word) >= 2
            and tag in self.clause_tags
            and self.segmenter.freq(word) >= self.clause_freq
        )

    def parse_many(self, texts: Sequence[str]) -> list[Parse]:
        return [self.parse(t) for t in texts]

    # -- the analysis --------------------------------------------------------------------------

    def _parse(self, text: str) -> Parse:
        pairs = _merge_names(
            _merge_latin(self.segmenter.pos(text)),
            self.surnames,
            last_tags=self.last_tags,
            last_before=self.last_before,
            counted=self._counted,
            clause_word=self._clause_word,
        )
        words: list[str] = []
        tags: list[str] = []
        starts: list[int] = []
        pos = 0
        for w, t in pairs:
            at = text.find(w, pos)
            if at < 0:  # segmenter changed the text (should not happen): keep going in order
                at = pos
            words.append(w)
            tags.append(t)
            starts.append(at)
            pos = at + len(w)
        kinds = [kind_of(t, w) for w, t in zip(words, tags, strict=True)]
        # a noun right after 怎么/能/可以 ... acts as the verb (这个怎么部署)
        for i in range(1, len(words)):
            if (
                kinds[i] == "NOUN"
                and tags[i] in ("n", "vn")
                and words[i - 1] in _MODAL_BEFORE
                and (i + 1 == len(words) or kinds[i + 1] in ("PART", "PUNCT", "AUX", "NOUN"))
            ):
                kinds[i] = "VERB"
        self._verb_modifiers(words, tags, kinds)
        heads, rels = _attach(words, kinds)
        toks = tuple(
            new_token(i, w, t, heads[i], rels[i], starts[i], starts[i] + len(w))
            for i, (w, t) in enumerate(zip(words, tags, strict=True))
        )
        return Parse(text, toks)

    def _verb_modifiers(self, words: list[str], tags: list[str], kinds: list[str]) -> None:
        """Mark as nominal (in ``kinds``) a verb of two characters or more right before a
        noun that names a way or a plan of doing (rules/context.yaml ``purpose_heads``: 方法,
        技巧, 攻略 ...): the verb says what the way is for and the two are one noun (减肥/方法,
        学习/技巧), not a verb and its object. A verb before another verb or 的 is left alone.

        Example: 有推荐的减肥方法吗 -> 减肥 modifies 方法 (the phrase is 减肥方法, not 方法)."""
        if not self.purpose_heads:
            return
        for i in range(len(words) - 1):
            if (
                kinds[i] == "VERB"
                and tags[i] in ("v", "vn", "vi")
                and len(words[i]) >= 2
                and words[i + 1] in self.purpose_heads
                and kinds[i + 1] == "NOUN"
            ):
                kinds[i] = "NOUN"


def _np_spans(words: list[str], kinds: list[str]) -> list[tuple[int, int]]:
    """Half-open token spans of noun phrases: [modifiers (的)] nouns. The head is the last token."""
    spans: list[tuple[int, int]] = []
    n = len(words)
    i = 0
    nominal = ("NOUN", "NUM", "ADJ", "PRON", "TIME", "LOC")
    while i < n:
        if kinds[i] != "NOUN" and not (kinds[i] == "ADJ" and i + 1 < n and kinds[i + 1] == "NOUN"):
            i += 1
            continue
        j = i
        while j < n and kinds[j] in ("NOUN", "ADJ") and not (kinds[j] == "ADJ" and j == n - 1):
            j += 1
        while j < n and kinds[j - 1] == "ADJ":  # a trailing adjective is a predicate
            j -= 1
        if j <= i:
            i += 1
            continue
        start = i
        # pull in a left modifier: NUM/PRON/TIME/NOUN + 的, or a number/measure directly before
        k = start - 1
        if k >= 0 and kinds[k] == "DE":
            m = k - 1
            while m >= 0 and kinds[m] in nominal and m >= k - 4:
                m -= 1
            if m + 1 < k:
                start = m + 1
        elif k >= 0 and kinds[k] == "NUM" and words[k] not in QUESTION_WORDS:
            start = k
        # merge with a previous span joined by 的
        if spans and spans[-1][1] == start - 1 and kinds[start - 1] == "DE":
            start = spans.pop()[0]
        elif spans and spans[-1][1] > start:
            start = min(start, spans.pop()[0])
        spans.append((start, j))
        i = j
    return spans


def _attach(words: list[str], kinds: list[str]) -> tuple[list[int], list[str]]:
    n = len(words)
    heads = [-1] * n
    rels = ["dep"] * n
    if n == 0:
        return heads, rels
    nps = _np_spans(words, kinds)
    np_of = [-1] * n  # index of the NP containing token i
    for k, (a, b) in enumerate(nps):
        for i in range(a, b):
            np_of[i] = k
    # inside each NP: everything attaches to the last token (the head); 的 to its modifier
    for a, b in nps:
        h = b - 1
        for i in range(a, h):
            if kinds[i] == "DE":
                heads[i], rels[i] = i - 1 if i > a else h, "de"
            else:
                heads[i], rels[i] = h, "att"
    # the main predicate
    root = -1
    for i in range(n):
        if kinds[i] != "VERB" or np_of[i] >= 0:
            continue
        if i + 1 < n and kinds[i + 1] == "DE":
            continue  # inside a 的-modifier (买的手机)
        root = i
        break
    if root < 0:
        for i in range(n):
            if kinds[i] == "VERB" and np_of[i] < 0:
                root = i
                break
    if root < 0:
        for i in range(n):
            if kinds[i] == "ADJ" and np_of[i] < 0:
                root = i
                break
    if root < 0:
        if nps:
            root = nps[-1][1] - 1
        else:
            cands = [i for i in range(n) if kinds[i] not in ("PUNCT", "PART")]
            root = cands[0] if cands else 0
    heads[root], rels[root] = -1, "root"
    np_heads = [b - 1 for a, b in nps]
    # coordination between NPs: NP1 (和|、) NP2
    for k in range(1, len(nps)):
        _a1, b1 = nps[k - 1]
        a2, b2 = nps[k]
        gap = [g for g in range(b1, a2) if words[g].strip()]
        if len(gap) == 1 and words[gap[0]] in CONJ_WORDS:
            first = _coord_first(k - 1, nps, words)
            heads[b2 - 1], rels[b2 - 1] = first, "coo"
            heads[gap[0]], rels[gap[0]] = b2 - 1, "cc"
    # subject: the NP head right before the root (adverbs, modals, pronouns between allowed)
    for h in np_heads:
        if rels[h] == "coo" or heads[h] != -1 or h == root:
            continue
        if h < root:
            between = kinds[h + 1 : root]
            if all(k in ("ADV", "AUX", "VERB", "TIME", "PREP", "PRON") for k in between):
                heads[h], rels[h] = root, "subj"
            else:
                heads[h], rels[h] = root, "subj" if not _has_prep_before(h, nps, kinds) else "dep"
        else:
            heads[h], rels[h] = root, "obj" if _is_object(root, h, nps, kinds) else "dep"
    # pronouns, question words, particles, adverbs, punctuation
    for i in range(n):
        if i == root or heads[i] != -1 or rels[i] not in ("dep",):
            continue
        kd = kinds[i]
        w = words[i]
        if kd == "PUNCT":
            rels[i] = "punct"
        elif kd == "PART":
            rels[i] = "q" if w in QUESTION_PARTICLES else "dep"
        elif w in QUESTION_WORDS:
            rels[i] = "q"
        elif kd == "PRON":
            rels[i] = "subj" if i < root else "obj"
        elif kd in ("ADV", "PREP", "TIME") or (kd == "AUX" and i < root):
            rels[i] = "adv"
        elif kd == "CONJ":
            rels[i] = "cc"
        heads[i] = root
    return heads, rels


def _coord_first(k: int, nps: list[tuple[int, int]], words: list[str]) -> int:
    """The head of the first conjunct of a chain ending at NP ``k`` (A、B 和 C → A)."""
    while k > 0:
        b_prev = nps[k - 1][1]
        gap = [g for g in range(b_prev, nps[k][0]) if words[g].strip()]
        if len(gap) == 1 and words[gap[0]] in CONJ_WORDS:
            k -= 1
        else:
            break
    return nps[k][1] - 1


def _has_prep_before(h: int, nps: list[tuple[int, int]], kinds: list[str]) -> bool:
    for a, b in nps:
        if b - 1 == h:
            return a > 0 and kinds[a - 1] == "PREP"
    return False


def _is_object(root: int, h: int, nps: list[tuple[int, int]], kinds: list[str]) -> bool:
    for a, _b in nps:
        if _b - 1 == h:
            between = kinds[root + 1 : a]
            return all(k in ("AUX", "NUM", "ADV", "VERB") for k in between)
    return False


def noun_phrases(parse: Parse) -> list[tuple[int, int]]:
    """Token spans (half-open) of the noun phrases of a parse: each head with its att/de
    dependents. Coordinated phrases are separate spans."""
    toks = parse.tokens
    out: list[tuple[int, int]] = []
    for t in toks:
        if t.rel in ("att", "de"):
            continue
        if kind_of(t.pos, t.text) != "NOUN":
            continue
        a = t.i
        while a - 1 >= 0 and toks[a - 1].rel in ("att", "de"):
            # a modifier chain attaches to this head (directly or through another modifier)
            h, hops = toks[a - 1].head, 0
            while 0 <= h < len(toks) and h != t.i and toks[h].rel in ("att", "de") and hops < 8:
                h, hops = toks[h].head, hops + 1
            if h != t.i:
                break
            a -= 1
        out.append((a, t.i + 1))
    return out
