"""How history mentions get their span (rulerewrite/context.py mentions, shared_spans in
rulerewrite/modes/multiturn.py): whole words of the turns, never a piece of one."""

from __future__ import annotations

import pytest

from rulerewrite import Rewriter
from rulerewrite.context import ContextAnalyzer, parse_history
from rulerewrite.modes.multiturn import MultiTurn, _whole_in_both


@pytest.fixture(scope="module")
def mt() -> MultiTurn:
    rw = Rewriter()
    return next(m.mt for m in rw.pipeline.modes if isinstance(getattr(m, "mt", None), MultiTurn))


def shared(mt: MultiTurn, history: list[str]) -> list[str]:
    d = ContextAnalyzer(mt.lexicon).dialogue(parse_history(history))
    return [m.text for m in mt.shared_spans(d)]


def test_a_shared_stretch_inside_a_word_of_one_turn_is_no_topic(mt: MultiTurn) -> None:
    # 同学 is a word of 新同学 (新/同学) but the tail of 老同学 in the other turn
    assert shared(mt, ["我的老同学叫刘子轩", "你可以问问新同学愿不愿意和你一起去"]) == []
    # a name both turns say as a word still is the topic
    assert "易烊千玺" in shared(mt, ["我要聊易烊千玺", "易烊千玺嗓音很棒"])


def test_whole_in_both_narrows_to_common_word_boundaries(mt: MultiTurn) -> None:
    pa, pb = mt.parse("你可以问问新同学"), mt.parse("我的老同学叫刘子轩")
    a, b = pa.text.index("同学"), pb.text.index("同学")
    s, e = _whole_in_both(pa, a, pb, b, 2)
    assert e <= s  # 同学 starts inside 老同学: nothing is left
    pa, pb = mt.parse("北京和上海哪个冷"), mt.parse("北京更冷")
    assert _whole_in_both(pa, 0, pb, 0, 2) == (0, 2)  # 北京 is a word of both


def test_the_noun_after_a_bare_na_is_no_mention(mt: MultiTurn) -> None:
    # 哪国人 is cut 哪/国人: 国人 is not a phrase the user said
    ca = mt.analyzer
    texts = [
        m.text for m in ca.dialogue(parse_history(["拿破仑是哪国人", "拿破仑是法国人"])).mentions()
    ]
    assert "国人" not in texts
    assert "拿破仑" in texts and "法国人" in texts


def mentions(mt: MultiTurn, text: str) -> list[str]:
    return [m.text for m in mt.analyzer.dialogue(parse_history([text, "嗯"])).mentions()]


@pytest.mark.parametrize(
    ("text", "whole", "piece"),
    [
        ("穆赫兰道", "穆赫兰道", "穆赫兰"),  # 穆/赫/兰/道: the measure-tagged 道 is the word's end
        ("你知不知道抖音", "抖音", None),  # 抖/音: 音 alone is too short to be a mention
        ("喜欢抖音里的小哥哥", "抖音里的小哥哥", "音里的小哥哥"),
        ("陈婉婷爱谁", "陈婉婷", "陈婉"),  # 陈婉 (nr) and an untagged 婷
    ],
)
def test_a_mention_covers_the_word_the_segmenter_left_in_pieces(
    mt: MultiTurn, text: str, whole: str, piece: str | None
) -> None:
    got = mentions(mt, text)
    assert whole in got
    assert piece is None or piece not in got


@pytest.mark.parametrize("text", ["吴亦凡唱慢歌也蛮好听的", "已经没人爱了", "原来是介个样子"])
def test_verbs_adverbs_and_measures_are_no_pieces_of_a_word(mt: MultiTurn, text: str) -> None:
    # 唱 / 爱 / 个 next to a phrase go on with the clause: no 唱慢歌, 人爱, 介个
    got = mentions(mt, text)
    assert not any(m in got for m in ("唱慢歌", "吴亦凡唱慢歌", "人爱", "介个"))


def test_a_split_name_said_twice_is_one_shared_name(mt: MultiTurn) -> None:
    # 张艺/兴 (兴 tagged a verb) in both turns: the name is 张艺兴, a person
    d = mt.analyzer.dialogue(parse_history(["张艺兴的新歌好听", "张艺兴唱得不错"]))
    spans = {m.text: m.etype for m in mt.shared_spans(d)}
    assert spans.get("张艺兴") == "person"
    assert "张艺" not in spans


@pytest.mark.parametrize(
    ("text", "which"),
    [
        ("哪个保费更低", True),
        ("这两款哪款好用", True),
        # the which_typo rule (那些 ending a query) is matched at a reference by the comparison
        # mode; it is no which-question of its own
        ("她写了那些诗", False),
        ("他经历过那些困难", False),
    ],
)
def test_asks_which_reads_only_the_which_patterns(mt: MultiTurn, text: str, which: bool) -> None:
    assert mt.asks_which(text) is which
