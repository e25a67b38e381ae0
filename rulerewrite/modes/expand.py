"""expand: synonym, alias and colloquial variants as *extra* queries (multi-path retrieval)."""

from __future__ import annotations

from typing import Any, ClassVar

from rulerewrite.lexicon import Lexicon, Match
from rulerewrite.modes.base import State, mode
from rulerewrite.result import RewrittenQuery, Step
from rulerewrite.typo import TypoCorrector

_EXPANDING = frozenset({"alias", "synonym", "synonym_canonical", "colloquial"})
_STRIP_EDGE = " ,，、?？!！。.~"


@mode("expand")
class Expand:
    """What: for every alias (k8s → Kubernetes), synonym (退 → 退保 / 退费) and colloquial
    phrasing (这玩意能退不 → 退保条件 / 退保金额) in the query, add a variant query with the
    dictionary form in place of the user's words. The user's own query is never replaced.
    Why: documents use the canonical vocabulary; a second path finds them while the original
    path keeps whatever the user's wording finds. Blocking words stop false triggers
    (退 inside 退休 never fires).
    Example: ``k8s 怎么看 pod 日志`` -> extra query ``Kubernetes 怎么看 pod 日志``.
    """

    # ``applies`` reads the query's own features (never ``standalone``): after an earlier mode
    # changed the state, the pipeline reuses the checklist's answer (modes/base.py)
    reads_standalone: ClassVar[bool] = False

    def __init__(self, lexicon: Lexicon, config: Any) -> None:
        self.lexicon = lexicon
        self.max_variants = max(config.max_queries, 1) * 2
        self.strip_words = sorted(
            {e.text for e in lexicon.entries if e.kind in ("demonstrative", "fw:filler")}
            | {"这玩意", "这东西", "这个东西", "那玩意", "这"},
            key=len,
            reverse=True,
        )
        # typos and alias spellings (rulerewrite/typo.py): one extra corrected query
        self.typo = TypoCorrector(lexicon)
        _ = self.typo.homophones  # build (or load from the cache) now, not on the first query

    def applies(self, state: State) -> bool:
        return not _EXPANDING.isdisjoint(state.features.kinds) or self.typo.may_apply(
            state.norm.text, state.matches
        )

    def __call__(self, state: State) -> State:
        base_texts = [state.standalone, *state.subqueries]
        seen = {state.query, *base_texts, *(v.text for v in state.variants)}
        variants = list(state.variants)
        trace = list(state.trace)
        produced = False
        accepted: set[str] = set()
        fixed = self._corrected(state, trace, accepted)
        if fixed and fixed not in seen:
            seen.add(fixed)
            variants.append(RewrittenQuery(fixed, ("expand",)))
            produced = True
        for base in base_texts:
            nt = self.lexicon.normalizer(base)
            for m in self.lexicon.match(nt):
                if _EXPANDING.isdisjoint(m.kinds()):
                    continue
                s, e = nt.to_original(m.start, m.end)
                for target, entry_src, kind in self._targets(m):
                    if kind == "colloquial":
                        text = self._colloquial(base[:s], target, base[e:])
                    else:
                        text = base[:s] + _join(base[:s], target, base[e:]) + base[e:]
                    text = text.strip()
                    if not text or text in seen:
                        continue
                    seen.add(text)
                    variants.append(RewrittenQuery(text, ("expand",)))
                    trace.append(
                        Step(
                            "expand",
                            entry_src,
                            base,
                            text,
                            None,
                            "applied",
                            f"{kind}: {base[s:e]} -> {target}",
                        )
                    )
                    produced = True
                    if len(variants) >= self.max_variants:
                        break
        if not produced:
            return state
        modes = state.modes if "expand" in state.modes else (*state.modes, "expand")
        scratch = (
            {**state.scratch, "accepted_terms": frozenset(accepted)} if accepted else state.scratch
        )
        return state.evolve(
            variants=tuple(variants),
            trace=tuple(trace),
            modes=modes,
            scratch=scratch,
        )

    def _corrected(self, state: State, trace: list[Step], accepted: set[str]) -> str | None:
        """The standalone query with its typos / alias spellings corrected (None: none)."""
        base = state.standalone
        if base == state.query:  # the common case: reuse the automaton pass of the checklist
            nt, matches = state.norm, list(state.matches)
        else:
            nt = self.lexicon.normalizer(base)
            matches = self.lexicon.match(nt)
        if not self.typo.may_apply(nt.text, matches):
            return None
        corrections = self.typo.find(nt, matches)
        if not corrections:
            return None
        text = base
        for c in reversed(corrections):
            text = (
                text[: c.start]
                + _join(text[: c.start], c.replacement, text[c.end :])
                + text[c.end :]
            )
            accepted.add(self.lexicon.normalizer(c.replacement).text)
        text = text.strip()
        for c in corrections:
            trace.append(Step("expand", c.source, base, text, None, "applied", c.note))
        return text if text != base else None

    @staticmethod
    def _targets(m: Match) -> list[tuple[str, str, str]]:
        out: list[tuple[str, str, str]] = []
        for e in m.entries:
            if e.kind in ("alias", "synonym") and e.canonical:
                out.append((e.canonical, e.source, e.kind))
            elif e.kind in ("synonym_canonical", "colloquial"):
                out.extend((t, e.source, e.kind) for t in e.targets)
        return out

    def _colloquial(self, left: str, target: str, right: str) -> str:
        """Replace a colloquial phrase; drop a bare demonstrative/filler left behind (这玩意)."""
        left = left.rstrip(_STRIP_EDGE)
        for w in self.strip_words:
            if left.endswith(w) and (len(left) == len(w) or not left[: -len(w)].strip(_STRIP_EDGE)):
                left = left[: -len(w)]
                break
        left = left.strip(_STRIP_EDGE)
        right = right.strip(_STRIP_EDGE)
        parts = [p for p in (left, target, right) if p]
        return " ".join(parts)


def _join(left: str, target: str, right: str) -> str:
    """Put spaces around a Latin replacement when it would touch other Latin letters."""
    out = target
    if (
        left
        and left[-1].isascii()
        and left[-1].isalnum()
        and target[:1].isascii()
        and target[:1].isalnum()
    ):
        out = " " + out
    if (
        right
        and right[0].isascii()
        and right[0].isalnum()
        and target[-1:].isascii()
        and target[-1:].isalnum()
    ):
        out = out + " "
    return out
