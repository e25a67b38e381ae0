"""Command line: a thin Typer layer over library calls (``rulerewrite --help``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from rulerewrite.errors import LexiconError, QueryError, RuleRewriteError

app = typer.Typer(
    add_completion=False, no_args_is_help=True, help="Rule-first Chinese query rewriting for RAG."
)
eval_app = typer.Typer(
    no_args_is_help=True, help="Evaluate rewriting (iur: against gold rewrites; rag: retrieval)."
)
app.add_typer(eval_app, name="eval")

DomainOpt = Annotated[
    list[str] | None,
    typer.Option("--domain", "-d", help="Bundled domain pack (repeatable); default all."),
]
DictOpt = Annotated[
    list[Path] | None, typer.Option("--dict", help="Extra pack file or folder (repeatable).")
]
HistOpt = Annotated[
    list[str] | None,
    typer.Option("--history", "-H", help="History turn, oldest first, alternating user/assistant."),
]
HistFileOpt = Annotated[
    Path | None,
    typer.Option("--history-file", help="JSON file: a list of messages or strings (oldest first)."),
]


def _console(err: bool = False) -> Console:
    return Console(stderr=err, highlight=False, soft_wrap=True)


def _fail(msg: str, code: int = 2) -> typer.Exit:
    _console(err=True).print(f"[bold red]error:[/] {msg}", markup=True)
    return typer.Exit(code)


def _rewriter(domain: list[str] | None, dicts: list[Path] | None, **options: Any) -> Any:
    from rulerewrite import Rewriter

    try:
        return Rewriter(
            domains=domain or None, dictionaries=[str(p) for p in dicts or []], **options
        )
    except LexiconError as e:
        raise _fail(str(e), 1) from None
    except RuleRewriteError as e:
        raise _fail(str(e)) from None


def _history(history: list[str] | None, history_file: Path | None) -> list[Any]:
    turns: list[Any] = list(history or [])
    if history_file is not None:
        try:
            data = json.loads(history_file.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as e:
            raise _fail(f"--history-file {history_file}: {e}") from None
        if not isinstance(data, list):
            raise _fail(f"--history-file {history_file}: expected a JSON list of messages")
        turns = data + turns
    return turns


@app.command()
def rewrite(
    query: Annotated[str, typer.Argument(help="The user's query.")],
    history: HistOpt = None,
    history_file: HistFileOpt = None,
    domain: DomainOpt = None,
    dicts: DictOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the full result as JSON.")] = False,
) -> None:
    """Rewrite one query (with optional dialogue history)."""
    rw = _rewriter(domain, dicts)
    try:
        res = rw.rewrite(query, _history(history, history_file))
    except (QueryError, TypeError) as e:
        raise _fail(str(e)) from None
    if as_json:
        typer.echo(res.to_json(indent=2))
        return
    from rulerewrite.report import print_result

    print_result(_console(), res)


@app.command()
def explain(
    query: Annotated[str, typer.Argument(help="The user's query.")],
    history: HistOpt = None,
    history_file: HistFileOpt = None,
    domain: DomainOpt = None,
    dicts: DictOpt = None,
) -> None:
    """Show the matched dictionary spans, the modes considered and the full trace."""
    rw = _rewriter(domain, dicts)
    from rulerewrite.report import print_explain

    try:
        print_explain(_console(), rw, query, _history(history, history_file))
    except (QueryError, TypeError) as e:
        raise _fail(str(e)) from None


@app.command()
def check(
    paths: Annotated[list[Path], typer.Argument(help="Pack / rule files or folders to validate.")],
) -> None:
    """Validate packs and rule files; every problem as ``file:line:col CODE message``."""
    from rulerewrite.lexicon import check_paths

    diags = check_paths([str(p) for p in paths])
    con = _console()
    for d in diags:
        con.print(str(d), markup=False)
    if diags:
        con.print(f"{len(diags)} problem(s)", style="bold red")
        raise typer.Exit(1)
    con.print(f"ok: {len(paths)} path(s), no problems", style="green")


@app.command()
def batch(
    input: Annotated[
        Path,
        typer.Argument(help="Query log: JSONL ({query, history?, session?}), CSV, or plain text."),
    ],
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Output file (default stdout).")
    ] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Worker processes.")] = 1,
    fmt: Annotated[str, typer.Option("--format", help="Output format: jsonl or csv.")] = "jsonl",
    domain: DomainOpt = None,
    dicts: DictOpt = None,
    progress: Annotated[
        bool, typer.Option("--progress/--no-progress", help="Show a progress bar.")
    ] = True,
) -> None:
    """Rewrite a query log: exactly one output record per input record, in input order."""
    from rulerewrite.batch import run_batch

    if fmt not in ("jsonl", "csv"):
        raise _fail(f"--format must be jsonl or csv, got {fmt!r}")
    if not input.is_file():
        raise _fail(f"input file not found: {input}")
    _rewriter(domain, dicts)  # validate packs up front (and warm the cache for the workers)
    summary = run_batch(
        input,
        output,
        workers=workers,
        fmt=fmt,
        domains=domain or None,
        dictionaries=[str(p) for p in dicts or []],
        progress=progress and output is not None,
    )
    from rulerewrite.report import print_summary

    print_summary(_console(err=output is None), summary)


@app.command()
def demo(
    domain: DomainOpt = None,
    limit: Annotated[int, typer.Option(help="Dialogues to show.")] = 100,
    retrieval: Annotated[
        bool,
        typer.Option(
            "--retrieval/--no-retrieval",
            help="Also retrieve against the bundled FAQ knowledge base (needs the retrieval extra).",
        ),
    ] = True,
) -> None:
    """Rewrite the bundled sample dialogues and show what changed (``make run``)."""
    from rulerewrite.report import run_demo, run_retrieval_demo

    rw = _rewriter(domain, None)
    run_demo(_console(), rw, limit=limit)
    if retrieval:
        run_retrieval_demo(_console(), rw, limit=limit)


@app.command()
def domains() -> None:
    """List the bundled domain packs."""
    from rulerewrite import available_domains

    for d in available_domains():
        typer.echo(d)


@app.command()
def modes() -> None:
    """List the registered modes in pipeline order, with what each does."""
    from rulerewrite.modes.base import registered_modes

    t = Table("mode", "what it does")
    for mid, cls in registered_modes().items():
        t.add_row(mid, (cls.__doc__ or "").strip().split("\n")[0])
    _console().print(t)


@eval_app.command("rag")
def eval_rag(
    cases: Annotated[Path, typer.Argument(help="Cases JSONL: {id, history, query, gold, mode}.")],
    kb: Annotated[Path, typer.Option("--kb", help="Knowledge base: JSONL or CSV (id, text).")],
    k: Annotated[int, typer.Option("--k", min=1, help="Hits retrieved per query.")] = 10,
    merge: Annotated[str, typer.Option(help="Merge: max, rrf or weighted.")] = "max",
    rrf_k: Annotated[int, typer.Option("--rrf-k", min=0, help="RRF constant.")] = 60,
    json_out: Annotated[Path, typer.Option("--json", help="JSON summary path.")] = Path(
        "rag_eval.json"
    ),
    html_out: Annotated[Path, typer.Option("--html", help="HTML report path.")] = Path(
        "rag_eval.html"
    ),
    cases_out: Annotated[
        Path | None, typer.Option("--cases-out", help="Write every case outcome (JSONL).")
    ] = None,
    domain: DomainOpt = None,
    dicts: DictOpt = None,
) -> None:
    """Retrieval before/after rewriting (BM25 over --kb): hit rates, MRR, fidelity, report."""
    from rulerewrite.bm25 import KnowledgeBaseError
    from rulerewrite.evaluation.rag import print_rag_summary, run_rag_eval

    if merge not in ("max", "rrf", "weighted"):
        raise _fail(f"--merge must be max, rrf or weighted, got {merge!r}")
    rw = _rewriter(domain, dicts)
    try:
        report = run_rag_eval(
            cases,
            kb,
            rewriter=rw,
            k=k,
            merge=merge,
            rrf_k=rrf_k,
            json_path=json_out,
            html_path=html_out,
            cases_out=cases_out,
        )
    except (QueryError, KnowledgeBaseError) as e:
        raise _fail(str(e)) from None
    except ImportError as e:
        raise _fail(f"{e} (pip install 'rulerewrite[retrieval,report]')") from None
    con = _console()
    print_rag_summary(con, report.summary())
    con.print(f"wrote {json_out} and {html_out}")


@eval_app.command("iur")
def eval_iur(
    files: Annotated[
        list[Path], typer.Argument(help="JSONL: {context, current, rewrite, label?} per line.")
    ],
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Score only the first N rows.")
    ] = None,
    skip: Annotated[
        int, typer.Option("--skip", min=0, help="Skip the first N rows (a held-out slice).")
    ] = 0,
    baselines: Annotated[
        bool,
        typer.Option("--baselines/--no-baselines", help="Also score copy / blind prepending."),
    ] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
    modes: Annotated[
        str | None,
        typer.Option("--modes", help="Comma-separated mode ids to run (default: all)."),
    ] = None,
    domain: DomainOpt = None,
    dicts: DictOpt = None,
) -> None:
    """Score rewrites against gold rewrites: EM, restoration P/R/F (n=1,2,3), unchanged rate."""
    from rulerewrite.evaluation.iur import print_iur, run_iur

    opts: dict[str, Any] = {}
    if modes:
        from rulerewrite.modes.base import registered_modes

        wanted = [m.strip() for m in modes.split(",") if m.strip()]
        unknown = [m for m in wanted if m not in registered_modes()]
        if unknown:
            raise _fail(f"--modes: unknown mode(s) {unknown}; known: {list(registered_modes())}")
        opts["modes"] = frozenset(wanted)
    rw = _rewriter(domain, dicts, **opts)
    results: dict[str, list[dict[str, Any]]] = {}
    for f in files:
        try:
            reports = run_iur(f, rw, limit=limit, skip=skip, baselines=baselines)
        except QueryError as e:
            raise _fail(str(e)) from None
        results[str(f)] = [r.to_dict() for r in reports]
        if not as_json:
            print_iur(_console(), str(f), reports)
    if as_json:
        typer.echo(json.dumps(results, ensure_ascii=False, indent=2))


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:  # pragma: no cover
        sys.exit(130)


if __name__ == "__main__":
    main()
