"""Loading packs, the Aho-Corasick match (longest match, protected/blocking priority, Latin word
boundaries), the content-hash cache, bundled domains and user dictionaries."""

from __future__ import annotations

import itertools
import os
import pickle
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulerewrite.lexicon as lexmod
from rulerewrite import Rewriter, UnknownDomainError, available_domains
from rulerewrite.lexicon import Entry, Intent, Lexicon, Match, Rule, resolve

USER_PACK = """\
pack: mypack
synonyms:
  - canonical: 退保
    variants: [退, 退掉保单, 不想要这份保险了]
aliases:
  - canonical: Python
    variants: [py]
  - canonical: Kubernetes
    variants: [k8s]
entities:
  - {text: 平安福, type: product}
  - {text: ＡＢＣ保險, type: product}
  - {text: iPhone 15 Pro, type: product}
  - {text: 安心福终身寿险, type: product, aliases: [安心福]}
  - {text: 福利, type: term}
blocking:
  - text: 退休
    blocks: [退]
"""


def write(tmp_path: Path, text: str, name: str = "mypack.yaml") -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return p


@pytest.fixture
def lex(tmp_path: Path) -> Lexicon:
    return Lexicon.load(
        domains=[], dictionaries=[write(tmp_path, USER_PACK)], cache_dir=tmp_path / "c"
    )


def hits(lex: Lexicon, query: str) -> list[tuple[str, str]]:
    """(user's text, kinds) of every resolved match from a non-general pack."""
    nt = lex.normalizer(query)
    return [
        (nt.original_slice(m.start, m.end), ",".join(sorted({e.kind for e in m.entries})))
        for m in lex.match(nt)
        if any(e.pack != "general" for e in m.entries)
    ]


# -- loading ------------------------------------------------------------------------------------


def test_load_general_plus_user_pack(lex: Lexicon) -> None:
    assert lex.packs == ("general", "mypack")
    e = next(e for e in lex.entries if e.text == "平安福")
    assert e.kind == "entity" and e.etype == "product" and e.pack == "mypack"
    assert e.source.endswith("mypack.yaml:11")
    alias = next(e for e in lex.entries_of("alias") if e.text == "k8s")
    assert alias.canonical == "Kubernetes"
    assert lex.entries_of("negation"), "general's negation words are always loaded"


def test_user_folder_loads_every_yaml(tmp_path: Path) -> None:
    d = tmp_path / "packs"
    d.mkdir()
    write(d, "pack: one\nentities: [甲产品]\n", "one.yaml")
    write(d, "pack: two\nentities: [乙产品]\n", "two.yml")
    (d / "notes.txt").write_text("not a pack", encoding="utf-8")
    lex = Lexicon.load(domains=[], dictionaries=[d], cache_dir=tmp_path / "c")
    assert lex.packs == ("general", "one", "two")


def test_rewriter_with_user_dictionary_protects_its_entities(tmp_path: Path) -> None:
    rw = Rewriter(domains=[], dictionaries=[write(tmp_path, USER_PACK)], cache_dir=tmp_path / "c")
    assert rw.domains == ("general", "mypack")
    res = rw.rewrite("平安福怎么退")
    assert "平安福" in res.must_keep_entities
    assert any("退保" in q.text and "平安福" in q.text for q in res.queries[1:])


# -- matching -----------------------------------------------------------------------------------


def test_longest_match_wins(lex: Lexicon) -> None:
    assert hits(lex, "退掉保单要多久") == [("退掉保单", "synonym")]


def test_protected_entity_wins_over_a_longer_overlap(lex: Lexicon) -> None:
    # 安心福 (entity alias) lies inside 安心福终身寿险 (entity): among protected, the longer wins
    assert hits(lex, "安心福终身寿险怎么样")[0] == ("安心福终身寿险", "entity")
    assert ("不想要这份保险了", "synonym") in hits(lex, "我不想要这份保险了")


def test_protected_beats_unprotected_even_when_shorter(tmp_path: Path) -> None:
    pack = write(
        tmp_path,
        """\
        pack: prio
        entities: [{text: 平安福, type: product}]
        synonyms:
          - canonical: 员工福利
            variants: [平安福利金]
        """,
    )
    lex = Lexicon.load(domains=[], dictionaries=[pack], cache_dir=tmp_path / "c")
    assert hits(lex, "平安福利金怎么领") == [("平安福", "entity")]


def test_blocking_word_stops_the_trigger_inside_it(lex: Lexicon) -> None:
    found = hits(lex, "退休后保单能退吗")
    assert found[0] == ("退休", "blocking")
    assert ("退", "synonym") in found
    assert [t for t, _ in found].count("退") == 1  # only the real one, not the one in 退休


@pytest.mark.parametrize(
    ("query", "matched"),
    [
        ("py 怎么装包", True),
        ("用py写爬虫", True),
        ("PY怎么装包", True),
        ("happy new year", False),
        ("numpy 怎么装", False),
        ("py3 怎么装", False),
        ("pypy 是什么", False),
        ("k8s 怎么看 pod 日志", True),
        ("k8sx 是什么", False),
    ],
)
def test_latin_terms_match_on_word_boundaries_only(lex: Lexicon, query: str, matched: bool) -> None:
    assert any(k == "alias" for _, k in hits(lex, query)) is matched


def test_match_is_case_insensitive_but_keeps_the_users_casing(lex: Lexicon) -> None:
    assert hits(lex, "PY怎么装包")[0] == ("PY", "alias")
    assert hits(lex, "K8S 集群")[0] == ("K8S", "alias")


@pytest.mark.parametrize(
    ("query", "user_text"),
    [
        ("abc保险怎么买", "abc保险"),  # pack term written full width + traditional
        ("ＡＢＣ保險怎么买", "ＡＢＣ保險"),
        ("iphone15pro 多少钱", "iphone15pro"),  # spaces in a Latin term are optional
        ("iPhone  15 Pro 多少钱", "iPhone  15 Pro"),
        ("IPHONE 15 PRO 多少钱", "IPHONE 15 PRO"),
    ],
)
def test_same_normalisation_at_compile_and_match_time(
    lex: Lexicon, query: str, user_text: str
) -> None:
    assert (user_text, "entity") in hits(lex, query)


def test_scan_spans_are_half_open(lex: Lexicon) -> None:
    nt = lex.normalizer("平安福")
    (m,) = lex.scan(nt)
    assert (m.start, m.end) == (0, 3)
    assert nt.text[m.start : m.end] == m.key


def _ref_resolve(matches: list[Match]) -> list[Match]:
    """Reference: protected first, then longest, then leftmost; greedy; sorted by start."""
    taken: list[Match] = []
    for m in sorted(matches, key=lambda m: (not m.protected, -(m.end - m.start), m.start)):
        if all(m.end <= t.start or t.end <= m.start for t in taken):
            taken.append(m)
    return sorted(taken, key=lambda m: m.start)


_E = {k: Entry(kind=k, text="x", pack="p", source="p:1") for k in ("entity", "synonym", "alias")}


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 20), st.integers(1, 6), st.sampled_from(["entity", "synonym", "alias"])
        ),
        max_size=8,
    )
)
def test_resolve_agrees_with_the_reference(spec: list[tuple[int, int, str]]) -> None:
    ms = [Match(s, s + n, f"{s}:{n}", (_E[k],)) for s, n, k in spec]
    ms = list({(m.start, m.end): m for m in ms}.values())  # the automaton gives one hit per span
    got = resolve(ms)
    assert got == _ref_resolve(ms)
    assert all(a.end <= b.start for a, b in itertools.pairwise(got))


# -- cache --------------------------------------------------------------------------------------


def test_cache_is_written_and_reused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pack = write(tmp_path, USER_PACK)
    cache = tmp_path / "c"
    first = Lexicon.load(domains=[], dictionaries=[pack], cache_dir=cache)
    files = list(cache.glob("*.pickle"))
    assert [f.stem for f in files] == [first.fingerprint]

    def boom(*a: object, **k: object) -> None:
        raise AssertionError("the cache should have been used")

    monkeypatch.setattr(lexmod, "_parse_all", boom)
    second = Lexicon.load(domains=[], dictionaries=[pack], cache_dir=cache)
    assert second.fingerprint == first.fingerprint
    assert second.entries == first.entries
    assert hits(second, "k8s 怎么看 pod 日志") == hits(first, "k8s 怎么看 pod 日志")


def test_cached_normalised_entries_are_the_entries_of_that_lexicon(tmp_path: Path) -> None:
    """speed24: the normalised entry texts the cache keeps (``normalized_entries``) are those
    of the lexicon loaded, never those of an older build of the pack: each is the entry's
    text normalised, in ``entries`` order, after a reload from the cache and after the pack
    changed; the records rebuilt from the pickle equal the compiled ones."""
    pack = write(tmp_path, USER_PACK)
    cache = tmp_path / "c"
    first = Lexicon.load(domains=[], dictionaries=[pack], cache_dir=cache)
    pack.write_text(
        USER_PACK.replace("  - {text: 福利, type: term}", "  - {text: 百万医疗险, type: product}"),
        encoding="utf-8",
    )
    for _ in range(2):  # built, then read back from the cache
        lex = Lexicon.load(domains=[], dictionaries=[pack], cache_dir=cache)
        norm = lex.normalizer
        assert lex.normalized_entries() == tuple(norm(e.text).text for e in lex.entries)
        assert "百万医疗险" in lex.normalized_entries()
        assert lex.normalized_entries() != first.normalized_entries()
    fresh = Lexicon.load(domains=[], dictionaries=[pack], use_cache=False)
    assert lex.entries == fresh.entries and lex.rules == fresh.rules
    assert lex.intents == fresh.intents
    # a lexicon whose kept texts do not cover its entries normalises them again
    bare = Lexicon(
        packs=lex.packs, files=lex.files, entries=lex.entries, intents=lex.intents,
        rules=lex.rules, slots=lex.slots, automaton=lex.automaton,
        fingerprint=lex.fingerprint, entry_keys=lex.entry_keys[:-1],
    )  # fmt: skip
    assert bare.normalized_entries() == lex.normalized_entries()


def test_records_pickle_to_equal_records() -> None:
    """speed24: entries, intents and rules are pickled as their field values (``_reduced``),
    rebuilt equal, of the same class, still frozen."""
    recs = [
        Entry("synonym", "退掉保单", "mypack", "u.yaml:4", canonical="退保", targets=("a",)),
        Intent("退保", ("退保",), (("type", "policy"),), "mypack", "u.yaml:9"),
        Rule("r", "guard", "g.yaml:1", None, {"type": "code"}),
    ]
    for r in recs:
        back = pickle.loads(pickle.dumps(r))
        assert back == r and type(back) is type(r)
        with pytest.raises(AttributeError):
            back.source = "x"  # type: ignore[misc]


def test_cache_is_rebuilt_when_a_file_changes(tmp_path: Path) -> None:
    pack = write(tmp_path, USER_PACK)
    cache = tmp_path / "c"
    old = Lexicon.load(domains=[], dictionaries=[pack], cache_dir=cache)
    assert not hits(old, "百万医疗险保什么")
    pack.write_text(
        USER_PACK.replace("  - {text: 福利, type: term}", "  - {text: 百万医疗险, type: product}"),
        encoding="utf-8",
    )
    new = Lexicon.load(domains=[], dictionaries=[pack], cache_dir=cache)
    assert new.fingerprint != old.fingerprint
    assert hits(new, "百万医疗险保什么") == [("百万医疗险", "entity")]
    assert len(list(cache.glob("*.pickle"))) == 2


def test_cache_key_is_the_content_not_the_mtime(tmp_path: Path) -> None:
    pack = write(tmp_path, USER_PACK)
    a = Lexicon.load(domains=[], dictionaries=[pack], cache_dir=tmp_path / "c")
    os.utime(pack, (1, 1))
    b = Lexicon.load(domains=[], dictionaries=[pack], cache_dir=tmp_path / "c")
    assert a.fingerprint == b.fingerprint


def test_corrupt_cache_is_rebuilt(tmp_path: Path) -> None:
    pack = write(tmp_path, USER_PACK)
    cache = tmp_path / "c"
    fp = Lexicon.load(domains=[], dictionaries=[pack], cache_dir=cache).fingerprint
    (cache / f"{fp}.pickle").write_bytes(b"not a pickle")
    lex = Lexicon.load(domains=[], dictionaries=[pack], cache_dir=cache)
    assert hits(lex, "平安福") == [("平安福", "entity")]
    with (cache / f"{fp}.pickle").open("rb") as fh:
        assert isinstance(pickle.load(fh), Lexicon)  # rewritten with a good copy


def test_no_cache_when_disabled(tmp_path: Path) -> None:
    Lexicon.load(
        domains=[], dictionaries=[write(tmp_path, USER_PACK)], cache_dir=tmp_path / "c",
        use_cache=False,
    )  # fmt: skip
    assert not (tmp_path / "c").exists()


def test_unwritable_cache_does_not_break_loading(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    lex = Lexicon.load(domains=[], dictionaries=[write(tmp_path, USER_PACK)], cache_dir=blocker)
    assert hits(lex, "平安福") == [("平安福", "entity")]


# -- bundled domains ----------------------------------------------------------------------------


def test_available_domains() -> None:
    doms = available_domains()
    assert doms == sorted(doms)
    assert "general" not in doms
    assert {"insurance", "ecommerce", "tech", "enterprise"} <= set(doms)


def test_domain_selection(tmp_path: Path) -> None:
    lex = Lexicon.load(domains=["insurance"], cache_dir=tmp_path / "c")
    assert lex.packs == ("general", "insurance")
    everything = Lexicon.load(cache_dir=tmp_path / "c")
    assert everything.packs == ("general", *available_domains())


def test_unknown_domain_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(UnknownDomainError, match=r"RR200.*nosuch.*available"):
        Lexicon.load(domains=["nosuch"], cache_dir=tmp_path / "c")
    with pytest.raises(TypeError, match="domains"):
        Lexicon.load(domains="insurance", cache_dir=tmp_path / "c")


def test_segmenter_keeps_dictionary_terms_whole(lex: Lexicon) -> None:
    assert "安心福终身寿险" in lex.segmenter.cut("安心福终身寿险怎么退保")


@pytest.mark.parametrize(
    ("query", "hit"),
    [
        ("Python 3.12 怎么装", "Python 3.12"),
        ("python3.12 新特性", "python3.12"),
        ("Python 3.12.1 怎么装", None),  # a longer version: not this entity
        ("Python 13.12 是什么", None),
        ("升级到 Python 3.12。", "Python 3.12"),  # a full stop is not a version dot
    ],
)
def test_digit_terms_do_not_match_inside_dotted_numbers(
    tmp_path: Path, query: str, hit: str | None
) -> None:
    pack = write(tmp_path, "pack: ver\nentities: [Python 3.12]\n")
    lex = Lexicon.load(domains=[], dictionaries=[pack], cache_dir=tmp_path / "c")
    assert hits(lex, query) == ([(hit, "entity")] if hit else [])
