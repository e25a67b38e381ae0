"""The parser interface: tokens with POS, head and relation (a light dependency analysis).

Backends implement :class:`Parser`. ``builtin`` (fast, deterministic, over jieba POS tags) is the
default; ``hanlp`` (extra ``rulerewrite[hanlp]``) wraps a HanLP dependency parser.

Conventions: ``Token.head`` is the 0-based index of the head token, ``-1`` for the root.
Relations use a small label set shared by every backend: ``root``, ``subj`` (subject/topic),
``obj``, ``att`` (attributive modifier), ``adv``, ``coo`` (coordination), ``cc`` (conjunction),
``de`` (的/之), ``q`` (question particle / question word), ``punct``, ``dep`` (anything else).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from rulerewrite.fastinit import fast_init


@dataclass(frozen=True, slots=True)
class Token:
    i: int
    text: str
    pos: str  # jieba-style tag: n, nr, ns, nt, nz, v, a, r, d, p, c, u, y, m, q, x, eng ...
    head: int
    rel: str
    start: int  # character offset in the parsed text
    end: int


# Token(i, text, pos, head, rel, start, end) without the frozen __init__'s per-field
# object.__setattr__ (every word of every parsed text)
new_token = fast_init(Token)


@dataclass(frozen=True, slots=True)
class Parse:
    text: str
    tokens: tuple[Token, ...]

    @property
    def root(self) -> Token | None:
        for t in self.tokens:
            if t.head == -1:
                return t
        return None

    def children(self, i: int) -> list[Token]:
        return [t for t in self.tokens if t.head == i]

    def with_rel(self, rel: str) -> list[Token]:
        return [t for t in self.tokens if t.rel == rel]


class Parser(Protocol):
    name: str

    def parse(self, text: str) -> Parse: ...

    def parse_many(self, texts: Sequence[str]) -> list[Parse]: ...
