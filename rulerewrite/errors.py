"""Errors users can hit. Every data problem carries a stable code and a location."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem found in a pack or rule file: ``file:line:col CODE message``."""

    file: str
    line: int
    col: int
    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col} {self.code} {self.message}"


class RuleRewriteError(Exception):
    """Base class of every error raised by rulerewrite."""


class LexiconError(RuleRewriteError, ValueError):
    """A pack or rule file is invalid. ``diagnostics`` lists every problem, sorted."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = sorted(diagnostics)
        lines = "\n".join(str(d) for d in self.diagnostics)
        super().__init__(f"{len(self.diagnostics)} problem(s) in dictionaries/rules:\n{lines}")


class QueryError(RuleRewriteError, ValueError):
    """The query or its history cannot be rewritten as given (empty, too long, malformed)."""


class UnknownDomainError(RuleRewriteError, ValueError):
    """A requested domain pack does not exist."""


class ParserError(RuleRewriteError, RuntimeError):
    """A syntax backend is unknown, not installed, or its model cannot be loaded or used."""
