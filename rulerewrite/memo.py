"""A bounded memo that drops its oldest entry first, shared by the per-query memos.

What: :class:`FifoMemo` is an ``OrderedDict`` with a size bound and one extra method, ``put``,
that stores a value and, once the memo holds more than ``maxsize`` keys, drops the key stored
first. Reading is the plain ``dict`` API (``memo.get(key)`` at C speed); a hit does not refresh
the key (first in, first out). A memo that wants least-recently-used order calls
``memo.move_to_end(key)`` on a hit, as with any ``OrderedDict``.

Why: the dictionary-match memo, the pipeline's ``applies`` memo, the multi-turn window pools
and shared-span pairs and the HanLP parse cache each wrote the same three lines (store, compare
the length, ``popitem(last=False)``) with their own bound. An ``OrderedDict`` drops its oldest
key in O(1); a plain ``dict``'s ``next(iter(d))`` walks over every slot deleted before it,
several microseconds per miss once the memo is full; and no periodic full flush empties a memo
that is still useful. ``get`` stays the ``OrderedDict`` method itself, so a hit, the common
case on the per-query path, costs what it cost before.

Example:
    >>> memo = FifoMemo(2)
    >>> memo.put("a", 1), memo.put("b", 2), memo.get("a"), memo.put("c", 3)
    (1, 2, 1, 3)
    >>> list(memo)
    ['b', 'c']
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from typing import Any, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FifoMemo(OrderedDict[K, V], Generic[K, V]):
    """An ``OrderedDict`` of at most ``maxsize`` keys once filled through :meth:`put` (a bound
    of 0 or less keeps nothing)."""

    __slots__ = ("maxsize",)

    def __init__(self, maxsize: int) -> None:
        super().__init__()
        self.maxsize = maxsize

    def put(self, key: K, value: V) -> V:
        """Store ``value`` under ``key`` (a new key goes last) and return it; past the bound,
        drop the oldest key."""
        self[key] = value
        if len(self) > self.maxsize:
            self.popitem(False)  # the oldest key
        return value

    def __reduce__(self) -> tuple[Any, tuple[int], None, None, Iterator[tuple[K, V]]]:
        # ``OrderedDict.__reduce__`` would rebuild with ``FifoMemo()``, without the bound
        return (type(self), (self.maxsize,), None, None, iter(self.items()))

    def __repr__(self) -> str:
        return f"FifoMemo({self.maxsize}, {list(self.items())!r})"
