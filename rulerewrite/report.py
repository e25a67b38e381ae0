"""Human-readable output for the CLI (rich): results, explanations, batch summaries, the demo."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from rich.console import Console
from rich.table import Table

from rulerewrite.result import RewriteResult


def print_result(con: Console, res: RewriteResult) -> None:
    con.print(f"[bold]original[/]   {res.original_query}")
    if res.decision == "ask_user":
        con.print(
            f"[bold yellow]ask user[/]   {res.clarification}  (missing: {', '.join(res.missing_fields)})"
        )
    else:
        con.print(f"[bold]standalone[/] {res.standalone}")
    con.print(
        f"[bold]modes[/]      {', '.join(res.modes) or '-'}   intent: {res.intent}   confidence: {res.confidence:.2f}"
    )
    for q in res.queries:
        con.print(f"  [{q.source}] {q.text}", markup=False)
    if res.conditions:
        con.print("[bold]conditions[/] " + "; ".join(f"{c.type}={c.text}" for c in res.conditions))
    if res.must_keep_entities:
        con.print("[bold]must keep[/]  " + ", ".join(res.must_keep_entities))


def print_explain(con: Console, rw: Any, query: str, history: list[Any]) -> None:
    from rulerewrite.context import parse_history
    from rulerewrite.modes.base import registered_modes
    from rulerewrite.text.normalize import clean_query

    q = clean_query(query) if isinstance(query, str) else query
    res: RewriteResult = rw.rewrite(query, history)  # validates the input first
    state = rw.pipeline.initial_state(q, parse_history(history))
    con.print(f"[bold]query[/]       {q}")
    con.print(f"[bold]normalised[/]  {state.norm.text}")
    con.print("[bold]dictionary matches[/]")
    for m in state.matches:
        s, e = state.norm.to_original(m.start, m.end)
        for ent in m.entries:
            extra = ent.canonical or ", ".join(ent.targets) or ent.etype or ent.intent or ""
            con.print(
                f"  {s}-{e} {q[s:e]}  {ent.kind}{' → ' + extra if extra else ''}  ({ent.source})",
                markup=False,
            )
    if not state.matches:
        con.print("  (none)")
    modes = {m.id: m for m in rw.pipeline.modes}
    considered = []
    for mid in registered_modes():
        m = modes.get(mid)
        considered.append(f"{mid}={'off' if m is None else ('yes' if m.applies(state) else 'no')}")
    con.print("[bold]modes considered[/] " + "  ".join(considered))
    con.print("[bold]trace[/]")
    for st in res.trace:
        turn = f" (from turn {st.source_turn})" if st.source_turn is not None else ""
        con.print(f"  [{st.mode}] {st.status}  {st.rule}{turn}", markup=False)
        if st.before != st.after:
            con.print(f"      {st.before}  →  {st.after}", markup=False)
        if st.note:
            con.print(f"      {st.note}", markup=False)
    if not res.trace:
        con.print("  (no step: the query passes through untouched)")
    print_result(con, res)


def print_summary(con: Console, summary: Any) -> None:
    d = summary.to_dict()
    con.print(
        f"records {d['records']}  rewritten {d['rewritten']}  ask_user {d['ask_user']}  skipped {d['skipped']}  "
        f"errors {d['errors']}  {d['queries_per_second']} queries/s"
    )
    if d["per_mode"]:
        con.print("per mode: " + ", ".join(f"{k} {v}" for k, v in sorted(d["per_mode"].items())))


def load_samples() -> list[dict[str, Any]]:
    """The bundled sample dialogues (``rulerewrite/samples/dialogues.jsonl``)."""
    text = (
        resources.files("rulerewrite")
        .joinpath("samples/dialogues.jsonl")
        .read_text(encoding="utf-8")
    )
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def run_demo(con: Console, rw: Any, *, limit: int = 100) -> None:
    samples = load_samples()[:limit]
    t = Table(
        "#",
        "domain",
        "history (last turn)",
        "query",
        "standalone / ask",
        "extra queries",
        "modes",
        show_lines=True,
    )
    changed = 0
    for i, s in enumerate(samples, 1):
        res = rw.rewrite(s["query"], s.get("history") or [])
        hist = s.get("history") or []
        last = (
            hist[-1]["content"]
            if hist and isinstance(hist[-1], dict)
            else (hist[-1] if hist else "")
        )
        out = f"[ask] {res.clarification}" if res.decision == "ask_user" else res.standalone
        extra = "\n".join(q.text for q in res.queries[1:] if q.text != res.standalone)
        changed += res.changed or res.decision == "ask_user"
        t.add_row(
            str(i),
            s.get("domain", ""),
            last[:40],
            s["query"],
            out,
            extra,
            ",".join(res.modes) or "-",
        )
    con.print(t)
    con.print(
        f"{len(samples)} dialogues, {changed} rewritten or routed to the user, {len(samples) - changed} passed through untouched"
    )


def run_retrieval_demo(con: Console, rw: Any, *, limit: int = 100, k: int = 3) -> None:
    """Retrieve the sample dialogues against the bundled FAQ knowledge base
    (``rulerewrite/samples/kb.jsonl``, BM25): the top document for the user's query alone
    (before) and for all the rewrite's queries merged (after)."""
    from rich.markup import escape as esc

    try:
        from rulerewrite.bm25 import BM25Retriever, load_kb
        from rulerewrite.retrieval import MultiRetriever

        with resources.as_file(resources.files("rulerewrite") / "samples/kb.jsonl") as kb_path:
            docs = load_kb(kb_path)
        bm25 = BM25Retriever(docs, lexicon=rw.lexicon)
    except ImportError:
        con.print("retrieval demo skipped: pip install 'rulerewrite[retrieval]' (bm25s) to see it")
        return
    titles = {d.id: d.title or d.text[:30] for d in docs}
    t = Table(
        "#",
        "query",
        "before: top-1 (query alone)",
        "after: top-1 (multi-path) (found by)",
        title=f"retrieval before / after rewriting (BM25 over {len(docs)} bundled FAQ documents)",
        show_lines=True,
    )
    moved = asked = 0
    with MultiRetriever(bm25, k=k) as mr:
        for i, s in enumerate(load_samples()[:limit], 1):
            res = rw.rewrite(s["query"], s.get("history") or [])
            before = mr.search(s["query"])
            b = titles[before[0].id] if before else "-"
            if res.decision == "ask_user":
                asked += 1
                t.add_row(str(i), esc(s["query"]), esc(b), esc(f"(ask) {res.clarification}"))
                continue
            after = mr.retrieve(res).hits
            a = titles[after[0].id] if after else "-"
            src = f" ({after[0].query_source})" if after else ""
            moved += a != b
            t.add_row(str(i), esc(s["query"]), esc(b), esc((a if a != b else "(same)") + src))
    con.print(t)
    con.print(
        f"top-1 document changed for {moved} dialogues; {asked} routed to the user instead of "
        "retrieving. Full evaluation with gold answers: rulerewrite eval rag "
        "benchmarks/data/rag_cases.jsonl --kb benchmarks/data/rag_kb.jsonl"
    )
