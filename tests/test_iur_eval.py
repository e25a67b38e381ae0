"""IUR metrics (rulerewrite/evaluation/iur.py) on tiny hand-written examples, and the engine on
the shared development corpora when they are present (skipped otherwise)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulerewrite.errors import QueryError
from rulerewrite.evaluation.iur import (
    IURExample,
    IURScorer,
    char_tokens,
    copy_input,
    evaluate_iur,
    first_noun_phrase,
    load_iur,
    prepend_first_np,
    restored_ngrams,
    run_iur,
)
from rulerewrite.text.segment import Segmenter
from tests.conftest import shared_data


@pytest.fixture(scope="module")
def seg() -> Segmenter:
    return Segmenter()


def test_tokens_are_characters_with_latin_words_whole(seg: Segmenter) -> None:
    assert char_tokens("iPhone 15保修多久", seg) == ["iphone", "15", "保", "修", "多", "久"]
    assert char_tokens("  ", seg) == []


def test_restored_ngrams_need_a_new_token() -> None:
    cur = {"保", "修", "多", "久"}
    toks = ["x", "保", "修", "多", "久"]
    assert restored_ngrams(toks, cur, 1) == {("x",): 1}
    assert restored_ngrams(toks, cur, 2) == {("x", "保"): 1}
    assert restored_ngrams(toks, cur, 3) == {("x", "保", "修"): 1}


def test_perfect_rewrite_scores_100(seg: Segmenter) -> None:
    s = IURScorer(segmenter=seg)
    s.add("它保修多久", "iPhone保修多久", "iPhone保修多久")
    r = s.report("x")
    assert r.em() == 100.0 and r.p(1) == r.r(1) == r.f(1) == 100.0
    assert r.f(2) == r.f(3) == 100.0


def test_partial_restoration_by_hand(seg: Segmenter) -> None:
    # gold restores 北 京 (2 unigrams); the output restores 北 and 上 (1 right, 1 wrong)
    s = IURScorer(segmenter=seg)
    s.add("天气怎么样", "北京天气怎么样", "北上天气怎么样")
    r = s.report("x")
    assert r.pred[0] == 2 and r.gold[0] == 2 and r.hit[0] == 1
    assert r.p(1) == 50.0 and r.r(1) == 50.0 and r.f(1) == 50.0
    assert r.em() == 0.0


def test_copy_scores_zero_restoration_and_full_unchanged(seg: Segmenter) -> None:
    rows = [
        IURExample(("a",), "好的", "好的", 0),
        IURExample(("北京天气",), "明天呢", "北京明天呢", 1),
    ]
    (r,) = evaluate_iur(rows, {"copy": copy_input}, segmenter=seg)
    assert r.em() == 50.0 and r.unchanged_rate() == 100.0 and r.keep_rows == 1
    assert r.p(1) == 0.0 and r.r(1) == 0.0 and r.restore_rows == 1


def test_rows_whose_gold_restores_nothing_do_not_count_in_restoration(seg: Segmenter) -> None:
    s = IURScorer(segmenter=seg)
    s.add("好的", "好的", "北京好的")  # a harmful change on a complete utterance
    r = s.report("x")
    assert r.pred == [0, 0, 0] and r.unchanged_rate() == 0.0 and r.changed == 1


def test_history_roles_end_with_the_assistant() -> None:
    ex = IURExample(("a", "b", "c"), "d", "d")
    assert [m["role"] for m in ex.history()] == ["assistant", "user", "assistant"]


def test_blind_prepend_baseline(seg: Segmenter) -> None:
    assert first_noun_phrase("你知道北京烤鸭吗", seg) == "北京烤鸭"
    ex = IURExample(("你知道北京烤鸭吗", "知道"), "好吃吗", "北京烤鸭好吃吗")
    assert prepend_first_np(seg)(ex) == "北京烤鸭好吃吗"


@pytest.mark.parametrize(
    ("skip", "limit", "currents"),
    [(0, None, ["q0", "q1", "q2", "q3"]), (1, 2, ["q1", "q2"]), (3, 5, ["q3"]), (4, None, [])],
)
def test_loader_skips_then_limits(
    tmp_path: Path, skip: int, limit: int | None, currents: list[str]
) -> None:
    p = tmp_path / "x.jsonl"
    rows = [{"context": ["a"], "current": f"q{i}", "rewrite": f"r{i}"} for i in range(4)]
    p.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert [ex.current for ex in load_iur(p, limit=limit, skip=skip)] == currents


def test_loader_reports_bad_rows_with_location(tmp_path: Path) -> None:
    p = tmp_path / "x.jsonl"
    p.write_text('{"context": [], "current": "a", "rewrite": "a"}\n{bad\n', encoding="utf-8")
    with pytest.raises(QueryError, match=r"RR501.*x.jsonl:2"):
        load_iur(p)
    p.write_text('{"context": "no", "current": "a", "rewrite": "a"}\n', encoding="utf-8")
    with pytest.raises(QueryError, match="RR502"):
        load_iur(p)
    with pytest.raises(QueryError, match="RR500"):
        load_iur(tmp_path / "missing.jsonl")


def test_run_iur_scores_the_engine_and_baselines(tmp_path: Path, rewriter) -> None:  # type: ignore[no-untyped-def]
    rows = [
        {"context": ["Galaxy S24 Ultra 多少钱", "9699 元起"], "current": "它保修多久",
         "rewrite": "Galaxy S24 Ultra保修多久"},
        {"context": ["你好", "你好"], "current": "谢谢", "rewrite": "谢谢", "label": 0},
    ]  # fmt: skip
    p = tmp_path / "mini.jsonl"
    p.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    reps = {r.name: r for r in run_iur(p, rewriter)}
    assert set(reps) == {"rulerewrite", "copy_input", "prepend_first_np"}
    assert reps["rulerewrite"].em() == 100.0 and reps["copy_input"].em() == 50.0
    assert len(reps["rulerewrite"].latencies) == 2


# -- the shared corpora (development data; skipped when absent) -------------------------------
# Regression floors a little under what the bundled configuration measured on the first 3000 rows
# of each file (REWRITE: EM 20.5, P1 85.1, F1 39.9; Restoration: unchanged 95.5%, EM 39.3).
# They are NOT the targets (REWRITE F1 >= 75 / EM >= 35; Restoration unchanged >= 97%,
# P1 >= 70, EM > 41.3), which the rules do not reach yet.


@pytest.mark.slow
def test_rewrite_corpus(rewriter) -> None:  # type: ignore[no-untyped-def]
    path = shared_data("iur", "rewrite_train.jsonl")
    reps = {r.name: r for r in run_iur(path, rewriter, limit=3000)}
    eng = reps["rulerewrite"]
    assert eng.f(1) >= REWRITE_F1_FLOOR and eng.em() >= REWRITE_EM_FLOOR
    assert eng.p(1) > reps["prepend_first_np"].p(1)


@pytest.mark.slow
def test_restoration_corpus(rewriter) -> None:  # type: ignore[no-untyped-def]
    path = shared_data("iur", "restoration_valid.jsonl")
    reps = {r.name: r for r in run_iur(path, rewriter, limit=3000)}
    eng = reps["rulerewrite"]
    assert (eng.unchanged_rate() or 0) >= RESTORATION_UNCHANGED_FLOOR
    assert eng.em() >= RESTORATION_EM_FLOOR
    assert eng.em() > reps["prepend_first_np"].em()


REWRITE_F1_FLOOR = 38.0
REWRITE_EM_FLOOR = 19.0
RESTORATION_UNCHANGED_FLOOR = 94.0
RESTORATION_EM_FLOOR = 38.0
