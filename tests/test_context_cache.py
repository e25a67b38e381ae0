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


def test_a_lazy_window_analyses_no_turn_until_it_is_read() -> None:
    # the multi-turn modes build the window lazily: a mode that returns before looking at the
    # history (nothing to resolve in the query) costs no segmentation, parse or mentions
    lex = Lexicon.load(domains=[])
    ca = ContextAnalyzer(lex)
    hist = parse_history(CHAT)
    lazy = ca.dialogue(hist, lazy=True)
    assert not lazy.analysed
    assert ca._analyze_said.cache_info().misses == 0
    assert ca.parser.parse.cache_info().misses == 0  # type: ignore[attr-defined]
    turns = lazy.turns  # the first read analyses the window
    assert lazy.analysed and ca._analyze_said.cache_info().misses == len(CHAT)
    assert lazy.turns is turns  # once
    eager = ContextAnalyzer(lex).dialogue(hist)
    assert eager.analysed and lazy == eager and lazy.dropped == eager.dropped
    assert [m.text for m in lazy.mentions()] == [m.text for m in eager.mentions()]


def test_the_modes_window_is_lazy_and_equals_the_eager_one() -> None:
    from rulerewrite import Rewriter
    from rulerewrite.modes.multiturn import MultiTurn

    rw = Rewriter(domains=[])
    state = rw.pipeline.initial_state("那深圳呢", parse_history(CHAT))
    mt = next(m.mt for m in rw.pipeline.modes if isinstance(getattr(m, "mt", None), MultiTurn))
    d = mt.dialogue(state)
    assert not d.analysed and mt.dialogue(state) is d  # one window per rewrite, not yet read
    assert d == ContextAnalyzer(rw.lexicon).dialogue(parse_history(CHAT))


def test_window_memos_equal_a_fresh_computation() -> None:
    # shared_spans remembers every pair of turn texts it compared (also pairs with nothing in
    # common), hinted_types and the attribute test remember their answer per text: a second,
    # memoised answer equals the first, and a caller changing the returned list changes no memo
    from rulerewrite import Rewriter
    from rulerewrite.modes.multiturn import MultiTurn

    chat = [*CHAT, {"role": "user", "content": "报销单据的审批人是谁"}]
    rw = Rewriter(domains=[])
    mt = next(m.mt for m in rw.pipeline.modes if isinstance(getattr(m, "mt", None), MultiTurn))
    d = ContextAnalyzer(rw.lexicon).dialogue(parse_history(chat))
    first = mt.shared_spans(d)
    texts = [ti.turn.content for ti in d.turns]
    assert (texts[0], texts[1]) in mt._shared_pair  # 北京和上海哪个冷 / 北京更冷
    assert (texts[1], texts[3]) in mt._shared_pair  # nothing in common: remembered as None
    assert mt._shared_pair[(texts[1], texts[3])] is None
    assert mt.shared_spans(d) == first
    mt.clear_memos()
    assert mt.shared_spans(d) == first
    hints = mt.hinted_types("保修多久")
    hints.append(("poison", "x"))
    assert mt.hinted_types("保修多久") == hints[:-1]
    assert mt.attribute_of("报销单据的审批人") == mt._attribute_of_uncached("报销单据的审批人")
