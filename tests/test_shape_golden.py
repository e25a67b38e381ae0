"""Golden tables for the query-shape modes (issue 3): one YAML file per mode in tests/cases/.

Each case: ``id``, ``query``, optional ``history`` (strings or role/content mappings), optional
``config`` (Rewriter options, e.g. ``reference_date`` or ``max_subqueries``; a file-level
``config`` applies to every case of the file, e.g. ``modes`` to test a mode without the
decisions of modes that are not under test), optional
``requires`` (mode ids that must be registered, else the case is skipped with the reason), and
``expect`` with any of:

- ``standalone``: exact standalone query
- ``subqueries``: exact list of split sub-queries (rewrites produced by multi_intent, in order)
- ``queries_include`` / ``queries_exclude``: texts that must (not) be among the queries sent
- ``modes_include`` / ``modes_exclude``: mode ids that must (not) have acted
- ``unchanged``: true → nothing beyond the original goes to retrieval from a structural mode
- ``conditions``: list of ``{type, text[, value]}`` that must all be present (value compared
  exactly when given); ``no_conditions: true`` → none at all
- ``every_query_contains``: texts every query sent to retrieval must contain
- ``every_rewrite_contains``: texts every rewrite (all queries but the original) must contain
- ``intent`` / ``filter_hints``: the label and its hints
- ``corrections``: ``[from, to]`` pairs that must appear as typo/alias trace lines
- ``no_corrections: true``: no typo/alias correction at all
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from rulerewrite import Rewriter
from rulerewrite.modes.base import registered_modes
from rulerewrite.result import RewriteResult

CASES = Path(__file__).parent / "cases"
FILES = ("multi_intent", "rhetorical", "condition", "intent", "colloquial", "typo", "combination")
MIN_CASES = {name: 40 for name in FILES if name != "combination"}
STRUCTURAL = {"rhetorical", "coreference", "multi_intent", "ellipsis", "comparison"}


def _load(name: str) -> list[dict[str, Any]]:
    path = CASES / f"{name}.yaml"
    if not path.is_file():
        return []  # test_case_tables_are_large_and_unique reports it
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    cases = doc["cases"]
    assert isinstance(cases, list)
    base = doc.get("config") or {}
    return [{**c, "config": {**base, **(c.get("config") or {})}} for c in cases]


def _params() -> list[Any]:
    out = []
    for name in FILES:
        for case in _load(name):
            out.append(pytest.param(name, case, id=f"{name}:{case['id']}"))
    return out


_REWRITERS: dict[str, Rewriter] = {}


def _rewriter(default: Rewriter, config: dict[str, Any] | None) -> Rewriter:
    if not config:
        return default
    key = repr(sorted(config.items()))
    if key not in _REWRITERS:
        opts = dict(config)
        if "modes" in opts:
            opts["modes"] = frozenset(opts["modes"])
        _REWRITERS[key] = Rewriter(**opts)
    return _REWRITERS[key]


def _subqueries(res: RewriteResult) -> list[str]:
    return [
        r.text
        for r in res.rewritten_queries
        if "multi_intent" in r.modes and r.text != res.standalone
    ]


@pytest.mark.parametrize("name", list(MIN_CASES))
def test_case_tables_are_large_and_unique(name: str) -> None:
    cases = _load(name)
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids)), f"duplicate case ids in {name}.yaml"
    assert len(cases) >= MIN_CASES[name], f"{name}.yaml has {len(cases)} cases"
    domains = {c.get("domain") for c in cases}
    assert len(domains - {None}) >= 3, f"{name}.yaml covers too few domains: {domains}"


@pytest.mark.parametrize(("name", "case"), _params())
def test_golden(rewriter: Rewriter, name: str, case: dict[str, Any]) -> None:
    missing = [m for m in case.get("requires", []) if m not in registered_modes()]
    if missing:
        pytest.skip(f"needs mode(s) {missing}, not registered yet")
    rw = _rewriter(rewriter, case.get("config"))
    res = rw.rewrite(case["query"], case.get("history"))
    exp: dict[str, Any] = case["expect"]
    texts = [q.text for q in res.queries]
    assert texts[0] == case["query"].strip(), "the original query always goes out first"
    why = f"\nqueries={texts}\nmodes={res.modes}\ntrace={[(s.mode, s.status, s.after, s.note) for s in res.trace]}"

    if "standalone" in exp:
        assert res.standalone == exp["standalone"], why
    if "subqueries" in exp:
        assert _subqueries(res) == exp["subqueries"], why
    for t in exp.get("queries_include", []):
        assert t in texts, f"missing query {t!r}" + why
    for t in exp.get("queries_exclude", []):
        assert t not in texts, f"unexpected query {t!r}" + why
    for m in exp.get("modes_include", []):
        assert m in res.modes, f"mode {m} did not act" + why
    for m in exp.get("modes_exclude", []):
        assert m not in res.modes, f"mode {m} acted" + why
    if exp.get("unchanged"):
        assert not STRUCTURAL & set(res.modes), why
        assert res.standalone == case["query"].strip(), why
    if exp.get("no_conditions"):
        assert res.conditions == (), why
    for c in exp.get("conditions", []):
        found = [
            x
            for x in res.conditions
            if x.type == c["type"]
            and x.text == c["text"]
            and ("value" not in c or x.value == c["value"])
        ]
        assert found, f"condition {c} not in {res.conditions}" + why
    for t in exp.get("every_query_contains", []):
        for q in texts:
            assert t in q, f"query {q!r} lost constraint {t!r}" + why
    for t in exp.get("every_rewrite_contains", []):
        assert len(texts) > 1, "no rewrite" + why
        for q in texts[1:]:
            assert t in q, f"rewrite {q!r} does not name {t!r}" + why
    if "intent" in exp:
        assert res.intent == exp["intent"], why
    if "filter_hints" in exp:
        assert res.filter_hints == exp["filter_hints"], why
    notes = [s.note for s in res.trace if s.mode == "expand" and s.status == "applied"]
    for src, dst in exp.get("corrections", []):
        assert any(f"{src} -> {dst}" in n for n in notes), f"no correction {src}->{dst}" + why
    if exp.get("no_corrections"):
        bad = [n for n in notes if n.startswith(("latin typo", "homophone", "alias form"))]
        assert not bad, why


# -- small unit checks of the helpers behind the tables ---------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [("3000", 3000), ("1.5", 1.5), ("三千", 3000), ("两万五", 25000), ("十二", 12), ("六十", 60),
     ("一万二千", 12000), ("三百五", 350), ("半", 0.5), ("abc", None), ("", None)],
)  # fmt: skip
def test_cn_number(text: str, value: float | None) -> None:
    from rulerewrite.modes.condition import cn_number

    assert cn_number(text) == value


def test_condition_extract_is_a_library_call(rewriter: Rewriter) -> None:
    import datetime as dt

    mode = next(m for m in rewriter.pipeline.modes if m.id == "condition")
    got = mode.extract("去年12月以后3000元以内", today=dt.date(2026, 3, 1))  # type: ignore[attr-defined]
    assert [(c.type, c.text, c.value) for c in got] == [
        ("time", "去年12月以后", {"start": "2025-12-01"}),
        ("amount", "3000元以内", {"max": 3000, "unit": "元"}),
    ]


def test_typo_never_corrects_a_protected_entity(rewriter: Rewriter) -> None:
    expand = next(m for m in rewriter.pipeline.modes if m.id == "expand")
    typo = expand.typo  # type: ignore[attr-defined]
    norm = rewriter.lexicon.normalizer
    for e in rewriter.lexicon.entries_of("entity"):
        nt = norm(e.text)
        fixes = typo.find(nt, rewriter.lexicon.match(nt))
        assert all(c.kind == "alias_form" for c in fixes), (e.text, fixes)


def test_max_subqueries_is_respected() -> None:
    rw = Rewriter(max_subqueries=3)
    res = rw.rewrite("咖啡机多少钱？保修多久？能定制吗？有几种颜色？多重？")
    assert _subqueries(res) == [
        "咖啡机多少钱",
        "咖啡机保修多久",
        "咖啡机能定制吗，咖啡机有几种颜色，咖啡机多重",
    ]
