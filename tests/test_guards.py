"""Intent-fidelity guards: protected items, numbers, negations, invented text (rulerewrite/guards.py),
and how the pipeline records a rejected step."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulerewrite import Rewriter
from rulerewrite.context import parse_history
from rulerewrite.guards import Guards, Protected, with_perspective
from rulerewrite.modes.base import State
from rulerewrite.pipeline import Pipeline
from rulerewrite.result import RewrittenQuery, Step


@pytest.fixture(scope="module")
def rw() -> Rewriter:
    return Rewriter()


@pytest.fixture(scope="module")
def guards(rw: Rewriter) -> Guards:
    return rw.pipeline.guards


def protect(rw: Rewriter, query: str, history: Sequence[str] = ()) -> Protected:
    st_ = rw.pipeline.initial_state(query, parse_history(list(history)))
    return rw.pipeline.guards.protected(st_.norm.text, st_.matches, list(history))


def why(rw: Rewriter, original: str, produced: str, history: Sequence[str] = (), **kw: Any) -> Any:
    return rw.pipeline.guards.check(protect(rw, original, history), original, produced, **kw)


# -- what is protected --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("original", "produced", "reason"),
    [
        ("安心福终身寿险的等待期是多少天", "等待期是多少天", "drops entity"),
        ("iPhone 15 Pro 保修多久", "手机保修多久", "drops entity"),
        ("订单 2023110512345678 怎么还没发货", "订单怎么还没发货", "drops order_id"),
        ("Redis 7.2.4 怎么升级", "Redis 怎么升级", "drops version"),
        ("Redis 7.2.4 怎么升级", "Redis 7.2.5 怎么升级", "drops version"),
        ("报错 ERR-1024 怎么办", "报错怎么办", "drops code"),
        ("2023年3月买的保险能退吗", "买的保险能退吗", "drops date"),
        ("保费 3000 元能退多少", "保费能退多少", "drops number"),
        ("保费 3000 元能退多少", "保费 300 元能退多少", "drops number"),
        ("保单不能退吗", "保单能退吗", "drops negation"),
        ("没有发票能报销吗", "有发票能报销吗", "drops negation"),
        ("保单能退吗", "保单不能退吗", "adds negation"),
        ("它保修多久", "小米14保修多久", "introduces"),
        ("保单怎么退", "保单怎么退给张三", "introduces"),
    ],
)
def test_unsafe_output_is_rejected_with_a_reason(
    rw: Rewriter, original: str, produced: str, reason: str
) -> None:
    got = why(rw, original, produced)
    assert got is not None and reason in got, got


@pytest.mark.parametrize(
    ("original", "produced", "history"),
    [
        ("保单怎么退", "保单怎么退", ()),  # unchanged
        ("保单怎么退", "退保流程", ()),  # dictionary expansion of an original term
        ("k8s 怎么看 pod 日志", "Kubernetes 怎么看 pod 日志", ()),  # alias
        ("它保修多久", "Galaxy S24 Ultra保修多久", ("Galaxy S24 Ultra 有哪些颜色", "四种")),
        ("那华为的呢", "华为的续航怎么样", ("小米14 的续航怎么样", "一天半")),  # history words
        ("保单怎么退", "保单如何退", ()),  # glue words
        ("保单能退不", "保单能退吗", ()),  # A-not-A is not a negation
        ("Python 3.11 怎么装", "python 3.11 怎么装", ()),  # casing is not an alteration
        ("請問 ｉＰｈｏｎｅ１５ 保修多久", "iPhone15 保修多久", ()),  # width, script, filler
        ("不能退保怎么办", "不能退保怎么办", ()),
        ("它不支持私有部署吗", "Qdrant不支持私有部署吗", ("Qdrant 是什么", "向量数据库")),
        # the one-character verb the history asked how to do (手风琴怎么拉) stands apart from
        # its object in the history: it is the user's word, not an invented one
        ("你会吗", "你会拉手风琴吗", ("手风琴怎么拉", "这乐器的声音很好听")),
        ("你能不能", "你能不能煎牛排", ("牛排 咋煎", "火候很重要")),
    ],
)
def test_safe_output_passes(
    rw: Rewriter, original: str, produced: str, history: Sequence[str]
) -> None:
    assert why(rw, original, produced, history) is None


def test_lone_history_character_other_than_a_how_verb_is_still_invented(rw: Rewriter) -> None:
    # 琴 is said in the history, but not as the verb of a how-question: still invented
    got = why(rw, "你会吗", "你会琴手风琴吗", ("手风琴怎么拉", "很好听"))
    assert got is not None and "introduces '琴'" in got, got


def test_negation_supplied_by_the_history_may_be_added(rw: Rewriter) -> None:
    h = ("平安福不保哪些情况", "不保既往症。")
    assert why(rw, "那安心福呢", "安心福不保哪些情况", h) is None
    assert why(rw, "那安心福呢", "安心福不保哪些情况") is not None


def test_negation_from_two_history_pieces_needs_its_word(rw: Rewriter) -> None:
    # 不喜欢 (the answer) + 朱飞 (the question): both said, so 为啥不喜欢朱飞 passes
    h = ("你喜欢朱飞吗", "不喜欢")
    assert why(rw, "为啥", "为啥不喜欢朱飞", h) is None
    # a lone 不 said somewhere (不错) is no piece: the negation must come with its word
    h2 = ("你喜欢朱飞吗", "还不错")
    assert "adds negation" in (why(rw, "为啥", "为啥不喜欢朱飞", h2) or "")


def test_name_holding_a_negation_character_plus_glue_is_no_negation(rw: Rewriter) -> None:
    # 莫 of 莫扎特 counts as a negation; the name was said and 是 is glue: nothing is negated
    h = ("你知道莫扎特吧", "莫扎特")
    assert why(rw, "一个伟大的作曲家", "莫扎特是一个伟大的作曲家", h) is None
    # the glue does not launder a negation the history never said with its word
    assert "adds negation" in (why(rw, "一个伟大的作曲家", "莫扎特不是一个伟大的作曲家", h) or "")


def test_allowed_negation_drop(rw: Rewriter, guards: Guards) -> None:
    q = "难道保单不能退吗"
    assert "drops negation" in (why(rw, q, "保单能退吗") or "")
    prot = protect(rw, q)
    assert prot.negations["*"] == 1  # the negation was counted
    drops = frozenset({"不"})
    assert guards.check(prot, q, "保单能退吗", allowed_negation_drops=drops) is None


def test_partial_subqueries_and_cover(rw: Rewriter, guards: Guards) -> None:
    q = "iPhone 15 Pro 多少钱？MacBook Air 有几种颜色？"
    prot = protect(rw, q)
    subs = ["iPhone 15 Pro 多少钱", "MacBook Air 有几种颜色"]
    for s in subs:
        assert guards.check(prot, q, s) is not None  # alone, each drops the other's entity
        assert guards.check(prot, q, s, partial=True) is None
    assert guards.check_cover(prot, subs) is None
    got = guards.check_cover(prot, subs[:1])
    assert got is not None and "MacBook Air" in got.replace("macbook air", "MacBook Air")


# -- counting negations: the fast regex agrees with the reference loop --------------------------


def _ref_count(words: Sequence[str], text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    i = 0
    while i < len(text):
        for w in words:  # longest first
            if text.startswith(w, i):
                counts[w] = counts.get(w, 0) + 1
                i += len(w)
                break
        else:
            i += 1
    return counts


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet=list("不没有别无非未能会是可以得要再曾从来并绝决禁止保单退吗?好"), max_size=30)
)
def test_count_negations_matches_reference(rw: Rewriter, text: str) -> None:
    from rulerewrite.guards import _ANOTA

    g = rw.pipeline.guards
    assert g.count_negations(text) == _ref_count(g.negation_words, _ANOTA.sub("", text))


# -- the pipeline records rejected steps ---------------------------------------------------------


@dataclass
class _Fake:
    """A mode that produces whatever it is told (to exercise the pipeline's guard handling)."""

    id: ClassVar[str] = "coreference"
    standalone: str | None = None
    variants: tuple[str, ...] = ()

    def applies(self, state: State) -> bool:
        return True

    def __call__(self, state: State) -> State:
        if self.standalone is not None:
            return state.with_step(
                Step(self.id, "test:1", state.standalone, self.standalone),
                standalone=self.standalone,
            )
        return state.with_step(
            Step(self.id, "test:1", state.standalone, state.standalone),
            variants=(*state.variants, *(RewrittenQuery(v, (self.id,)) for v in self.variants)),
        )


def _pipeline(rw: Rewriter, mode: _Fake) -> Pipeline:
    p = Pipeline(rw.lexicon, rw.config)
    p.modes = [mode]  # type: ignore[list-item]
    return p


def test_rejected_structural_step_keeps_the_original_and_sets_rewrite_skipped(
    rw: Rewriter,
) -> None:
    p = _pipeline(rw, _Fake(standalone="手机保修多久"))
    res = p.run("iPhone 15 Pro 保修多久", ())
    assert res.standalone == "iPhone 15 Pro 保修多久"
    assert res.rewrite_skipped and res.escalate
    assert [q.text for q in res.queries] == ["iPhone 15 Pro 保修多久"]
    rej = [s for s in res.trace if s.status == "rejected"]
    assert len(rej) == 1 and rej[0].mode == "coreference" and "drops entity" in rej[0].note
    assert rej[0].after == "手机保修多久"


def test_rejected_variant_is_dropped_and_traced_others_kept(rw: Rewriter) -> None:
    p = _pipeline(rw, _Fake(variants=("保单不能退吗", "保单如何退")))
    res = p.run("保单怎么退", ())
    texts = [q.text for q in res.queries]
    assert "保单如何退" in texts and "保单不能退吗" not in texts
    assert not res.rewrite_skipped
    assert any(s.status == "rejected" and "adds negation" in s.note for s in res.trace)


def test_safe_step_passes_through(rw: Rewriter) -> None:
    hist = parse_history(["Galaxy S24 Ultra 有哪些颜色", "四种颜色"])
    p = _pipeline(rw, _Fake(standalone="Galaxy S24 Ultra保修多久"))
    res = p.run("它保修多久", hist)
    assert res.standalone == "Galaxy S24 Ultra保修多久"
    assert not res.rewrite_skipped
    assert "coreference" in res.modes


def test_guard_history_is_the_window_not_every_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    # the modes look at the last `window` exchanges; the guard accepts text from those only
    rw = Rewriter(window=1)
    seen: list[tuple[str, ...]] = []
    real = rw.pipeline._protected

    def spy(text: str, history: tuple[str, ...]) -> Protected:
        seen.append(history)
        return real(text, history)

    monkeypatch.setattr(rw.pipeline, "_protected", spy)
    history = [
        {"role": "user", "content": "旧话题：安心福终身寿险"},
        {"role": "assistant", "content": "好的"},
        {"role": "user", "content": "Galaxy S24 Ultra 有哪些颜色"},
        {"role": "assistant", "content": "有四种颜色。"},
    ]
    res = rw.rewrite("它保修多久", history)
    assert res.standalone.startswith("Galaxy S24 Ultra")
    assert seen and all(h == ("Galaxy S24 Ultra 有哪些颜色", "有四种颜色。") for h in seen)


# -- the history as the user would say it (guards.with_perspective) ----------------------------


@pytest.mark.parametrize(
    ("original", "produced", "history"),
    [
        # the assistant's 你 is the user's 我, its opening 我 goes
        ("可以", "可以教我", ("我可以教你",)),
        ("可以", "可以帮我查订单", ("我可以帮您查订单吗",)),
        # a 我 inside the assistant's sentence is the user's 你 (was rejected: 想你 invented)
        ("会", "会想你", ("你会想我吗",)),
    ],
)
def test_user_side_rewrite_passes(
    rw: Rewriter, original: str, produced: str, history: Sequence[str]
) -> None:
    assert why(rw, original, produced, history) is None


@pytest.mark.parametrize(
    ("original", "produced", "history"),
    [
        # no turn says 他, in either speaker's words
        ("会", "会想他", ("你会想我吗",)),
        ("可以", "可以教他", ("我可以教你",)),
    ],
)
def test_user_side_view_invents_no_other_person(
    rw: Rewriter, original: str, produced: str, history: Sequence[str]
) -> None:
    got = why(rw, original, produced, history)
    assert got is not None and "introduces" in got, got


def test_with_perspective_swaps_the_speakers() -> None:
    assert with_perspective(("你会想我吗", "好的")) == ("你会想我吗", "好的", "我会想你吗")
    assert with_perspective(("好的",)) == ("好的",)
