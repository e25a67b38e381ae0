"""expand: synonym, alias and colloquial variants as *extra* queries (multi-path retrieval)."""

from __future__ import annotations

from typing import Any

from rulerewrite.lexicon import Lexicon, Match
from rulerewrite.modes.base import State, mode
from rulerewrite.result import RewrittenQuery, Step

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

    def __init__(self, lexicon: Lexicon, config: Any) -> None:
        self.lexicon = lexicon
        self.max_variants = max(config.max_queries, 1) * 2
        self.strip_words = sorted(
            {e.text for e in lexicon.entries if e.kind in ("demonstrative", "fw:filler")}
            | {"这玩意", "这东西", "这个东西", "那玩意", "这"},
            key=len,
            reverse=True,
        )

    def applies(self, state: State) -> bool:
        return not _EXPANDING.isdisjoint(state.features.kinds)

    def __call__(self, state: State) -> State:
        base_texts = [state.standalone, *state.subqueries]
        seen = {state.query, *base_texts, *(v.text for v in state.variants)}
        variants = list(state.variants)
        trace = list(state.trace)
        produced = False
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
        return state.evolve(variants=tuple(variants), trace=tuple(trace), modes=modes)

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
