"""benchmarks/ab_compare.py: another revision loads beside the working tree and is compared."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import ab_compare  # noqa: E402


def _git_ok() -> bool:
    if shutil.which("git") is None:
        return False
    done = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, check=False
    )
    return done.returncode == 0


pytestmark = pytest.mark.skipif(not _git_ok(), reason="needs a git checkout")


def test_export_renames_every_import(tmp_path: Path) -> None:
    ab_compare.export_revision("HEAD", tmp_path, "rr_ab_test")
    pkg = tmp_path / "rr_ab_test"
    assert (pkg / "__init__.py").is_file()
    assert (tmp_path / "rules").is_dir() and (tmp_path / "dictionaries").is_dir()
    leftovers = [
        p for p in pkg.rglob("*.py") if "from rulerewrite" in p.read_text(encoding="utf-8")
    ]
    assert leftovers == []


_RECORDS = [
    {"query": "Galaxy S24 Ultra 有哪些颜色", "session": "s1"},
    {"query": "它保修多久", "session": "s1"},
    {"query": "那一等座呢", "session": "s2"},
    {"query": "价格？保修？能定制吗？"},
]


def test_compare_of_one_engine_with_itself_finds_no_difference(rewriter: object) -> None:
    from rulerewrite import Rewriter

    pairs = ab_compare.with_histories(_RECORDS)
    res = ab_compare.compare(Rewriter(), rewriter, pairs, cold=2)
    assert res["records"] == 4 and res["results_differ"] == 0
    assert res["A"]["needs_parsing_n"] == res["B"]["needs_parsing_n"] == 1  # 它保修多久
    assert res["A"]["cold_n"] == res["B"]["cold_n"] == 1


def test_main_compares_a_revision_with_the_working_tree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in _RECORDS), "utf-8")
    assert ab_compare.main(["HEAD", "--log", str(log), "--cold", "2"]) == 0
    out = capsys.readouterr().out
    assert "records 4, results that differ: " in out
    assert "\nA needs_parsing_p50_us=" in out and "\nB needs_parsing_p50_us=" in out


def test_an_unknown_revision_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert ab_compare.main(["no-such-revision-xyz"]) == 2
    assert "cannot export 'no-such-revision-xyz'" in capsys.readouterr().out
