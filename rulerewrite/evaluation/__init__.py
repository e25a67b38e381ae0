"""Evaluation of rewriting: ``iur`` scores rewrites against gold rewrites (EM, restoration P/R/F)."""

from rulerewrite.evaluation.iur import (
    IURExample,
    IURReport,
    IURScorer,
    char_tokens,
    evaluate_iur,
    load_iur,
)

__all__ = ["IURExample", "IURReport", "IURScorer", "char_tokens", "evaluate_iur", "load_iur"]
