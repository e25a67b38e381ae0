"""The rewrite result: frozen dataclasses whose field names are a public contract.

``RewriteResult.to_dict()`` gives plain JSON-serialisable data; ``rulerewrite/schema/result.json``
is its JSON Schema (tested against real results).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal

from rulerewrite.fastinit import fast_init

Decision = Literal["search", "ask_user"]


@dataclass(frozen=True, slots=True)
class Query:
    """A query to retrieve with. ``source`` is ``original`` or ``rewrite_N``."""

    text: str
    source: str


@dataclass(frozen=True, slots=True)
class RewrittenQuery:
    """A rewrite on its own, with the modes that produced it."""

    text: str
    modes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Condition:
    """A hard constraint found in the query: ``type`` (version, time, amount, ...), the user's
    ``text`` (kept verbatim in every query) and a normalised ``value`` for metadata filters."""

    type: str
    text: str
    value: Any = None


@dataclass(frozen=True, slots=True)
class ContextEntity:
    """An entity taken from the dialogue to complete the query, and where it came from.

    ``turn`` is the index of the history message (0 = oldest), ``role`` the speaker and
    ``grammatical_role`` subject/object/topic when known."""

    text: str
    type: str
    turn: int
    role: str
    grammatical_role: str | None = None
    slot: str | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """One trace line: which mode did what, by which rule (``file:line``), from which turn."""

    mode: str
    rule: str
    before: str
    after: str
    source_turn: int | None = None
    status: str = "applied"  # applied | rejected | skipped | info
    note: str = ""


@dataclass(frozen=True, slots=True)
class RewriteResult:
    original_query: str
    standalone: str
    decision: Decision = "search"
    clarification: str | None = None
    missing_fields: tuple[str, ...] = ()
    rewrite_skipped: bool = False
    modes: tuple[str, ...] = ()
    intent: str = "其他"
    filter_hints: dict[str, Any] = field(default_factory=dict)
    confidence: float = 1.0
    escalate: bool = False
    queries: tuple[Query, ...] = ()
    rewritten_queries: tuple[RewrittenQuery, ...] = ()
    must_keep_entities: tuple[str, ...] = ()
    conditions: tuple[Condition, ...] = ()
    resolved_context: tuple[ContextEntity, ...] = ()
    assumptions: tuple[str, ...] = ()
    trace: tuple[Step, ...] = ()

    @property
    def changed(self) -> bool:
        """True when anything beyond the original query goes to retrieval."""
        return bool(self.rewritten_queries) or self.standalone != self.original_query

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        out: dict[str, Any] = _listify(d)
        return out

    def to_json(self, **kw: Any) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, **kw)


# the slot setters of RewriteResult (they bypass the frozen __setattr__; see build_result)
_SET = {f.name: getattr(RewriteResult, f.name).__set__ for f in fields(RewriteResult)}
_set_original_query = _SET["original_query"]
_set_standalone = _SET["standalone"]
_set_decision = _SET["decision"]
_set_clarification = _SET["clarification"]
_set_missing_fields = _SET["missing_fields"]
_set_rewrite_skipped = _SET["rewrite_skipped"]
_set_modes = _SET["modes"]
_set_intent = _SET["intent"]
_set_filter_hints = _SET["filter_hints"]
_set_confidence = _SET["confidence"]
_set_escalate = _SET["escalate"]
_set_queries = _SET["queries"]
_set_rewritten_queries = _SET["rewritten_queries"]
_set_must_keep_entities = _SET["must_keep_entities"]
_set_conditions = _SET["conditions"]
_set_resolved_context = _SET["resolved_context"]
_set_assumptions = _SET["assumptions"]
_set_trace = _SET["trace"]


# the parts of a result without the frozen __init__'s per-field object.__setattr__ (several per
# rewrite); build_result below builds the result itself
new_query = fast_init(Query)
new_rewritten = fast_init(RewrittenQuery)
new_entity = fast_init(ContextEntity)
new_step = fast_init(Step)


def build_result(
    original_query: str,
    standalone: str,
    decision: Decision,
    clarification: str | None,
    missing_fields: tuple[str, ...],
    rewrite_skipped: bool,
    modes: tuple[str, ...],
    intent: str,
    filter_hints: dict[str, Any],
    confidence: float,
    escalate: bool,
    queries: tuple[Query, ...],
    rewritten_queries: tuple[RewrittenQuery, ...],
    must_keep_entities: tuple[str, ...],
    conditions: tuple[Condition, ...],
    resolved_context: tuple[ContextEntity, ...],
    assumptions: tuple[str, ...],
    trace: tuple[Step, ...],
) -> RewriteResult:
    """``RewriteResult(...)`` with every field given, without the frozen ``__init__``'s
    per-field ``object.__setattr__`` (the pipeline builds one result per rewrite). The result is
    the same immutable object; tests/test_fastpaths.py checks the equality and that the
    parameters are exactly the fields, in order."""
    r = object.__new__(RewriteResult)
    _set_original_query(r, original_query)
    _set_standalone(r, standalone)
    _set_decision(r, decision)
    _set_clarification(r, clarification)
    _set_missing_fields(r, missing_fields)
    _set_rewrite_skipped(r, rewrite_skipped)
    _set_modes(r, modes)
    _set_intent(r, intent)
    _set_filter_hints(r, filter_hints)
    _set_confidence(r, confidence)
    _set_escalate(r, escalate)
    _set_queries(r, queries)
    _set_rewritten_queries(r, rewritten_queries)
    _set_must_keep_entities(r, must_keep_entities)
    _set_conditions(r, conditions)
    _set_resolved_context(r, resolved_context)
    _set_assumptions(r, assumptions)
    _set_trace(r, trace)
    return r


def _listify(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _listify(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_listify(x) for x in v]
    return v
