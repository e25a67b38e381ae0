"""The retrieval evaluation: case loading, the metrics, fidelity checks, the report, the CLI,
and the bundled benchmark data."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from rulerewrite.errors import QueryError
from rulerewrite.evaluation.rag import (
    CaseOutcome,
    RAGCase,
    _Fidelity,
    evaluate_rag,
    load_cases,
    render_html,
)
from rulerewrite.result import Query, RewriteResult, RewrittenQuery
from rulerewrite.retrieval import Hit

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data"

S24 = [
    {"role": "user", "content": "Galaxy S24 Ultra 有哪些颜色"},
    {"role": "assistant", "content": "Galaxy S24 Ultra 有钛黑、钛灰、钛紫和钛黄四种颜色。"},
]


def lookup(query: str, k: int) -> list[Hit]:
    """A deterministic retriever: which documents come back depends on what the query names."""
    if "S24" in query or "s24" in query:  # a specific query scores higher
        return [Hit(d, 2.0 / (i + 1)) for i, d in enumerate(["s24-warranty", "ipad-warranty"][:k])]
    elif "保修" in query:
        ids = ["ipad-warranty", "x1", "s24-warranty", "x2"]
    elif "退" in query:
        ids = ["surrender"]
    else:
        ids = []
    return [Hit(d, 1.0 / (i + 1)) for i, d in enumerate(ids[:k])]


def _cases() -> list[RAGCase]:
    return [
        # the pronoun loses the product: original rank 3, the rewrite finds it first
        RAGCase("c1", "它保修多久", ("s24-warranty",), tuple(S24), "coreference"),
        # complete query: all paths agree
        RAGCase("c2", "Galaxy S24 Ultra 保修多久", ("s24-warranty",), (), "zero_rewrite"),
        # no history: the right answer is to ask
        RAGCase("c3", "它保修多久", None, (), "ask_user"),
        # nothing retrievable at all
        RAGCase("c4", "今天天气不错", ("none",), (), "zero_rewrite"),
    ]


@pytest.fixture(scope="module")
def report(rewriter):  # type: ignore[no-untyped-def]
    return evaluate_rag(_cases(), lookup, rewriter, k=10)


def test_ranks_per_path(report, rewriter) -> None:  # type: ignore[no-untyped-def]
    by = {o.case.id: o for o in report.outcomes}
    c1 = by["c1"]
    assert c1.ranks["original"] == 3
    res = rewriter.rewrite("它保修多久", S24)
    st = [h.id for h in lookup(res.standalone, 10)]
    assert c1.ranks["standalone"] == st.index("s24-warranty") + 1
    resolved = any("S24" in q.text for q in res.queries)
    assert c1.ranks["merged"] == (1 if resolved else 3)
    assert by["c2"].ranks == {"original": 1, "standalone": 1, "merged": 1}
    assert by["c4"].ranks["original"] is None
    assert "standalone" not in by["c3"].ranks  # ask_user gold: not a retrieval case


def test_summary_metrics_follow_the_definitions(report) -> None:  # type: ignore[no-untyped-def]
    s = report.summary()
    assert s["cases"] == 4 and s["retrieval_cases"] == 3
    o = s["overall"]["original"]
    assert o["top1"] == pytest.approx(1 / 3, abs=1e-4)  # c2 only
    assert o["top3"] == pytest.approx(2 / 3, abs=1e-4)  # c1 at rank 3, c2
    assert o["mrr"] == pytest.approx((1 / 3 + 1) / 3, abs=1e-4)
    assert set(s["per_mode"]) == {"coreference", "zero_rewrite"}  # ask_user has no retrieval
    assert s["per_domain"][""]["original"]["n"] == 3
    assert s["per_mode"]["coreference"]["original"]["n"] == 1
    outs = {x.case.id: x for x in report.outcomes}
    m = s["overall"]["merged"]
    expect_top1 = sum(1 for x in outs.values() if x.ranks.get("merged") == 1) / 3
    assert m["top1"] == pytest.approx(expect_top1, abs=1e-4)
    assert s["ask_user"]["gold_ask"] == 1
    acc = sum(1 for x in report.outcomes if x.routed_ok) / 4
    assert s["ask_user"]["accuracy"] == pytest.approx(acc, abs=1e-4)
    assert s["lost_hits"]["top3"] == sum(
        1
        for x in report.retrieval_cases
        if (x.ranks["original"] or 99) <= 3 and (x.ranks["merged"] or 99) > 3
    )
    json.loads(report.to_json())  # serialisable


def test_worse_cases_are_listed() -> None:
    c = RAGCase("w", "q", ("a",), (), "ellipsis")
    better = CaseOutcome(c, "search", "q2", ("q", "q2"), ("ellipsis",), True)
    better.ranks = {"original": 3, "standalone": 1, "merged": 1}
    worse = CaseOutcome(c, "search", "q2", ("q", "q2"), ("ellipsis",), True)
    worse.ranks = {"original": 1, "standalone": None, "merged": 2}
    asked = CaseOutcome(c, "ask_user", "q", ("q",), (), False)
    asked.ranks = {"original": 2, "standalone": None, "merged": None}
    from rulerewrite.evaluation.rag import RAGReport

    r = RAGReport([better, worse, asked], {})
    assert r.worse_cases() == [worse, asked]
    s = r.summary()
    assert s["lost_hits"] == {"top1": 1, "top3": 1}  # worse lost its top-1; asked lost a top-3
    assert s["gained_hits"]["top1"] == 1
    assert s["ask_user"]["asked_on_retrieval_cases"] == 1
    page = render_html(r)
    assert page.count("data:image/png;base64,") == 4
    assert "Cases that got worse (2)" in page


def test_fidelity_checks(rewriter) -> None:  # type: ignore[no-untyped-def]
    fid = _Fidelity(rewriter.lexicon, ["Galaxy S24 Ultra", "iPad Air"])
    case = RAGCase(
        "f",
        "它2023年以后不保修吗",
        ("x",),
        tuple(S24),
        "coreference",
        constraints=("2023年以后",),
        negations=("不",),
    )

    def outcome(*rewrites: str) -> tuple[RewriteResult, CaseOutcome]:
        res = RewriteResult(
            case.query,
            rewrites[0],
            queries=(
                Query(case.query, "original"),
                *(Query(t, f"rewrite_{i}") for i, t in enumerate(rewrites, 1)),
            ),
            rewritten_queries=tuple(RewrittenQuery(t, ("coreference",)) for t in rewrites),
        )
        o = CaseOutcome(
            case, "search", res.standalone, tuple(q.text for q in res.queries), (), True
        )
        fid.check(case, res, o)
        return res, o

    _, good = outcome("Galaxy S24 Ultra 2023年以后不保修吗")
    assert good.negations_kept and good.constraints_kept and good.entities_kept
    assert good.noisy_queries == 0
    _, bad = outcome("iPad Air 2023年保修吗")
    assert bad.negations_kept is False and bad.constraints_kept is False
    assert bad.noisy_queries == 1 and bad.noise_terms == ("ipadair",)
    # a corrected typo (a homophone of a query span) is not noise; another name is
    fid2 = _Fidelity(rewriter.lexicon, ["租房提取公积金", "公积金提取"])
    typo = RAGCase("t", "租房提取公基金要多久", ("x",), (), "normalize")
    for rewrite, noisy in (("租房提取公积金要多久", 0), ("公积金提取要多久", 1)):
        res = RewriteResult(
            typo.query,
            typo.query,
            queries=(Query(typo.query, "original"), Query(rewrite, "rewrite_1")),
            rewritten_queries=(RewrittenQuery(rewrite, ("normalize",)),),
        )
        o = CaseOutcome(typo, "search", res.standalone, (typo.query, rewrite), (), True)
        fid2.check(typo, res, o)
        assert o.noisy_queries == noisy, rewrite
    # an entity from the history is not noise; a protected entity must survive
    case2 = RAGCase("g", "Galaxy S24 Ultra 保修多久", ("x",), (), "zero_rewrite")
    res = RewriteResult(
        case2.query,
        "保修多久",
        queries=(Query(case2.query, "original"), Query("保修多久", "rewrite_1")),
        rewritten_queries=(RewrittenQuery("保修多久", ("expand",)),),
    )
    o = CaseOutcome(case2, "search", res.standalone, ("a", "b"), (), True)
    fid.check(case2, res, o)
    assert o.entities_kept is False


@pytest.mark.parametrize(
    ("text", "code", "where"),
    [
        ('{"query": "x", "gold": ["a"]}\n{"query": \n', "RR621", ":2"),
        ('["x"]\n', "RR622", ":1"),
        ('{"query": "", "gold": ["a"]}\n', "RR622", ":1"),
        ('{"query": "x", "gold": []}\n', "RR622", ":1"),
        ('{"query": "x", "gold": "ask"}\n', "RR622", ":1"),  # a single id is fine; see below
        ('{"query": "x", "gold": ["a"], "history": "hi"}\n', "RR622", ":1"),
        ('{"query": "x", "gold": ["a"], "constraints": "3000元"}\n', "RR622", ":1"),
        (
            '{"id": "a", "query": "x", "gold": ["a"]}\n{"id": "a", "query": "y", "gold": ["b"]}\n',
            "RR622",
            ":2",
        ),
        ("\n", "RR622", ""),
    ],
)
def test_bad_case_files(tmp_path: Path, text: str, code: str, where: str) -> None:
    if '"gold": "ask"' in text:
        p = tmp_path / "ok.jsonl"
        p.write_text(text, encoding="utf-8")
        assert load_cases(p)[0].gold == ("ask",)
        return
    p = tmp_path / "cases.jsonl"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(QueryError) as ei:
        load_cases(p)
    assert code in str(ei.value) and f"cases.jsonl{where}" in str(ei.value)


def test_unreadable_case_file(tmp_path: Path) -> None:
    with pytest.raises(QueryError, match="RR620"):
        load_cases(tmp_path / "nope.jsonl")


# ---------------------------------------------------------------- CLI


def test_cli_eval_rag(tmp_path: Path) -> None:
    pytest.importorskip("bm25s")
    pytest.importorskip("matplotlib")
    from typer.testing import CliRunner

    from rulerewrite.cli import app

    kb = tmp_path / "kb.jsonl"
    kb.write_text(
        "\n".join(
            json.dumps(r, ensure_ascii=False)
            for r in [
                {
                    "id": "s24",
                    "title": "Galaxy S24 Ultra 的保修政策",
                    "text": "整机保修一年",
                    "entity": "Galaxy S24 Ultra",
                },
                {
                    "id": "ipad",
                    "title": "iPad Air 的保修政策",
                    "text": "整机保修一年",
                    "entity": "iPad Air",
                },
                {"id": "tb", "title": "退保流程", "text": "提交保单和身份证"},
            ]
        ),
        encoding="utf-8",
    )
    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        "\n".join(
            json.dumps(r, ensure_ascii=False)
            for r in [
                {
                    "id": "a",
                    "history": S24,
                    "query": "它保修多久",
                    "gold": ["s24"],
                    "mode": "coreference",
                },
                {"id": "b", "query": "保单怎么退", "gold": ["tb"], "mode": "expand"},
                {"id": "c", "query": "它保修多久", "gold": "ask_user", "mode": "ask_user"},
            ]
        ),
        encoding="utf-8",
    )
    js, ht = tmp_path / "s.json", tmp_path / "r.html"
    r = CliRunner().invoke(
        app, ["eval", "rag", str(cases), "--kb", str(kb), "--json", str(js), "--html", str(ht)]
    )
    assert r.exit_code == 0, r.output
    s = json.loads(js.read_text(encoding="utf-8"))
    assert s["cases"] == 3 and s["settings"]["kb_docs"] == 3
    assert s["overall"]["merged"]["top1"] >= s["overall"]["original"]["top1"]
    assert "data:image/png;base64," in ht.read_text(encoding="utf-8")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x"}\n', encoding="utf-8")
    r = CliRunner().invoke(app, ["eval", "rag", str(cases), "--kb", str(bad), "--json", str(js)])
    assert r.exit_code == 2 and "RR612" in r.output and "bad.jsonl:1" in r.output
    r = CliRunner().invoke(app, ["eval", "rag", str(cases), "--kb", str(kb), "--merge", "avg"])
    assert r.exit_code == 2
    # outputs into a folder that does not exist yet (reports/ in a fresh checkout): made
    deep = tmp_path / "reports" / "new"
    args = ["--json", str(deep / "s.json"), "--html", str(deep / "r.html")]
    r = CliRunner().invoke(app, ["eval", "rag", str(cases), "--kb", str(kb), *args])
    assert r.exit_code == 0, r.output
    assert (deep / "s.json").is_file() and (deep / "r.html").is_file()
    # an output path under a file cannot be written: a coded error naming it, no traceback
    r = CliRunner().invoke(
        app, ["eval", "rag", str(cases), "--kb", str(kb), "--json", str(js / "x.json")]
    )
    assert r.exit_code == 2 and "RR623" in r.output and "x.json" in r.output


# ---------------------------------------------------------------- the bundled data


def _rows(name: str) -> list[dict[str, object]]:
    return [
        json.loads(x) for x in (DATA / name).read_text(encoding="utf-8").splitlines() if x.strip()
    ]


def test_benchmark_data_shape() -> None:
    kb = _rows("rag_kb.jsonl")
    cases = _rows("rag_cases.jsonl")
    ids = [str(d["id"]) for d in kb]
    assert len(kb) >= 1000 and len(set(ids)) == len(ids)
    assert len(cases) >= 300
    domains = Counter(str(c["domain"]) for c in cases)
    assert len(domains) >= 5 and min(domains.values()) >= 40
    modes = Counter(str(c["mode"]) for c in cases)
    for m in (
        "rhetorical",
        "coreference",
        "multi_intent",
        "ellipsis",
        "comparison",
        "condition",
        "normalize",
        "expand",
        "zero_rewrite",
        "ask_user",
    ):
        assert modes[m] >= 15, m
    known = set(ids)
    for c in cases:
        assert c["gold"] == "ask_user" or set(c["gold"]) <= known, c["id"]  # type: ignore[arg-type]
    assert sum(1 for c in cases if c["history"]) >= 150  # multi-turn
    # short FAQ documents
    assert max(len(str(d["text"])) for d in kb) <= 200
    load_cases(DATA / "rag_cases.jsonl")  # the loader accepts every row


def test_generator_is_deterministic(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "make_rag_data.py"),
            str(tmp_path),
            str(tmp_path / "demo.jsonl"),
        ],
        check=True,
        capture_output=True,
    )
    for name in ("rag_kb.jsonl", "rag_cases.jsonl"):
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes(), name
    demo = ROOT / "rulerewrite" / "samples" / "kb.jsonl"
    assert (tmp_path / "demo.jsonl").read_bytes() == demo.read_bytes()
