"""The dialogue: validated history turns and the window the modes may look at."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rulerewrite.errors import QueryError
from rulerewrite.text.normalize import clean_query

ROLES = ("user", "assistant", "system")


@dataclass(frozen=True, slots=True)
class Turn:
    """One history message. ``index`` is its position in the caller's history (0 = oldest)."""

    index: int
    role: str
    content: str


def parse_history(history: Sequence[Any] | None, *, max_chars: int = 4096) -> tuple[Turn, ...]:
    """Validate ``history`` (OpenAI-style messages or plain strings) into turns.

    Plain strings alternate user/assistant starting with the user. A malformed item raises
    :class:`QueryError` (or :class:`TypeError` for a wrong container type) naming its index.

    Example:
        >>> parse_history(["iPad Air 多少钱", "4799 元起"])[1].role
        'assistant'
    """
    if history is None:
        return ()
    if isinstance(history, (str, bytes)) or not isinstance(history, Sequence):
        raise TypeError(
            f"history must be a list of messages or strings, got {type(history).__name__}"
        )
    turns: list[Turn] = []
    for i, item in enumerate(history):
        role: Any
        content: Any
        if isinstance(item, str):
            role, content = ("user" if i % 2 == 0 else "assistant"), item
        elif isinstance(item, dict):
            role = item.get("role")
            content = item.get("content")
            if role not in ROLES:
                raise QueryError(
                    f"[RR301] history item {i}: role must be one of {list(ROLES)}, got {role!r}"
                )
            if not isinstance(content, str):
                raise QueryError(
                    f"[RR302] history item {i}: content must be a string, got {type(content).__name__}"
                )
        else:
            raise QueryError(
                f"[RR300] history item {i}: expected a string or a {{'role', 'content'}} mapping, "
                f"got {type(item).__name__}"
            )
        content = clean_query(content)
        if len(content) > max_chars:
            content = content[:max_chars]
        turns.append(Turn(i, str(role), content))
    return tuple(turns)
