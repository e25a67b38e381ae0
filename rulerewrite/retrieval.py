"""Multi-path retrieval: run a retriever for every query of a rewrite and merge the hits.

What: :class:`MultiRetriever` sends each query of a :class:`~rulerewrite.RewriteResult` (the
original always first) to a retriever in a thread pool, with a per-call timeout, and merges the
hit lists by document id: keeping the best score (``"max"``, the default), by reciprocal rank
fusion (``"rrf"``, ``rrf_k`` default 60) or by a weighted sum of min-max normalised scores
(``"weighted"``). Every merged hit keeps ``query_source`` (the query that gave it its best
contribution) and every source that found it. Ties keep first-seen order (original first, then by
rank), so results are deterministic.

Why: a rewrite is a second opinion, not a replacement. Querying with the original *and* the
rewrites keeps whatever the user's own words find and adds what the completed query finds.

The retriever contract is a plain callable ``retriever(query, k, filters=None) -> list[Hit]``
(a hit may also be a mapping with ``id``, ``score``, ``text``, ``metadata``). When the callable
has a ``filters`` parameter (or ``**kwargs``), the result's ``conditions`` and intent
``filter_hints`` are passed as ``filters``; otherwise it is called as ``retriever(query, k)``.
An ``ask_user`` result does not retrieve: the caller gets the clarification.

Example:
    >>> def kb(query, k, filters=None):
    ...     docs = {"d1": "退保流程", "d2": "保单借款"}
    ...     return [Hit(i, float(len(set(query) & set(t))), t) for i, t in docs.items()][:k]
    >>> from rulerewrite.result import Query, RewriteResult
    >>> res = RewriteResult("保单怎么退", "保单怎么退",
    ...     queries=(Query("保单怎么退", "original"), Query("退保流程", "rewrite_1")))
    >>> with MultiRetriever(kb, k=2) as mr:
    ...     [(h.id, h.query_source, h.sources) for h in mr.retrieve(res).hits]
    [('d1', 'rewrite_1', ('original', 'rewrite_1')), ('d2', 'original', ('original', 'rewrite_1'))]
"""

from __future__ import annotations

import inspect
import logging
import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any, Literal

from rulerewrite.errors import RuleRewriteError
from rulerewrite.result import Query, RewriteResult

__all__ = [
    "Hit",
    "MergedHit",
    "MultiRetriever",
    "RetrievalError",
    "RetrievalResult",
    "RetrievalUpdate",
    "Retriever",
    "accepts_filters",
    "build_filters",
    "merge_hits",
    "multi_retrieve",
]

log = logging.getLogger(__name__)

MergeMethod = Literal["max", "rrf", "weighted"]
MERGE_METHODS: tuple[str, ...] = ("max", "rrf", "weighted")


class RetrievalError(RuleRewriteError, ValueError):
    """A retriever misbehaved (bad hits, failure, timeout) or an option is invalid (RR6xx)."""


@dataclass(frozen=True, slots=True)
class Hit:
    """One document a retriever returned: its id, score (higher is better), text, metadata."""

    id: str
    score: float
    text: str = ""
    metadata: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class MergedHit:
    """A document after merging: the merged ``score``, ``query_source`` (the source of its best
    contribution), every source that found it (query order) and its rank/score per source."""

    id: str
    score: float
    text: str
    metadata: Mapping[str, Any]
    query_source: str
    sources: tuple[str, ...]
    ranks: Mapping[str, int]  # source -> 1-based rank in that source's list
    source_scores: Mapping[str, float]  # source -> the retriever's raw score

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "score": self.score,
            "text": self.text,
            "metadata": dict(self.metadata),
            "query_source": self.query_source,
            "sources": list(self.sources),
            "ranks": dict(self.ranks),
            "source_scores": dict(self.source_scores),
        }


@dataclass(frozen=True, slots=True)
class RetrievalResult:
    """What multi-path retrieval returns.

    ``decision == "ask_user"``: nothing was retrieved; show ``clarification`` to the user.
    ``per_query`` holds each source's own hit list; ``errors`` the sources that failed or timed
    out (``source -> "[RR6xx] ..."``) — their hits are simply missing from the merge.
    """

    decision: str
    clarification: str | None
    queries: tuple[Query, ...]
    hits: tuple[MergedHit, ...]
    per_query: Mapping[str, tuple[Hit, ...]]
    errors: Mapping[str, str]
    result: RewriteResult

    def ids(self) -> list[str]:
        return [h.id for h in self.hits]


@dataclass(frozen=True, slots=True)
class RetrievalUpdate:
    """One step of :meth:`MultiRetriever.stream`: ``stage`` is ``"original"`` (the user's own
    query, available first) or ``"merged"`` (all paths merged; the last update)."""

    stage: str
    hits: tuple[MergedHit, ...]
    result: RetrievalResult | None = None


Retriever = Callable[..., Sequence[Any]]


def accepts_filters(retriever: Callable[..., Any]) -> bool:
    """True when ``retriever`` takes a ``filters`` argument (or ``**kwargs``)."""
    try:
        params = inspect.signature(retriever).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "filters" or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


def build_filters(result: RewriteResult) -> dict[str, Any] | None:
    """The ``filters`` a filter-aware retriever gets: the intent's filter hints as plain keys,
    plus ``conditions`` (``[{type, text, value}]``) and ``intent``; None when there is nothing."""
    out: dict[str, Any] = dict(result.filter_hints)
    if result.conditions:
        out["conditions"] = [
            {"type": c.type, "text": c.text, "value": c.value} for c in result.conditions
        ]
    if not out:
        return None
    out.setdefault("intent", result.intent)
    return out


def _as_hit(obj: Any, where: str) -> Hit:
    if isinstance(obj, Hit):
        return obj
    if isinstance(obj, Mapping):
        if "id" not in obj:
            raise RetrievalError(f"[RR601] {where}: hit has no 'id': {dict(obj)!r:.120}")
        try:
            score = float(obj.get("score", 0.0))
        except (TypeError, ValueError):
            raise RetrievalError(
                f"[RR601] {where}: hit {obj['id']!r} has a non-numeric score {obj.get('score')!r}"
            ) from None
        meta = obj.get("metadata") or {}
        if not isinstance(meta, Mapping):
            raise RetrievalError(f"[RR601] {where}: hit {obj['id']!r} metadata is not a mapping")
        return Hit(str(obj["id"]), score, str(obj.get("text") or ""), meta)
    raise RetrievalError(
        f"[RR601] {where}: expected a Hit or a mapping with id/score/text/metadata, "
        f"got {type(obj).__name__}"
    )


def _check_hits(raw: Any, where: str) -> tuple[Hit, ...]:
    if raw is None or isinstance(raw, (str, bytes, Mapping)) or not isinstance(raw, Sequence):
        raise RetrievalError(
            f"[RR601] {where}: retriever must return a list of hits, got {type(raw).__name__}"
        )
    hits = tuple(_as_hit(h, f"{where} hit {i}") for i, h in enumerate(raw))
    for h in hits:
        if math.isnan(h.score):
            raise RetrievalError(f"[RR601] {where}: hit {h.id!r} has a NaN score")
    return hits


def merge_hits(
    lists: Sequence[tuple[str, Sequence[Hit]]],
    *,
    method: str = "max",
    rrf_k: int = 60,
    weights: Mapping[str, float] | None = None,
    k: int | None = None,
) -> tuple[MergedHit, ...]:
    """Merge per-source hit lists (in query order) by document id.

    - ``max``: the best raw score over sources.
    - ``rrf``: ``sum(1 / (rrf_k + rank))`` over the sources that found the document.
    - ``weighted``: ``sum(w_source * norm_score)``, scores min-max normalised per source to
      ``[0, 1]`` (a list whose scores are all equal normalises to 1). ``weights`` maps a source
      name (``original``, ``rewrite_2``) or a kind (``rewrite``) to a weight; default 1.

    A document's ``query_source`` is the source of its largest contribution; ties everywhere go
    to the first-seen (earlier source, then better rank), so the output is deterministic.
    Within one source a repeated id keeps its first (best-ranked) occurrence.

    Example:
        >>> a = [Hit("x", 2.0), Hit("y", 1.0)]; b = [Hit("y", 5.0)]
        >>> [(h.id, h.score, h.query_source) for h in merge_hits([("original", a), ("rewrite_1", b)])]
        [('y', 5.0, 'rewrite_1'), ('x', 2.0, 'original')]
    """
    if method not in MERGE_METHODS:
        raise RetrievalError(f"[RR604] merge must be one of {list(MERGE_METHODS)}, got {method!r}")
    if not isinstance(rrf_k, int) or isinstance(rrf_k, bool) or rrf_k < 0:
        raise RetrievalError(f"[RR604] rrf_k must be a non-negative integer, got {rrf_k!r}")
    weights = dict(weights or {})
    order: dict[str, int] = {}  # doc id -> first-seen position
    first: dict[str, Hit] = {}
    ranks: dict[str, dict[str, int]] = {}
    raw: dict[str, dict[str, float]] = {}
    contrib: dict[str, dict[str, float]] = {}
    for source, hits in lists:
        seen_here: set[str] = set()
        scores = [h.score for h in hits]
        lo, hi = (min(scores), max(scores)) if scores else (0.0, 0.0)
        w = weights.get(source, weights.get(source.rstrip("0123456789").rstrip("_"), 1.0))
        for rank, h in enumerate(hits, 1):
            if h.id in seen_here:
                continue
            seen_here.add(h.id)
            if h.id not in order:
                order[h.id] = len(order)
                first[h.id] = h
                ranks[h.id], raw[h.id], contrib[h.id] = {}, {}, {}
            ranks[h.id][source] = rank
            raw[h.id][source] = h.score
            if method == "max":
                c = h.score
            elif method == "rrf":
                c = 1.0 / (rrf_k + rank)
            else:
                c = w * ((h.score - lo) / (hi - lo) if hi > lo else 1.0)
            contrib[h.id][source] = c
    merged: list[MergedHit] = []
    for doc_id in order:  # dicts keep insertion (first-seen) order
        cs = contrib[doc_id]
        score = max(cs.values()) if method == "max" else sum(cs.values())
        best = max(cs, key=lambda s: (cs[s], -list(cs).index(s)))
        h = first[doc_id]
        merged.append(
            MergedHit(
                id=doc_id,
                score=score,
                text=h.text,
                metadata=h.metadata,
                query_source=best,
                sources=tuple(cs),
                ranks=dict(ranks[doc_id]),
                source_scores=dict(raw[doc_id]),
            )
        )
    merged.sort(key=lambda m: -m.score)  # stable: ties keep first-seen order
    return tuple(merged[:k] if k is not None else merged)


class MultiRetriever:
    """Run ``retriever`` for every query of a rewrite result and merge the hits.

    Keyword-only options: ``k`` (merged hits returned, default 10), ``per_query_k`` (hits asked
    of each query, default ``k``), ``merge`` (``max`` | ``rrf`` | ``weighted``), ``rrf_k``
    (default 60), ``weights`` (for ``weighted``), ``timeout`` (seconds per call, default 5.0,
    counted from submission; a call that takes longer is dropped and reported in ``errors``),
    ``max_workers`` (thread pool size, default 8; keep it at least the number of queries a result
    can carry, or queued calls spend part of their timeout waiting), ``pass_filters`` (None = auto-detect from the retriever's signature),
    ``strict`` (raise :class:`RetrievalError` instead of recording a failed call).

    Use it as a context manager (or call :meth:`close`) to shut the pool down.
    """

    def __init__(
        self,
        retriever: Retriever,
        *,
        k: int = 10,
        per_query_k: int | None = None,
        merge: str = "max",
        rrf_k: int = 60,
        weights: Mapping[str, float] | None = None,
        timeout: float = 5.0,
        max_workers: int = 8,
        pass_filters: bool | None = None,
        strict: bool = False,
    ) -> None:
        if not callable(retriever):
            raise TypeError(f"retriever must be callable, got {type(retriever).__name__}")
        for name, v in (("k", k), ("max_workers", max_workers)):
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise RetrievalError(f"[RR604] {name} must be a positive integer, got {v!r}")
        if per_query_k is not None and (not isinstance(per_query_k, int) or per_query_k < 1):
            raise RetrievalError(
                f"[RR604] per_query_k must be a positive integer, got {per_query_k!r}"
            )
        if not isinstance(timeout, (int, float)) or timeout <= 0:
            raise RetrievalError(f"[RR604] timeout must be a positive number, got {timeout!r}")
        merge_hits([], method=merge, rrf_k=rrf_k)  # validates merge and rrf_k
        self.retriever = retriever
        self.k = k
        self.per_query_k = per_query_k or k
        self.merge = merge
        self.rrf_k = rrf_k
        self.weights = dict(weights or {})
        self.timeout = float(timeout)
        self.max_workers = max_workers
        self.pass_filters = accepts_filters(retriever) if pass_filters is None else pass_filters
        self.strict = strict
        self._pool: ThreadPoolExecutor | None = None

    # -- lifecycle --------------------------------------------------------------------------

    def __enter__(self) -> MultiRetriever:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def _executor(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(
                max_workers=self.max_workers, thread_name_prefix="rulerewrite-retrieve"
            )
        return self._pool

    # -- one call -----------------------------------------------------------------------------

    def _call(self, q: Query, filters: dict[str, Any] | None) -> tuple[Hit, ...]:
        where = f"retriever({q.source}: {q.text!r:.40})"
        if self.pass_filters:
            raw = self.retriever(q.text, self.per_query_k, filters=filters)
        else:
            raw = self.retriever(q.text, self.per_query_k)
        return _check_hits(raw, where)

    def _submit(self, result: RewriteResult) -> list[tuple[Query, Future[tuple[Hit, ...]], float]]:
        filters = build_filters(result)
        pool = self._executor()
        queries = result.queries or (Query(result.original_query, "original"),)
        return [(q, pool.submit(self._call, q, filters), time.monotonic()) for q in queries]

    def _collect(
        self, q: Query, fut: Future[tuple[Hit, ...]], started: float, errors: dict[str, str]
    ) -> tuple[Hit, ...]:
        remaining = max(self.timeout - (time.monotonic() - started), 0.0)
        try:
            return fut.result(timeout=remaining)
        except FutureTimeout:
            fut.cancel()
            msg = f"[RR602] {q.source} ({q.text!r:.40}): no answer within {self.timeout:g} s"
        except RetrievalError as e:
            msg = str(e)
        except Exception as e:  # the retriever's own failure: recorded, not fatal
            msg = f"[RR603] {q.source} ({q.text!r:.40}): retriever raised {type(e).__name__}: {e}"
        if self.strict:
            raise RetrievalError(msg)
        log.warning("%s", msg)
        errors[q.source] = msg
        return ()

    def _ask(self, result: RewriteResult) -> RetrievalResult:
        return RetrievalResult("ask_user", result.clarification, result.queries, (), {}, {}, result)

    def _final(
        self,
        result: RewriteResult,
        per: dict[str, tuple[Hit, ...]],
        errors: dict[str, str],
    ) -> RetrievalResult:
        hits = merge_hits(
            list(per.items()),
            method=self.merge,
            rrf_k=self.rrf_k,
            weights=self.weights,
            k=self.k,
        )
        return RetrievalResult(
            "search", None, result.queries, hits, dict(per), dict(errors), result
        )

    # -- public -------------------------------------------------------------------------------

    def retrieve(self, result: RewriteResult) -> RetrievalResult:
        """Retrieve with every query of ``result`` and merge. ``ask_user`` → no retrieval."""
        _check_result(result)
        if result.decision == "ask_user":
            return self._ask(result)
        errors: dict[str, str] = {}
        per: dict[str, tuple[Hit, ...]] = {}
        for q, fut, t0 in self._submit(result):
            per[q.source] = self._collect(q, fut, t0, errors)
        return self._final(result, per, errors)

    def stream(self, result: RewriteResult) -> Iterator[RetrievalUpdate]:
        """Yield the original query's hits as soon as they arrive, then the merged list.

        For an ``ask_user`` result a single ``merged`` update with no hits is yielded (its
        ``result.clarification`` holds the question)."""
        _check_result(result)
        if result.decision == "ask_user":
            yield RetrievalUpdate("merged", (), self._ask(result))
            return
        errors: dict[str, str] = {}
        per: dict[str, tuple[Hit, ...]] = {}
        jobs = self._submit(result)
        q0, f0, t0 = jobs[0]
        per[q0.source] = self._collect(q0, f0, t0, errors)
        first = merge_hits([(q0.source, per[q0.source])], method=self.merge, k=self.k)
        yield RetrievalUpdate("original", first)
        for q, fut, t in jobs[1:]:
            per[q.source] = self._collect(q, fut, t, errors)
        final = self._final(result, per, errors)
        yield RetrievalUpdate("merged", final.hits, final)

    def search(self, query: str, *, filters: dict[str, Any] | None = None) -> tuple[Hit, ...]:
        """One query, one path (no rewriting, no merging): the baseline the evaluation uses."""
        q = Query(query, "original")
        fut = self._executor().submit(self._call, q, filters)
        return self._collect(q, fut, time.monotonic(), {})


def _check_result(result: Any) -> None:
    if not isinstance(result, RewriteResult):
        raise TypeError(f"expected a RewriteResult, got {type(result).__name__}")


def multi_retrieve(result: RewriteResult, retriever: Retriever, **options: Any) -> RetrievalResult:
    """One-shot :meth:`MultiRetriever.retrieve` (builds and closes a pool; options as there)."""
    with MultiRetriever(retriever, **options) as mr:
        return mr.retrieve(result)
