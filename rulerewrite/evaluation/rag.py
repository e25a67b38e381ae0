"""Retrieval evaluation: does rewriting make retrieval better, per mode, without losing hits?

For each case (history, query, gold document ids or ``"ask_user"``) the rewriter runs once and
the retriever is asked three ways:

- ``original``: the user's query alone (what a system without rewriting does);
- ``standalone``: the rewriter's ``standalone`` alone;
- ``merged``: every query of the result through :class:`~rulerewrite.retrieval.MultiRetriever`.

Scores: Top-1 / Top-3 hit rate and MRR (over the ``k`` hits retrieved; a case is a hit when any
gold id is found), overall and per case ``mode``. An ``ask_user`` decision retrieves nothing, so
on a case that has gold documents it counts as a miss for ``standalone`` and ``merged``.
Rewrite fidelity, over the cases the rewriter changed: protected entities kept (the case's
``keep_entities`` plus the dictionary entities of the query, in ``standalone`` and in the
rewrites taken together), negations kept (the case's ``negations``, in ``standalone`` and every
rewrite that is not a split sub-query), constraints kept (the case's ``constraints``, verbatim in
every query), and the noise rate: the share of rewritten queries naming an entity (a dictionary
entity, a knowledge-base ``entity`` value or a Latin/alphanumeric name) found in neither the
query, the history, nor a dictionary expansion of their terms (a homophone of a query span,
i.e. a corrected typo such as 尤豫期 → 犹豫期, counts as found in the query). Ask-user routing accuracy is
measured on every case.

Case rows (JSONL): ``{id, query, gold, history?, mode?, domain?, keep_entities?, constraints?,
negations?}``; a bad row raises :class:`~rulerewrite.errors.QueryError` naming ``file:line``
(RR620..RR622); an output that cannot be written raises RR623.
"""

from __future__ import annotations

import base64
import html
import io
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulerewrite.errors import QueryError
from rulerewrite.result import RewriteResult

PATHS = ("original", "standalone", "merged")
_LATIN_NAME = re.compile(r"[a-z][a-z0-9]*(?:[-.][a-z0-9]+)*[0-9]?[a-z0-9]*")
_EXPANDING = ("alias", "synonym", "synonym_canonical", "colloquial", "entity")


@dataclass(frozen=True, slots=True)
class RAGCase:
    """One evaluation case. ``gold`` is None when the right answer is to ask the user."""

    id: str
    query: str
    gold: tuple[str, ...] | None
    history: tuple[dict[str, str], ...] = ()
    mode: str = "other"
    domain: str = ""
    keep_entities: tuple[str, ...] = ()
    constraints: tuple[str, ...] = ()
    negations: tuple[str, ...] = ()
    line: int = 0


def _str_list(row: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    v = row.get(key) or []
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise QueryError(f"[RR622] {where}: {key!r} must be a list of strings")
    return tuple(v)


def load_cases(path: str | Path) -> list[RAGCase]:
    """Read evaluation cases from JSONL (see the module docstring for the row shape)."""
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise QueryError(f"[RR620] {p}: cannot read ({e})") from None
    out: list[RAGCase] = []
    seen: dict[str, int] = {}
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{p}:{lineno}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise QueryError(f"[RR621] {where}: invalid JSON ({e.msg})") from None
        if not isinstance(row, dict):
            raise QueryError(f"[RR622] {where}: expected a JSON object, got {type(row).__name__}")
        query = row.get("query")
        if not isinstance(query, str) or not query.strip():
            raise QueryError(f"[RR622] {where}: 'query' must be a non-empty string")
        gold_raw = row.get("gold")
        gold: tuple[str, ...] | None
        if gold_raw == "ask_user":
            gold = None
        elif isinstance(gold_raw, str) and gold_raw:
            gold = (gold_raw,)
        elif (
            isinstance(gold_raw, list)
            and gold_raw
            and all(isinstance(g, (str, int)) and not isinstance(g, bool) for g in gold_raw)
        ):
            gold = tuple(str(g) for g in gold_raw)
        else:
            raise QueryError(
                f"[RR622] {where}: 'gold' must be a document id, a non-empty list of ids or "
                f'"ask_user", got {gold_raw!r}'
            )
        hist = row.get("history") or []
        if not isinstance(hist, list):
            raise QueryError(f"[RR622] {where}: 'history' must be a list of messages")
        cid = str(row.get("id") or f"line{lineno}")
        if cid in seen:
            raise QueryError(f"[RR622] {where}: duplicate case id {cid!r} (line {seen[cid]})")
        seen[cid] = lineno
        out.append(
            RAGCase(
                id=cid,
                query=query,
                gold=gold,
                history=tuple(hist),
                mode=str(row.get("mode") or "other"),
                domain=str(row.get("domain") or ""),
                keep_entities=_str_list(row, "keep_entities", where),
                constraints=_str_list(row, "constraints", where),
                negations=_str_list(row, "negations", where),
                line=lineno,
            )
        )
    if not out:
        raise QueryError(f"[RR622] {p}: no cases")
    return out


@dataclass
class CaseOutcome:
    """What happened on one case."""

    case: RAGCase
    decision: str
    standalone: str
    queries: tuple[str, ...]
    modes: tuple[str, ...]
    changed: bool
    ranks: dict[str, int | None] = field(default_factory=dict)  # path -> 1-based rank or None
    top: dict[str, tuple[str, ...]] = field(default_factory=dict)  # path -> top-3 ids
    entities_kept: bool | None = None
    negations_kept: bool | None = None
    constraints_kept: bool | None = None
    noisy_queries: int = 0
    rewritten: int = 0
    noise_terms: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()

    @property
    def routed_ok(self) -> bool:
        return (self.decision == "ask_user") == (self.case.gold is None)

    def to_dict(self) -> dict[str, Any]:
        c = self.case
        return {
            "id": c.id,
            "mode": c.mode,
            "domain": c.domain,
            "query": c.query,
            "history": list(c.history),
            "gold": list(c.gold) if c.gold is not None else "ask_user",
            "decision": self.decision,
            "standalone": self.standalone,
            "queries": list(self.queries),
            "modes": list(self.modes),
            "ranks": dict(self.ranks),
            "top": {k: list(v) for k, v in self.top.items()},
            "entities_kept": self.entities_kept,
            "negations_kept": self.negations_kept,
            "constraints_kept": self.constraints_kept,
            "noise_terms": list(self.noise_terms),
            "errors": list(self.errors),
        }


def _rank(ids: Sequence[str], gold: tuple[str, ...]) -> int | None:
    for i, d in enumerate(ids, 1):
        if d in gold:
            return i
    return None


def _rate(xs: Iterable[bool | None]) -> float | None:
    vals = [x for x in xs if x is not None]
    return round(sum(vals) / len(vals), 4) if vals else None


def _path_metrics(outs: Sequence[CaseOutcome]) -> dict[str, dict[str, float | int]]:
    res: dict[str, dict[str, float | int]] = {}
    n = len(outs)
    for p in PATHS:
        ranks = [o.ranks.get(p) for o in outs]
        res[p] = {
            "n": n,
            "top1": round(sum(1 for r in ranks if r is not None and r <= 1) / n, 4) if n else 0.0,
            "top3": round(sum(1 for r in ranks if r is not None and r <= 3) / n, 4) if n else 0.0,
            "mrr": round(sum(1.0 / r for r in ranks if r) / n, 4) if n else 0.0,
        }
    return res


def _worse(o: CaseOutcome) -> bool:
    a, b = o.ranks.get("original"), o.ranks.get("merged")
    return a is not None and (b is None or b > a)


@dataclass
class RAGReport:
    """All outcomes plus the settings; :meth:`summary` is the JSON summary."""

    outcomes: list[CaseOutcome]
    settings: dict[str, Any]

    @property
    def retrieval_cases(self) -> list[CaseOutcome]:
        return [o for o in self.outcomes if o.case.gold is not None]

    def worse_cases(self) -> list[CaseOutcome]:
        """Cases where the merged list ranks the first gold document lower than the original
        query alone did (or loses it)."""
        return [o for o in self.retrieval_cases if _worse(o)]

    def summary(self) -> dict[str, Any]:
        rc = self.retrieval_cases
        modes = sorted({o.case.mode for o in self.outcomes})
        per_mode = {
            m: _path_metrics([o for o in rc if o.case.mode == m])
            for m in modes
            if any(o.case.mode == m for o in rc)
        }
        changed = [o for o in self.outcomes if o.changed and o.decision == "search"]
        n_rw = sum(o.rewritten for o in changed)
        gold_ask = [o for o in self.outcomes if o.case.gold is None]
        pred_ask = [o for o in self.outcomes if o.decision == "ask_user"]
        both = [o for o in gold_ask if o.decision == "ask_user"]

        def lost(k: int) -> int:
            return sum(
                1
                for o in rc
                if (r := o.ranks.get("original")) is not None
                and r <= k
                and ((m := o.ranks.get("merged")) is None or m > k)
            )

        def gained(k: int) -> int:
            return sum(
                1
                for o in rc
                if ((r := o.ranks.get("original")) is None or r > k)
                and (m := o.ranks.get("merged")) is not None
                and m <= k
            )

        per_domain = {
            d: _path_metrics([o for o in rc if o.case.domain == d])
            for d in sorted({o.case.domain for o in rc})
        }
        return {
            "settings": self.settings,
            "cases": len(self.outcomes),
            "retrieval_cases": len(rc),
            "overall": _path_metrics(rc),
            "per_mode": per_mode,
            "per_domain": per_domain,
            "changed_cases": len(changed),
            "fidelity": {
                "entities_kept": _rate(o.entities_kept for o in changed),
                "negations_kept": _rate(o.negations_kept for o in changed),
                "constraints_kept": _rate(o.constraints_kept for o in changed),
                "rewritten_queries": n_rw,
                "noise_rate": round(sum(o.noisy_queries for o in changed) / n_rw, 4)
                if n_rw
                else 0.0,
            },
            "ask_user": {
                "accuracy": _rate(o.routed_ok for o in self.outcomes),
                "gold_ask": len(gold_ask),
                "predicted_ask": len(pred_ask),
                "precision": round(len(both) / len(pred_ask), 4) if pred_ask else None,
                "recall": round(len(both) / len(gold_ask), 4) if gold_ask else None,
                "asked_on_retrieval_cases": sum(1 for o in rc if o.decision == "ask_user"),
            },
            "lost_hits": {"top1": lost(1), "top3": lost(3)},
            "gained_hits": {"top1": gained(1), "top3": gained(3)},
            "worse_cases": len(self.worse_cases()),
            "retriever_errors": sum(len(o.errors) for o in self.outcomes),
        }

    def to_json(self, **kw: Any) -> str:
        return json.dumps(self.summary(), ensure_ascii=False, **kw)

    def write_html(self, path: str | Path) -> None:
        Path(path).write_text(render_html(self), encoding="utf-8")

    def write_cases(self, path: str | Path) -> None:
        """Every case outcome as JSONL (for diffing two runs)."""
        with Path(path).open("w", encoding="utf-8") as fh:
            for o in self.outcomes:
                fh.write(json.dumps(o.to_dict(), ensure_ascii=False) + "\n")


class _Fidelity:
    """Checks a result against the case and the dictionaries (built once per evaluation)."""

    def __init__(self, lexicon: Any, kb_entities: Iterable[str]) -> None:
        self.lex = lexicon
        self.norm = lexicon.normalizer
        self.kb_entities = sorted(
            {self._n(e) for e in kb_entities if e and len(self._n(e)) > 1}, key=len, reverse=True
        )

    def _n(self, text: str) -> str:
        return str(self.norm(text).text).replace(" ", "")

    def _expansions(self, texts: Iterable[str]) -> set[str]:
        out: set[str] = set()
        for t in texts:
            for m in self.lex.match(self.norm(t)):
                for e in m.entries:
                    if e.kind not in _EXPANDING:
                        continue
                    if e.canonical:
                        out.add(self._n(e.canonical))
                    out.update(self._n(x) for x in e.targets)
        return out

    def entities_of(self, text: str) -> set[str]:
        """Entity-like names in ``text`` (normalised, spaces removed)."""
        nt = self.norm(text)
        found = {
            m.key.replace(" ", "")
            for m in self.lex.match(nt)
            if any(e.kind == "entity" for e in m.entries)
        }
        flat = nt.text.replace(" ", "")
        found.update(e for e in self.kb_entities if e in flat)
        found.update(x for x in _LATIN_NAME.findall(nt.text) if len(x) >= 2)
        # a name inside a longer found name is not a separate mention
        return {e for e in found if not any(e != f and e in f for f in found)}

    def check(self, case: RAGCase, res: RewriteResult, o: CaseOutcome) -> None:
        rewrites = [r for r in res.rewritten_queries]
        texts = [r.text for r in rewrites]
        stand = self._n(res.standalone)
        union = " ".join(self._n(t) for t in texts)
        protected = {self._n(e) for e in case.keep_entities} | {
            m.key.replace(" ", "")
            for m in self.lex.match(self.norm(case.query))
            if any(e.kind == "entity" for e in m.entries)
        }
        o.entities_kept = all(p in stand and (not texts or p in union) for p in protected)
        if case.negations:
            checked = [res.standalone] + [r.text for r in rewrites if "multi_intent" not in r.modes]
            o.negations_kept = all(
                self._n(t).count(self._n(neg)) >= self._n(case.query).count(self._n(neg))
                for t in checked
                for neg in case.negations
            )
        if case.constraints:
            o.constraints_kept = all(
                self._n(c) in self._n(q) for q in o.queries for c in case.constraints
            )
        hist = [str(h.get("content", "")) for h in case.history if isinstance(h, dict)]
        support_texts = [case.query, *hist]
        support = " ".join(self._n(t) for t in support_texts)
        expansions = self._expansions(support_texts)
        noise: list[str] = []
        query_n = self._n(case.query)
        for t in texts:
            bad = [
                e
                for e in self.entities_of(t)
                if e not in support
                and not any(e in x or x in e for x in expansions if x)
                and not _homophone_of(e, query_n)
            ]
            if bad:
                o.noisy_queries += 1
                noise.extend(bad)
        o.rewritten = len(texts)
        o.noise_terms = tuple(dict.fromkeys(noise))


def _homophone_of(term: str, text: str) -> bool:
    """True when ``text`` has a same-length substring that sounds like ``term`` (a typo the
    rewriter corrected: 尤豫期 → 犹豫期), compared as toneless pinyin."""
    from pypinyin import lazy_pinyin

    n = len(term)
    if n < 2 or n > len(text) or not any("\u4e00" <= ch <= "\u9fff" for ch in term):
        return False
    want = lazy_pinyin(term)
    return any(lazy_pinyin(text[i : i + n]) == want for i in range(len(text) - n + 1))


def evaluate_rag(
    cases: Sequence[RAGCase],
    retriever: Callable[..., Any],
    rewriter: Any,
    *,
    k: int = 10,
    merge: str = "max",
    rrf_k: int = 60,
    timeout: float = 10.0,
    kb_entities: Iterable[str] = (),
    progress: Callable[[int], None] | None = None,
) -> RAGReport:
    """Run every case through ``rewriter`` and ``retriever`` (the retrieval contract of
    :mod:`rulerewrite.retrieval`). ``kb_entities``: entity names the knowledge base knows, used
    by the noise check along with the dictionary entities."""
    from rulerewrite.retrieval import MultiRetriever

    fid = _Fidelity(rewriter.lexicon, kb_entities)
    outcomes: list[CaseOutcome] = []
    with MultiRetriever(retriever, k=k, merge=merge, rrf_k=rrf_k, timeout=timeout) as mr:
        for i, case in enumerate(cases):
            try:
                res = rewriter.rewrite(case.query, list(case.history))
            except (QueryError, TypeError) as e:
                raise QueryError(f"[RR622] case {case.id} (line {case.line}): {e}") from None
            o = CaseOutcome(
                case=case,
                decision=res.decision,
                standalone=res.standalone,
                queries=tuple(q.text for q in res.queries),
                modes=res.modes,
                changed=res.changed,
            )
            errors: list[str] = []
            if case.gold is not None:
                orig = [h.id for h in mr.search(case.query)]
                o.ranks["original"] = _rank(orig, case.gold)
                o.top["original"] = tuple(orig[:3])
                if res.decision == "ask_user":
                    o.ranks["standalone"] = o.ranks["merged"] = None
                else:
                    st = (
                        orig
                        if res.standalone == case.query
                        else [h.id for h in mr.search(res.standalone)]
                    )
                    o.ranks["standalone"] = _rank(st, case.gold)
                    o.top["standalone"] = tuple(st[:3])
                    rr = mr.retrieve(res)
                    errors.extend(rr.errors.values())
                    merged = rr.ids()
                    o.ranks["merged"] = _rank(merged, case.gold)
                    o.top["merged"] = tuple(merged[:3])
            o.errors = tuple(errors)
            if res.decision == "search" and res.changed:
                fid.check(case, res, o)
            outcomes.append(o)
            if progress is not None:
                progress(i + 1)
    return RAGReport(outcomes, {"k": k, "merge": merge, "rrf_k": rrf_k, "cases": len(cases)})


# ---------------------------------------------------------------------------------------------
# HTML report

_COLORS = {"original": "#9e9e9e", "standalone": "#64b5f6", "merged": "#1565c0"}


def _png(fig: Any) -> str:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _bars(summary: dict[str, Any], metric: str, title: str) -> str:
    from matplotlib.figure import Figure

    groups = ["ALL", *summary["per_mode"]]
    data = {"ALL": summary["overall"], **summary["per_mode"]}
    fig = Figure(figsize=(max(6.0, 0.9 * len(groups) + 2), 3.4))
    ax = fig.add_subplot()
    w = 0.27
    for j, p in enumerate(PATHS):
        xs = [i + (j - 1) * w for i in range(len(groups))]
        ax.bar(xs, [data[g][p][metric] for g in groups], w, label=p, color=_COLORS[p])
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels([f"{g}\n(n={data[g]['original']['n']})" for g in groups], fontsize=8)
    ax.set_ylim(0, 1.05)
    ax.set_title(title)
    ax.legend(fontsize=8, ncol=3, loc="upper left")
    ax.grid(axis="y", alpha=0.3)
    return _png(fig)


def _fidelity_chart(summary: dict[str, Any]) -> str:
    from matplotlib.figure import Figure

    f = summary["fidelity"]
    labels = ["entities kept", "negations kept", "constraints kept", "noise rate", "ask-user acc."]
    vals = [
        f["entities_kept"],
        f["negations_kept"],
        f["constraints_kept"],
        f["noise_rate"],
        summary["ask_user"]["accuracy"],
    ]
    fig = Figure(figsize=(6.5, 3.0))
    ax = fig.add_subplot()
    colors = ["#2e7d32", "#2e7d32", "#2e7d32", "#c62828", "#6a1b9a"]
    ax.bar(labels, [v or 0.0 for v in vals], color=colors)
    for i, v in enumerate(vals):
        ax.text(i, (v or 0.0) + 0.02, "n/a" if v is None else f"{v:.2f}", ha="center", fontsize=8)
    ax.set_ylim(0, 1.1)
    ax.set_title("rewrite fidelity and routing")
    ax.tick_params(axis="x", labelsize=8)
    return _png(fig)


def _table(head: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    h = "".join(f"<th>{html.escape(str(x))}</th>" for x in head)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(x))}</td>" for x in r) + "</tr>" for r in rows
    )
    return f"<table><thead><tr>{h}</tr></thead><tbody>{body}</tbody></table>"


def render_html(report: RAGReport) -> str:
    """A self-contained HTML page: charts as embedded PNG, tables, the cases that got worse."""
    s = report.summary()
    imgs = [
        _bars(s, "top1", "Top-1 hit rate per mode"),
        _bars(s, "top3", "Top-3 hit rate per mode"),
        _bars(s, "mrr", "MRR per mode"),
        _fidelity_chart(s),
    ]
    data = {"ALL": s["overall"], **s["per_mode"]}
    mode_rows = [
        [g, data[g]["original"]["n"]]
        + [f"{data[g][p][m]:.3f}" for m in ("top1", "top3", "mrr") for p in PATHS]
        for g in data
    ]
    head = ["mode", "n"] + [f"{m} {p}" for m in ("top1", "top3", "mrr") for p in PATHS]
    worse = report.worse_cases()
    worse_rows = [
        [
            o.case.id,
            o.case.mode,
            " | ".join(str(h.get("content", "")) for h in o.case.history[-2:]),
            o.case.query,
            o.standalone if o.decision == "search" else "[ask_user]",
            " / ".join(o.queries[1:]),
            o.ranks.get("original"),
            o.ranks.get("merged"),
        ]
        for o in worse
    ]
    f = s["fidelity"]
    a = s["ask_user"]
    facts = [
        ["cases", s["cases"]],
        ["retrieval cases", s["retrieval_cases"]],
        ["cases rewritten", s["changed_cases"]],
        ["entities kept", f["entities_kept"]],
        ["negations kept", f["negations_kept"]],
        ["constraints kept", f["constraints_kept"]],
        ["noise rate", f"{f['noise_rate']} ({f['rewritten_queries']} rewritten queries)"],
        [
            "ask-user routing accuracy",
            f"{a['accuracy']} (gold {a['gold_ask']}, predicted {a['predicted_ask']}, "
            f"precision {a['precision']}, recall {a['recall']})",
        ],
        [
            "hits lost by rewriting (top-1 / top-3)",
            f"{s['lost_hits']['top1']} / {s['lost_hits']['top3']}",
        ],
        ["hits gained (top-1 / top-3)", f"{s['gained_hits']['top1']} / {s['gained_hits']['top3']}"],
        ["retriever errors", s["retriever_errors"]],
        ["settings", json.dumps(s["settings"], ensure_ascii=False)],
    ]
    noisy = [
        [o.case.id, o.case.query, " / ".join(o.queries[1:]), ", ".join(o.noise_terms)]
        for o in report.outcomes
        if o.noise_terms
    ]
    parts = [
        "<!doctype html><html lang='zh'><head><meta charset='utf-8'>",
        "<title>rulerewrite retrieval evaluation</title><style>",
        "body{font-family:system-ui,sans-serif;margin:2em;max-width:1200px}",
        "table{border-collapse:collapse;font-size:13px;margin:1em 0}",
        "td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top}",
        "th{background:#f3f3f3}img{max-width:100%;margin:0.5em 0}",
        "</style></head><body>",
        "<h1>Retrieval before / after rewriting</h1>",
        "<p>original = the user's query alone; standalone = the rewriter's standalone query "
        "alone; merged = every query of the result, merged "
        f"({html.escape(str(s['settings'].get('merge')))}).</p>",
        _table(["", ""], facts),
        *(f"<img alt='chart' src='data:image/png;base64,{b}'>" for b in imgs),
        "<h2>Per mode</h2>",
        _table(head, mode_rows),
        "<h2>Per domain</h2>",
        _table(
            ["domain", *head[1:]],
            [
                [g, d["original"]["n"]]
                + [f"{d[p][m]:.3f}" for m in ("top1", "top3", "mrr") for p in PATHS]
                for g, d in s["per_domain"].items()
            ],
        ),
        f"<h2>Cases that got worse ({len(worse)})</h2>",
        "<p>The merged list ranks the first gold document lower than the original query did.</p>",
        _table(
            [
                "id",
                "mode",
                "history (last turns)",
                "query",
                "standalone",
                "rewrites",
                "rank orig",
                "rank merged",
            ],
            worse_rows,
        ),
        f"<h2>Rewrites naming unsupported entities ({len(noisy)})</h2>",
        _table(["id", "query", "rewrites", "unsupported"], noisy),
        "</body></html>",
    ]
    return "\n".join(parts)


def kb_entity_names(docs: Iterable[Any]) -> list[str]:
    """The ``entity`` metadata values of knowledge-base documents (for the noise check)."""
    out: list[str] = []
    for d in docs:
        v = d.metadata.get("entity") if hasattr(d, "metadata") else None
        if isinstance(v, str) and v:
            out.append(v)
    return out


def run_rag_eval(
    cases_path: str | Path,
    kb_path: str | Path,
    *,
    rewriter: Any,
    k: int = 10,
    merge: str = "max",
    rrf_k: int = 60,
    json_path: str | Path | None = None,
    html_path: str | Path | None = None,
    cases_out: str | Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> RAGReport:
    """Load cases and a knowledge base, index it with BM25, evaluate, write the outputs."""
    from rulerewrite.bm25 import BM25Retriever, load_kb

    cases = load_cases(cases_path)
    docs = load_kb(kb_path)
    bm25 = BM25Retriever(docs, lexicon=rewriter.lexicon)
    report = evaluate_rag(
        cases,
        bm25,
        rewriter,
        k=k,
        merge=merge,
        rrf_k=rrf_k,
        kb_entities=kb_entity_names(docs),
        progress=progress,
    )
    report.settings.update(
        {"cases_file": str(cases_path), "kb": str(kb_path), "kb_docs": len(docs)}
    )
    if json_path is not None:
        _written(json_path, lambda p: p.write_text(report.to_json(indent=2) + "\n", "utf-8"))
    if html_path is not None:
        _written(html_path, report.write_html)
    if cases_out is not None:
        _written(cases_out, report.write_cases)
    return report


def _written(path: str | Path, write: Callable[[Path], object]) -> None:
    """Write an output file, making its folder first (reports/ in a fresh checkout); a path
    that cannot be written raises :class:`QueryError` RR623 naming it."""
    p = Path(path)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        write(p)
    except OSError as e:
        raise QueryError(f"[RR623] {p}: cannot write ({e.strerror or e})") from None


def print_rag_summary(con: Any, summary: dict[str, Any]) -> None:
    """The summary as rich tables (used by ``rulerewrite eval rag``)."""
    from rich.table import Table

    data = {"ALL": summary["overall"], **summary["per_mode"]}
    t = Table("mode", "n", "Top-1 o/s/m", "Top-3 o/s/m", "MRR o/s/m")
    for g, d in data.items():
        t.add_row(
            g,
            str(d["original"]["n"]),
            *("/".join(f"{d[p][m]:.2f}" for p in PATHS) for m in ("top1", "top3", "mrr")),
        )
    con.print(t)
    con.print("o = original query only, s = standalone only, m = multi-path merged")
    f, a = summary["fidelity"], summary["ask_user"]
    con.print(
        f"rewritten cases {summary['changed_cases']}  entities kept {f['entities_kept']}  "
        f"negations kept {f['negations_kept']}  constraints kept {f['constraints_kept']}  "
        f"noise rate {f['noise_rate']} ({f['rewritten_queries']} rewrites)"
    )
    con.print(
        f"ask-user accuracy {a['accuracy']} (gold {a['gold_ask']}, predicted {a['predicted_ask']}, "
        f"precision {a['precision']}, recall {a['recall']}, asked on retrieval cases "
        f"{a['asked_on_retrieval_cases']})"
    )
    con.print(
        f"hits lost by rewriting: top-1 {summary['lost_hits']['top1']}, top-3 "
        f"{summary['lost_hits']['top3']}; gained: top-1 {summary['gained_hits']['top1']}, top-3 "
        f"{summary['gained_hits']['top3']}; cases worse {summary['worse_cases']}"
    )
