"""The LangChain adapter, against a real in-memory LangChain vector store (no mocks)."""

from __future__ import annotations

import math
import zlib

import pytest

pytest.importorskip("langchain_core")

from langchain_core.chat_history import InMemoryChatMessageHistory
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.retrievers import BaseRetriever
from langchain_core.vectorstores import InMemoryVectorStore

from rulerewrite.integrations.langchain import (
    AskUserError,
    RewritingRetriever,
    messages_to_history,
)


class CharBigramEmbeddings(Embeddings):
    """A small real embedding: hashed character unigrams and bigrams, L2-normalised."""

    dim = 512

    def _vec(self, text: str) -> list[float]:
        t = text.lower().replace(" ", "")
        v = [0.0] * self.dim
        for g in [*t, *(t[i : i + 2] for i in range(len(t) - 1))]:
            v[zlib.crc32(g.encode()) % self.dim] += 1.0
        n = math.sqrt(sum(x * x for x in v)) or 1.0
        return [x / n for x in v]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vec(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vec(text)


TEXTS = {
    "qdrant-deploy": "Qdrant 支持私有部署，可运行在内网服务器。",
    "milvus-deploy": "Milvus 支持私有部署吗？支持，需要 etcd 和 MinIO。",
    "redis-deploy": "Redis 支持私有部署，推荐主从加哨兵。",
    "qdrant-port": "Qdrant 默认端口是 6333。",
    "s24-warranty": "Galaxy S24 Ultra 整机保修一年。",
    "ipad-warranty": "iPad Air 整机保修一年，电池保修六个月。",
    "surrender": "退保流程：提交保单合同、身份证和银行卡。",
}


@pytest.fixture(scope="module")
def base() -> BaseRetriever:
    store = InMemoryVectorStore(CharBigramEmbeddings())
    store.add_documents(
        [Document(page_content=t, metadata={"key": k}) for k, t in TEXTS.items()],
        ids=list(TEXTS),
    )
    return store.as_retriever(search_kwargs={"k": 3})


@pytest.fixture(scope="module")
def rr(base: BaseRetriever, rewriter) -> RewritingRetriever:  # type: ignore[no-untyped-def]
    return RewritingRetriever(retriever=base, rewriter=rewriter, k=3)


QDRANT = [HumanMessage("Qdrant 是什么"), AIMessage("Qdrant 是一个开源的向量数据库。")]


def test_messages_to_history_reads_langchain_messages() -> None:
    h = messages_to_history(
        [SystemMessage("你是客服"), *QDRANT, ("human", "好的"), {"role": "user", "content": "嗯"}]
    )
    assert [m["role"] for m in h] == ["system", "user", "assistant", "user", "user"]
    assert h[1]["content"] == "Qdrant 是什么"
    mem = InMemoryChatMessageHistory(messages=list(QDRANT))
    assert messages_to_history(mem) == h[1:3]
    assert messages_to_history(None) == []
    with pytest.raises(TypeError, match="chat_history"):
        messages_to_history("Qdrant 是什么")


def test_is_a_langchain_retriever(rr: RewritingRetriever) -> None:
    assert isinstance(rr, BaseRetriever)
    docs = rr.invoke("Qdrant 默认端口是多少")
    assert docs[0].id == "qdrant-port"
    info = docs[0].metadata["rulerewrite"]
    assert info["decision"] == "search" and info["queries"][0] == "Qdrant 默认端口是多少"
    assert docs[0].metadata["key"] == "qdrant-port"  # the wrapped retriever's metadata is kept


def _without_history(base: BaseRetriever, q: str) -> list[str]:
    return [d.id or "" for d in base.invoke(q)]


def test_history_from_invoke_keyword(rr: RewritingRetriever, base: BaseRetriever) -> None:
    q = "它支持私有部署吗"
    # without the history the pronoun retrieves any deployment page
    assert _without_history(base, q)[0] != "qdrant-deploy"
    docs = rr.invoke(q, chat_history=QDRANT)
    info = docs[0].metadata["rulerewrite"]
    assert info["queries"][0] == q  # the original is always a path
    assert any("Qdrant" in x for x in info["queries"][1:])
    assert docs[0].id == "qdrant-deploy"
    assert docs[0].metadata["rulerewrite"]["query_source"] != "original"


def test_history_from_input_mapping_and_from_memory(
    rr: RewritingRetriever, base: BaseRetriever
) -> None:
    q = "它支持私有部署吗"
    a = rr.invoke({"input": q, "chat_history": QDRANT})  # type: ignore[arg-type]
    mem = InMemoryChatMessageHistory(messages=list(QDRANT))
    rr_mem = RewritingRetriever(retriever=base, rewriter=rr.rewriter, k=3, chat_history=mem)
    b = rr_mem.invoke(q)
    c = rr.invoke(q, chat_history=QDRANT)
    assert [d.id for d in a] == [d.id for d in b] == [d.id for d in c]
    assert a[0].metadata["rulerewrite"]["queries"] == c[0].metadata["rulerewrite"]["queries"]


def test_merged_documents_carry_their_sources(rr: RewritingRetriever) -> None:
    docs = rr.invoke("保单怎么退")
    info = docs[0].metadata["rulerewrite"]
    assert len(info["queries"]) >= 2  # the rewriter added at least one path
    for d in docs:
        meta = d.metadata["rulerewrite"]
        assert meta["query_source"] in meta["sources"]
        assert meta["score"] > 0
    assert len({d.id for d in docs}) == len(docs) <= 3
    assert "surrender" in [d.id for d in docs]


def test_ask_user_returns_the_question(rr: RewritingRetriever, base: BaseRetriever) -> None:
    q = "它保修多久？"
    res = rr.rewriter.rewrite(q)
    assert res.decision == "ask_user"
    docs = rr.invoke(q)
    assert len(docs) == 1 and docs[0].metadata["rulerewrite"]["decision"] == "ask_user"
    assert docs[0].page_content == res.clarification
    empty = RewritingRetriever(retriever=base, rewriter=rr.rewriter, on_ask_user="empty")
    assert empty.invoke(q) == []
    strict = RewritingRetriever(retriever=base, rewriter=rr.rewriter, on_ask_user="raise")
    with pytest.raises(AskUserError) as ei:
        strict.invoke(q)
    assert ei.value.clarification == res.clarification


async def _ainvoke(rr: RewritingRetriever, q: str) -> list[Document]:
    return await rr.ainvoke(q)


def test_async_invoke(rr: RewritingRetriever) -> None:
    import asyncio

    docs = asyncio.run(_ainvoke(rr, "Qdrant 默认端口是多少"))
    assert docs[0].id == "qdrant-port"


def test_options_are_validated(base: BaseRetriever, rewriter) -> None:  # type: ignore[no-untyped-def]
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        RewritingRetriever(retriever=base, rewriter=rewriter, on_ask_user="ignore")
    with pytest.raises(ValidationError):
        RewritingRetriever(retriever=base, rewriter=rewriter, merge="mean")


class OnlyNamedQueries(BaseRetriever):
    """A retriever that fails on queries naming no product (a backend rejecting them), or, with
    ``invert``, on queries naming Qdrant."""

    inner: BaseRetriever
    invert: bool = False

    def _get_relevant_documents(self, query: str, *, run_manager) -> list[Document]:  # type: ignore[no-untyped-def,override]
        if ("Qdrant" in query) == self.invert:
            raise ValueError(f"rejected: {query}")
        return self.inner.invoke(query)


def test_failing_paths(base: BaseRetriever, rewriter) -> None:  # type: ignore[no-untyped-def]
    from rulerewrite.retrieval import RetrievalError

    flaky = OnlyNamedQueries(inner=base)
    rr = RewritingRetriever(retriever=flaky, rewriter=rewriter, k=3)
    # the original names Qdrant, so only failing rewrite paths (if any) are reported
    ok = rr.invoke("Qdrant 默认端口是多少")
    assert ok[0].id == "qdrant-port"
    # the original query fails: the error is raised, not hidden
    with pytest.raises(RetrievalError, match="RR603"):
        rr.invoke("它支持私有部署吗", chat_history=QDRANT)
    # a rewrite path fails: the original's documents come back and the error is listed
    inv = RewritingRetriever(retriever=OnlyNamedQueries(inner=base, invert=True), rewriter=rewriter)
    docs = inv.invoke("它支持私有部署吗", chat_history=QDRANT)
    assert docs and all(d.metadata["rulerewrite"]["sources"] == ["original"] for d in docs)
    assert any("RR603" in e for e in docs[0].metadata["rulerewrite"]["errors"])
