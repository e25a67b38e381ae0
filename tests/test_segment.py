"""The compact segmenter gives exactly jieba's HMM-free words and POS tags (differential test)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import jieba
import jieba.posseg
import pytest
import yaml

from rulerewrite.lexicon import _POS_OF, _segment_worthy
from rulerewrite.text.segment import (
    Segmenter,
    jieba_dict_path,
    load_jieba_dictionary,
    parse_pieces,
)

CASES = Path(__file__).parent / "cases"
EDGE = [
    "",
    " ",
    "a b  c\t\r\nd",
    "iPhone 15 Pro 的保修多久",
    "3.5%的利率-下降了吗",
    "Galaxy S24 Ultra 有哪些颜色",
    "ＡＢＣ１２３全角",
    "k8s怎么看pod日志",
    "C++和c#哪个好",
    "AT&T公司",
    "x",
    "5",
    "5个",
    "的",
    "😀表情？！",
    "中文English混合123abc中文",
    "安心福终身寿险怎么退保",
    "python3.12.1和3.12有什么区别",
]


def _texts() -> list[str]:
    out = set(EDGE)

    def walk(v: Any) -> None:
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    for f in sorted(CASES.glob("*.yaml")):
        walk(yaml.safe_load(f.read_text(encoding="utf-8")))
    return sorted(out)


@pytest.fixture(scope="module")
def reference(rewriter):  # type: ignore[no-untyped-def]
    """jieba itself, with the dictionary words added as the segmenter adds them."""
    jieba.setLogLevel(logging.WARNING)
    words = [
        (e.text, _POS_OF.get(e.etype or "", "nz"))
        for e in rewriter.lexicon.entries
        if _segment_worthy(e)
    ]
    tok = jieba.Tokenizer()
    tok.initialize()
    for w, tag in words:
        if w.strip():
            tok.add_word(w, freq=20000, tag=tag)
    return tok, jieba.posseg.POSTokenizer(tok), Segmenter(words)


def test_cut_and_pos_equal_jieba_on_every_case_text(reference) -> None:  # type: ignore[no-untyped-def]
    tok, pos, ours = reference
    texts = _texts()
    assert len(texts) > 500
    for t in texts:
        assert ours.cut(t) == tuple(tok.lcut(t, HMM=False)), t
        assert ours.pos(t) == tuple((p.word, p.flag) for p in pos.lcut(t, HMM=False)), t
    for w in ("保险", "安心福终身寿险", "中华人", "免赔额", "不存在的词语", "x"):
        assert ours.freq(w) == (tok.FREQ.get(w) or 0), w


def test_plain_segmenter_equals_plain_jieba() -> None:
    tok = jieba.Tokenizer()
    pos = jieba.posseg.POSTokenizer(tok)
    ours = Segmenter()
    for t in EDGE:
        assert ours.cut(t) == tuple(tok.lcut(t, HMM=False)), t
        assert ours.pos(t) == tuple((p.word, p.flag) for p in pos.lcut(t, HMM=False)), t


def test_untagged_word_keeps_its_jieba_tag_and_new_word_is_x() -> None:
    ours = Segmenter([("保险", ""), ("奇奇怪怪词", "")])
    tags = dict(ours.pos("保险和奇奇怪怪词"))
    base = dict(Segmenter().pos("保险"))
    assert tags["保险"] == base["保险"]
    assert tags["奇奇怪怪词"] == "x"


def test_dictionary_is_cached_on_disk_by_content_hash(tmp_path: Path) -> None:
    freq, tags, total, lengths = load_jieba_dictionary(tmp_path)
    files = list(tmp_path.glob("segdict-*.marshal"))
    assert len(files) == 1
    again = load_jieba_dictionary(tmp_path)  # from the cache file
    assert again == (freq, tags, total, lengths)
    n_lines = sum(1 for ln in jieba_dict_path().read_text(encoding="utf-8").splitlines() if ln)
    assert 0.9 * n_lines < len(freq) <= n_lines
    files[0].write_bytes(b"garbage")  # a corrupt cache is rebuilt, not trusted
    assert load_jieba_dictionary(tmp_path) == (freq, tags, total, lengths)
    assert lengths["中"] == tuple(sorted({len(w) for w in freq if w[0] == "中"}))


def _walk(ends: list[int], text: str) -> list[str]:
    """The words a route gives: from each word's start, ``ends[start]`` is its last index."""
    out, x = [], 0
    while x < len(text):
        out.append(text[x : ends[x] + 1])
        x = ends[x] + 1
    return out


@pytest.mark.parametrize(
    ("words", "text", "expected"),
    [
        # a dictionary term added by a pack stays whole
        ([("安心福终身寿险", "nz")], "安心福终身寿险怎么退保", ["安心福终身寿险", "怎么", "退保"]),
        # without it, jieba's own words
        ([], "怎么退保", ["怎么", "退保"]),
        # a character no word starts with stands alone
        ([], "😀", ["😀"]),
        # single Latin letters are separate words in the route (glued later by _words_of)
        ([], "abc", ["a", "b", "c"]),
    ],
)
def test_route_ends_table(words: list[tuple[str, str]], text: str, expected: list[str]) -> None:
    seg = Segmenter(words)
    ends = seg._route(text)
    assert len(ends) == len(text) + 1
    assert _walk(ends, text) == expected


def test_retag_changes_the_tag_and_nothing_else() -> None:
    plain = Segmenter()
    ours = Segmenter(retag=[("帅", "a"), ("很", "d"), ("不存在的词语", "a")])
    for text in ("那么帅", "他很帅气", "很有名气的影星", "帅哥很多"):
        assert ours.cut(text) == plain.cut(text), text  # the segmentation stays jieba's
    assert dict(plain.pos("那么帅"))["帅"] == "nr"  # jieba's dictionary: a surname
    assert dict(ours.pos("那么帅"))["帅"] == "a"
    assert dict(ours.pos("很好"))["很"] == "d"
    assert ours.freq("帅") == plain.freq("帅")
    assert ours.freq("不存在的词语") == 0  # a word the dictionary lacks is not added


def test_bundled_retag_words_are_jieba_dictionary_words(rewriter) -> None:  # type: ignore[no-untyped-def]
    # a word jieba's dictionary lacks would be left alone: the table must not hold one
    rule = rewriter.lexicon.rule("segment", "retag")
    assert rule is not None
    tags = rule.get("tags")
    assert len(tags) >= 10
    plain = Segmenter()
    for word, tag in tags.items():
        assert plain.freq(word) > 0, word
        assert dict(rewriter.lexicon.segmenter.pos(word)).get(word) == tag, word


def test_dictionary_variants_that_ask_are_no_segmenter_words(rewriter) -> None:  # type: ignore[no-untyped-def]
    # 怎么吃 is a variant of 用法用量 (medical pack): kept whole, it glued 荔枝怎么吃 into one
    # phrase with a question word, and 荔枝 was no antecedent
    assert any(e.text == "怎么吃" for e in rewriter.lexicon.entries)
    assert rewriter.lexicon.segmenter.cut("荔枝怎么吃") == ("荔枝", "怎么", "吃")


def test_drop_removes_a_word_as_jieba_del_word_does() -> None:
    jieba.setLogLevel(logging.WARNING)
    tok = jieba.Tokenizer()
    tok.initialize()
    tok.del_word("霍金的")
    pos = jieba.posseg.POSTokenizer(tok)
    plain = Segmenter()
    ours = Segmenter(drop=["霍金的", "不存在的词语", "的"])
    assert plain.cut("你怎么看霍金的预言") != ours.cut("你怎么看霍金的预言")
    for t in ("你怎么看霍金的预言", "霍金的书", "霍金", "斯蒂芬霍金的时间简史"):
        assert ours.cut(t) == tuple(tok.lcut(t, HMM=False)), t
        assert ours.pos(t) == tuple((p.word, p.flag) for p in pos.lcut(t, HMM=False)), t
    assert ours.freq("霍金的") == 0
    assert ours.freq("的") == plain.freq("的")  # a single character is never dropped


def test_bundled_drop_words_are_jieba_dictionary_words(rewriter) -> None:  # type: ignore[no-untyped-def]
    rule = rewriter.lexicon.rule("segment", "drop")
    assert rule is not None
    plain = Segmenter()
    for word in rule.get("words"):
        assert plain.freq(word) > 0, word  # a word the dictionary lacks would be a no-op
        assert rewriter.lexicon.segmenter.freq(word) == 0, word
        assert word not in rewriter.lexicon.segmenter.cut(word + "说")


def test_bundled_add_words_are_words_jieba_cuts_and_stay_whole(rewriter) -> None:  # type: ignore[no-untyped-def]
    # rules/segment.yaml add: only words jieba cuts (one it has would change its frequency and
    # so the segmentation around it: 统一 is a verb), each kept whole with its tag afterwards
    rule = rewriter.lexicon.rule("segment", "add")
    assert rule is not None
    plain = Segmenter()
    for word, tag in rule.get("tags").items():
        assert len(plain.cut(word)) > 1, word
        assert rewriter.lexicon.segmenter.pos(word) == ((word, tag),), word
    assert rewriter.lexicon.segmenter.cut("我想吃铜锣烧") == ("我", "想", "吃", "铜锣烧")


# rules/segment.yaml join: (pack words, join words, text, jieba's words). A joined word gets
# jieba's suggest_freq(word, tune=True): just enough to stay whole; the rest is cut as before.
JOIN_CASES = [
    (
        [("审批", "nz")],
        [("审批人", "n")],
        "报销单据的审批人是谁",
        ["报销", "单据", "的", "审批人", "是", "谁"],
    ),
    ([("审批", "nz")], [("审批人", "n")], "审批流程", ["审批", "流程"]),
    ([], [("颜值", "n")], "颜值很高", ["颜值", "很", "高"]),
    ([], [("颜值", "n"), ("官网", "n")], "去官网看颜值", ["去", "官网", "看", "颜值"]),
    ([], [("人设", "n")], "个人设置在哪", ["个人", "设置", "在", "哪"]),
]


@pytest.mark.parametrize(("words", "join", "text", "expected"), JOIN_CASES)
def test_join_is_jieba_suggest_freq(
    words: list[tuple[str, str]], join: list[tuple[str, str]], text: str, expected: list[str]
) -> None:
    tok = jieba.Tokenizer()
    for w, t in words:
        tok.add_word(w, freq=20000, tag=t)
    for w, t in join:
        tok.add_word(w, freq=tok.suggest_freq(w, tune=False), tag=t)
    ours = Segmenter(words, join=join)
    assert list(ours.cut(text)) == tok.lcut(text, HMM=False) == expected
    pos = jieba.posseg.POSTokenizer(tok)
    assert ours.pos(text) == tuple((p.word, p.flag) for p in pos.lcut(text, HMM=False))
    for w, _t in join:
        assert ours.freq(w) == tok.FREQ[w], w


# rules/segment.yaml split: (split entries, text, the (word, tag) pairs given out)
SPLIT_CASES = [
    ({"买房": "买/v 房/n"}, "我想买房", [("我", "r"), ("想", "v"), ("买", "v"), ("房", "n")]),
    # only the word the route takes: 买房子 is a word of its own, and stays
    ({"买房": "买/v 房/n"}, "我想买房子", [("我", "r"), ("想", "v"), ("买房子", "n")]),
    ({"买房": "买/v 房/n"}, "房价", [("房价", "n")]),
    # a word jieba lacks is joined first, which mends a wrong cut (发表/情)
    (
        {"发表情": "发/v 表情/n"},
        "别发表情了",
        [("别", "r"), ("发", "v"), ("表情", "n"), ("了", "ul")],
    ),
    ({"发表情": "发/v 表情/n"}, "发表论文", [("发表", "v"), ("论文", "nz")]),
    # pieces may be more than two, with tags the dictionary does not give them (学 is n there)
    ({"学一学": "学/v 一/m 学/v"}, "学一学", [("学", "v"), ("一", "m"), ("学", "v")]),
]


@pytest.mark.parametrize(("split", "text", "expected"), SPLIT_CASES)
def test_split_gives_out_the_pieces(
    split: dict[str, str], text: str, expected: list[tuple[str, str]]
) -> None:
    ours = Segmenter(split=[(w, parse_pieces(p)) for w, p in split.items()])
    assert list(ours.pos(text)) == expected
    assert list(ours.cut(text)) == [w for w, _t in expected]


def test_split_leaves_every_other_text_as_jieba_cuts_it() -> None:
    ours = Segmenter(split=[("买房", parse_pieces("买/v 房/n"))])
    tok = jieba.Tokenizer()
    for text in [*EDGE, "房子买了吗", "买房子的钱", "他买了房"]:
        assert list(ours.cut(text)) == tok.lcut(text, HMM=False), text


def test_bundled_split_and_join_words(rewriter) -> None:  # type: ignore[no-untyped-def]
    # each split word is given out as its pieces, each joined word stays whole, with its tag
    seg = rewriter.lexicon.segmenter
    split = rewriter.lexicon.rule("segment", "split")
    join = rewriter.lexicon.rule("segment", "join")
    assert split is not None and join is not None
    for word, spec in split.get("pieces").items():
        assert seg.pos(word) == parse_pieces(spec), word
    for word, tag in join.get("tags").items():
        assert seg.pos(word) == ((word, tag),), word
        assert len(Segmenter().cut(word)) > 1, word  # only words jieba cuts
