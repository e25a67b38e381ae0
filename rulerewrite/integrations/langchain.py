"""LangChain adapter: a ``BaseRetriever`` that rewrites the query, then retrieves multi-path.

What: :class:`RewritingRetriever` wraps any LangChain retriever (anything with
``invoke(str) -> list[Document]``) with a :class:`~rulerewrite.Rewriter`. Each call rewrites the
query against the chat history, sends every query of the result (the original first) to the
wrapped retriever in parallel, and merges the documents (reciprocal rank fusion by default, since
LangChain retrievers return ranks, not comparable scores). Each returned document's metadata
gains a ``rulerewrite`` entry: ``query_source``, ``sources``, ``score`` and the ``queries`` sent.

Why: LangChain's own history-aware retrievers need an LLM call to condense the question; this one
does it with rules, in well under a millisecond, and keeps the user's original query as a path.

The chat history is read the LangChain way, as messages (``HumanMessage`` / ``AIMessage`` /
``SystemMessage``, ``("human", "...")`` tuples or ``{"role", "content"}`` dicts), from, in order
of precedence: the ``chat_history`` keyword of ``invoke``; an input mapping
``{"input": ..., "chat_history": [...]}`` (the convention of LangChain chains); or the
``chat_history`` field (a list of messages or a ``BaseChatMessageHistory``, e.g.
``InMemoryChatMessageHistory``, read at every call).

When the rewriter decides to ask the user, nothing is retrieved; by default a single document
carrying the clarification question is returned (metadata ``rulerewrite.decision ==
"ask_user"``); ``on_ask_user="empty"`` returns ``[]`` and ``"raise"`` raises
:class:`AskUserError`.

Example:
    >>> from langchain_core.messages import AIMessage, HumanMessage
    >>> rr = RewritingRetriever(retriever=my_retriever, rewriter=Rewriter())  # doctest: +SKIP
    >>> rr.invoke("它支持私有部署吗", chat_history=[HumanMessage("Qdrant 是什么"),
    ...     AIMessage("Qdrant 是一个开源的向量数据库。")])  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any, Literal

try:
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.chat_history import BaseChatMessageHistory
    from langchain_core.documents import Document
    from langchain_core.messages import BaseMessage, convert_to_messages
    from langchain_core.retrievers import BaseRetriever
except ImportError as e:  # pragma: no cover - depends on the install
    raise ImportError(
        "rulerewrite.integrations.langchain needs langchain-core: "
        "pip install 'rulerewrite[langchain]'"
    ) from e

from rulerewrite.errors import RuleRewriteError
from rulerewrite.retrieval import Hit, MultiRetriever, RetrievalError

__all__ = ["AskUserError", "RewritingRetriever", "messages_to_history"]

_ROLES = {"human": "user", "ai": "assistant", "system": "system"}


class AskUserError(RuleRewriteError):
    """Raised (with ``on_ask_user="raise"``) when the query needs a clarification first."""

    def __init__(self, clarification: str, missing_fields: Sequence[str]) -> None:
        self.clarification = clarification
        self.missing_fields = tuple(missing_fields)
        super().__init__(clarification)


def _text(m: BaseMessage) -> str:
    if isinstance(m.content, str):
        return m.content
    t: Any = m.text  # a property in langchain-core 1.x, a method in 0.3
    return str(t() if callable(t) and not isinstance(t, str) else t)


def messages_to_history(messages: Any) -> list[dict[str, str]]:
    """LangChain messages (or a ``BaseChatMessageHistory``) → ``[{"role", "content"}]``.

    Tool and function messages are skipped (they are not dialogue turns).

    Example:
        >>> from langchain_core.messages import AIMessage, HumanMessage
        >>> messages_to_history([HumanMessage("你好"), AIMessage("您好")])
        [{'role': 'user', 'content': '你好'}, {'role': 'assistant', 'content': '您好'}]
    """
    if messages is None:
        return []
    if isinstance(messages, BaseChatMessageHistory):
        messages = messages.messages
    if isinstance(messages, (str, bytes)) or not isinstance(messages, Sequence):
        raise TypeError(
            "chat_history must be a list of messages or a BaseChatMessageHistory, "
            f"got {type(messages).__name__}"
        )
    out: list[dict[str, str]] = []
    for m in convert_to_messages(list(messages)):
        role = _ROLES.get(m.type)
        if role is not None:
            out.append({"role": role, "content": _text(m)})
    return out


def _doc_id(doc: Document) -> str:
    if doc.id:
        return str(doc.id)
    meta_id = doc.metadata.get("id")
    if meta_id is not None:
        return str(meta_id)
    return "sha1:" + hashlib.sha1(doc.page_content.encode("utf-8")).hexdigest()[:16]


class RewritingRetriever(BaseRetriever):
    """Rewrite with rules, retrieve with every query, merge. See the module docstring.

    Fields: ``retriever`` (the wrapped LangChain retriever), ``rewriter`` (a
    :class:`~rulerewrite.Rewriter`), ``k`` (documents returned, default 4), ``merge``
    (``rrf`` | ``max`` | ``weighted``; default ``rrf``), ``rrf_k`` (60), ``timeout`` (seconds per
    call of the wrapped retriever, 10; a failed or late rewrite path is dropped and listed in
    ``rulerewrite.errors``, a failed original path raises :class:`RetrievalError`),
    ``chat_history`` (messages or a chat-message history),
    ``on_ask_user`` (``document`` | ``empty`` | ``raise``).
    """

    retriever: Any
    rewriter: Any
    k: int = 4
    merge: Literal["rrf", "max", "weighted"] = "rrf"
    rrf_k: int = 60
    timeout: float = 10.0
    chat_history: Any = None
    on_ask_user: Literal["document", "empty", "raise"] = "document"

    def _history(self, explicit: Any) -> list[dict[str, str]]:
        return messages_to_history(explicit if explicit is not None else self.chat_history)

    def _get_relevant_documents(
        self,
        query: Any,
        *,
        run_manager: CallbackManagerForRetrieverRun,
        chat_history: Any = None,
    ) -> list[Document]:
        if isinstance(query, Mapping):
            text = query.get("input", query.get("question", query.get("query")))
            if chat_history is None:
                chat_history = query.get("chat_history")
            query = text
        if not isinstance(query, str):
            raise TypeError(f"query must be a str, got {type(query).__name__}")
        result = self.rewriter.rewrite(query, self._history(chat_history))
        info: dict[str, Any] = {
            "decision": result.decision,
            "queries": [q.text for q in result.queries],
            "modes": list(result.modes),
        }
        if result.decision == "ask_user":
            if self.on_ask_user == "raise":
                raise AskUserError(result.clarification or "", result.missing_fields)
            if self.on_ask_user == "empty":
                return []
            info.update(missing_fields=list(result.missing_fields))
            return [
                Document(page_content=result.clarification or "", metadata={"rulerewrite": info})
            ]

        callbacks = run_manager.get_child()
        docs_by_id: dict[str, Document] = {}

        def call(q: str, k: int) -> list[Hit]:
            docs = self.retriever.invoke(q, config={"callbacks": callbacks})
            hits = []
            for rank, d in enumerate(docs[:k], 1):
                did = _doc_id(d)
                docs_by_id.setdefault(did, d)
                hits.append(Hit(did, 1.0 / rank, d.page_content))
            return hits

        with MultiRetriever(
            call,
            k=self.k,
            merge=self.merge,
            rrf_k=self.rrf_k,
            timeout=self.timeout,
            pass_filters=False,
        ) as mr:
            merged = mr.retrieve(result)
        if "original" in merged.errors:  # the user's own query failed: do not hide it
            raise RetrievalError(merged.errors["original"])
        if merged.errors:
            info["errors"] = list(merged.errors.values())
        out: list[Document] = []
        for h in merged.hits:
            d = docs_by_id[h.id]
            meta = {
                **d.metadata,
                "rulerewrite": {
                    **info,
                    "query_source": h.query_source,
                    "sources": list(h.sources),
                    "score": h.score,
                },
            }
            out.append(Document(page_content=d.page_content, metadata=meta, id=d.id))
        return out
