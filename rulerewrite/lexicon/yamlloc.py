"""YAML loading that remembers where every value came from (1-based line and column).

PyYAML's composer gives nodes with marks; we turn them into ordinary Python values whose
containers and strings carry ``line``/``col`` attributes, so validation can point at
``file:line:col`` for any term.
"""

from __future__ import annotations

from typing import Any

import yaml


class LStr(str):
    """A string that remembers its position in the source file."""

    line: int
    col: int


class LDict(dict[str, Any]):
    line: int
    col: int
    key_pos: dict[str, tuple[int, int]]


class LList(list[Any]):
    line: int
    col: int


class LScalar:
    """A non-string scalar (int, float, bool, None) with its position."""

    __slots__ = ("col", "line", "value")

    def __init__(self, value: Any, line: int, col: int) -> None:
        self.value = value
        self.line = line
        self.col = col

    def __repr__(self) -> str:
        return f"LScalar({self.value!r})"


def pos(value: Any, default: tuple[int, int] = (1, 1)) -> tuple[int, int]:
    """The (line, col) of a located value, or ``default``."""
    line = getattr(value, "line", None)
    col = getattr(value, "col", None)
    if line is None or col is None:
        return default
    return int(line), int(col)


def plain(value: Any) -> Any:
    """Strip location wrappers (recursively) back to plain Python values."""
    if isinstance(value, LScalar):
        return value.value
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value


_RESOLVER = yaml.SafeLoader


def _convert(node: yaml.Node) -> Any:
    line, col = node.start_mark.line + 1, node.start_mark.column + 1
    if isinstance(node, yaml.MappingNode):
        d = LDict()
        d.line, d.col = line, col
        d.key_pos = {}
        for knode, vnode in node.value:
            key = _convert(knode)
            k = str(key.value) if isinstance(key, LScalar) else str(key)
            d[k] = _convert(vnode)
            d.key_pos[k] = (knode.start_mark.line + 1, knode.start_mark.column + 1)
        return d
    if isinstance(node, yaml.SequenceNode):
        lst = LList(_convert(v) for v in node.value)
        lst.line, lst.col = line, col
        return lst
    assert isinstance(node, yaml.ScalarNode)
    loader = yaml.SafeLoader("")
    try:
        value = loader.construct_object(node, deep=True)
    finally:
        loader.dispose()
    if isinstance(value, str):
        s = LStr(value)
        s.line, s.col = line, col
        return s
    return LScalar(value, line, col)


def load_located(text: str) -> Any:
    """Parse one YAML document into located values. Raises ``yaml.YAMLError`` on bad syntax."""
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    if node is None:
        return None
    return _convert(node)
