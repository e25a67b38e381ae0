"""The HanLP parser backend (issue 5): label mapping, tree repair, errors, and a real model.

The model tests train a tiny ``BiaffineDependencyParser`` offline from the team's treebank
(tests/hanlp_treebank.py) once per session, load it with ``hanlp.load(folder)`` through the
backend and run the resolver end to end with ``Rewriter(parser="hanlp", hanlp_model=folder)``.
They are marked ``hanlp`` and skip cleanly when the extra is not installed; the pure-Python tests
(mapping, repair, CoNLL checks, the factory, the missing-extra error) always run.
"""

from __future__ import annotations

import types
from pathlib import Path

import pytest
from hanlp_treebank import sentences, write_conll

from rulerewrite.errors import ParserError
from rulerewrite.text import hanlp_backend as hb
from rulerewrite.text import make_parser
from rulerewrite.text.parse import Parse

LABELS = {"root", "subj", "obj", "att", "adv", "coo", "cc", "de", "q", "punct", "dep"}

# -- label mapping (no model needed) ------------------------------------------------------------

MAPPING = [
    # (raw label, word, jieba tag, expected) — Stanford/CTB, UD and HIT/PMT label sets
    ("root", "是", "v", "root"),
    ("HED", "是", "v", "root"),
    ("nsubj", "手机", "n", "subj"),
    ("top", "保修", "nz", "subj"),
    ("nsubj:pass", "账号", "n", "subj"),
    ("SBV", "手机", "n", "subj"),
    ("dobj", "日志", "nz", "obj"),
    ("obj", "日志", "nz", "obj"),
    ("VOB", "日志", "nz", "obj"),
    ("FOB", "这个", "r", "obj"),
    ("amod", "新", "a", "att"),
    ("nn", "华为", "nr", "att"),
    ("assmod", "它", "r", "att"),
    ("nmod:poss", "它", "r", "att"),
    ("ATT", "华为", "nr", "att"),
    ("advmod", "都", "d", "adv"),
    ("mmod", "能", "v", "adv"),
    ("ADV", "都", "d", "adv"),
    ("conj", "三星", "nz", "coo"),
    ("COO", "三星", "nz", "coo"),
    ("cc", "和", "c", "cc"),
    ("LAD", "和", "c", "cc"),
    ("assm", "的", "uj", "de"),
    ("case:dec", "的", "uj", "de"),
    ("RAD", "的", "uj", "de"),
    ("cpm", "之", "uj", "de"),
    ("discourse:sp", "吗", "y", "q"),
    ("RAD", "吗", "y", "q"),
    ("dep", "呢", "y", "q"),
    ("attr", "多少", "m", "q"),
    ("advmod", "怎么", "r", "q"),
    ("det", "什么", "r", "att"),  # 什么条件: a question word modifying a noun stays att
    ("punct", "？", "x", "punct"),
    ("WP", "，", "x", "punct"),
    ("dep", "？", "x", "punct"),
    ("ccomp", "买", "v", "dep"),
    ("something-new", "买", "v", "dep"),
    ("", "买", "v", "dep"),
]


@pytest.mark.parametrize(("raw", "word", "tag", "expected"), MAPPING)
def test_map_relation(raw: str, word: str, tag: str, expected: str) -> None:
    assert hb.map_relation(raw, word, tag) == expected


def test_map_relation_custom_labels_override_the_table() -> None:
    assert hb.map_relation("agt", "我", "r") == "dep"
    assert hb.map_relation("Agt", "我", "r", labels={"AGT": "subj"}) == "subj"
    assert hb.map_relation("nsubj", "我", "r", labels={"nsubj": "obj"}) == "obj"


def test_every_mapped_label_is_in_the_shared_set() -> None:
    assert set(hb.RELATIONS.values()) <= LABELS


# -- tree repair ------------------------------------------------------------------------------

REPAIRS = [
    ([1, -1, 1], (), [1, -1, 1]),  # already a tree
    ([-1, -1, 2], (), [-1, 0, 0]),  # two roots + a self-loop
    ([-1, -1], (1,), [1, -1]),  # the preferred root wins
    ([1, 0], (), [-1, 0]),  # a cycle, no root
    ([1, 2, 0, -1], (), [3, 2, 0, -1]),  # a cycle beside the root: cut at its first token
    ([5, -1], (), [-1, 0]),  # out of range
    ([], (), []),
]


@pytest.mark.parametrize(("heads", "prefer", "expected"), REPAIRS)
def test_repair_tree(heads: list[int], prefer: tuple[int, ...], expected: list[int]) -> None:
    fixed = hb.repair_tree(heads, prefer=prefer)
    assert fixed == expected
    if fixed:
        assert fixed.count(-1) == 1
        for i in range(len(fixed)):  # every token reaches the root
            j, steps = i, 0
            while fixed[j] != -1 and steps <= len(fixed):
                j, steps = fixed[j], steps + 1
            assert fixed[j] == -1


# -- the treebank and CoNLL checks --------------------------------------------------------------


def test_treebank_is_well_formed(tmp_path: Path) -> None:
    sents = sentences()
    assert len(sents) >= 40
    for sent in sents:
        heads = [h - 1 for _w, _t, h, _r in sent]
        assert hb.repair_tree(heads) == heads, sent  # one root, no cycle
    assert hb.check_conll(write_conll(tmp_path / "t.conllx")) == len(sents)
    assert hb.check_conll(write_conll(tmp_path / "t.conllu", fmt="conllu")) == len(sents)


BAD_CONLL = [
    ("1\t它\t它\tr\tr\t_\t0\troot\n", None),  # fine: one sentence
    ("1\t它\t它\tr\tr\t_\t0\n", "expected 10 tab-separated columns"),
    ("1\t它\t它\tr\tr\t_\tx\troot\t_\t_\n", "is not a number"),
    ("2\t它\t它\tr\tr\t_\t0\troot\t_\t_\n", "token id '2', expected 1"),
    ("1\t它\t它\tr\tr\t_\t3\tnsubj\t_\t_\n", "past the sentence end"),
    ("1\t它\t它\tr\tr\t_\t0\troot\t_\t_\n2\t好\t好\ta\ta\t_\t0\troot\t_\t_\n", "exactly one root"),
    ("1\t它\t它\tr\tr\t_\t0\t_\t_\t_\n", "missing relation label"),
    ("# only a comment\n", "no sentences"),
]


@pytest.mark.parametrize(("text", "error"), BAD_CONLL)
def test_check_conll_errors_are_coded_and_located(
    tmp_path: Path, text: str, error: str | None
) -> None:
    p = tmp_path / "bad.conllx"
    p.write_text(text.replace("\troot\n", "\troot\t_\t_\n"), encoding="utf-8")
    if error is None:
        assert hb.check_conll(p) == 1
        return
    with pytest.raises(ParserError, match=r"\[RR524\]") as info:
        hb.check_conll(p)
    assert error in str(info.value)
    assert "bad.conllx" in str(info.value)


def test_check_conll_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ParserError, match=r"\[RR524\].*cannot read"):
        hb.check_conll(tmp_path / "nope.conllx")


# -- the factory and the missing extra ------------------------------------------------------------


def test_make_parser_builtin_is_shared_per_lexicon(rewriter) -> None:  # type: ignore[no-untyped-def]
    cfg = rewriter.config
    p1 = make_parser(cfg, rewriter.lexicon)
    assert p1.name == "builtin"
    assert make_parser(cfg, rewriter.lexicon) is p1
    assert p1.parse("它支持防水吗").root is not None


def test_make_parser_unknown_backend(rewriter) -> None:  # type: ignore[no-untyped-def]
    cfg = types.SimpleNamespace(parser="spacy", hanlp_model=None)
    with pytest.raises(ParserError, match=r"\[RR520\] unknown parser 'spacy'.*builtin, hanlp"):
        make_parser(cfg, rewriter.lexicon)


def test_missing_extra_is_a_coded_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulerewrite.lexicon import Lexicon

    real = hb.importlib.util.find_spec
    monkeypatch.setattr(
        hb.importlib.util, "find_spec", lambda name, *a: None if name == "hanlp" else real(name, *a)
    )
    assert not hb.hanlp_available()
    lexicon = Lexicon.load(domains=[])
    cfg = types.SimpleNamespace(parser="hanlp", hanlp_model="/models/dep")
    with pytest.raises(
        ParserError, match=r"\[RR521\] parser='hanlp' needs `pip install rulerewrite\[hanlp\]`"
    ):
        make_parser(cfg, lexicon)
    # torch may be missing too (plain `make test` has no hanlp extra): hanlp must be named
    with pytest.raises(ParserError, match=r"\[RR521\].*missing: [^)]*\bhanlp\b"):
        hb.train_tiny_parser("x.conllx", "out")


def test_rewriter_with_hanlp_but_no_extra_fails_at_construction(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rulerewrite import Rewriter

    real = hb.importlib.util.find_spec
    monkeypatch.setattr(
        hb.importlib.util, "find_spec", lambda name, *a: None if name == "torch" else real(name, *a)
    )
    with pytest.raises(ParserError, match=r"\[RR521\].*missing: torch"):
        Rewriter(domains=[], parser="hanlp", hanlp_model="/models/dep")


# -- a real model ------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Train the tiny parser once per session (tens of seconds on 2 cores) into a tmp folder."""
    pytest.importorskip("hanlp")
    root = tmp_path_factory.mktemp("hanlp-tiny")
    conll = write_conll(root / "treebank.conllx")
    out = hb.train_tiny_parser(conll, root / "model")
    assert out == root / "model"
    return out


@pytest.fixture(scope="session")
def lexicon():  # type: ignore[no-untyped-def]
    from rulerewrite.lexicon import Lexicon

    return Lexicon.load()


@pytest.fixture(scope="session")
def hanlp_parser(tiny_model: Path, lexicon):  # type: ignore[no-untyped-def]
    return hb.HanLPParser(tiny_model, segmenter=lexicon.segmenter)


def _check_parse(p: Parse) -> None:
    assert p.tokens, p.text
    assert sum(1 for t in p.tokens if t.head == -1) == 1
    for t in p.tokens:
        assert t.rel in LABELS
        assert p.text[t.start : t.end] == t.text
        assert -1 <= t.head < len(p.tokens) and t.head != t.i
        assert (t.rel == "root") == (t.head == -1)


@pytest.mark.hanlp
@pytest.mark.slow
def test_trained_folder_loads_with_hanlp_load(tiny_model: Path) -> None:
    import hanlp

    assert (tiny_model / "config.json").is_file()
    component = hanlp.load(str(tiny_model), verbose=False)
    assert type(component).__name__ == "BiaffineDependencyParser"
    assert component.config.feat == "pos" and component.config.tree


@pytest.mark.hanlp
@pytest.mark.slow
def test_model_is_loaded_lazily(tiny_model: Path, lexicon) -> None:  # type: ignore[no-untyped-def]
    p = hb.HanLPParser(str(tiny_model), segmenter=lexicon.segmenter)
    assert not p.loaded and "not loaded" in repr(p)
    assert p.parse("") == Parse("", ())
    blank = p.parse("   ")  # whitespace needs no model
    assert [t.rel for t in blank.tokens].count("root") == 1 and not p.loaded
    p.parse("它支持防水吗")
    assert p.loaded


@pytest.mark.hanlp
@pytest.mark.slow
def test_the_model_learned_the_treebank(hanlp_parser) -> None:  # type: ignore[no-untyped-def]
    """Unlabelled/labelled attachment on the training sentences (gold tokens), mapped to our
    labels."""
    sents = sentences()
    total = heads_ok = labels_ok = 0
    for sent in sents:
        p = hanlp_parser.parse_words([(w, t) for w, t, _h, _r in sent])
        _check_parse(p)
        assert [t.text for t in p.tokens] == [w for w, _t, _h, _r in sent]
        for t, (w, tag, h, rel) in zip(p.tokens, sent, strict=True):
            expected_rel = "root" if h == 0 else hb.map_relation(rel, w, tag)
            total += 1
            heads_ok += t.head == h - 1
            labels_ok += t.head == h - 1 and t.rel == expected_rel
    assert heads_ok / total >= 0.9, (heads_ok, total)
    assert labels_ok / total >= 0.85, (labels_ok, total)


HELD_OUT = [
    # sentences NOT in the treebank: (text, token -> (relation, head token or None for root))
    (
        "小米14的电池怎么样",
        {"怎么样": ("root", None), "电池": ("subj", "怎么样"), "的": ("de", "小米14")},
    ),
    ("这款耳机支持降噪吗", {"支持": ("root", None), "耳机": ("subj", "支持"), "吗": ("q", "支持")}),
    (
        "怎么查看Docker日志",
        {"查看": ("root", None), "日志": ("obj", "查看"), "Docker": ("att", "日志")},
    ),
    ("上海呢", {"上海": ("root", None), "呢": ("q", "上海")}),
]


@pytest.mark.hanlp
@pytest.mark.slow
@pytest.mark.parametrize(("text", "expected"), HELD_OUT)
def test_held_out_sentences(hanlp_parser, text: str, expected: dict) -> None:  # type: ignore[no-untyped-def,type-arg]
    p = hanlp_parser.parse(text)
    _check_parse(p)
    by_text = {t.text: t for t in p.tokens}
    for word, (rel, head) in expected.items():
        t = by_text[word]
        assert t.rel == rel, (word, [(x.text, x.head, x.rel) for x in p.tokens])
        if head is None:
            assert t.head == -1
        else:
            assert p.tokens[t.head].text == head


@pytest.mark.hanlp
@pytest.mark.slow
def test_parse_goes_through_the_project_segmenter(hanlp_parser, lexicon) -> None:  # type: ignore[no-untyped-def]
    from rulerewrite.text.builtin_parser import _merge_latin

    text = "后者支持私有部署吗"
    p = hanlp_parser.parse(text)
    assert [(t.text, t.pos) for t in p.tokens] == _merge_latin(lexicon.segmenter.pos(text))


@pytest.mark.hanlp
@pytest.mark.slow
def test_dictionary_terms_and_latin_names_stay_whole(hanlp_parser) -> None:  # type: ignore[no-untyped-def]
    p = hanlp_parser.parse("安心福终身寿险和Galaxy S24 Ultra的区别是什么")
    _check_parse(p)
    words = [t.text for t in p.tokens]
    assert "安心福终身寿险" in words and "Galaxy S24 Ultra" in words


@pytest.mark.hanlp
@pytest.mark.slow
def test_whitespace_tokens_hang_on_the_root(hanlp_parser) -> None:  # type: ignore[no-untyped-def]
    p = hanlp_parser.parse("pod 日志 怎么 看")
    _check_parse(p)
    spaces = [t for t in p.tokens if not t.text.strip()]
    assert spaces and all(t.rel == "punct" and t.head == p.root.i for t in spaces)  # type: ignore[union-attr]


@pytest.mark.hanlp
@pytest.mark.slow
def test_parse_many_batches_and_caches(tiny_model: Path, lexicon) -> None:  # type: ignore[no-untyped-def]
    p = hb.HanLPParser(tiny_model, segmenter=lexicon.segmenter, batch_size=2, cache_size=8)
    a, b, c = "它支持防水吗", "发票怎么开", "客服电话是多少"
    out = p.parse_many([a, b, a, c])
    assert [x.text for x in out] == [a, b, a, c]
    assert out[0] is out[2]
    assert p.calls == 3
    assert p.parse(b) is out[1] and p.calls == 3  # cached
    assert p.parse_many([]) == []


@pytest.mark.hanlp
def test_missing_folder_is_a_coded_error(lexicon, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("hanlp")
    missing = tmp_path / "no-such-model"
    p = hb.HanLPParser(missing, segmenter=lexicon.segmenter)
    with pytest.raises(ParserError, match=r"\[RR522\].*no-such-model.*folder not found"):
        p.parse("它支持防水吗")
    (tmp_path / "empty").mkdir()
    p = hb.HanLPParser(tmp_path / "empty", segmenter=lexicon.segmenter)
    with pytest.raises(ParserError, match=r"\[RR522\].*not a HanLP model folder"):
        p.load()


@pytest.mark.hanlp
def test_unloadable_folder_is_a_coded_error(lexicon, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("hanlp")
    bad = tmp_path / "broken"
    bad.mkdir()
    (bad / "config.json").write_text('{"classpath": "no.such.Component"}', encoding="utf-8")
    p = hb.HanLPParser(bad, segmenter=lexicon.segmenter)
    with pytest.raises(ParserError, match=r"\[RR522\] cannot load HanLP model .*broken"):
        p.load()


@pytest.mark.hanlp
@pytest.mark.slow
def test_train_from_conllu_words_only(tmp_path: Path, tiny_model: Path) -> None:
    """CoNLL-U input and a words-only model (feat=None) also train and load."""
    conll = write_conll(tmp_path / "treebank.conllu", fmt="conllu")
    out = hb.train_tiny_parser(conll, tmp_path / "m", feat=None, epochs=2)
    from rulerewrite.lexicon import Lexicon

    p = hb.HanLPParser(out, segmenter=Lexicon.load(domains=[]).segmenter)
    _check_parse(p.parse("它支持防水吗"))
    assert p._use_pos is False


# -- the resolver end to end ---------------------------------------------------------------------

END_TO_END = [
    (
        "它的保修期是多久",
        ["Galaxy S24 Ultra怎么样", "Galaxy S24 Ultra是三星的旗舰手机"],
        "Galaxy S24 Ultra的保修期是多久",
    ),
    ("保修多久", ["我想买Galaxy S24 Ultra"], "Galaxy S24 Ultra保修多久"),
    ("后者支持无线充电吗", ["iPhone 15和小米14哪个好", "各有优势"], "小米14支持无线充电吗"),
    ("广州呢", ["深圳的落户条件是什么", "需要社保满一年"], "广州的落户条件是什么"),
]


@pytest.fixture(scope="session")
def hanlp_rewriter(tiny_model: Path):  # type: ignore[no-untyped-def]
    from rulerewrite import Rewriter

    return Rewriter(parser="hanlp", hanlp_model=str(tiny_model))


@pytest.mark.hanlp
@pytest.mark.slow
@pytest.mark.parametrize(("query", "history", "standalone"), END_TO_END)
def test_resolver_end_to_end(
    hanlp_rewriter, query: str, history: list[str], standalone: str
) -> None:  # type: ignore[no-untyped-def]
    res = hanlp_rewriter.rewrite(query, history=history)
    assert res.standalone == standalone
    assert res.decision == "search"


@pytest.mark.hanlp
@pytest.mark.slow
def test_resolver_asks_without_history(hanlp_rewriter) -> None:  # type: ignore[no-untyped-def]
    res = hanlp_rewriter.rewrite("它支持防水吗")
    assert res.decision == "ask_user" and res.clarification


@pytest.mark.hanlp
@pytest.mark.slow
def test_the_rewriter_really_used_the_hanlp_model(hanlp_rewriter, tiny_model: Path) -> None:  # type: ignore[no-untyped-def]
    hanlp_rewriter.rewrite("它的保修期是多久", history=["Galaxy S24 Ultra怎么样"])
    parser = make_parser(hanlp_rewriter.config, hanlp_rewriter.lexicon)
    assert isinstance(parser, hb.HanLPParser)
    assert parser.model == str(tiny_model)
    assert parser.loaded and parser.calls > 0
