"""A/B speed comparison of two revisions of rulerewrite in one process.

Separate benchmark runs on a shared machine drift by 10-30 % between runs, which hides a 5 %
change. This script loads the working tree's ``rulerewrite`` and a copy of another git revision
(renamed to a private package, so both import side by side), and replays the benchmark query log
through both, alternating which engine goes first per record. It reports, per engine, the p50 of
the rewrites that need parsing (issue 5's row), of zero-rewrite and rewritten records, the same
needs-parsing records cold (every memo of both engines emptied before each), and how many
records get a different result (whole result, and without the trace, whose rule ``file:line``
moves when a rule file is edited). Timings are inflated by the two engines sharing the CPU caches;
compare the two columns, not them with ``bench_rewrite.py``.

Usage: ``python benchmarks/ab_compare.py REV [--limit N] [--cold N]`` (REV: any git revision,
e.g. ``HEAD~3`` or a commit hash; the process pins itself to one CPU).
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from bench_rewrite import (  # noqa: E402
    DEFAULT_LOG,
    PARSING_MODES,
    _pct,
    load_log,
    memo_clearer,
    with_histories,
)


def export_revision(rev: str, dest: Path, name: str) -> None:
    """``rev``'s package as ``dest/name`` (every ``rulerewrite`` import renamed), with its
    ``dictionaries/`` and ``rules/`` beside it, where the package looks for them."""
    data = subprocess.run(
        [
            "git",
            "-C",
            str(ROOT),
            "archive",
            "--format=tar",
            rev,
            "rulerewrite",
            "dictionaries",
            "rules",
        ],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(dest, filter="data")
    shutil.move(str(dest / "rulerewrite"), str(dest / name))
    word = re.compile(r"\brulerewrite\b")
    for py in (dest / name).rglob("*.py"):
        py.write_text(word.sub(name, py.read_text(encoding="utf-8")), encoding="utf-8")


def compare(a: Any, b: Any, pairs: list[tuple[str, list[Any]]], cold: int) -> dict[str, Any]:
    clock = time.perf_counter_ns
    engines = {"A": a, "B": b}
    res: dict[str, dict[str, Any]] = {
        k: {"np": [], "zero": [], "chg": [], "total": 0.0} for k in engines
    }
    for q, h in pairs[:2000]:  # warm both the same way
        a.rewrite(q, h)
        b.rewrite(q, h)
    rng = random.Random(1)
    differ = differ_out = 0
    for q, h in pairs:
        order = ["A", "B"] if rng.random() < 0.5 else ["B", "A"]
        outs = {}
        for k in order:
            t0 = clock()
            r = engines[k].rewrite(q, h)
            dt = (clock() - t0) / 1000
            d = res[k]
            d["total"] += dt
            if h and PARSING_MODES.intersection(r.modes):
                d["np"].append(dt)
            (d["chg"] if r.changed else d["zero"]).append(dt)
            outs[k] = r.to_dict()
        differ += outs["A"] != outs["B"]
        # the same without the trace: a rule moved in its file changes only the trace's file:line
        differ_out += {**outs["A"], "trace": None} != {**outs["B"], "trace": None}
    clear_a, clear_b = memo_clearer(a), memo_clearer(b)
    # the cold records are chosen first, in a pass of their own: choosing them inside the timed
    # loop ran one engine on each just before the timing, which warmed that engine's code and
    # favoured it by ~9 % (measured on identical code)
    seen: set[tuple[str, tuple[str, ...]]] = set()
    chosen: list[tuple[str, list[Any]]] = []
    for q, h in pairs:
        key = (q, tuple(t["content"] for t in h))
        if not h or key in seen:
            continue
        seen.add(key)
        if PARSING_MODES.intersection(b.rewrite(q, h).modes):
            chosen.append((q, h))
            if len(chosen) >= cold:
                break
    colds: dict[str, list[float]] = {"A": [], "B": []}
    for i, (q, h) in enumerate(chosen):
        for k in ("A", "B") if i % 2 else ("B", "A"):  # each engine first on half the records
            clear_a()
            clear_b()
            t0 = clock()
            engines[k].rewrite(q, h)
            colds[k].append((clock() - t0) / 1000)
    out: dict[str, Any] = {
        "records": len(pairs),
        "results_differ": differ,
        "outputs_differ": differ_out,
    }
    for k, d in res.items():
        out[k] = {
            "needs_parsing_p50_us": round(_pct(d["np"], 50), 1),
            "needs_parsing_n": len(d["np"]),
            "zero_rewrite_p50_us": round(_pct(d["zero"], 50), 1),
            "rewritten_p50_us": round(_pct(d["chg"], 50), 1),
            "qps": round(len(pairs) / d["total"] * 1e6),
            "cold_needs_parsing_p50_us": round(_pct(colds[k], 50), 1),
            "cold_n": len(colds[k]),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rev", help="the git revision to compare the working tree with (engine A)")
    ap.add_argument("--log", type=Path, default=DEFAULT_LOG)
    ap.add_argument("--limit", type=int, default=None, help="records of the log to replay")
    ap.add_argument("--cold", type=int, default=2000, help="distinct cold records per engine")
    args = ap.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    name = "rr_ab_" + re.sub(r"\W", "_", args.rev)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            export_revision(args.rev, Path(tmp), name)
        except subprocess.CalledProcessError as e:
            print(f"ab_compare: cannot export {args.rev!r}: {e.stderr.decode().strip()}")
            return 2
        sys.path.insert(0, tmp)
        sys.path.insert(0, str(ROOT))
        base = importlib.import_module(name)
        import rulerewrite

        pairs = with_histories(load_log(args.log, args.limit))
        res = compare(base.Rewriter(), rulerewrite.Rewriter(), pairs, args.cold)
    print(f"A = {args.rev}, B = working tree ({rulerewrite.__file__})")
    print(
        f"records {res['records']}, results that differ: {res['results_differ']}"
        f" (without the trace: {res['outputs_differ']})"
    )
    for k in ("A", "B"):
        print(k, " ".join(f"{m}={v}" for m, v in res[k].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
