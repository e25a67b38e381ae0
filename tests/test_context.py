"""The dialogue window and its entities (rulerewrite/context.py)."""

from __future__ import annotations

import pytest

from rulerewrite.context import ContextAnalyzer, Turn, parse_history
from rulerewrite.lexicon import Lexicon


@pytest.fixture(scope="module")
def ca() -> ContextAnalyzer:
    return ContextAnalyzer(Lexicon.load(), window=3)


def texts(ca: ContextAnalyzer, history: list[str]) -> list[str]:
    return [m.text for m in ca.dialogue(parse_history(history)).mentions()]


def test_window_keeps_the_last_n_exchanges() -> None:
    lex = Lexicon.load()
    hist = parse_history([f"第{i}个问题关于Redis{i}" for i in range(10)])
    d = ContextAnalyzer(lex, window=2).dialogue(hist)
    assert [ti.turn.index for ti in d.turns] == [6, 7, 8, 9]


def test_chitchat_turns_are_dropped(ca: ContextAnalyzer) -> None:
    d = ca.dialogue(
        parse_history(["Qdrant 是什么", "向量数据库", "谢谢", "不客气", "今天天气不错"])
    )
    assert d.dropped == (2, 3, 4)
    assert [ti.turn.index for ti in d.turns] == [0, 1]
    assert ca.is_chitchat("你好呀~") and ca.is_chitchat("好的，谢谢！")
    assert ca.is_chitchat("不用谢了哈哈") and ca.is_chitchat("不谢啦")  # the reply to a thanks
    assert ca.is_chitchat("抠鼻") and ca.is_chitchat("厉害抱拳")  # an emoticon typed as text
    assert not ca.is_chitchat("你好，iPhone 15 保修多久")


def test_dictionary_entities_keep_type_turn_speaker_and_role(ca: ContextAnalyzer) -> None:
    d = ca.dialogue(parse_history(["Galaxy S24 Ultra 多少钱", "官方售价 9699 元起"]))
    m = next(m for m in d.mentions() if m.text == "Galaxy S24 Ultra")
    assert (m.etype, m.turn, m.role, m.gram, m.protected) == ("product", 0, "user", "subj", True)
    assert m.source.startswith("dictionaries/ecommerce.yaml:")


def test_named_entities_from_pos(ca: ContextAnalyzer) -> None:
    d = ca.dialogue(parse_history(["你知道鲁迅吗", "知道"]))
    m = next(m for m in d.mentions() if m.text == "鲁迅")
    assert m.etype == "person"


@pytest.mark.parametrize(
    ("history", "phrase", "etype"),
    [
        (["我们去吃饭吧", "耶饭"], "耶饭", "thing"),  # 耶 (an interjection tagged nr) opens no name
        (["她叫什么", "曼雨"], "曼雨", "person"),  # trap: a name character and one more
    ],
)
def test_a_character_tagged_a_name_and_one_more(
    ca: ContextAnalyzer, history: list[str], phrase: str, etype: str
) -> None:
    m = next(m for m in ca.dialogue(parse_history(history)).mentions() if m.text == phrase)
    assert m.etype == etype


def test_places_jieba_tags_a_name_are_places(ca: ContextAnalyzer) -> None:
    # 拉萨 (nrt) / 桂林 (nr) in jieba's dictionary, retagged in rules/segment.yaml
    d = ca.dialogue(parse_history(["放假去哪玩", "去拉萨旅游或者去桂林"]))
    types = {m.text: m.etype for m in d.mentions()}
    assert types.get("拉萨") == "place" and types.get("桂林") == "place"


def test_noun_phrase_with_modifiers(ca: ContextAnalyzer) -> None:
    d = ca.dialogue(parse_history(["项目管理里的里程碑怎么设置", "在计划视图里"]))
    m = next(m for m in d.mentions() if m.head == "里程碑")
    assert m.text == "项目管理里的里程碑"


def test_latin_models_and_codes(ca: ContextAnalyzer) -> None:
    found = texts(ca, ["WH-1000XM5 和 Model Y 哪个先发货", "订单 2023110512345678 已发货"])
    assert "WH-1000XM5" in found and "Model Y" in found
    d = ca.dialogue(parse_history(["查一下 SF1234567890", "已签收"]))
    assert any(m.etype == "code" for m in d.mentions())


def test_coordinated_sets_in_order(ca: ContextAnalyzer) -> None:
    for hist, members in [
        (["北京和上海哪个冷", "北京更冷"], ("北京", "上海")),
        (["Redis、Memcached 和 etcd 哪个适合做配置中心", "etcd"], ("Redis", "Memcached", "etcd")),
        (["有A款和B款两种套餐吗", "有的"], ("A款", "B款")),
    ]:
        sets = ca.dialogue(parse_history(hist)).sets()
        assert sets and sets[0].members == members, (hist, [s.members for s in sets])


def test_topic_frames_capture_titles_the_segmenter_splits(ca: ContextAnalyzer) -> None:
    d = ca.dialogue(parse_history(["你知道天才在左疯子在右吗", "看过"]))
    top = [m for m in d.mentions() if m.gram == "topic"]
    assert top and top[0].text == "天才在左疯子在右"


def test_turns_are_analysed_once(ca: ContextAnalyzer) -> None:
    t = Turn(0, "user", "MacBook Air 续航多久")
    a = ca.analyze(t)
    assert ca.analyze(Turn(0, "user", "MacBook Air 续航多久")) is a
    hits = ca._analyze_at.cache_info().hits
    ca.dialogue((t,))
    assert ca._analyze_at.cache_info().hits == hits + 1


def test_question_words_are_not_antecedents(ca: ContextAnalyzer) -> None:
    assert not any("多少" in t for t in texts(ca, ["iPhone 15 多少钱", "5999 元"]))


def test_system_and_empty_turns_are_skipped(ca: ContextAnalyzer) -> None:
    hist = parse_history(
        [{"role": "system", "content": "你是客服"}, {"role": "user", "content": ""}]
    )
    assert ca.dialogue(hist).turns == ()


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("你加了一个叫 朵拉咪的人吧", "朵拉咪"),  # 叫X
        ("松冈美羽的演唱会你去吗", "松冈美羽"),  # X的演唱会: a place word and two characters
        ("刚听了木西的新专辑", "木西"),  # 听了X的
        ("人气模特水原希子", "水原希子"),  # a person word titling X at the turn's end
        ("我最喜欢的那个人就是本兮", "本兮"),  # a person said to be X
        ("我说的是跳跳不理我", "跳跳"),  # who ignores the speaker (the longest name-like tail)
        ("我想让小九给我打电话", "小九"),  # a nickname with a numeral
    ],
)
def test_an_unknown_name_in_a_person_slot_is_a_person(
    ca: ContextAnalyzer, text: str, name: str
) -> None:
    people = [m.text for m in ca.analyze(Turn(0, "user", text)).mentions if m.etype == "person"]
    assert name in people


@pytest.mark.parametrize(
    "word",
    [
        "红薯粥",
        "小螃蟹",
        "唱刘德华",
        "发蔡徐坤",
        "喜欢阿哲",
        "什么",
        "照片",
        "一本书",
        "两只猫",
        "直男",
        "等小七",
    ],
)
def test_common_words_and_verbs_are_no_slot_name(ca: ContextAnalyzer, word: str) -> None:
    assert not ca.name_like(word)
