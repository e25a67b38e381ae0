"""The public entry point: :class:`Rewriter`."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Any

from rulerewrite.config import RewriterConfig
from rulerewrite.context import parse_history
from rulerewrite.errors import QueryError
from rulerewrite.lexicon import Lexicon
from rulerewrite.pipeline import Pipeline
from rulerewrite.result import RewriteResult
from rulerewrite.text.normalize import clean_query


class Rewriter:
    """Rewrite colloquial, elliptical and multi-question Chinese queries for retrieval.

    Build once (it loads and compiles the packs), then call :meth:`rewrite` per query.

    Example:
        >>> rw = Rewriter(domains=["tech"])
        >>> res = rw.rewrite("k8s 怎么看 pod 日志")
        >>> [q.text for q in res.queries][:2]
        ['k8s 怎么看 pod 日志', 'Kubernetes 怎么看 pod 日志']
    """

    def __init__(
        self,
        *,
        domains: Sequence[str] | None = None,
        dictionaries: Sequence[str | os.PathLike[str]] = (),
        rules: Sequence[str | os.PathLike[str]] | None = None,
        cache_dir: str | os.PathLike[str] | None = None,
        use_cache: bool = True,
        config: RewriterConfig | None = None,
        **options: Any,
    ) -> None:
        if isinstance(dictionaries, (str, os.PathLike)):
            dictionaries = [dictionaries]
        if config is not None and options:
            raise TypeError("pass either config=RewriterConfig(...) or keyword options, not both")
        try:
            self.config = config or RewriterConfig(**options)
        except TypeError as e:
            raise TypeError(f"Rewriter: {e}") from None
        self.lexicon = Lexicon.load(
            domains=domains,
            dictionaries=dictionaries,
            rules=rules,
            cache_dir=cache_dir,
            use_cache=use_cache,
        )
        self.pipeline = Pipeline(self.lexicon, self.config)

    @property
    def domains(self) -> tuple[str, ...]:
        return self.lexicon.packs

    def rewrite(self, query: str, history: Sequence[Any] | None = None) -> RewriteResult:
        """Rewrite one query given the dialogue so far (oldest first).

        Raises TypeError for a non-string query, :class:`QueryError` (a ValueError) for an empty
        or over-long query or a malformed history item.
        """
        if not isinstance(query, str):
            raise TypeError(f"query must be a str, got {type(query).__name__}")
        q = clean_query(query)
        if not q:
            raise QueryError("[RR201] query is empty or whitespace only")
        if len(q) > self.config.max_length:
            raise QueryError(
                f"[RR202] query has {len(q)} characters; the limit is {self.config.max_length} "
                "(Rewriter(max_length=...))"
            )
        turns = parse_history(history)
        return self.pipeline.run(q, turns)

    def rewrite_many(
        self, queries: Iterable[str], *, histories: Iterable[Sequence[Any] | None] | None = None
    ) -> list[RewriteResult]:
        """Rewrite a batch; ``histories`` (optional) pairs one history with each query."""
        qs = list(queries)
        hs = [None] * len(qs) if histories is None else list(histories)
        if len(hs) != len(qs):
            raise ValueError(f"[RR203] got {len(qs)} queries but {len(hs)} histories")
        return [self.rewrite(q, h) for q, h in zip(qs, hs, strict=True)]
