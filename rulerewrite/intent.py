"""Rule-based intent classification from dictionary keyword features."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulerewrite.lexicon import Lexicon, Match

DEFAULT_INTENT = "其他"


class IntentClassifier:
    """What: vote over the intent keywords (and colloquial patterns' intents) found in the query;
    the label with most votes wins, ties going to the longer keyword, then the pack order.
    Why: a label lets the caller add metadata filters (费用查询 → category: 费用).
    Example: ``退保要扣多少钱`` -> ``费用查询`` (多少钱).
    """

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon
        self.order = {label: i for i, label in enumerate(lexicon.intents)}

    def classify(self, matches: Sequence[Match]) -> tuple[str, dict[str, Any]]:
        score: dict[str, tuple[int, int]] = {}
        for m in matches:
            for e in m.entries:
                if e.intent and (e.kind == "intent" or e.kind == "colloquial"):
                    n, ln = score.get(e.intent, (0, 0))
                    score[e.intent] = (n + 1, max(ln, m.end - m.start))
        if not score:
            return DEFAULT_INTENT, {}
        label = max(score, key=lambda k: (score[k][0], score[k][1], -self.order.get(k, 99)))
        it = self.lexicon.intents.get(label)
        return label, (dict(it.filters) if it else {})
