"""Table-driven golden cases of the foundation: tests/cases/{normalize,expand,zero_rewrite}.yaml.

A case file has ``mode:`` and ``cases:``; each case has ``id``, ``query``, optional ``history``
(plain strings or messages), optional ``domains`` (default: every bundled pack), optional
``options`` (Rewriter keyword options) and ``expect`` with any of:

- ``unchanged: true``   standalone == original, no rewritten query, no mode;
- ``standalone``        the exact standalone text;
- ``modes`` (exact list), ``modes_include``, ``modes_exclude``;
- ``queries_include`` / ``queries_exclude``: texts that must / must not be among ``queries``;
- ``max_queries`` / ``n_queries``: bounds on ``len(queries)``;
- ``must_keep``: entities that must be in ``must_keep_entities``;
- ``intent``, ``rewrite_skipped``, ``precise`` (a checklist pattern kept it untouched);
- ``trace_rule``: a prefix some applied step's rule id must start with (``dictionaries/tech.yaml:``).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulerewrite import Rewriter, RewriteResult

CASES = Path(__file__).parent / "cases"
FILES = ("normalize", "expand", "zero_rewrite")
KEYS = {
    "unchanged", "standalone", "modes", "modes_include", "modes_exclude", "queries_include",
    "queries_exclude", "max_queries", "n_queries", "must_keep", "intent", "rewrite_skipped",
    "precise", "trace_rule",
}  # fmt: skip


def load(name: str) -> list[dict[str, Any]]:
    data = yaml.safe_load((CASES / f"{name}.yaml").read_text(encoding="utf-8"))
    assert data["mode"] == name
    return list(data["cases"])


@functools.cache
def _rewriter(domains: tuple[str, ...] | None, options: tuple[tuple[str, Any], ...]) -> Rewriter:
    return Rewriter(domains=None if domains is None else list(domains), **dict(options))


def params() -> list[Any]:
    out = []
    for name in FILES:
        for case in load(name):
            out.append(pytest.param(case, id=f"{name}:{case['id']}"))
    return out


@pytest.mark.parametrize("name", FILES)
def test_case_files_are_well_formed(name: str) -> None:
    cases = load(name)
    assert len(cases) >= 40, f"{name}.yaml has {len(cases)} cases; at least 40 expected"
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    for c in cases:
        assert set(c) <= {"id", "query", "history", "domains", "options", "expect", "note"}, c["id"]
        assert c.get("expect") and set(c["expect"]) <= KEYS, (c["id"], set(c["expect"]) - KEYS)
    domains = {d for c in cases for d in c.get("domains") or []}
    assert len(domains) >= 3 or name == "normalize", f"{name}: cover several domains"


def check(res: RewriteResult, exp: dict[str, Any]) -> None:
    texts = [q.text for q in res.queries]
    if exp.get("unchanged"):
        assert res.standalone == res.original_query
        assert res.rewritten_queries == () and res.modes == ()
        assert texts == [res.original_query]
    if "standalone" in exp:
        assert res.standalone == exp["standalone"]
    if "modes" in exp:
        assert list(res.modes) == exp["modes"]
    for m in exp.get("modes_include", []):
        assert m in res.modes
    for m in exp.get("modes_exclude", []):
        assert m not in res.modes
    for t in exp.get("queries_include", []):
        assert t in texts
    for t in exp.get("queries_exclude", []):
        assert t not in texts
    if "max_queries" in exp:
        assert len(texts) <= exp["max_queries"]
    if "n_queries" in exp:
        assert len(texts) == exp["n_queries"]
    for e in exp.get("must_keep", []):
        assert e in res.must_keep_entities
    if "intent" in exp:
        assert res.intent == exp["intent"]
    if "rewrite_skipped" in exp:
        assert res.rewrite_skipped is exp["rewrite_skipped"]
    if "precise" in exp:
        assert any(s.mode == "checklist" for s in res.trace) is exp["precise"]
    if "trace_rule" in exp:
        assert any(
            s.status == "applied" and s.rule.startswith(exp["trace_rule"]) for s in res.trace
        ), [s.rule for s in res.trace]
    # always: the original goes first and nothing is repeated
    assert texts[0] == res.original_query
    assert len(texts) == len(set(texts))


@pytest.mark.parametrize("case", params())
def test_golden(case: dict[str, Any]) -> None:
    domains = case.get("domains")
    rw = _rewriter(
        None if domains is None else tuple(domains),
        tuple(sorted((case.get("options") or {}).items())),
    )
    res = rw.rewrite(case["query"], case.get("history"))
    try:
        check(res, case["expect"])
    except AssertionError:
        print(res.to_json(indent=1))
        raise
