"""Rule views, patterns and free helpers shared by the ellipsis rule groups."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from rulerewrite.context import Dialogue, Mention, TurnInfo, new_mention
from rulerewrite.modes.base import State
from rulerewrite.modes.multiturn import NAMED_TYPES, RuleView, key, resolved
from rulerewrite.text.builtin_parser import QUESTION_WORDS, is_question_word, kind_of
from rulerewrite.text.parse import Parse, Token

_CONTENT = ("NOUN", "VERB", "ADJ", "PRON", "NUM", "TIME")
# a question word anywhere in a text (one search instead of a test per word)
_HAS_QWORD = re.compile("|".join(re.escape(q) for q in sorted(QUESTION_WORDS)))


@dataclass(frozen=True)
class _NegationEcho(RuleView):
    """``negation_echo``: 你去过北京吗 / 没有 / 真的没有, the question's predicate negated again."""

    lead: re.Pattern[str] | None = key("asked_lead")
    end: re.Pattern[str] | None = key("asked_end")
    has: re.Pattern[str] | None = None
    max_len: int = key("max_predicate", 12)
    stated: re.Pattern[str] | None = key("stated_pattern")
    stated_end: re.Pattern[str] | None = None
    stated_lead: re.Pattern[str] | None = None
    stated_max: int = key("stated_max", 8)


@dataclass(frozen=True)
class _AnswerJudged(RuleView):
    """``answer_judged``: a reply judging what the user asked about, said of it."""

    lead: re.Pattern[str] | None = key("drop_lead")
    end: re.Pattern[str] | None = key("asked_end")
    degree: re.Pattern[str] | None = None
    drop: re.Pattern[str] | None = key("drop_end")
    max_len: int = key("max_subject", 12)
    asserted: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _HowEcho(RuleView):
    """``how_echo``: 怎么做 / 喝多少 / 换什么呢, the object the same verb had in the last
    exchange; ``asked``: the topic the last exchange asked the same how-question about."""

    pattern: re.Pattern[str] | None = None
    much: re.Pattern[str] | None = None
    what: re.Pattern[str] | None = None
    drop: re.Pattern[str] | None = key("drop_end")
    not_verbs: frozenset[str] = frozenset()
    treat: frozenset[str] = key("treat_verbs", frozenset())
    illness: re.Pattern[str] | None = None
    asked: re.Pattern[str] | None = None
    where: re.Pattern[str] | None = None
    bare_kinds: frozenset[str] = key("bare_reply_kinds", frozenset())
    bare_max: int = key("bare_reply_max", 6)


@dataclass(frozen=True)
class _ModalVp(RuleView):
    """``modal_vp``: 我也想 / 你敢不敢 / 不可能, a bare modal that takes the verb phrase a
    modal of its family carries in the last exchange (``carriers`` are read apart)."""

    pattern: re.Pattern[str] | None = None
    carrier_lead: re.Pattern[str] | None = None
    vp_open: re.Pattern[str] | None = None
    vp_end: re.Pattern[str] | None = None
    vp_shape: re.Pattern[str] | None = None
    user_personal: re.Pattern[str] | None = None
    bare_vp: re.Pattern[str] | None = None
    bare_vp_objects: frozenset[str] = frozenset()
    bare_vp_not: frozenset[str] = frozenset()
    bare_vp_how: re.Pattern[str] | None = None
    clause_modals: frozenset[str] = frozenset()
    how_vp: re.Pattern[str] | None = None
    topic_how: re.Pattern[str] | None = None
    asked_vp: re.Pattern[str] | None = None


@dataclass(frozen=True)
class _ReallyEcho(RuleView):
    """``really_echo``: k701太贵了 / 真的吗, the assistant's statement asked about again."""

    pattern: re.Pattern[str] | None = None
    statement: re.Pattern[str] | None = None
    drop_end: re.Pattern[str] | None = None
    subject_kinds: frozenset[str] = frozenset()
    asked: re.Pattern[str] | None = None
    confirm: re.Pattern[str] | None = None
    asked_end: re.Pattern[str] | None = None
    asked_subject: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _ReplyLeadObject(RuleView):
    """``reply_lead_object``: 瓦力是你谁 / 我不认识, the short reply's lead is the object."""

    max_query: int = 6
    max_reply: int = 10
    max_phrase: int = 6
    tail: re.Pattern[str] | None = None
    not_before: re.Pattern[str] | None = None
    not_query: re.Pattern[str] | None = None
    not_types: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _TellAsked(RuleView):
    """``tell_asked``: 告诉我吧 after the user's own question, that question."""

    asked: re.Pattern[str] | None = None
    end: re.Pattern[str] | None = key("drop_end")
    not_asked: re.Pattern[str] | None = None
    max_len: int = key("max_question", 14)


@dataclass(frozen=True)
class _ClauseObject(RuleView):
    """``clause_object``: 你居然不知道 / 你说呢, the wh-question of the last exchange as the
    object of a bare verb of knowing or saying."""

    pattern: re.Pattern[str] | None = key("pattern")
    asked: re.Pattern[str] | None = None
    drop_lead: re.Pattern[str] | None = None
    drop_end: re.Pattern[str] | None = None
    not_reply: re.Pattern[str] | None = None
    not_own: re.Pattern[str] | None = None
    asked_back: re.Pattern[str] | None = None
    knowing: re.Pattern[str] | None = None
    named_only: re.Pattern[str] | None = None
    frame_only: re.Pattern[str] | None = None
    max_question: int = 16


@dataclass(frozen=True)
class _AnswerStated(RuleView):
    """``answer_stated``: 我喜欢周杰伦 / 谁啊 / 唱歌的, a bare answer to a bare question word
    completes the user's own statement."""

    who: re.Pattern[str] | None = None
    one_of: re.Pattern[str] | None = None
    when: re.Pattern[str] | None = None
    when_words: frozenset[str] = frozenset()
    where: re.Pattern[str] | None = None
    stated_from: re.Pattern[str] | None = key("from")
    echo: re.Pattern[str] | None = None
    echo_open: frozenset[str] = frozenset()
    max_answer: int = 8
    max_statement: int = 24


class _TypedComment(NamedTuple):
    """One type of rule ``typed_comment``: the comment, where a turn names a thing of the type,
    what such a thing never holds, whether a bare noun-phrase turn names one, which entity types
    do."""

    kind: str
    pattern: re.Pattern[str]
    said: re.Pattern[str] | None
    not_in: re.Pattern[str] | None
    bare: bool
    etypes: frozenset[str]


_SLOT_TYPES = NAMED_TYPES | {"time"}
# word classes a reply names something with (quiet_reply: a reply holding one is not quiet)
_REPLY_NAMES = frozenset({"NOUN", "TIME", "LOC"})
# a break between clauses (不好吃 换一个)
_CLAUSE_END = re.compile(r"[，,。；;！!？?]")
_EXCHANGE = "topic of the last exchange"
# what may come between a topic and the property the user asks of it (麻薯什么味道 / X的作者)
_ASKED_PROP = re.compile(r"^的?(?:什么|啥|哪些|哪个)?")
# the subject of the last user turn, said in a topic frame (你知道X吗); the ranking notes may
# have others between the two (", named by the user")
_FRAMED_LEAD = ("subject of last user turn", "topic frame")
_NE_KINDS = frozenset({"NOUN", "TIME", "NUM", "ADJ", "DE", "LOC"})
_CJK_OR_WORD = re.compile(r"[\u4e00-\u9fffA-Za-z0-9]")  # the said turn goes on into the query
# tags of a noun that, right before a verb, is its topicalised object (三体也看过); a place, a
# time or a noun after a question word (下沙也买不起 / 用什么语言写) is not
_OBJECT_POS = frozenset({"n", "nz", "nr", "nrt", "nrfg", "eng", "x"})
# an A-not-A question (在不在 / 算不算 / 有没有 / 喜不喜欢): `a` is the verb's first character
_A_NOT_A = re.compile(r"(?P<a>[\u4e00-\u9fff])[不没](?P=a)")
_CLAUSES = re.compile(r"[,，。;；!！?？\s]")  # what parts a turn into clauses
# a whole A-not-A verb (会不会 / 有没有 / 喜不喜欢): the verb is `a` and the `rest`
_A_NOT_A_VERB = re.compile(r"(?P<a>[\u4e00-\u9fff])[不没](?P=a)(?P<rest>.*)")
_NOUN_PHRASE_KINDS = frozenset({"NOUN", "DE"})
# the words that end a modal's verb phrase in the turn that says it (你会做饭吗: 做饭 ends at
# 吗): a question particle or a negation, each a word of its own
_VP_ENDS = frozenset("吗么不没呢吧啊咩")
# what may come before the kind that describes a topic (台湾男歌手 / 西南中心省会城市 / 一个很有
# 名的歌手): not a verb, an adverb or a conjunction, which make a clause of it
_KIND_MODIFIERS = frozenset({"NOUN", "DE", "NUM", "ADJ"})
# words a reply that only names a thing does not hold (an adverb, a pronoun, a particle, a
# time or a count: 人气很高的手游 / 自己搜一下 / 星期三)
_NOT_IN_THING = frozenset({"ADV", "PRON", "PART", "TIME", "NUM", "AUX", "CONJ"})
# the words a bare noun phrase of a comment may hold (腾讯游戏 / 很细心的一个星座)
_COMMENT_NP = frozenset({"NOUN", "DE", "NUM", "ADJ", "ADV"})
_CJK = re.compile(r"[\u4e00-\u9fff]")
_PREDICATED = frozenset({"person", "work"})


# tags jieba gives numbers and Latin runs, which open no head noun (2018 of 2018经济形势)
_NOT_HEAD = frozenset({"m", "eng", "x", "mq"})


# the assistant's 你 is the user's 我 and back (你老婆不喜欢你了 said again as 不喜欢我了)
_SWAP_SPEAKERS = str.maketrans("你我", "我你")


def _verb_tagged(t: Token) -> bool:
    """``t`` is tagged a verb (发给: vn too) or an adjective."""
    return t.pos.startswith("v") or kind_of(t.pos, t.text) in ("VERB", "ADJ")


def _interjection(t: Token) -> bool:
    """An interjection opening a reply (哈哈 / 嗯嗯 / 哦), by its jieba tag."""
    return t.pos in ("o", "e", "y")


def _same_kind(noun: str, x: str) -> bool:
    """Two nouns of the same kind: both of two or more characters (and not the same
    word) ending in the same character that is no common modifier ending (韩语 / 法语,
    科目二 / 科目三 are not: 二 / 三 differ; 江苏省 / 浙江省)."""
    return len(noun) >= 2 and len(x) >= 2 and noun != x and noun[-1] == x[-1] and x[-1] != "的"


def _topic_nouns(toks: Sequence[Any]) -> str:
    """The last run of adjacent nouns before the first question word of a turn: the thing the
    turn asks about (医保 of 医保怎么算的, 优衣库 of 优/衣/库/行/吗, 经济形势 of 2018经济形势)."""
    run: list[Any] = []
    best: list[Any] = []
    for t in toks:
        if is_question_word(t.text):
            break
        if kind_of(t.pos, t.text) == "NOUN" and t.pos not in _NOT_HEAD:
            run = [*run, t] if run and run[-1].end == t.start else [t]
            best = run
        else:
            run = []
    return "".join(t.text for t in best)


def _same_kind_named(parse: Parse, phrase: str) -> bool:
    """The query names a noun of the same kind as ``phrase`` (the same last character: 意外险
    of 畅行驾乘意外险 beside 防癌医疗险): it has a subject of its own."""
    return any(
        len(t.text) >= 2
        and t.text[-1] == phrase[-1:]
        and t.text != phrase
        and kind_of(t.pos, t.text) == "NOUN"
        for t in parse.tokens
    )


def _agent_then_verb(toks: list[Any], kinds: list[str], at: int) -> bool:
    """A noun or pronoun starts at ``at`` (the agent after 被) and a verb follows it."""
    k = next((i for i, t in enumerate(toks) if t.start == at), None)
    return k is not None and kinds[k] in ("NOUN", "PRON") and "VERB" in kinds[k + 1 :]


def _alone(name: str, ti: TurnInfo) -> bool:
    """``name`` is the only thing the turn names (mentions inside it or holding it aside)."""
    return all(m.text in name or name in m.text for m in ti.mentions)


def _is_pronounish(m: Mention) -> bool:
    return m.head in ("你", "我", "他", "她", "它", "您")


def _previous_question(d: Dialogue) -> TurnInfo | None:
    for ti in reversed(d.turns):
        if ti.turn.role == "user":
            return ti
    return None


_TIME = re.compile(
    r"今天|明天|后天|昨天|前天|今晚|明晚|本周|下周|上周|这周|周[一二三四五六日末]|星期[一二三四五六日天]"
    r"|今年|明年|去年|本月|下个?月|上个?月|上午|下午|晚上|早上|中午|凌晨"
)


def _time_tokens(ti: TurnInfo, dates: re.Pattern[str] | None = None) -> list[Mention]:
    """Time expressions of a turn (今天 / 下周 / 上午 ...; with ``dates`` also 2018年 / 9月),
    for 明天呢-style slot swaps, in the order they are said."""
    role, idx = ti.turn.role, ti.turn.index
    found = list(_TIME.finditer(ti.turn.content))
    if dates is not None:
        found += [
            m
            for m in dates.finditer(ti.turn.content)
            if not any(f.start() < m.end() and m.start() < f.end() for f in found)
        ]
    return [
        new_mention(m.group(), m.group(), "time", idx, role, "adv", m.start(), m.end(), 0, "time")
        for m in sorted(found, key=lambda m: m.start())
    ]


def _drop_opener(said: str, openers: list[str], *, keep: int) -> str:
    """``said`` without the first of ``openers`` (longest first) it opens with, when at least
    ``keep`` characters are left (我觉得不应该… -> 不应该…; 估计短期内… -> 短期内…)."""
    for w in openers:
        if said.startswith(w) and len(said) - len(w) >= keep:
            return said[len(w) :]
    return said


def _names_a_kind(t: Token) -> bool:
    """A word of an evaluation that makes it name a kind or a person (好学校 / 不是他), not a
    quality; one-character nouns are qualities jieba tags n (辣 / 香)."""
    k = kind_of(t.pos, t.text)
    return k == "PRON" or (k == "NOUN" and len(t.text) > 1)


# the scratch key under which _complete keeps the short reply's lead as the missing object
_REPLY_LEAD = "ellipsis.reply_lead_object"


def _answered(state: State, d: Dialogue) -> TurnInfo | None:
    """The assistant's turn the query answers: the last message, if the assistant said it and
    it is in the window (not dropped as chit-chat)."""
    if not d.turns or not state.history:
        return None
    last = d.turns[-1]
    if last.turn.role != "assistant" or last.turn.index != state.history[-1].index:
        return None
    return last


def _asked_again(
    state: State,
    source: str,
    new: str,
    prev: TurnInfo,
    *,
    slot: str,
    note: str,
    confidence: float = 0.7,
) -> State:
    """``resolved`` with the user's previous question ``prev``, asked again with a slot
    changed (X呢 / 还有呢), as the antecedent the rewrite took."""
    return _resolved_from(
        state,
        source,
        new,
        prev.turn.content,
        prev,
        "question",
        etype="question",
        slot=slot,
        note=note,
        confidence=confidence,
    )


def _answered_as(
    state: State, source: str, filled: str, asked: str, last: TurnInfo, how: str
) -> State:
    """The user's answer ``filled`` into the assistant's wh-question ``asked`` (answer_wh)."""
    return _resolved_from(
        state,
        source,
        filled,
        asked,
        last,
        "statement",
        slot="question",
        note=f"answer to {asked!r}: {how}",
        confidence=0.7,
    )


def _object_after(
    state: State, source: str, text: str, at: int, obj: str, src: TurnInfo, note: str
) -> State:
    """``text`` with the thing ``obj`` put in at ``at`` (after a count: 说一句 + 英语, 发两张 +
    图片; after the verb: 我不会 + 做饭), resolved from the turn ``src`` (show_one /
    request_one / own_question)."""
    return _resolved_from(
        state,
        source,
        text[:at] + obj + text[at:],
        obj,
        src,
        "obj",
        etype="thing",
        slot="object",
        note=note,
        confidence=0.6,
    )


def _topic_first(state: State, source: str, name: str, text: str, ti: TurnInfo, note: str) -> State:
    """``name``, a thing turn ``ti`` said, put first as the topic the query comments on."""
    return _resolved_from(
        state,
        source,
        name + text,
        name,
        ti,
        "topic",
        etype="thing",
        slot="subject",
        note=note,
        confidence=0.6,
    )


def _resolved_from(
    state: State,
    source: str,
    new: str,
    said: str,
    ti: TurnInfo,
    gram: str,
    *,
    etype: str = "statement",
    slot: str,
    note: str,
    confidence: float,
) -> State:
    """``resolved`` with what a history turn said (a whole statement, a question, the rest of a
    question) as the antecedent the rewrite took, for the result's ``resolved_context``."""
    mention = new_mention(
        said, "", etype, ti.turn.index, ti.turn.role, gram, 0, len(said), 0, "history"
    )
    return resolved(
        state, "ellipsis", source, new, mention, slot=slot, note=note, confidence=confidence
    )


def _owner_glue(owner: str) -> str:
    """The 的 that joins ``owner`` to the attribute or part it owns (三体 + 作者 -> 三体的作者),
    none when ``owner`` already ends with one (钢铁是怎样炼成的作者) or is itself a 的-phrase
    (挪威的森林作者 / 夏洛的网主角, not 挪威的森林的作者: two 的 in a row of modifiers read as
    nesting the owner in a third thing)."""
    return "" if "的" in owner else "的"


# what ends a reused question that already has its final particle (会下雨吗 / 好看吧)
_ASKS_BY_PARTICLE = re.compile(r"[吗么嘛呢吧]$")


def _time_ne(question: str) -> str:
    """The previous question asked again for another time (a bare 明天呢 / 2017年呢), with
    the query's 呢 at its end: 2018年环法冠军是谁 / 2017年呢 -> 2017年环法冠军是谁呢, as a
    weather question asked for another day keeps it (杭州明天天气呢). The dialogue-rewrite
    gold keeps the 呢 of a time follow-up; a question already ending in its own particle
    (今天会下雨吗 / 明天呢 -> 明天会下雨吗) takes none."""
    return question if _ASKS_BY_PARTICLE.search(question) else question + "呢"


def _specific_named(
    d: Dialogue,
    name: str,
    *,
    asked: re.Pattern[str] | None,
    lead_min: int,
    personal: re.Pattern[str],
) -> str:
    """The one of ``name``'s kind the assistant's last reply named, when the user's turn before
    it asked which (啥会员) or named another kind of it (五仁味的月饼): the reply's phrase
    ending with ``name`` (爱奇艺会员 / 鲜肉月饼), its modifier nouns or adjectives of
    ``lead_min`` characters or more, no 的 and no speaker (给我发 is one word to jieba); else
    ``name`` itself (rules/completeness.yaml
    ``specific_named``). Why: the reply answered with a specific one, and the follow-up goes on
    about that one. Example: 啥会员 / 到底给我爱奇艺会员不 / 我没有 -> 我没有爱奇艺会员."""
    turns = d.turns
    if asked is None or len(turns) < 2 or not name:
        return name
    told, last = turns[-2], turns[-1]
    if told.turn.role != "user" or last.turn.role == "user":
        return name
    said = told.turn.content
    at = said.find(name)
    while at >= 0 and not asked.search(said, 0, at):
        at = said.find(name, at + 1)
    if at < 0:
        return name
    toks = last.parse.tokens
    found = set()
    for m in last.mentions:
        lead = m.text[: -len(name)] if m.text.endswith(name) else ""
        if m.is_set or len(lead) < lead_min or "的" in lead or personal.search(lead):
            continue
        part = [t for t in toks if m.start <= t.start and t.end <= m.end - len(name)]
        if "".join(t.text for t in part) != lead or not all(
            kind_of(t.pos, t.text) in ("NOUN", "ADJ") for t in part
        ):
            continue
        found.add(m.text)
    return found.pop() if len(found) == 1 else name
