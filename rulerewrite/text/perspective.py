"""What a speaker said, as the other speaker would say it.

What: :func:`user_side` turns what the assistant said into the user's words (你 / 您 become 我,
the assistant's opening 我 goes, a 我 inside the sentence becomes 你).
Why: a reply that repeats the assistant's question or offer from the user's side (我可以教你 /
可以 -> 可以教我; 你会想我吗 / 会 -> 会想你) must say it as the user would, and the guards must
read the history that way too, or they take 想你 for an invention.
Example: ``user_side("你会想我吗") == "我会想你吗"``.
"""

from __future__ import annotations

import re

# the speaker words user_side swaps (我们 / 我家 matched first so that they stay whole)
_SPEAKERS = re.compile("我们|我家|我|你|您")
_SWAPPED = {"我": "你", "你": "我", "您": "我"}


def user_side(text: str) -> str:
    """What the assistant said (``text``) seen from the user's side: 你 / 您 become 我, the
    assistant's 我 as the opening subject goes (我教你 -> 教我), and a 我 inside the sentence
    becomes 你 (帮我拿一下 -> 帮你拿一下; 我们 / 我家 inside stay). Why: deleting every 我 (the
    old translation) broke the sentence (需要我教你 -> 需要教我)."""
    head = text[1:] if text.startswith("我") and not text.startswith(("我们", "我家")) else text
    return _SPEAKERS.sub(lambda m: _SWAPPED.get(m.group(), m.group()), head)
