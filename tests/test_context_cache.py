"""The history analysis is done once per turn of a conversation (issue 5: "parses of history
turns are cached per conversation so a turn is analysed once"), also when the caller sends only
the last messages (every turn moves in the window) and when the query of one call comes back as
a history turn of the next; the reused analysis equals a fresh one."""

from __future__ import annotations

from rulerewrite.context import ContextAnalyzer, parse_history
from rulerewrite.lexicon import Lexicon

CHAT = [
    {"role": "user", "content": "北京和上海哪个冷"},
    {"role": "assistant", "content": "北京更冷"},
    {"role": "user", "content": "那广州呢"},
    {"role": "assistant", "content": "广州暖和，冬天很少低于十度"},
]


def test_a_turn_that_moves_in_the_window_is_not_analysed_again() -> None:
    lex = Lexicon.load(domains=[])
    ca = ContextAnalyzer(lex)
    ca.dialogue(parse_history(CHAT[:3]))
    analysed = ca._analyze_said.cache_info().misses
    # the next call sends the last three messages only: each earlier turn is one place lower
    shifted = ca.dialogue(parse_history(CHAT[1:]))
    assert ca._analyze_said.cache_info().misses == analysed + 1  # only the new answer
    fresh = ContextAnalyzer(lex).dialogue(parse_history(CHAT[1:]))
    assert shifted == fresh
    assert [(m.text, m.turn, m.role) for m in shifted.mentions()] == [
        (m.text, m.turn, m.role) for m in fresh.mentions()
    ]
    assert {m.turn for m in shifted.mentions()} <= {0, 1, 2}


def test_the_query_parsed_in_one_call_is_not_parsed_again_as_a_history_turn() -> None:
    ca = ContextAnalyzer(Lexicon.load(domains=[]))
    query = "那广州冬天冷吗"
    ca.parser.parse(query)  # the multi-turn modes parse the query with the analyzer's parser
    parsed = ca.parser.parse.cache_info().misses  # type: ignore[attr-defined]
    ca.dialogue(parse_history([*CHAT, {"role": "user", "content": query}]))
    # the four earlier turns are new to this analyzer; the query's text is not parsed again
    assert ca.parser.parse.cache_info().misses == parsed + 4  # type: ignore[attr-defined]
