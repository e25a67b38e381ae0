"""rulerewrite: rule-first Chinese query rewriting for RAG, with no LLM dependency.

>>> from rulerewrite import Rewriter
>>> Rewriter().rewrite("保单怎么退").standalone
'保单怎么退'
"""

from __future__ import annotations

__version__ = "0.1.0"

from rulerewrite.config import RewriterConfig
from rulerewrite.errors import (
    Diagnostic,
    LexiconError,
    ParserError,
    QueryError,
    RuleRewriteError,
    UnknownDomainError,
)
from rulerewrite.lexicon import available_domains
from rulerewrite.result import Condition, ContextEntity, Query, RewriteResult, RewrittenQuery, Step
from rulerewrite.rewriter import Rewriter

__all__ = [
    "Condition",
    "ContextEntity",
    "Diagnostic",
    "LexiconError",
    "ParserError",
    "Query",
    "QueryError",
    "RewriteResult",
    "Rewriter",
    "RewriterConfig",
    "RewrittenQuery",
    "RuleRewriteError",
    "Step",
    "UnknownDomainError",
    "__version__",
    "available_domains",
]
