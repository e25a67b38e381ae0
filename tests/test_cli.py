"""The command line (Typer CliRunner): rewrite, explain, batch, domains, modes, errors."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rulerewrite import available_domains
from rulerewrite.cli import app
from rulerewrite.modes.base import registered_modes

runner = CliRunner()


def run(*args: str) -> Any:
    return runner.invoke(app, list(args))


# -- rewrite / explain --------------------------------------------------------------------------


def test_rewrite_json() -> None:
    res = run("rewrite", "k8s 怎么看 pod 日志", "--json")
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["original_query"] == "k8s 怎么看 pod 日志"
    assert d["queries"][0] == {"text": "k8s 怎么看 pod 日志", "source": "original"}
    assert "Kubernetes 怎么看 pod 日志" in [q["text"] for q in d["queries"]]


def test_rewrite_with_history_options_and_file(tmp_path: Path) -> None:
    hist = ["Galaxy S24 Ultra 有哪些颜色", "有钛黑、钛灰、钛紫和钛黄四种颜色。"]
    a = run("rewrite", "它保修多久？", "-H", hist[0], "--history", hist[1], "--json")
    f = tmp_path / "h.json"
    f.write_text(json.dumps([{"role": "user", "content": hist[0]}, hist[1]]), encoding="utf-8")
    b = run("rewrite", "它保修多久？", "--history-file", str(f), "--json")
    assert a.exit_code == 0 and b.exit_code == 0, a.output + b.output
    assert json.loads(a.stdout) == json.loads(b.stdout)


def test_rewrite_plain_output() -> None:
    res = run("rewrite", "保单怎么退", "--domain", "insurance")
    assert res.exit_code == 0, res.output
    assert "保单怎么退" in res.output and "[original]" in res.output


def test_rewrite_with_user_dictionary(tmp_path: Path) -> None:
    pack = tmp_path / "mine.yaml"
    pack.write_text(
        "pack: mine\naliases:\n  - canonical: 星河云平台\n    variants: [xhy]\n", encoding="utf-8"
    )
    res = run("rewrite", "xhy 怎么登录", "--domain", "tech", "--dict", str(pack), "--json")
    assert res.exit_code == 0, res.output
    assert "星河云平台 怎么登录" in [q["text"] for q in json.loads(res.stdout)["queries"]]


@pytest.mark.parametrize("query", ["", "   ", "\u200b"])
def test_empty_query_exits_2_with_the_message(query: str) -> None:
    res = run("rewrite", query)
    assert res.exit_code == 2
    assert "RR201" in res.output and "empty" in res.output


def test_over_long_query_exits_2() -> None:
    res = run("rewrite", "保" * 600)
    assert res.exit_code == 2 and "RR202" in res.output


def test_malformed_history_exits_2(tmp_path: Path) -> None:
    f = tmp_path / "h.json"
    f.write_text('[{"role": "bot", "content": "x"}]', encoding="utf-8")
    res = run("rewrite", "它多少钱", "--history-file", str(f))
    assert res.exit_code == 2 and "item 0" in res.output
    f.write_text("{not json", encoding="utf-8")
    res = run("rewrite", "它多少钱", "--history-file", str(f))
    assert res.exit_code == 2 and "history-file" in res.output


def test_unknown_domain_exits_2() -> None:
    res = run("rewrite", "保单怎么退", "--domain", "nosuch")
    assert res.exit_code == 2 and "RR200" in res.output


def test_invalid_user_pack_exits_1_with_diagnostics() -> None:
    res = run("rewrite", "保单怎么退", "--dict", "tests/data_errors/RR105.yaml")
    assert res.exit_code == 1
    assert "RR105.yaml:8:16 RR105" in res.output


def test_explain_shows_spans_modes_and_trace() -> None:
    res = run("explain", "k8s 怎么看 pod 日志")
    assert res.exit_code == 0, res.output
    out = res.output
    assert "normalised" in out and "k8s怎么看pod日志" in out
    assert "alias" in out and "Kubernetes" in out
    for mid in registered_modes():
        assert mid in out
    assert "dictionaries/tech.yaml:" in out  # the entry id in the trace / match table


def test_explain_of_an_untouched_query() -> None:
    res = run("explain", "安心福终身寿险的等待期是多少天")
    assert res.exit_code == 0, res.output
    assert "untouched" in res.output or "checklist" in res.output


def test_domains_and_modes() -> None:
    res = run("domains")
    assert res.exit_code == 0
    assert res.output.split() == available_domains()
    res = run("modes")
    assert res.exit_code == 0
    pos = [res.output.index(m) for m in registered_modes()]
    assert pos == sorted(pos)  # listed in pipeline order


# -- batch --------------------------------------------------------------------------------------

JSONL_LINES = [
    json.dumps({"query": "保单怎么退"}, ensure_ascii=False),
    "{not json",
    "",
    json.dumps({"q": "no query field"}),
    json.dumps({"query": 42}),
    json.dumps({"query": "   "}),
    json.dumps({"query": "Galaxy S24 Ultra 有哪些颜色", "session": "a"}, ensure_ascii=False),
    json.dumps({"query": "它保修多久？", "session": "a"}, ensure_ascii=False),
    json.dumps("k8s 怎么看 pod 日志"),
    json.dumps({"query": "它多少钱", "history": "not a list"}, ensure_ascii=False),
    json.dumps({"query": "它多少钱", "history": [{"role": "bot", "content": "x"}]}),
    json.dumps({"query": "保" * 600}, ensure_ascii=False),
    "[1, 2]",
    json.dumps({"query": "ERR-1024"}),
]
JSONL_ERRORS = {2, 3, 4, 5, 6, 10, 11, 12, 13}


def _batch(tmp_path: Path, name: str, text: str, *extra: str) -> tuple[Any, Path]:
    src = tmp_path / name
    src.write_text(text, encoding="utf-8")
    out = tmp_path / f"out-{name}"
    res = run("batch", str(src), "-o", str(out), "--no-progress", *extra)
    return res, out


def _jsonl(out: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]


def test_batch_jsonl_one_record_per_line_in_order(tmp_path: Path) -> None:
    res, out = _batch(tmp_path, "log.jsonl", "\n".join(JSONL_LINES) + "\n")
    assert res.exit_code == 0, res.output
    recs = _jsonl(out)
    assert [r["line"] for r in recs] == list(range(1, len(JSONL_LINES) + 1))
    assert {r["line"] for r in recs if "error" in r} == JSONL_ERRORS
    for r in recs:
        assert ("error" in r) != ("result" in r)
        if "error" in r:
            assert r["error"]
    by_line = {r["line"]: r for r in recs}
    assert "invalid JSON" in by_line[2]["error"]
    assert "RR201" in by_line[6]["error"]
    assert "RR202" in by_line[12]["error"]
    assert "item 0" in by_line[11]["error"]
    # the session gives line 8 line 7 as history: 它 is resolved
    assert "Galaxy S24 Ultra" in by_line[8]["result"]["standalone"]
    assert by_line[9]["result"]["original_query"] == "k8s 怎么看 pod 日志"
    assert f"records {len(JSONL_LINES)}" in res.output
    assert f"errors {len(JSONL_ERRORS)}" in res.output


def test_batch_workers_2_gives_the_same_records(tmp_path: Path) -> None:
    lines = JSONL_LINES * 20  # enough to spread over both workers' chunks
    text = "\n".join(lines) + "\n"
    res1, out1 = _batch(tmp_path, "one.jsonl", text)
    res2, out2 = _batch(tmp_path, "two.jsonl", text, "--workers", "2")
    assert res1.exit_code == 0 and res2.exit_code == 0, res1.output + res2.output
    r1, r2 = _jsonl(out1), _jsonl(out2)
    assert len(r2) == len(lines)
    assert [r["line"] for r in r2] == list(range(1, len(lines) + 1))
    assert r1 == r2


def test_batch_txt(tmp_path: Path) -> None:
    text = "保单怎么退\n\n   \nk8s 怎么看 pod 日志\n" + "保" * 600 + "\nERR-1024"
    res, out = _batch(tmp_path, "log.txt", text)
    assert res.exit_code == 0, res.output
    recs = _jsonl(out)
    assert [r["line"] for r in recs] == [1, 2, 3, 4, 5, 6]
    assert [("error" in r) for r in recs] == [False, True, True, False, True, False]
    assert recs[5]["result"]["standalone"] == "ERR-1024"


def test_batch_csv_in_and_out(tmp_path: Path) -> None:
    rows = [
        ["query", "session"],
        ["保单怎么退", ""],
        ["Galaxy S24 Ultra 有哪些颜色", "s1"],
        ["它保修多久？", "s1"],
        ["", ""],
        ["k8s 怎么看 pod 日志", "", "extra cell"],
        ["ERR-1024", ""],
    ]
    src = tmp_path / "log.csv"
    with src.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows(rows)
    out = tmp_path / "out.csv"
    res = run("batch", str(src), "-o", str(out), "--format", "csv", "--no-progress")
    assert res.exit_code == 0, res.output
    with out.open(encoding="utf-8", newline="") as fh:
        got = list(csv.DictReader(fh))
    assert [int(r["line"]) for r in got] == [2, 3, 4, 5, 6, 7]
    assert [bool(r["error"]) for r in got] == [False, False, False, True, True, False]
    assert "Galaxy S24 Ultra" in got[2]["standalone"]
    assert got[0]["queries"].split(" | ")[0] == "保单怎么退"


def test_batch_csv_without_query_column(tmp_path: Path) -> None:
    res, out = _batch(tmp_path, "bad.csv", "text,session\n保单怎么退,\n")
    assert res.exit_code == 0, res.output
    (rec,) = _jsonl(out)
    assert rec["line"] == 1 and "query" in rec["error"]


def test_batch_bad_arguments(tmp_path: Path) -> None:
    res = run("batch", str(tmp_path / "missing.jsonl"))
    assert res.exit_code == 2 and "not found" in res.output
    src = tmp_path / "x.txt"
    src.write_text("保单怎么退\n", encoding="utf-8")
    res = run("batch", str(src), "--format", "xml")
    assert res.exit_code == 2 and "jsonl or csv" in res.output
