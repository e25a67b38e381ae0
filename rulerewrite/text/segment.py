"""Segmentation with a private ``jieba.Tokenizer`` that knows every dictionary term.

The tokenizer is built lazily (cold init ~0.7 s) on first use, so queries that never need
segmentation (most single-turn ones) never pay for it. Dictionary terms are added as user words
so entities such as ``Galaxy S24 Ultra`` or ``安心福终身寿险`` stay whole.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from functools import lru_cache
from typing import Any


class Segmenter:
    """Word segmentation and POS tags (``posseg`` with ``HMM=False`` unless asked)."""

    def __init__(self, words: Iterable[tuple[str, str]] = (), *, cache_size: int = 4096) -> None:
        self._words = list(words)
        self._tok: Any = None
        self._pos: Any = None
        self.cut = lru_cache(maxsize=cache_size)(self._cut)
        self.pos = lru_cache(maxsize=cache_size)(self._posseg)

    def _ensure(self) -> None:
        if self._tok is not None:
            return
        import jieba
        import jieba.posseg

        jieba.setLogLevel(logging.WARNING)
        tok = jieba.Tokenizer()
        tok.initialize()
        for w, tag in self._words:
            if w.strip():
                tok.add_word(w, freq=20000, tag=tag)
        self._tok = tok
        self._pos = jieba.posseg.POSTokenizer(tok)

    def _cut(self, text: str) -> tuple[str, ...]:
        self._ensure()
        return tuple(self._tok.lcut(text, HMM=False))

    def _posseg(self, text: str) -> tuple[tuple[str, str], ...]:
        self._ensure()
        return tuple((p.word, p.flag) for p in self._pos.lcut(text, HMM=False))
