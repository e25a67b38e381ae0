"""FifoMemo: the bound, the eviction order, and each per-query memo that uses it keeps its order
(the dictionary-match, ``applies`` and shared-span memos first in first out; the window pools
and the HanLP parse cache move a hit last)."""

from __future__ import annotations

import copy
import pickle
import random
from collections import OrderedDict
from typing import Any

import pytest

from rulerewrite.memo import FifoMemo


def _reference_put(d: OrderedDict[Any, Any], key: Any, value: Any, bound: int) -> None:
    """The three lines every memo wrote before FifoMemo."""
    d[key] = value
    if len(d) > bound:
        d.popitem(last=False)


def test_put_returns_the_value_and_keeps_the_bound() -> None:
    memo: FifoMemo[str, int] = FifoMemo(3)
    assert [memo.put(k, i) for i, k in enumerate("abcde")] == [0, 1, 2, 3, 4]
    assert list(memo.items()) == [("c", 2), ("d", 3), ("e", 4)]  # the oldest went first
    assert memo.maxsize == 3 and isinstance(memo, OrderedDict)


def test_a_hit_does_not_refresh_but_move_to_end_does() -> None:
    memo: FifoMemo[str, int] = FifoMemo(2)
    memo.put("a", 1)
    memo.put("b", 2)
    assert memo.get("a") == 1 and memo["a"] == 1 and "a" in memo
    memo.put("c", 3)
    assert list(memo) == ["b", "c"]  # "a" was read, still the oldest: dropped
    memo.move_to_end("b")  # least-recently-used use
    memo.put("d", 4)
    assert list(memo) == ["b", "d"]
    memo.put("b", 5)  # a stored key keeps its place and the size
    assert list(memo.items()) == [("b", 5), ("d", 4)]


@pytest.mark.parametrize("bound", [0, -1])
def test_a_bound_of_zero_or_less_keeps_nothing(bound: int) -> None:
    memo: FifoMemo[str, int] = FifoMemo(bound)
    assert memo.put("a", 1) == 1
    assert memo.get("a") is None and len(memo) == 0


def test_put_equals_the_inline_code_on_random_traffic() -> None:
    rng = random.Random(11)
    for bound in (1, 2, 5, 17):
        memo: FifoMemo[int, int] = FifoMemo(bound)
        ref: OrderedDict[int, int] = OrderedDict()
        for step in range(3000):
            key = rng.randrange(40)
            if rng.random() < 0.3 and key in ref:
                ref.move_to_end(key)
                memo.move_to_end(key)
            elif memo.get(key) is None:
                _reference_put(ref, key, step, bound)
                memo.put(key, step)
            assert list(memo.items()) == list(ref.items())
            assert len(memo) <= bound


def test_copy_and_pickle_keep_the_bound_and_the_order() -> None:
    memo: FifoMemo[str, int] = FifoMemo(3)
    for i, k in enumerate("wxyz"):
        memo.put(k, i)
    for other in (copy.copy(memo), copy.deepcopy(memo), pickle.loads(pickle.dumps(memo))):
        assert type(other) is FifoMemo and other.maxsize == 3
        assert list(other.items()) == list(memo.items())
        other.put("n", 9)
        assert list(other) == ["y", "z", "n"]
    assert repr(memo) == "FifoMemo(3, [('x', 1), ('y', 2), ('z', 3)])"


# -- the memos of the per-query path -------------------------------------------------------------


def test_the_match_memo_is_bounded_and_first_in_first_out(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulerewrite import Rewriter

    lex = Rewriter(domains=["tech"]).lexicon
    a, b, c = (lex.normalizer(q) for q in ("iphone 15 多少钱", "k8s 怎么看日志", "python 3.12"))
    first = lex.match_tuple(a)
    cache = lex.__dict__["_match_cache"]
    assert isinstance(cache, FifoMemo) and cache.maxsize == 16384
    monkeypatch.setattr(cache, "maxsize", 2)
    cache.clear()
    first = lex.match_tuple(a)
    lex.match_tuple(b)
    assert lex.match_tuple(a) is first  # a hit: memoised, and not moved
    lex.match_tuple(c)
    assert list(cache) == [b.text, c.text]  # the oldest went, though read last
    again = lex.match_tuple(a)
    assert again == first and again is not first  # recomputed after its eviction


def test_the_applies_memo_is_first_in_first_out(rewriter: Any) -> None:
    memo = rewriter.pipeline._applies
    assert isinstance(memo, FifoMemo) and memo.maxsize == rewriter.pipeline._APPLIES_MEMO
    rewriter.pipeline.clear_memos()
    hist = ["Galaxy S24 Ultra 有哪些颜色", "有四种颜色。"]
    queries = ["它保修多久", "那个呢", "它和iPhone 15哪个好"]
    for q in queries:
        rewriter.rewrite(q, hist)
    keys = list(memo)
    assert len(keys) >= 3
    for q in reversed(queries):  # hits only, in another order: nothing moves
        rewriter.rewrite(q, hist)
    assert list(memo) == keys
    rewriter.pipeline.clear_memos()


def test_the_window_memos_keep_their_order(rewriter: Any) -> None:
    from rulerewrite.modes.multiturn import MultiTurn

    mt: MultiTurn = next(m.mt for m in rewriter.pipeline.modes if hasattr(m, "mt"))
    assert isinstance(mt._pools, FifoMemo) and mt._pools.maxsize == 4096
    assert isinstance(mt._shared_pair, FifoMemo) and mt._shared_pair.maxsize == 8192
    mt.clear_memos()
    windows = [
        ["Galaxy S24 Ultra 有哪些颜色", "有四种颜色。"],
        ["北京和上海哪个冷", "北京更冷"],
        ["我要聊易烊千玺", "易烊千玺嗓音很棒"],
    ]
    for hist in windows:
        rewriter.rewrite("它保修多久", hist)
    pools = list(mt._pools)
    pairs = list(mt._shared_pair)
    assert len(pools) >= 3 and len(pairs) >= 3
    rewriter.rewrite("它保修多久", windows[0])  # hits in both memos
    assert list(mt._pools) == [*pools[1:], pools[0]]  # the pool hit moved last
    assert list(mt._shared_pair) == pairs  # the pair hit did not move
    mt.clear_memos()
