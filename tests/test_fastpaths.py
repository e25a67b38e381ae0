"""The allocation shortcuts of the hot path build exactly what the dataclass constructors build."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from rulerewrite.context import Turn
from rulerewrite.lexicon.model import Entry, Match, new_match
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


def test_new_match_equals_the_constructor() -> None:
    e = Entry("entity", "iPhone", "tech", "tech.yaml:3")
    assert new_match(0, 6, "iphone", (e,)) == Match(0, 6, "iphone", (e,))
    assert hash(new_match(0, 6, "iphone", (e,))) == hash(Match(0, 6, "iphone", (e,)))


def test_mention_at_turn_equals_dataclasses_replace() -> None:
    from rulerewrite.context import Mention

    m = Mention(
        "北京和上海", "上海", "place", 2, "user", "topic", 0, 5, 1, "coordination",
        ("北京", "上海"), True,
    )  # fmt: skip
    moved = m.at_turn(0)
    # every field (a field added later and not carried over fails here)
    assert {f.name: getattr(moved, f.name) for f in dataclasses.fields(Mention)} == {
        f.name: getattr(dataclasses.replace(m, turn=0), f.name) for f in dataclasses.fields(Mention)
    }
    assert m.turn == 2  # the original is untouched


def test_protected_with_history_equals_dataclasses_replace() -> None:
    from rulerewrite.guards import Protected

    p = Protected(
        (("entity", "iphone 15", "x.yaml:1"),),
        {"不": 1},
        frozenset({"苹果手机"}),
        ("旧的一轮",),
        (("不含税", ("税前",), 1),),
    )
    hist = ("iphone 15 多少钱", "5999 元")
    fast, slow = p.with_history(hist), dataclasses.replace(p, history=hist)
    assert {f.name: getattr(fast, f.name) for f in dataclasses.fields(Protected)} == {
        f.name: getattr(slow, f.name) for f in dataclasses.fields(Protected)
    }


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
    """Every positional fast constructor sets every field, in the dataclass's field order."""
    import importlib

    def load(spec: object) -> object:
        if not isinstance(spec, str):
            return spec
        mod, _, name = spec.partition(":")
        return getattr(importlib.import_module(mod), name)

    make, klass = load(fast), load(cls)
    assert [f.name for f in dataclasses.fields(klass)] == list(  # type: ignore[arg-type]
        inspect.signature(make).parameters  # type: ignore[arg-type]
    )
    built = make(*values)  # type: ignore[operator]
    ref = klass(*values)  # type: ignore[operator]
    assert type(built) is klass
    assert built == ref and hash(built) == hash(ref)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(built, dataclasses.fields(klass)[0].name, None)  # type: ignore[arg-type]


def test_new_mention_equals_the_constructor() -> None:
    from rulerewrite.context import Mention, new_mention

    values = ("北京和上海", "上海", "place", 2, "user", "topic", 0, 5, 1, "coordination")
    names = [f.name for f in dataclasses.fields(Mention)]
    assert list(inspect.signature(new_mention).parameters) == names
    assert new_mention(*values) == Mention(*values)  # the defaults too
    full = (*values, ("北京", "上海"), True)
    built = new_mention(*full)
    assert built == Mention(*full) and hash(built) == hash(Mention(*full))
    assert {n: getattr(built, n) for n in names} == dict(zip(names, full, strict=True))
