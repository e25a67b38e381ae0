"""benchmarks/iur_headroom.py on tiny hand-written corpora: the engine and the blind fallback are
both scored, the fallback changes a row that needs nothing, and bad arguments are reported."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import iur_headroom  # noqa: E402


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


@pytest.fixture
def corpora(tmp_path: Path) -> tuple[Path, Path]:
    rewrite = _write(
        tmp_path / "rewrite.jsonl",
        [
            {
                "context": ["三体这本书你看过吗", "看过"],
                "current": "我觉得写得很好",
                "rewrite": "我觉得三体写得很好",
            },
            {
                "context": ["小米14的续航怎么样", "续航很不错"],
                "current": "充电快吗",
                "rewrite": "小米14充电快吗",
            },
        ],
    )
    restoration = _write(
        tmp_path / "restoration.jsonl",
        [
            {
                "context": ["周末的会议取消了", "真的吗", "真的", "那太好了"],
                "current": "我明天也要去公司",
                "rewrite": "我明天也要去公司",
            },
        ],
    )
    return rewrite, restoration


def test_scores_engine_and_fallback(corpora: tuple[Path, Path], tmp_path: Path) -> None:
    rewrite, restoration = corpora
    out = tmp_path / "report.json"
    argv = ["--rewrite", str(rewrite), "--restoration", str(restoration), "--slices", "0:2"]
    assert iur_headroom.main([*argv, "--json", str(out)]) == 0
    report = json.loads(out.read_text("utf-8"))
    assert report["rewrite"]["engine"]["rows"] == 2
    kept = report["restoration"]
    # a complete statement: the engine leaves it alone, the blind fallback puts 会议 before it
    assert kept["engine"]["unchanged_rate"] == 100.0
    assert kept["engine + fallback"]["unchanged_rate"] == 0.0
    none = next(g for g in report["gates"] if g["gate"] == "(none)")
    assert none["changes a row needing nothing"] == 1


def test_bad_arguments_are_reported(
    corpora: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rewrite, restoration = corpora
    missing = tmp_path / "missing.jsonl"
    assert iur_headroom.main(["--rewrite", str(missing), "--restoration", str(restoration)]) == 2
    assert "missing.jsonl: no such file" in capsys.readouterr().err
    argv = ["--rewrite", str(rewrite), "--restoration", str(restoration), "--slices", "0-2"]
    assert iur_headroom.main(argv) == 2
    assert "'0-2' is not a row range a:b" in capsys.readouterr().err
