"""Rewriter options (keyword-only, immutable)."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class RewriterConfig:
    """Options of a :class:`~rulerewrite.Rewriter`; every field has a documented default.

    - ``max_queries``: cap on queries sent to retrieval (original included) once structural
      rewrites (standalone, sub-queries) are in; expansions fill the rest. Default 4.
    - ``max_subqueries``: cap on sub-queries of a multi-intent split. Default 5.
    - ``max_length``: longest query accepted, in characters. Default 512.
    - ``window``: history exchanges (user+assistant pairs) the modes may look at. Default 3.
    - ``modes``: ids of the modes to run (None = all registered).
    - ``reference_date``: "today" for relative dates (None = the real today).
    - ``parser``: syntax backend, ``builtin`` or ``hanlp``; ``hanlp_model``: identifier or folder.
    - ``unknown_referent``: what a demonstrative with a kind noun (这款手机 / 这个药) does when
      the conversation has nothing it can point at: ``ask`` (default) asks which one is meant;
      ``search`` searches the kind generically, records the open referent and lowers the
      confidence (for callers that prefer an answer to a question).
    """

    max_queries: int = 4
    max_subqueries: int = 5
    max_length: int = 512
    window: int = 3
    modes: frozenset[str] | None = None
    reference_date: _dt.date | None = None
    parser: str = "builtin"
    hanlp_model: str | None = None
    unknown_referent: str = "ask"

    def __post_init__(self) -> None:
        for name in ("max_queries", "max_subqueries", "max_length", "window"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise ValueError(f"[RR210] {name} must be a positive integer, got {v!r}")
        if self.parser not in ("builtin", "hanlp"):
            raise ValueError(f"[RR211] parser must be 'builtin' or 'hanlp', got {self.parser!r}")
        if self.unknown_referent not in ("ask", "search"):
            raise ValueError(
                f"[RR212] unknown_referent must be 'ask' or 'search', got {self.unknown_referent!r}"
            )

    def today(self) -> _dt.date:
        return self.reference_date or _dt.date.today()
