"""The allocation shortcuts of the hot path build exactly what the dataclass constructors build."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from rulerewrite.context import Turn
from rulerewrite.lexicon.model import Entry, Match
from rulerewrite.modes.base import Features, State
from rulerewrite.result import Query, RewriteResult, RewrittenQuery, Step, build_result
from rulerewrite.text.normalize import Normalizer


def test_state_start_equals_the_constructor() -> None:
    norm = Normalizer()("它保修多久")
    feats = Features(frozenset({"pronoun"}), 0, 5, False, True)
    hist = (Turn(0, "user", "Galaxy S24 Ultra 多少钱"),)
    fast = State.start("它保修多久", norm, (), feats, hist)
    slow = State(
        query="它保修多久",
        norm=norm,
        matches=(),
        features=feats,
        history=hist,
        standalone="它保修多久",
    )
    assert fast == slow
    assert {f.name: getattr(fast, f.name) for f in dataclasses.fields(State)} == {
        f.name: getattr(slow, f.name) for f in dataclasses.fields(State)
    }
    # the mutable defaults are fresh per state, never shared
    other = State.start("x", norm, (), feats, ())
    assert fast.scratch is not other.scratch and fast.filter_hints is not other.filter_hints
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.standalone = "y"  # type: ignore[misc]


def test_build_result_equals_the_constructor() -> None:
    values = dict(
        original_query="a",
        standalone="b",
        decision="search",
        clarification=None,
        missing_fields=("x",),
        rewrite_skipped=False,
        modes=("expand",),
        intent="其他",
        filter_hints={"k": 1},
        confidence=0.9,
        escalate=False,
        queries=(Query("a", "original"), Query("b", "rewrite_1")),
        rewritten_queries=(RewrittenQuery("b", ("expand",)),),
        must_keep_entities=("a",),
        conditions=(),
        resolved_context=(),
        assumptions=(),
        trace=(Step("expand", "f:1", "a", "b"),),
    )
    names = [f.name for f in dataclasses.fields(RewriteResult)]
    assert list(values) == names
    assert list(inspect.signature(build_result).parameters) == names
    fast = build_result(*values.values())
    assert fast == RewriteResult(**values)  # type: ignore[arg-type]
    assert fast.to_dict() == RewriteResult(**values).to_dict()  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        build_result("too", "few")  # type: ignore[call-arg]
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.standalone = "c"  # type: ignore[misc]


def test_longest_common_equals_sequence_matcher() -> None:
    """shared_spans' longest common stretch is difflib's ``find_longest_match`` (no junk), ties
    included: the earliest start in the first text, then its first place in the second."""
    import random
    from difflib import SequenceMatcher

    from rulerewrite.modes.multiturn import longest_common

    rng = random.Random(7)
    alphabets = (
        "ab",
        "abc的",
        "保险期多少钱呢的是",
        "Galaxy S24 Ultra的价格",
        "易烊千玺嗓音很棒我要聊",
    )
    fixed = [
        ("我要聊易烊千玺", "易烊千玺嗓音很棒"),
        ("abab", "baba"),
        ("aaaa", "aa"),
        ("", "abc"),
        ("abc", ""),
        ("xyz", "abc"),
    ]
    randoms = [
        tuple(
            "".join(rng.choice(alpha) for _ in range(rng.randint(0, 18)))
            for alpha in (rng.choice(alphabets),) * 2
        )
        for _ in range(3000)
    ]
    for a, b in fixed + randoms:
        m = SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b))
        ia, ib, size = longest_common(a, b)
        assert size == m.size, (a, b)
        if size:
            assert (ia, ib) == (m.a, m.b), (a, b)


@pytest.mark.parametrize(
    ("fast", "cls", "values"),
    [
        ("rulerewrite.result:new_query", Query, ("它保修多久", "original")),
        ("rulerewrite.result:new_rewritten", RewrittenQuery, ("a", ("coreference",))),
        (
            "rulerewrite.result:new_entity",
            "rulerewrite.result:ContextEntity",
            ("Galaxy S24 Ultra", "product", 0, "user", "subj", "referent"),
        ),
        ("rulerewrite.result:new_step", Step, ("coreference", "f:1", "a", "b", 2, "applied", "n")),
        ("rulerewrite.context:new_turn", Turn, (1, "assistant", "有四种颜色。")),
        (
            "rulerewrite.text.parse:new_token",
            "rulerewrite.text.parse:Token",
            (2, "保修", "vn", 3, "obj", 1, 3),
        ),
        (
            "rulerewrite.context:new_mention",
            "rulerewrite.context:Mention",
            (
                "北京和上海",
                "上海",
                "place",
                2,
                "user",
                "topic",
                0,
                5,
                1,
                "coordination",
                ("北京", "上海"),
                True,
            ),
        ),
        (
            "rulerewrite.lexicon.model:new_match",
            Match,
            (0, 6, "iphone", (Entry("entity", "iPhone", "tech", "tech.yaml:3"),)),
        ),
        (
            "rulerewrite.modes.multiturn:new_candidate",
            "rulerewrite.modes.multiturn:Candidate",
            (
                __import__("rulerewrite.context", fromlist=["Mention"]).Mention(
                    "北京", "北京", "place", 0, "user", "subj", 0, 2, 0, "pos:ns"
                ),
                3.8,
                "recency -0.0, subject",
            ),
        ),
    ],
)
def test_fast_constructors_equal_the_constructors(fast: str, cls: object, values: tuple) -> None:
    """Every fast constructor is generated by fast_init, takes the dataclass's parameters (names,
    order, defaults) and sets every field: with all values given, and with the defaults."""
    import importlib

    def load(spec: object) -> object:
        if not isinstance(spec, str):
            return spec
        mod, _, name = spec.partition(":")
        return getattr(importlib.import_module(mod), name)

    make, klass = load(fast), load(cls)
    assert make.__code__.co_filename.startswith("<fast_init ")  # type: ignore[attr-defined]
    assert _params(make) == _params(klass)
    names = [f.name for f in dataclasses.fields(klass)]  # type: ignore[arg-type]
    built = make(*values)  # type: ignore[operator]
    ref = klass(*values)  # type: ignore[operator]
    assert type(built) is klass
    assert built == ref and hash(built) == hash(ref)
    assert {n: getattr(built, n) for n in names} == dict(zip(names, values, strict=True))
    required = [p for p in inspect.signature(klass).parameters.values() if p.default is p.empty]  # type: ignore[arg-type]
    short = values[: len(required)]
    assert make(*short) == klass(*short)  # type: ignore[operator]
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(built, names[0], None)
    with pytest.raises(TypeError):
        make(*values, None)  # type: ignore[operator]


def _params(f: object) -> list[tuple[str, object, object]]:
    """A callable's parameters as (name, kind, default), annotations aside."""
    return [
        (p.name, p.kind, p.default)
        for p in inspect.signature(f).parameters.values()  # type: ignore[arg-type]
    ]


@pytest.mark.parametrize(
    ("cls", "method", "name"),
    [
        ("rulerewrite.context:Mention", "at_turn", "turn"),
        ("rulerewrite.guards:Protected", "with_history", "history"),
    ],
)
def test_replacing_methods_equal_dataclasses_replace(cls: str, method: str, name: str) -> None:
    """The one-field replacements are generated from the fields (a field added to the class is
    carried over), and equal ``dataclasses.replace`` field by field."""
    import importlib

    from rulerewrite.fastinit import fast_replace

    mod, _, attr = cls.partition(":")
    klass = getattr(importlib.import_module(mod), attr)
    values = {
        "Mention": ("北京和上海", "上海", "place", 2, "user", "topic", 0, 5, 1, "coordination",
                    ("北京", "上海"), True),
        "Protected": ((("entity", "iphone 15", "x.yaml:1"),), {"不": 1}, frozenset({"苹果手机"}),
                      ("旧的一轮",), (("不含税", ("税前",), 1),)),
    }[attr]  # fmt: skip
    obj = klass(*values)
    new = ("iphone 15 多少钱",) if name == "history" else 0
    names = [f.name for f in dataclasses.fields(klass)]
    fast, slow = getattr(obj, method)(new), dataclasses.replace(obj, **{name: new})
    assert {n: getattr(fast, n) for n in names} == {n: getattr(slow, n) for n in names}
    assert fast == slow and type(fast) is klass and getattr(obj, name) != new  # obj untouched
    for other in names:  # and any field, for the generator itself
        repl = fast_replace(klass, other)
        assert repl(obj, getattr(slow, other)) == dataclasses.replace(
            obj, **{other: getattr(slow, other)}
        )


def test_extra_reference_prefilter_changes_no_answer(rewriter) -> None:  # type: ignore[no-untyped-def]
    """speed24: ``MultiTurn.extra_hit`` (the extra reference patterns, skipped for a text that
    holds none of the strings their matches need) answers what searching every pattern
    answers, and the references found are those the unfiltered search finds: texts that hold
    such a string and match, hold one and do not match, and hold none."""
    import random

    from rulerewrite.modes.coreference import Coreference

    coref = next(m for m in rewriter.pipeline.modes if isinstance(m, Coreference))
    mt = coref.mt
    assert mt._extra_needs is not None  # every pattern of the bundled rules needs a string
    texts = [
        "这是哪位歌手唱的",  # 这 before 是: a pattern matches
        "那里的冬天冷不冷",  # 那里: a place
        "当地有什么特色小吃",
        "你知道这是什么花吗",
        "说到这儿我想起一件事",
        "这样的天气适合爬山吗",
        "我也这么觉得",
        "干这一行辛苦吗",
        "这本小说讲了什么",  # 这 held, no extra pattern matches before 本
        "行程安排好了吗",  # 行 held, no 这一行
        "水族箱的过滤器多久换一次",  # none of the needed strings
        "明天下午的航班延误了",
        "",
    ]
    rng = random.Random(24)
    pieces = "这那该行当地说到样么里边儿是也吗呢的水族箱过滤器航班"
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 12))) for _ in range(400)]
    for t in texts:
        plain = any(p.search(t) for p, _d, _s in mt.extra_refs)
        assert mt.extra_hit(t) == plain, t
        if not mt._may_extra(t):
            assert not plain and not any(p.search(t) for p, _d, _s in mt.extra_refs), t
    mt._refs.cache_clear()
    found = {t: mt.references(t) for t in texts if t}
    needs, mt._extra_needs = mt._extra_needs, None  # the search without the prefilter
    try:
        mt._refs.cache_clear()
        assert {t: mt.references(t) for t in texts if t} == found
    finally:
        mt._extra_needs = needs
        mt._refs.cache_clear()


def test_early_checks_of_known_asked_and_rank_ne_change_no_answer(rewriter) -> None:  # type: ignore[no-untyped-def]
    """speed27: ``Coreference._known_asked`` looks at the last turn's role before its query
    pattern, and ``Ellipsis._rank_ne`` matches the rank before it reads the previous question
    (the history): both answer what the checks in their former order answer, for a reply or a
    user turn last, a query that matches the pattern and one that does not."""
    from rulerewrite.modes.coreference import Coreference
    from rulerewrite.modes.ellipsis import Ellipsis
    from rulerewrite.modes.ellipsis.common import _previous_question

    coref = next(m for m in rewriter.pipeline.modes if isinstance(m, Coreference))
    ell = next(m for m in rewriter.pipeline.modes if isinstance(m, Ellipsis))
    norm = Normalizer()

    def state(query: str, turns: list[tuple[str, str]]) -> State:
        hist = tuple(Turn(i, role, text) for i, (role, text) in enumerate(turns))
        feats = Features(frozenset(), 0, len(query), False, bool(hist))
        return State.start(query, norm(query), (), feats, hist)

    def known_before(st: State, text: str, ref) -> object:  # type: ignore[no-untyped-def]
        k = coref.known
        if k.query is None or k.asked is None or not st.history:
            return None
        if not any(m.start("ref") == ref.start for m in k.query.finditer(text)):
            return None
        turn = st.history[-1]
        if turn.role != "assistant":
            return None
        m = k.asked.search(turn.content.strip())
        if m is None or m.group("np") in text:
            return None
        return m.group("np")

    histories = [
        [("user", "宝石迷阵怎么玩")],
        [("user", "我在玩一个游戏"), ("assistant", "宝石迷阵怎么玩")],
        [("user", "我在读一本书"), ("assistant", "故乡的作者是谁")],
        [("assistant", "你好"), ("user", "故乡的作者是谁")],
        [],
    ]
    found = 0
    for query in ("这都不知道", "卧槽这你都不会", "这本书好看吗", "这也没听过吗"):
        for turns in histories:
            st = state(query, turns)
            for ref in coref.mt.references(query):
                got = coref._known_asked(st, query, ref)
                assert (got.text if got is not None else None) == known_before(st, query, ref)
                found += got is not None
    assert found  # the reply's question does give the phrase in some of them

    rank_histories = [
        [("user", "清朝第一位皇帝是谁"), ("assistant", "努尔哈赤")],
        [("user", "战斗力最高的是谁")],
        [("assistant", "你好")],
        [],
    ]
    for query, x in (("第二位呢", "第二位"), ("最低的呢", "最低"), ("上海呢", "上海")):
        for turns in rank_histories:
            st = state(query, turns)
            d = ell.mt.dialogue(st)
            got = ell._rank_ne(st, d, x)
            x2 = x + "的" if query.endswith("的呢") else x
            if _previous_question(d) is None or not ell.ne_rank.fullmatch(x2):
                assert got is None, (query, turns)
            else:
                assert ell._rank_ne(st, d, x) == got  # the same answer read twice
