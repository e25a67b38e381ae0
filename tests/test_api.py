"""The public Python API: Rewriter, the result contract (and its JSON Schema), bad input."""

from __future__ import annotations

import dataclasses
import json
from importlib import resources
from typing import Any

import jsonschema
import pytest

import rulerewrite
from rulerewrite import QueryError, Rewriter, RewriterConfig, RewriteResult

CONTRACT = {
    "original_query", "standalone", "decision", "clarification", "missing_fields",
    "rewrite_skipped", "modes", "intent", "filter_hints", "confidence", "escalate", "queries",
    "rewritten_queries", "must_keep_entities", "conditions", "resolved_context", "assumptions",
    "trace",
}  # fmt: skip

# Real queries across domains and situations (zero-rewrite, expand, normalise, history, precise).
SAMPLES: list[tuple[str, list[Any] | None]] = [
    ("保单怎么退", None),
    ("k8s 怎么看 pod 日志", None),
    ("請問，ｉＰｈｏｎｅ１５ 保修多久？？", None),
    ("ERR-1024", None),
    ("订单号 2023110512345678", None),
    ("安心福终身寿险的等待期是多少天", None),
    ("它保修多久？", ["Galaxy S24 Ultra 有哪些颜色", "有钛黑、钛灰、钛紫和钛黄四种颜色。"]),
    ("它多少钱？有几种颜色？", [{"role": "user", "content": "iPad Air 现在多少钱"}]),
    ("这玩意能退不", None),
    ("年假怎么申请", None),
    ("你好", None),
    ("不想买了能退钱吗", None),
    ("那华为的呢", ["小米14 的续航怎么样", "小米14 续航大约一天半。"]),
    ("py 怎么装包", None),
    ("报销要啥材料", None),
]


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    text = resources.files("rulerewrite").joinpath("schema/result.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


# -- the API and the result ---------------------------------------------------------------------


def test_public_names() -> None:
    for name in ("Rewriter", "RewriteResult", "available_domains", "LexiconError", "QueryError"):
        assert name in rulerewrite.__all__
        assert hasattr(rulerewrite, name)


def test_rewrite_returns_a_result_with_the_original_first(rewriter: Rewriter) -> None:
    res = rewriter.rewrite("保单怎么退")
    assert isinstance(res, RewriteResult)
    assert res.original_query == "保单怎么退"
    assert res.queries[0].text == "保单怎么退" and res.queries[0].source == "original"
    assert [q.source for q in res.queries[1:]] == [
        f"rewrite_{i}" for i in range(1, len(res.queries))
    ]
    assert [q.text for q in res.queries[1:]] == [r.text for r in res.rewritten_queries]
    assert len(res.queries) <= rewriter.config.max_queries


@pytest.mark.parametrize(("query", "history"), SAMPLES)
def test_to_dict_is_json_and_matches_the_schema(
    rewriter: Rewriter, schema: dict[str, Any], query: str, history: list[Any] | None
) -> None:
    d = rewriter.rewrite(query, history).to_dict()
    assert set(d) == CONTRACT
    again = json.loads(json.dumps(d, ensure_ascii=False))
    assert again == d  # plain JSON values only (no tuples, dataclasses, sets)
    jsonschema.validate(d, schema, cls=jsonschema.Draft202012Validator)


def test_schema_rejects_a_broken_result(rewriter: Rewriter, schema: dict[str, Any]) -> None:
    d = rewriter.rewrite("保单怎么退").to_dict()
    v = jsonschema.Draft202012Validator(schema)
    v.check_schema(schema)
    for broken in (
        {**d, "decision": "maybe"},
        {**d, "confidence": 1.5},
        {**d, "queries": []},
        {k: x for k, x in d.items() if k != "trace"},
        {**d, "extra_field": 1},
    ):
        assert not v.is_valid(broken)


def test_to_json_round_trips(rewriter: Rewriter) -> None:
    res = rewriter.rewrite("k8s 怎么看 pod 日志")
    assert json.loads(res.to_json()) == res.to_dict()
    assert "Kubernetes" in res.to_json()  # ensure_ascii=False keeps Chinese and Latin readable


def test_result_is_immutable(rewriter: Rewriter) -> None:
    res = rewriter.rewrite("保单怎么退")
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.standalone = "x"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.queries[0].text = "x"  # type: ignore[misc]
    for name in ("queries", "rewritten_queries", "modes", "trace", "must_keep_entities"):
        assert isinstance(getattr(res, name), tuple), name
    # a caller editing the dict copy does not touch the result
    d = res.to_dict()
    d["queries"].append({"text": "x", "source": "rewrite_9"})
    assert len(res.to_dict()["queries"]) == len(res.queries)


def test_zero_rewrite_query_is_returned_untouched(rewriter: Rewriter) -> None:
    res = rewriter.rewrite("安心福终身寿险的等待期是多少天")
    assert res.standalone == res.original_query
    assert res.rewritten_queries == ()
    assert res.modes == ()
    assert not res.changed


def test_expand_adds_queries_but_never_replaces_the_users_words(rewriter: Rewriter) -> None:
    res = rewriter.rewrite("k8s 怎么看 pod 日志")
    assert res.standalone == "k8s 怎么看 pod 日志"
    assert "Kubernetes 怎么看 pod 日志" in [q.text for q in res.queries]
    assert "expand" in res.modes
    step = next(s for s in res.trace if s.mode == "expand" and s.status == "applied")
    assert step.rule.startswith("dictionaries/") and step.rule.rsplit(":", 1)[1].isdigit()


def test_history_as_messages_or_plain_strings_gives_the_same_result(rewriter: Rewriter) -> None:
    plain = ["Galaxy S24 Ultra 有哪些颜色", "有钛黑、钛灰、钛紫和钛黄四种颜色。"]
    msgs = [
        {"role": "user", "content": plain[0]},
        {"role": "assistant", "content": plain[1]},
    ]
    assert rewriter.rewrite("它保修多久？", plain) == rewriter.rewrite("它保修多久？", msgs)


def test_rewrite_many(rewriter: Rewriter) -> None:
    qs = ["保单怎么退", "它保修多久？", "ERR-1024"]
    hs: list[Any] = [None, ["Galaxy S24 Ultra 有哪些颜色", "四种颜色。"], []]
    many = rewriter.rewrite_many(qs, histories=hs)
    assert many == [rewriter.rewrite(q, h) for q, h in zip(qs, hs, strict=True)]
    assert [r.original_query for r in rewriter.rewrite_many(iter(qs))] == qs
    assert rewriter.rewrite_many([]) == []
    with pytest.raises(ValueError, match="RR203"):
        rewriter.rewrite_many(qs, histories=[None])


def test_config_options_are_keyword_only_and_validated() -> None:
    rw = Rewriter(domains=["tech"], max_queries=2)
    assert rw.config.max_queries == 2
    assert len(rw.rewrite("k8s 怎么看 pod 日志").queries) <= 2
    with pytest.raises(TypeError, match="max_querys"):
        Rewriter(domains=["tech"], max_querys=2)
    with pytest.raises(ValueError, match=r"RR210.*max_queries"):
        Rewriter(domains=["tech"], max_queries=0)
    with pytest.raises(TypeError, match="not both"):
        Rewriter(domains=["tech"], config=RewriterConfig(), max_queries=2)
    with pytest.raises(TypeError):
        Rewriter(["tech"])  # type: ignore[misc]


def test_unknown_referent_policy_asks_or_searches_generically() -> None:
    # 这个药 with no conversation: asked by default, searched as a generic drug on request
    q = "这个药能和布洛芬一起吃吗"
    asked = Rewriter(domains=["medical"]).rewrite(q)
    assert asked.decision == "ask_user"
    assert asked.clarification is not None and "药" in asked.clarification
    searched = Rewriter(domains=["medical"], unknown_referent="search").rewrite(q)
    assert searched.decision == "search"
    assert "referent" in searched.missing_fields and searched.escalate
    with pytest.raises(ValueError, match=r"RR212.*unknown_referent"):
        Rewriter(domains=["medical"], unknown_referent="guess")


# -- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["", "   ", "\n\t", "\u3000", "\x00\u200b"])
def test_empty_query_is_a_value_error(rewriter: Rewriter, query: str) -> None:
    with pytest.raises(ValueError, match=r"RR201.*empty"):
        rewriter.rewrite(query)
    with pytest.raises(QueryError):
        rewriter.rewrite(query)


@pytest.mark.parametrize("query", [None, 42, b"bytes", ["保单怎么退"], {"q": 1}])
def test_wrong_query_type_names_the_argument(rewriter: Rewriter, query: Any) -> None:
    with pytest.raises(TypeError, match="query"):
        rewriter.rewrite(query)


@pytest.mark.parametrize("history", ["它是什么", 42, {"role": "user"}, b"x"])
def test_wrong_history_type_names_the_argument(rewriter: Rewriter, history: Any) -> None:
    with pytest.raises(TypeError, match="history"):
        rewriter.rewrite("它多少钱", history)


def test_over_long_query_is_a_clear_error_not_slowness(rewriter: Rewriter) -> None:
    with pytest.raises(QueryError, match=r"RR202.*513.*512"):
        rewriter.rewrite("保" * 513)
    assert rewriter.rewrite("保" * 512).original_query == "保" * 512
    short = Rewriter(domains=["tech"], max_length=10)
    with pytest.raises(QueryError, match="limit is 10"):
        short.rewrite("k8s 怎么看 pod 日志")


def test_control_characters_are_stripped(rewriter: Rewriter) -> None:
    res = rewriter.rewrite("\ufeff保单\x00怎么\u200b退\x07 ")
    assert res.original_query == "保单怎么退"
    assert res == rewriter.rewrite("保单怎么退")
    for q in res.queries:
        assert not any(ord(c) < 32 or c in "\u200b\ufeff" for c in q.text)


@pytest.mark.parametrize(
    ("history", "pattern"),
    [
        (
            [{"role": "user", "content": "iPad Air"}, {"role": "robot", "content": "x"}],
            "item 1.*role",
        ),
        ([{"role": "user", "content": "iPad Air"}, {"role": "assistant"}], "item 1.*content"),
        (["iPad Air", "4799 元", {"role": "user", "content": 5}], "item 2.*content"),
        (["iPad Air", 42], "item 1.*int"),
        ([None], "item 0"),
        ([["user", "iPad Air"]], "item 0.*list"),
    ],
)
def test_malformed_history_item_names_its_index(
    rewriter: Rewriter, history: list[Any], pattern: str
) -> None:
    with pytest.raises(QueryError, match=pattern):
        rewriter.rewrite("它多少钱", history)


def test_history_content_is_cleaned_too(rewriter: Rewriter) -> None:
    h = ["Galaxy S24 Ultra\x00 有哪些颜色", "四种颜色\u200b。"]
    clean = ["Galaxy S24 Ultra 有哪些颜色", "四种颜色。"]
    assert rewriter.rewrite("它保修多久？", h) == rewriter.rewrite("它保修多久？", clean)
