"""coreference: pronouns and demonstratives replaced by what they point to in the last turns."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from rulerewrite.context import Mention, Turn, long_enough, new_mention, said_mention
from rulerewrite.lexicon import Lexicon
from rulerewrite.lexicon.readers import rule_alternation, rule_pattern, rule_regex, rule_words
from rulerewrite.memo import FifoMemo
from rulerewrite.modes.base import State, mode
from rulerewrite.modes.multiturn import (
    HUMAN_TYPES,
    OF_KIND,
    UNKNOWN_TYPES,
    Candidate,
    LoneAnimal,
    MultiTurn,
    Ref,
    RuleView,
    ambiguous,
    ambiguous_with,
    ask,
    candidates_question,
    key,
    last_exchange,
    lone_animal,
    merge_nested,
    resolved,
    said_before,
    said_turn,
    salient,
    set_rivals,
    thing_of_person,
    unmodified,
    unpunctuated,
    user_owner,
)
from rulerewrite.result import Step
from rulerewrite.text.builtin_parser import kind_of, may_end_name, unseen_names
from rulerewrite.text.segment import USER_FREQ

NAMED = ("person", "place", "org", "product", "code")


# The keys of the rules of rules/coreference.yaml read once per mode (RuleView.read: each field
# is the rule key of the same name unless key() names another)


@dataclass(frozen=True)
class _WholeTurn(RuleView):
    """``whole_turn``: 梅西 / 那是谁, a turn of the last exchange that only names a thing."""

    openers: re.Pattern[str] | None = None
    not_phrase: re.Pattern[str] | None = None
    user_not: re.Pattern[str] | None = None
    particles: str = ""
    length: tuple[int, int] = key("min_len/max_len", (2, 8), absent=(0, -1))
    reply_refs: frozenset[str] = frozenset()
    reply_max_len: int = 0


@dataclass(frozen=True)
class _KindIdentity(RuleView):
    """``kind_identity``: 这是一首歌 / 这是歌词吗, the work a bare 这 / 那 says the kind of."""

    frame: re.Pattern[str] | None = key("pattern")
    lines: frozenset[str] = frozenset()
    line_min: int = key(default=4, absent=0)
    line_not: re.Pattern[str] | None = None
    reply_title: re.Pattern[str] | None = None
    title_not: re.Pattern[str] | None = None
    genres: frozenset[str] = frozenset()
    title: tuple[int, int] = key("title_min/title_max", (2, 8), absent=(0, -1))


@dataclass(frozen=True)
class _TitleReference(RuleView):
    """``title_reference``: 这本书 / 这个星座, the title the last exchange named."""

    kinds: frozenset[str] = frozenset()
    margin: float = 1.0
    common_freq: int = 0
    whole: tuple[int, int] = key("whole_min/whole_max", (2, 10), absent=(0, -1))
    whole_tail: re.Pattern[str] | None = None
    whole_not: re.Pattern[str] | None = None
    whole_lead: re.Pattern[str] | None = None
    signs: tuple[str, ...] = ()
    sign_suffix: str = ""
    sign_people: frozenset[str] = frozenset()
    strip: re.Pattern[str] | None = None
    not_title: re.Pattern[str] | None = None


@dataclass(frozen=True)
class _ProblemThen(RuleView):
    """``problem_then``: 我冷 / … / 那怎么办, the trouble the last exchange stated."""

    problem: re.Pattern[str] | None = None
    drop: re.Pattern[str] | None = None
    reply_drop: re.Pattern[str] | None = None
    max_len: int = key(default=8, absent=0)


@dataclass(frozen=True)
class _KnownAsked(RuleView):
    """``known_asked``: 恋舞ol怎么玩 / 这都不会, what the reply's question asks about."""

    query: re.Pattern[str] | None = None
    asked: re.Pattern[str] | None = None


@dataclass(frozen=True)
class _KindEnd(RuleView):
    """``kind_end``: 定个闹钟 / … / 起床后的那种, the thing whose kind the query describes."""

    query: re.Pattern[str] | None = None
    grams: frozenset[str] = frozenset()
    skip_types: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _LineOfWork(RuleView):
    """``line_of_work``: 做园艺的 / … / 你对这行很熟悉, the field the user's last turn named."""

    drop: re.Pattern[str] | None = None
    heads: frozenset[str] = frozenset()
    pos: frozenset[str] = frozenset()
    min_len: int = 2


@dataclass(frozen=True)
class _AgreeSo(RuleView):
    """``agree_so``: 蜂蜜挺不错的 / 你也这么觉得, the opinion the reply stated."""

    verbs: tuple[str, ...] = ()
    drop: re.Pattern[str] | None = None
    max_len: int = 16


@dataclass(frozen=True)
class _AskedQuestion(RuleView):
    """``asked_question``: 回答我这个问题, the question the last exchange asked."""

    nouns: frozenset[str] = frozenset()
    asks: re.Pattern[str] | None = None
    drop: re.Pattern[str] | None = None
    own_when: re.Pattern[str] | None = None
    length: tuple[int, int] = key("min_len/max_len", (4, 16), absent=(0, -1))


@dataclass(frozen=True)
class _VerbObject(RuleView):
    """``verb_object``: 我在吃辣条 / 我喜欢吃这个, the object of the same verb."""

    refs: frozenset[str] = frozenset()
    before: re.Pattern[str] | None = None
    after: re.Pattern[str] | None = None
    consume: frozenset[str] = frozenset()
    fronted_before: re.Pattern[str] | None = None
    fronted_gap: int = 0
    fronted_not_after: re.Pattern[str] | None = None


@dataclass(frozen=True)
class _LoneAntecedent(RuleView):
    """``lone_antecedent``: 桔梗怎么样了 / … / 她死了吗, a pronoun with no antecedent of its
    kind takes the one thing the last exchange talked about."""

    pronouns: frozenset[str] = frozenset()
    margin: float = 1.0
    salient: frozenset[str] = frozenset()
    statement_salient: frozenset[str] = frozenset()
    common_freq: int = 0
    not_human_types: frozenset[str] = frozenset()
    not_types: frozenset[str] = frozenset()
    not_pos: frozenset[str] = key(default=frozenset(), prefix="pos:")
    not_heads: tuple[str, ...] = key(default=(), sort=True)
    predicate_before: re.Pattern[str] | None = key(ending=True)
    demonstratives: frozenset[str] = frozenset()
    demonstrative_salient: frozenset[str] = frozenset()
    demonstrative_alone: bool = False
    verb_pronouns: frozenset[str] = frozenset()
    demonstrative_opens: re.Pattern[str] | None = None
    demonstrative_ends: re.Pattern[str] | None = None
    demonstrative_not_before: re.Pattern[str] | None = None
    demonstrative_not_after: re.Pattern[str] | None = None


@dataclass(frozen=True)
class _LonePlace(RuleView):
    """``lone_place``: 马尔代夫 / … / 因为我喜欢那里, a place reference with no phrase typed a
    place takes the one thing the last exchange talked about."""

    refs: frozenset[str] = frozenset()
    margin: float = 1.0
    salient: frozenset[str] = frozenset()
    not_types: frozenset[str] = frozenset()
    locative_before: re.Pattern[str] | None = key(ending=True)
    types: frozenset[str] = frozenset()
    activities: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _SpeakingOf(RuleView):
    """``speaking_of``: 说到这儿…, what the last exchange talked about."""

    margin: float = 1.0
    salient: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _StatementPerson(RuleView):
    """``statement_person``: 男的女的 / 王凯是男的 / 你看过他的电视剧吗, in a narrative
    statement 他 / 她 take the one name the last exchange said."""

    pronouns: frozenset[str] = frozenset()
    types: frozenset[str] = frozenset()
    margin: float = 1.0
    not_names: frozenset[str] = frozenset()
    whole_reply: bool = False
    whole_not_pos: frozenset[str] = frozenset()
    not_after: re.Pattern[str] | None = None


@dataclass(frozen=True)
class _ReplyChoice(RuleView):
    """``reply_choice``: 天蝎座还是双鱼座 / 双鱼座是怎么样的 / 这个星座, the one the reply
    took up."""

    refs: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _CalledName(RuleView):
    """``called_name``: 叫郭麒麟 / 啥 / 我叫这个名字, the name a turn called someone."""

    nouns: frozenset[str] = frozenset()
    frame: re.Pattern[str] | None = key("pattern")
    name_not: re.Pattern[str] | None = None


@dataclass(frozen=True)
class _OwnerOfRole(RuleView):
    """``owner_of_role``: 哈利波特的作者 / … / 它讲了什么, the owner of a person's role."""

    roles: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _AnsweredThing(RuleView):
    """``answered_thing``: 有啥好吃的零食 / 薯片呀… / 它的热量, what the reply answered with."""

    pronouns: frozenset[str] = frozenset()
    question: re.Pattern[str] | None = None
    margin: float = 1.0
    grams: frozenset[str] = frozenset()
    types: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _RoleNamed(RuleView):
    """``role_named``: 有舍友叫朱岳阳 / … / 他, the name the window gave a person word."""

    types: frozenset[str] = frozenset()
    frames: tuple[str, ...] = key(default=(), sort=True)
    joins: tuple[str, ...] = key(default=(), sort=True)


@dataclass(frozen=True)
class _PersonNoun(RuleView):
    """``person_noun``: 叫程序员给你装 / 那你有他帅吗, the one person word of the last
    exchange."""

    pronouns: frozenset[str] = frozenset()
    not_after: re.Pattern[str] | None = key(ending=True)
    counted: re.Pattern[str] | None = None
    tags: frozenset[str] = key(default=frozenset(), prefix="pos:")


@dataclass(frozen=True)
class _UnseenName(RuleView):
    """``unseen_name``: a name the parser did not join out of context (刘/振) that 他 / 她
    take when nothing else is there."""

    max_len: int = 3
    not_doubled: str = ""
    called: re.Pattern[str] | None = None
    predicate_before: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _ExchangeEcho(RuleView):
    """``exchange_echo``: 时崎狂三 / 时崎狂三酱 / 我要她的资料, what the reply repeats of the
    user's turn."""

    pronouns: frozenset[str] = frozenset()
    length: tuple[int, int] = key("min_len/max_len", (2, 8))
    common_freq: int = 1000
    rare_freq: int = 5
    not_chars: re.Pattern[str] | None = None
    not_after: re.Pattern[str] | None = key(ending=True)
    min_latin: int = 3


@dataclass(frozen=True)
class _LovedOne(RuleView):
    """``loved_one``: the person the user said they like."""

    frame: re.Pattern[str] | None = key("pattern")
    pronouns: frozenset[str] = frozenset()
    heads: tuple[str, ...] = ()


@dataclass(frozen=True)
class _FramedName(RuleView):
    """``framed_name``: a name the user's last turn praised, liked or missed."""

    pronouns: frozenset[str] = frozenset()
    praise: re.Pattern[str] | None = None
    liking: re.Pattern[str] | None = None
    being: re.Pattern[str] | None = None
    knowing: re.Pattern[str] | None = None
    bare: re.Pattern[str] | None = None
    idol: re.Pattern[str] | None = None
    role: re.Pattern[str] | None = None
    not_chars: re.Pattern[str] | None = None


@dataclass(frozen=True)
class _RequestedWork(RuleView):
    """``requested_work``: the title the user asked for."""

    frame: re.Pattern[str] | None = key("pattern")
    refs: frozenset[str] = frozenset()
    not_title: re.Pattern[str] | None = None
    by: re.Pattern[str] | None = None


@dataclass(frozen=True)
class _DescribedPerson(RuleView):
    """``described_person``: 唱小幸运的那个 answering who someone is -> X是唱小幸运的那个."""

    refs: frozenset[str] = frozenset()
    types: frozenset[str] = frozenset()
    openers: tuple[str, ...] = ()
    copula: str = ""
    tail: re.Pattern[str] | None = None
    not_said: re.Pattern[str] | None = None
    max_len: int = 16


@dataclass(frozen=True)
class _HousePronoun(RuleView):
    """``house_pronoun``: 他家 / 她家 / 它家, the shop or company the last exchange is about
    (家 goes with the pronoun) or a person's home (家 stays)."""

    pronouns: frozenset[str] = frozenset()
    after: str = ""
    salient: frozenset[str] = frozenset()
    min_score: float = 2.0
    people: frozenset[str] = frozenset()
    not_types: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _WorkPronoun(RuleView):
    """``work_pronoun``: 你知道飘吗 / … / 它的作者, 它 asked about as a work (its author, its
    story: title_hints) is the title the last exchange said in a frame."""

    pronouns: frozenset[str] = frozenset()
    patterns: tuple[str, ...] = ()
    title_not: re.Pattern[str] | None = None
    line_asks: re.Pattern[str] | None = None
    line: re.Pattern[str] | None = None
    line_not: re.Pattern[str] | None = None


@dataclass(frozen=True)
class _MusicInstrument(RuleView):
    """``music_instrument``: 学啥乐器好 / 吉他怎么样 / 好多名曲都少不了它, 它 in a query about
    music is the one instrument the last exchange named."""

    pronouns: frozenset[str] = frozenset()
    cue: re.Pattern[str] | None = None
    compound: re.Pattern[str] | None = None


@mode("coreference")
class Coreference:
    """What: replace 它/他/她/其/这个/那款/该/此/上面说的/刚才那个 ... with the antecedent from
    the dialogue window, in place, so the query reads naturally. The antecedent is chosen by
    agreement (他/她 → a person, 她 never a man, 它/这个 → not a person), salience (the
    subject of the last user turn first, dictionary entities, names, the person the answer to a
    who-question named), recency and type hints (保修 goes with products).
    With no usable history, or two equally plausible antecedents (two products discussed, the
    user says 它), the engine asks the user (``decision: ask_user``) instead of guessing.
    Plural and ordinal references (这两个, 它们, 前者, 后者) are left to ``comparison``.
    Why: a pronoun alone retrieves nothing; a wrong guess retrieves the wrong product.
    Example: (Galaxy S24 Ultra 多少钱 / 9699 元起) 它的保修期是多久 ->
    Galaxy S24 Ultra的保修期是多久
    """

    def __init__(self, lexicon: Lexicon, config: Any) -> None:
        self.fillers = frozenset(e.text for e in lexicon.entries_of("fw:filler"))
        self.refs = tuple(
            sorted(
                {e.text for e in lexicon.entries if e.kind in ("pronoun", "demonstrative")},
                key=len,
                reverse=True,
            )
        )
        self.mt = MultiTurn(lexicon, config)
        vals = self.mt.coref_values
        self.min_score = float(vals.get("min_score", 2.0))
        self.overlap_min = int(vals.get("overlap_min", 2))
        self.overlap_one = frozenset(vals.get("overlap_one", ()))
        # 他说他认识你: the pronoun inside what the speaker says stays (``reported_speech``)
        speech = lexicon.rule("coreference", "reported_speech")
        self.speech = speech.pattern if speech is not None else None
        self.speech_pronouns = rule_words(speech, "pronouns")
        self.salient_kinds = frozenset(
            vals.get("salient", ["topic", "entity", "named", "repeated"])
        )
        self.margin = float(vals.get("margin", 0.75))
        # 这个费用 / 该产品的价格: a demonstrative before an attribute noun points at the topic
        # whose attribute it is (个税年度汇算的费用)
        self.attr_nouns = self.mt.wordset("attribute_nouns") | frozenset(
            w for _t, ws, _s in self.mt.type_hints for w in ws
        )
        self.unknown_referent = str(getattr(config, "unknown_referent", "ask"))
        self.generic_kinds = frozenset(
            str(w)
            for r in lexicon.rules.get("coreference", ())
            if r.id == "generic_kinds"
            for w in r.get("words", [])
        )
        not_refs = [
            str(p)
            for r in lexicon.rules.get("coreference", ())
            if r.id == "not_references"
            for p in (r.get("patterns") or [])
        ]
        self.not_refs = re.compile("|".join(not_refs)) if not_refs else None
        # 他/她: a person (a name, a kinship or role noun) is salient enough, statement or not
        self.person_types = frozenset(vals.get("person_salient", []))
        self.person_back = int(vals.get("person_back", 1))
        # turns older than the last exchange: their phrases need salient_older (repeated)
        self.max_back = int(vals.get("max_back", 1_000))
        self.older_kinds = frozenset(vals.get("salient_older", ["any"]))
        self.place_words = self.mt.wordset("place_words")
        self.who_words = self.mt.wordset("who_words")
        self.kind_refs = self.mt.wordset("kind_refs")
        det = lexicon.rule("coreference", "clause_determiner")  # 那个戴眼镜的男生: no reference
        self.clause_det = det.pattern if det is not None else None
        self.clause_det_tags = tuple(str(t) for t in (det.get("opening_tags") or [])) if det else ()
        who_it = lexicon.rule("coreference", "who_it_is")  # 它是谁: 它 may be a person
        self.who_it_is = who_it.pattern if who_it is not None else None
        kin = lexicon.rule("coreference", "kin_predicate")  # 这是我侄子: a person too
        self.kin_predicate = kin.pattern if kin is not None else None
        # 这里 / 这儿 take a place of the last exchange only (rules/coreference.yaml ``here``)
        here = lexicon.rule("coreference", "here")
        self.here_source = here.source if here is not None else None
        # 这样的影院 / 那样的漫画: 这样的 determines a noun of its own or is no reference
        # (rules/coreference.yaml ``such_noun``)
        such = lexicon.rule("coreference", "such_noun")
        self.such_source = such.source if such is not None else None
        # 那里天气怎么样 -> 南京天气怎么样: the reference rules whose place and the attribute after
        # it are said as one phrase (``attribute_de: false``)
        self.no_attr_de = frozenset(
            r.source for r in lexicon.rules.get("coreference", ()) if r.get("attribute_de") is False
        )
        # 那个很好吃 / 这个不好看: a plain 这个 / 那个 takes the one clear antecedent of the last
        # exchange even when it is not salient (rules/coreference.yaml ``plain_reference``)
        plain = lexicon.rule("coreference", "plain_reference")
        self.plain_frames = tuple(
            re.compile(str(p)) for p in ((plain.get("patterns") or []) if plain else [])
        )
        self.plain_max_len = int(plain.get("max_len", 0)) if plain else 0
        self.plain_margin = float(plain.get("margin", 1.0)) if plain else 1.0
        # 梅西 / 那是谁: a turn of the last exchange that only names a thing (``whole_turn``)
        self.whole = _WholeTurn.read(lexicon.rule("coreference", "whole_turn"))
        # 这是一首歌 / 这是歌词吗: the work a bare 这 / 那 says the kind of (``kind_identity``)
        self.kind = _KindIdentity.read(lexicon.rule("coreference", "kind_identity"))
        # 这本书 / 这个星座: the title the last exchange named (``title_reference``)
        self.title = _TitleReference.read(lexicon.rule("coreference", "title_reference"))
        self.segmenter = lexicon.segmenter
        # 我冷 / … / 那怎么办: the trouble the last exchange stated (``problem_then``)
        self.pt = _ProblemThen.read(lexicon.rule("coreference", "problem_then"))
        self.lw = _LineOfWork.read(lexicon.rule("coreference", "line_of_work"))
        self.known = _KnownAsked.read(lexicon.rule("coreference", "known_asked"))
        self.kind_end = _KindEnd.read(lexicon.rule("coreference", "kind_end"))
        self.so = _SpeakingOf.read(lexicon.rule("coreference", "speaking_of"))
        self.agree = _AgreeSo.read(lexicon.rule("coreference", "agree_so"))
        # 回答我这个问题: the question the last exchange asked (``asked_question``)
        self.aq = _AskedQuestion.read(lexicon.rule("coreference", "asked_question"))
        # 我在吃辣条 / 我喜欢吃这个: the object of the same verb (``verb_object``)
        self.vo = _VerbObject.read(lexicon.rule("coreference", "verb_object"))
        # 皮囊这本书 / 柯南我看过 / 《X》: a title the last exchange said in a frame of its kind
        # (rules/coreference.yaml ``title_frames``)
        frames = lexicon.rule("coreference", "title_frames")
        self.frames_source = frames.source if frames is not None else ""
        self.title_frames = tuple(
            (
                re.compile(str(p["pattern"] if isinstance(p, dict) else p)),
                loose,
                str(p.get("class", "")) if isinstance(p, dict) else "",
                bool(p.get("bounded")) if isinstance(p, dict) else False,
            )
            for key, loose in (("patterns", False), ("loose", True))
            for p in ((frames.get(key) or []) if frames else [])
        )
        # per turn text, the matches of each title frame that finds any (frame index, the
        # matches left to right): the last exchange's turns are searched by every rewrite of
        # their window, most of them finding nothing in any of the frames
        self._frame_hits: FifoMemo[str, tuple[tuple[int, tuple[re.Match[str], ...]], ...]] = (
            FifoMemo(self._FRAME_MEMO)
        )
        self.cue_only = rule_words(frames, "cue_only")
        self.frame_common = int(frames.get("common_freq", 0)) if frames else 0
        self.frame_loose_not = rule_pattern(frames, "loose_not")
        self.frame_kind_after = rule_pattern(frames, "kind_after")
        self.frame_bounded_not = rule_pattern(frames, "bounded_not")
        self.frame_asked = rule_pattern(frames, "asked")
        self.frame_answer = rule_pattern(frames, "answer")
        classes: dict[str, set[str]] = {}
        for cls, words in ((frames.get("classes") or {}) if frames else {}).items():
            for w in words or ():
                classes.setdefault(str(w), set()).add(str(cls))
        self.title_classes = {w: frozenset(c) for w, c in classes.items()}
        self.frame_title_not = rule_pattern(frames, "title_not")
        # 桔梗怎么样了 / … / 她死了吗: a pronoun with no antecedent of its kind takes the one
        # thing the last exchange talked about (rules/coreference.yaml ``lone_antecedent``)
        self.lone = _LoneAntecedent.read(lexicon.rule("coreference", "lone_antecedent"))
        common = lexicon.rule("coreference", "word_not_person")  # 篮球: no 他 beside a person
        self.word_not_person = int((common.get("common_freq") if common else 0) or 0)
        self.lone_place = _LonePlace.read(lexicon.rule("coreference", "lone_place"))
        # 男的女的 / 王凯是男的 / 你看过他的电视剧吗: in a narrative statement 他 / 她 take the
        # one name the last exchange said (rules/coreference.yaml ``statement_person``)
        self.sp = _StatementPerson.read(lexicon.rule("coreference", "statement_person"))
        # 吃鸡公煲 / 那是什么: a food a turn of eating named is not identified (topic_eat)
        eat = lexicon.rule("context", "topic_eat")
        self.eat_source = eat.source if eat is not None else None
        self.eat_identity = rule_pattern(eat, "not_identity")
        # 天蝎座还是双鱼座 / 双鱼座是怎么样的 / 这个星座: the one the reply took up
        self.choice = _ReplyChoice.read(lexicon.rule("coreference", "reply_choice"))
        # 叫郭麒麟 / 啥 / 我叫这个名字: the name a turn called someone (called_name)
        self.called = _CalledName.read(lexicon.rule("coreference", "called_name"))
        self.role_owner = _OwnerOfRole.read(lexicon.rule("coreference", "owner_of_role"))
        self.pointed_before = rule_pattern(lexicon.rule("coreference", "pointed_person"), "before")
        self.thing_predicates = self.mt.wordset("thing_predicates")
        self.told_predicates = self.mt.wordset("told_predicates")
        # 有啥好吃的零食 / 薯片呀… / 它的热量: what the reply answered with (answered_thing)
        self.ans = _AnsweredThing.read(lexicon.rule("coreference", "answered_thing"))
        # 你知道飘吗 / … / 它的作者: the title 它 is asked about as (``work_pronoun``)
        wp_rule = lexicon.rule("coreference", "work_pronoun")
        self.wp = _WorkPronoun.read(wp_rule)
        self.wp_frames = tuple(
            rule_regex(wp_rule, "patterns", p) for p in self.wp.patterns if wp_rule is not None
        )
        self.work_classes = frozenset(
            c for cs in self.title_classes.values() for c in cs if c not in self.cue_only
        )
        # 吉他怎么样 / 好多名曲都少不了它: the instrument 它 is (``music_instrument``)
        mi_rule = lexicon.rule("coreference", "music_instrument")
        self.mi = _MusicInstrument.read(mi_rule)
        self.mi_names = rule_alternation(mi_rule, "instruments")  # the longest name first
        # 有舍友叫朱岳阳 / … / 他: the name the window gave the person word (role_named)
        self.rn = _RoleNamed.read(lexicon.rule("coreference", "role_named"))
        # 叫程序员给你装 / 那你有他帅吗: the one person word of the last exchange (person_noun)
        self.pn = _PersonNoun.read(lexicon.rule("coreference", "person_noun"))
        self.unseen = _UnseenName.read(lexicon.rule("coreference", "unseen_name"))
        self.unseen_not_doubled = frozenset("".join(self.unseen.not_doubled.split()))
        # single-character surnames (a name opens with one the segmenter left on its own)
        self.unseen_surnames = frozenset(x for x in self.mt.analyzer.surnames if len(x) == 1)
        # 时崎狂三 / 时崎狂三酱 / 我要她的资料: what the reply repeats of the user's turn
        # (rules/coreference.yaml ``exchange_echo``)
        self.echo = _ExchangeEcho.read(lexicon.rule("coreference", "exchange_echo"))
        self.loved = _LovedOne.read(lexicon.rule("coreference", "loved_one"))
        self.framed = _FramedName.read(lexicon.rule("coreference", "framed_name"))
        self.request = _RequestedWork.read(lexicon.rule("coreference", "requested_work"))
        self.animal = LoneAnimal.read(lexicon.rule("coreference", "lone_animal"))
        self.house = _HousePronoun.read(lexicon.rule("coreference", "house_pronoun"))
        self.described = _DescribedPerson.read(lexicon.rule("coreference", "described_person"))
        who_frame = lexicon.rule("context", "topic_who")
        self.person_frame = who_frame.source if who_frame is not None else None
        # 她 -> 帅哥 is wrong: gendered head endings must agree with a gendered pronoun
        self.pronoun_gender: dict[str, str] = {}
        ends: list[tuple[str, str]] = []
        men: set[str] = set()  # known men named as a whole (male_names)
        self.he: frozenset[str] = frozenset()  # 他 / 他们: no phrase that is a word for a woman
        self.women: frozenset[str] = frozenset()
        self.women_names: frozenset[str] = frozenset()  # 他: no known woman beside a known man
        for r in lexicon.rules.get("coreference", ()):
            if r.id == "gender":
                self.pronoun_gender.update(
                    {str(k): str(v) for k, v in (r.get("pronouns") or {}).items()}
                )
                self.he = frozenset(str(w) for w in r.get("he") or ())
                self.women = frozenset(str(w) for w in r.get("women") or ())
                self.women_names = frozenset(str(w) for w in r.get("women_names") or ())
                ends += [(str(w), g) for g in ("male", "female") for w in r.get(g) or []]
                men.update(str(w) for w in r.get("male_names") or [])
        # longest ending first: 姐夫 is a man (夫), 夫人 a woman
        self.gender_ends = tuple(sorted(ends, key=lambda e: -len(e[0])))
        self.male_names = frozenset(men)
        # 三国演义的作者是谁 / 印象中是 罗贯中 / 他还写过什么: the name the reply gave
        who = lexicon.rule("coreference", "who_answer")
        self.who_source = who.source if who is not None else ""
        self.who_question, self.who_reply, self.who_not = (
            re.compile(str(who.get(k)), re.IGNORECASE) if who is not None and who.get(k) else None
            for k in ("question", "reply", "not_np")
        )

    _FRAME_MEMO = 4096  # turn texts, the oldest dropped first

    def clear_memos(self) -> None:
        """Empty the memos that are not ``functools.lru_cache`` s (for cold benchmarks)."""
        self._frame_hits.clear()

    def applies(self, state: State) -> bool:
        if state.has("pronoun") or state.has("demonstrative"):
            return True
        return self.mt.extra_hit(state.standalone)

    def __call__(self, state: State) -> State:
        if state.decision == "ask_user":
            return state
        text = state.standalone
        parse = self.mt.parse(text)
        refs = [r for r in self.mt.references(text, parse) if not (r.plural or r.ordinal)]
        if self.speech is not None:
            refs = self._not_reported(text, refs)
        if not refs:
            return state
        d = self.mt.dialogue(state)
        told = self.mt.narrate(state, d, text, mode="coreference")
        if told is not None:
            return told  # 我梦见一个帅哥 / … / 他把我推倒了 -> 梦见一个帅哥把我推倒了
        new_state = state
        # right to left so earlier offsets stay valid
        for ref in sorted(refs, key=lambda r: -r.start):
            new_state = self._one(new_state, d, ref, text)
            if new_state.decision == "ask_user":
                return new_state
        return new_state

    def _not_reported(self, text: str, refs: list[Ref]) -> list[Ref]:
        """``refs`` without a 他 / 她 in what the same pronoun before it says (他说他认识你 /
        她跟别人说她不认识我: rules/coreference.yaml ``reported_speech``): the speaker is named
        once, the pronoun inside the report stays."""
        out: list[Ref] = []
        speakers: set[str] = set()
        for r in sorted(refs, key=lambda r: r.start):
            if r.text in speakers:
                continue
            out.append(r)
            if r.text in self.speech_pronouns and self.speech.match(text, r.end):  # type: ignore[union-attr]
                speakers.add(r.text)
        return out

    def _opening_filler(self, text: str, ref: Ref) -> bool:
        """那个 / 这个 that opens a query as a hesitation filler, not a reference: it stands first,
        has no noun of its own, and a whole clause (>= 6 characters) or another reference follows
        (那个今天没打上卡咋办 / 那个，后者在哪里办). 那个怎么申请 stays a reference (it asks)."""
        if ref.noun or ref.text not in self.fillers or text[: ref.start].strip(" ,，、"):
            return False
        rest = text[ref.end :].lstrip(" ,，、")
        if text[ref.end : ref.end + 1] in (",", "，", "、", " "):
            return True
        return len(rest.rstrip("?？!！。.")) >= 6 or rest.startswith(self.refs)

    def _one(self, state: State, d: Any, ref: Ref, orig_text: str) -> State:
        text = state.standalone
        if text[ref.start : ref.end] != ref.text:  # shifted by an earlier replacement
            return state
        if self._opening_filler(text, ref):
            return state
        if ref.source == (self.pt.source or None):
            trouble = self._stated_trouble(state)
            if trouble is None:
                return state  # 那 is the conjunction: nothing to say what it stands for
            why = f"the trouble the last exchange stated ({self.pt.source})"
            return self._replace(state, ref, Candidate(trouble, self.min_score, why), ref.end)
        if ref.source == (self.lw.source or None):
            field = self._line_of_work(state)
            if field is None:
                return state  # no field named: 这行 is left as it is
            why = f"the field the user's last turn named ({self.lw.source})"
            return self._replace(state, ref, Candidate(field, self.min_score, why), ref.end)
        if ref.source == (self.agree.source or None):
            think = next((v for v in self.agree.verbs if text.startswith(v, ref.end)), "")
            opinion = self._stated_opinion(state) if think else None
            if opinion is None:
                return state  # nothing the reply stated: 这么 is left as it is
            why = f"the opinion the reply stated ({self.agree.source})"
            said = replace(opinion, text=think + opinion.text, head=opinion.head)
            return self._replace(
                state, ref, Candidate(said, self.min_score, why), ref.end + len(think)
            )
        if ref.source == (self.so.source or None):
            last = d.turns[-(self.max_back + 1) :]
            near = {ti.turn.index for ti in last}
            topic = self._clear_leader(d, near, orig_text, self.so.margin)
            if topic is not None and salient(topic, self.so.salient):
                why = f"{topic.why}; what the last exchange talked about ({self.so.source})"
                return self._replace(
                    state, ref, Candidate(topic.mention, topic.score, why), ref.end
                )
        if (
            ref.text in self.house.pronouns
            and self.house.after
            and text.startswith(self.house.after, ref.end)
        ):
            return self._house_of(state, d, ref, orig_text)
        asked = self._known_asked(state, text, ref)
        if asked is not None:
            why = f"what the reply's question asks about ({self.known.source})"
            return self._replace(state, ref, Candidate(asked, self.min_score, why), ref.end)
        thing = self._kind_end(d, text, ref)
        if thing is not None:
            # 起床后的那种 -> 起床后的那种闹钟: the thing is said after the demonstrative
            why = f"{thing.why}; the thing whose kind the query describes ({self.kind_end.source})"
            said = replace(thing.mention, text=ref.text + thing.mention.text)
            return self._replace(state, ref, Candidate(said, thing.score, why), ref.end)
        if ref.source == self.such_source and not ref.noun:
            return state  # 是这样的 / 这样的话: no noun, so nothing the exchange named
        if self.not_refs is not None and any(
            m.start() <= ref.start < m.end() for m in self.not_refs.finditer(text)
        ):
            return state  # 你他妈 / 管他呢: a set phrase, not a pronoun
        bare = ref.source.startswith("rules/") and ref.etype is None  # a bare 这 / 那
        if ref.etype is None and self._clause_determiner(text, ref):
            return state  # 是那个长得像他的人嘛: 那个 determines the person the clause describes
        kind = self._kind_frame(text, ref) if bare and not ref.noun else None
        if kind is not None:
            work = self._kind_work(state, text, kind, first=True)
            if work is not None:
                why = f"the work whose kind the query says ({self.kind.source})"
                return self._replace(state, ref, Candidate(work, self.min_score, why), ref.end)
        said_kind = (
            self.frame_kind_after.match(text, ref.end)
            if bare and not ref.noun and self.frame_kind_after is not None
            else None
        )
        if said_kind is not None:
            # 这是一部…的电影 / 这才是我想要的动画电影: a title the exchange said in its frame
            framed = self._framed_title(state, orig_text[: ref.start], said_kind.group("kind"))
            if framed is not None:
                why = f"a title said in a frame of the kind the query says ({self.frames_source})"
                return self._replace(state, ref, Candidate(framed, self.min_score, why), ref.end)
        if ref.text in self.mi.pronouns and not ref.noun:
            instrument = self._music_instrument(state, orig_text)
            if instrument is not None:
                why = f"the one instrument the last exchange named ({self.mi.source})"
                return self._replace(
                    state, ref, Candidate(instrument, self.min_score, why), ref.end
                )
        if ref.etype == "place" and self._noun_before(text, ref):
            return state  # 杭电那边 / 北京那里: the noun names the place itself
        if ref.noun and self._title_named(text, ref):
            # 晴天这首歌 / 三体这本书: the query names the work itself right before the phrase
            return state.note(
                "coreference", ref.source, f"{ref.text}{ref.noun}: the query names the work itself"
            )
        if ref.noun and ref.noun in self.attr_nouns and not self.mt.is_category(ref.noun):
            return self._attribute_of(state, d, ref, orig_text)
        if ref.etype == "place" and ref.noun in self.lone_place.activities:
            # 在那里工作 / 在那上学: what one does there, no kind of place the reference names
            ref = replace(ref, noun="", noun_end=0)
        # 你爱听什么歌 / 来一首远走高飞 / 我最喜欢这首歌: the title asked for, not the request
        answer = (
            self._requested_work(state, d, orig_text) if ref.text in self.request.refs else None
        )
        why = f"the title the user asked for ({self.request.source})"
        if answer is None and ref.animacy != "human" and not ref.plural:
            answer = self.mt.answer_mention(state, d, orig_text)
            why = "answer to a which-question"
        plain_this = ref.text in _BARE_THIS and ref.etype is None and not ref.noun
        if answer is None and plain_this:
            answer = self.mt.named_last(state, d, orig_text)  # 水煮肉片 / 这个是零食嘛
            why = "what the assistant just named"
        if answer is None and plain_this and ref.text in _BARE_DEMONSTRATIVES:
            # 吃什么 / 据说冬天吃羊肉… / 除了这个: a demonstrative points at the answer (它 at
            # the thing the question was about: 安心福终身寿险保障什么 / 身故和全残 / 它的…)
            answer = self.mt.asked_object(state, d, orig_text)
            why = "what the reply gave the verb the user asked about"
        if answer is None and ref.animacy == "human" and not ref.plural:
            answer = self._who_named(state, d, orig_text, ref)
            why = "the name the reply to a who-question gave"
        if answer is None and ref.text in self.loved.pronouns and not ref.noun:
            answer = self._loved_one(state, d, orig_text, ref)
            why = f"the person the user said they like ({self.loved.source})"
        if answer is not None:
            # 你最喜欢哪本书 / 围城 / 这本书谁写的: what the assistant just named in answer
            end = ref.noun_end if ref.noun else ref.end
            if not ref.noun and text[end : end + 1] == answer.text[-1:]:
                end += 1  # 这个座 / 狮子座: the word's last character is the noun
            done = self._replace(state, ref, Candidate(answer, 10.0, why), end)
            if answer.source == self.loved.source and done is not state:
                # 喜欢一个人 -> 喜欢的人: the phrase is the user's words with 的 for 一个; the
                # guard would read a one-character head (人) as invented
                accepted = done.scratch.get("accepted_terms", frozenset()) | {answer.text}
                done = done.evolve(scratch={**done.scratch, "accepted_terms": accepted})
            return done
        # 这个问题 takes the question asked, 这个名字 the name someone was called
        for view, find, what in (
            (self.aq, self._asked_question, "the question the last exchange asked"),
            (self.called, self._called_name, "the name the last exchange called someone"),
        ):
            if ref.noun in view.nouns:
                found = find(state, orig_text)
                if found is not None:
                    why = f"{what} ({view.source})"
                    return self._replace(
                        state, ref, Candidate(found, self.min_score, why), ref.noun_end
                    )
        if ref.noun and not self.mt.is_category(ref.noun):
            # 这个问题 / 那部分: the demonstrative determines an ordinary noun; resolve only when
            # an antecedent is headed by that very noun (这本书 -> 《三体》 is not knowable)
            cands = [
                c
                for c in self.mt.rank(d, text=orig_text, noun=ref.noun)
                if c.mention.head == ref.noun or c.mention.text.endswith(ref.noun)
            ]
            if not cands:
                # 这个菜怎么做的 after 豌豆超好吃: nothing the dialogue said is headed by 菜, so
                # the phrase stays; the trace says why (no step would look like no reference)
                return state.note(
                    "coreference",
                    ref.source,
                    f"{ref.text}{ref.noun}: no antecedent headed by {ref.noun}; left as it is",
                )
            return self._replace(state, ref, cands[0], ref.noun_end)
        human = ref.animacy == "human"
        animacy = None if ref.animacy == "any" else ("human" if human else "nonhuman")
        kin_said = bare and not ref.noun and self._kin_predicate(orig_text, ref)
        if ref.etype is not None:
            animacy = None
        elif (
            ref.noun
            and set(self.mt.category_types.get(ref.noun, ())) == {"person"}
            and not orig_text[: ref.start].endswith("的")
        ):
            # 你怎么看这个人 / 那人颜值怎么样: the noun says a person, whatever 这个 says (演
            # 道明寺的那个人: a clause says who, and 这个 keeps to things)
            animacy = None
        elif bare and animacy == "nonhuman" and any(w in orig_text for w in self.who_words):
            # 这是谁: a bare 这 asking who is about a person
            animacy = None
        elif kin_said:
            animacy = "human"  # 这是我侄子: someone's person is meant
        elif self.who_it_is is not None and self.who_it_is.match(orig_text.strip()):
            animacy = None  # 它是谁: chat writes 它 for a person it asks about
        elif bare and animacy is None and self._about_place(orig_text):
            # 那是哪里 / 那是啥地方: a 那 that may be anyone or anything asks about a place here,
            # and a place jieba tags as a name (景德镇 nr) is no person
            animacy = "nonhuman"
        # 那里 / 这儿: a place, or an organisation (rules/coreference.yaml lone_place ``types``)
        place_types = self.lone_place.types if ref.etype == "place" else frozenset()
        cands = self.mt.rank(
            d,
            text=orig_text,
            animacy=animacy,
            noun=ref.noun,
            etype=None if place_types else ref.etype,
            titles_only=ref.kind == "pronoun",
        )
        if place_types:
            cands = [c for c in cands if c.mention.etype in place_types]
        elif ref.text in self.kind_refs and not self._about_place(orig_text):
            # 帅那种萌萌哒 after 昆明某客栈: 那种 is a kind, and a place is no kind
            cands = [c for c in cands if c.mention.etype != "place"]
        last = d.turns[-(self.max_back + 1) :]
        window = {ti.turn.index for ti in last}
        chain = human and any(_PERSON_PRONOUN.search(ti.turn.content) for ti in last)
        if ref.source == self.here_source:
            # 这里 / 这儿: an older place is where the chat happens, not what the query points at
            cands = [c for c in cands if c.mention.turn in window]
        if not chain and any(c.mention.turn in window for c in cands):
            # the last exchange offers an antecedent of its own: an older phrase must be
            # salient_older, unless the exchange goes on about a person as 他 / 她
            cands = [c for c in cands if c.mention.turn in window or salient(c, self.older_kinds)]
        kinds_of = self.mt.category_types.get(ref.noun, ()) if ref.noun else ()
        if kinds_of and "work" not in kinds_of:
            # 那个公司 / 这款手机: a thing of another kind is no antecedent; an untyped phrase
            # may still be one (a name the dictionaries and suffixes do not know). Titles
            # (这本书 / 这首歌) come with any tag jieba gives them (巴黎圣母院 ns)
            cands = [
                c for c in cands if c.mention.etype in kinds_of or c.mention.etype in UNKNOWN_TYPES
            ]
        if human and ref.kind == "pronoun" and self.word_not_person:
            cands = self._not_common_words(cands, window)  # 喜欢篮球 / 知道孙明明嘛… / 他
        gender = self.pronoun_gender.get(ref.text)
        if gender is not None:
            cands = [c for c in cands if self.gender_of(c.mention.head) in (None, gender)]
        elif ref.text in self.he:
            cands = [c for c in cands if c.mention.text not in self.women]
            if any(c.mention.head in self.male_names for c in cands):
                # 周杰伦是谁 / 感觉还是和蔡依林最配 / 他的老婆呢: a known woman is no antecedent
                # of 他 when a known man is one; chat writes 他 for 她 too, so a woman named
                # alone keeps it
                cands = [c for c in cands if c.mention.head not in self.women_names]
        if gender == "female" and self.male_names:
            # 鹿晗跟关晓彤… / 她: a known man (male_names) is no antecedent of 她 when the
            # dialogue names someone else it may mean; chat writes 她 for 他 too (杜兰特 / 她),
            # so a man named alone keeps it
            others = [c for c in cands if c.mention.head not in self.male_names]
            if len(others) < len(cands) and (
                any(c.mention.etype in self.person_types for c in others)
                or self._unseen_name(d, window, orig_text, ref) is not None
            ):
                cands = others
        narrative = self.mt.is_statement(orig_text)
        kinds = self.mt.statement_kinds if narrative else self.salient_kinds
        if kinds_of:
            # 这个星座 / 这部电影: a thing of the kind named is specific enough, statement or not
            kinds = kinds | _OF_THE_KIND
        # a person the user named in the last user turn, or one both speakers said
        lu = d.last_user()
        recent = {ti.turn.index for ti in d.turns[-(self.person_back + 1) :]}
        recent = {i for i in recent if lu is not None and i == lu.turn.index}
        before = self._person_before(orig_text, ref) if human else None
        # 有了男朋友一定要他带我去: a person word before the pronoun is who it is, unless the
        # user's last turn was about a name (崔永元不是…吗 / 我最喜欢的主持人了希望他好起来)
        user_turn = recent if before == "human" else set()
        if before is not None:
            recent = set()  # 耶稣就是你的救主他为你死: 他 is the person just named
        # 被邻居小伙伴撒了狗粮 / 说 / 她还笑话我: in a narrative statement a person word (not a
        # name) of the user's last turn is who 他 / 她 goes on about only when the reply after
        # it named no one (我的小伙伴需要你 / 只辅助女警 / 他只爱女警…: the reply moved on)
        noun_turn = recent if not narrative or self._reply_names_nothing(d, orig_text) else set()
        good = merge_nested(
            [
                c
                for c in cands
                if (
                    salient(c, kinds)
                    or (
                        human
                        and c.mention.etype in self.person_types
                        and (
                            c.mention.turn in (recent if c.mention.etype == "person" else noun_turn)
                            or "repeated" in c.why
                            or _user_subject_name(c, user_turn)
                        )
                    )
                )
                and c.score >= self.min_score
                # 摩羯很好哄…让她有安全感: the query names it itself before the pronoun, which
                # then points inside the query, not back at the history; not when the noun
                # after the reference names its kind (上海儿童医学中心能看这种疾病吗 after
                # 儿童抽动症: 儿童 there is part of another name)
                and not (
                    len(c.mention.text) > 2
                    and c.mention.text[:2] in orig_text[: ref.start]
                    and OF_KIND not in c.why
                )
            ],
            self.margin,
            attributes=self.mt.attribute_words,
            own_names=self.mt.own_names,
            versions=self.mt.version_suffix,
            fuller_names=human and ref.kind == "pronoun",
        )
        if good and place_types:
            good = self._place_choice(d, window, orig_text, ref, good, cands)
        # 我喜欢吃这个: what the query eats, hears or plays is what the same verb had in the
        # last exchange; failing that, for a verb of eating or drinking (``consume``), the one
        # thing the exchange named is no such object (今天天气真好 / 阳光很足 / 我不爱吃这个
        # asks), while 学这个 / 玩这个 may still take it (你会打羽毛球吗 / 会一点 / 我也想学这个)
        verb = self._object_verb(orig_text, ref) if ref.text in self.vo.refs else None
        eats = not good and not ref.noun and verb in self.vo.consume
        if not good and not ref.noun and verb is not None:
            obj = self._verb_object(state, orig_text, ref)
            if obj is not None:
                why = f"the object of the same verb in the last exchange ({self.vo.source})"
                return self._replace(state, ref, Candidate(obj, self.min_score, why), ref.end)
        if not good and not ref.noun and ref.text in self.vo.refs:
            fronted = self._fronted_object(state, d, orig_text, ref)
            if fronted is not None:
                why = f"said right before the same verb in the last exchange ({self.vo.source})"
                return self._replace(state, ref, Candidate(fronted, self.min_score, why), ref.end)
        if not good and kin_said:
            return state  # 这是我老板: no person named, and a thing (会议) is none
        if not good and not ref.noun and ref.etype is None and not eats:
            plain = self._plain_antecedent(d, window, orig_text, ref)
            if plain is not None:
                why = f"{plain.why}; the one thing the last exchange named (plain_reference)"
                return self._replace(
                    state, ref, Candidate(plain.mention, plain.score, why), ref.end
                )
        if (
            not good
            and not ref.noun
            and (ref.text in self.lone.pronouns or self._lone_demonstrative(orig_text, ref))
        ):
            lone = self._lone_antecedent(d, window, orig_text, ref)
            if (
                lone is not None
                and ref.text in self.lone.demonstratives
                and lone.mention.text in text
            ):
                lone = None  # 这个组合最顶韩庚 (他 just resolved): the query says it itself
            if lone is not None:
                why = f"{lone.why}; the one thing the last exchange named ({self.lone.source})"
                return self._replace(state, ref, Candidate(lone.mention, lone.score, why), ref.end)
        if not good and human and not ref.noun and self.unseen.source and not narrative:
            name = self._unseen_name(d, window, orig_text, ref)
            if name is not None:
                why = f"the one name the last exchange said ({self.unseen.source})"
                return self._replace(state, ref, Candidate(name, self.min_score, why), ref.end)
        if not good and ref.text in self.echo.pronouns and not ref.noun:
            echo = self._exchange_echo(state, d, window, orig_text, ref)
            if echo is not None:
                why = f"said by the user, repeated by the reply ({self.echo.source})"
                return self._replace(state, ref, Candidate(echo, self.min_score, why), ref.end)
        if not good and ref.text in self.animal.pronouns and not ref.noun:
            animal = self._lone_animal(state, d, orig_text)
            if animal is not None:
                why = f"the one animal the last exchange named ({self.animal.source})"
                return self._replace(state, ref, Candidate(animal, self.min_score, why), ref.end)
        if (
            not good
            and ref.etype == "place"
            and ref.text in self.lone_place.refs
            and not (
                self.lone_place.locative_before is not None
                and self.lone_place.locative_before.search(orig_text, 0, ref.start)
            )
        ):
            # 在这里 / 去那儿 (after a verb of being or going): a phrase typed a place only
            place = self._lone_place(d, window, orig_text, ref)
            if place is not None:
                why = (
                    f"{place.why}; the one thing the last exchange named ({self.lone_place.source})"
                )
                return self._replace(
                    state, ref, Candidate(place.mention, place.score, why), ref.end
                )
        if not good and ref.source == self.here_source:
            # 这里附近有什么好吃的: with no place in the last exchange, 这里 is where the user is
            return state.note("coreference", ref.source, f"{ref.text}: where the speaker is")
        # 这本书 / 这首 (a measure alone says the kind too) / 这乐器 / 这个名字
        kind_word = ref.noun or ref.text[-1:]
        if not good and kind_word in self.title_classes:
            framed = self._framed_title(state, orig_text[: ref.start], kind_word)
            if framed is not None:
                why = (
                    f"a title the last exchange said in a frame of its kind ({self.frames_source})"
                )
                return self._replace(
                    state,
                    ref,
                    Candidate(framed, self.min_score, why),
                    ref.noun_end if ref.noun else ref.end,
                )
        if not good and ref.noun and self.title.kinds and self.title.kinds & set(kinds_of):
            title = self._title_antecedent(d, window, orig_text, sign="zodiac" in kinds_of)
            if title is not None:
                why = f"{title.why}; the title the last exchange named ({self.title.source})"
                return self._replace(
                    state, ref, Candidate(title.mention, title.score, why), ref.noun_end
                )
            named = (
                None
                if self._noun_before(text, ref)
                else self._title_turn(state, orig_text, kind=ref.noun)
            )
            if named is not None:
                why = f"a turn that only names the title ({self.title.source})"
                return self._replace(
                    state, ref, Candidate(named, self.min_score, why), ref.noun_end
                )
        if not good and narrative and ref.text in self.sp.pronouns and not ref.noun:
            person = self._statement_person(d, window, cands, orig_text, ref)
            if person is not None:
                why = f"{person.why}; the one name the last exchange said ({self.sp.source})"
                return self._replace(
                    state, ref, Candidate(person.mention, person.score, why), ref.end
                )
            if (
                self.sp.whole_reply
                and not any(c.score >= self.min_score for c in cands)
                and not self._pronoun_said(d, window)
            ):
                # 你说啥 / 马努吉诺比利 / 他是…: a reply that only names someone jieba does not know
                whole = self._whole_turn(state, orig_text, ref, named=True)
                if whole is not None:
                    why = f"a reply that only names them ({self.sp.source})"
                    return self._replace(state, ref, Candidate(whole, self.min_score, why), ref.end)
        if not good and ref.text in self.wp.pronouns and not ref.noun:
            work = self._pronoun_work(
                state,
                orig_text[: ref.start],
                orig_text,
                asks_work=self.mt.asks_about_work(orig_text),
            )
            if work is not None:
                why = f"the title the query asks about as a work ({self.wp.source})"
                return self._replace(state, ref, Candidate(work, self.min_score, why), ref.end)
        if not good and narrative:
            # a narrative statement is read, not searched for its referent: no question back
            return state.note(
                "coreference", ref.source, f"{ref.text}: left in a narrative statement"
            )
        if (
            not good
            and ref.noun
            and not d.turns
            and self.unknown_referent == "ask"
            and ref.noun not in self.generic_kinds
        ):
            # 这个药能和别的药一起吃吗 with no conversation at all: which drug is unknowable,
            # and a generic search answers about some other one
            return ask(
                state,
                "coreference",
                ref.source,
                question=f"请问您说的是哪个{ref.noun}？请说出具体名称。",
                missing=("referent",),
                note=f"{ref.text}{ref.noun}: no history to say which {ref.noun}",
            )
        if bare:
            # a bare 这/那 points only at a name, an entity, or the conversation's topic (a
            # topic frame such as 你知道X吗, or a phrase both speakers said)
            if good and self._eaten_identity(orig_text, good[0]):
                good = []  # 吃鸡公煲 / 那是什么: what is eaten is no name to identify
            if kin_said:
                # 这是我侄子: only a person the conversation named, never a thing (会议), nor
                # one said as the owner of a thing (王一博的综艺: 这 may be the show)
                good = [
                    c
                    for c in good
                    if c.mention.etype in self.person_types and c.mention.gram != "att"
                ]
                if not good:
                    return state
            if (
                good
                and (_strong(good[0]) or salient(good[0], _TOPICS))
                # 这都被你发现了 / 那是远点: a city the chat mentioned is its setting, not
                # what 这 / 那 points at, unless the query asks about a place
                and (good[0].mention.etype != "place" or self._about_place(orig_text))
            ):
                return self._replace(state, ref, good[0], ref.noun_end if ref.noun else ref.end)
            framed = (
                self._framed_title(state, orig_text[: ref.start], ref.noun)
                if ref.noun in self.title_classes
                else None
            )
            if framed is not None:
                # 这片子太早了 after 巨齿鲨就很经典: no name or topic, a title in its frame
                why = (
                    f"a title the last exchange said in a frame of its kind ({self.frames_source})"
                )
                return self._replace(
                    state, ref, Candidate(framed, self.min_score, why), ref.noun_end
                )
            plain = None if ref.noun else self._plain_antecedent(d, window, orig_text, ref)
            if plain is not None:
                # 这是猫吗 / 那是什么: an identity question about the one thing just talked about
                why = f"{plain.why}; the one thing the last exchange named (plain_reference)"
                return self._replace(
                    state, ref, Candidate(plain.mention, plain.score, why), ref.end
                )
            whole = None if ref.noun else self._whole_turn(state, orig_text, ref)
            if whole is not None:
                why = f"a turn that only names it ({self.whole.source})"
                return self._replace(state, ref, Candidate(whole, self.min_score, why), ref.end)
            work = self._kind_work(state, text, kind, first=False) if kind is not None else None
            if work is not None:
                why = f"a turn that is a title of the kind said ({self.kind.source})"
                return self._replace(state, ref, Candidate(work, self.min_score, why), ref.end)
            return state
        if not good and ref.noun:
            # 这个保险能退吗 / 这款手机多少钱 with nothing to point at in the conversation (or
            # unknown_referent='search'): the noun still says what kind of thing is meant, so
            # retrieval goes ahead generically; the open referent is recorded and the low
            # confidence lets a caller escalate (or ask) if it wants to
            step = Step(
                "coreference",
                ref.source,
                state.standalone,
                state.standalone,
                None,
                "info",
                f"{ref.text}{ref.noun}: no antecedent in the dialogue; searched as a generic {ref.noun}",
            )
            return state.evolve(
                trace=(*state.trace, step),
                missing_fields=tuple(dict.fromkeys((*state.missing_fields, "referent"))),
                assumptions=(
                    *state.assumptions,
                    f"“{ref.text}{ref.noun}”未指明具体对象，按泛指检索",
                ),
                confidence=min(state.confidence, 0.45),
            )
        if (
            not good
            and ref.text in self.whole.reply_refs
            and not ref.noun
            and len(orig_text) <= self.whole.reply_max_len
        ):
            # 火腿肠 / 这个我知道是零食吧: rather than ask, the reply that only named a thing
            whole = self._whole_turn(state, orig_text, ref, framed=False)
            if whole is not None:
                why = f"a turn that only names it ({self.whole.source})"
                return self._replace(state, ref, Candidate(whole, self.min_score, why), ref.end)
        if not good and not ref.noun and ref.text in self.ans.pronouns:
            answered = self._answered_thing(d, window, orig_text)
            if answered is not None:
                why = f"{answered.why}; what the reply answered with ({self.ans.source})"
                return self._replace(
                    state, ref, Candidate(answered.mention, answered.score, why), ref.end
                )
        if not good and human and not ref.noun and ref.text in self.pn.pronouns:
            kin = self._lone_person_noun(d, window, cands, orig_text, ref)
            if kin is not None:
                why = f"{kin.why}; the one person word the last exchange said ({self.pn.source})"
                return self._replace(state, ref, Candidate(kin.mention, kin.score, why), ref.end)
        if not good and human and not ref.noun and ref.text in self.framed.pronouns:
            framed_name = self._framed_name(state, d, orig_text, ref)
            if framed_name is not None:
                why = f"the name the last exchange framed as a person ({self.framed.source})"
                return self._replace(
                    state, ref, Candidate(framed_name, self.min_score, why), ref.end
                )
        if not good and not ref.noun and not eats and self._object_alone(orig_text, ref):
            # 咱们一起看看这个吧 after one thing named; not a verb of eating (今天天气真好 /
            # 阳光很足 / 我不爱吃这个 asks: what is eaten was not said)
            alone = self._only_thing(d, window, orig_text)
            if alone is not None:
                why = f"{alone.why}; the one thing the last exchange named ({self.lone.source})"
                return self._replace(
                    state, ref, Candidate(alone.mention, alone.score, why), ref.end
                )
        if not good and not ref.noun and ref.text in self.lone.verb_pronouns:
            verb_obj = self._same_verb_object(d, window, orig_text, ref)
            if verb_obj is not None:
                why = f"{verb_obj.why}; the object of the verb the query says of it ({self.lone.source})"
                return self._replace(
                    state, ref, Candidate(verb_obj.mention, verb_obj.score, why), ref.end
                )
        if not good:
            what = "人" if human else ("地方" if ref.etype == "place" else "对象")
            return ask(
                state,
                "coreference",
                ref.source,
                question=f"“{ref.text}”指的是哪个{what}？请说出具体名称。",
                missing=("referent",),
                note=f"{ref.text}: no usable antecedent in the dialogue window",
            )
        if ambiguous(good, d):
            same = ambiguous_with(good, d)
            echo = (
                self._exchange_echo(state, d, window, orig_text, ref)
                if ref.text in self.echo.pronouns and not ref.noun
                else None
            )
            if echo is not None and any(c.mention.text in echo.text for c in same[:2]):
                # 林丹 / 林丹和李宗伟的比赛 / 他: of two close candidates, the one the user named
                # and the reply repeated
                why = f"said by the user, repeated by the reply ({self.echo.source})"
                return self._replace(state, ref, Candidate(echo, self.min_score, why), ref.end)
            chosen = self._reply_choice(state, same, ref)
            if chosen is not None:
                why = f"{chosen.why}; the one the reply took up ({self.choice.source})"
                end = ref.noun_end if ref.noun else ref.end
                return self._replace(state, ref, Candidate(chosen.mention, chosen.score, why), end)
            owner = None if ref.noun else self._owner_said(state, same, orig_text, ref)
            if owner is not None:
                # 高進的歌真好听色色 / 没听过 / 听他的歌: the one said as the owner of that noun
                why = f"{owner.why}; said as the owner of the noun the query gives it"
                return self._replace(
                    state, ref, Candidate(owner.mention, owner.score, why), ref.end
                )
            return ask(
                state,
                "coreference",
                ref.source,
                question=candidates_question(same),
                missing=("referent",),
                note=f"{ref.text}: {same[0].mention.text} / {same[1].mention.text} equally likely",
            )
        end = ref.noun_end if ref.noun else ref.end
        if human and not ref.noun and self.rn.frames:
            named = self._role_named(state, good[0], cands)
            if named is not None:
                why = f"{good[0].mention.text} named {named.text} in the window ({self.rn.source})"
                return self._replace(state, ref, Candidate(named, good[0].score, why), end)
        if human and not ref.noun and ref.text in self.framed.pronouns:
            whole = self._framed_name(state, d, orig_text, ref)
            best = good[0].mention.text
            reply = state.history[-1].content if state.history else ""
            if (
                whole is not None
                and whole.text.startswith(best)
                and best != whole.text
                and best not in reply
            ):
                # 赵云澜 / … / 他: the best candidate opens the name the user's turn framed as
                # a person (赵云 of 赵云澜) and the reply does not say it alone: the whole name
                why = f"{good[0].why}; the whole name its frame said ({self.framed.source})"
                return self._replace(state, ref, Candidate(whole, good[0].score, why), end)
        return self._replace(state, ref, good[0], end)

    def _kin_predicate(self, text: str, ref: Ref) -> bool:
        """The query says a bare 这 / 那 is someone's person (rules/coreference.yaml
        ``kin_predicate``: 这是我侄子 / 那就是我的老板): the noun after the possessive is one
        word of a person type."""
        if self.kin_predicate is None:
            return False
        m = self.kin_predicate.match(text, ref.end)
        if m is None:
            return False
        s, e = m.span("noun")
        return any(
            t.start == s
            and t.end == e
            and self.mt.analyzer.type_of(t.text, t.pos) in self.person_types
            for t in self.mt.parse(text).tokens
        )

    def _describes(self, text: str, ref: Ref, m: Mention) -> bool:
        """What: whether ``text`` is only a description of a person ending in ``ref`` (…的那个 /
        …的那位, rules/coreference.yaml ``described_person``) and ``m`` is a person.
        Why: such a query answers who someone is; the person goes before it as its subject
        instead of inside it. Example: 唱小幸运的那个 with 田馥甄 -> True; 拼多多上卖的那个 with
        vivi手机 (a product) -> False."""
        dv = self.described
        return (
            dv.tail is not None
            and ref.text in dv.refs
            and not ref.noun
            and m.etype in dv.types
            and text[: ref.start].endswith("的")
            and dv.tail.match(text, ref.end) is not None
            and len(text) <= dv.max_len
            and not (dv.not_said is not None and dv.not_said.search(text))
        )

    def _house_of(self, state: State, d: Any, ref: Ref, orig_text: str) -> State:
        """What: 他家 / 她家 / 它家 (rules/coreference.yaml ``house_pronoun``) as the shop or
        company the last exchange is about, 家 dropped, or as a person's home, 家 kept.
        Why: chat calls a shop or a brand 他家 (他家火锅有老鼠), and jieba makes one word of it,
        so the usual person pronoun finds nothing. Left as it is when the best candidate of the
        last exchange is not salient or is rivalled.
        Example: 哪一家火锅店好吃 / 海底捞 / 他家火锅有老鼠 -> 海底捞火锅有老鼠; 比尔盖茨 / … /
        他家在哪里 -> 比尔盖茨家在哪里."""
        hv = self.house
        best = self.mt.house(
            d, text=orig_text, min_score=hv.min_score, kinds=hv.salient, not_types=hv.not_types
        )
        if best is None:
            return state
        person = best.mention.etype in hv.people
        end = ref.end if person else ref.end + len(hv.after)
        why = f"{best.why}; {'a home' if person else 'the shop or company'} ({hv.source})"
        return self._replace(state, ref, Candidate(best.mention, best.score, why), end)

    def _role_named(self, state: State, best: Candidate, cands: list[Candidate]) -> Mention | None:
        """The name the window gives the person word ``best`` stands for (rules/coreference.yaml
        ``role_named``: 有舍友叫朱岳阳 / 我女朋友是苏亚婷), a candidate said in one of the frames
        with it; None when ``best`` is no such person word or no frame names it."""
        role = best.mention
        if role.etype not in self.rn.types:
            return None
        turns = {t.index: t.content for t in state.history}
        for c in cands:
            m = c.mention
            if (
                m.etype not in HUMAN_TYPES | UNKNOWN_TYPES
                or m.etype in self.rn.types
                or m.text in role.text
                or role.text in m.text
            ):
                continue
            said = turns.get(m.turn, "")
            if role.text not in said or m.text not in said:
                continue
            if any(
                f.format(role=role.text, name=m.text, join=j) in said
                for f in self.rn.frames
                for j in self.rn.joins
            ):
                return m
        return None

    def _plain_antecedent(self, d: Any, window: set[int], text: str, ref: Ref) -> Candidate | None:
        """The antecedent of a plain 这个 / 那个 in a short query, said in one of the frames of
        rules/coreference.yaml ``plain_reference`` (the subject of an evaluation or an
        identity, the object that ends the clause): the best candidate of the last exchange, when it scores at least
        ``min_score`` and ``margin`` above the next one (one thing was talked about), people
        included in the race (a person, or a dish jieba tags as a name, is no antecedent of
        这个, but when it leads the plain reference is not settled). None otherwise: the
        caller asks or leaves the query."""
        if not self._in_plain_frame(text, ref):
            return None
        best = self._clear_leader(d, window, text, self.plain_margin)
        if (
            best is None
            or self._eaten_identity(text, best)
            or best.mention.etype in HUMAN_TYPES
            or self.mt.is_category(best.mention.text)  # 不是游戏 / 那是什么: a kind, no name
        ):
            return None
        return best

    def _in_plain_frame(self, text: str, ref: Ref) -> bool:
        """``ref`` is said in a frame of rules/coreference.yaml ``plain_reference`` in a short
        query (``max_len``)."""
        return len(text) <= self.plain_max_len and any(
            m.start("ref") == ref.start for p in self.plain_frames for m in p.finditer(text)
        )

    def _kind_frame(self, text: str, ref: Ref) -> str | None:
        """The kind noun when ``ref`` is the bare 这 / 那 of a kind statement or question
        (rules/coreference.yaml ``kind_identity``: 这是一首歌 / 那是本小说吗), else None."""
        m = self.kind.frame.match(text) if self.kind.frame is not None else None
        if m is None or m.start("ref") != ref.start:
            return None
        return m.group("kind")

    def _exchange_lines(self, state: State) -> tuple[tuple[Turn, str], ...]:
        """The last two messages that say something, oldest first, each with its words
        without the final particles (``whole_particles``): the lines :meth:`_kind_work`,
        :meth:`_whole_turn` and :meth:`_title_turn` read, made once per rewrite."""
        lines = state.scratch.get("coreference.exchange_lines")
        if lines is None:
            lines = state.scratch["coreference.exchange_lines"] = tuple(
                (t, t.content.strip().rstrip(self.whole.particles))
                for t in state.history[-2:]
                if t.content.strip()
            )
        return lines

    def _kind_work(self, state: State, text: str, kind: str, *, first: bool) -> Mention | None:
        """The work a kind statement (``kind_identity``) is about. With ``first`` (before the
        usual rules): for a line kind (歌词) the last turn of the exchange that asks nothing,
        whole; else the title the assistant's reply opens with before an evaluation, an
        experience of it or its kind (小偷家族不错的). Otherwise (nothing else found): a turn
        of the exchange, the reply first, that is a short line asking and answering nothing
        (四月是你的谎言 / 起风了). None when no turn fits or the query holds the phrase."""
        for turn, said in reversed(self._exchange_lines(state)):
            phrase = ""
            if kind in self.kind.lines:
                if not first:
                    return None
                if len(said) < self.kind.line_min or (
                    self.kind.line_not is not None and self.kind.line_not.search(said)
                ):
                    continue
                phrase = said
            elif first:
                hit = (
                    self.kind.reply_title.match(said) if self.kind.reply_title is not None else None
                )
                if turn.role != "assistant" or hit is None:
                    continue
                phrase = hit.group("title")
                if self.kind.title_not is not None and self.kind.title_not.search(phrase):
                    continue  # 还有什么电影好看: a question, no title
            else:
                low, high = self.kind.title
                if not low <= len(said) <= high or (
                    self.kind.title_not is not None and self.kind.title_not.search(said)
                ):
                    continue
                phrase = said
            if phrase in text or self.mt.is_category(phrase):
                continue
            start = turn.content.find(phrase)
            return said_mention(phrase, "thing", turn, "topic", start, self.kind.source)
        return None

    def _whole_turn(
        self, state: State, text: str, ref: Ref, *, framed: bool = True, named: bool = False
    ) -> Mention | None:
        """What a bare 这 / 那 in a plain_reference frame points at when a turn of the last
        exchange is nothing but a short phrase (rules/coreference.yaml ``whole_turn``): the
        assistant's reply (梅西 / 那是谁 -> 梅西是谁), else the user's turn before it (起风了 /
        是起风了啊 / 这是首歌). With ``framed`` False (a plain 这个 / 那个 that would be asked
        about, in any frame): only a phrase a noun ends, with no adverb or number in it
        (火腿肠 / 这个我知道是零食吧). None when no turn only names a thing, or the query
        holds it. With ``named`` (他 / 她 in a statement), only the assistant's reply, in any
        frame, whatever its words' tags (a name jieba cuts into pieces: 马/努/吉/诺/比利)."""
        if self.whole.not_phrase is None or (
            framed and not named and not self._in_plain_frame(text, ref)
        ):
            return None
        for turn, said in reversed(self._exchange_lines(state)):
            if named and turn.role != "assistant":
                continue
            cut = self.whole.openers.match(said) if self.whole.openers is not None else None
            phrase = said[cut.end() :] if cut is not None else said
            low, high = self.whole.length
            if (
                not low <= len(phrase) <= high
                or self.whole.not_phrase.search(phrase)
                or (
                    turn.role == "user"
                    and self.whole.user_not is not None
                    and self.whole.user_not.search(phrase)
                )
                or phrase in text
            ):
                continue
            if named and any(t.pos in self.sp.whole_not_pos for t in self.mt.parse(phrase).tokens):
                continue  # 听听 / 说的再细点儿呗 / 只辅助女警: the reply says something
            if not framed:
                toks = [t for t in self.mt.parse(phrase).tokens if t.text.strip()]
                kinds = [kind_of(t.pos, t.text) for t in toks]
                if not kinds or kinds[-1] != "NOUN" or "ADV" in kinds or "NUM" in kinds:
                    # 累的跟男人一样 / 唱首征服: no noun last; 随便放首歌 / 多运动: advice
                    continue
            start = turn.content.find(phrase)
            return said_mention(phrase, "thing", turn, "topic", start, self.whole.source)
        return None

    def _lone_antecedent(self, d: Any, window: set[int], text: str, ref: Ref) -> Candidate | None:
        """What 他 / 她 / 它 points at when no candidate of its kind is salient (rules/
        coreference.yaml ``lone_antecedent``): the clear leader of the last exchange, of any
        tag (a name jieba does not know is tagged a place, a time or a plain noun), when it is
        salient in one of the ways ``salient`` lists (in a narrative statement: asked about and
        taken up, ``statement_salient``), is none of ``not_types``, has no head among
        ``not_heads``, names no demonstrative, agrees with a gendered pronoun and, for 他 / 她,
        is a name, a person or a word the segmenter rarely sees (``common_freq``): 公司 / 生活
        are what the chat is about, not whom 他 means. For 他 / 她, the owner of a thing
        (任然的歌 -> 任然) is who is meant. A plain demonstrative the caller let through
        (:meth:`_lone_demonstrative`: 这个太甜) takes a leader both speakers said
        (``demonstrative_salient``), a person too (这是我的偶像), and none that is one of a
        coordinated pair there (巧克力和蛋糕都有). None otherwise."""
        if self._person_before(text, ref):
            return None  # the query names its own person before the pronoun
        ranked = self._window_ranked(d, window, text)
        best = self._clear_leader(d, window, text, self.lone.margin, ranked)
        narrative = self.mt.is_statement(text)
        kinds = self.lone.statement_salient if narrative else self.lone.salient
        if ref.text in self.lone.demonstratives:
            kinds = self.lone.demonstrative_salient
            # the leader heads ``ranked`` (it leads the window's candidates)
            if best is not None and set_rivals(ranked, d):
                return None  # 巧克力和蛋糕都有 / 这个: one of a pair, which one is open
        if best is None or not salient(best, kinds):
            return None
        m = best.mention
        if (
            m.etype in self.lone.not_types
            or m.source in self.lone.not_pos
            or m.head.endswith(self.lone.not_heads)
            or _DEMONSTRATIVE.search(m.text)
            or self._said_as_predicate(d, window, m.text)
            or self._after_surname(d, m)
        ):
            return None
        human = ref.animacy == "human"
        if self.mt.is_category(m.text.lstrip(_MEASURES)):
            return None  # (这)首歌 / 部手机: the kind of thing, no name of one
        if human:
            lu = d.last_user()
            if lu is not None and _WHO.search(lu.turn.content):
                return None  # 这首歌谁唱的 / 我也不知道 / 他唱得好吗: who is the open question
            if (m.protected or m.etype in self.lone.not_human_types) and not _LATIN.fullmatch(
                m.text
            ):
                return None  # 他 is no product (iPhone 15); a Latin name may be a person (yoyo)
        elif (
            m.etype in HUMAN_TYPES
            and ref.text not in self.lone.demonstratives  # 这是我的偶像: 这 may be a person
        ) and (
            m.source == self.person_frame
            or m.text.startswith(self.mt.analyzer.surnames)
            or self.segmenter.freq(m.text) >= self.lone.common_freq
        ):
            # 它 is no person (鲁迅是谁 / 周杰伦 / 作家); a title or a brand jieba tags as a name
            # (蒲公英 / 比亚迪) may be what it points at
            return None
        if human and m.etype not in HUMAN_TYPES and "的" in m.text:
            owner = m.text.rsplit("的", 1)[0]
            if not long_enough(owner) or _DEMONSTRATIVE.search(owner) or self._time_word(owner):
                return None  # 昨晚的比赛: a time owns no thing a person could be
            m = replace(m, text=owner, head=owner, end=m.start + len(owner))
        if (
            human
            and m.etype not in NAMED
            and m.etype not in HUMAN_TYPES
            and not m.protected
            and self.segmenter.freq(m.text) >= self.lone.common_freq
        ):
            return None
        gender = self.pronoun_gender.get(ref.text)
        if gender is not None and self.gender_of(m.head) not in (None, gender):
            return None
        return Candidate(m, best.score, best.why)

    def _object_alone(self, text: str, ref: Ref) -> bool:
        """A plain 这个 / 那个 (rules/coreference.yaml ``lone_antecedent`` ``demonstratives``,
        with ``demonstrative_alone``) that ends the query as the object of the verb right
        before it (看看这个吧 / 玩这个). Example: 咱们一起看看这个吧 -> True; 这个你行 -> False."""
        lone = self.lone
        if not lone.demonstrative_alone or ref.text not in lone.demonstratives:
            return False
        if not (lone.demonstrative_ends or _NEVER).match(text[ref.end :]):
            return False
        return any(t.end == ref.start and t.pos.startswith("v") for t in self.mt.parse(text).tokens)

    def _same_verb_object(self, d: Any, window: set[int], text: str, ref: Ref) -> Candidate | None:
        """The thing 它 is when the query says a verb of it that the last exchange said with
        that thing as its object (rules/coreference.yaml ``lone_antecedent``
        ``verb_pronouns``): 打开母盒会发生什么 / 它怎么就打开了 -> 母盒. Exactly one candidate
        of the exchange (no person) may follow the verb there; None otherwise."""
        verbs = {
            t.text
            for t in self.mt.parse(text).tokens
            if t.start >= ref.end and t.pos.startswith("v") and len(t.text) > 1
        }
        if not verbs:
            return None
        found = [
            c
            for c in self._window_ranked(d, window, text)
            if c.mention.etype not in HUMAN_TYPES
            and c.score >= self.min_score
            and any(f"{v}{c.mention.text}" in self._turn_text(d, c.mention.turn) for v in verbs)
        ]
        return found[0] if len({c.mention.text for c in found}) == 1 else None

    @staticmethod
    def _turn_text(d: Any, index: int) -> str:
        """What the history turn ``index`` says ("" when the dialogue has no such turn)."""
        ti = d.turn_at(index)
        return str(ti.turn.content) if ti is not None else ""

    def _only_thing(self, d: Any, window: set[int], text: str) -> Candidate | None:
        """The one candidate of the last exchange that is no person, scoring ``min_score``,
        when there is exactly one, and it is a thing: none of the ``lone_antecedent``
        ``not_types`` / ``not_pos`` / ``not_heads``, no kind word, no predicate (said after a
        negation there, or opening with one: 我不帅吗 gives 不帅), not right next to a name
        of its turn (番茄炖牛腩: jieba tags 牛腩 a name, and 番茄 is part of the dish). Why: after an exchange that
        named one thing and nothing else (做小龙虾盖饭要不要学一下 / 要 / 咱们看看这个吧) the
        object 这个 can only mean that thing; two things, or none, still ask. Example:
        [小龙虾盖饭] -> 小龙虾盖饭; [手机, 电脑] -> None."""
        ranked = self._window_ranked(d, window, text)
        things = [c for c in ranked if c.mention.etype not in HUMAN_TYPES]
        if len(things) != 1 or things[0].score < self.min_score:
            return None
        m = things[0].mention
        if any(
            c.mention.turn == m.turn
            and c.mention.etype == "person"
            and (0 < c.mention.start - m.end <= 1 or 0 < m.start - c.mention.end <= 1)
            for c in ranked
        ):
            return None  # 番茄炖牛腩 (牛腩 tagged a name): part of a longer name
        if (
            m.etype in self.lone.not_types
            or m.source in self.lone.not_pos
            or m.head.endswith(self.lone.not_heads)
            or m.text[:1] in self.mt.vo_negations
            or self.mt.is_category(m.text)
            or self._said_as_predicate(d, window, m.text)
        ):
            return None
        return things[0]

    def _time_word(self, text: str) -> bool:
        """Whether ``text`` is a time word and nothing else (jieba tags it t: 昨晚 / 上周 / 今年).

        Example: 昨晚 -> True; 任然 -> False."""
        tags = [t for _, t in self.segmenter.pos(text)]
        return bool(tags) and all(t.startswith("t") for t in tags)

    def _lone_demonstrative(self, text: str, ref: Ref) -> bool:
        """A plain 这个 / 那个 / 这 / 那 (rules/coreference.yaml ``lone_antecedent``
        ``demonstratives``) that opens the query as its subject, no noun after it
        (``demonstrative_opens``), or ends it as the object (``demonstrative_ends``): the places
        where it points at a thing. Not one that opens a place or manner word (这里面 / 这样:
        ``demonstrative_not_before``) nor one a clause describes (照片里的那个)."""
        lone = self.lone
        if ref.text not in lone.demonstratives:
            return False
        before, after = text[: ref.start], text[ref.end :]
        if (lone.demonstrative_not_before or _NEVER).match(after) or (
            lone.demonstrative_not_after or _NEVER
        ).search(before):
            return False
        if (lone.demonstrative_ends or _NEVER).match(after):
            return True
        return bool((lone.demonstrative_opens or _NEVER).match(before)) and not any(
            t.start == ref.end and kind_of(t.pos, t.text) == "NOUN"
            for t in self.mt.parse(text).tokens
        )

    def _lone_place(self, d: Any, window: set[int], text: str, ref: Ref) -> Candidate | None:
        """What a place reference (那里 / 这儿) points at when the last exchange types no phrase
        a place (rules/coreference.yaml ``lone_place``): the clear leader of the exchange, of
        any tag but ``not_types``, salient in one of the ``salient`` ways, no kind of thing and
        no demonstrative; none right after a verb of being or going somewhere. None otherwise."""
        lp = self.lone_place
        best = self._clear_leader(d, window, text, lp.margin)
        if best is None or not salient(best, lp.salient):
            return None
        m = best.mention
        if (
            m.etype in lp.not_types
            or _DEMONSTRATIVE.search(m.text)
            or self.mt.is_category(m.text.lstrip(_MEASURES))
        ):
            return None
        return best

    def _place_choice(
        self,
        d: Any,
        window: set[int],
        text: str,
        ref: Ref,
        good: list[Candidate],
        cands: list[Candidate],
    ) -> list[Candidate]:
        """``good`` for a place reference, its best first (rules/coreference.yaml ``lone_place``):
        the longer name the user's last turn said that opens with the best place (悉尼 ->
        悉尼歌剧院); else, when the best place is none of the ``salient`` kinds, the exchange's
        clear leader of any tag that is one and scores ``margin`` above it (非洲 -> 好望角)."""
        if ref.text not in self.lone_place.refs:
            return good
        best = good[0]
        lu = d.last_user()
        if lu is not None:
            bt = best.mention.text
            longer = [
                c
                for c in cands
                if c.mention.turn == lu.turn.index
                and len(c.mention.text) > len(bt)
                and c.mention.text.startswith(bt)
            ]
            if longer:
                why = f"{best.why}; the longer name the user said ({self.lone_place.source})"
                return [Candidate(longer[0].mention, best.score, why), *good[1:]]
        if salient(best, self.lone_place.salient):
            return good
        leader = self._lone_place(d, window, text, ref)
        if (
            leader is not None
            and leader.mention.text != best.mention.text
            and leader.score >= best.score + self.lone_place.margin
        ):
            why = f"{leader.why}; what the exchange is about ({self.lone_place.source})"
            return [Candidate(leader.mention, leader.score, why)]
        return good

    def _called_name(self, state: State, text: str) -> Mention | None:
        """The name a turn of the last exchange, the user's first, calls someone or something
        (rules/coreference.yaml ``called_name``: 叫郭麒麟 / 一个叫周可依的小姐姐): what 这个名字
        points at. None when neither turn calls anything, or the query says the name."""
        if self.called.frame is None:
            return None
        for turn in state.history[-2:]:
            fm = self.called.frame.search(turn.content)
            if fm is None or fm.group("name") in text:
                continue
            name = fm.group("name")
            if self.called.name_not is not None and self.called.name_not.search(name):
                continue  # 你叫什么名字: a question, no name called
            return said_mention(name, "thing", turn, "obj", fm.start("name"), self.called.source)
        return None

    def _called_head(self, state: State, m: Mention) -> str | None:
        """The name of an antecedent ``X的Y`` its turn said after 叫 (一个叫晓星尘的男孩子 /
        … / 他最好 -> 晓星尘最好): X is what the person is called (rules/coreference.yaml
        ``called_name``), the name the reference stands for. None for any other antecedent."""
        name, de, _ = m.text.partition("的")
        if not de or self.called.frame is None:
            return None
        turn = said_turn(state, m)
        if turn is None:
            return None
        fm = self.called.frame.search(turn.content, max(0, m.start - 2), m.start + len(name) + 1)
        if fm is None or fm.group("name") != name or fm.end("name") != m.start + len(name):
            return None
        if self.called.name_not is not None and self.called.name_not.search(name):
            return None
        return name

    def _owner_of_person(self, ref: Ref, m: Mention) -> str | None:
        """The owner X of an antecedent ``X的Y`` whose Y is a role a person holds in X
        (rules/coreference.yaml ``owner_of_role``: 作者 / 领导) when the reference is 它 (no
        person): 哈利波特的作者是谁 / … / 它讲了什么 -> 哈利波特讲了什么. None for any other
        antecedent or reference, and for a dictionary title."""
        if ref.animacy != "nonhuman" or m.protected:
            return None
        owner, de, role = m.text.rpartition("的")
        if not de or len(owner) < 2 or role not in self.role_owner.roles:
            return None
        return owner

    def _answered_thing(self, d: Any, window: set[int], text: str) -> Candidate | None:
        """What 它 points at when it would be asked about and the reply answered the user's
        question (rules/coreference.yaml ``answered_thing``: 有啥好吃的零食可以推荐的么 / 薯片呀…
        / 它的热量 -> 薯片): the user's last turn asks (``question``), the best candidate of the
        last exchange is the subject or object of the reply, a thing, no kind noun, and leads the
        next by ``margin``. None otherwise."""
        if self.ans.question is None or len(d.turns) < 2:
            return None
        asked, reply = d.turns[-2], d.turns[-1]
        if asked.turn.role != "user" or reply.turn.role != "assistant":
            return None
        if not self.ans.question.search(asked.turn.content):
            return None
        best = self._clear_leader(d, window, text, self.ans.margin)
        if best is None:
            return None
        m = best.mention
        if (
            m.turn != reply.turn.index
            or m.gram not in self.ans.grams
            or m.etype not in self.ans.types
            or self.mt.is_category(m.text)
            or _DEMONSTRATIVE.search(m.text)
        ):
            return None
        return best

    def _lone_person_noun(
        self, d: Any, window: set[int], cands: list[Candidate], text: str, ref: Ref
    ) -> Candidate | None:
        """The antecedent of 他 / 她 that would be asked about when the last exchange names
        exactly one person, with a person word (rules/coreference.yaml ``person_noun``:
        叫程序员给你装 / 那你有他帅吗 -> 程序员): no name there, no 他 / 她 said there, the query
        names no person of its own. Not a person word said after ``not_after`` (别的女生: someone
        else; 我爱人: the speaker's), nor a counted one (``counted``: 两个人), nor a word of
        another jieba tag than ``tags`` or a phrase opening with a verb, nor when the user's last turn names something the segmenter does not know or a name
        (伍声已经结婚了 / 大叔想结婚了: 大叔 is what the reply calls him). None otherwise."""
        if self._person_before(text, ref) or self._pronoun_said(d, window):
            return None
        near = [c for c in cands if c.mention.turn in window and c.mention.etype in HUMAN_TYPES]
        if not near or any(c.mention.etype != "human" for c in near):
            return None  # a name is there: the usual rules (or the question back) decide
        if len({c.mention.text for c in near}) != 1:
            return None
        m = near[0].mention
        if m.source.startswith("pos:") and m.source not in self.pn.tags:
            return None  # 看医生 (jieba nz): an activity jieba made one word of
        ti = d.turn_at(m.turn)
        first = next((t for t in ti.parse.tokens if t.start == m.start), None) if ti else None
        if first is None or kind_of(first.pos, first.text) == "VERB":
            return None  # the phrase opens with a verb: an activity, not a person
        before = d.said(m.turn)[: m.start]
        if (self.pn.not_after is not None and self.pn.not_after.search(before)) or (
            self.pn.counted is not None and self.pn.counted.search(m.text)
        ):
            return None
        lu = d.last_user()
        if lu is not None and lu.turn.index != m.turn:
            for c in self.mt.rank(d, text=text):
                o = c.mention
                if (
                    o.turn == lu.turn.index
                    and o.etype not in self.lone.not_types
                    and (o.etype == "person" or self.segmenter.freq(o.text) == 0)
                ):
                    return None  # 伍声 / 大叔: the reply's word for whom the user named
        return near[0]

    def _statement_person(
        self, d: Any, window: set[int], cands: list[Candidate], text: str, ref: Ref
    ) -> Candidate | None:
        """The antecedent of 他 / 她 in a narrative statement (rules/coreference.yaml
        ``statement_person``): the best candidate of the last exchange when it is a name of
        one of ``types``, scores ``min_score``, leads every other candidate of the last
        exchange by ``margin``, is none of ``not_names``, the query names no person of its own
        before the pronoun and no turn of the exchange says 他 / 她 itself (unless asking who):
        the pronoun then goes on from an older turn. None otherwise: the statement keeps its
        pronoun. ``not_after`` (a headless 他的) keeps it too."""
        if self._person_before(text, ref):
            return None
        if self.sp.not_after is not None and self.sp.not_after.match(text, ref.end):
            return None
        if self._pronoun_said(d, window):
            return None
        near = [c for c in cands if c.mention.turn in window and c.score >= self.min_score]
        if (
            not near
            or near[0].mention.etype not in self.sp.types
            or near[0].mention.text in self.sp.not_names
        ):
            return None
        if len(near) > 1 and near[0].score - near[1].score < self.sp.margin:
            return None
        m = near[0].mention
        said = d.said(m.turn)
        rest = said[m.end : m.end + 2]
        if rest[:1] and may_end_name(rest[:1]) and not _CJK.match(rest[1:]):
            return None  # 旗木卡卡/西 at the end of the turn: jieba cut the name short
        return near[0]

    def _pronoun_said(self, d: Any, window: set[int]) -> bool:
        """A turn of the last exchange says 他 / 她 itself, not asking who: the pronoun of the
        query goes on from an older turn."""
        return any(
            ti.turn.index in window
            and _PERSON_PRONOUN.search(ti.turn.content)
            and not _WHO.search(ti.turn.content)
            for ti in d.turns
        )

    def _unseen_name(self, d: Any, window: set[int], text: str, ref: Ref) -> Mention | None:
        """The personal name the segmenter does not know that the last exchange said (rules/
        coreference.yaml ``unseen_name``), when it is the only one there and 他 / 她 has no
        other antecedent: a surname jieba left on its own and the one or two characters after
        it, no dictionary word and no function word (刘/振, 朱/一/龙, 周/冬雨), or a doubled
        character said in both turns of the window (格格 ... 格格也来了). None otherwise."""
        if self._person_before(text, ref):
            return None
        found: dict[str, Mention] = {}
        said: dict[str, int] = {}
        for ti in d.turns:
            seen_here: set[str] = set()
            for name, at in unseen_names(
                ti.parse.tokens,
                surnames=self.unseen_surnames,
                max_len=self.unseen.max_len,
                not_doubled=self.unseen_not_doubled,
                known=self.segmenter.freq,
                predicate_before=self.unseen.predicate_before,
            ):
                if name in text:
                    continue
                seen_here.add(name)
                if ti.turn.index in window and name not in found:
                    found[name] = self._unseen(name, ti, at)
            if self.unseen.called is not None and ti.turn.index in window:
                for fm in self.unseen.called.finditer(ti.turn.content):
                    name = fm.group("name")
                    if name in text or name in found or _SPEAKERISH.search(name):
                        continue
                    seen_here.add(name)
                    found[name] = self._unseen(name, ti, fm.start("name"))
            for name in seen_here:
                said[name] = said.get(name, 0) + 1
        # a doubled character is a name only when the window says it twice
        names = [m for m in found.values() if m.text[0] != m.text[1] or said.get(m.text, 0) >= 2]
        return names[0] if len(names) == 1 else None

    def _exchange_echo(
        self, state: State, d: Any, window: set[int], text: str, ref: Ref
    ) -> Mention | None:
        """What 他 / 她 / 它 with no antecedent points at when the reply repeats a name of the
        user's last turn that the segmenter made no mention of (rules/coreference.yaml
        ``exchange_echo``): the longest stretch of whole words of the user's turn the reply
        says again, when it is the only one of its length and looks like a name (时崎狂三 /
        时崎狂三酱 -> 时崎狂三). None when the query names a person of its own before the
        pronoun, says the stretch itself, or the stretch is an ordinary word or phrase."""
        if self.echo.not_chars is None or self._person_before(text, ref):
            return None
        if text.count(ref.text) > 1 and self.mt.is_statement(text):
            return None  # 我也不认识她不过我室友认识她: a narrative that goes on about 她
        exchange = last_exchange(state, d)
        if exchange is None:
            return None
        asked, last = exchange
        said, reply = asked.turn.content, last.turn.content.lower()
        low_said = said.lower()
        if len(low_said) != len(said):
            return None
        toks = [t for t in asked.parse.tokens if t.text.strip()]
        low, high = self.echo.length
        best: list[tuple[int, int]] = []
        size = 0
        for i in range(len(toks)):
            j = i
            while (
                j < len(toks)
                and (j == i or toks[j].start == toks[j - 1].end)
                and low_said[toks[i].start : toks[j].end] in reply
            ):
                j += 1
            n = toks[j - 1].end - toks[i].start if j > i else 0
            if n > size:
                best, size = [(i, j)], n
            elif n == size and n:
                best.append((i, j))
        phrases = {said[toks[i].start : toks[j - 1].end] for i, j in best}
        if len(phrases) != 1 or not low <= size <= high:
            return None
        i, j = best[0]
        words, phrase = toks[i:j], phrases.pop()
        if (
            phrase in text
            or self.echo.not_chars.search(phrase)
            or (phrase.isascii() and len(phrase) < self.echo.min_latin)
            or not self._name_like(words)
        ):
            return None
        if self._said_as_predicate(d, window, phrase) or (
            self.echo.not_after is not None and self.echo.not_after.search(said, 0, words[0].start)
        ):
            return None  # 那你也别乐意 / 早上要化妆: a predicate or an activity there
        gender = self.pronoun_gender.get(ref.text)
        if gender is not None and self.gender_of(phrase) not in (None, gender):
            return None
        start = words[0].start
        at = reply.find(phrase.lower())
        theirs = last.turn.content[at : at + len(phrase)]
        if sum(c.isupper() for c in theirs) > sum(c.isupper() for c in phrase):
            phrase = theirs  # c罗 / C罗是…: the name as written with its capitals
        return said_mention(phrase, "thing", asked.turn, "topic", start, self.echo.source)

    def _loved_one(self, state: State, d: Any, text: str, ref: Ref) -> Mention | None:
        """The person the user's last turn said they like (rules/coreference.yaml ``loved_one``:
        我喜欢一个女孩子但是… -> 我喜欢的女孩子), named with 的 in place of 一个. None when the
        turn says no such thing, the query names a person of its own before the pronoun, or a
        gendered noun disagrees with the pronoun."""
        if self.loved.frame is None or self._person_before(text, ref):
            return None
        exchange = last_exchange(state, d)
        if exchange is None:
            return None
        said = exchange[0].turn.content
        fm = self.loved.frame.search(said)
        if (
            fm is None
            or not fm.group("x").endswith(self.loved.heads)
            or fm.group("verb") in text[: ref.start]  # 可我真的很喜欢她: no 很喜欢我喜欢的女生
        ):
            return None
        gender = self.pronoun_gender.get(ref.text)
        if gender is not None and self.gender_of(fm.group("x")) not in (None, gender):
            return None
        phrase = f"{fm.group('who') or ''}{fm.group('verb')}的{fm.group('x')}"
        return new_mention(
            phrase,
            fm.group("x"),
            "human",
            exchange[0].turn.index,
            exchange[0].turn.role,
            "topic",
            fm.start(),
            fm.end(),
            0,
            self.loved.source,
        )

    def _framed_name(self, state: State, d: Any, text: str, ref: Ref) -> Mention | None:
        """The name the user's last turn is about when it only praises, likes, misses or asks
        about knowing someone, or is nothing but the name (rules/coreference.yaml
        ``framed_name``: 某某真帅 / 好喜欢某某怎么办 / 我想某某 / 某某是个英雄 / 认识吗某某 / 某某哦),
        or the name after the word of the person's trade (``role``: 古风歌手东篱 / 导演某某),
        or the name either turn says is the speaker's idol (某某是我的女神), whatever the
        segmenter made of it: the frame's ``name``, made of whole words that look like a name
        (as for ``exchange_echo``; any whole words when the frame itself says a person is
        meant), none of ``not_chars``, not said by the query, agreeing with a gendered pronoun.
        None otherwise."""
        if self.framed.not_chars is None or self._person_before(text, ref):
            return None
        exchange = last_exchange(state, d)
        if exchange is None:
            return None
        asked, reply = exchange
        f = self.framed
        # (frame, turn, whether the frame's own words say a person is meant: 认识某某吗 / 某某是
        # 我的女神 take any whole words, 舒畅 too)
        frames = (
            (f.praise, asked, False),
            (f.liking, asked, False),
            (f.being, asked, False),
            (f.knowing, asked, True),
            (f.bare, asked, False),
            (f.idol, asked, True),
            (f.idol, reply, True),
            (f.role, asked, True),
        )
        for frame, ti, vouched in frames:
            said = ti.turn.content
            fm = frame.fullmatch(said) if frame is not None else None
            if fm is None:
                continue
            asked = ti
            g = "name" if fm.group("name") is not None else "name2"  # knowing: either side
            name = fm.group(g)
            start, end = fm.span(g)
            words = [t for t in asked.parse.tokens if start <= t.start and t.end <= end]
            if (
                name in text
                or self.framed.not_chars.search(name)
                or not words
                or words[0].start != start
                or words[-1].end != end
                or not (
                    vouched
                    or self._name_like(words)
                    or self._doubled_name(name)
                    or (frame is f.bare and all(len(w.text) == 1 for w in words))
                )
            ):
                return None
            gender = self.pronoun_gender.get(ref.text)
            if gender is not None and self.gender_of(name) not in (None, gender):
                return None
            return said_mention(name, "person", asked.turn, "topic", start, self.framed.source)
        return None

    def _doubled_name(self, name: str) -> bool:
        """韩韩 / 澄澄: a doubled character that may end a name and is no interjection or baby
        talk (``unseen_name`` ``not_doubled``), a pet name whatever jieba tagged it."""
        return (
            len(name) == 2
            and name[0] == name[1]
            and may_end_name(name[0])
            and name[0] not in self.unseen_not_doubled
        )

    def _requested_work(self, state: State, d: Any, text: str) -> Mention | None:
        """The title a turn of the last exchange asked to play, sing or find (rules/
        coreference.yaml ``requested_work``: 我想听体面 -> 体面), the user's turn first. None
        when neither turn ends with such a request, the phrase names no title, or the query
        says it already."""
        exchange = last_exchange(state, d)
        if self.request.frame is None or exchange is None:
            return None
        for ti in exchange:
            said = ti.turn.content.strip()
            fm = self.request.frame.search(said)
            if fm is None:
                continue
            title = fm.group("title")
            by = self.request.by.match(title) if self.request.by is not None else None
            if by is not None and self._names_person(by.group("by")):
                title = title[by.end() :]  # 刘若英的后来 -> 后来: the song, not its singer's
            if (
                self.request.not_title is not None and self.request.not_title.search(title)
            ) or title in text:
                continue
            at = ti.turn.content.find(title)
            return said_mention(title, "work", ti.turn, "obj", at, self.request.source)
        return None

    def _reply_choice(self, state: State, same: list[Candidate], ref: Ref) -> Candidate | None:
        """Of candidates too close to choose, the one the assistant's last turn names when it
        names exactly one of them (rules/coreference.yaml ``reply_choice``: 你是天蝎座还是双鱼座
        / 双鱼座是怎么样的 / 说到这个星座 -> 双鱼座). None otherwise."""
        if ref.text not in self.choice.refs or not state.history:
            return None
        last = state.history[-1]
        if last.role != "assistant":
            return None
        said = [c for c in same if c.mention.text in last.content]
        if len({c.mention.text for c in said}) != 1 or len(said) == len(same):
            return None
        return said[0]

    def _owner_said(
        self, state: State, same: list[Candidate], text: str, ref: Ref
    ) -> Candidate | None:
        """Of candidates too close to choose, the one the dialogue said as the owner of the very
        noun the query gives the pronoun (他的歌 after 高進的歌真好听色色: 高進, not 色色), when
        exactly one of them was. Why: the query repeats that phrase with a pronoun for the
        owner. None when the pronoun owns nothing (他是谁) or no candidate, or several, were
        said so (iPhone和三星哪个好 / 它的屏幕: the engine still asks)."""
        if not text.startswith("的", ref.end):
            return None
        noun = next(
            (t.text for t in self.mt.parse(text).tokens if t.start == ref.end + 1),
            None,
        )
        if not noun or not noun.strip():
            return None
        said = [
            c for c in same if any(f"{c.mention.text}的{noun}" in t.content for t in state.history)
        ]
        return said[0] if len(said) == 1 else None

    def _eaten_identity(self, text: str, cand: Candidate) -> bool:
        """The query asks what something is (rules/context.yaml topic_eat ``not_identity``:
        那是什么) and the candidate is a food only a turn of eating named (吃鸡公煲): chat asks
        that of the dish as a whole, not of a name it knows; the reference is left alone."""
        return (
            cand.mention.source == self.eat_source
            and self.eat_identity is not None
            and self.eat_identity.search(text) is not None
        )

    def _names_person(self, phrase: str) -> bool:
        """The phrase is one word the dictionaries or jieba type a person (王菲 / 费玉清)."""
        toks = [t for t in self.mt.parse(phrase).tokens if t.text.strip()]
        return (
            len(toks) == 1
            and self.mt.analyzer.type_of(toks[0].text, toks[0].pos) in self.person_types
        )

    def _title_turn(self, state: State, text: str, *, kind: str = "") -> Mention | None:
        """A turn of the last exchange, the reply first, that is nothing but a short phrase
        (rules/coreference.yaml ``title_reference`` whole_*: 西游记 / 七大罪动漫 -> 七大罪): the
        title 这本书 / 这部动漫 points at when nothing else is a candidate; not a verb acting on
        the query's ``kind`` (看电影 for 这部电影: no title). None otherwise."""
        if self.title.whole_not is None:
            return None
        low, high = self.title.whole
        lines = self._exchange_lines(state)
        reply = lines[-1][0] if lines else None  # the last message that says something
        for turn, said in reversed(lines):
            if (
                reply is not None
                and turn is not reply
                and len(reply.content.strip()) <= high
                and not _SPEAKER_CHAR.search(reply.content)
            ):
                break  # a short reply of its own (梵高先生山阴路的夏天) may be the title meant
            lead = self.title.whole_lead.match(said) if self.title.whole_lead is not None else None
            if lead is not None and lead.end() < len(said):
                said = said[lead.end() :]  # 介绍一下犬夜叉: the request is no part of the title
            cut = self.title.whole_tail.search(said) if self.title.whole_tail is not None else None
            phrase = said[: cut.start()] if cut is not None and cut.start() >= low else said
            if not low <= len(phrase) <= high or self.title.whole_not.search(phrase):
                continue
            if phrase in text or self.mt.is_category(phrase):
                continue
            if kind and self.mt.acts_on_kind(phrase, kind):
                continue
            last = [t for t in self.mt.parse(phrase).tokens if t.text.strip()][-1:]
            if last and (
                kind_of(last[0].pos, last[0].text) in ("VERB", "ADJ", "ADV")
                and self.segmenter.freq(last[0].text) > self.echo.rare_freq
            ):
                continue  # 帅爆: a comment, not a title (知更鸟, a rare word, may end one)
            at = turn.content.find(phrase)
            return said_mention(phrase, "work", turn, "topic", at, self.title.source)
        return None

    def _music_instrument(self, state: State, text: str) -> Mention | None:
        """The one instrument (rules/coreference.yaml ``music_instrument``) the last exchange
        names, the reply first, when the query is about music and names none itself."""
        if self.mi.cue is None or not self.mi.cue.search(text) or self.mi_names.search(text):
            return None
        found: dict[str, tuple[Turn, int]] = {}
        for turn in reversed([t for t in state.history[-2:] if t.content.strip()]):
            for m in self.mi_names.finditer(turn.content):
                if self.mi.compound is None or not self.mi.compound.match(turn.content, m.end()):
                    found.setdefault(m.group(), (turn, m.start()))
        if len(found) != 1:
            return None
        ((name, (turn, at)),) = found.items()
        return said_mention(name, "other", turn, "topic", at, self.mi.source)

    def _said_line(self, turns: list[Turn], query: str) -> Mention | None:
        """千里共婵娟 / … / 它的下一句: the user's turn that is a whole line of verse, when the
        query asks for the line before or after it or where it comes from (``line_asks``)."""
        wp = self.wp
        if wp.line_asks is None or wp.line is None or not wp.line_asks.search(query):
            return None
        for turn in turns:
            said = turn.content.strip()
            if (
                turn.role == "user"
                and wp.line.search(said)
                and not (wp.line_not is not None and wp.line_not.search(said))
            ):
                return said_mention(said, "work", turn, "topic", turn.content.find(said), wp.source)
        return None

    def _pronoun_work(
        self, state: State, before: str, query: str, *, asks_work: bool
    ) -> Mention | None:
        """The title 它 is asked about as a work (rules/coreference.yaml ``work_pronoun``): one
        a turn of the last exchange, the reply first, says in a frame of its own (你知道飘吗 /
        网络小说亵渎 / 讲讲白夜行的内容) when the query asks about a work (``asks_work``: its
        author, its story), else in a title frame with its kind or a verb of enjoying it (龙族你
        看过吗; 你知道X吗 only when ``asks_work``: X may be a person)."""
        turns = [t for t in state.history[-2:] if t.content.strip()]
        line = self._said_line(turns, query)
        if line is not None:
            return line
        for turn in reversed(turns if asks_work else []):
            for frame in self.wp_frames:
                m = frame.search(turn.content)
                if m is None or self.mt.is_category(m.group("title")):
                    continue
                if before.endswith(m.group("title")) or (
                    self.wp.title_not is not None and self.wp.title_not.search(m.group("title"))
                ):
                    continue
                return said_mention(
                    m.group("title"), "work", turn, "topic", m.start("title"), self.wp.source
                )
        return self._framed_title(
            state, before, "", want=self.work_classes, strict=True, bounded_ok=asks_work
        )

    def _framed_title(
        self,
        state: State,
        before: str,
        noun: str,
        *,
        want: frozenset[str] | None = None,
        strict: bool = False,
        bounded_ok: bool = True,
    ) -> Mention | None:
        """The title a turn of the last exchange, the reply first, says in a frame of
        rules/coreference.yaml ``title_frames`` (皮囊这本书 / 柯南我看过 / 《X》), its kind word
        or verb agreeing with the query's kind ``noun`` (书 with 读 / 散文, 歌 with 听). None
        when no frame finds one, or the query names it right before the demonstrative
        (``before``: 勋章这首歌). ``want`` gives the kinds outright (a bare 它: any work);
        ``strict`` takes only frames that say a title by themselves (``_strict_frame``), the
        topic frame 你知道X吗 only with ``bounded_ok``."""
        want = want or self.title_classes.get(noun)
        if not want or not self.title_frames:
            return None
        turns = [t for t in state.history[-2:] if t.content.strip()]
        frames = self.title_frames
        for turn in reversed(turns):
            for i, matches in self._title_frame_hits(turn.content):
                _frame, loose, cls, bounded = frames[i]
                if strict and loose:
                    continue
                for fm in matches:
                    if self._frame_title(
                        fm, want, before, loose=loose, cls=cls, bounded=bounded
                    ) and not (strict and not self._strict_frame(fm, bounded and bounded_ok)):
                        return said_mention(
                            fm.group("title"),
                            "work",
                            turn,
                            "topic",
                            fm.start("title"),
                            self.frames_source,
                        )
        if self.frame_asked is None or self.frame_answer is None or len(turns) < 2:
            return None
        # 你看过什么书 / 天才在左疯子在右吼吼…: the reply opens with the title asked for
        user, reply = turns
        asked = self.frame_asked.search(user.content)
        m = self.frame_answer.search(reply.content.strip())
        if (
            user.role != "user"
            or asked is None
            or not self.title_classes.get(asked.group("kind"), frozenset()) & want
            or m is None
            or not self._frame_title(m, want, before, loose=False)
            or self.mt.acts_on_kind(m.group("title"), asked.group("kind"))  # 什么歌 / 听歌
        ):
            return None
        at = reply.content.find(m.group("title"))
        return said_mention(m.group("title"), "work", reply, "topic", at, self.frames_source)

    def _title_frame_hits(self, said: str) -> tuple[tuple[int, tuple[re.Match[str], ...]], ...]:
        """Each title frame that finds a title in ``said``, by its index in ``title_frames``,
        with its matches from left to right (each searched from just after the start of the
        one before), memoised per text."""
        hits = self._frame_hits.get(said)
        if hits is not None:
            return hits
        found: list[tuple[int, tuple[re.Match[str], ...]]] = []
        for i, (frame, _loose, _cls, _bounded) in enumerate(self.title_frames):
            matches: list[re.Match[str]] = []
            m = frame.search(said)
            while m is not None:
                matches.append(m)
                m = frame.search(said, m.start() + 1)
            if matches:
                found.append((i, tuple(matches)))
        return self._frame_hits.put(said, tuple(found))

    def _strict_frame(self, m: re.Match[str], bounded: bool) -> bool:
        """A title frame's match that says a title by itself, for a bare 它: closed on both
        sides (你知道X吗) or with its kind or a verb of enjoying it (龙族你看过吗), the title no
        verb phrase (``loose_not``: 昨天读了这本书)."""
        if not bounded and not (m.groupdict().get("kind") or m.groupdict().get("verb")):
            return False
        return self.frame_loose_not is None or not self.frame_loose_not.search(m.group("title"))

    def _frame_title(
        self,
        m: re.Match[str],
        want: frozenset[str],
        before: str,
        *,
        loose: bool,
        cls: str = "",
        bounded: bool = False,
    ) -> bool:
        """A title frame's match names a title of a kind in ``want`` (``_framed_title``): its
        cue agrees, the phrase is no clause, kind noun or the name just before the reference,
        and a ``loose`` frame's phrase is no common word."""
        title = m.group("title")
        cue = m.groupdict().get("kind") or m.groupdict().get("verb")
        if cls:
            agrees = cls in want  # 我叫雪儿: a frame of one kind (a name)
        elif cue:
            agrees = bool(self.title_classes.get(cue, frozenset()) & want)
        else:
            agrees = bool(want - self.cue_only)  # 《X》 is a title, no name or instrument
        if (
            not agrees
            # a frame that closes the title on both sides (你知道X吗) lets it hold 你 / 我
            or ((self.frame_bounded_not if bounded else self.frame_title_not) or _NEVER).search(
                title
            )
            or before.endswith(title)
            or self.mt.is_category(title)
        ):
            return False
        if not loose:
            return True
        if self.frame_loose_not is not None and self.frame_loose_not.search(title):
            return False
        freq = self.segmenter.freq(title)
        return freq < self.frame_common or freq == USER_FREQ

    def _object_verb(self, text: str, ref: Ref) -> str | None:
        """The verb of eating, hearing or playing a plain 这个 / 那个 is the object of (吃这个) or
        that calls it good (这个好吃), by rules/coreference.yaml ``verb_object`` before / after;
        None when there is none."""
        said = (
            self.vo.before.search(text[: ref.start]) if self.vo.before is not None else None
        ) or (self.vo.after.search(text[ref.end :]) if self.vo.after is not None else None)
        return said.group("verb") if said is not None else None

    def _verb_object(self, state: State, text: str, ref: Ref) -> Mention | None:
        """What a plain 这个 / 那个 the query eats, hears or plays (or calls good to eat) is:
        the object a turn of the last exchange, the reply first, says right after the same
        verb (rules/coreference.yaml ``verb_object``: 我在吃辣条 / 我喜欢吃这个 -> 辣条). None
        when the query has no such verb or no turn such an object."""
        verb = self._object_verb(text, ref)
        if verb is None:
            return None
        exchange = last_exchange(state, self.mt.dialogue(state))
        said = (
            self.mt.verb_object((exchange[1], exchange[0]), (verb,), query=text, kinds=False)
            if exchange is not None
            else None
        )
        if said is not None:
            obj, ti = said
            at = max(ti.turn.content.find(obj), 0)
            return said_mention(obj, "thing", ti.turn, "obj", at, self.vo.source)
        # 最近什么电影好看 / 一出好戏吧… / 这个不好看: a title of the verb's kind
        return self._framed_title(state, text[: ref.start], verb)

    def _fronted_object(self, state: State, d: Any, text: str, ref: Ref) -> Mention | None:
        """What: the phrase a turn of the last exchange (the reply first) said right before the
        verb a plain 这个 / 那个 is the object of (rules/coreference.yaml ``verb_object``
        ``fronted_before``) or before the verb of the predicate that calls it good (``after``),
        at most ``fronted_gap`` characters before it within one clause.
        Why: chat fronts an object (张韶涵的歌我最喜欢) or says a predicate of its subject (有南孚
        电池好吃); a query saying the same verb of 这个 / 那个 means that phrase, which
        :meth:`_verb_object` (the object after the verb) does not find.
        Example: 张韶涵的歌我最喜欢 / 按我的口味来 / 我也喜欢这个 -> 我也喜欢张韶涵的歌;
        喜欢听周杰伦 / 我也是 / 我也喜欢这个 -> None (no phrase right before 喜欢); 下午茶吃什么 /
        … / 那个好吃吗 -> None (``fronted_not_after``: 吃 asks its object)."""
        vo = self.vo
        said = (
            vo.fronted_before.search(text[: ref.start]) if vo.fronted_before is not None else None
        ) or (vo.after.search(text[ref.end :]) if vo.after is not None else None)
        exchange = last_exchange(state, d)
        if said is None or exchange is None:
            return None
        verb = said.group("verb")
        cands = self.mt.rank(d, text=text, animacy="nonhuman")
        for ti in (exchange[1], exchange[0]):
            content = ti.turn.content
            best: Mention | None = None
            for at in (i for i in range(len(content)) if content.startswith(verb, i)):
                if vo.fronted_not_after is not None and vo.fronted_not_after.match(
                    content, at + len(verb)
                ):
                    continue  # 下午茶吃什么: the object is asked for, what stands before is no object
                for c in cands:
                    m = c.mention
                    gap = content[m.end : at] if m.turn == ti.turn.index else None
                    if (
                        gap is not None
                        and m.end <= at
                        and len(gap) <= vo.fronted_gap
                        and not _CLAUSE_SPLIT.search(gap)
                        and (best is None or m.end > best.end)
                    ):
                        best = m
            if best is not None:
                return best
        return None

    def _stated_trouble(self, state: State) -> Mention | None:
        """The trouble a turn of the last exchange states, the user's turn first (rules/
        coreference.yaml ``problem_then``: 我冷 -> 冷, 可是睡不着 -> 睡不着): its last clause
        when it states one and asks nothing, without the speaker, a conjunction, a time word
        and closing particles, and the reply's own final 我 (``reply_drop``). None otherwise."""
        if self.pt.problem is None or self.pt.drop is None:
            return None
        for turn in [t for t in state.history[-2:] if t.content.strip()]:
            said = turn.content.strip()
            if self.aq.asks is not None and self.aq.asks.search(said):
                continue
            clause = _CLAUSE_SPLIT.split(said.rstrip("，,。！!～~ "))[-1]
            trouble = self.pt.drop.sub("", clause)
            if turn.role != "user" and self.pt.reply_drop is not None:
                trouble = self.pt.reply_drop.sub("", trouble)  # 没人照顾我: the assistant's 我
            if 0 < len(trouble) <= self.pt.max_len and self.pt.problem.search(trouble):
                at = turn.content.find(trouble)
                return said_mention(trouble, "thing", turn, "obj", max(at, 0), self.pt.source)
        return None

    def _line_of_work(self, state: State) -> Mention | None:
        """The field the user's last turn named (rules/coreference.yaml ``line_of_work``: 做园艺的
        -> 园艺, 广告行业的 -> 广告行业): its last word, ``drop`` cut, a noun or a verb of at
        least ``min_len`` characters, with the word before a field head. None otherwise."""
        turn = next((t for t in reversed(state.history) if t.role == "user"), None)
        if turn is None:
            return None
        said = turn.content.strip()
        if self.lw.drop is not None:
            said = self.lw.drop.sub("", said)
        toks = self.mt.parse(said).tokens if said else ()
        if not toks or toks[-1].pos not in self.lw.pos:
            return None
        start = toks[-1].start
        if toks[-1].text in self.lw.heads and len(toks) > 1 and toks[-2].pos in self.lw.pos:
            start = toks[-2].start
        field = said[start:]
        if len(field) < self.lw.min_len:
            return None
        at = turn.content.find(field)
        return said_mention(field, "thing", turn, "obj", max(at, 0), self.lw.source)

    def _stated_opinion(self, state: State) -> Mention | None:
        """The opinion the assistant's last turn stated (rules/coreference.yaml ``agree_so``):
        the turn with ``drop`` cut, when it asks nothing and has at most ``max_len``
        characters. None otherwise."""
        turn = state.history[-1] if state.history else None
        if turn is None or turn.role != "assistant":
            return None
        said = turn.content.strip()
        if self.aq.asks is not None and self.aq.asks.search(said):
            return None
        if self.agree.drop is not None:
            said = self.agree.drop.sub("", said)
        if not said or len(said) > self.agree.max_len:
            return None
        at = turn.content.find(said)
        return said_mention(said, "thing", turn, "obj", max(at, 0), self.agree.source)

    def _asked_question(self, state: State, text: str) -> Mention | None:
        """The question a turn of the last exchange asked, the reply first (rules/
        coreference.yaml ``asked_question``: 浙江省面积多大 / 这个问题我哪知道呀), said without
        its addressee frame and closing particles. None when neither turn asks, or the
        question is too short or too long to stand for 这个问题."""
        if self.aq.asks is None or self.aq.drop is None:
            return None
        low, high = self.aq.length
        for turn in reversed([t for t in state.history[-2:] if t.content.strip()]):
            said = turn.content.strip()
            if not self.aq.asks.search(said):
                continue
            if turn.role == "user" and not (
                self.aq.own_when is not None and self.aq.own_when.search(text)
            ):
                return None  # the user's own question, answered by the reply
            question = self.aq.drop.sub("", said)
            if not low <= len(question) <= high or question in text:
                return None
            at = max(turn.content.find(question[:2]), 0)
            return said_mention(question, "thing", turn, "obj", at, self.aq.source)
        return None

    def _kind_end(self, d: Any, text: str, ref: Ref) -> Candidate | None:
        """The thing a demonstrative ending the query after what describes it (rules/
        coreference.yaml ``kind_end`` ``query``: 起床后的那种) is a kind of: the best candidate
        of the last exchange in one of the ``grams`` roles (the object: 定个闹钟), of no
        ``skip_types`` type. None otherwise."""
        if self.kind_end.query is None or not any(
            m.start("ref") == ref.start for m in self.kind_end.query.finditer(text)
        ):
            return None
        window = {ti.turn.index for ti in d.turns[-(self.max_back + 1) :]}
        for c in self.mt.rank(d, text=text):
            m = c.mention
            if (
                m.turn in window
                and m.gram in self.kind_end.grams
                and m.etype not in self.kind_end.skip_types
                and m.text not in text
            ):
                return c
        return None

    def _known_asked(self, state: State, text: str, ref: Ref) -> Mention | None:
        """What 这 in 这都不知道 / 这都不会 (rules/coreference.yaml ``known_asked`` ``query``)
        points at when the assistant's reply, the last turn, asked about something (``asked``:
        呐喊的作者是谁 / 恋舞ol怎么玩): the phrase its question is about. None otherwise."""
        if self.known.query is None or self.known.asked is None or not state.history:
            return None
        turn = state.history[-1]
        if turn.role != "assistant":
            return None  # checked before the query's pattern: no reply, no question it asked
        if not any(m.start("ref") == ref.start for m in self.known.query.finditer(text)):
            return None
        m = self.known.asked.search(turn.content.strip())
        if m is None or m.group("np") in text:
            return None
        np = m.group("np")
        return said_mention(np, "thing", turn, "topic", turn.content.find(np), self.known.source)

    def _lone_animal(self, state: State, d: Any, text: str) -> Mention | None:
        """The animal 它 points at (rules/coreference.yaml ``lone_animal``: multiturn
        :func:`lone_animal`)."""
        return lone_animal(state, d, text, self.animal)

    def _name_like(self, words: list[Any]) -> bool:
        """The words of an echoed stretch look like a name (rules/coreference.yaml
        ``exchange_echo``): one noun the segmenter rarely sees or one word it almost never
        sees; or several words, no word of two characters or more other than a noun, not all
        of them common, the last no direction word."""
        freq = self.segmenter.freq
        if len(words) == 1:
            w = words[0]
            f = freq(w.text)
            return f <= self.echo.rare_freq or (
                kind_of(w.pos, w.text) == "NOUN" and w.pos != "vn" and f < self.echo.common_freq
            )
        kinds = [kind_of(w.pos, w.text) for w in words]
        return (
            all(
                k in ("NOUN", "OTHER") for k, w in zip(kinds, words, strict=True) if len(w.text) > 1
            )
            and any(freq(w.text) < self.echo.common_freq for w in words)
            and kinds[-1] != "LOC"
        )

    def _unseen(self, name: str, ti: Any, start: int) -> Mention:
        """The mention of an unseen name said at ``start`` of turn ``ti`` (unseen_name)."""
        return said_mention(name, "person", ti.turn, "dep", start, self.unseen.source)

    def _after_surname(self, d: Any, m: Mention) -> bool:
        """吴/一帆: the phrase follows a surname the segmenter left on its own, so it is the
        given name of a person jieba cut, not a thing of its own."""
        ti = d.turn_at(m.turn)
        return ti is not None and any(
            t.end == m.start and t.text in self.unseen_surnames for t in ti.parse.tokens
        )

    def _said_as_predicate(self, d: Any, window: set[int], word: str) -> bool:
        """那你也别乐意 / 周末去爬山了: a word the last exchange says after a negation, a degree
        adverb or 去 (rules/coreference.yaml ``lone_antecedent`` ``predicate_before``) is a
        predicate or an activity there, whatever jieba tagged it, not a thing talked about."""
        if self.lone.predicate_before is None:
            return False
        for ti in d.turns:
            if ti.turn.index not in window:
                continue
            said = ti.turn.content
            at = said.find(word)
            while at > 0:
                if self.lone.predicate_before.search(said, 0, at):
                    return True
                at = said.find(word, at + 1)
        return False

    def _reply_names_nothing(self, d: Any, text: str) -> bool:
        """No turn after the user's last one names a person scoring ``min_score``: the reply
        brought in no one else, so the person of the user's last turn is who the query goes
        on about. Example: 今天被邻居小伙伴撒了把狗粮 / 怎么了 -> True; 我的小伙伴需要你 /
        只辅助女警 -> False (the reply named 女警). A person the reply points back at with a
        demonstrative (女友被兄弟抢了 / 这样的朋友…) is the user's, not another one."""
        lu = d.last_user()
        if lu is None:
            return False
        return not any(
            c.mention.turn > lu.turn.index
            and c.score >= self.min_score
            and not _DEMONSTRATIVE.match(c.mention.text)
            for c in self.mt.rank(d, text=text, animacy="human")
        )

    def _window_ranked(self, d: Any, window: set[int], text: str) -> list[Candidate]:
        """The candidates of the last exchange (``window``), of any type, best first."""
        return [c for c in self.mt.rank(d, text=text) if c.mention.turn in window]

    def _clear_leader(
        self,
        d: Any,
        window: set[int],
        text: str,
        margin: float,
        ranked: list[Candidate] | None = None,
    ) -> Candidate | None:
        """The best candidate of the last exchange (``window``), of any type, when it scores
        ``min_score`` and leads the next candidate there by ``margin``: one thing was talked
        about. None otherwise. ``ranked``: the window's candidates (:meth:`_window_ranked`)
        when the caller has them already."""
        if ranked is None:
            ranked = self._window_ranked(d, window, text)
        near = [c for c in ranked if c.score >= self.min_score]
        if not near or (len(near) > 1 and near[0].score - near[1].score < margin):
            return None
        return near[0]

    def _title_antecedent(
        self, d: Any, window: set[int], text: str, *, sign: bool
    ) -> Candidate | None:
        """What 这本书 / 这首歌 / 这个星座 names when no salient antecedent does (rules/
        coreference.yaml ``title_reference``): the best candidate of the last exchange, of any
        tag (titles get person, human or plain-noun tags), scoring ``min_score`` and leading
        the next by ``margin``; None when it opens with a surname (a person, not a title), is a
        common word (``common_freq``), or, for a sign (``sign``), opens with none of ``signs``."""
        lead = self._clear_leader(d, window, text, self.title.margin)
        if lead is None:
            return None
        m = lead.mention
        cut = self.title.strip.match(m.text) if self.title.strip is not None else None
        if cut is not None and cut.end():
            # 一部电影摘金奇缘 -> 摘金奇缘
            m = replace(m, text=m.text[cut.end() :], start=m.start + cut.end())
        best = m.text
        if (
            (self.title.not_title is not None and self.title.not_title.search(best))
            or best.startswith(self.mt.analyzer.surnames)
            or (sign and not best.startswith(self.title.signs))
            or (
                not sign
                and self.title.common_freq
                and self.segmenter.freq(best) >= self.title.common_freq
            )
        ):
            return None
        return Candidate(m, lead.score, lead.why)

    def _clause_determiner(self, text: str, ref: Ref) -> bool:
        """Whether the bare 这个 / 那个 ``ref`` opens a clause that 的 closes on a person, so it
        determines that phrase (rules/coreference.yaml ``clause_determiner``).

        Example: 是那个长得像他的人嘛 -> True; 这个我爱了多年的男人 (a pronoun opens the clause)
        and 这个是我的人 -> False."""
        if (
            self.clause_det is None
            or ref.noun
            or ref.text not in _BARE_DEMONSTRATIVES
            or not self.clause_det.match(text, ref.end)
        ):
            return False
        first = next(iter(self.segmenter.pos(text[ref.end :])), None)
        return first is not None and first[1].startswith(self.clause_det_tags)

    def _about_place(self, text: str) -> bool:
        """那是哪里 / 那是我的家乡 / 那边天气: the query is about a place."""
        return any(w in text for w in self.place_words) or any(
            t == "place" for t, _ in self.mt.hinted_types(text)
        )

    def _who_named(self, state: State, d: Any, text: str, ref: Ref) -> Mention | None:
        """The name the assistant's last turn gave, and nothing else, in reply to the user's
        question right before it asking who made or holds something (rules/coreference.yaml
        ``who_answer``: 三国演义的作者是谁 / 印象中是 罗贯中): who 他 / 她 in ``text`` is. None
        when the query already names it, or a gendered name disagrees with 她 / 他."""
        if self.who_question is None or self.who_reply is None:
            return None
        exchange = last_exchange(state, d)
        if exchange is None or not self.who_question.search(exchange[0].turn.content):
            return None
        asked, last = exchange
        reply = unpunctuated(last.turn.content)
        fm = self.who_reply.match(reply)
        if fm is None:
            return None
        np = fm.group("np")
        if (
            np in text
            or np in asked.turn.content
            or (self.who_not is not None and self.who_not.search(np))
        ):
            return None
        gender = self.pronoun_gender.get(ref.text)
        if gender is not None and self.gender_of(np) not in (None, gender):
            return None
        s = fm.start("np")
        return said_mention(np, "person", last.turn, "obj", s, self.who_source)

    def _not_common_words(self, cands: list[Candidate], window: set[int]) -> list[Candidate]:
        """``cands`` without the untyped phrases that are a common word (rules/coreference.yaml
        ``word_not_person`` common_freq: 篮球 / 游戏), when a person the last exchange names is
        a candidate (喜欢篮球 / 知道孙明明嘛他可是… / 不喜欢他 -> 孙明明): a topic frame lets 他
        / 她 take an untyped title or name, not an everyday word while a person is there."""
        if not any(c.mention.etype == "person" and c.mention.turn in window for c in cands):
            return cands
        freq, floor = self.segmenter.freq, self.word_not_person
        return [
            c
            for c in cands
            if not (c.mention.etype in UNKNOWN_TYPES and freq(c.mention.text) >= floor)
        ]

    def gender_of(self, head: str) -> str | None:
        """帅哥 -> male, 闺蜜 -> female, 朋友 -> None (rules/coreference.yaml ``gender``)."""
        return next((g for end, g in self.gender_ends if head.endswith(end)), None)

    def _title_named(self, text: str, ref: Ref) -> bool:
        """Whether ``ref`` is a work's kind phrase (这首歌 / 这部电影) right after the title the
        query itself says (晴天这首歌 / 《三体》这本书). Why: the phrase then repeats the query's
        own title, and a title from the history would replace or prefix it (晴天稻香)."""
        if "work" not in self.mt.category_types.get(ref.noun, ()):
            return False
        return text[: ref.start].endswith(("》", "”", '"')) or self._noun_before(text, ref)

    def _noun_before(self, text: str, ref: Ref) -> bool:
        """A noun ends right where the reference starts (杭电|那边)."""
        return any(
            t.end == ref.start and kind_of(t.pos, t.text) == "NOUN"
            for t in self.mt.parse(text).tokens
        )

    def _person_before(self, text: str, ref: Ref) -> str | None:
        """The type of the person the query itself says before the pronoun: ``person`` for a
        name (耶稣…他) or a person word right before it (吓到了路人他), ``human`` for a person
        word further back (有了男朋友一定要他), None for neither. The pronoun most likely points
        at that person, not at one from the history."""
        found: dict[str, int] = {}  # each person type and where its last word ends
        for t in self.mt.parse(text).tokens:
            if t.end <= ref.start and kind_of(t.pos, t.text) == "NOUN":
                etype = self.mt.analyzer.type_of(t.text, t.pos)
                if etype in self.person_types:
                    found[etype] = t.end
        if not found:
            return None
        if "person" in found or found["human"] == ref.start:
            return "person"  # a name, or a person word right before it (吓到了路人他会报警吗)
        return "human"

    def _attribute_of(self, state: State, d: Any, ref: Ref, orig_text: str) -> State:
        """这个费用多少 after 个税年度汇算…: 个税年度汇算的费用多少. Only a clear topic is used;
        otherwise the query is searched as it is (the attribute itself is specific enough)."""
        cands = self.mt.rank(d, text=orig_text, animacy="nonhuman")
        good = merge_nested(
            [c for c in cands if salient(c, self.salient_kinds) and c.score >= self.min_score],
            self.margin,
            attributes=self.mt.attribute_words,
            own_names=self.mt.own_names,
            versions=self.mt.version_suffix,
        )
        if not good and not state.history:
            return ask(
                state,
                "coreference",
                ref.source,
                question=f"请问您问的是哪个项目的{ref.noun}？",
                missing=("referent",),
                note=f"{ref.text}{ref.noun}: whose {ref.noun}, with no history",
            )
        if not good or ambiguous(good, d):
            # 感觉你本人很热情活泼呢 / … / 还挺喜欢这种性格的: no one clear owner, the attribute stays
            why = "two owners" if good else "no salient owner"
            return state.note(
                "coreference", ref.source, f"{ref.text}{ref.noun}: {why} in the dialogue; left"
            )
        best = good[0]
        text = state.standalone
        de = "" if best.mention.text.endswith("的") else "的"
        if ref.source in self.no_attr_de:
            de = ""  # 那边交通怎么样 -> 广州交通怎么样
        new = text[: ref.start] + best.mention.text + de + text[ref.end :]
        return resolved(
            state,
            "coreference",
            ref.source,
            new,
            best.mention,
            slot="referent",
            note=f"{ref.text}{ref.noun} -> {best.mention.text}的{ref.noun} ({best.why})",
            confidence=0.75,
        )

    def _replace(self, state: State, ref: Ref, best: Candidate, end: int) -> State:
        text = state.standalone
        m = best.mention
        if not ref.noun and self._kind_frame(text, ref) is not None:
            tail = (
                self.title.whole_tail.search(m.text) if self.title.whole_tail is not None else None
            )
            cut = m.text[: tail.start()] if tail is not None else m.text
            if cut in self.kind.genres:
                return state  # 科幻小说 / 这是一本小说吗: a genre is the kind, no title
            if long_enough(cut) and cut != m.text:
                # 七大罪动漫 / 这是动漫吗: the kind said after the title is no part of it
                m = replace(m, text=cut, head=cut, end=m.start + len(cut))
        start = ref.start
        # 拳击手 卡内洛 / … / 他是一名拳击手: the query says the modifier, the name goes in alone
        said = (
            self._called_head(state, m)
            or self._owner_of_person(ref, m)
            or unmodified(m.text, state.query)
        )
        if (
            ref.noun
            and self.title.sign_suffix
            and "zodiac" in self.mt.category_types.get(ref.noun, ())
        ):
            stem = next((s for s in self.title.signs if said.startswith(s)), "")
            sign = stem + self.title.sign_suffix
            if (
                stem
                and not said.startswith(sign)
                and (
                    said[len(stem) :] in self.title.sign_people
                    or any(sign in t.content for t in state.history)
                )
            ):
                said = sign  # 处女 (处女座 said before) / 天蝎男 -> 处女座 / 天蝎座 (这个星座)
        if ref.animacy != "human" and not ref.noun and said == m.text:
            # 没有那个不好集 (李宗盛 / 李宗盛的作品集齐了吗): a person's thing, when only a
            # thing fits what the query says of it (not 这个动漫: its noun says what it is)
            said = thing_of_person(
                self.mt.dialogue(state),
                m,
                text,
                things=self.thing_predicates,
                told=self.told_predicates,
            )
        if ref.animacy == "human" and said == m.text and self.pointed_before is not None:
            # 我喜欢那个女孩 / … / 可是她不太答应我 -> 可是那个女孩不太答应我
            said = said_before(self.mt.dialogue(state), m, said, self.pointed_before) + said
        if (
            ref.animacy == "human"
            and m.role in ("user", "assistant")
            and m.etype in ("person", "human")
            and not m.text.startswith(self.mt.analyzer.surnames)  # 我吴世勋: a fan's name
        ):
            # 我老公太让我伤心了 / … / 他老是玩手机: the user's own person keeps the user's 我
            # (我老公老是玩手机), as the user said it; the assistant's 你同桌 is the user's
            # 我同桌 when the user called the person theirs (我同桌 / 你同桌好帅 / 她是女生 ->
            # 我同桌是女生; 老公最厉害 / 你老公真厉害 / 他出轨 -> 老公出轨)
            said = user_owner(state, m.text, said_turn(state, m), m.start) + said
        # 马化腾女儿叫什么 / … / 他女儿叫什么, 它的作用是什么: an antecedent that ends with what
        # follows the reference gives its owner, the query's own words stay (马化腾女儿, not
        # 马化腾女儿女儿)
        # (这个座的人 / 狮子座: after a demonstrative with its measure one character will do)
        if self._describes(text, ref, m):
            # 唱小幸运的那个 -> 田馥甄是唱小幸运的那个: the description stays, the person leads
            dv = self.described
            lead = "" if text.startswith(dv.openers) else dv.copula
            return resolved(
                state,
                "coreference",
                dv.source,
                said + lead + text,
                m,
                slot="referent",
                note=f"{ref.text} -> {said} ({best.why}; the one the description says)",
                confidence=0.85 if _strong(best) else 0.7,
            )
        least = 1 if text[start:end] in self.overlap_one else self.overlap_min
        # 他 人缘 (a space after the reference): the words after the space are what it says
        after = text[end:].lstrip(" ")
        k = min(len(said) - self.overlap_min, len(after))
        while k >= least and not said.endswith(after[:k]):
            k -= 1
        if k >= least:
            said = said[:-k]
        new = text[:start] + said + text[end:]
        return resolved(
            state,
            "coreference",
            ref.source,
            new,
            m,
            slot="referent",
            note=f"{text[start:end]} -> {said} ({best.why})",
            confidence=0.85 if _strong(best) else 0.7,
        )


# a possessive the user said right before a person word (我老公 / 我的同学 / 我们班主任 / 你姐姐)
_OF_THE_KIND = frozenset({"kind"})
_NEVER = re.compile("(?!)")
_CLAUSE_SPLIT = re.compile(r"[，,。！!～~\s]+")  # the clauses of a turn
# demonstratives and 它 that may point at what the assistant just named (not 该 / 那里 / 他)
# a bare demonstrative (这个 / 那 …), and with 它 what may point at the thing just named
_BARE_DEMONSTRATIVES = frozenset({"这个", "这", "那个", "那"})
_BARE_THIS = _BARE_DEMONSTRATIVES | {"它"}
_TOPICS = frozenset({"topic", "repeated"})


_PERSON_PRONOUN = re.compile("[他她]")
_DEMONSTRATIVE = re.compile("[这那该此]")
_MEASURES = "一这那个首部本只条款件台辆家位"  # stripped off a phrase before the category test
_WHO = re.compile("谁|哪位")
_CJK = re.compile("[\u4e00-\u9fff]")
_SPEAKER_CHAR = re.compile("[你我您咱]")
_SPEAKERISH = re.compile("[你我他她它您咱这那什啥谁]")  # 叫你 / 叫什么: no name said
_LATIN = re.compile(
    r"[A-Za-z][A-Za-z .'-]*"
)  # yoyo / Miley Cyrus: may name a person  # 这乐器的声音: a phrase pointing elsewhere itself  # 他请我吃火锅: the person goes on across turns


def _user_subject_name(c: Candidate, recent: set[int]) -> bool:
    """A name (etype ``person``) that is the subject of the user's last turn (``recent``).
    Why: a person word the query says before its pronoun (央视主持人 / 外国友人) describes
    the one the user was talking about rather than a new person. Example: 崔永元不是…好朋友吗 /
    是么 / 我最喜欢的央视主持人了希望他好起来 -> 希望崔永元好起来."""
    m = c.mention
    return m.turn in recent and m.etype == "person" and m.gram in ("subj", "topic")


def _strong(c: Candidate) -> bool:
    return c.mention.protected or c.mention.etype in NAMED
