"""The state a rewrite carries through the pipeline, and the mode registry.

A mode is a small class registered by id with :func:`mode`. It is built once per Rewriter
(``__init__(lexicon, config)``: compile what it needs) and called per query:
``applies(state)`` is a cheap check the checklist runs, ``__call__(state)`` returns a new state.
Modes never mutate a state; :meth:`State.evolve` returns a changed copy.

``applies`` must depend only on the state's texts (``query``, ``standalone``, ``norm``), its
``matches`` and its ``features`` (``features.has_history``, never the history's content): the
pipeline memoises its answers on the untouched state per (query text, has history)
(``Pipeline._checklist``; tests/test_checklist_fastpath.py checks the agreement), and on a state
an earlier mode changed per (mode, query, standalone, has history) (no mode changes ``norm``,
``matches`` or ``features``). A mode whose ``applies`` never reads ``standalone`` may say so
with the class attribute ``reads_standalone = False``: the pipeline then reuses the checklist's
answer on changed states too (tests/test_perf_memos.py checks both).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, Protocol

from rulerewrite.context import Turn
from rulerewrite.lexicon import Lexicon, Match
from rulerewrite.result import Condition, ContextEntity, RewrittenQuery, Step, new_step
from rulerewrite.text.normalize import NormText

# The fixed order modes run in when several apply (normalize first, expand last).
MODE_ORDER: tuple[str, ...] = (
    "normalize",
    "rhetorical",
    "coreference",
    "multi_intent",
    "ellipsis",
    "comparison",
    "condition",
    "expand",
)


@dataclass(frozen=True, slots=True)
class Features:
    """Cheap facts about the query from one automaton pass, used by the checklist."""

    kinds: frozenset[str]
    question_marks: int
    length: int
    precise: bool
    has_history: bool


@dataclass(frozen=True)
class State:
    """Everything known about one rewrite so far."""

    query: str  # the cleaned original
    norm: NormText
    matches: tuple[Match, ...]
    features: Features
    history: tuple[Turn, ...]
    standalone: str
    subqueries: tuple[str, ...] = ()
    variants: tuple[RewrittenQuery, ...] = ()
    modes: tuple[str, ...] = ()
    trace: tuple[Step, ...] = ()
    conditions: tuple[Condition, ...] = ()
    must_keep: tuple[str, ...] = ()
    resolved_context: tuple[ContextEntity, ...] = ()
    assumptions: tuple[str, ...] = ()
    decision: str = "search"
    clarification: str | None = None
    missing_fields: tuple[str, ...] = ()
    intent: str = "其他"
    filter_hints: dict[str, Any] = field(default_factory=dict)
    confidence: float = 1.0
    rewrite_skipped: bool = False
    # guard allowances granted by a mode for its own step (e.g. rhetorical drops 难道…不…吗)
    allowed_negation_drops: frozenset[str] = frozenset()
    scratch: dict[str, Any] = field(default_factory=dict)  # per-rewrite data modes share

    @classmethod
    def start(
        cls,
        query: str,
        norm: NormText,
        matches: tuple[Match, ...],
        features: Features,
        history: tuple[Turn, ...],
    ) -> State:
        """The state before any mode ran (``standalone`` is the query; every other field has its
        default). Same result as ``State(...)``, without the frozen ``__init__``'s per-field
        ``object.__setattr__`` calls: this runs once per rewrite."""
        new = object.__new__(cls)
        d = new.__dict__
        d.update(_DEFAULTS)
        d["query"] = query
        d["norm"] = norm
        d["matches"] = matches
        d["features"] = features
        d["history"] = history
        d["standalone"] = query
        d["filter_hints"] = {}
        d["scratch"] = {}
        return new

    def evolve(self, **changes: Any) -> State:
        # a shallow copy of the fields (State has no __post_init__ to re-run): several times
        # cheaper than dataclasses.replace, which re-validates every field through __init__
        new = object.__new__(State)
        d = new.__dict__
        d.update(self.__dict__)
        for k in changes:
            if k not in d:
                raise TypeError(f"State has no field {k!r}")
        d.update(changes)
        return new

    def with_step(self, step: Step, **changes: Any) -> State:
        modes = self.modes
        if step.status == "applied" and step.mode not in modes:
            modes = (*modes, step.mode)
        return self.evolve(trace=(*self.trace, step), modes=modes, **changes)

    def note(self, mode: str, rule: str, text: str, *, status: str = "info") -> State:
        """Record a trace line that changes nothing (a decision, a rejected candidate)."""
        step = new_step(mode, rule, self.standalone, self.standalone, None, status, text)
        return self.evolve(trace=(*self.trace, step))

    def has(self, kind: str) -> bool:
        return kind in self.features.kinds


# every field with a default, as the dataclass declares it (for :meth:`State.start`)
_DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(State) if f.default is not MISSING}


class Mode(Protocol):
    id: ClassVar[str]

    def applies(self, state: State) -> bool: ...

    def __call__(self, state: State) -> State: ...


ModeFactory = Callable[..., Mode]
_REGISTRY: dict[str, type] = {}


def mode(mode_id: str) -> Callable[[type], type]:
    """Register a mode class under ``mode_id`` (one of :data:`MODE_ORDER`)."""
    if mode_id not in MODE_ORDER:
        raise ValueError(f"[RR400] unknown mode id {mode_id!r}; expected one of {list(MODE_ORDER)}")

    def deco(cls: type) -> type:
        cls.id = mode_id  # type: ignore[attr-defined]
        _REGISTRY[mode_id] = cls
        return cls

    return deco


def registered_modes() -> dict[str, type]:
    """Registered mode classes in pipeline order (importing the bundled modes first)."""
    import rulerewrite.modes  # noqa: F401  (registers the bundled modes)

    return {m: _REGISTRY[m] for m in MODE_ORDER if m in _REGISTRY}


def mode_doc(mode_id: str) -> str:
    cls = registered_modes().get(mode_id)
    return (cls.__doc__ or "").strip() if cls else ""


def build_modes(lexicon: Lexicon, config: Any) -> list[Mode]:
    enabled = config.modes
    out: list[Mode] = []
    for mid, cls in registered_modes().items():
        if enabled is not None and mid not in enabled:
            continue
        out.append(cls(lexicon, config))
    return out
