"""The checklist, the ordered modes and the guards: one rewrite.

1. Clean and normalise the query; one automaton pass gives the dictionary hits.
2. The checklist: a short precise query (error code, order number, function name, version,
   product code) is never rewritten; otherwise each mode's cheap ``applies`` decides whether it
   can act. No candidate → the query returns at once, untouched (zero-rewrite principle).
3. Candidate modes run in the fixed order; the guards check what each produced and reject
   unsafe steps (recorded in the trace). Nothing safe left → the original, ``rewrite_skipped``.
4. Queries are assembled: the original first, then the standalone rewrite, sub-queries and
   expansions, deduplicated and capped.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from rulerewrite.config import RewriterConfig
from rulerewrite.context import Turn
from rulerewrite.guards import _FUNCTION_KINDS, Guards, Protected
from rulerewrite.intent import IntentClassifier
from rulerewrite.lexicon import Lexicon, Match
from rulerewrite.memo import FifoMemo
from rulerewrite.modes.base import MODE_ORDER, Features, Mode, State, build_modes
from rulerewrite.result import (
    RewriteResult,
    RewrittenQuery,
    Step,
    build_result,
    new_query,
    new_rewritten,
)
from rulerewrite.text.normalize import NormText

# every mode but expand changes the query itself (expand only adds variants)
STRUCTURAL = tuple(m for m in MODE_ORDER if m != "expand")


class Checklist(NamedTuple):
    """The checklist's verdict on a query text: its normalisation and dictionary hits, the cheap
    features, the precise pattern that matched it (never rewritten) and the ids of the modes whose
    ``applies`` holds before any mode ran (empty: zero-rewrite)."""

    norm: NormText
    matches: tuple[Match, ...]
    features: Features
    precise_rule: str | None
    candidates: frozenset[str]
    note: Step | None  # the trace line of a precise query


_PRECISE_NOTE = "precise query: never rewritten"


class Pipeline:
    """Built once per Rewriter: modes, guards, checklist patterns, intent classifier."""

    def __init__(self, lexicon: Lexicon, config: RewriterConfig) -> None:
        self.lexicon = lexicon
        self.config = config
        self.modes: list[Mode] = build_modes(lexicon, config)
        self.guards = Guards(lexicon, lexicon.normalizer)
        self.precise = [
            (r.pattern, r.source, r.id) for r in lexicon.rules.get("checklist", ()) if r.pattern
        ]
        self.any_precise = _union(p for p, _s, _i in self.precise)
        self.intents = IntentClassifier(lexicon)
        # What a query text commits to and what it asks for depends on the text alone (and the
        # history, for the guards): memoised per distinct text, since query logs repeat a lot.
        self._protected = functools.lru_cache(maxsize=4096)(self._protected_uncached)
        # what the query commits to depends on its text alone: shared by every history
        self._protected_query = functools.lru_cache(maxsize=4096)(self._protected_query_uncached)
        # and the window's turns as the guards read them depend on the window alone
        self._history_view = functools.lru_cache(maxsize=4096)(self.guards.history_view)
        self._analysis = functools.lru_cache(maxsize=16384)(self._analysis_uncached)
        # The checklist of a query depends on its text and on whether there is a history (no
        # mode's ``applies`` reads the history's content): memoised per (text, has_history).
        self._checklist = functools.lru_cache(maxsize=16384)(self._checklist_uncached)
        # Once a mode has changed the state, a later mode's ``applies`` reads the changed texts:
        # still the query (and so its normalisation, matches and features), the new standalone
        # and whether there is a history. A mode that declares ``reads_standalone = False``
        # keeps the checklist's answer; the others' answers are memoised per (mode index, query,
        # standalone, has_history), computed on the real state on a miss (``clear_memos``).
        self._applies: FifoMemo[tuple[int, str, str, bool], bool] = FifoMemo(self._APPLIES_MEMO)
        self._same_as_checklist = tuple(
            not getattr(m, "reads_standalone", True) for m in self.modes
        )

    _APPLIES_MEMO = 16384  # entries, the oldest dropped first

    def clear_memos(self) -> None:
        """Empty the memos that are not ``functools.lru_cache`` s (for cold benchmarks): the
        pipeline's and those of the modes that keep one of their own."""
        self._applies.clear()
        for m in self.modes:
            clear = getattr(m, "clear_memos", None)
            if clear is not None:
                clear()

    def _protected_uncached(self, norm_text: str, history: tuple[str, ...]) -> Protected:
        base = self._protected_query(norm_text)
        if not history:
            return base
        return base.with_history(self._history_view(history))

    def _protected_query_uncached(self, norm_text: str) -> Protected:
        matches = self.lexicon.match(self.lexicon.normalizer(norm_text))
        return self.guards.protected(norm_text, matches, ())

    def _analysis_uncached(
        self, norm_text: str, query: str
    ) -> tuple[str, dict[str, Any], tuple[str, ...]]:
        """Intent label, its filter hints and the must-keep entities of a query."""
        norm = self.lexicon.normalizer(query)
        matches = self.lexicon.match_tuple(norm)
        label, hints = self.intents.classify(matches, text=norm_text)
        return label, hints, self._must_keep_of(norm, matches)

    # -- stage 1 + 2 --------------------------------------------------------------------------

    def initial_state(self, query: str, history: tuple[Turn, ...]) -> State:
        """The state before any mode ran (with the checklist's note on a precise query)."""
        ck = self._checklist(query, bool(history))
        state = State.start(query, ck.norm, ck.matches, ck.features, history)
        if ck.note is not None:
            state = state.evolve(trace=(ck.note,))
        return state

    def _checklist_uncached(self, query: str, has_history: bool) -> Checklist:
        """One automaton pass, the cheap features, the precise patterns and every mode's
        ``applies`` on the state before any mode ran: the modes that can act on the query."""
        norm = self.lexicon.normalizer(query)
        matches = self.lexicon.match_tuple(norm)
        kinds = frozenset({e.kind for m in matches for e in m.entries})
        text = norm.text
        precise_rule = self._precise(text)
        feats = Features(
            kinds=kinds,
            question_marks=text.count("?"),
            length=len(text),
            precise=precise_rule is not None,
            has_history=has_history,
        )
        note: Step | None = None
        if precise_rule is not None:
            candidates: frozenset[str] = frozenset()
            # the trace line ``State.note`` would add
            note = Step("checklist", precise_rule, query, query, None, "info", _PRECISE_NOTE)
        else:
            # applies reads the text and the features only, never the history's content: one
            # empty stand-in history of the same truth value gives the same answers
            stand_in = (Turn(0, "user", ""),) if has_history else ()
            state = State.start(query, norm, matches, feats, stand_in)
            candidates = frozenset(m.id for m in self.modes if m.applies(state))
        return Checklist(norm, matches, feats, precise_rule, candidates, note)

    def _precise(self, text: str) -> str | None:
        if len(text) > 48:
            return None
        if self.any_precise is not None and self.any_precise.fullmatch(text) is None:
            return None  # no pattern matches the whole text (one regex pass instead of each)
        for pat, src, _rid in self.precise:
            if pat.fullmatch(text):
                return src
        return None

    def run(self, query: str, history: tuple[Turn, ...]) -> RewriteResult:
        ck = self._checklist(query, bool(history))
        if not ck.candidates:
            # a precise query, or no mode can act: the query returns untouched
            return self._zero(query, ck)
        state = State.start(query, ck.norm, ck.matches, ck.features, history)
        # the checklist answered ``applies`` for the state before any mode ran; once a mode has
        # changed the state, each later mode asks its own ``applies`` on the new state
        first = state
        candidates = ck.candidates
        has_history = bool(history)
        memo = self._applies
        same = self._same_as_checklist
        prot: Protected | None = None
        for k, m in enumerate(self.modes):
            if state is first or same[k]:
                if m.id not in candidates:
                    continue
            else:
                key = (k, query, state.standalone, has_history)
                ok = memo.get(key)
                if ok is None:
                    ok = memo.put(key, bool(m.applies(state)))
                if not ok:
                    continue
            new = m(state)
            if new is state:
                continue
            if prot is None:
                # text may come from the window the modes look at, not from older turns
                window = history[-2 * self.config.window :]
                prot = self._protected(state.norm.text, tuple(t.content for t in window))
            state = self._guarded(prot, state, new, m.id)
        return self._finish(state)

    # -- stage 3: guards ------------------------------------------------------------------------

    def _guarded(self, prot: Protected, old: State, new: State, mode_id: str) -> State:
        q = old.query
        accepted = new.scratch.get("accepted_terms")  # typo corrections the mode vouches for
        if accepted:
            prot = replace(prot, expansions=prot.expansions | accepted)
        # a negation a structural mode neutralised (rhetorical 难道…不…吗) stays dropped in every
        # text derived later from its standalone (expansions of it, sub-queries)
        allow = new.allowed_negation_drops | new.scratch.get("neutralised_negations", frozenset())
        if new.standalone != old.standalone:
            why = self.guards.check(prot, q, new.standalone, allowed_negation_drops=allow)
            if why:
                return self._reject(old, new, mode_id, new.standalone, why)
        if new.subqueries != old.subqueries and new.subqueries:
            for sq in new.subqueries:
                why = self.guards.check(prot, q, sq, partial=True, allowed_negation_drops=allow)
                if why:
                    return self._reject(old, new, mode_id, sq, why)
            why = self.guards.check_cover(prot, new.subqueries)
            if why:
                return self._reject(old, new, mode_id, " | ".join(new.subqueries), why)
        if new.variants != old.variants:
            kept: list[RewrittenQuery] = list(old.variants)
            trace = list(new.trace)
            for v in new.variants[len(old.variants) :]:
                why = self.guards.check(prot, q, v.text, allowed_negation_drops=allow)
                if why:
                    trace.append(
                        Step(mode_id, "guard", new.standalone, v.text, None, "rejected", why)
                    )
                else:
                    kept.append(v)
            new = new.evolve(variants=tuple(kept), trace=tuple(trace))
        if not new.allowed_negation_drops:
            return new  # nothing to reset: the copy would equal ``new`` field for field
        return new.evolve(allowed_negation_drops=frozenset())

    @staticmethod
    def _reject(old: State, new: State, mode_id: str, produced: str, why: str) -> State:
        step = Step(mode_id, "guard", old.standalone, produced, None, "rejected", why)
        skipped = mode_id in STRUCTURAL and mode_id != "normalize"
        return replace(
            old, trace=(*old.trace, step), rewrite_skipped=old.rewrite_skipped or skipped
        )

    # -- stage 4: assemble ----------------------------------------------------------------------

    def _zero(self, query: str, ck: Checklist) -> RewriteResult:
        """:meth:`_finish` of the untouched state, without building it: what the pipeline
        returns when the checklist finds no mode to run (tests/test_checklist_fastpath.py
        compares the two on every golden case and a sample of the benchmark log)."""
        label, cached_hints, kept = self._analysis(ck.norm.text, query)
        return build_result(
            query,  # original_query
            query,  # standalone
            "search",  # decision
            None,  # clarification
            (),  # missing_fields
            False,  # rewrite_skipped
            (),  # modes
            label,  # intent
            dict(cached_hints),  # filter_hints (the memoised dict is never handed out)
            1.0,  # confidence
            False,  # escalate
            (new_query(query, "original"),),  # queries
            (),  # rewritten_queries
            kept,  # must_keep_entities
            (),  # conditions
            (),  # resolved_context
            (),  # assumptions
            () if ck.note is None else (ck.note,),  # trace: the precise pattern's note
        )

    def _finish(self, state: State) -> RewriteResult:
        label, cached_hints, kept = self._analysis(state.norm.text, state.query)
        hints = dict(cached_hints)  # the memoised dict is never handed out
        if state.intent != "其他":
            label, hints = state.intent, state.filter_hints or hints
        must_keep = state.must_keep or kept
        original = state.query
        asks = state.decision == "ask_user"
        if asks or (state.standalone == original and not state.subqueries and not state.variants):
            # only the original goes out: the user is asked, or nothing changed (zero-rewrite)
            return build_result(
                original,  # original_query
                original,  # standalone
                "ask_user" if asks else "search",  # decision
                state.clarification if asks else None,
                state.missing_fields,
                state.rewrite_skipped,
                state.modes if asks else (),  # modes: nothing changed the query
                label,  # intent
                hints,  # filter_hints
                state.confidence,
                asks or state.rewrite_skipped or state.confidence < 0.5,  # escalate
                (new_query(original, "original"),),  # queries
                (),  # rewritten_queries
                must_keep,  # must_keep_entities
                state.conditions,
                state.resolved_context,
                state.assumptions,
                state.trace,
            )
        structural = tuple(m for m in state.modes if m != "expand")
        rewrites: list[RewrittenQuery] = []
        seen = {self._key(original)}

        def push(text: str, modes: tuple[str, ...]) -> None:
            k = self._key(text)
            if text and k not in seen:
                seen.add(k)
                rewrites.append(new_rewritten(text, modes))

        if state.standalone != original:
            push(state.standalone, structural)
        for sq in state.subqueries[: self.config.max_subqueries]:
            push(sq, structural)
        n_struct = len(rewrites)
        room = max(self.config.max_queries - 1 - n_struct, 0)
        for v in state.variants:
            if len(rewrites) - n_struct >= room:
                break
            push(v.text, v.modes)
        queries = (
            new_query(original, "original"),
            *(new_query(r.text, f"rewrite_{i}") for i, r in enumerate(rewrites, 1)),
        )
        modes = state.modes if rewrites or state.standalone != original else ()
        confidence = state.confidence
        escalate = state.rewrite_skipped or confidence < 0.5
        return build_result(
            original,  # original_query
            state.standalone,
            "search",  # decision
            None,  # clarification
            state.missing_fields,
            state.rewrite_skipped,
            modes,
            label,  # intent
            hints,  # filter_hints
            confidence,
            escalate,
            queries,
            tuple(rewrites),  # rewritten_queries
            must_keep,  # must_keep_entities
            state.conditions,
            state.resolved_context,
            state.assumptions,
            state.trace,
        )

    @staticmethod
    def _key(text: str) -> str:
        """Dedup key: exact text up to spacing and final punctuation (a simplified-script or
        half-width version of the query is a different query for a retriever)."""
        return "".join(text.split()).rstrip("?？.。!！~～")

    def _must_keep_of(self, norm: NormText, matches: Sequence[Match]) -> tuple[str, ...]:
        out: list[str] = []
        for m in matches:
            if any(e.kind == "entity" for e in m.entries):
                out.append(norm.original_slice(m.start, m.end))
        if not any(map(str.isdigit, norm.text)):
            return tuple(dict.fromkeys(out))
        spans = [(m.start, m.end) for m in matches if not m.kinds() <= _FUNCTION_KINDS]
        for _kind, pat, _src in self.guards.patterns:
            for mm in pat.finditer(norm.text):
                s, e = mm.span()
                if any(a <= s and e <= b for a, b in spans):
                    continue
                spans.append((s, e))
                out.append(norm.original_slice(s, e))
        return tuple(dict.fromkeys(out))


def _union(patterns: Iterable[re.Pattern[str]]) -> re.Pattern[str] | None:
    """One alternation that fullmatches exactly when one of ``patterns`` does, or None when the
    patterns cannot be joined safely (groups, back-references or flags of their own)."""
    pats = list(patterns)
    if not pats or any(p.groupindex or p.flags != re.UNICODE for p in pats):
        return None
    if any(re.search(r"\\\d|\(\?P=|\(\?[aiLmsux-]", p.pattern) for p in pats):
        return None
    try:
        return re.compile("|".join(f"(?:{p.pattern})" for p in pats))
    except re.error:
        return None
