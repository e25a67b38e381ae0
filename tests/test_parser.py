"""The built-in parser: heads and relations over jieba POS tags (rulerewrite/text/builtin_parser)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulerewrite.config import RewriterConfig
from rulerewrite.context import ContextAnalyzer
from rulerewrite.lexicon import Lexicon
from rulerewrite.text import make_parser
from rulerewrite.text.builtin_parser import (
    BuiltinParser,
    is_question_word,
    noun_phrases,
    surnames_of,
    unseen_names,
)
from rulerewrite.text.parse import Parse, Parser
from rulerewrite.text.segment import Segmenter


@pytest.fixture(scope="module")
def parser() -> BuiltinParser:
    return BuiltinParser(Segmenter(), surnames=surnames_of(Lexicon.load(domains=[])))


def rels(p: Parse) -> dict[str, str]:
    return {t.text: t.rel for t in p.tokens}


def phrases(p: Parse) -> list[str]:
    return [p.text[p.tokens[a].start : p.tokens[b - 1].end] for a, b in noun_phrases(p)]


def test_is_a_parser(parser: BuiltinParser) -> None:
    backend: Parser = parser  # structural: mypy checks the protocol
    assert backend.name == "builtin"
    assert callable(backend.parse) and callable(backend.parse_many)


def test_tokens_cover_the_text_with_offsets(parser: BuiltinParser) -> None:
    text = "Galaxy S24 Ultra的保修期是多久"
    p = parser.parse(text)
    assert "".join(t.text for t in p.tokens) == text
    for t in p.tokens:
        assert text[t.start : t.end] == t.text
    assert [t.i for t in p.tokens] == list(range(len(p.tokens)))


def test_exactly_one_root_and_heads_in_range(parser: BuiltinParser) -> None:
    for text in ["北京到上海的高铁票多少钱", "这个怎么部署", "我买了一台新电脑", "好", "？"]:
        p = parser.parse(text)
        roots = [t for t in p.tokens if t.head == -1]
        assert len(roots) == 1, text
        assert all(-1 <= t.head < len(p.tokens) and t.head != t.i for t in p.tokens)


def test_latin_product_names_are_one_token(parser: BuiltinParser) -> None:
    p = parser.parse("Galaxy S24 Ultra的保修期是多久")
    assert p.tokens[0].text == "Galaxy S24 Ultra" and p.tokens[0].pos == "eng"
    assert parser.parse("Python 3.12 怎么装").tokens[0].text == "Python 3.12"


def test_subject_predicate_object(parser: BuiltinParser) -> None:
    p = parser.parse("我买了一台新电脑")
    r = rels(p)
    assert r["买"] == "root" and r["我"] == "subj" and r["电脑"] == "obj"
    assert r["新"] == "att"


def test_modifier_with_de_attaches_to_the_head_noun(parser: BuiltinParser) -> None:
    p = parser.parse("项目管理里的里程碑是什么")
    assert rels(p)["里程碑"] == "subj"
    assert "项目管理里的里程碑" in phrases(p)
    de = next(t for t in p.tokens if t.text == "的")
    assert de.rel == "de"


def test_coordination_keeps_members_in_order(parser: BuiltinParser) -> None:
    p = parser.parse("苹果和华为、小米三款手机")
    coo = [t for t in p.tokens if t.rel == "coo"]
    first = p.tokens[coo[0].head]
    assert first.text == "苹果"
    assert all(t.head == first.i for t in coo)
    p2 = parser.parse("有A款和B款两种")
    assert phrases(p2)[:2] == ["A款", "B款"]


@pytest.mark.parametrize("text", ["冷感不是噱头", "年假但是病假不行", "价格因为品牌不同"])
def test_non_coordinating_conjunctions_make_no_set(parser: BuiltinParser, text: str) -> None:
    # jieba tags 不是 / 但是 / 因为 as conjunctions; only 和 / 与 / 、 / 或 … coordinate
    assert not [t for t in parser.parse(text).tokens if t.rel == "coo"]


def test_question_particles_and_words(parser: BuiltinParser) -> None:
    p = parser.parse("你认识勒布朗詹姆斯吗")
    assert rels(p)["吗"] == "q"
    assert "勒布朗詹姆斯" in phrases(p)
    assert is_question_word("多少钱") and is_question_word("什么时候发")
    assert not is_question_word("保修")


def test_a_noun_after_a_modal_is_the_predicate(parser: BuiltinParser) -> None:
    p = parser.parse("这个怎么部署")
    assert rels(p)["部署"] == "root"


def test_a_verb_before_a_purpose_head_modifies_it() -> None:
    """rules/context.yaml purpose_heads: 学习/方法 is one noun phrase, 找/方法 a verb and its
    object (one character), and without the list the verb stays a verb."""
    lexicon = Lexicon.load(domains=[])
    p = BuiltinParser.for_lexicon(lexicon)
    assert "学习方法" in phrases(p.parse("大家都在分享学习方法"))
    assert rels(p.parse("我在找方法"))["找"] != "att"
    plain = BuiltinParser(Segmenter(), surnames=())
    assert "学习方法" not in phrases(plain.parse("大家都在分享学习方法"))


def test_a_surname_and_a_doubled_state_word_are_a_name() -> None:
    """蒋/依依 (依依 z) is a name; 柳 read as a noun (willow) with 依依 is not joined."""
    p = BuiltinParser.for_lexicon(Lexicon.load(domains=[]))
    assert ("汪盈盈", "nr") in [(t.text, t.pos) for t in p.parse("汪盈盈真好看").tokens]
    assert "柳依依" not in [t.text for t in p.parse("柳依依").tokens]


def test_unknown_names_after_a_surname_are_joined(parser: BuiltinParser) -> None:
    assert any(t.text == "张殿菲" and t.pos == "nr" for t in parser.parse("你认识张殿菲么").tokens)
    assert [t.text for t in parser.parse("王说了").tokens][:2] == ["王", "说"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("卢本伟会回来么", "卢本伟"),  # 卢 / 本 (r) / 伟: two single characters after a surname
        ("朱正廷没有下凡", "朱正廷"),
        ("你喜欢迟子建的小说吗", "迟子建"),
        ("喜欢看李光洙的镜头", "李光洙"),  # 李光 + 洙, a bound morpheme (g)
        ("司徒玥不理我", "司徒玥"),  # a two-character surname and one character
        ("公孙蓝很厉害", "公孙蓝"),
    ],
)
def test_names_jieba_leaves_in_pieces_are_joined(
    parser: BuiltinParser, text: str, name: str
) -> None:
    assert any(t.text == name and t.pos == "nr" for t in parser.parse(text).tokens)


@pytest.mark.parametrize(
    "text", ["王我也去", "李在这里", "张三说了什么", "刘也不知道", "杨阳胖吗", "吴磊招你惹你了"]
)
def test_function_words_after_a_surname_make_no_name(parser: BuiltinParser, text: str) -> None:
    assert not any(len(t.text) == 3 and t.pos == "nr" for t in parser.parse(text).tokens)


@pytest.mark.parametrize(("text", "surname"), [("欧阳老师好", "欧阳"), ("司徒说了算", "司徒")])
def test_a_two_character_surname_before_a_word_joins_nothing(
    parser: BuiltinParser, text: str, surname: str
) -> None:
    assert surname in [t.text for t in parser.parse(text).tokens]


@pytest.mark.parametrize(
    ("text", "word", "joined"),
    [
        ("帮我找张照片孙小鹿", "张照片", False),  # 张 (q) counts 照片: no name 张照片
        ("剪了段视频给你", "段视频", False),  # 段 (q) counts 视频
        ("张老师来了", "张老师", True),  # a person word is a title after the surname
        ("张海燕来了", "张海燕", True),  # a rarer noun (海燕) stays a given name
    ],
)
def test_a_measure_surname_before_a_common_noun_counts_it(
    text: str, word: str, joined: bool
) -> None:
    parser = BuiltinParser.for_lexicon(Lexicon.load(domains=[]))
    assert (word in [t.text for t in parser.parse(text).tokens]) is joined


@pytest.mark.parametrize(
    ("text", "word", "joined"),
    [
        ("小王厉害了", "王厉害", False),  # 厉害 (a, frequent) goes on the clause
        ("老毛应该知道吧", "毛应该", False),  # 应该 (v, frequent): no given name
        ("杨导杨东升啊", "杨导杨", False),  # a given name never ends with its own surname
        ("陈清扬说得对", "陈清扬", True),  # trap: a rarer verb (清扬) stays a given name
        ("陈平安来了", "陈平安", True),  # trap: a rarer adjective (平安) too
    ],
)
def test_a_frequent_predicate_after_a_surname_is_no_given_name(
    text: str, word: str, joined: bool
) -> None:
    parser = BuiltinParser.for_lexicon(Lexicon.load(domains=[]))
    assert (word in [t.text for t in parser.parse(text).tokens]) is joined


@pytest.mark.parametrize(("text", "word"), [("她穿了白裙子", "裙子"), ("给我拿张桌子", "桌子")])
def test_a_family_name_character_before_a_common_noun_is_a_word_of_its_own(
    parser: BuiltinParser, text: str, word: str
) -> None:
    # 白 (a) / 张 (q) + a two-character common noun: white skirt, a table, no name
    toks = parser.parse(text).tokens
    assert word in [t.text for t in toks]
    assert not any(t.pos == "nr" for t in toks)


@pytest.mark.parametrize(("text", "name"), [("周天才来了", "周天才"), ("李大风去哪了", "李大风")])
def test_a_family_name_jieba_tags_a_name_still_joins_a_common_noun(
    parser: BuiltinParser, text: str, name: str
) -> None:
    # trap: 周 / 李 are tagged nr, so 天才 / 大风 after them are a given name
    assert any(t.text == name and t.pos == "nr" for t in parser.parse(text).tokens)


@pytest.mark.parametrize(
    ("text", "name"),
    [("我跟君君分手了", "君君"), ("康康也不会答应我", "康康"), ("我不是嘉嘉", "嘉嘉")],
)
def test_a_doubled_character_left_apart_is_a_pet_name(
    parser: BuiltinParser, text: str, name: str
) -> None:
    assert any(t.text == name and t.pos == "nr" for t in parser.parse(text).tokens)


@pytest.mark.parametrize("text", ["萌萌的小猫", "常常来", "好好学习", "哈哈哈哈"])
def test_doubled_adverbs_adjectives_and_laughter_are_no_pet_name(
    parser: BuiltinParser, text: str
) -> None:
    toks = parser.parse(text).tokens
    assert not any(len(t.text) == 2 and t.text[0] == t.text[1] and t.pos == "nr" for t in toks)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("我梦到了刘振", [("刘振", 4)]),  # surname + a character that may end a name
        ("昨天见到周冬雨了", [("周冬雨", 4)]),  # surname + a word: 3 characters in all
        ("易烊千玺的新歌", []),  # more pieces than a name of 3 holds
        ("C罗最佳", []),  # the surname character ends a Latin word
        ("格格也来了", [("格格", 0)]),  # a doubled character, one token
        ("我和瑶瑶去逛街", [("瑶瑶", 2)]),  # a doubled character jieba split
        ("哈哈你真逗", []),  # laughter is listed as not_doubled
        ("他说的对", []),
    ],
)
def test_unseen_names_are_found_in_the_pieces_the_parser_leaves(
    parser: BuiltinParser, text: str, found: list[tuple[str, int]]
) -> None:
    singles = frozenset(x for x in parser.surnames if len(x) == 1)
    toks = parser.parse(text).tokens
    names = unseen_names(
        toks, surnames=singles, max_len=3, not_doubled=frozenset("哈"), known=parser.segmenter.freq
    )
    assert list(names) == found


def test_parse_is_cached_and_parse_many_keeps_order(parser: BuiltinParser) -> None:
    a = parser.parse("它保修多久")
    assert parser.parse("它保修多久") is a
    many = parser.parse_many(["它保修多久", "广州呢"])
    assert [p.text for p in many] == ["它保修多久", "广州呢"]


@pytest.mark.parametrize("text", ["", " ", "？？", "!!!", "a", "123", "😀", "的的的"])
def test_odd_input_never_crashes(parser: BuiltinParser, text: str) -> None:
    p = parser.parse(text)
    assert p.text == text


def test_surnames_come_from_the_context_rules(tmp_path: Path) -> None:
    """One list (rules/context.yaml ``surnames``): a parser built for a lexicon joins names
    after the family names its rules list, and only those."""
    rules = tmp_path / "context.yaml"
    rules.write_text(
        "mode: context\nrules:\n  - id: surnames\n    surnames: [冉, 欧阳]\n", encoding="utf-8"
    )
    lex = Lexicon.load(domains=[], rules=[rules])
    assert surnames_of(lex) == frozenset({"冉", "欧阳"})
    parser = BuiltinParser.for_lexicon(lex)
    assert any(t.text == "冉殿菲" and t.pos == "nr" for t in parser.parse("你认识冉殿菲么").tokens)
    assert "张殿菲" not in [t.text for t in parser.parse("你认识张殿菲么").tokens]
    bare = BuiltinParser(Segmenter(), surnames=())
    assert "冉殿菲" not in [t.text for t in bare.parse("你认识冉殿菲么").tokens]


def test_the_bundled_parser_reads_the_bundled_surnames() -> None:
    lex = Lexicon.load(domains=[])
    cfg = RewriterConfig()
    parser = make_parser(cfg, lex)
    assert isinstance(parser, BuiltinParser)
    assert parser.surnames == surnames_of(lex)
    assert {"张", "檀", "欧阳"} <= parser.surnames
    assert len(ContextAnalyzer(lex).surnames[0]) == 2  # longest first (欧阳 before 欧)
