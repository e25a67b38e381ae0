"""Incomplete-utterance-rewriting (IUR) evaluation, scored the way the literature does.

Tokens are characters: the text is lower-cased and segmented with jieba, Chinese words are split
into characters and Latin/digit words are kept whole; spaces are dropped.

- EM: the rewrite's tokens equal the gold rewrite's tokens.
- Restoration precision/recall/F for n = 1, 2, 3: the *restored* n-grams of a text are its
  n-grams that contain at least one token absent from the current utterance; the counts are
  micro-summed (multiset intersection) over the examples whose gold restores something.
- unchanged rate: the share of rows whose gold equals the current utterance that the system
  also leaves unchanged (the "do no harm" side).
- p50/p99 latency of the system per row.

Example:
    >>> s = IURScorer()
    >>> s.add("它保修多久", "iPhone 15保修多久", "iPhone 15保修多久")
    >>> round(s.report("demo").f(1), 1)
    100.0
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulerewrite.errors import QueryError
from rulerewrite.text.segment import Segmenter

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\U00020000-\U0002ffff]")
_LATIN = re.compile(r"[0-9a-z_]+")


@dataclass(frozen=True, slots=True)
class IURExample:
    """One row: the context turns (oldest first, the last one the assistant's), the current
    utterance, the gold rewrite and, for Restoration-200K, the label (1 = needs restoring)."""

    context: tuple[str, ...]
    current: str
    rewrite: str
    label: int | None = None
    line: int = 0

    def history(self) -> list[dict[str, str]]:
        """The context as chat messages: the last turn is the assistant's, roles alternate."""
        n = len(self.context)
        return [
            {"role": "assistant" if (n - 1 - i) % 2 == 0 else "user", "content": t}
            for i, t in enumerate(self.context)
        ]


def load_iur(path: str | Path, *, limit: int | None = None, skip: int = 0) -> list[IURExample]:
    """Read a JSONL file of ``{"context": [...], "current": str, "rewrite": str, "label"?}``:
    the rows after the first ``skip`` (a held-out slice), at most ``limit`` of them.

    A malformed row raises :class:`QueryError` naming ``file:line`` and the problem (RR500..RR502).
    """
    p = Path(path)
    try:
        fh = p.open(encoding="utf-8")
    except OSError as e:
        raise QueryError(f"[RR500] {p}: cannot read ({e.strerror})") from None
    out: list[IURExample] = []
    with fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                raise QueryError(f"[RR501] {p}:{lineno}: invalid JSON ({e.msg})") from None
            out.append(_example(row, f"{p}:{lineno}", lineno))
            if limit is not None and len(out) >= skip + limit:
                break
    return out[skip:]


def _example(row: Any, where: str, lineno: int) -> IURExample:
    if not isinstance(row, dict):
        raise QueryError(f"[RR502] {where}: expected a JSON object, got {type(row).__name__}")
    ctx = row.get("context")
    if not isinstance(ctx, list) or not all(isinstance(t, str) for t in ctx):
        raise QueryError(f"[RR502] {where}: 'context' must be a list of strings")
    for key in ("current", "rewrite"):
        if not isinstance(row.get(key), str):
            raise QueryError(f"[RR502] {where}: {key!r} must be a string")
    label = row.get("label")
    if label is not None and label not in (0, 1):
        raise QueryError(f"[RR502] {where}: 'label' must be 0 or 1, got {label!r}")
    return IURExample(tuple(ctx), row["current"], row["rewrite"], label, lineno)


def char_tokens(text: str, segmenter: Segmenter) -> list[str]:
    """Lower-case, segment with jieba, split Chinese words into characters, keep Latin whole."""
    out: list[str] = []
    for w in segmenter.cut(text.lower()):
        w = w.strip()
        if not w:
            continue
        if _LATIN.fullmatch(w):
            out.append(w)
        else:
            out.extend(ch for ch in w if not ch.isspace())
    return out


def restored_ngrams(tokens: Sequence[str], current: set[str], n: int) -> Counter[tuple[str, ...]]:
    """The n-grams of ``tokens`` that contain at least one token absent from ``current``."""
    c: Counter[tuple[str, ...]] = Counter()
    for i in range(len(tokens) - n + 1):
        g = tuple(tokens[i : i + n])
        if any(t not in current for t in g):
            c[g] += 1
    return c


@dataclass
class IURReport:
    """Scores of one system on one corpus (percentages)."""

    name: str
    rows: int = 0
    exact: int = 0
    restore_rows: int = 0  # rows whose gold restores something
    hit: list[int] = field(default_factory=lambda: [0, 0, 0])
    pred: list[int] = field(default_factory=lambda: [0, 0, 0])
    gold: list[int] = field(default_factory=lambda: [0, 0, 0])
    keep_rows: int = 0  # rows whose gold equals the current utterance
    kept: int = 0
    changed: int = 0
    latencies: list[float] = field(default_factory=list)

    def em(self) -> float:
        return 100.0 * self.exact / self.rows if self.rows else 0.0

    def p(self, n: int) -> float:
        return 100.0 * self.hit[n - 1] / self.pred[n - 1] if self.pred[n - 1] else 0.0

    def r(self, n: int) -> float:
        return 100.0 * self.hit[n - 1] / self.gold[n - 1] if self.gold[n - 1] else 0.0

    def f(self, n: int) -> float:
        p, r = self.p(n), self.r(n)
        return 2 * p * r / (p + r) if p + r else 0.0

    def unchanged_rate(self) -> float | None:
        return 100.0 * self.kept / self.keep_rows if self.keep_rows else None

    def latency_ms(self, q: float) -> float | None:
        if not self.latencies:
            return None
        xs = sorted(self.latencies)
        return 1000.0 * xs[min(int(q * len(xs)), len(xs) - 1)]

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"system": self.name, "rows": self.rows, "em": round(self.em(), 2)}
        for n in (1, 2, 3):
            d[f"p{n}"] = round(self.p(n), 2)
            d[f"r{n}"] = round(self.r(n), 2)
            d[f"f{n}"] = round(self.f(n), 2)
        d["restore_rows"] = self.restore_rows
        ur = self.unchanged_rate()
        d["unchanged_rate"] = None if ur is None else round(ur, 2)
        d["keep_rows"] = self.keep_rows
        d["changed_rows"] = self.changed
        for q, k in ((0.5, "p50_ms"), (0.99, "p99_ms")):
            v = self.latency_ms(q)
            d[k] = None if v is None else round(v, 4)
        return d


class IURScorer:
    """Accumulates rows into an :class:`IURReport` (build once per system and corpus)."""

    def __init__(self, *, segmenter: Segmenter | None = None) -> None:
        self.segmenter = segmenter or Segmenter()
        self._report = IURReport("system")

    def add(self, current: str, gold: str, output: str, *, seconds: float | None = None) -> None:
        rep = self._report
        seg = self.segmenter
        cur = char_tokens(current, seg)
        g = char_tokens(gold, seg)
        o = char_tokens(output, seg)
        rep.rows += 1
        rep.exact += o == g
        rep.changed += o != cur
        if seconds is not None:
            rep.latencies.append(seconds)
        if g == cur:
            rep.keep_rows += 1
            rep.kept += o == cur
        cur_set = set(cur)
        gold1 = restored_ngrams(g, cur_set, 1)
        if not gold1:
            return  # the gold restores nothing: not part of the restoration score
        rep.restore_rows += 1
        for n in (1, 2, 3):
            gn = gold1 if n == 1 else restored_ngrams(g, cur_set, n)
            on = restored_ngrams(o, cur_set, n)
            rep.hit[n - 1] += sum((gn & on).values())
            rep.pred[n - 1] += sum(on.values())
            rep.gold[n - 1] += sum(gn.values())

    def report(self, name: str) -> IURReport:
        self._report.name = name
        return self._report


System = Callable[[IURExample], str]


def evaluate_iur(
    examples: Iterable[IURExample],
    systems: dict[str, System],
    *,
    segmenter: Segmenter | None = None,
    timed: Iterable[str] = (),
) -> list[IURReport]:
    """Score every system on the same rows; systems named in ``timed`` get latencies."""
    seg = segmenter or Segmenter()
    scorers = {name: IURScorer(segmenter=seg) for name in systems}
    timed_set = set(timed)
    for ex in examples:
        for name, fn in systems.items():
            if name in timed_set:
                t0 = time.perf_counter()
                out = fn(ex)
                dt: float | None = time.perf_counter() - t0
            else:
                out, dt = fn(ex), None
            scorers[name].add(ex.current, ex.rewrite, out, seconds=dt)
    return [scorers[n].report(n) for n in systems]


# -- baselines ---------------------------------------------------------------------------------


def copy_input(ex: IURExample) -> str:
    """Baseline: the current utterance unchanged."""
    return ex.current


_NOUNISH = ("n", "eng", "nz", "nr", "ns", "nt", "vn", "ng")


def first_noun_phrase(text: str, segmenter: Segmenter) -> str:
    """The first maximal run of nominal words (jieba POS ``n*``/``eng``/``vn``) in ``text``."""
    run: list[str] = []
    for w, tag in segmenter.pos(text):
        if tag.startswith(_NOUNISH) or tag == "eng":
            run.append(w)
        elif run:
            break
    return "".join(run)


def prepend_first_np(segmenter: Segmenter) -> System:
    """Baseline: blindly put the first noun phrase of the context before the current utterance."""

    def run(ex: IURExample) -> str:
        for turn in ex.context:
            np = first_noun_phrase(turn, segmenter)
            if np:
                return np + ex.current
        return ex.current

    return run


def rewriter_system(rewriter: Any) -> System:
    """The engine: ``rewriter.rewrite(current, history).standalone`` (the original on ask_user)."""

    def run(ex: IURExample) -> str:
        try:
            res = rewriter.rewrite(ex.current, ex.history())
        except QueryError:
            return ex.current
        return str(res.standalone)

    return run


def run_iur(
    path: str | Path,
    rewriter: Any,
    *,
    limit: int | None = None,
    skip: int = 0,
    baselines: bool = True,
) -> list[IURReport]:
    """Score the engine (and, with ``baselines``, copy-the-input and blind prepending) on a file
    (the rows after the first ``skip``, at most ``limit`` of them)."""
    rows = load_iur(path, limit=limit, skip=skip)
    seg = Segmenter()
    systems: dict[str, System] = {"rulerewrite": rewriter_system(rewriter)}
    if baselines:
        systems["copy_input"] = copy_input
        systems["prepend_first_np"] = prepend_first_np(seg)
    return evaluate_iur(rows, systems, segmenter=seg, timed=("rulerewrite",))


def print_iur(con: Any, name: str, reports: Sequence[IURReport]) -> None:
    """A rich table of the scores of every system on one corpus."""
    from rich.table import Table

    t = Table(
        "system", "EM", "P1", "R1", "F1", "F2", "F3", "unchanged", "changed", "p50 ms", "p99 ms",
        title=f"{name} ({reports[0].rows if reports else 0} rows)",
    )  # fmt: skip
    for r in reports:
        ur = r.unchanged_rate()
        p50, p99 = r.latency_ms(0.5), r.latency_ms(0.99)
        t.add_row(
            r.name,
            f"{r.em():.2f}",
            f"{r.p(1):.2f}",
            f"{r.r(1):.2f}",
            f"{r.f(1):.2f}",
            f"{r.f(2):.2f}",
            f"{r.f(3):.2f}",
            "-" if ur is None else f"{ur:.2f}% of {r.keep_rows}",
            str(r.changed),
            "-" if p50 is None else f"{p50:.3f}",
            "-" if p99 is None else f"{p99:.3f}",
        )
    con.print(t)
