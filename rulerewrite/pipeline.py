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
from typing import Any

from rulerewrite.config import RewriterConfig
from rulerewrite.context import Turn
from rulerewrite.guards import _FUNCTION_KINDS, Guards, Protected
from rulerewrite.intent import IntentClassifier
from rulerewrite.lexicon import Lexicon, Match
from rulerewrite.modes.base import MODE_ORDER, Features, Mode, State, build_modes
from rulerewrite.result import Query, RewriteResult, RewrittenQuery, Step, build_result
from rulerewrite.text.normalize import NormText

# every mode but expand changes the query itself (expand only adds variants)
STRUCTURAL = tuple(m for m in MODE_ORDER if m != "expand")


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
        self._analysis = functools.lru_cache(maxsize=16384)(self._analysis_uncached)

    def _protected_uncached(self, norm_text: str, history: tuple[str, ...]) -> Protected:
        matches = self.lexicon.match(self.lexicon.normalizer(norm_text))
        return self.guards.protected(norm_text, matches, list(history))

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
            has_history=bool(history),
        )
        state = State.start(query, norm, matches, feats, history)
        if precise_rule is not None:
            state = state.note("checklist", precise_rule, "precise query: never rewritten")
        return state

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
        state = self.initial_state(query, history)
        if state.features.precise:
            return self._finish(state)
        # each mode's cheap ``applies`` is the checklist; none true -> the loop changes nothing and
        # the query returns untouched (a separate any() pre-pass would run every applies twice)
        prot: Protected | None = None
        for m in self.modes:
            if not m.applies(state):
                continue
            new = m(state)
            if new is state:
                continue
            if prot is None:
                prot = self._protected(state.norm.text, tuple(t.content for t in history))
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
        return new.evolve(allowed_negation_drops=frozenset())

    @staticmethod
    def _reject(old: State, new: State, mode_id: str, produced: str, why: str) -> State:
        step = Step(mode_id, "guard", old.standalone, produced, None, "rejected", why)
        skipped = mode_id in STRUCTURAL and mode_id != "normalize"
        return replace(
            old, trace=(*old.trace, step), rewrite_skipped=old.rewrite_skipped or skipped
        )

    # -- stage 4: assemble ----------------------------------------------------------------------

    def _finish(self, state: State) -> RewriteResult:
        label, cached_hints, kept = self._analysis(state.norm.text, state.query)
        hints = dict(cached_hints)  # the memoised dict is never handed out
        if state.intent != "其他":
            label, hints = state.intent, state.filter_hints or hints
        must_keep = state.must_keep or kept
        original = state.query
        if state.decision == "ask_user":
            return build_result(
                original,  # original_query
                original,  # standalone
                "ask_user",  # decision
                state.clarification,
                state.missing_fields,
                state.rewrite_skipped,
                state.modes,
                label,  # intent
                hints,  # filter_hints
                state.confidence,
                True,  # escalate
                (Query(original, "original"),),  # queries
                (),  # rewritten_queries
                must_keep,  # must_keep_entities
                state.conditions,
                state.resolved_context,
                state.assumptions,
                state.trace,
            )
        if state.standalone == original and not state.subqueries and not state.variants:
            # nothing beyond the original goes to retrieval (the zero-rewrite path)
            return build_result(
                original,  # original_query
                original,  # standalone
                "search",  # decision
                None,  # clarification
                state.missing_fields,
                state.rewrite_skipped,
                (),  # modes: nothing changed
                label,  # intent
                hints,  # filter_hints
                state.confidence,
                state.rewrite_skipped or state.confidence < 0.5,  # escalate
                (Query(original, "original"),),  # queries
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
                rewrites.append(RewrittenQuery(text, modes))

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
            Query(original, "original"),
            *(Query(r.text, f"rewrite_{i}") for i, r in enumerate(rewrites, 1)),
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
