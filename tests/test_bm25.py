"""The BM25 retriever: knowledge-base loading (with located errors), tokenisation, ranking."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

pytest.importorskip("bm25s")

from rulerewrite.bm25 import BM25Retriever, KBDoc, KnowledgeBaseError, load_kb
from rulerewrite.retrieval import MultiRetriever

DOCS = [
    KBDoc(
        "ins-1",
        "犹豫期内解除合同可退还全部已交保费。",
        "犹豫期内退保能否全额退款",
        {"category": "费用"},
    ),
    KBDoc(
        "ins-2",
        "办理退保需要保单合同、身份证和银行卡。",
        "退保流程和所需材料",
        {"category": "流程"},
    ),
    KBDoc("ins-3", "有现金价值的保单可申请保单借款。", "保单借款怎么办理", {"category": "流程"}),
    KBDoc("ec-1", "iPhone 15 Pro 整机保修一年。", "iPhone 15 Pro 的保修政策", {"category": "售后"}),
    KBDoc(
        "ec-2",
        "Galaxy S24 Ultra 整机保修一年。",
        "Galaxy S24 Ultra 的保修政策",
        {"category": "售后"},
    ),
    KBDoc("tech-1", "使用 kubectl logs 查看 Pod 日志。", "Kubernetes 如何查看 Pod 日志", {}),
]


@pytest.fixture(scope="module")
def bm25(rewriter):  # type: ignore[no-untyped-def]
    return BM25Retriever(DOCS, lexicon=rewriter.lexicon)


def test_ranks_the_matching_document_first(bm25: BM25Retriever) -> None:
    hits = bm25("犹豫期退保能全额退款吗", 3)
    assert hits[0].id == "ins-1"
    assert hits[0].metadata["title"] == "犹豫期内退保能否全额退款"
    assert hits[0].metadata["category"] == "费用"
    assert all(a.score >= b.score for a, b in itertools.pairwise(hits))


def test_dictionary_terms_are_single_tokens(bm25: BM25Retriever) -> None:
    # the same tokens whatever the casing and spacing: the automaton keeps the term whole
    assert "iphone15pro" in bm25.tokenize("iPhone 15 Pro 保修多久")
    assert "iphone15pro" in bm25.tokenize("iphone15pro保修多久")
    assert bm25("iphone15pro保修多久", 1)[0].id == "ec-1"
    assert bm25("Galaxy S24 Ultra 保修多久", 1)[0].id == "ec-2"


def test_traditional_and_full_width_queries_match(bm25: BM25Retriever) -> None:
    assert bm25("保單借款怎麼辦理？", 1)[0].id == "ins-3"
    assert bm25("ＫＵＢＥＲＮＥＴＥＳ 怎么看 pod 日志", 1)[0].id == "tech-1"


def test_no_overlap_no_hits_and_k(bm25: BM25Retriever) -> None:
    assert bm25("今天天气不错", 5) == []
    assert bm25("？？？", 5) == []
    assert len(bm25("保修", 1)) == 1
    assert bm25("保修", 0) == []
    with pytest.raises(TypeError, match="str"):
        bm25(123, 3)  # type: ignore[arg-type]


def test_filters_apply_only_when_asked(rewriter) -> None:  # type: ignore[no-untyped-def]
    plain = BM25Retriever(DOCS, lexicon=rewriter.lexicon)
    strict = BM25Retriever(DOCS, lexicon=rewriter.lexicon, apply_filters=True)
    f = {"category": "流程", "intent": "流程咨询", "conditions": [{"type": "x"}]}
    assert plain("退保全额退款", 3, filters=f)[0].id == "ins-1"
    ids = [h.id for h in strict("退保全额退款", 3, filters=f)]
    assert "ins-1" not in ids and ids[0] == "ins-2"
    # a key the documents lack does not filter anything out
    assert strict("退保全额退款", 3, filters={"tenant": "华东"})[0].id == "ins-1"
    assert [h.id for h in strict("保单", 3, filters={"category": ["费用", "流程"]})]


def test_works_as_a_multi_path_retriever(bm25: BM25Retriever, rewriter) -> None:  # type: ignore[no-untyped-def]
    res = rewriter.rewrite("保单怎么退")
    with MultiRetriever(bm25, k=3) as mr:
        rr = mr.retrieve(res)
    assert not rr.errors
    assert "ins-2" in rr.ids()


def test_custom_tokenizer() -> None:
    bm = BM25Retriever(DOCS, tokenizer=lambda s: list(s.replace(" ", "")))
    assert bm("借款", 1)[0].id == "ins-3"


# ---------------------------------------------------------------- loading


def _w(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_load_jsonl_and_csv(tmp_path: Path, rewriter) -> None:  # type: ignore[no-untyped-def]
    j = _w(
        tmp_path,
        "kb.jsonl",
        json.dumps(
            {"id": "a", "title": "退保流程", "text": "带身份证办理", "domain": "ins"},
            ensure_ascii=False,
        )
        + "\n\n"
        + json.dumps({"id": 2, "text": "保单借款", "metadata": {"x": 1}}, ensure_ascii=False)
        + "\n",
    )
    docs = load_kb(j)
    assert [d.id for d in docs] == ["a", "2"]
    assert docs[0].metadata == {"domain": "ins"} and docs[1].metadata == {"x": 1}
    c = _w(
        tmp_path,
        "kb.csv",
        'id,title,text,category\n1,退保流程,"带身份证, 银行卡",流程\n2,,保单借款,\n',
    )
    docs = load_kb(c)
    assert docs[0].text == "带身份证, 银行卡" and docs[0].metadata == {"category": "流程"}
    assert docs[1].title == "" and docs[1].metadata == {}
    bm = BM25Retriever.from_file(c, lexicon=rewriter.lexicon)
    assert len(bm) == 2 and bm("保单借款", 1)[0].id == "2"


@pytest.mark.parametrize(
    ("name", "text", "where", "code"),
    [
        ("kb.jsonl", '{"id": "a", "text": "x"}\n{"id": "b", "text": \n', "kb.jsonl:2:", "RR611"),
        ("kb.jsonl", '{"id": "a", "text": "x"}\n["b"]\n', "kb.jsonl:2", "RR612"),
        ("kb.jsonl", '{"id": "a"}\n', "kb.jsonl:1", "RR612"),
        ("kb.jsonl", '{"id": "a", "text": "  "}\n', "kb.jsonl:1", "RR612"),
        ("kb.jsonl", '{"id": true, "text": "x"}\n', "kb.jsonl:1", "RR612"),
        ("kb.jsonl", '{"id": "a", "text": ["x"]}\n', "kb.jsonl:1", "RR612"),
        ("kb.jsonl", '{"id": "a", "text": "x", "metadata": [1]}\n', "kb.jsonl:1", "RR612"),
        (
            "kb.jsonl",
            '{"id": "a", "text": "x"}\n\n{"id": "a", "text": "y"}\n',
            "kb.jsonl:3",
            "RR613",
        ),
        ("kb.jsonl", "\n\n", "kb.jsonl:1", "RR614"),
        ("kb.csv", "id,body\n1,x\n", "kb.csv:1", "RR612"),
        ("kb.csv", "id,text\n1,x\n2,y,extra\n", "kb.csv:3", "RR612"),
        ("kb.csv", "id,text\n1,x\n1,y\n", "kb.csv:3", "RR613"),
        ("kb.txt", "x", "kb.txt:1", "RR615"),
    ],
)
def test_bad_rows_are_located(tmp_path: Path, name: str, text: str, where: str, code: str) -> None:
    p = _w(tmp_path, name, text)
    with pytest.raises(KnowledgeBaseError) as ei:
        load_kb(p)
    msg = str(ei.value)
    assert code in msg and where in msg, msg


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(KnowledgeBaseError, match="RR610"):
        load_kb(tmp_path / "missing.jsonl")
    p = tmp_path / "latin1.jsonl"
    p.write_bytes('{"id": "a", "text": "caf\xe9"}\n'.encode("latin-1"))
    with pytest.raises(KnowledgeBaseError, match="RR610"):
        load_kb(p)


def test_empty_or_duplicate_docs_in_memory() -> None:
    with pytest.raises(KnowledgeBaseError, match="RR614"):
        BM25Retriever([], tokenizer=list)
    with pytest.raises(KnowledgeBaseError, match="RR613"):
        BM25Retriever([KBDoc("a", "x"), KBDoc("a", "y")], tokenizer=list)


# ---------------------------------------------------------------- the bundled demo KB


def test_bundled_kb_and_retrieval_demo(rewriter) -> None:  # type: ignore[no-untyped-def]
    from importlib import resources

    from rich.console import Console

    from rulerewrite.report import load_samples, run_retrieval_demo

    with resources.as_file(resources.files("rulerewrite") / "samples/kb.jsonl") as p:
        docs = load_kb(p)
    assert 100 <= len(docs) <= 400
    con = Console(record=True, width=220)
    run_retrieval_demo(con, rewriter)
    out = con.export_text()
    assert "retrieval before / after rewriting" in out
    assert f"BM25 over {len(docs)} bundled FAQ documents" in out
    for s in load_samples():
        assert s["query"].rstrip("？?")[:8] in out
    assert "routed to the user instead of retrieving" in out
