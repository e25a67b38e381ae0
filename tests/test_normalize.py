"""The one normalisation used at compile time and at match time (rulerewrite/text/normalize.py)."""

from __future__ import annotations

import functools
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulerewrite.text.normalize import Normalizer, NormText, clean_query, is_cjk


@pytest.fixture(scope="module")
def norm() -> Normalizer:
    return Normalizer()


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # NFKC: full width -> half width, compatibility forms
        ("ＡＢＣ１２３", "abc123"),
        ("ｉＰｈｏｎｅ１５", "iphone15"),
        ("①号条款", "1号条款"),
        ("ﬁle", "file"),
        # traditional -> simplified
        ("這個保險能退嗎", "这个保险能退吗"),
        ("後來頭髮", "后来头发"),
        ("請問理賠流程", "请问理赔流程"),
        # Latin lower-cased
        ("Kubernetes Pod", "kubernetes pod"),
        ("K8S", "k8s"),
        # punctuation
        ("多少钱？", "多少钱?"),
        ("你好，谢谢！", "你好,谢谢!"),
        ("保单。退保、理赔", "保单.退保,理赔"),
        ("《保险法》", "<保险法>"),
        ("“平安福”", '"平安福"'),
        ("【重要】", "[重要]"),
        # whitespace: runs collapse, dropped next to CJK and at the ends
        ("  k8s   怎么  看 pod 日志 ", "k8s怎么看pod日志"),
        ("iPhone   15 Pro", "iphone 15 pro"),
        ("保单\u3000怎么退", "保单怎么退"),
        ("保单\t怎么\n退", "保单怎么退"),
        ("Hello World", "hello world"),
        # already normal: unchanged
        ("保单怎么退", "保单怎么退"),
        ("k8s", "k8s"),
        ("", ""),
    ],
)
def test_normalised_text(norm: Normalizer, raw: str, expected: str) -> None:
    assert norm(raw).text == expected


@pytest.mark.parametrize(
    ("raw", "needle", "user_form"),
    [
        ("請問 iPhone１５ 這個保險能退嗎？", "iphone15", "iPhone１５"),
        ("  k8s   怎么  看 pod 日志 ", "pod", "pod"),
        ("ＡＢＣ保險", "abc保险", "ＡＢＣ保險"),
        ("Galaxy  S24  Ultra 多少钱", "galaxy s24 ultra", "Galaxy  S24  Ultra"),
        ("ﬁle 在哪", "file", "ﬁle"),
        ("保单\u3000怎么退", "怎么退", "怎么退"),
    ],
)
def test_offsets_map_back_to_the_users_characters(
    norm: Normalizer, raw: str, needle: str, user_form: str
) -> None:
    nt = norm(raw)
    i = nt.text.index(needle)
    assert nt.original_slice(i, i + len(needle)) == user_form


def test_identity_mapping_when_nothing_moves(norm: Normalizer) -> None:
    nt = norm("保单怎么退")
    assert nt.offsets is None
    assert nt.to_original(1, 3) == (1, 3)
    assert nt.original_slice(0, 2) == "保单"


def test_empty_span_maps_to_a_point(norm: Normalizer) -> None:
    nt = norm("  保单 怎么退")
    assert nt.to_original(1, 1)[0] == nt.to_original(1, 1)[1]


def test_traditional_chars_are_detected_once(norm: Normalizer) -> None:
    assert norm.to_simplified("保单怎么退") == "保单怎么退"
    assert norm.to_simplified("保單怎麼退") == "保单怎么退"
    assert norm.to_simplified("abc") == "abc"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("保单\x00怎么退", "保单怎么退"),
        ("\ufeff保单怎么退", "保单怎么退"),
        ("保\u200b单\u200d怎么退", "保单怎么退"),
        ("  保单怎么退\n", "保单怎么退"),
        ("a\x1bb\x7fc", "abc"),
        ("保单\u202e怎么退", "保单怎么退"),
        ("\x00\u200b ", ""),
    ],
)
def test_clean_query_strips_control_and_format_characters(raw: str, expected: str) -> None:
    assert clean_query(raw) == expected


def test_is_cjk() -> None:
    assert is_cjk("保") and is_cjk("㐀") and is_cjk("\U00020000")
    assert not is_cjk("a") and not is_cjk("。") and not is_cjk("１")


# -- properties ---------------------------------------------------------------------------------

_TEXT = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8", exclude_categories=("Cs",)),
        st.sampled_from(list("保单怎么退這個險ＡＢＣ１２３ iPhone　？！。，、  \t")),
    ),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_offset_map_is_well_formed(raw: str) -> None:
    nt2 = _N(raw)
    if nt2.offsets is None:
        assert len(nt2.text) == len(raw)
        return
    offs = nt2.offsets
    assert len(offs) == len(nt2.text) + 1
    assert offs[-1] == len(raw)
    assert all(0 <= o <= len(raw) for o in offs)
    assert list(offs[:-1]) == sorted(offs[:-1])  # monotonic: spans map to spans
    for i in range(len(nt2.text)):
        assert nt2.original_slice(i, i + 1) != ""


@pytest.mark.parametrize(
    "raw",
    [
        "\u00a8\u05a2",  # ¨ is a space + U+0308 under NFKC; the space goes, the marks must reorder
        "a\u00a8\u05a2",
        "中 \u00a8\u05a2x",
    ],
)
def test_combining_marks_brought_together_are_reordered(raw: str) -> None:
    # found by the property below (Hypothesis, 2026-12-02): normalising twice changed the text
    once = _N(raw)
    assert _N(once.text).text == once.text
    assert unicodedata.is_normalized("NFKC", once.text)
    assert all(once.original_slice(i, i + 1) for i in range(len(once.text)))


def test_simplified_to_a_fixed_point() -> None:
    # OpenCC maps 薴 to 苧, itself traditional (→ 苎): one pass left the text changing (Hypothesis)
    assert _N("薴").text == _N(_N("薴").text).text == "苎"


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_normalisation_is_idempotent(raw: str) -> None:
    once = _N(raw).text
    assert _N(once).text == once


@settings(max_examples=200, deadline=None)
@given(_TEXT)
def test_no_whitespace_next_to_cjk_or_at_the_ends(raw: str) -> None:
    t = _N(raw).text
    assert t == t.strip()
    assert "  " not in t
    for i, ch in enumerate(t):
        if ch == " ":
            assert not is_cjk(t[i - 1]) and not is_cjk(t[i + 1])


@functools.cache
def _normalizer() -> Normalizer:
    return Normalizer()  # Hypothesis tests cannot take function-scoped fixtures


def _N(text: str) -> NormText:
    return _normalizer()(text)
