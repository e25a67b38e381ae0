"""normalize: the user's text in canonical form (width, script, spacing, leading fillers)."""

from __future__ import annotations

import re
import unicodedata
from typing import Any, ClassVar

from rulerewrite.lexicon import Lexicon
from rulerewrite.modes.base import State, mode
from rulerewrite.result import Step

_BOUND = frozenset("的得地了过着")
_WS = re.compile(r"\s+")
# Full-width letters and digits (and the ideographic space) become half width; Chinese
# punctuation is left as the user typed it (it changes nothing for retrieval).
# A full-width dot between digits is a decimal point (８．０ -> 8.0), not punctuation.
_FULLWIDTH = re.compile(
    r"[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a\u3000]|(?<=[0-9\uff10-\uff19])\uff0e(?=[0-9\uff10-\uff19])"
)
_REPEAT_PUNCT = re.compile(r"([?？!！。，,])\1+")


@mode("normalize")
class Normalize:
    """What: turn full-width letters/digits into half width, traditional characters into
    simplified, collapse runs of spaces and repeated punctuation, and drop a leading filler
    (请问 / 呃 / 我想问一下 ...) when a question follows it.
    Why: the knowledge base is written in simplified Chinese with half-width digits; ``ｉＰｈｏｎｅ１５``
    or 這個保險 would miss documents a clean query finds. The user's casing is kept.
    Example: ``請問，ｉＰｈｏｎｅ１５ 保修多久？？`` -> ``iPhone15 保修多久?``
    """

    # ``applies`` reads the query's own features (never ``standalone``): after an earlier mode
    # changed the state, the pipeline reuses the checklist's answer (modes/base.py)
    reads_standalone: ClassVar[bool] = False

    def __init__(self, lexicon: Lexicon, config: Any) -> None:
        self.lexicon = lexicon
        norm = lexicon.normalizer
        self.to_simplified = norm.to_simplified
        fillers = {e.text: e.source for e in lexicon.entries_of("fw:filler")}
        fillers.update({e.text: e.source for e in lexicon.entries_of("fw:polite")})
        # a polite opener (请问 / 我想问一下) goes even without a comma after it; any other filler
        # (就是 / 嗯 / 话说) only when punctuation or a space follows: 就是个玩笑 keeps its 就是
        self.polite = frozenset(e.text for e in lexicon.entries_of("fw:polite"))
        # 那个 is both a filler and a demonstrative: only strip fillers that are nothing else.
        other = {e.text for e in lexicon.entries if e.kind in ("demonstrative", "pronoun")}
        self.fillers = sorted(
            ((f, s) for f, s in fillers.items() if f not in other), key=lambda x: -len(x[0])
        )

    def applies(self, state: State) -> bool:
        q = state.query
        return (
            (
                not q.isascii()
                and (not unicodedata.is_normalized("NFKC", q) or self.to_simplified(q) != q)
            )
            or "  " in q
            or bool(_REPEAT_PUNCT.search(q))
            or "fw:filler" in state.features.kinds
            or "fw:polite" in state.features.kinds
        )

    def __call__(self, state: State) -> State:
        before = state.standalone
        text = _FULLWIDTH.sub(lambda m: unicodedata.normalize("NFKC", m.group()), before)
        text = self.to_simplified(text)
        text = _WS.sub(" ", text).strip()
        text = _REPEAT_PUNCT.sub(r"\1", text)
        rule = "normalize:nfkc+t2s"
        stripped = True
        while stripped:  # 呃，请问… : every leading filler goes, so a second pass changes nothing
            stripped = False
            for f, src in self.fillers:
                if text.startswith(f):
                    after = text[len(f) : len(f) + 1]
                    rest = text[len(f) :].lstrip(" ,，、:：~～")
                    # 话说的太早: a particle right after it makes the opener part of the sentence
                    freed = (f in self.polite and after not in _BOUND) or (
                        after != "" and after in " ,，、:：~～"
                    )
                    if freed and len(rest) >= 2:
                        text, rule, stripped = rest, src, True
                    break
        if text == before or not text:
            return state
        return state.with_step(Step("normalize", rule, before, text), standalone=text)
