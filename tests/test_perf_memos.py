"""The second round of speed-ups gives what the plain code gives.

- ``Pipeline`` memoises a mode's ``applies`` on states an earlier mode changed, per (mode, query,
  standalone, has_history), and reuses the checklist's answer for modes that declare
  ``reads_standalone = False``: every memo entry equals ``applies`` asked afresh, the declared
  modes answer the same whatever the standalone text, and ``clear_memos`` (called by the
  benchmark's ``memo_clearer``) empties the memo.
- The guards' history check grows each history run instead of shrinking it from the end, and
  finds the edit region by halving slices: both equal the character-by-character reference.
- ``MultiTurn``'s hinted-type sets and the guards' joined windows are memoised: equal to fresh.
"""

from __future__ import annotations

import contextlib
import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from rulerewrite.context import Turn, parse_history
from rulerewrite.guards import (
    Guards,
    _common_prefix,
    _common_suffix,
    _from_history,
    _Said,
    _strip_history,
)
from rulerewrite.modes.base import State
from rulerewrite.modes.multiturn import MultiTurn
from rulerewrite.pipeline import Pipeline
from rulerewrite.text.normalize import clean_query

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from test_checklist_fastpath import golden_inputs, log_inputs  # noqa: E402

sys.path.pop(0)


def _fresh_state(pipe: Pipeline, query: str, standalone: str, has_history: bool) -> State:
    """A state of ``query`` with ``standalone`` as an earlier mode left it, built without memos."""
    norm = pipe.lexicon.normalizer(query)
    ck = pipe._checklist_uncached(query, has_history)
    history = (Turn(0, "user", "之前的问题"),) if has_history else ()
    state = State.start(query, norm, ck.matches, ck.features, history)
    return state.evolve(standalone=standalone)


def _run_all(rewriter: Any, inputs: list[tuple[str, list[Any]]]) -> None:
    for raw, hist in inputs:
        q = clean_query(raw)
        if q and len(q) <= rewriter.config.max_length:
            rewriter.rewrite(q, hist)


def test_applies_memo_equals_applies_asked_afresh(rewriter: Any) -> None:
    pipe: Pipeline = rewriter.pipeline
    pipe.clear_memos()
    _run_all(rewriter, golden_inputs() + log_inputs(1500))
    memo = dict(pipe._applies)
    assert len(memo) >= 200  # changed states were met and their answers kept
    assert any(memo.values()) and not all(memo.values())  # both answers exercised
    for (k, query, standalone, has_history), ok in memo.items():
        state = _fresh_state(pipe, query, standalone, has_history)
        assert pipe.modes[k].applies(state) is ok, (pipe.modes[k].id, query, standalone)


def test_modes_that_ignore_standalone_answer_alike_for_any_standalone(rewriter: Any) -> None:
    pipe: Pipeline = rewriter.pipeline
    ignoring = [m for m in pipe.modes if not getattr(m, "reads_standalone", True)]
    assert {m.id for m in ignoring} == {"normalize", "expand"}
    others = ["它的保修期是多久", "k8s 怎么看 pod 日志", "上个月3000元以内的手机", "北京呢"]
    checked = 0
    for raw, hist in golden_inputs():
        q = clean_query(raw)
        if not q:
            continue
        base = _fresh_state(pipe, q, q, bool(hist))
        for m in ignoring:
            want = m.applies(base)
            for other in others:
                assert m.applies(base.evolve(standalone=other)) is want, (m.id, q, other)
                checked += 1
    assert checked >= 1000


def test_clear_memos_empties_the_applies_memo_and_the_benchmark_clears_it(rewriter: Any) -> None:
    pipe: Pipeline = rewriter.pipeline
    rewriter.rewrite("它保修多久", ["Galaxy S24 Ultra 有哪些颜色", "有四种颜色。"])
    assert pipe._applies
    pipe.clear_memos()
    assert not pipe._applies
    rewriter.rewrite("它保修多久", ["Galaxy S24 Ultra 有哪些颜色", "有四种颜色。"])
    assert pipe._applies
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bench_rewrite import memo_clearer
    finally:
        sys.path.pop(0)
    memo_clearer(rewriter)()
    assert not pipe._applies


def test_applies_memo_is_bounded(rewriter: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    pipe: Pipeline = rewriter.pipeline
    pipe.clear_memos()
    monkeypatch.setattr(pipe._applies, "maxsize", 5)
    for i in range(12):
        rewriter.rewrite(f"它第{i}次保修多久", ["Galaxy S24 Ultra 有哪些颜色", "有四种颜色。"])
    assert 0 < len(pipe._applies) <= 5
    pipe.clear_memos()


# -- guards ------------------------------------------------------------------------------------


def _strip_history_reference(rest: str, history: list[str]) -> str:
    """The original algorithm: at each position the longest run (tried from the end down)."""
    said = _Said(history)
    out: list[str] = []
    i = 0
    n = len(rest)
    while i < n:
        best = 0
        for j in range(n, i + 1, -1):
            seg = rest[i:j]
            if seg.strip() and said.has(seg):
                best = j - i
                break
        if best:
            out.append(" ")
            i += best
        else:
            out.append(rest[i])
            i += 1
    return "".join(out)


def _random_text(rng: random.Random, alphabet: str, lo: int, hi: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(lo, hi)))


def test_strip_history_equals_the_reference_on_random_texts() -> None:
    rng = random.Random(5)
    alphabet = "保修多久它的 ab"
    for _ in range(4000):
        history = [_random_text(rng, alphabet, 0, 12) for _ in range(rng.randint(0, 3))]
        rest = _random_text(rng, alphabet, 0, 14)
        assert _strip_history(rest, _Said(history)) == _strip_history_reference(rest, history), (
            rest,
            history,
        )


def test_strip_history_equals_the_reference_on_dialogue_texts() -> None:
    history = ["Galaxy S24 Ultra 有哪些颜色", "有四种颜色。", "我可以帮您查订单吗"]
    for rest in ["galaxy s24 ultra的保修期", "四种颜色  哪个好", "帮您查 订单", "  ", "查订单吗吗"]:
        assert _strip_history(rest, _Said(history)) == _strip_history_reference(rest, history)


def test_edit_region_equals_the_character_loop() -> None:
    def reference(orig: str, out: str) -> list[tuple[int, int]]:
        n = min(len(orig), len(out))
        p = 0
        while p < n and orig[p] == out[p]:
            p += 1
        s = 0
        while s < n - p and orig[-1 - s] == out[-1 - s]:
            s += 1
        end = len(out) - s
        return [(p, end)] if end > p else []

    rng = random.Random(7)
    for _ in range(5000):
        a = _random_text(rng, "abc它的", 0, 10)
        b = _random_text(rng, "abc它的", 0, 10)
        if rng.random() < 0.5:  # a shared prefix and suffix around an edit
            core = _random_text(rng, "xyz", 0, 4)
            b = a[: rng.randint(0, len(a))] + core + a[rng.randint(0, len(a)) :]
        assert Guards.edit_region(a, b) == reference(a, b), (a, b)
        n = min(len(a), len(b))
        p = _common_prefix(a, b, n)
        assert a[:p] == b[:p] and (p == n or a[p] != b[p])
        s = _common_suffix(a, b, n - p)
        assert s <= n - p and (s == 0 or a[-s:] == b[-s:])
        assert s == n - p or a[len(a) - s - 1] != b[len(b) - s - 1]


def test_said_and_from_history_equal_a_search_per_turn() -> None:
    """``_Said.has`` is ``any(s in t for t in texts)`` (a string holding the separator too), so
    ``_from_history`` on a ``_Said`` answers what it answered scanning the turns one by one."""

    def from_history_reference(chunk: str, history: list[str]) -> bool:
        if any(chunk in h for h in history):
            return True
        return any(
            any(chunk[:k] in h for h in history) and any(chunk[k:] in h for h in history)
            for k in range(2, len(chunk) - 1)
        )

    rng = random.Random(9)
    answers: set[tuple[bool, bool]] = set()
    alphabet = "不喜欢朱飞为啥\x00 "
    fixed = [("不喜欢朱飞", ["你喜欢朱飞吗", "不喜欢"]), ("不喜欢", []), ("", ["a"]), ("", [])]
    for chunk, history in fixed + [
        (_random_text(rng, alphabet, 0, 8), [_random_text(rng, alphabet, 0, 10) for _ in range(n)])
        for n in (rng.randint(0, 3) for _ in range(4000))
    ]:
        said = _Said(history)
        assert said.has(chunk) == any(chunk in h for h in history), (chunk, history)
        want = from_history_reference(chunk, history)
        assert _from_history(chunk, said) == want, (chunk, history)
        answers.add((want, any(chunk in h for h in history)))
    assert answers == {(False, False), (True, False), (True, True)}  # every case met
    assert _from_history("不喜欢朱飞", _Said(["你喜欢朱飞吗", "不喜欢"]))  # two pieces
    assert not _from_history("不朱飞", _Said(["你喜欢朱飞吗", "不喜欢"]))  # a lone 不


def test_joined_window_memo_equals_a_fresh_one(rewriter: Any) -> None:
    guards: Guards = rewriter.pipeline.guards
    texts = ("galaxy s24 ultra有哪些颜色", "有四种颜色。", "它的保修期")
    memo = guards._said(texts)
    assert guards._said(texts) is memo  # memoised per window
    fresh = _Said(texts)
    for s in ["四种", "颜色。有", "它的保修期", "ultra有", "\x00", "有四种颜色。\x00它"]:
        assert memo.has(s) == fresh.has(s), s


# -- multi-turn ----------------------------------------------------------------------------------


def test_hint_types_memo_equals_the_hinted_types(rewriter: Any) -> None:
    mt: MultiTurn = next(m.mt for m in rewriter.pipeline.modes if hasattr(m, "mt"))
    seen = 0
    for raw, _hist in golden_inputs():
        q = clean_query(raw)
        want = {t for t, _ in mt.hinted_types(q)}
        assert mt._hint_types(q) == want, q
        seen += bool(want)
    assert seen >= 10  # some queries carry type hints


def test_rank_reasons_are_the_reasons_joined(rewriter: Any) -> None:
    """Each candidate's ``why`` starts with its recency and lists its reasons once each."""
    mt: MultiTurn = next(m.mt for m in rewriter.pipeline.modes if hasattr(m, "mt"))
    hist = parse_history(["Galaxy S24 Ultra 和 iPhone 15 哪个好", "各有优点。", "保修呢"])
    d = mt.analyzer.dialogue(hist)
    cands = mt.rank(d, text="这款手机保修多久", noun="手机", animacy="nonhuman")
    assert cands
    for c in cands:
        parts = c.why.split(", ")
        assert parts[0].startswith("recency"), c.why
        assert all(parts), c.why


# -- coreference -------------------------------------------------------------------------------


def _frame_hits_reference(coref: Any, said: str) -> list[tuple[int, list[tuple[int, int]]]]:
    """Each title frame searched afresh, as ``_framed_title`` searched them before the memo:
    a match, then the next from just after its start, for every frame in order."""
    out = []
    for i, (frame, _loose, _cls, _bounded) in enumerate(coref.title_frames):
        spans = []
        m = frame.search(said)
        while m is not None:
            spans.append(m.span("title"))
            m = frame.search(said, m.start() + 1)
        if spans:
            out.append((i, spans))
    return out


def test_title_frame_memo_equals_a_search_per_frame(rewriter: Any) -> None:
    coref = next(m for m in rewriter.pipeline.modes if m.id == "coreference")
    coref.clear_memos()
    texts = [t for _q, hist in golden_inputs() for t in hist if isinstance(t, str)]
    texts += ["我看过三体这本书", "《活着》你读过吗", "你知道飘吗", "我最近在追琅琊榜这部剧", ""]
    found = 0
    for said in texts + texts:  # the second pass reads the memo
        hits = [(i, [m.span("title") for m in ms]) for i, ms in coref._title_frame_hits(said)]
        assert hits == _frame_hits_reference(coref, said), said
        found += bool(hits)
    assert found
    assert coref._frame_hits
    coref.clear_memos()
    assert not coref._frame_hits


def test_title_frame_memo_is_bounded(rewriter: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    coref = next(m for m in rewriter.pipeline.modes if m.id == "coreference")
    coref.clear_memos()
    monkeypatch.setattr(coref._frame_hits, "maxsize", 3)
    for i in range(10):
        coref._title_frame_hits(f"我看过第{i}本书")
    assert 0 < len(coref._frame_hits) <= 3
    rewriter.rewrite("它的作者是谁", ["你知道飘吗", "知道"])
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bench_rewrite import memo_clearer
    finally:
        sys.path.pop(0)
    memo_clearer(rewriter)()
    assert not coref._frame_hits


# -- required text of a frame --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "need"),
    [
        ("^(?P<x>.{2,8}?)(?:知道|认识)吗", "知道吗|认识吗"),
        ("你(?:也|都)?喜欢(?P<x>.+)", "喜欢"),
        ("[你您]知道", "你知道|您知道"),
        ("(?:A|B)+C", "C"),  # one word rather than either of two
        ("(?:AB|CD)+", "AB|CD"),
        ("^(?:你|您)?(?P<x>.{2,5})$", None),  # nothing literal is mandatory
        ("(?i)hello", None),  # case-insensitive: no literal test
        ("(?:好|)看", "好看|看"),
        ("^(?P<r>那|)(?=(?:怎么办|咋办)$)", "怎么办|咋办"),  # a lookahead needs its words too
        ("(?<=在)那", "在"),  # one mandatory part is enough
        ("(?!不)好", "好"),  # a negative lookahead needs nothing
    ],
)
def test_required_text_reads_the_mandatory_words(pattern: str, need: str | None) -> None:
    from rulerewrite.lexicon.readers import required_text

    found = required_text(re.compile(pattern))
    assert (found.pattern if found is not None else None) == need


def test_required_text_never_skips_a_text_a_rule_pattern_matches(rewriter: Any) -> None:
    """Every regular expression of the rule files, with its required-text search: a text the
    search finds nothing in is one the pattern matches nowhere either (dialogue texts of the
    golden cases and the benchmark log, and random strings of their characters)."""
    from rulerewrite.lexicon.readers import required_text

    pats = []
    for rules in rewriter.lexicon.rules.values():
        for r in rules:
            if r.pattern is not None:
                pats.append(r.pattern)
            for v in r.data.values():
                if isinstance(v, str):
                    with contextlib.suppress(re.error):
                        pats.append(re.compile(v))
    needs = [(p, n) for p in pats if (n := required_text(p)) is not None]
    assert len(needs) > 100
    texts = {q for q, _h in golden_inputs() + log_inputs(2000)}
    texts |= {t for _q, h in golden_inputs() for t in h if isinstance(t, str)}
    rng = random.Random(7)
    alphabet = "".join(sorted({c for t in texts for c in t}))
    texts |= {_random_text(rng, alphabet, 1, 16) for _ in range(3000)}
    for t in texts:
        for p, n in needs:
            if n.search(t) is None:
                assert p.search(t) is None, (p.pattern, t)
