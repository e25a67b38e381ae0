"""Multi-path retrieval: merging, the thread pool and its timeout, filters, streaming, ask_user."""

from __future__ import annotations

import itertools
import threading
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulerewrite.result import Condition, Query, RewriteResult
from rulerewrite.retrieval import (
    Hit,
    MultiRetriever,
    RetrievalError,
    accepts_filters,
    build_filters,
    merge_hits,
    multi_retrieve,
)


def _result(*texts: str, **kw: object) -> RewriteResult:
    qs = tuple(Query(t, "original" if i == 0 else f"rewrite_{i}") for i, t in enumerate(texts))
    return RewriteResult(texts[0], texts[-1], queries=qs, **kw)  # type: ignore[arg-type]


# A tiny real retriever: documents scored by shared characters with the query.
DOCS = {
    "d1": "退保流程和所需材料",
    "d2": "保单借款怎么办理",
    "d3": "犹豫期内退保全额退款",
    "d4": "Galaxy S24 Ultra 保修一年",
    "d5": "iPad Air 保修政策",
}


def overlap(query: str, k: int) -> list[Hit]:
    scored = [(len(set(query) & set(t)), i, t) for i, t in DOCS.items()]
    scored = [x for x in scored if x[0] > 0]
    scored.sort(key=lambda x: -x[0])
    return [Hit(i, float(s), t) for s, i, t in scored[:k]]


# ---------------------------------------------------------------- merge_hits


A = [Hit("x", 9.0), Hit("y", 5.0), Hit("z", 1.0)]
B = [Hit("y", 7.0), Hit("w", 6.0)]


def test_max_keeps_best_score_and_its_source() -> None:
    m = merge_hits([("original", A), ("rewrite_1", B)])
    assert [(h.id, h.score, h.query_source) for h in m] == [
        ("x", 9.0, "original"),
        ("y", 7.0, "rewrite_1"),
        ("w", 6.0, "rewrite_1"),
        ("z", 1.0, "original"),
    ]
    y = m[1]
    assert y.sources == ("original", "rewrite_1")
    assert y.ranks == {"original": 2, "rewrite_1": 1}
    assert y.source_scores == {"original": 5.0, "rewrite_1": 7.0}


def test_rrf_sums_reciprocal_ranks_with_configurable_k() -> None:
    m = merge_hits([("original", A), ("rewrite_1", B)], method="rrf", rrf_k=60)
    score = {h.id: h.score for h in m}
    assert score["y"] == pytest.approx(1 / 62 + 1 / 61)
    assert score["x"] == pytest.approx(1 / 61)
    assert m[0].id == "y"  # found by both paths
    m0 = merge_hits([("original", A), ("rewrite_1", B)], method="rrf", rrf_k=0)
    assert {h.id: h.score for h in m0}["x"] == pytest.approx(1.0)


def test_weighted_normalises_per_source() -> None:
    m = merge_hits(
        [("original", A), ("rewrite_1", B)],
        method="weighted",
        weights={"original": 1.0, "rewrite": 0.5},
    )
    s = {h.id: h.score for h in m}
    assert s["x"] == pytest.approx(1.0)  # (9-1)/(9-1)
    assert s["z"] == pytest.approx(0.0)
    assert s["y"] == pytest.approx(0.5 + 0.5 * 1.0)  # (5-1)/8 + 0.5 * (7-6)/1
    assert s["w"] == pytest.approx(0.0)


def test_ties_are_stable_first_seen_order() -> None:
    a = [Hit("p", 1.0), Hit("q", 1.0)]
    b = [Hit("r", 1.0), Hit("p", 1.0)]
    m = merge_hits([("original", a), ("rewrite_1", b)])
    assert [h.id for h in m] == ["p", "q", "r"]
    assert m[0].query_source == "original"  # tie between sources: the earlier one
    # deterministic whatever the run
    assert all(merge_hits([("original", a), ("rewrite_1", b)]) == m for _ in range(5))


def test_duplicate_id_within_one_list_counts_once() -> None:
    m = merge_hits([("original", [Hit("a", 3.0), Hit("a", 2.0)])], method="rrf")
    assert len(m) == 1 and m[0].ranks == {"original": 1}


@pytest.mark.parametrize(("kw", "code"), [({"method": "sum"}, "RR604"), ({"rrf_k": -1}, "RR604")])
def test_bad_merge_options(kw: dict[str, object], code: str) -> None:
    with pytest.raises(RetrievalError, match=code):
        merge_hits([("original", A)], **kw)  # type: ignore[arg-type]


# ---------------------------------------------------------------- MultiRetriever


def test_every_query_is_retrieved_and_merged() -> None:
    res = _result("保单怎么退", "退保流程和材料")
    rr = multi_retrieve(res, overlap, k=3)
    assert rr.decision == "search"
    assert set(rr.per_query) == {"original", "rewrite_1"}
    assert rr.hits[0].id == "d1"
    assert "rewrite_1" in rr.hits[0].sources
    assert not rr.errors


def test_calls_run_in_parallel() -> None:
    barrier = threading.Barrier(3, timeout=2)

    def waits_for_all(query: str, k: int) -> list[Hit]:
        barrier.wait()  # only passes if the three calls run at the same time
        return [Hit(query, 1.0)]

    rr = multi_retrieve(_result("a", "b", "c"), waits_for_all, max_workers=3)
    assert [h.id for h in rr.hits] == ["a", "b", "c"]


def test_timeout_drops_the_slow_path_and_reports_it() -> None:
    def slow_rewrite(query: str, k: int) -> list[Hit]:
        if query == "slow":
            time.sleep(1.0)
        return [Hit(query, 1.0)]

    t0 = time.monotonic()
    rr = multi_retrieve(_result("fast", "slow"), slow_rewrite, timeout=0.2)
    assert time.monotonic() - t0 < 0.9
    assert [h.id for h in rr.hits] == ["fast"]
    assert "RR602" in rr.errors["rewrite_1"]


def test_failing_retriever_is_recorded_or_raised_when_strict() -> None:
    def broken(query: str, k: int) -> list[Hit]:
        if query == "bad":
            raise ConnectionError("index offline")
        return [Hit("ok", 1.0)]

    rr = multi_retrieve(_result("good", "bad"), broken)
    assert rr.ids() == ["ok"]
    assert "RR603" in rr.errors["rewrite_1"] and "index offline" in rr.errors["rewrite_1"]
    with pytest.raises(RetrievalError, match="RR603"):
        multi_retrieve(_result("good", "bad"), broken, strict=True)


@pytest.mark.parametrize(
    "bad",
    [None, "d1", [{"score": 1.0}], [{"id": "a", "score": "high"}], [42], [Hit("a", float("nan"))]],
)
def test_malformed_hits_give_rr601(bad: object) -> None:
    rr = multi_retrieve(_result("q"), lambda q, k: bad)
    assert rr.hits == ()
    assert "RR601" in rr.errors["original"]


def test_mapping_hits_are_accepted() -> None:
    rr = multi_retrieve(
        _result("q"), lambda q, k: [{"id": 7, "score": 2, "text": "t", "metadata": {"a": 1}}]
    )
    h = rr.hits[0]
    assert (h.id, h.score, h.text, dict(h.metadata)) == ("7", 2.0, "t", {"a": 1})


def test_filters_go_to_retrievers_that_accept_them() -> None:
    seen: list[object] = []

    def with_filters(query: str, k: int, filters: dict[str, object] | None = None) -> list[Hit]:
        seen.append(filters)
        return []

    def without(query: str, k: int) -> list[Hit]:
        return []

    assert accepts_filters(with_filters) and not accepts_filters(without)
    assert accepts_filters(lambda q, k, **kw: [])
    res = _result(
        "2023版康宁重疾多少钱",
        conditions=(Condition("version", "2023版", "2023"),),
        intent="费用查询",
        filter_hints={"category": "费用"},
    )
    multi_retrieve(res, with_filters)
    assert seen == [
        {
            "category": "费用",
            "conditions": [{"type": "version", "text": "2023版", "value": "2023"}],
            "intent": "费用查询",
        }
    ]
    assert build_filters(_result("x")) is None
    multi_retrieve(res, without)  # called without filters: no TypeError


def test_ask_user_does_not_retrieve() -> None:
    calls: list[str] = []

    def r(query: str, k: int) -> list[Hit]:
        calls.append(query)
        return [Hit("a", 1.0)]

    res = _result("它保修多久", decision="ask_user", clarification="您问的是哪款产品？")
    rr = multi_retrieve(res, r)
    assert rr.decision == "ask_user" and rr.clarification == "您问的是哪款产品？"
    assert rr.hits == () and calls == []
    with MultiRetriever(r) as mr:
        ups = list(mr.stream(res))
    assert [u.stage for u in ups] == ["merged"] and calls == []


def test_stream_yields_original_first_then_merged() -> None:
    release = threading.Event()

    def r(query: str, k: int) -> list[Hit]:
        if query != "orig":
            assert release.wait(2)
        return [Hit(f"doc-{query}", 1.0)]

    with MultiRetriever(r) as mr:
        it = mr.stream(_result("orig", "rw"))
        first = next(it)  # arrives while the rewrite path is still blocked
        assert first.stage == "original" and [h.id for h in first.hits] == ["doc-orig"]
        release.set()
        last = next(it)
        assert last.stage == "merged" and last.result is not None
        assert [h.id for h in last.hits] == ["doc-orig", "doc-rw"]
        assert list(it) == []


@pytest.mark.parametrize(
    "kw", [{"k": 0}, {"timeout": 0}, {"merge": "mean"}, {"max_workers": 0}, {"per_query_k": 0}]
)
def test_bad_options(kw: dict[str, object]) -> None:
    with pytest.raises(RetrievalError, match="RR604"):
        MultiRetriever(overlap, **kw)  # type: ignore[arg-type]


def test_wrong_types() -> None:
    with pytest.raises(TypeError, match="callable"):
        MultiRetriever("not a function")  # type: ignore[arg-type]
    with MultiRetriever(overlap) as mr, pytest.raises(TypeError, match="RewriteResult"):
        mr.retrieve("保单怎么退")  # type: ignore[arg-type]


def test_real_rewrite_end_to_end(rewriter) -> None:  # type: ignore[no-untyped-def]
    res = rewriter.rewrite("保单怎么退")
    rr = multi_retrieve(res, overlap, k=3)
    assert rr.queries[0].source == "original"
    assert set(rr.per_query) == {q.source for q in res.queries}
    d1 = next(h for h in rr.hits if h.id == "d1")  # 退保流程 comes from the rewrite path
    assert d1.query_source != "original"
    assert d1.score > d1.source_scores["original"]


# ---------------------------------------------------------------- properties

_hits = st.lists(
    st.builds(
        Hit,
        st.sampled_from(list("abcdefg")),
        st.floats(min_value=-5, max_value=50, allow_nan=False),
    ),
    max_size=6,
)


@given(st.lists(_hits, min_size=1, max_size=4), st.sampled_from(["max", "rrf", "weighted"]))
def test_merge_invariants(lists: list[list[Hit]], method: str) -> None:
    named = [("original" if i == 0 else f"rewrite_{i}", hs) for i, hs in enumerate(lists)]
    merged = merge_hits(named, method=method)
    assert [h.id for h in merged] == list(dict.fromkeys(h.id for h in merged))  # unique
    assert {h.id for h in merged} == {h.id for _, hs in named for h in hs}
    assert all(a.score >= b.score for a, b in itertools.pairwise(merged))
    for m in merged:
        found_in = tuple(src for src, hs in named if any(h.id == m.id for h in hs))
        assert m.sources == found_in and m.query_source in m.sources
        if method == "max":
            assert m.score == max(m.source_scores.values())
    assert merge_hits(named, method=method) == merged  # deterministic
