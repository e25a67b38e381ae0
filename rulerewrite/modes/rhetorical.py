"""rhetorical: 反问识别 — a rhetorical or complaint question becomes the neutral information need."""

from __future__ import annotations

import re
from typing import Any

from rulerewrite.lexicon import Lexicon, Match, Rule
from rulerewrite.modes.base import State, mode
from rulerewrite.result import Step

# Clause ends: a rhetorical marker is interpreted inside its own clause only.
_CLAUSE = re.compile(r"([^?？!！。;；]+)([?？!！。;；]*)")
_FIELD = re.compile(r"\{(\w+)\}")


@mode("rhetorical")
class Rhetorical:
    """What: recognise 难道…吗, 不是…吗, 岂不是, 何必, 怎么能…呢, 凭什么, 还不…吗, 说好的…呢 and
    rewrite the clause into the neutral question the speaker needs answered, with the polarity
    right: ``难道X不能Y吗`` believes X *can* Y, so the need is ``X能否Y``; ``凭什么不给我报销``
    complains about a refusal, so the refusal stays (``为什么不给我报销``).
    Why: the rhetorical negation inverts the literal meaning; retrieving with it finds the
    opposite rules (``不能全额退款`` …). Genuine negated questions carry no rhetorical marker
    (哪些情况不能退保, 为什么不能退保) and keep their negation: this mode does not touch them.
    Rules live in ``rules/rhetorical.yaml`` (pattern + template, first match per clause wins);
    the negation a rule neutralises is granted to the guard for this step only.
    Example: ``难道犹豫期内退保不能全额退款吗`` -> ``犹豫期内退保能否全额退款``.
    """

    def __init__(self, lexicon: Lexicon, config: Any) -> None:
        self.lexicon = lexicon
        self.forms: dict[str, str] = {}
        self.rules: list[Rule] = []
        self.service_kinds: frozenset[str] = frozenset({"entity", "alias", "canonical"})
        self.service_skip: frozenset[str] = frozenset()
        self.service_min_len = 1
        self.service_turns = 6
        for r in lexicon.rules.get("rhetorical", ()):
            if r.id == "service_talk":
                self.service_kinds = frozenset(map(str, r.get("kinds") or self.service_kinds))
                self.service_skip = frozenset(map(str, r.get("skip_etypes") or ()))
                self.service_min_len = int(r.get("min_len") or 1)
                self.service_turns = int(r.get("turns") or 6)
                continue
            forms = r.get("forms")
            if isinstance(forms, dict):
                self.forms.update({str(k): str(v) for k, v in forms.items()})
            if r.pattern is not None and r.get("template"):
                self.rules.append(r)
        markers: set[str] = set()
        for r in self.rules:
            markers.update(_literal_markers(r.pattern.pattern if r.pattern else ""))
        self.negations = sorted(
            {e.text for e in lexicon.entries_of("negation")}, key=len, reverse=True
        )
        # one precompiled search decides whether the mode can act (the checklist test)
        self.trigger = (
            re.compile("|".join(sorted((re.escape(m) for m in markers), key=len, reverse=True)))
            if markers
            else None
        )

    def applies(self, state: State) -> bool:
        return self.trigger is not None and self.trigger.search(state.standalone) is not None

    def __call__(self, state: State) -> State:
        before = state.standalone
        if state.history and not self._service_talk(state):
            # 你不是妹纸吗 / 那岂不是很无聊 in an open-domain chat: banter, not a complaint to
            # neutralise for retrieval; the user's words are kept
            return state
        pieces: list[str] = []
        fired: list[Rule] = []
        dropped: set[str] = set()
        for m in _CLAUSE.finditer(before):
            clause, punct = m.group(1), m.group(2)
            new = self._rewrite_clause(clause, fired, dropped)
            if new is None:
                pieces.append(clause + punct)
            else:
                # a neutral question keeps a question mark; an exclamation becomes one
                pieces.append(new + ("?" if punct and punct[0] in "!！" else punct))
        if not fired:
            return state
        after = "".join(pieces).strip()
        if not after or after == before:
            return state
        rule = fired[0].source if len(fired) == 1 else ", ".join(r.source for r in fired)
        note = "rhetorical " + ", ".join(r.id for r in fired)
        if dropped:
            note += f"; neutralised negation {sorted(dropped)}"
        step = Step("rhetorical", rule, before, after, None, "applied", note)
        drops = frozenset(dropped)
        scratch = {
            **state.scratch,
            "neutralised_negations": drops
            | state.scratch.get("neutralised_negations", frozenset()),
        }
        return state.with_step(
            step, standalone=after, allowed_negation_drops=drops, scratch=scratch
        )

    def _service_talk(self, state: State) -> bool:
        """Does the query or the last exchange use a domain pack's term (退保, 发货,
        Kubernetes ...; kinds, skipped entity types and window from the ``service_talk`` rule)?
        A chat with none of them is open-domain small talk."""
        if any(self._domain_term(m) for m in state.matches):
            return True
        for turn in state.history[-self.service_turns :]:
            if any(
                self._domain_term(m)
                for m in self.lexicon.match(self.lexicon.normalizer(turn.content))
            ):
                return True
        return False

    def _domain_term(self, m: Match) -> bool:
        if m.end - m.start < self.service_min_len:
            return False
        return any(
            e.pack != "general"
            and e.kind in self.service_kinds
            and e.etype not in self.service_skip
            for e in m.entries
        )

    def _rewrite_clause(self, clause: str, fired: list[Rule], dropped: set[str]) -> str | None:
        if self.trigger is None or not self.trigger.search(clause):
            return None
        lead = len(clause) - len(clause.lstrip())
        body = clause.strip()
        for r in self.rules:
            assert r.pattern is not None
            mm = r.pattern.search(body)
            if mm is None:
                continue
            groups = {k: (v or "") for k, v in mm.groupdict().items()}
            v = groups.get("v", "")
            groups["vq"] = self.forms.get(v, f"是否{v}" if v else "是否")
            out = _fill(str(r.get("template")), groups)
            out = _tidy(out)
            if not out or out == body:
                continue
            removed = groups.get("mk", "") + groups.get("neg", "") + v
            dropped.update(w for w in self.negations if w in removed)
            if groups.get("neg"):  # 不赔 / 不能 counted as one negation word by the guard
                at = mm.start("neg")
                dropped.update(w for w in self.negations if body.startswith(w, at))
            fired.append(r)
            return clause[:lead] + out
        return None


def _fill(template: str, groups: dict[str, str]) -> str:
    return _FIELD.sub(lambda g: groups.get(g.group(1), ""), template)


def _tidy(text: str) -> str:
    """Collapse doubled glue a template can produce (是否是否, 的的) and stray commas."""
    text = re.sub(r"(是否)+", "是否", text)
    text = text.replace("是否是否", "是否").replace("的的", "的")
    text = re.sub(r"^[,，\s]+|[,，\s]+$", "", text)
    return text


def _literal_markers(pattern: str) -> set[str]:
    """The literal alternatives of a rule's ``(?P<mk>...)`` group (its trigger words)."""
    m = re.search(r"\(\?P<mk>([^()]*)\)", pattern)
    if not m:
        return set()
    out = set()
    for w in m.group(1).split("|"):
        w = w[:-2] if w.endswith("?") else w
        if w and not re.search(r"[\\\[\].*+?]", w):
            out.add(w)
    return out
