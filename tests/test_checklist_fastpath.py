"""The memoised checklist gives exactly what asking every mode's ``applies`` gives.

``Pipeline.run`` asks the checklist (memoised per query text and whether there is a history)
which modes can act on the state before any mode ran, and returns a zero-rewrite result without
building a state when none can. These tests run the reference path next to it — the state built
from scratch, every mode's ``applies`` asked on every state, ``_finish`` on the result — over every
golden case and a sample of the synthetic query log, and require the same candidates and the same
result, field for field.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulerewrite import RewriteResult
from rulerewrite.context import Turn, parse_history
from rulerewrite.modes.base import Features, State
from rulerewrite.pipeline import Pipeline
from rulerewrite.text.normalize import clean_query

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "cases"


def reference_state(pipe: Pipeline, query: str, history: tuple[Turn, ...]) -> State:
    """The state before any mode ran, built without any checklist memo."""
    norm = pipe.lexicon.normalizer(query)
    matches = tuple(pipe.lexicon.match(norm))
    text = norm.text
    rule = pipe._precise(text)
    feats = Features(
        kinds=frozenset(e.kind for m in matches for e in m.entries),
        question_marks=text.count("?"),
        length=len(text),
        precise=rule is not None,
        has_history=bool(history),
    )
    state = State(
        query=query, norm=norm, matches=matches, features=feats, history=history, standalone=query
    )
    if rule is not None:
        state = state.note("checklist", rule, "precise query: never rewritten")
    return state


def reference_run(pipe: Pipeline, query: str, history: tuple[Turn, ...]) -> RewriteResult:
    """The pipeline without the fast paths: every ``applies`` asked on the current state."""
    state = reference_state(pipe, query, history)
    if state.features.precise:
        return pipe._finish(state)
    prot = None
    for m in pipe.modes:
        if not m.applies(state):
            continue
        new = m(state)
        if new is state:
            continue
        if prot is None:
            prot = pipe._protected(state.norm.text, tuple(t.content for t in history))
        state = pipe._guarded(prot, state, new, m.id)
    return pipe._finish(state)


def golden_inputs() -> list[tuple[str, list[Any]]]:
    """(query, history) of every golden case that uses the default packs and options."""
    out = []
    for f in sorted(CASES.glob("*.yaml")):
        data = yaml.safe_load(f.read_text(encoding="utf-8"))
        for case in data.get("cases", []):
            if case.get("domains") is not None or case.get("options"):
                continue
            if not isinstance(case.get("query"), str):
                continue
            out.append((case["query"], list(case.get("history") or [])))
    return out


def log_inputs(n: int = 3000) -> list[tuple[str, list[Any]]]:
    """The first ``n`` records of the benchmark's synthetic log (generated, deterministic), each
    session's earlier queries as user turns, as the benchmark feeds them."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from make_query_log import generate
    finally:
        sys.path.pop(0)
    sessions: dict[str, list[str]] = {}
    out: list[tuple[str, list[Any]]] = []
    for r in generate(n):
        sid = r.get("session")
        if sid is None:
            out.append((r["query"], []))
            continue
        prev = sessions.setdefault(sid, [])
        out.append((r["query"], [{"role": "user", "content": q} for q in prev[-3:]]))
        prev.append(r["query"])
    return out


def _check(rewriter: Any, inputs: list[tuple[str, list[Any]]]) -> tuple[int, int]:
    pipe: Pipeline = rewriter.pipeline
    zero = ran = 0
    for raw, hist in inputs:
        q = clean_query(raw)
        if not q or len(q) > rewriter.config.max_length:
            continue
        turns = parse_history(hist)
        ref = reference_state(pipe, q, turns)
        ck = pipe._checklist(q, bool(turns))
        assert ck.norm == ref.norm and ck.matches == ref.matches, q
        assert ck.features == ref.features, q
        assert (ck.precise_rule is not None) == ref.features.precise, q
        slow = set() if ref.features.precise else {m.id for m in pipe.modes if m.applies(ref)}
        assert ck.candidates == slow, (q, hist)
        assert pipe.initial_state(q, turns) == ref, q
        fast = pipe.run(q, turns)
        assert fast.to_dict() == reference_run(pipe, q, turns).to_dict(), (q, hist)
        if not slow and not ref.features.precise:
            zero += 1  # the result came from Pipeline._zero
        ran += 1
    return zero, ran


def test_checklist_agrees_with_applies_on_every_golden_case(rewriter: Any) -> None:
    inputs = golden_inputs()
    assert len(inputs) >= 300
    zero, ran = _check(rewriter, inputs)
    assert zero >= 20 and ran >= 300  # both paths exercised


def test_checklist_agrees_with_applies_on_the_query_log(rewriter: Any) -> None:
    zero, ran = _check(rewriter, log_inputs())
    assert zero >= 500 and ran >= 2900


def test_checklist_memo_is_per_text_and_history_flag(rewriter: Any) -> None:
    pipe: Pipeline = rewriter.pipeline
    alone = pipe._checklist("保修多久", False)
    follow = pipe._checklist("保修多久", True)
    assert alone.features.has_history is False and follow.features.has_history is True
    assert "ellipsis" in follow.candidates  # a follow-up may lack its topic
    assert pipe._checklist("保修多久", False) is alone  # memoised
    # a query no mode can act on returns the zero-rewrite result of the slow path
    q = "如何查询Kubernetes的连接超时"
    assert not pipe._checklist(q, False).candidates
    res = rewriter.rewrite(q)
    assert res.to_dict() == pipe._finish(pipe.initial_state(q, ())).to_dict()
    assert res.queries[0].text == q and not res.changed


@pytest.mark.parametrize("query", ["E1021", "ORD-2024-000123"])
def test_precise_queries_skip_every_mode(rewriter: Any, query: str) -> None:
    ck = rewriter.pipeline._checklist(query, False)
    if ck.precise_rule is None:
        pytest.skip(f"{query} is not a precise pattern of rules/checklist.yaml")
    res = rewriter.rewrite(query)
    assert not res.changed and ck.candidates == frozenset()
    assert [s.mode for s in res.trace] == ["checklist"]
