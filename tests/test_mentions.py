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
