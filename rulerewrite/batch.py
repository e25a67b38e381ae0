"""Batch rewriting of a query log: streamed, ordered, one output record per input record.

Input formats, by extension: ``.jsonl`` (``{"query": ..., "history": [...]?, "session": ...?}``
per line), ``.csv`` (a ``query`` column, optional ``session``), anything else: one query per
line. Records of a session with no explicit history get the session's previous queries as
user turns. A malformed record becomes an error record carrying its line number; it never stops
the run and never leaves a gap.
"""

from __future__ import annotations

import csv
import io
import json
import os
import time
from collections import Counter, deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

Job = tuple[int, str | None, Any, str | None]  # (line, query, history, parse error)


@dataclass
class Summary:
    records: int = 0
    rewritten: int = 0
    ask_user: int = 0
    skipped: int = 0
    errors: int = 0
    per_mode: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    @property
    def qps(self) -> float:
        return self.records / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "records": self.records,
            "rewritten": self.rewritten,
            "ask_user": self.ask_user,
            "skipped": self.skipped,
            "errors": self.errors,
            "per_mode": dict(self.per_mode),
            "seconds": round(self.seconds, 3),
            "queries_per_second": round(self.qps, 1),
        }


def read_jobs(path: Path, *, window: int = 3) -> Iterator[Job]:
    """Yield one job per input record, histories of sessions filled in, in input order."""
    sessions: dict[str, deque[str]] = {}

    def with_session(line: int, query: Any, history: Any, session: Any) -> Job:
        if not isinstance(query, str):
            return (line, None, None, f"field 'query' must be a string, got {type(query).__name__}")
        if session is not None and history is None:
            prev = sessions.setdefault(str(session), deque(maxlen=window))
            history = [{"role": "user", "content": q} for q in prev]
            prev.append(query)
        return (line, query, history, None)

    suffix = path.suffix.lower()
    with path.open(encoding="utf-8", errors="replace", newline="") as fh:
        if suffix == ".csv":
            reader = csv.DictReader(fh)
            if reader.fieldnames is None or "query" not in reader.fieldnames:
                yield (1, None, None, "CSV header must have a 'query' column")
                return
            for row in reader:
                line = reader.line_num
                if None in row:  # more cells than header columns
                    yield (line, None, None, "row has more cells than the header")
                    continue
                yield with_session(line, row.get("query"), None, row.get("session") or None)
            return
        for line, raw in enumerate(fh, 1):
            text = raw.rstrip("\r\n")
            if suffix == ".jsonl" or suffix == ".json":
                if not text.strip():
                    yield (line, None, None, "empty line")
                    continue
                try:
                    rec = json.loads(text)
                except json.JSONDecodeError as e:
                    yield (line, None, None, f"invalid JSON: {e.msg} at column {e.colno}")
                    continue
                if isinstance(rec, str):
                    rec = {"query": rec}
                if not isinstance(rec, dict) or "query" not in rec:
                    yield (line, None, None, "record must be an object with a 'query' field")
                    continue
                yield with_session(line, rec["query"], rec.get("history"), rec.get("session"))
            else:
                yield with_session(line, text, None, None)


_WORKER: Any = None


def _init_worker(domains: Sequence[str] | None, dictionaries: Sequence[str]) -> None:
    global _WORKER  # one Rewriter per worker process, built once
    from rulerewrite import Rewriter

    _WORKER = Rewriter(domains=domains, dictionaries=dictionaries)


def _work(job: Job) -> dict[str, Any]:
    line, query, history, err = job
    if err is not None or query is None:
        return {"line": line, "query": query, "error": err or "no query"}
    try:
        res = _WORKER.rewrite(query, history)
    except (ValueError, TypeError) as e:
        return {"line": line, "query": query, "error": str(e)}
    return {"line": line, "query": query, "result": res.to_dict()}


def _write(out: TextIO, rec: dict[str, Any], fmt: str, writer: Any) -> None:
    if fmt == "jsonl":
        out.write(json.dumps(rec, ensure_ascii=False) + "\n")
        return
    res = rec.get("result") or {}
    writer.writerow(
        [
            rec["line"],
            rec.get("query") or "",
            res.get("standalone", ""),
            res.get("decision", ""),
            " | ".join(q["text"] for q in res.get("queries", [])),
            ",".join(res.get("modes", [])),
            res.get("intent", ""),
            rec.get("error", ""),
        ]
    )


def run_batch(
    input: Path,
    output: Path | None,
    *,
    workers: int = 1,
    fmt: str = "jsonl",
    domains: Sequence[str] | None = None,
    dictionaries: Sequence[str] = (),
    progress: bool = False,
    chunksize: int = 64,
) -> Summary:
    summary = Summary()
    start = time.perf_counter()
    total = None
    if progress:
        with input.open("rb") as fh:
            total = sum(1 for _ in fh)
    out: TextIO = (
        output.open("w", encoding="utf-8", newline="")
        if output
        else io.TextIOWrapper(os.fdopen(os.dup(1), "wb"), encoding="utf-8", newline="")
    )
    writer = csv.writer(out) if fmt == "csv" else None
    if writer is not None:
        writer.writerow(
            ["line", "query", "standalone", "decision", "queries", "modes", "intent", "error"]
        )
    jobs = read_jobs(input)
    bar = None
    task = None
    if progress:
        from rich.progress import Progress

        bar = Progress(transient=False)
        bar.start()
        task = bar.add_task("rewriting", total=total)
    try:
        if workers <= 1:
            _init_worker(domains, dictionaries)
            results: Iterator[dict[str, Any]] = map(_work, jobs)
            pool = None
        else:
            import multiprocessing as mp

            pool = mp.get_context("spawn").Pool(
                workers, initializer=_init_worker, initargs=(domains, list(dictionaries))
            )
            results = pool.imap(_work, jobs, chunksize=chunksize)
        for rec in results:
            summary.records += 1
            if "error" in rec:
                summary.errors += 1
            else:
                r = rec["result"]
                if r["decision"] == "ask_user":
                    summary.ask_user += 1
                if r["rewritten_queries"] or r["standalone"] != r["original_query"]:
                    summary.rewritten += 1
                if r["rewrite_skipped"]:
                    summary.skipped += 1
                summary.per_mode.update(r["modes"])
            _write(out, rec, fmt, writer)
            if bar is not None and task is not None:
                bar.advance(task)
        if pool is not None:
            pool.close()
            pool.join()
    finally:
        if bar is not None:
            bar.stop()
        out.flush()
        if output:
            out.close()
    summary.seconds = time.perf_counter() - start
    return summary
