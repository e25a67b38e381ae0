"""How much REWRITE F1 a blind fallback would add, and what it would cost Restoration.

Issue 5 asks for REWRITE restoration F1 >= 75 and, with the same configuration, >= 97 % of the
Restoration rows that need nothing left unchanged. This script measures why the two pull against
each other. It runs the engine on the REWRITE rows given by ``--slices`` (by default the
development slices 0-6000 and 12000-15000, never the held-out ones) and on all of Restoration,
then fills every output the engine left unchanged with the blind baseline (the first noun phrase
of the context put in front) and scores both. It also counts, for a few shallow gates on the
utterance (short, no noun, no personal pronoun, shares a content word with the last two turns),
how many REWRITE rows the fallback would help against how many Restoration rows that need nothing
it would change: a usable gate would need a ratio far above what any of them shows.

Usage: ``python benchmarks/iur_headroom.py [--rewrite FILE] [--restoration FILE]
[--slices 0:6000,12000:15000] [--json OUT]`` (about a minute; the data live in
``../shared/data/iur/`` beside the project).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rulerewrite import Rewriter
from rulerewrite.evaluation.iur import (
    IURExample,
    IURScorer,
    first_noun_phrase,
    load_iur,
    rewriter_system,
)
from rulerewrite.text.segment import Segmenter

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "iur"
PERSONAL = frozenset("我你他她它咱您")
# words too common to show that two turns talk about the same thing
LIGHT = frozenset({"是", "有", "要", "会", "能", "在", "好"})


def fallback_np(ex: IURExample, segmenter: Segmenter) -> str:
    """The blind baseline's noun phrase: the first one found in the context, oldest turn first."""
    for turn in ex.context:
        np = first_noun_phrase(turn, segmenter)
        if np:
            return np
    return ""


def gates(ex: IURExample, segmenter: Segmenter) -> dict[str, bool]:
    """Shallow properties of the utterance that a fallback rule could be gated on."""
    pos = segmenter.pos(ex.current)
    content = {w for w, t in pos if t[:1] in ("v", "n", "a") and w not in LIGHT}
    said = {w for turn in ex.context[-2:] for w, _ in segmenter.pos(turn)}
    return {
        "short (<= 6 chars)": len(ex.current) <= 6,
        "no noun": not any(t.startswith(("n", "eng")) for _, t in pos),
        "no personal pronoun": not any(ch in PERSONAL for ch in ex.current),
        "shares a content word": bool(content & said),
    }


def score(
    rows: Sequence[IURExample], outputs: Sequence[str], segmenter: Segmenter
) -> dict[str, Any]:
    sc = IURScorer(segmenter=segmenter)
    for ex, out in zip(rows, outputs, strict=True):
        sc.add(ex.current, ex.rewrite, out)
    d = sc.report("x").to_dict()
    keys = ("rows", "em", "p1", "r1", "f1", "unchanged_rate", "keep_rows")
    return {k: d[k] for k in keys} | {"exact": sc.report("x").exact}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rewrite", type=Path, default=DATA / "rewrite_train.jsonl")
    ap.add_argument("--restoration", type=Path, default=DATA / "restoration_valid.jsonl")
    ap.add_argument("--slices", default="0:6000,12000:15000", help="REWRITE row ranges a:b")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args(argv)
    for p in (args.rewrite, args.restoration):
        if not p.is_file():
            print(
                f"iur_headroom: {p}: no such file (the IUR data set is not here)", file=sys.stderr
            )
            return 2
    segmenter = Segmenter()
    run: Callable[[IURExample], str] = rewriter_system(Rewriter())
    every = load_iur(args.rewrite)
    rewrite: list[IURExample] = []
    for part in args.slices.split(","):
        a, _, b = part.partition(":")
        if not (a.strip().isdigit() and b.strip().isdigit()):
            print(f"iur_headroom: --slices: {part!r} is not a row range a:b", file=sys.stderr)
            return 2
        rewrite.extend(every[int(a) : int(b)])
    restoration = load_iur(args.restoration)
    report: dict[str, Any] = {"slices": args.slices}
    table: dict[tuple[str, ...], Counter[str]] = {}
    for name, rows in (("rewrite", rewrite), ("restoration", restoration)):
        engine = [run(ex) for ex in rows]
        filled = []
        for ex, out in zip(rows, engine, strict=True):
            np = fallback_np(ex, segmenter) if out == ex.current else ""
            filled.append(np + ex.current if np and np not in ex.current else out)
            if not np or np in ex.current:
                continue
            if name == "rewrite":
                label = "helps" if all(ch in ex.rewrite for ch in np) else "misses"
            elif ex.rewrite == ex.current:
                label = "changes a row needing nothing"
            else:
                continue
            g = gates(ex, segmenter)
            for k in range(len(g) + 1):
                for combo in itertools.combinations(sorted(g), k):
                    if all(g[c] for c in combo):
                        table.setdefault(combo, Counter())[label] += 1
        report[name] = {
            "engine": score(rows, engine, segmenter),
            "engine + fallback": score(rows, filled, segmenter),
        }
    report["gates"] = [
        {"gate": " & ".join(combo) or "(none)", **counts} for combo, counts in table.items()
    ]
    for name in ("rewrite", "restoration"):
        for system, figures in report[name].items():
            print(f"{name:12} {system:18} {json.dumps(figures)}")
    print("gate: REWRITE rows the fallback helps / Restoration rows needing nothing it changes")
    for row in report["gates"]:
        helps, hurts = row.get("helps", 0), row.get("changes a row needing nothing", 0)
        print(f"  {row['gate']:70} {helps:5} / {hurts:5}  ratio {helps / max(1, hurts):.1f}")
    if args.json:
        args.json.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
