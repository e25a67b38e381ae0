"""ellipsis: the missing topic, object or slot of a follow-up put back from the last turns."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Any, NamedTuple

from rulerewrite.context import (
    _VERB_MEASURE,
    UNKNOWN_TYPES,
    Dialogue,
    Mention,
    Turn,
    TurnInfo,
    new_mention,
    said_mention,
)
from rulerewrite.lexicon import Lexicon, Rule
from rulerewrite.lexicon.readers import (
    rule_alternation,
    rule_match,
    rule_pattern,
    rule_regex,
    rule_tuple,
    rule_words,
)
from rulerewrite.modes.base import State, mode
from rulerewrite.modes.multiturn import (
    _POTENTIAL_MARKS,
    ANSWER_KINDS,
    BY_USER,
    HUMAN_TYPES,
    NAMED_TYPES,
    PERSON_PRONOUNS,
    RECIPIENTS,
    Candidate,
    MultiTurn,
    RuleView,
    ask,
    is_question,
    key,
    last_exchange,
    merge_nested,
    names_a_thing,
    new_candidate,
    outermost,
    owner_mention,
    phrase_len,
    resolved,
    said_before,
    said_turn,
    salient,
    unmodified,
    unpunctuated,
    user_owner,
)
from rulerewrite.text.builtin_parser import CONJ_WORDS, QUESTION_WORDS, is_question_word, kind_of
from rulerewrite.text.parse import Parse, Token

# the assistant's 你 is the user's 我 when an answer repeats a question; the assistant's own 我 is dropped
_PERSPECTIVE = str.maketrans({"你": "我", "我": "", "您": "我"})

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


@mode("ellipsis")
class Ellipsis:
    """What: decide whether a follow-up stands alone (subject, predicate, object) and, when it
    does not, put the missing piece where it belongs:
    - missing subject/topic (保修多久, 需要多少钱, 性能怎么样): the most salient entity of the
      last turns goes first (Galaxy S24 Ultra保修多久);
    - a verb left without its object (你要看吗): the object goes after the verb;
    - a bare ``X呢`` (一等座呢, 广州呢, 明天呢): the previous user question is reused with X in
      the slot of the same type (广州 replaces 深圳), or next to its topic when no slot matches;
    - an answer to the assistant's question: a bare 为什么 asks why its statement holds, a short
      yes/no answer takes the rest of a yes/no question (您用过kubectl吗 / 用过 -> 用过kubectl),
      a short noun answer fills a wh-question's slot (住在哪个区 / 鼓楼 -> 住在鼓楼区), all seen
      from the user's side (您的订单 -> 我的订单).
    A complete query is left alone even when the history has entities; a key entity missing
    with no history at all (保修多久 as a first message) makes the engine ask the user.
    Why: retrieval needs the topic in the query; old topics must not leak into new questions.
    Example: (深圳的落户条件是什么 / ...) 广州呢 -> 广州的落户条件是什么
    """

    def __init__(self, lexicon: Lexicon, config: Any) -> None:
        self.mt = MultiTurn(lexicon, config)
        # the word lists of rules/completeness_words.yaml (ellipsis_words), what each is for there
        words = lexicon.rule("completeness", "ellipsis_words")
        self.final_particles = rule_words(words, "final_particles")
        self.how_degree = rule_words(words, "how_degree")
        self.work_counts = rule_words(words, "work_counts")
        self.pointing = rule_tuple(words, "pointing")
        self.which_of = rule_words(words, "which_of")
        self.potential = rule_words(words, "potential")
        self.going = rule_tuple(words, "going")
        self.where = rule_words(words, "where")
        self.into = rule_words(words, "into")
        self.copulas = rule_tuple(words, "copulas")
        self.from_where = rule_words(words, "from_where")
        self.seems = rule_words(words, "seems")
        self.le_asks = rule_words(words, "le_asks")
        self.judging_adverbs = rule_words(words, "judging_adverbs")
        self.offer_verb = rule_alternation(words, "offer_verbs")
        self.measures = rule_words(words, "measures")
        self.own = rule_words(words, "own")
        self.question_tail = rule_alternation(words, "question_tails", ending=True)
        self.not_judged_subject = rule_alternation(words, "not_judged_subject")
        type_names = (words.get("type_names") if words is not None else None) or {}
        self.type_names = {str(k): str(v) for k, v in type_names.items()}
        self.identity_question = rule_pattern(words, "identity_question") or re.compile("(?!)")
        # the patterns over words of rules/completeness_words.yaml (ellipsis_patterns)
        pats = lexicon.rule("completeness", "ellipsis_patterns")
        never = re.compile("(?!)")
        self.ne_shape = rule_pattern(pats, "ne_shape") or never
        self.personal = rule_pattern(pats, "personal") or never
        self.speakers = rule_pattern(pats, "speakers") or never
        self.says_nothing = rule_pattern(pats, "says_nothing") or never
        self.interjection = rule_pattern(pats, "interjection") or never
        self.evaluation = rule_pattern(pats, "evaluation") or never
        self.judged_end = rule_pattern(pats, "judged_end") or never
        self.says_end = rule_pattern(pats, "says_end") or never
        self.offer_end = rule_pattern(pats, "offer_end") or never
        self.offer_clause = rule_pattern(pats, "offer_clause") or never
        self.how = rule_pattern(pats, "how") or never
        self.how_said = rule_pattern(pats, "how_said") or never
        self.taste = rule_pattern(pats, "taste")
        self.kind_comment = rule_pattern(pats, "kind_comment")
        self.possessor = rule_pattern(pats, "possessor") or never
        self.yes_no = rule_pattern(pats, "yes_no") or never
        self.final_mood = rule_pattern(pats, "final_mood") or never
        self.negated_end = rule_pattern(pats, "negated_end") or never
        self.number = rule_pattern(pats, "number") or never
        self.copula_asked = rule_pattern(pats, "copula_asked") or never
        self.patient_modal = rule_pattern(pats, "patient_modal") or never
        self.count_object = rule_pattern(pats, "count_object") or never
        self.where_object = rule_pattern(pats, "where_object") or never
        self.give_to_do = rule_pattern(pats, "give_to_do") or never
        self.done_asked = rule_pattern(pats, "done_asked") or never
        self.none_had = rule_pattern(pats, "none_had") or never
        self.go_end = rule_pattern(pats, "go_end") or never
        self.like_end = rule_pattern(pats, "like_end") or never
        self.lack_to_do = rule_pattern(pats, "lack_to_do") or never
        self.owned_object = rule_pattern(pats, "owned_object") or never
        self.lead = tuple(sorted(self.mt.wordset("lead_words"), key=len, reverse=True))
        lead_rule = lexicon.rule("completeness", "lead_words")
        self.predicate_leads = rule_words(lead_rule, "predicate_leads")
        self.predicate_before = rule_pattern(lead_rule, "predicate_before")
        self.topic_before = rule_tuple(lead_rule, "topic_before")
        self.frame = self.mt.patterns.get("speaker_frames", (None, ""))[0]
        self.ack = self.mt.patterns.get("ack_openers", (None, ""))[0]
        self.contained = self.mt.patterns.get("self_contained", (None, ""))[0]
        self.where_get = self.mt.patterns.get("where_get", (None, ""))[0]
        self.where_offers = rule_words(lexicon.rule("completeness", "where_get"), "offer_verbs")
        self.tell_me = self.mt.patterns.get("tell_me", (None, ""))[0]
        self.send_me = self.mt.patterns.get("send_me", (None, ""))[0]
        self.send_rule = lexicon.rule("completeness", "send_me")
        self.send_had = rule_pattern(self.send_rule, "had")
        self.kind_de = self.mt.patterns.get("kind_de", (None, ""))[0]
        self.teach_rule = lexicon.rule("completeness", "teach_what")
        self.teach_asked = rule_pattern(self.teach_rule, "asked")
        self.teach_unable = rule_pattern(self.teach_rule, "unable")
        self.teach_drop = tuple(
            str(v) for v in ((self.teach_rule.get("drop_verbs") or ()) if self.teach_rule else ())
        )
        self.work_roles = rule_words(lexicon.rule("coreference", "owner_of_role"), "roles")
        self.title_kinds = tuple(
            sorted(rule_words(lexicon.rule("completeness", "kind_before_title"), "kinds"), key=len)
        )[::-1]
        timed = lexicon.rule("completeness", "timed_topic")
        self.timed_before = rule_pattern(timed, "before")
        self.timed_own = rule_pattern(timed, "own_time")
        illness = lexicon.rule("completeness", "illness_had")
        self.illness_had = rule_pattern(illness, "had")
        self.illness_treat = rule_pattern(illness, "treat")
        self.effect_rule = lexicon.rule("completeness", "eaten_effect")
        self.effect_eaten = rule_pattern(self.effect_rule, "eaten")
        where_to = lexicon.rule("completeness", "where_to")
        self.where_to_rule = where_to
        self.where_to_re = where_to.pattern if where_to is not None else None
        self.activities = tuple(
            sorted((str(w) for w in (where_to.get("activities") or ())), key=len, reverse=True)
            if where_to
            else ()
        )
        self.activity_objects = frozenset(
            str(w) for w in ((where_to.get("take_object") or ()) if where_to else ())
        )
        self.measure_re = self.mt.patterns.get("measured_verbs", (None, ""))[0]
        self.measured_verbs = self.mt.wordset("measured_verbs")
        self.counted = self.mt.patterns.get("counted_object", (None, ""))[0]
        vo_missing = lexicon.rule("completeness", "missing_object")
        self.verb_after_gap = int((vo_missing.get("verb_after_gap") if vo_missing else 0) or 0)
        self.verb_after_not = rule_words(vo_missing, "verb_after_not")
        self.result_complements = rule_words(vo_missing, "result_complements")
        counted_rule = lexicon.rule("completeness", "counted_object")
        self.counted_agree = rule_pattern(counted_rule, "agree")
        self.count_wants = rule_words(counted_rule, "wants")
        self.count_lacks = rule_words(counted_rule, "lacks")
        owner = lexicon.rule("completeness", "owner_de")
        self.owner_classes = frozenset(owner.get("classes") or ()) if owner else frozenset()
        self.owner_verbal = frozenset(owner.get("verbal_tags") or ()) if owner else frozenset()
        self.owner_words = int((owner.get("max_words") if owner else 0) or 0)
        copula = lexicon.rule("completeness", "copula_echo")
        self.copula_rule = copula
        self.copula_query = copula.pattern if copula is not None else None
        self.copula_counts = rule_words(copula, "counts")
        self.copula_back = int((copula.get("max_back") if copula else 0) or 2)
        self.copula_drop_end = rule_pattern(copula, "drop_end", ending=True)
        self.media = self.mt.patterns.get("media_owner", (None, ""))[0]
        media_rule = lexicon.rule("completeness", "media_owner")
        self.media_asked = rule_words(media_rule, "asked")
        self.similar = self.mt.patterns.get("similar_to", (None, ""))[0]
        self.owned_head = self.mt.patterns.get("owned_head", (None, ""))[0]
        self.owned_said_owners = rule_words(
            lexicon.rule("completeness", "owned_head"), "said_owners"
        )
        self.how_object = self.mt.patterns.get("how_object", (None, ""))[0]
        self.dangling = self.mt.wordset("dangling_verbs")
        dangling = lexicon.rule("completeness", "dangling_verbs")
        self.no_place = tuple((dangling.get("no_place") or ()) if dangling else ())
        self.echo_moods = self.mt.echo_moods
        self.aspects = frozenset((dangling.get("aspects") or ()) if dangling else ())
        self.negations = frozenset((dangling.get("negations") or ()) if dangling else ())
        self.negated = tuple(sorted(self.negations, key=len, reverse=True))  # 没有 before 没
        self.answer_verbs = frozenset((dangling.get("answer_verbs") or ()) if dangling else ())
        self.together = frozenset((dangling.get("together") or ()) if dangling else ())
        self.verb_leads = frozenset((dangling.get("verb_leads") or ()) if dangling else ())
        self.give_verbs = self.mt.wordset("give_verbs")
        # what makes a phrase before the query's own predicate no subject of it (有X好玩吗)
        same = lexicon.rule("completeness", "same_predicate_subject")
        self.same_predicate_not_after = rule_tuple(same, "not_after")
        self.same_predicate_not_types = rule_words(same, "not_types")
        self.same_predicate_not_end = rule_tuple(same, "not_end")
        self.same_predicate_not_verbs = rule_words(same, "not_verbs")
        self.modals = self.mt.wordset("modal_verbs")
        continued = lexicon.rule("completeness", "continued_predicate")
        self.continued_not = rule_words(continued, "not_verbs")
        self.continued_degrees = frozenset("".join(rule_words(continued, "degree_prefixes")))
        self.purpose_verbs = self.mt.wordset("purpose_verbs")
        self.left_object_next = self.mt.wordset("left_object_next")
        self.complete_verbs = self.mt.wordset("complete_predicates")
        self.human_predicates = self.mt.wordset("human_predicates")
        phrases = lexicon.rule("completeness", "set_phrases")
        self.set_phrase_tags = frozenset(phrases.get("tags") or ()) if phrases else frozenset()
        self.set_phrase_len = int(phrases.get("min_len") or 4) if phrases else 4
        self.attributes = self.mt.wordset("attribute_nouns") | frozenset(
            w for _t, ws, _s in self.mt.type_hints for w in ws
        )
        self.attribute_nouns = self.mt.wordset("attribute_nouns")
        self.which_members = self.mt.wordset("which_member")
        self.which_attributes = self.mt.wordset("which_attribute")
        self.max_len = 24
        self.short_len = int(self.mt.values.get("short_len", 8))
        self.max_back = int(self.mt.values.get("max_back", 1))
        self.openers = self.mt.wordset("openers")
        self.ask_words = self.mt.wordset("ask_attributes")
        self.ask_type = str(self.mt.values.get("ask_type", "product"))
        hint_words = sorted({w for _t, ws, _s in self.mt.type_hints for w in ws}, key=len)
        self.hint_re = re.compile("|".join(re.escape(w) for w in reversed(hint_words)) or "$^")
        self.min_score = float(self.mt.values.get("min_score", 4.0))
        self.margin = float(self.mt.values.get("margin", 1.0))
        self.salient_kinds = frozenset(self.mt.values.get("salient", ["topic", "entity"]))
        # a question without its topic (好看吗 / 多少钱) may take a less marked antecedent: a
        # phrase both speakers said, or a name; a statement keeps to ``salient``
        self.min_score_question = float(self.mt.values.get("min_score_question", self.min_score))
        self.why_words = self.mt.wordset("bare_why")
        polite = sorted(
            {e.text for e in lexicon.entries_of("fw:polite")}
            | {e.text for e in lexicon.entries_of("fw:filler")},
            key=len,
            reverse=True,
        )
        self.openers_re = re.compile(
            "^(?:(?:" + "|".join(re.escape(w) for w in polite) + r")[,，、\s]*)+"
            if polite
            else "^$"
        )
        self.why_max = int(self.mt.values.get("why_max", 16))
        self.answer_max = int(self.mt.values.get("answer_max", 12))
        # who a yes/no question may address by a word of address (answer_reply addressees)
        self.answer_addressees = frozenset(
            rule_tuple(lexicon.rule("completeness", "answer_reply"), "addressees")
        )
        # what opens and ends the words before the answered verb and is no part of the
        # question's subject (answer_reply subject_open / subject_end)
        reply_rule = lexicon.rule("completeness", "answer_reply")
        self.answer_subject_open = rule_words(reply_rule, "subject_open")
        self.answer_subject_end = rule_words(reply_rule, "subject_end")
        # a tentative verb the question ends with (去医院看看吗 / 有啊 -> 有去医院啊)
        self.answer_tentative = rule_tuple(
            lexicon.rule("completeness", "answer_reply"), "tentative_end"
        )
        # a need asked with no subject after the user told their trouble (answer_reply
        # need_asked / trouble_end / trouble_max)
        self.answer_need = rule_words(reply_rule, "need_asked")
        self.answer_trouble_end = rule_pattern(reply_rule, "trouble_end")
        self.answer_trouble_max = int((reply_rule.get("trouble_max") if reply_rule else 0) or 0)
        # a clause of its own after the answered verb (有这个倾向你结婚了吗: answer_reply)
        self.answer_clause_rest = rule_pattern(reply_rule, "clause_rest")
        # a request asked as a question (能不能像我这样严肃点): no question answered
        self.answer_request = rule_pattern(reply_rule, "request")
        self.object_verbs = self.mt.wordset("answer_object_verbs")
        self.wh_rule = lexicon.rule("completeness", "answer_wh")
        # the longest modifier answer that fills a wh-question (answer_wh ``modifier_max``)
        self.wh_modifier_max = int((self.wh_rule.get("modifier_max") if self.wh_rule else 0) or 0)
        self.wh_echo_max = int((self.wh_rule.get("echo_max") if self.wh_rule else 0) or 0)
        self.wh_echo_question_max = int(
            (self.wh_rule.get("echo_question_max") if self.wh_rule else 0) or 0
        )
        self.wh_lead = re.compile(
            str(self.wh_rule.get("drop_lead") or "^(?:那你|那|你)(?![家的们])")
            if self.wh_rule is not None
            else "^$"
        )
        self.wh_end = rule_pattern(self.wh_rule, "drop_end")
        # 你知道江苏省会在哪里吗 / 南京: the wh-question inside a do-you-know frame
        self.wh_knows = rule_pattern(self.wh_rule, "knows_frame")
        # what a verb ending the wh-question may take from the user's turn (answer_wh)
        self.wh_object_types = rule_words(self.wh_rule, "object_types")
        self.wh_names = rule_pattern(self.wh_rule, "names")
        kinds_end = (self.wh_rule.get("named_kinds") if self.wh_rule else None) or {}
        self.wh_named_kinds = {str(k): str(v) for k, v in kinds_end.items()}
        # kinds a bare name answering V什么N is the make of (手机: 华为 -> 华为手机)
        self.wh_make_kinds = rule_words(self.wh_rule, "make_kinds")
        self.wh_times = rule_pattern(self.wh_rule, "times")
        self.wh_many = rule_pattern(self.wh_rule, "many")
        kinds = self.wh_rule.get("kind_after") if self.wh_rule is not None else None
        self.wh_kinds = frozenset(str(k) for k in kinds or ())
        self.identity_rule = lexicon.rule("completeness", "answer_identity")
        eat = lexicon.rule("context", "topic_eat")  # 想喝龙井茶: a food, not a topic of identity
        self.eat_source = eat.source if eat is not None else None
        heads = (self.identity_rule.get("heads") or ()) if self.identity_rule else ()
        self.identity_by = rule_pattern(self.identity_rule, "by")
        self.identity_unknown = rule_pattern(self.identity_rule, "unknown")
        self.identity_defines = rule_pattern(self.identity_rule, "defines")
        self.identity_asked_back = rule_pattern(self.identity_rule, "asked_back")
        self.identity_own = rule_pattern(self.identity_rule, "own")
        self.identity_heads = tuple(sorted((str(h) for h in heads), key=len, reverse=True))
        # bare replies to the assistant's last turn (是的 / 可以 / 我也是 / 没有): each rule's
        # pattern, what it drops from the front and the end of that turn
        self.judged_rule = lexicon.rule("completeness", "judged_object")
        self.judged_site = rule_pattern(self.judged_rule, "site")
        verbs = (self.judged_rule.get("verbs") if self.judged_rule is not None else None) or {}
        self.judged_verbs = {str(k): frozenset(str(v) for v in vs) for k, vs in verbs.items()}
        self.reply_rules = [
            (
                r,
                re.compile(str(r.get("drop_lead") or "^$")),
                re.compile(str(r.get("drop_end") or "$^")),
            )
            for rid in ("answer_confirm", "answer_agree", "answer_echo", "answer_negated")
            if (r := lexicon.rule("completeness", rid)) is not None and r.pattern is not None
        ]
        # the assistant's knowing the thing before a kind it denies (answer_confirm ``kind_lead``)
        self.kind_lead = rule_pattern(lexicon.rule("completeness", "answer_confirm"), "kind_lead")
        # a proposal with its own subject before its modal (answer_agree ``modal_subject``)
        self.reply_modal = {
            r.id: pat for r, _, _ in self.reply_rules if (pat := rule_pattern(r, "modal_subject"))
        }
        self.opinion_rule = lexicon.rule("completeness", "answer_opinion")
        self.opinion_question = rule_pattern(self.opinion_rule, "question")
        self.opinion_bare = rule_pattern(self.opinion_rule, "bare_question")
        self.opinion_ailment = rule_pattern(self.opinion_rule, "ailment")
        self.offer_rule = lexicon.rule("completeness", "offered")
        # a what-question for a thing the last exchange said the topic has (missing_subject
        # ``had_what`` / ``had_by``): 有 joins the topic and the question
        subject_rule = lexicon.rule("completeness", "missing_subject")
        self.had_what = rule_pattern(subject_rule, "had_what")
        self.had_by = rule_pattern(subject_rule, "had_by")
        self.where_what = rule_pattern(subject_rule, "where_what")
        self.kind_what = rule_pattern(subject_rule, "kind_what")
        self.kind_by = rule_pattern(subject_rule, "kind_by")
        self.owned_relations = rule_words(subject_rule, "owned_relations")
        self.asked_of = rule_pattern(subject_rule, "asked_of")
        self.relation_asked = rule_pattern(subject_rule, "relation_asked")
        # 你老婆 + what the assistant says of her (你老婆不喜欢你了), the longest relation first
        self.relation_said = (
            re.compile(
                "你的?(?P<n>"
                + "|".join(map(re.escape, sorted(self.owned_relations, key=len, reverse=True)))
                + ")"
            )
            if self.owned_relations
            else None
        )
        self.relation_not = rule_pattern(subject_rule, "relation_not")
        self.kind_answered_rule = lexicon.rule("completeness", "kind_answered")
        self.kind_not_asked = rule_pattern(self.kind_answered_rule, "not_asked")
        self.kind_not_reply = rule_pattern(self.kind_answered_rule, "not_reply")
        self.kind_not_query = rule_pattern(self.kind_answered_rule, "not_query")
        self.offered_len = int((self.offer_rule.get("max_query") if self.offer_rule else 0) or 0)
        # the reply's own turn to a new thing at its end (那财付通吧 / 但是我知道酸奶)
        self.counter_rule = lexicon.rule("completeness", "counter_offer")
        self.counter_len = int(
            (self.counter_rule.get("max_query") if self.counter_rule else 0) or 0
        )
        judged = lexicon.rule("completeness", "judged_reply")
        self.judged_reply_len = int((judged.get("max_reply") if judged else 0) or 0)
        self.place_rule = lexicon.rule("completeness", "place_answered")
        self.place_question = rule_pattern(self.place_rule, "question")
        self.place_reply = rule_pattern(self.place_rule, "reply")
        self.place_not = rule_pattern(self.place_rule, "not_place")
        self.place_end = rule_pattern(self.place_rule, "drop_end")
        self.place_question_max = int(
            (self.place_rule.get("max_question") if self.place_rule else 0) or 0
        )
        self.weather_rule = lexicon.rule("completeness", "weather_followup")
        self.weather_report = rule_pattern(self.weather_rule, "report")
        self.weather_day_question = rule_pattern(self.weather_rule, "day_question")
        self.weather_own_time = rule_pattern(self.weather_rule, "own_time")
        weather = self.weather_rule
        self.weather_elsewhere = (
            tuple(str(w) for w in (weather.get("not_inside") or ())) if weather else ()
        )
        # the openers the place goes after, longest first (说对了 before 说)
        self.weather_after = tuple(
            sorted(
                (str(w) for w in (weather.get("after") or ())) if weather else (),
                key=len,
                reverse=True,
            )
        )
        # a category noun inside an offered phrase (一部电影) makes it no thing of its own
        self.kind_words = tuple(n for n in self.mt.category_nouns if len(n) >= 2)
        self.what_else = lexicon.rule("completeness", "ne_what_else")
        self.what_else_words = self.mt.wordset("ne_what_else")
        bare_ne = lexicon.rule("completeness", "bare_ne")
        self.ne_time = rule_pattern(bare_ne, "time")
        self.ne_rank = rule_pattern(bare_ne, "rank")
        self.ne_rank_end = rule_pattern(bare_ne, "rank_end")
        weather_ne = lexicon.rule("completeness", "ne_weather")
        self.ne_weather_words = tuple(sorted(self.mt.wordset("ne_weather"), key=len, reverse=True))
        self.ne_weather_how = rule_pattern(weather_ne, "how") or re.compile("$^")
        self.ne_weather_src = weather_ne.source if weather_ne is not None else "ellipsis"
        # 我喜欢周杰伦 / 谁啊 / 唱歌的: the user's statement completed (answer_stated)
        self.stated = _AnswerStated.read(lexicon.rule("completeness", "answer_stated"))
        self.who_rule = lexicon.rule("completeness", "answer_who")
        self.who_question = rule_pattern(self.who_rule, "question")
        # the question forms, in order: X和你啥关系, 你和X啥关系 (before X是什么关系 reads
        # 你和X as the subject), X是谁, 什么是X
        self.who_questions = tuple(
            p
            for key in (
                "relation",
                "relation_you_first",
                "question",
                "question_first",
                "question_yesno",
            )
            if (p := rule_pattern(self.who_rule, key)) is not None
        )
        self.who_np_max = int((self.who_rule.get("np_max") if self.who_rule else 0) or 20)
        self.who_bare_max = int((self.who_rule.get("bare_max") if self.who_rule else 0) or 0)
        # what a bare name answering an identity question never holds: a dodge (bare_not: 保密),
        # a negation or an aspect word (dangling_verbs negations / aspects)
        self.who_bare_not = rule_words(self.who_rule, "bare_not") | self.negations | self.aspects
        self.who_self = frozenset(
            str(w) for w in ((self.who_rule.get("self_answers") or ()) if self.who_rule else ())
        )
        self.unknown_rule = lexicon.rule("completeness", "answer_unknown")
        self.unknown_lead = re.compile(
            str(self.unknown_rule.get("drop_lead") or "^$") if self.unknown_rule else "^$"
        )
        self.unknown_end = rule_pattern(self.unknown_rule, "drop_end") or re.compile("(?!)")
        self.unknown_not = rule_pattern(self.unknown_rule, "not_asked")
        self.why_openers = sorted(self.mt.wordset("why_self_openers"), key=len, reverse=True)
        self.why_hedges = sorted(self.mt.wordset("why_hedges"), key=len, reverse=True)
        why_neg = lexicon.rule("completeness", "why_negated_reply")
        self.why_potential = rule_pattern(why_neg, "potential")
        self.why_hedged = rule_tuple(why_neg, "hedged")  # 不是很 / 不怎么: asked as 不
        # 人类和机器人谁聪明 / 机器人 / 为什么: why the one named is so (why_compared)
        compared = lexicon.rule("completeness", "why_compared")
        self.why_compared = compared.pattern if compared is not None else None
        self.why_compared_reply = rule_pattern(compared, "reply")
        self.statement_short = int(self.mt.values.get("statement_short", 0))
        self.judged_reply_max = int(self.mt.values.get("judged_reply_max", 0))
        self.statement_kinds = self.salient_kinds | frozenset(
            self.mt.values.get("salient_statement", [])
        )
        self.copula_kinds = frozenset(self.mt.values.get("salient_copula", []))
        self.place_topic = bool(self.mt.values.get("place_topic", False))
        left = self.mt.values.get("salient_left")
        self.left_kinds = frozenset(left) if left is not None else None
        self.question_kinds = self.salient_kinds | frozenset(
            self.mt.values.get("salient_question", [])
        )
        # a verb left without its object (我在吃 / 给你吃) is incomplete whether it asks or
        # tells: its object may take what a question's topic may take
        self.object_kinds = self.salient_kinds | frozenset(self.mt.values.get("salient_object", []))
        self.statement_any_kinds = frozenset(self.mt.values.get("salient_statement_any", []))
        # a comment on a taste (ellipsis_patterns taste) may take these, not these types
        self.taste_kinds = frozenset(self.mt.values.get("salient_taste", []))
        self.taste_not_types = frozenset(self.mt.values.get("taste_not_types", []))
        self.taste_min = float(self.mt.values.get("taste_min_score", self.min_score))
        self.kind_comment_kinds = frozenset(self.mt.values.get("salient_kind_comment", []))
        self.kind_comment_min = float(self.mt.values.get("kind_comment_min_score", self.min_score))
        # a verb left without its object after a reply that names nothing: the thing of the
        # user's own last turn (quiet_reply in the thresholds)
        quiet = self.mt.values.get("quiet_reply") or {}
        self.quiet_min = float(quiet.get("min_score", 0) or 0)
        self.quiet_not_verbs = tuple(str(v) for v in quiet.get("not_verbs") or ())
        self.show_rule = lexicon.rule("completeness", "show_one")
        self.show_asked = rule_pattern(self.show_rule, "asked")
        show = self.show_rule
        self.show_verbs = frozenset(
            "".join(str(v) for v in (show.get("verbs") or ())) if show else ""
        )
        self.work_rule = lexicon.rule("completeness", "work_attribute")
        self.work_parts = rule_words(self.work_rule, "parts")
        self.work_max = int((self.work_rule.get("max_query") if self.work_rule else 0) or 16)
        self.work_favourite = rule_pattern(self.work_rule, "favourite")
        self.work_favourite_in = rule_pattern(self.work_rule, "favourite_in")
        # 你知道飘吗 / 歌曲消愁: a title no ranking finds, said in a frame naming it a work
        wr = self.work_rule
        self.work_frames = (
            tuple(rule_regex(wr, "title_frames", f) for f in (wr.get("title_frames") or ()))
            if wr is not None
            else ()
        )
        measure = lexicon.rule("completeness", "measure_noun")
        self.measure_rule = measure
        self.measure_open = rule_pattern(measure, "open_pattern")
        kinds = (measure.get("kinds") if measure is not None else None) or {}
        # the head nouns each measure counts, the longest first (波斯猫: 猫)
        self.measure_kinds = {
            str(k): tuple(sorted((str(w) for w in ws), key=len, reverse=True))
            for k, ws in kinds.items()
        }
        self.work_inside = rule_words(self.work_rule, "inside")
        self.work_any_part = self.work_parts | self.work_inside  # a part or 里面 / 里
        self.own_rule = lexicon.rule("completeness", "own_question")
        own = self.own_rule
        self.own_negations = tuple(
            sorted((str(w) for w in ((own.get("negations") or ()) if own else ())), key=len)[::-1]
        )
        self.own_asked_pre = rule_pattern(own, "asked_pre")
        self.own_asked_end = rule_pattern(own, "asked_end")
        self.own_said_pre = rule_pattern(own, "said_pre")
        self.own_max = int((own.get("max_object") if own else 0) or 10)
        self.vo_rule = lexicon.rule("completeness", "verb_object")
        self.vo_max = self.mt.vo_max
        kinds = (self.vo_rule.get("kinds") if self.vo_rule else None) or {}
        self.vo_kinds = {str(k): tuple(str(w) for w in ws) for k, ws in kinds.items()}
        self.vo_judged = rule_pattern(self.vo_rule, "judged")
        self.vo_asked_ne = rule_pattern(self.vo_rule, "asked_ne")
        self.vo_open = rule_pattern(self.vo_rule, "open")
        self.vo_open_not_pre = rule_pattern(self.vo_rule, "open_not_pre")
        self.vo_open_lead = rule_pattern(self.vo_rule, "open_lead")
        self.vo_open_not_object = rule_pattern(self.vo_rule, "open_not_object")
        self.vo_open_de = rule_pattern(self.vo_rule, "open_de", ending=True)
        self.vo_open_de_verbs = rule_words(self.vo_rule, "open_de_verbs")
        self.vo_open_de_frame = rule_pattern(self.vo_rule, "open_de_frame")
        self.vo_open_single = rule_pattern(self.vo_rule, "open_single_end")
        self.vo_open_neg = rule_words(self.vo_rule, "open_negations")
        self.vo_means = rule_words(self.vo_rule, "means")
        self.vo_lacking = rule_words(self.vo_rule, "lacking")
        self.vo_open_glued = rule_pattern(self.vo_rule, "open_glued")
        self.vo_open_joined = rule_words(self.vo_rule, "open_joined")
        # 手语你懂么 / 你懂吗: the phrase a turn of the exchange put before the same verb
        self.vo_fronted = str((self.vo_rule.get("fronted") if self.vo_rule else None) or "")
        self.vo_fronted_end = str((self.vo_rule.get("fronted_end") if self.vo_rule else None) or "")
        # one pattern per verb set (a verb and its kinds), built once
        self._fronted_shape = lru_cache(maxsize=4096)(self._fronted_shape_uncached)
        self.vo_fronted_not = rule_pattern(self.vo_rule, "fronted_not")
        self.vo_fronted_persons = rule_words(self.vo_rule, "fronted_persons")
        self.vo_asked_le = rule_pattern(self.vo_rule, "asked_le")
        self.vo_fronted_kinds = rule_words(self.vo_rule, "fronted_kinds")
        self.vo_fronted_not_verbs = rule_words(self.vo_rule, "fronted_not_verbs")
        # 卤煮 / 我知道有个零食叫卤煮 / 你喜欢吃吗: the one phrase both turns say (shared_*)
        self.vo_shared_min = int((self.vo_rule.get("shared_min") if self.vo_rule else 0) or 0)
        self.vo_shared = self.vo_shared_min > 0
        self.vo_shared_len = int((self.vo_rule.get("shared_max_query") if self.vo_rule else 0) or 0)
        self.vo_shared_not_verbs = rule_words(self.vo_rule, "shared_not_verbs")
        self.vo_shared_not = rule_pattern(self.vo_rule, "shared_not_topic")
        self.vo_shared_not_types = rule_words(self.vo_rule, "shared_not_types")
        self.vo_shared_whole = rule_pattern(self.vo_rule, "shared_whole")
        self.vo_refused = rule_pattern(self.vo_rule, "refused")
        self.vo_refused_no_person = rule_words(self.vo_rule, "refused_no_person")
        self.vo_refused_not_verbs = rule_words(self.vo_rule, "refused_not_verbs")
        self.vo_refused_de = rule_pattern(self.vo_rule, "refused_de") or re.compile("(?!)")
        # 活着是谁写的 / 余华 / 你爱看吗: the one topic of the verb's type the user named
        # (``open_topic_types`` per verb, ``open_topic_frames`` typing the topic frames)
        tt = (self.vo_rule.get("open_topic_types") if self.vo_rule else None) or {}
        self.vo_topic_types = {str(v): frozenset(str(t) for t in ts) for v, ts in tt.items()}
        frames: dict[str, set[str]] = {}
        for fid, typ in (
            (self.vo_rule.get("open_topic_frames") if self.vo_rule else None) or {}
        ).items():
            fr = lexicon.rule("context", str(fid))
            if fr is not None:
                frames.setdefault(fr.source, set()).add(str(typ))
        self.vo_topic_frames = {s: frozenset(t) for s, t in frames.items()}
        self.vo_topic_not = rule_pattern(self.vo_rule, "open_topic_not")
        self.vo_topic_no_person = rule_words(self.vo_rule, "open_topic_no_person")
        self.vo_topic_reply = rule_words(self.vo_rule, "open_topic_reply")
        self.vo_topic_reply_not = rule_pattern(self.vo_rule, "open_topic_reply_not", ending=True)
        # 怎么做 / 喝多少: the object the same verb had in the last exchange (how_echo)
        self.he = _HowEcho.read(lexicon.rule("completeness", "how_echo"))
        self.re_echo = _ReallyEcho.read(lexicon.rule("completeness", "really_echo"))
        modal_vp = lexicon.rule("completeness", "modal_vp")
        self.mv = _ModalVp.read(modal_vp)
        carriers = (modal_vp.get("carriers") if modal_vp is not None else None) or {}
        # per modal of the query, the modals whose verb phrase it takes, each found in a turn by
        # one pattern
        self.mv_carriers = {
            str(k): tuple((str(c), re.compile(re.escape(str(c)))) for c in cs)
            for k, cs in carriers.items()
        }
        self.mv_modals = frozenset(self.mv_carriers) | {
            c for cs in self.mv_carriers.values() for c, _f in cs
        }
        self.neg_rule = lexicon.rule("completeness", "negation_echo")
        self.neg = _NegationEcho.read(self.neg_rule)
        self.judged_answer_rule = lexicon.rule("completeness", "answer_judged")
        self.ja = _AnswerJudged.read(self.judged_answer_rule)
        self.tell_rule = lexicon.rule("completeness", "tell_asked")
        self.tell = _TellAsked.read(self.tell_rule)
        self.clause = _ClauseObject.read(lexicon.rule("completeness", "clause_object"))
        # the topic frames that ask whether one knows a thing (clause_object ``known_frames``)
        known = lexicon.rule("completeness", "clause_object")
        self.known_frames = frozenset(
            fr.source
            for fid in rule_words(known, "known_frames")
            if (fr := lexicon.rule("context", fid)) is not None
        )
        self.rlo = _ReplyLeadObject.read(lexicon.rule("completeness", "reply_lead_object"))
        # 有哪些 after the user's bare noun phrase (bare_which)
        self.bare_which = lexicon.rule("completeness", "bare_which")
        self.bare_which_whole = rule_pattern(self.bare_which, "whole")
        self.bare_which_kinds = rule_words(self.bare_which, "kinds")
        # 有什么好吃的: the kind the user's last turn named (good_kind)
        self.good_kind = lexicon.rule("completeness", "good_kind")
        self.good_kind_span = rule_pattern(self.good_kind, "span")
        self.said_kind_rule = lexicon.rule("completeness", "said_kind")
        said_rule = self.said_kind_rule
        self.said_kind_bare_end = rule_pattern(said_rule, "bare_end")
        self.said_kind_min_shared = int(said_rule.get("min_shared") or 0) if said_rule else 0
        self.request_rule = lexicon.rule("completeness", "request_one")
        self.request_count = rule_pattern(self.request_rule, "count")
        self.said_again_rule = lexicon.rule("completeness", "said_again")
        again = self.said_again_rule
        self.said_again_min = int((again.get("min_len") if again else 0) or 2)
        self.said_again_lead = int((again.get("min_lead") if again else 0) or 2)
        self.said_again_not_lead = rule_pattern(again, "not_in_turn")
        self.said_again_drop = rule_pattern(again, "drop_lead")
        self.said_again_not_last = rule_words(again, "head_not_last")
        self.said_again_asking = rule_pattern(again, "asking_lead")
        # 你平时都喜欢听什么歌 / 都可以: the asked part said of "any will do" (any_will_do)
        self.any_rule = lexicon.rule("completeness", "any_will_do")
        self.any_asked = rule_pattern(self.any_rule, "asked")
        self.any_back = rule_pattern(self.any_rule, "asked_back")
        tc = self.topic_rule = lexicon.rule("completeness", "topic_comment")
        sources = (tc.get("sources") if tc else None) or {}
        self.topic_shapes = {str(k): frozenset(str(w) for w in v) for k, v in sources.items()}
        self.topic_types = rule_words(tc, "types")
        kinds = (tc.get("kinds") if tc else None) or {}
        self.topic_kinds = {str(t): tuple(str(w) for w in ws) for t, ws in kinds.items()}
        self.topic_alone = rule_words(tc, "kinds_alone")
        self.topic_any_kind = tuple(sorted({w for ws in self.topic_kinds.values() for w in ws}))
        self.topic_props = rule_words(tc, "properties") | self.attribute_nouns
        # what a reply may open with after topic的 (_opened_with_owned): a property or a relation
        self.opened_owned = self.topic_props | self.owned_relations
        self.topic_person_props = rule_words(tc, "person_properties")
        self.topic_copula = rule_pattern(tc, "copula")
        self.topic_not_cop = rule_words(tc, "not_after_copula")
        self.topic_degrees = rule_words(tc, "degrees")
        self.topic_not_deg = rule_words(tc, "not_after_degree") | self.human_predicates
        self.topic_not_pred = rule_words(tc, "not_predicate")
        self.topic_compared = rule_pattern(tc, "compared")
        self.topic_passive = rule_pattern(tc, "passive")
        self.topic_intense = rule_pattern(tc, "intensified")
        self.topic_max = int((tc.get("max_len") if tc else 0) or 24)
        self.topic_where = rule_pattern(tc, "where_asked")
        self.topic_fair = rule_pattern(tc, "fair")
        self.topic_question_max = int((tc.get("question_max") if tc else 0) or 6)
        self.topic_reply_lead = rule_pattern(tc, "reply_lead")
        self.topic_lead_rest = int((tc.get("lead_question_max") if tc else 0) or 8)
        self.topic_which = rule_pattern(tc, "which")
        self.topic_asked_back = rule_pattern(tc, "asked_back")
        self.topic_acked = rule_pattern(tc, "acked")
        self.topic_also = rule_words(tc, "also")
        self.topic_described_max = int((tc.get("described_max") if tc else 0) or 16)
        self.typed_rule = lexicon.rule("completeness", "typed_comment")
        tr = self.typed_rule
        self.typed_comments = () if tr is None else self._typed_comment_types(tr)
        # 狗狗多大了 / 2个月了: the noun phrase the assistant's question asked about (asked_comment)
        ac = self.asked_rule = lexicon.rule("completeness", "asked_comment")
        self.asked_opener = rule_pattern(ac, "opener")
        self.asked_what = rule_pattern(ac, "asked")
        self.asked_reply_kinds = rule_words(ac, "reply_kinds")
        self.asked_says_copula = rule_pattern(ac, "says_copula")
        self.asked_max = int((ac.get("max_len") if ac else 0) or 30)

    @staticmethod
    def _typed_comment_types(
        tr: Rule,
    ) -> tuple[_TypedComment, ...]:
        """The types of rule ``typed_comment`` (rules/completeness.yaml): kind, comment
        pattern, where a turn names such a thing (``said``), what it never holds (``not_in``),
        ``bare`` and the entity types that name one (``etypes``)."""
        typed = tr.get("types") or {}
        return tuple(
            _TypedComment(
                str(kind),
                rule_regex(tr, f"types.{kind}.pattern", spec["pattern"]),
                rule_regex(tr, f"types.{kind}.said", spec["said"]) if spec.get("said") else None,
                rule_regex(tr, f"types.{kind}.not_in", spec["not_in"])
                if spec.get("not_in")
                else None,
                bool(spec.get("bare")),
                frozenset(str(t) for t in spec.get("etypes") or ()),
            )
            for kind, spec in typed.items()
        )

    def applies(self, state: State) -> bool:
        if state.features.length > self.max_len * 2:
            return False
        if state.features.has_history or bool(self.ne_shape.match(state.standalone)):
            return True
        # no history: a short query asking about an attribute of an unnamed thing (保修多久)
        return state.features.length <= 10 and any(w in state.standalone for w in self.ask_words)

    def __call__(self, state: State) -> State:
        which = self._bare_which(state)
        if which is not None and which[1]:
            return which[0]  # 宫崎骏的动漫 / … / 有哪些: the whole phrase, not the name in it
        done = self._complete(state, echo_again=True)
        text = done.standalone
        if which is not None and text == state.standalone and done.decision != "ask_user":
            return which[0]
        if (
            text != state.standalone
            or done.decision == "ask_user"
            or "coreference" in state.modes
            or not state.history
            or self.mt.analyzer.is_chitchat(text)
        ):
            return done
        # nothing else completed the query: the fallbacks below, in this order
        d = self.mt.dialogue(done)
        exchange = last_exchange(done, d)
        again = (
            (self._relation_reply(done, exchange) if exchange is not None else None)
            or (self._said_again(done, exchange) if exchange is not None else None)
            or (self._own_question(done, exchange) if exchange is not None else None)
            or (self._verb_object(done, exchange) if exchange is not None else None)
            or (self._modal_vp(done, exchange) if exchange is not None else None)
            or (self._how_echo(done, exchange) if exchange is not None else None)
            or (self._how_asked(done, exchange) if exchange is not None else None)
            or (self._tell_asked(done, exchange) if exchange is not None else None)
            or (self._send_had(done, exchange) if exchange is not None else None)
            or self._work_attribute(done, d)
            or self._said_kind(done, d)
            or (self._good_kind(done, exchange) if exchange is not None else None)
            or (self._shown(done, exchange) if exchange is not None else None)
            or (self._requested(done, exchange) if exchange is not None else None)
            or (self._typed_comment(done, exchange) if exchange is not None else None)
            or (self._defined(done, exchange) if exchange is not None else None)
            or (self._topic_comment(done, d, exchange) if exchange is not None else None)
            or (self._verb_object_open(done, exchange) if exchange is not None else None)
            or (self._any_will_do(done, exchange) if exchange is not None else None)
            or (self._asked_comment(done, exchange) if exchange is not None else None)
            or self._acked_comment(done, d, exchange)
            or self._continued_predicate(done, d)
        )
        if again is None:
            # 瓦力是你谁 / 我不认识: the short reply's lead, kept aside by _complete
            return done.scratch.get(_REPLY_LEAD, done)
        return again

    def _acked_comment(
        self, state: State, d: Dialogue, exchange: tuple[TurnInfo, TurnInfo] | None
    ) -> State | None:
        """A comment on the user's own topic after the assistant only acknowledged it
        (rules/completeness.yaml topic_comment ``acked``: 王俊凯最帅 / 嗯 / 好帅 -> 王俊凯好帅;
        这家店的牛排很嫩 / 对 / 酱汁也好): the window drops the bare 嗯 as chit-chat, so the
        exchange is the user's turn and that reply, read by ``_topic_comment`` with the shapes
        an evaluation takes only (``sources.acked``). Why: an acknowledgement adds no topic of
        its own, and a follow-up that only evaluates goes on about what the user raised."""
        if exchange is not None or self.topic_acked is None or len(d.turns) < 1:
            return None
        last, told = state.history[-1], d.turns[-1]
        if (
            last.role != "assistant"
            or told.turn.role != "user"
            or told.turn.index != last.index - 1
            or not self.topic_acked.match(last.content.strip())
        ):
            return None
        return self._topic_comment(state, d, (told, self.mt.analyzer.analyze(last)))

    def _relation_reply(self, state: State, exchange: tuple[TurnInfo, TurnInfo]) -> State | None:
        """The user's relation (missing_subject ``owned_relations``) with its owner before a
        reply that has no subject of its own, when the assistant's last turn asked about that
        relation (``relation_asked``: 那你对象呢 / 在学校 -> 我对象在学校) or said of it what
        the reply says again, 你 and 我 swapped (``relation_said``: 你老婆不喜欢你了 / 不喜欢我了
        -> 我老婆不喜欢我了). Why: the reply comments on the person asked or talked about, and
        the completeness check finds no gap in 在学校. Else None."""
        said = unpunctuated(state.standalone).strip()
        last = exchange[1].turn.content
        if not said or self.relation_not is None or self.relation_not.match(said):
            return None
        d = self.mt.dialogue(state)
        asked = self.relation_asked.match(unpunctuated(last)) if self.relation_asked else None
        rel = asked["n"] if asked is not None and asked["n"] in self.owned_relations else None
        if rel is None and self.relation_said is not None:
            echo = said.translate(_SWAP_SPEAKERS)
            rel = next(
                (
                    m["n"]
                    for m in self.relation_said.finditer(last)
                    if len(echo) >= 2 and last[m.end() :].startswith(echo[:3])
                ),
                None,
            )
        if rel is None or rel in said:
            return None
        owned = self._owned(state, d, rel)
        if owned == rel:
            return None
        text = state.standalone
        return _resolved_from(
            state,
            self.mt.sources.get("missing_subject", "ellipsis"),
            owned + text.lstrip(),
            owned,
            exchange[1],
            "relation",
            etype="human",
            slot="subject",
            note=f"a reply about {owned}, the relation the assistant's last turn talked about",
            confidence=0.6,
        )

    def _said_again(self, state: State, exchange: tuple[TurnInfo, TurnInfo]) -> State | None:
        """The end of the user's own last turn said again, when nothing else completed the
        query (rules/completeness.yaml ``said_again``): the assistant's reply missed the point,
        so the user repeats the part that matters, and the whole turn is what they mean
        (谢志尚帅不帅 / 一般吧 / 帅不帅 -> 谢志尚帅不帅; 教师资格证怎么报名 / … / 怎么报名 ->
        教师资格证怎么报名). Said after a lead asking again (``asking_lead``: 我问你 / 我是问你),
        the turn's head goes after that lead (雒鸿琛跟何蕊般配吗 / … / 我问你般配吗 -> 我问你雒鸿琛跟
        何蕊般配吗)."""
        rule = self.said_again_rule
        text = state.standalone
        if rule is None or rule.pattern is None or len(text) > self.max_len:
            return None
        told = exchange[0]
        said = rule.pattern.sub("", told.turn.content.strip())
        asking = self.said_again_asking.match(text) if self.said_again_asking else None
        opener = asking.group(0) if asking is not None else ""
        body = text.strip()[len(opener) :]
        core = rule.pattern.sub("", body)
        lead = len(said) - len(core)
        if (
            len(core) < self.said_again_min
            or lead < self.said_again_lead
            or not said.endswith(core)
            or not _CJK_OR_WORD.match(said[lead - 1])
            or (self.said_again_not_lead is not None and self.said_again_not_lead.search(said))
        ):
            return None
        head = said[:lead]
        # 七夕节应该 / 送女朋友什么礼物呢: the adverb or modal ending the head is the predicate's
        # (head_not_last), said again without it
        end = lead
        for t in reversed(told.parse.tokens):
            if t.end > end or t.start < 2:
                continue
            if t.end < end or not (
                (kind_of(t.pos, t.text) == "ADV" and len(t.text) > 1 and t.text[-1] != "是")
                or t.text in self.said_again_not_last
            ):
                break
            end = t.start
        head = said[:end]
        if self.said_again_drop is not None:
            # 我肚子好痛 / … / 好痛啊 -> 肚子好痛啊: the speaker's own 我 is no part of the topic
            head = self.said_again_drop.sub("", head, count=1) or head
        new = opener + head + body
        return _resolved_from(
            state,
            rule.source,
            new,
            said,
            told,
            "statement",
            slot="statement",
            note=f"the end of the user's last turn said again: {said!r}",
            confidence=0.6,
        )

    def _predicate_lead(self, t: Token) -> bool:
        """``t`` may come before a predicate in a clause with no subject: an adverb, a
        preposition, a negation, a modal, a degree or a question word (已经 / 在哪里 / 很)."""
        return (
            kind_of(t.pos, t.text) in ("ADV", "PREP")
            or t.text in self.negations
            or t.text in self.modals
            or t.text in self.how_degree
            or is_question_word(t.text)
        )

    def _run_starts(self, toks: list[Token]) -> list[tuple[int, int]]:
        """(offset, word index) where a shared predicate may start in ``toks``: a word's
        start, and the character after a degree the word opens with (太慢 / 好累 / 多长)."""
        out = []
        for k, t in enumerate(toks):
            out.append((t.start, k))
            if len(t.text) > 1 and t.text[0] in self.continued_degrees:
                out.append((t.start + 1, k))
        return out

    def _continued_predicate(self, state: State, d: Dialogue) -> State | None:
        """A query with no subject or topic of its own whose predicate one of the last two
        turns said of a noun phrase opening its clause, only adverbs between, takes that phrase
        first, when nothing else completed it (rules/completeness.yaml ``continued_predicate``:
        大疆上市了吗 / 对上市了 / 在哪里上市的 -> 大疆在哪里上市的; 家里人不同意 / … / 不同意我们在
        一起 -> 家里人不同意我们在一起). The predicate is the longest run of characters the query,
        from one of its words up to its first content word, shares with the turn from one of
        the turn's words. Why: the query goes on about what that turn said of the thing; the
        conversation itself pairs the predicate with its subject."""
        text = state.standalone
        if not state.history or len(text) > self.max_len:
            return None
        toks = [t for t in self.mt.parse(text).tokens if t.text.strip()]
        i = 0
        ack = self.ack.match(text) if self.ack is not None else None
        if ack is not None:
            while i < len(toks) and toks[i].end <= ack.end():
                i += 1
        if i >= len(toks):
            return None
        at = toks[i].start
        first = i
        # where the shared predicate may start: a lead word (a time: 天天) or the first other
        while i < len(toks) and (
            self._predicate_lead(toks[i]) or kind_of(toks[i].pos, toks[i].text) == "TIME"
        ):
            i += 1
        starts = [(q0, k) for q0, k in self._run_starts(toks) if first <= k <= i]
        last = state.history[-1].index
        # 对啊亏到肉里了: agreeing with the last turn, the query goes on with that turn alone
        oldest = last if ack is not None else last - 1
        for ti in reversed(d.turns):
            if ti.turn.index < oldest:
                break
            found = self._continued_in(ti, text, toks, starts)
            if found is None:
                continue
            phrase, pred = found
            if phrase in text:
                return None
            return _resolved_from(
                state,
                self.mt.sources.get("continued_predicate", "ellipsis"),
                text[:at] + phrase + text[at:],
                phrase,
                ti,
                "subj",
                slot="subject",
                note=f"the predicate {pred!r} goes on from what the turn said of {phrase!r}",
                confidence=0.6,
            )
        return None

    def _continued_in(
        self, ti: TurnInfo, text: str, toks: list[Token], starts: list[tuple[int, int]]
    ) -> tuple[str, str] | None:
        """(the noun phrase, the shared predicate) when turn ``ti`` says of a phrase opening
        its clause, adverbs between, what the query says from one of ``starts`` ((offset, word
        index) pairs of the query's words ``toks``); None otherwise."""
        said = ti.turn.content
        ptoks = [t for t in ti.parse.tokens if t.text.strip()]
        t_starts = self._run_starts(ptoks)
        ends = {t.end for t in toks}
        t_ends = {t.end for t in ptoks}
        for q0, qi in starts:
            rest = text[q0:]
            best, size, t0 = -1, 0, 0
            for p0, k in t_starts:
                n = 0
                while n < len(rest) and p0 + n < len(said) and said[p0 + n] == rest[n]:
                    n += 1
                if n > size:
                    best, size, t0 = k, n, p0
            if best < 0 or (q0 + size not in ends and t0 + size not in t_ends):
                continue
            # the run without its lead words is a content predicate (not 是 / 有 / 好 / 什么)
            inner = [t for t in toks[qi:] if t.start < q0 + size]
            while len(inner) > 1 and self._predicate_lead(inner[0]):
                inner = inner[1:]  # 不同意: the last word stays, whatever jieba tags it
            head = text[max(inner[0].start, q0) : min(inner[0].end, q0 + size)]
            if len(head) > 1 and head[-1] in self.aspects:
                head = head[:-1]
            if len(head) == 3 and head[1] in "不没" and head[0] == head[2]:
                head = head[0]  # 有没有: the verb asked both ways
            kind = kind_of(inner[0].pos, inner[0].text)
            if (
                head in self.continued_not
                or is_question_word(head)
                or head in self.negations
                or head in self.modals
                or head in self.how_degree
                or (len(head) == 1 and kind in ("ADV", "PREP"))
                or kind in ("PRON", "PART", "DE", "PUNCT")
                or (len(inner) == 1 and kind in ("NUM", "TIME") and head not in self.together)
            ):
                continue  # 在一起: jieba tags 一起 a number
            off = max(inner[0].start, q0) - q0
            th = next(
                (h for h, u in enumerate(ptoks) if u.start <= t0 + off < u.end),
                -1,
            )
            qh = toks.index(inner[0])
            if th < 0 or not self._shared_verbal(toks, qh, q0 + size, ptoks, th, t0 + size):
                continue  # 耶稣就是你的救主: a noun the query opens with is its own subject
            if (
                len(inner) > 1
                and inner[-1].end <= q0 + size
                and kind_of(inner[-1].pos, inner[-1].text) in ("NOUN", "LOC")
            ):
                continue  # 复印店的猫: the run ends with a noun, a phrase of its own
            if self._object_dropped(ti, ptoks, t0 + size, toks, q0 + size):
                continue  # 就没遇见过几个汉子 / 遇见了也…: the object is what the query lost
            phrase = self._said_of(ti, ptoks, best, t0 + size)
            if phrase is not None:
                return phrase, text[q0 : q0 + size]
        return None

    def _shared_verbal(
        self, toks: list[Token], qh: int, q_end: int, ptoks: list[Token], th: int, t_end: int
    ) -> bool:
        """The shared run, ending at ``q_end`` in the query's word ``toks[qh]`` and at
        ``t_end`` in the turn's word ``ptoks[th]``, is a predicate: a run that ends inside a
        word of the query (嫁给 / 嫁) takes that word tagged a verb or an adjective and the
        turn's whole word read as a predicate (not 小白菜 / 小鲜肉); one inside a word of the turn
        (吃 / 吃水果) a query's word tagged so, or either word read as a predicate; a run of
        whole words on both sides, either read as a predicate (:meth:`_verbal`)."""
        q_whole = toks[qh].end <= q_end
        t_whole = ptoks[th].end <= t_end
        if q_whole and t_whole:
            return self._verbal(toks, qh) or self._verbal(ptoks, th)
        if q_whole:
            # 吃 / 要吃水果 (jieba: 吃水果 a noun): the query's own verb says it
            return _verb_tagged(toks[qh]) or (_verb_tagged(ptoks[th]) and self._verbal(toks, qh))
        if t_whole:
            return _verb_tagged(toks[qh]) and self._verbal(ptoks, th)
        return False

    def _object_dropped(
        self, ti: TurnInfo, ptoks: list[Token], t_end: int, toks: list[Token], q_end: int
    ) -> bool:
        """The turn's predicate, ending at ``t_end``, takes a noun object there, and the
        query's, ending at ``q_end``, none (after their aspect particles)."""
        a = next((x for x, u in enumerate(ptoks) if u.end == t_end), -1)
        if a < 0:
            return False
        while a + 1 < len(ptoks) and ptoks[a + 1].text in self.aspects:
            a += 1
        if self.mt.noun_object(ti, ptoks, a) is None:
            return False
        rest = [t for t in toks if t.start >= q_end and t.text not in self.aspects]
        return not rest or kind_of(rest[0].pos, rest[0].text) not in ("NOUN", "PRON", "NUM")

    def _verbal(self, toks: list[Token], h: int) -> bool:
        """Word ``h`` of ``toks`` is read as a predicate: jieba tags it a verb or an
        adjective, an aspect particle follows it (上市了: jieba tags 上市 a place), or an adverb,
        a negation or a degree comes right before it (很香 / 不同意)."""
        t = toks[h]
        if _verb_tagged(t) or t.text[-1] in self.aspects:
            return True
        if h + 1 < len(toks) and toks[h + 1].text in self.aspects and toks[h + 1].start == t.end:
            return True
        if h == 0:
            return False
        u = toks[h - 1]
        return u.end == t.start and (
            # 都香 / 很香, not 不要真人版 (a verb of wanting jieba tags df) nor 最新皮肤
            (u.pos == "d" and len(u.text) == 1)
            or u.text in self.negations
            or u.text in self.how_degree
        )

    def _said_of(self, ti: TurnInfo, ptoks: list[Token], k: int, run_end: int) -> str | None:
        """The noun phrase opening its clause in turn ``ti`` that the predicate at word ``k``
        (running to ``run_end``) is said of, only adverbs, negations, modals and degrees
        between; None when there is none (不想单身了: no phrase) or it is a pronoun alone."""
        j = k - 1
        while j >= 0 and self._predicate_lead(ptoks[j]) and not is_question_word(ptoks[j].text):
            j -= 1
        if j < 0:
            return None
        said = ti.turn.content
        kinds = [kind_of(t.pos, t.text) for t in ptoks]
        # where the clause opens: after the last punctuation before the phrase, or after an
        # acknowledgement the turn opens with (好吧玥玥要吃水果)
        c0 = next((x + 1 for x in range(j, -1, -1) if kinds[x] == "PUNCT"), 0)
        ack = self.ack.match(said) if c0 == 0 and self.ack is not None else None
        ack = ack or (self.interjection.match(said) if c0 == 0 else None)  # 额没掰过
        if ack is not None and ack.end() > 0:
            c0 = next((x for x, t in enumerate(ptoks) if t.start >= ack.end()), len(ptoks))
        if c0 > j:
            return None
        s = j
        while s > c0 and (
            kinds[s - 1] in ("NOUN", "PRON", "DE")
            or ptoks[s - 1].text in CONJ_WORDS  # 我和我女朋友, not 杨幂不过这酒
            or (kinds[s - 1] == "ADJ" and kinds[s] == "NOUN")
        ):
            s -= 1
        # the engine's own phrase ending there (脱发患者: jieba tags 脱发 a verb)
        named = [
            m
            for m in ti.mentions
            if m.end == ptoks[j].end
            and m.start <= ptoks[s].start
            and not _is_pronounish(m)
            and not self.mt.is_clause(m)
        ]
        if named:
            m0 = min(named, key=lambda m: m.start)
            s = next((x for x, t in enumerate(ptoks) if t.start == m0.start), s)
        elif kinds[j] != "NOUN":
            # 多芬都香吗 (jieba: 多/芬): a turn that is only the phrase, the predicate and its
            # particles takes the phrase whatever its words' tags, no verb among them
            tail = [t for t in ptoks if t.start >= run_end]
            if any(kind_of(t.pos, t.text) not in ("AUX", "PART", "PUNCT") for t in tail[1:]) or (
                tail and len(tail[0].text) > 1 and kind_of(tail[0].pos, tail[0].text) != "AUX"
            ):
                return None
            s = c0
            if len(said[ptoks[s].start : ptoks[j].end]) < 2 or any(
                (kinds[x] not in ("NOUN", "NUM") and ptoks[x].pos != "zg")
                or is_question_word(ptoks[x].text)
                for x in range(s, j + 1)
            ):
                return None  # 找人嫁了吧 / 关到打: a verb in it, no phrase
        if s != c0:
            return None  # 停止股市交易: the phrase opens no clause
        if all(kinds[x] in ("PRON", "DE", "CONJ", "TIME", "NUM") for x in range(s, j + 1)) or any(
            is_question_word(ptoks[x].text) for x in range(s, j + 1)
        ):
            return None  # 我 / 我们 / 我今天: the speakers; 那什么时候能看: a question
        phrase = said[ptoks[s].start : ptoks[j].end]
        if ti.turn.role != "user" and self.personal.search(phrase):
            return None
        return phrase

    def _any_will_do(self, state: State, exchange: tuple[TurnInfo, TurnInfo]) -> State | None:
        """A bare "any will do" (都可以 / 都行) answering the wh-question of the last exchange,
        when nothing else completed the query (rules/completeness.yaml ``any_will_do``): the
        asked part, from its question word on, goes first (你平时都喜欢听什么歌呀 / 都可以 ->
        什么歌都可以); a question word ending the question takes its verb (你想吃什么 / 你呢 /
        都可以 -> 吃什么都可以: the assistant asking back makes the user's question the one
        answered). Why: "any" is any of what was asked for, and the bare reply names none."""
        rule = self.any_rule
        text = state.standalone.strip()
        if rule is None or rule.pattern is None or self.any_asked is None:
            return None
        if not rule.pattern.match(text):
            return None
        told, last = exchange
        back = self.any_back is not None and self.any_back.match(unpunctuated(last.turn.content))
        ti = told if back else last
        m = self.any_asked.search(unpunctuated(ti.turn.content))
        if m is None:
            return None
        asked = ("" if m["rest"] else m["v"] or "") + m["q"] + m["rest"]
        return _resolved_from(
            state,
            rule.source,
            asked + text,
            asked,
            ti,
            "statement",
            slot="statement",
            note=f"{text!r} answers what was asked: {asked!r}",
            confidence=0.6,
        )

    def _typed_comment(self, state: State, exchange: tuple[TurnInfo, TurnInfo]) -> State | None:
        """A comment whose predicate suits one kind of thing only, said of the one thing of
        that kind the last exchange named, when nothing else completed the query
        (rules/completeness.yaml ``typed_comment``): 我想做宫保鸡丁 / 不好吃 -> 宫保鸡丁不好吃.
        Why: 好吃 / 难喝 judge a food or a drink, so the thing the exchange offered to eat is
        its subject, and nothing else the exchange said competes with it."""
        rule = self.typed_rule
        text = state.standalone.strip()
        if rule is None or len(text) > self.topic_max:
            return None
        for kind, pattern, said, not_in, bare, etypes in self.typed_comments:
            if not pattern.match(text):
                continue
            for ti in (exchange[1], exchange[0]):
                found = self._typed_things(ti, said, not_in, bare, etypes)
                if not found:
                    continue  # the user's turn only when the reply names no such thing
                if len(found) != 1:
                    return None  # 酸奶 … 戚风蛋糕: two of them, which one is unclear
                name = found.pop()
                if name in text or (
                    ti is exchange[0] and any(name not in m.text for m in exchange[1].mentions)
                ):
                    # 吃了海鲜 / 火锅火锅: the reply names something else (两个人的火锅
                    # after 火锅啊 names the user's thing again)
                    return None
                return _topic_first(
                    state,
                    rule.source,
                    name,
                    text,
                    ti,
                    f"{kind} comment on {name!r}, the one {kind} the last exchange named",
                )
            return None
        return None

    def _typed_things(
        self,
        ti: TurnInfo,
        verb: re.Pattern[str] | None,
        not_in: re.Pattern[str] | None,
        bare: bool,
        etypes: frozenset[str],
    ) -> set[str]:
        """The things of a type a turn names: its mentions of those entity types that a
        dictionary or a topic frame typed (a person or a work; a name inside a longer one is
        the same), what follows a verb of the type ending
        a clause (喝点红糖姜茶吧), or the whole turn when it is a short noun phrase (``bare``)."""
        said = ti.turn.content
        # typed by a dictionary or a topic frame, not by jieba's tag alone (慕尼黑 is nr)
        named = {
            m.text
            for m in ti.mentions
            if m.etype in etypes
            and not m.is_set
            and m.source.startswith(("dictionaries/", "rules/"))
        }
        found = set(outermost(named))
        if verb is not None:
            for clause in _CLAUSES.split(said):
                m = verb.search(clause)
                if m is not None and (not_in is None or not not_in.search(m.group("x"))):
                    found.add(m.group("x"))
        if not found and bare:
            np = self.mt.bare_noun_phrase(said, _NOUN_PHRASE_KINDS)
            if np is not None and (not_in is None or not not_in.search(np)):
                found.add(np)
        return found

    def _topic_comment(
        self,
        state: State,
        d: Dialogue,
        exchange: tuple[TurnInfo, TurnInfo],
    ) -> State | None:
        """A comment on the one thing the last exchange was about, which it does not name,
        when nothing else completed the query (rules/completeness.yaml ``topic_comment``): the
        thing goes first (堡垒之夜玩不 / 堡垒之夜 / 腾讯游戏啊 -> 堡垒之夜是腾讯游戏啊; 你知道X吗 /
        声音太有磁性了 -> X声音太有磁性了). Why: a follow-up that only predicates (太娘了 / 就是
        一个诗人 / 味道还行) has its subject in the exchange before it, and when that exchange has
        one topic nothing else competes. Only the comment shapes the topic's source allows."""
        rule = self.topic_rule
        text = state.standalone.strip()
        said = text.rstrip("?？!！。.~ ")
        if rule is None or not said or len(said) > self.topic_max:
            return None
        if self.ack is not None and self.ack.match(said):
            return None  # 是吗我也喜欢 / 好吧: a reply to the reply, not a comment on the thing
        found = (
            self._one_topic(d, exchange)
            or self._user_lead(exchange)
            or self._user_subject(exchange)
        )
        judged = self._user_judged(exchange)
        if judged is not None and (found is None or found[0].text in judged[0].text):
            # 王老师讲课最清楚 / 嗯 / 好清楚: what the user judged holds the name, and is the topic
            found = judged
        if found is None:
            return None
        topic, source = found
        name = topic.text
        typed_both = source == "both" and any(
            m.text == name and m.source.startswith("dictionaries/") and m.etype in _PREDICATED
            for ti in exchange
            for m in ti.mentions
        )
        shapes = self.topic_shapes.get(source, frozenset())
        if self.topic_acked is not None and self.topic_acked.match(
            exchange[1].turn.content.strip()
        ):
            # after a bare acknowledgement (嗯 / 对): an evaluation of the topic too, whatever
            # source found it (also the exchange _acked_comment makes of it)
            shapes = shapes | self.topic_shapes.get("acked", frozenset())
        if not shapes or name in said:
            return None
        # 感觉好无聊的一本书: a speaker's frame (rules/completeness.yaml speaker_frames) around
        # the comment; the topic still goes first, unless the frame names its speaker (below)
        frame = self.frame.match(said) if self.frame is not None and "framed" in shapes else None
        framed = frame is not None and 0 < frame.end() < len(said)
        body = said[frame.end() :] if frame is not None and framed else said
        toks = [t for t in self.mt.parse(body).tokens if t.text.strip()]
        kinds = [kind_of(t.pos, t.text) for t in toks]
        if not toks or (
            source == "user_lead"
            and "PRON" in kinds
            and not (
                # 有时 / 咋 / 哪儿, tagged pronouns too, name no one; after a reply that names
                # no thing nor person of its own (不知道 / 对) they still ask or say of the
                # user's topic
                not any(
                    self.personal.search(t.text)
                    for t, k in zip(toks, kinds, strict=True)
                    if k == "PRON"
                )
                and not exchange[1].mentions
                and all(
                    kind_of(t.pos, t.text) not in ("NOUN", "PRON") for t in exchange[1].parse.tokens
                )
            )
        ):
            return None  # 好不害羞你: said to the hearer, not of the thing the user opened with
        props = self.topic_props
        if topic.etype in HUMAN_TYPES:
            props = props | self.topic_person_props
        if name in props or name in self.topic_person_props:
            return None  # 背影 / 脸好看吗: a property is no thing a comment is about
        attr = self.mt.attribute_of(name)
        owner, _, prop = name.rpartition("的")
        if attr:
            # 星巴克味道 / 味道还可以: the owner is what the comment is about
            name = name[: -len(attr)].removesuffix("的")
        elif prop in props and len(owner) >= 2:
            name = owner  # 南柱赫的照片 / 是模特吗
        np = body.rstrip("啊呀吧嘛呢哦哈啦")
        np_toks = [t for t in self.mt.parse(np).tokens if t.text.strip()] if np else []
        np_kinds = [kind_of(t.pos, t.text) for t in np_toks]
        bare_np = bool(np_kinds) and np_kinds[-1] == "NOUN" and set(np_kinds) <= _COMMENT_NP
        cop = self.topic_copula.match(body) if self.topic_copula is not None else None
        if framed and "framed_degree" in shapes:
            # 我觉得很有名啊: a speaker's frame makes a degree word an evaluation of the topic
            shapes = shapes | {"degree"}
        how = ""
        if (
            "copula" in shapes
            and cop is not None
            and self._copula_comment(toks, kinds, cop.end())
            # 不是安静的做一个美男子: after a name the user only opened with, a denial answers
            # the hearer, not the topic
            and not (source == "user_lead" and "不" in cop.group())
        ):
            how = "copula"  # 就是一个流浪诗人 / 不就是射击游戏
        elif (
            "degree" in shapes
            and len(toks) >= 2
            and toks[0].text in self.topic_degrees
            and kinds[1] in ("ADJ", "NOUN", "VERB")
            and toks[1].text not in self.topic_not_deg
            and not bare_np
            # 好主意 / 有点婴儿肥 after a name the user only opened with: a noun phrase of its own
            # (很危险的: an adjectival noun, tagged an, after a degree is an adjective)
            and not (source == "user_lead" and kinds[1] == "NOUN" and toks[1].pos != "an")
        ):
            how = "degree"  # 太娘了 / 挺有明星气质的名字
        elif (
            "property" in shapes
            and len(toks) >= 2
            and kinds[0] == "NOUN"
            and toks[0].text in props
            and not bare_np
        ):
            how = "property"  # 声音太有磁性了 / 味道还行
        elif (
            "kind" in shapes
            and bare_np
            and "PRON" not in np_kinds
            and np_toks[-1].text.endswith(self.topic_kinds.get(topic.etype, self.topic_any_kind))
            # 命运之夜 / 动漫: a lone kind word of a work says which version, not what it is
            and (len(np_toks) > 1 or topic.etype in self.topic_alone)
        ):
            how = "kind"  # 垃圾歌手 / 腾讯游戏啊: what the thing is
        if (
            not how
            and "passive" in shapes
            and self.topic_passive is not None
            and (by := self.topic_passive.match(body)) is not None
            # 被人偷了: the topic is what the agent did it to; 被夹了 (no agent): the speaker
            # was, and the topic is the agent
            and _agent_then_verb(toks, kinds, by.end())
        ):
            how = "passive"
        if (
            not how
            and "degree" in shapes
            and self.topic_intense is not None
            and kinds[0] in ("ADJ", "VERB")
            and self.topic_intense.match(body, toks[0].end)
        ):
            how = "degree"  # 帅死了 / 可爱极了: an evaluation with its degree after it
        if not how and "seems" in shapes and toks[0].text in self.seems and len(toks) > 1:
            how = "seems"  # 吃起来更香: how the topic seems
        if (
            not how
            and "compared" in shapes
            and topic.etype in self.topic_types  # 小时候 / 比辣条好吃: no thing compared
            and self.topic_compared is not None
            and self.topic_compared.match(body)
        ):
            how = "compared"  # 和博尔赫斯相比呢 / 比你高: the topic is what is compared
        if (
            not how
            and "predicate" in shapes
            and typed_both
            and kinds[0] in ("ADV", "VERB")
            and toks[0].text not in self.topic_not_pred
            and not self.speakers.search(body)
            and "PRON" not in kinds
            and not body.endswith("吧")
        ):
            how = "predicate"
        if (
            not how
            and "asked_back" in shapes
            and self.topic_asked_back is not None
            and self.topic_asked_back.search(exchange[1].turn.content)
            # (调理不好: a verb tagged a noun-verb, vn, is a verb all the same)
            and (kinds[0] in ("ADV", "VERB", "ADJ") or toks[0].pos == "vn")
            and toks[0].text not in self.topic_not_pred
            and not self.speakers.search(body)
            and "PRON" not in kinds
            and not body.endswith("吧")
        ):
            how = "asked_back"
        if (
            not how
            and "question" in shapes
            and is_question(exchange[0].parse)  # 姑娘要淡定 / … / 憋屈么: no question about it
            and self._bare_question(toks, kinds, body)
        ):
            how = "question"  # 宇宙多少岁了 / … / 有多大: another question about the topic
        if not how and "also" in shapes and self._also_said(toks, kinds, body):
            how = "also"  # 酱汁也好 / 也很帅: the topic (or a part of it) judged as well
        if not how and "fair" in shapes and self.topic_fair is not None:
            how = "fair" if self.topic_fair.match(body) else ""  # 还行吧: a so-so evaluation
        if (
            not how
            and ("located" in shapes or "located_any" in shapes)
            and self._located(toks, kinds, body, exchange, asked="located_any" not in shapes)
        ):
            how = "located"  # 义乌什么地方 / 在浙江省啊: where the topic is
        if not how and "described" in shapes and self._described(np_toks, np_kinds, body):
            how = "described"  # 一座来了就不想走的城市: what kind of thing the topic is
        if (
            not how
            and "which" in shapes
            and self.topic_which is not None
            and self.topic_which.match(body)
            and len(toks) > 1
            and kinds[1] == "NOUN"
        ):
            how = "which"  # 哪家酒店好: which one of the topic's parts or kinds
        if not how:
            return None
        # 我觉得蛮好的: a frame that names its speaker (ellipsis_patterns speakers) keeps the
        # topic after it, in the clause it frames (我觉得华为蛮好的); a bare 感觉 does not
        at = frame.end() if frame is not None and framed and self.speakers.match(said) else 0
        cop_word = "是" if how in ("kind", "described") and cop is None and not framed else ""
        name = self._asked_of(d, name)  # 高尔基的原名呢 / 不就是… -> 高尔基的原名不就是…
        new = text[:at] + name + cop_word + text[at:]
        return _resolved_from(
            state,
            rule.source,
            new,
            name,
            exchange[1] if name in exchange[1].turn.content else exchange[0],
            "topic",
            etype=topic.etype,
            slot="subject",
            note=f"{how} comment on {name!r}, the one topic of the last exchange ({source})",
            confidence=0.6,
        )

    def _asked_comment(self, state: State, exchange: tuple[TurnInfo, TurnInfo]) -> State | None:
        """A reply with no subject of its own to the assistant's question about the noun phrase
        the question opens with, when nothing else completed the query (rules/completeness.yaml
        ``asked_comment``): the noun phrase goes first (狗狗多大了 / 2个月了 -> 狗狗2个月了; 车钥匙呢
        / 丢了 -> 车钥匙丢了), with the question's copula before a noun phrase answering an
        identity question (浮生物语是什么 / 一本小说 -> 浮生物语是一本小说). Why: the question asked
        something of that thing, and a reply that only predicates says it of the same thing."""
        rule, opener, what = self.asked_rule, self.asked_opener, self.asked_what
        said = unpunctuated(state.standalone)
        if (
            rule is None
            or opener is None
            or what is None
            or not said
            or len(said) > self.asked_max
            or _REPLY_LEAD in state.scratch
        ):
            return None
        last = exchange[1]
        content = last.turn.content
        asked = unpunctuated(content)
        lead = opener.match(asked)
        start = len(content) - len(content.lstrip()) + (lead.end() if lead is not None else 0)
        end = len(content) - len(content.lstrip()) + len(asked)
        # the noun phrase: whole words from the opener on, what is asked of it after them
        toks = [t for t in last.parse.tokens if t.start >= start and t.end < end]
        m = next((m for t in toks if (m := what.fullmatch(content, t.end, end))), None)
        if not toks or toks[0].start != start or m is None:
            return None
        x = content[start : m.start()]
        xtoks = [t for t in toks if t.end <= m.start()]
        xkinds = [kind_of(t.pos, t.text) for t in xtoks]
        named = any(n.text == x and n.etype != "time" for n in last.mentions)
        if len(x) < 2 or not (
            named or (xkinds[-1] == "NOUN" and all(k in ("NOUN", "DE") for k in xkinds))
        ):
            return None  # 现在还疼吗 / 开到几点: no thing asked about
        if any(t.text in said for t, k in zip(xtoks, xkinds, strict=True) if k == "NOUN"):
            return None  # 小白兔在哪 / 小白兔在你头上: the reply names it itself
        if m["judge"]:
            judged = {
                kind_of(t.pos, t.text)
                for t in last.parse.tokens
                if t.start >= m.start() and t.end <= m.end("judge")
            }
            if not judged & {"VERB", "ADJ"} or not judged <= {"VERB", "ADJ", "ADV", "AUX"}:
                return None  # 表妹喜欢大叔吗 / 离你近么 / 一起么: more than a judgement of x
            if m["judge"].rstrip("了过") in self.object_verbs:
                return None  # 迪士尼去么 / 没钱: x is what the verb takes, not its subject
        bare = said.removeprefix("不").removeprefix("是")
        if bare != said and self.says_nothing.match(bare):
            return None  # 豆浆机是什么 / 是啊: a bare yes or no says nothing of x
        toks = [t for t in self.mt.parse(said).tokens if t.text.strip()]
        if not toks or _HAS_QWORD.search(said):
            return None  # 还有什么意思: a question of the reply's own
        if any(r.text for r in self.mt.references(said)):
            return None  # 据说他们最怕…: a pronoun of its own, coreference's business
        first = "NUM" if said[0].isdigit() else kind_of(toks[0].pos, toks[0].text)
        cop = m["cop"] or ""
        says = self.asked_says_copula is not None and self.asked_says_copula.match(said)
        if cop and says:
            cop = ""  # 是我夫人 / 就在北京: the reply says the copula itself
        elif cop and first not in ("NOUN", "NUM"):
            return None  # 告诉你吧是腾讯游戏: an identity question answered by a noun phrase
        elif (
            not cop
            and not says
            and toks[0].text not in self.topic_props
            and (first not in self.asked_reply_kinds or (first == "NUM" and not m["wh"]))
        ):
            # 公交地铁 after 路费油钱呢, 我也不知道: a thing or a speaker of its own (not a
            # property of x: 续航一般); a count answers a wh-question only (狗狗多大了 / 2个月了,
            # not 三毛生僻吗 / 一首歌名)
            return None
        text = state.standalone.strip()
        return _resolved_from(
            state,
            rule.source,
            x + cop + text,
            x,
            last,
            "topic",
            etype="thing",
            slot="subject",
            note=f"a reply to the assistant's question about {x!r}",
            confidence=0.6,
        )

    def _located(
        self,
        toks: list[Any],
        kinds: list[str],
        body: str,
        exchange: tuple[TurnInfo, TurnInfo],
        *,
        asked: bool = True,
    ) -> bool:
        """Whether ``body`` says where something is (``asked``: after an exchange that asked
        where the topic is, rules/completeness.yaml topic_comment ``where_asked``): time words
        or adverbs, then 在 and a noun, and no question of its own. Why: 在浙江省啊 after
        义乌什么地方 answers for 义乌, which it leaves out. Example: 现在在湖人 ->
        詹姆斯现在在湖人."""
        where = self.topic_where
        if _HAS_QWORD.search(body):
            return False
        if asked and (where is None or not any(where.search(ti.turn.content) for ti in exchange)):
            return False
        i = 0
        while i < len(toks) and kinds[i] in ("TIME", "ADV"):
            i += 1
        return i + 1 < len(toks) and toks[i].text == "在" and kinds[i + 1] == "NOUN"

    def _bare_question(self, toks: list[Any], kinds: list[str], body: str) -> bool:
        """Whether ``body`` is a short question with no subject of its own: a predicate (a verb,
        an adjective, an adverb, a preposition or a question word) first, a question word or a
        final question particle, no speaker nor demonstrative, at most
        ``question_max`` characters. Why: 有多大 / 在哪儿 / 猥琐吗 ask about something the
        turn leaves out, the thing the user raised (宇宙多少岁了 / … / 有多大 -> 宇宙有多大).
        A noun first (家里几个人) may be the subject itself."""
        if len(body) > self.topic_question_max or self.speakers.search(body):
            return False
        if kinds[0] not in ("VERB", "ADJ", "ADV", "PREP", "PRON", "NOUN"):
            return False
        if kinds[0] == "PRON" and not is_question_word(toks[0].text):
            return False  # 这样真的合适吗: a demonstrative is a subject of its own
        if toks[0].text.startswith("哪") and len(toks) > 1 and kinds[1] == "ADV":
            return False  # 哪个更值得买: a choice among things, the comparison's to complete
        if kinds[0] == "NOUN" and not (len(toks) == 2 and kinds[1] == "PART"):
            return False  # 猥琐吗 (a noun to jieba) alone, not 家里几个人
        if "NOUN" in kinds[1:]:
            return False  # 在北京么: a thing of its own the question is about
        if toks[0].text in self.topic_not_pred or (len(toks) == 2 and kinds[0] == "VERB"):
            return False  # 玩吗: a bare verb asks whether to do it, nothing about a thing
        return bool(_HAS_QWORD.search(body)) or toks[-1].text in ("吗", "么", "嘛")

    def _described(self, toks: list[Any], kinds: list[str], body: str) -> bool:
        """Whether ``toks`` (a comment without its final particles) is a noun phrase that
        describes a kind of thing: a modifier, 的, then a head noun (很细心的一个星座 /
        世界上最大的洲), with no pronoun, conjunction, preposition, copula nor question in it.
        Why: such a phrase said of the topic says what the topic is, so it takes 是 (温州 /
        一座来了就不想走的城市 -> 温州是一座来了就不想走的城市); a number before 的 (80的样子)
        measures something, and an adverb before a verb (最喜欢他家的) opens a clause."""
        words = [t.text for t in toks]
        if len(toks) < 3 or kinds[-1] != "NOUN" or "的" not in words:
            return False
        if len(body) > self.topic_described_max or "是" in body or _HAS_QWORD.search(body):
            return False
        at = len(words) - 1 - words[::-1].index("的")
        if all(k == "NUM" or w.isdigit() for k, w in zip(kinds[:at], words, strict=False)):
            return False
        if not all(k in ("NOUN", "NUM", "ADJ") for k in kinds[at + 1 :]):
            return False
        if kinds[0] not in ("ADV", "NUM", "NOUN", "ADJ", "LOC") or (
            kinds[0] == "ADV" and kinds[1] == "VERB"
        ):
            return False
        return not any(k in ("CONJ", "PREP", "PRON") for k in kinds)

    def _copula_comment(self, toks: list[Any], kinds: list[str], at: int) -> bool:
        """What follows the copula at ``at`` says what something is: a noun phrase, a number,
        an adverb (就是很漂亮的意思) or the speaker's own (是我的), not a clause (是去读书),
        a question (是什么样子的) nor a particle (是滴 / 是真的吗)."""
        rest = [(t, k) for t, k in zip(toks, kinds, strict=True) if t.start >= at]
        if not rest or rest[0][0].start != at:
            return False  # 是 inside a word (是非)
        if _HAS_QWORD.search("".join(t.text for t, _k in rest)):
            return False  # 是什么样子的: a question about the thing, not a comment
        t0, k0 = rest[0]
        if t0.text in self.topic_not_cop:
            return False
        return (
            k0 in ("NOUN", "NUM", "DE", "ADV")
            or (k0 == "PRON" and t0.text in self.own)
            or (k0 == "ADJ" and len(rest) > 1)
        )

    def _one_topic(
        self, d: Dialogue, exchange: tuple[TurnInfo, TurnInfo]
    ) -> tuple[Mention, str] | None:
        """The one thing the last exchange is about and how it is known (``both``: said by both
        speakers; ``asked``: a typed name the assistant's question is about; ``reply``: the
        assistant's whole reply, a bare noun phrase; ``user``: a typed name only the user
        said), or None when the exchange names no thing or more than one."""
        told, last = exchange
        named: dict[str, Mention] = {}
        for ti in (told, last):
            for m in ti.mentions:
                # (226cm, tagged a product: a measure, no topic)
                if not m.is_set and m.etype in self.topic_types and not m.text[:1].isdigit():
                    named.setdefault(m.text, m)
        a, b = told.turn.content, last.turn.content
        for m in self.mt.shared_spans(d):
            if m.turn != last.turn.index or m.text not in a:
                continue
            # 堡垒之夜 in both turns: a title joined by 之, which the shared span stops before
            ia, ib = a.find(m.text) + len(m.text), b.find(m.text) + len(m.text)
            if a[ia : ia + 1] == "之" and len(a) >= ia + 2 and b[ib : ib + 2] == a[ia : ia + 2]:
                m = said_mention(
                    m.text + a[ia : ia + 2], m.etype, last.turn, "topic", m.start, m.source
                )
            named.setdefault(m.text, m)
        reply = self.mt.bare_noun_phrase(b, _NOUN_PHRASE_KINDS)
        lead = self.topic_reply_lead.match(b) if self.topic_reply_lead is not None else None
        if reply is None and lead is not None:
            # 那冰激淋 / 是天宫赐福吗: the noun phrase after 那 or 是 is the reply's whole content
            # all the same
            reply = self.mt.bare_noun_phrase(
                b[lead.end() :].strip().rstrip("?？!！。.~ 吗"), _NOUN_PHRASE_KINDS
            )
        if reply is not None and (not _CJK.search(reply) or self.personal.search(reply)):
            reply = None  # notime / 我的: no thing to comment on
        if reply is not None and not any(
            t in reply and (t in a or m.source.startswith("dictionaries/"))
            for t, m in named.items()
        ):
            # (莫文蔚 / 莫文蔚很漂亮啊: the name the reply holds is the topic, not the reply)
            named.setdefault(
                reply, said_mention(reply, "thing", last.turn, "topic", b.find(reply), "reply")
            )
        # 吴亦凡的歌迷 beside 吴亦凡: the fan of the person is no other topic, the person is
        # the topic; a name inside a longer phrase is the same topic (S7 / 云栖S7)
        names = [
            t
            for t in named
            if not any(t.startswith(u + "的") and named[u].etype in self.topic_types for u in named)
        ]
        names = outermost(names)
        if len(names) > 1:
            # 莫文蔚身材很好 / 莫文蔚 … 身材很好: a property both said (身材) is what the exchange
            # says of the topic, no second topic
            things = [t for t in names if t not in self.topic_props | self.topic_person_props]
            names = things if things else names
        if len(names) > 1:
            # 红楼梦的作者是谁 / 嘿嘿红楼梦是曹雪芹著啦: the one dictionary name both speakers
            # said is the topic, a name one of them added (曹雪芹) is said of it
            said = [t for t in names if t in a and t in b and self._dictionary_named(t, exchange)]
            names = said if len(said) == 1 else names
        if len(names) != 1:
            return None
        topic = named[names[0]]
        in_told, in_last = topic.text in a, topic.text in b
        typed = topic.etype in self.topic_types and (
            topic.source.startswith(("dictionaries/", "rules/"))
            or any(
                m.text == topic.text and m.source.startswith("dictionaries/")
                for ti in (told, last)
                for m in ti.mentions
            )
        )
        if in_told and in_last:
            return topic, "both"
        if in_last and reply == topic.text:
            return topic, "reply"
        # a typed name one speaker said is the topic only when that turn names nothing else
        # (感觉潮汕的东西都挺好吃的: 都挺好 inside a clause about 潮汕 is no topic)
        if not typed:
            # 孟庭苇清新自然 / 然后呢: a name the user's turn opens with and the reply names
            # nothing (``user_name``: a property comment only)
            if (
                in_told
                and not in_last
                and not last.mentions
                and a.startswith(topic.text)
                and _CJK.search(topic.text) is not None  # so / iamnot: no name
                and _alone(topic.text, told)
            ):
                return topic, "user_name"
            return None
        if in_last and is_question(last.parse) and _alone(topic.text, last):
            return topic, "asked"
        if in_told and not in_last and not last.mentions and _alone(topic.text, told):
            return topic, "user"
        return None

    @staticmethod
    def _dictionary_named(name: str, exchange: tuple[TurnInfo, TurnInfo]) -> bool:
        """Whether a domain dictionary typed ``name`` in either turn of ``exchange``."""
        return any(
            m.text == name and m.source.startswith("dictionaries/")
            for ti in exchange
            for m in ti.mentions
        )

    def _user_judged(self, exchange: tuple[TurnInfo, TurnInfo]) -> tuple[Mention, str] | None:
        """What the user's last turn judges, when the assistant only acknowledged it
        (``user_judged``, topic_comment ``acked``): the turn is a phrase with a noun in it, then
        a degree word and an adjective ending it (这家店的牛排很嫩 / 王老师讲课最清楚), and the
        phrase is the topic (… / 对 / 酱汁也好 -> 这家店的牛排酱汁也好). Why: the reply added
        nothing, so a follow-up that only evaluates goes on judging the same thing."""
        told, last = exchange
        acked = self.topic_acked
        if told.turn.role != "user" or acked is None or not acked.match(last.turn.content.strip()):
            return None
        toks = [t for t in told.parse.tokens if t.text.strip()]
        kinds = [kind_of(t.pos, t.text) for t in toks]
        at = next((i for i, t in enumerate(toks) if t.text in self.topic_degrees), None)
        if (
            at is None
            or at + 1 >= len(toks)
            or kinds[at + 1] != "ADJ"
            or any(k not in ("PART", "DE") for k in kinds[at + 2 :])
            or "NOUN" not in kinds[:at]
            # (我妈做饭很香 / 今天又很累: the speaker's own or no thing judged)
            or any(
                k in ("PUNCT", "NUM", "ADV", "TIME")
                or (k == "PRON" and self.personal.search(t.text))
                for t, k in zip(toks[:at], kinds[:at], strict=True)
            )
        ):
            return None
        content = told.turn.content
        name = content[: toks[at].start]
        if len(name) < 2 or self.speakers.search(name) or len(name) > self.topic_lead_rest:
            return None
        return said_mention(name, "thing", told.turn, "topic", 0, "user"), "user_judged"

    def _also_said(self, toks: list[Token], kinds: list[str], body: str) -> bool:
        """The comment is an evaluation with 也 / 还 (topic_comment ``also``): a noun (a part of
        the topic) or not, 也 or 还 (``also``; jieba may join 也好), a degree word (needed
        without the noun), and one adjective ending the comment (酱汁也好 / 也很帅 / 还挺嫩的)."""
        start = toks[1].start if len(toks) > 1 and kinds[0] == "NOUN" else 0
        rest = body[start:]
        if rest[:1] not in self.topic_also:
            return False
        rest = rest[1:]
        # (也好: 好 is the judging word itself, no degree before one)
        degree = max(
            (w for w in self.topic_degrees if rest.startswith(w) and len(rest) > len(w)),
            key=len,
            default="",
        )
        judged = [t for t in self.mt.parse(rest[len(degree) :]).tokens if t.text.strip()]
        jk = [kind_of(t.pos, t.text) for t in judged]
        return (
            # 也好 / 还好 / 也对: without a part nor a degree word it agrees, judging nothing
            (start > 0 or degree != "")
            and bool(jk)
            and jk[0] == "ADJ"
            and all(
                k in ("PART", "DE") or t.text == "了"
                for t, k in zip(judged[1:], jk[1:], strict=True)
            )
        )

    def _user_lead(self, exchange: tuple[TurnInfo, TurnInfo]) -> tuple[Mention, str] | None:
        """The thing the user's last turn opens with, when the reply does not name it
        (``user_lead``): the turn is the name and a short question or remark about it (房价会跌吗
        / 云台山怎么样 / 豆奶确实好喝), and names nothing else. Why: the reply left the question
        open or talked around it, so a follow-up that only predicates is still about the thing
        the user raised (房价会跌吗 / … / 真的会跌 -> 房价真的会跌)."""
        told, last = exchange
        if told.turn.role != "user":
            return None
        opening = [m for m in told.mentions if m.start == 0 and not m.is_set]
        if not opening:
            return None
        topic = max(opening, key=lambda m: len(m.text))
        rest = told.turn.content[len(topic.text) :].strip().rstrip("?？!！。.~ ")
        if (
            len(topic.text) < 2
            or _CJK.search(topic.text) is None  # so今天你怀了吗: no name
            or not rest.rstrip("吗么呢吧啊呀的")  # 唱歌大会么 / 步步高的吗: no question about it
            or len(rest) > self.topic_lead_rest
            or topic.text in last.turn.content
            or not _alone(topic.text, told)
        ):
            return None
        return topic, "user_lead"

    def _user_subject(self, exchange: tuple[TurnInfo, TurnInfo]) -> tuple[Mention, str] | None:
        """The subject of the user's last turn, when the assistant only asked back how that
        matter stands (``user_subject``, topic_comment ``asked_back``): the turn is, after the
        speaker (我 / 我的) and a time word, a noun and a short predicate with no other noun
        (我胃疼 / 严重吗 / 疼了一晚上 -> 胃疼了一晚上). Why: the question asked about
        the user's matter, so a reply that only predicates goes on about that thing."""
        told, last = exchange
        back = self.topic_asked_back
        if told.turn.role != "user" or back is None or not back.search(last.turn.content):
            return None
        toks = [t for t in told.parse.tokens if t.text.strip()]
        kinds = [kind_of(t.pos, t.text) for t in toks]
        i = 0
        if i < len(toks) and toks[i].text == "我":
            i += 1
            if i < len(toks) and kinds[i] == "DE":
                i += 1
        while i < len(toks) and kinds[i] == "TIME":
            i += 1
        j = i
        while j < len(toks) and kinds[j] == "NOUN":
            j += 1
        rest = kinds[j:]
        if (
            j == i
            or not rest
            or rest[0] not in ("VERB", "ADJ", "ADV")
            or any(k in ("NOUN", "PRON", "NUM", "DE") for k in rest)
            or toks[-1].end - toks[j].start > self.topic_lead_rest
        ):
            return None
        content = told.turn.content
        name = content[toks[i].start : toks[j - 1].end]
        if name in last.turn.content:
            return None
        return said_mention(
            name, "thing", told.turn, "topic", toks[i].start, "user"
        ), "user_subject"

    def _own_question(self, state: State, exchange: tuple[TurnInfo, TurnInfo]) -> State | None:
        """The user's own yes/no question of the last exchange answered, or asked again, with
        its verb alone when nothing else completed the query (rules/completeness.yaml
        ``own_question``): the assistant's reply left the question open, so what the question
        had after that verb is the object (你会做饭吗 / 你要教我吗 / 我不会 -> 我不会做饭;
        会卖萌吗 / 不会 / 到底会不会 -> 到底会不会卖萌). Failing that, the assistant's reply
        saying the verb with a noun after it (爱许嵩 / 我也爱 -> 我也爱许嵩; 我爱巧克力 / 我不爱
        -> 我不爱巧克力) gives the object."""
        rule = self.own_rule
        text = state.standalone.strip()
        m = rule_match(rule, text)
        if rule is None or m is None or self.own_asked_pre is None or self.own_asked_end is None:
            return None
        v = m.group("v")
        a_not_a = _A_NOT_A_VERB.fullmatch(v)
        if a_not_a is not None:
            verb = a_not_a.group("a") + a_not_a.group("rest")  # 会不会 / 喜不喜欢: 会 / 喜欢
        else:
            # 不会 / 没有喝: the verb after its negation; 没有 alone is 有 negated
            verb = next((v[len(n) :] for n in self.own_negations if v.startswith(n) and v != n), v)
        told, last = exchange
        asked = unpunctuated(told.turn.content)
        body = self.own_asked_end.sub("", asked)
        obj, src, what = None, told, f"the user's own question {asked!r}"
        if body != asked and body and not _CLAUSES.search(body):
            obj = self._after_verb(verb, body, self.own_asked_pre, text)
        said = self.final_mood.sub("", last.turn.content.strip())
        if obj is None and self.own_said_pre is not None and said and not _CLAUSES.search(said):
            obj = self._after_verb(verb, said, self.own_said_pre, text)
            # what the reply says after the verb is a thing (许嵩 / 鞠婧祎照片), not a clause
            otoks = self.mt.parse(obj).tokens if obj else ()
            kinds = [kind_of(t.pos, t.text) for t in otoks]
            if "NOUN" not in kinds or any(k not in ("NOUN", "VERB", "DE") for k in kinds):
                obj = None
            elif obj:
                # 做个蛋糕/试试: the verb jieba tagged a noun is no part of the thing
                obj = self.mt.analyzer.without_verb_last(otoks, 0, obj)
            src, what = last, f"the assistant's reply {said!r}"
        if obj is None:
            return None
        at = m.end("asp") if m.group("asp") else m.end("v")
        return _object_after(
            state, rule.source, text, at, obj, src, f"{verb} as in {what}: its object {obj!r}"
        )

    def _verb_object(self, state: State, exchange: tuple[TurnInfo, TurnInfo]) -> State | None:
        """A transitive verb ending the query with no object, when nothing else completed the
        query (rules/completeness.yaml ``verb_object``: 现在换 / 吃不起 / 你用过吗): the noun
        phrase the same verb had in the last exchange, the assistant's turn first, is its object
        (你养过猫吗 / 我养过 / 我也养过 -> 我也养过猫), after the verb and its aspect or potential
        complement (吃不起 + 火锅), before a final 了 (看过了 -> 看过X了)."""
        rule = self.vo_rule
        text = state.standalone.strip()
        m = rule_match(rule, text)
        if rule is None:
            return None
        if m is None:
            return None
        v = m.group("v")
        asp = m.group("asp") or ""
        asked_le = (
            self.vo_asked_le is not None
            and self.vo_asked_le.search(m.group("pre")) is not None
            and m.group("pt")[:1] in ("吗", "么")
        )
        if asp == "了" and not self.negated_end.search(m.group("pre")) and not asked_le:
            # 现在能看了 / 吃了呀: a change of state, no object missing (那你买了吗 asks whether
            # it was done: the object goes before 了)
            return None
        final = asp in ("过了", "了")  # 看过了 / 不穿了: the final 了 stays last
        at = m.end("asp") - 1 if final else m.end("v") + len(m.group("to") or "") + len(asp)
        # 梦三国呢 / 也没玩过: the thing the assistant asked about with a bare X呢 goes first
        ne = self.vo_asked_ne.match(exchange[1].turn.content.strip()) if self.vo_asked_ne else None
        x = ne.group("x") if ne is not None else ""
        if (
            x
            and x not in text
            and any(mt.text == x for mt in exchange[1].mentions)
            and not PERSON_PRONOUNS & self._words(x)
        ):
            note = f"{v} is about {x!r} the assistant asked of"
            return _resolved_from(
                state,
                rule.source,
                x + text,
                x,
                exchange[1],
                "subj",
                slot="subject",
                note=note,
                confidence=0.6,
            )
        said = self.mt.verb_object(
            (exchange[1], exchange[0]), (v, *self.vo_kinds.get(v, ())), query=text
        ) or self._fronted_object(exchange, (v, *self.vo_kinds.get(v, ())), text)
        if said is not None:
            obj, ti = said
            note = f"{v} takes its object {obj!r} as said there"
            return _object_after(state, rule.source, text, at, obj, ti, note)
        # 剑风传奇 / 本命漫画又更了 / 你也喜欢: the user's turn opening the exchange named the
        # thing talked about alone (not a reply to an earlier turn of the assistant's)
        told = exchange[0]
        k = told.turn.index
        topic = None
        if not (0 < k <= len(state.history) and state.history[k - 1].role != "user"):
            topic = self._bare_topic(told) or self._judged_lead(told)
        if topic is None and (not m.group("to") or v in self.mt.vo_give):
            topic = self._shared_topic(exchange, v, text, m.start("v"))
            if topic is not None:
                note = f"{v} takes {topic!r}, the topic both turns of the last exchange say"
                return _object_after(state, rule.source, text, at, topic, told, note)
        if topic is None or topic in text:
            return None
        note = f"{v} takes the topic {topic!r} the user named"
        return _object_after(state, rule.source, text, at, topic, told, note)

    def _how_echo(self, state: State, exchange: tuple[TurnInfo, TurnInfo]) -> State | None:
        """A bare how-question about a verb, or a how-much question after one, when nothing else
        completed the query (rules/completeness.yaml ``how_echo``: 怎么做 / 喝多少): the object
        the same verb had in the last exchange goes after the verb, or after 多少 (准备做个月饼
        / 怎么做 -> 怎么做月饼; 喝酒 / 喝多少 -> 喝多少酒)."""
        he = self.he
        text = state.standalone.strip()
        found = (p.match(text) for p in (he.pattern, he.much, he.what, he.where) if p is not None)
        m = next((f for f in found if f is not None), None)
        if m is None:
            return None
        v = m.group("v")
        if v in he.not_verbs:
            return None
        at = m.end("m") if "m" in m.re.groupindex else m.end("v")
        if "to" in m.re.groupindex and m.group("to"):
            at = m.end("to")  # 在哪里能买到 + 冰硼散
        if v in he.treat and he.illness is not None:
            # 我得了荨麻疹 / 怎么治: the one illness the exchange named, the user's turn first
            for ti in exchange:
                ills = {mt.text for mt in ti.mentions if he.illness.search(mt.text)}
                ill = ills.pop() if len(ills) == 1 else ""
                if ill and ill not in text:
                    note = f"{v} treats the illness {ill!r} said there"
                    return _object_after(state, he.source, text, at, ill, ti, note)
        verbs = [v]
        if len(v) == 2:
            verbs.append(v[0])  # 领取 / 怎么领宠物
        else:
            # 练 / 怎么练习投篮: a two-character verb the exchange said that opens with it
            verbs += [
                t.text
                for ti in exchange
                for t in ti.parse.tokens
                if len(t.text) == 2
                and t.text[0] == v
                and t.text not in verbs
                and kind_of(t.pos, t.text) == "VERB"
            ]
        said = self.mt.verb_object((exchange[1], exchange[0]), tuple(verbs), query=text)
        if said is None and m.re is he.pattern:
            said = self._bare_verb_topic(exchange, v, text)
        if said is None and m.re is he.where:
            said = self._bare_reply(exchange[1], text, v)
        if said is None:
            return None
        obj, ti = said
        if he.drop is not None:
            obj = he.drop.sub("", obj)
        if not obj or obj in text:
            return None
        note = f"{v} asked about how: its object {obj!r} as said there"
        return _object_after(state, he.source, text, at, obj, ti, note)

    def _bare_reply(self, reply: TurnInfo, text: str, v: str) -> tuple[str, TurnInfo] | None:
        """The object of a bare where-question about verb ``v`` (how_echo ``where``) when the
        reply is nothing but a short noun phrase (``bare_reply_kinds``, at most
        ``bare_reply_max`` characters) without the verb: that phrase (你有拿手的运动嘛 / 羽毛球 /
        哪里可以打 -> 哪里可以打羽毛球; 钓鱼 / 哪里可以钓 holds its verb, no object)."""
        he = self.he
        said = unpunctuated(reply.turn.content).strip()
        toks = [t for t in self.mt.parse(said).tokens if t.text.strip()]
        if (
            not toks
            or not 2 <= len(said) <= he.bare_max
            or said in text
            or v in said
            or any(kind_of(t.pos, t.text) not in he.bare_kinds for t in toks)
        ):
            return None
        return said, reply

    def _bare_verb_topic(
        self, exchange: tuple[TurnInfo, TurnInfo], v: str, text: str
    ) -> tuple[str, TurnInfo] | None:
        """The object of a bare how-question whose verb ``v`` the reply said with no object
        (how_echo): the one noun phrase of the user's turn, what the reply's verb acts on
        (你还有马甲线 / 就在家锻炼玩 / 怎么锻炼 -> 怎么锻炼马甲线); None when the reply does not
        say the verb as a word of its own or the user's turn names no phrase or more than one."""
        user, reply = exchange
        if (
            v[0] in "不没"  # 咋不好 / 怎么不是: a why-not question, no verb
            or any(is_question_word(t.text) for t in reply.parse.tokens)  # 素食怎么做吗: asked
            or not any(
                t.text == v and kind_of(t.pos, t.text) in ("VERB", "OTHER")
                for t in reply.parse.tokens
            )
        ):
            return None
        named = {
            m.text
            for m in user.mentions
            if not _is_pronounish(m) and not self.mt.is_clause(m) and m.etype != "time"
        }
        named = {x for x in named if not any(x != y and x in y for y in named)}  # 马甲 of 马甲线
        if len(named) != 1:
            return None
        obj = named.pop()
        if len(obj) < 2 or obj[0].isdigit() or obj in text or obj in reply.turn.content:
            return None
        return obj, user

    def _modal_vp(self, state: State, exchange: tuple[TurnInfo, TurnInfo]) -> State | None:
        """A bare modal that leaves out its verb phrase, when nothing else completed the query
        (rules/completeness.yaml ``modal_vp``: 我也想 / 你敢不敢 / 不可能): the verb phrase a
        modal of its family (``carriers``) says in the last exchange, the assistant's turn
        first, goes after the query's modal (我要出国了 / 真好 / 我不想 -> 我不想出国)."""
        mv = self.mv
        text = state.standalone.strip()
        m = mv.pattern.match(text) if mv.pattern is not None else None
        if m is None or mv.vp_end is None:
            return None
        carriers = self.mv_carriers.get(m.group("base") or m.group("ab") or "愿", ())
        at = m.end("m")
        base = m.group("m").lstrip("不没")
        for ti in (exchange[1], exchange[0]):
            said = ti.turn.content
            if ti is exchange[1] and self._a_request(unpunctuated(said), exchange[0], base):
                continue  # 狗能吃葡萄吗 / 能不能说点好听的 / 不能: the user's own question
            if ti.turn.role != "user" and self.yes_no.search(said):
                # 你想去爬山吗 / 我不想: the reply answers the question, no statement of the
                # verb, and no modal of the user's turn before it is what it answers; a question
                # on a bare verb phrase (表白过没有啊 / 不敢) gives the modal its verb phrase
                asked = self._asked_vp(ti, text)
                if asked is None:
                    return None
                note = f"{m.group('m')} takes the verb phrase {asked!r} the assistant asked about"
                return self._modal_vp_taken(state, text, at, asked, ti, note)
            toks = [t for t in ti.parse.tokens if t.text.strip()]
            ends = {t.end for t in toks}
            personal = self.personal if ti.turn.role != "user" else mv.user_personal
            for c, find in carriers:
                for hit in find.finditer(said):
                    s, e = hit.span()
                    # the carrier ends a word and opens it, or follows what may stand before
                    # it inside one word (我会 / 不想)
                    word = next((t for t in toks if t.start <= s < t.end), None)
                    if said.startswith("不" + c, e):
                        e += len(c) + 1  # 敢不敢换个头像: the verb phrase after the A-not-A
                    if e not in ends or word is None:
                        continue
                    if mv.carrier_lead is not None and not mv.carrier_lead.match(
                        said[word.start : s]
                    ):
                        continue
                    rest = said[e:]
                    stop = mv.vp_end.search(rest)
                    vp = rest[: stop.start()] if stop is not None else rest
                    if (
                        not vp
                        or (mv.vp_open is not None and mv.vp_open.match(vp))
                        or (mv.vp_shape is not None and not mv.vp_shape.match(vp))
                        or (personal is not None and personal.search(vp))
                        or vp in text
                        or _HAS_QWORD.search(rest[: len(vp) + 1])  # 你会什么: no yes/no question
                    ):
                        continue
                    note = f"{m.group('m')} takes the verb phrase {vp!r} of {c} said there"
                    return self._modal_vp_taken(state, text, at, vp, ti, note)
        reply = exchange[1]
        asked = self._asked_vp(reply, text) if reply.turn.role != "user" else None
        if asked is not None:
            # 表白过没有啊 / 不敢: a yes/no question the yes_no shape does not read as one
            note = f"{m.group('m')} takes the verb phrase {asked!r} the assistant asked about"
            return self._modal_vp_taken(state, text, at, asked, reply, note)
        found = self._bare_vp(exchange, text)
        if found is None:
            return None
        vp, ti, how = found
        note = f"{m.group('m')} takes the verb phrase {vp!r}, " + (
            "what the user asked how to do" if how else "the whole turn"
        )
        return self._modal_vp_taken(state, text, at, vp, ti, note)

    def _asked_vp(self, ti: TurnInfo, text: str) -> str | None:
        """The verb phrase of the assistant's yes/no question ``ti`` when it asks about doing it
        with no modal (modal_vp ``asked_vp``: 表白过没有啊 -> 表白; not 你想去爬山吗, whose
        modal the reply answers): it opens with a verb, names no person and asks nothing else."""
        mv = self.mv
        said = ti.turn.content.strip()
        m = mv.asked_vp.match(said) if mv.asked_vp is not None else None
        if m is None or any(c in said for c in self.mv_modals):
            return None
        vp = m.group("vp")
        first = next((t for t in ti.parse.tokens if t.start == m.start("vp")), None)
        if (
            first is None
            or kind_of(first.pos, first.text) != "VERB"
            or self.personal.search(vp)
            or _HAS_QWORD.search(vp)
            or vp in text
        ):
            return None
        return vp

    def _modal_vp_taken(
        self, state: State, text: str, at: int, vp: str, ti: TurnInfo, note: str
    ) -> State:
        """``_modal_vp``'s rewrite: the verb phrase ``vp`` of turn ``ti`` goes after the
        query's modal (at ``at``)."""
        return _resolved_from(
            state,
            self.mv.source,
            text[:at] + vp + text[at:],
            vp,
            ti,
            "obj",
            slot="object",
            note=note,
            confidence=0.6,
        )

    def _bare_vp(
        self, exchange: tuple[TurnInfo, TurnInfo], text: str
    ) -> tuple[str, TurnInfo, bool] | None:
        """The verb phrase a bare modal takes failing a carrier (modal_vp ``bare_vp``): the
        assistant's turn when it is a bare verb phrase it proposes (a lead or a final 吧) or
        its answer to the user's how-question (怎么挣钱 / 打工 / 不愿意 -> 不愿意打工), else what
        the user's how-question asked how to do (``how_vp``: 怎么戒烟 / 很难 / 我想 -> 我想戒烟);
        with whether it is the latter."""
        mv = self.mv
        ti = exchange[1]
        b = mv.bare_vp.match(ti.turn.content.strip()) if mv.bare_vp is not None else None
        how = mv.bare_vp_how is not None and mv.bare_vp_how.search(exchange[0].turn.content)
        if b is not None and (b.group("lead") or b.group("end") or how):
            vp = b.group("vp")
            words = [
                t
                for t in ti.parse.tokens
                if b.start("vp") <= t.start < b.end("vp") and t.text.strip()
            ]
            kinds = [kind_of(t.pos, t.text) for t in words]
            # verbs first (去看), then only what they take (电影 / 一局)
            n = next((i for i, k in enumerate(kinds) if k != "VERB"), len(kinds))
            if not (
                n == 0
                or words[0].text in self.mv_modals
                or words[0].text in mv.bare_vp_not
                or any(t.text.startswith(self.negated) for t in words)
                or not set(kinds[n:]) <= mv.bare_vp_objects
                or self.personal.search(vp)
                or vp in text
                or _HAS_QWORD.search(vp)
            ):
                return vp, ti, False
        asked = exchange[0]
        h = mv.how_vp.match(asked.turn.content.strip()) if mv.how_vp is not None else None
        if h is None:
            return self._topic_how_vp(exchange, text)
        vp = h.group("vp")
        first = next((t for t in asked.parse.tokens if t.start == h.start("vp")), None)
        if (
            first is None
            or kind_of(first.pos, first.text) not in ("VERB", "NOUN")  # jieba: 戒烟 n
            or first.text in mv.bare_vp_not
            or mv.user_personal is None
            or mv.user_personal.search(vp)
            or vp in text
            or _HAS_QWORD.search(vp)
        ):
            return None
        return vp, asked, True

    def _past_bare_frame(
        self, text: str, parse: Parse, counted: re.Match[str] | None, gap: tuple[str, int] | None
    ) -> tuple[str, int] | None:
        """The subject gap moved past a speaker's frame said with no speaker (rules/
        completeness.yaml ``speaker_frames``: 觉得怎么样 -> 觉得X怎么样, as 你觉得 and 感觉 take
        it): a gap in front of the frame is the frame's own missing speaker, not the framed
        clause's topic. ``gap`` as it was when the frame is not there or frames no gap."""
        if gap is None or self.frame is None:
            return gap
        m = self.frame.match(text)
        if m is None or gap[1] >= m.end():
            return gap
        framed = self._gap(parse, counted, skip=self.frame)
        return framed if framed is not None and framed[0] == "subject" else gap

    def _topic_how_vp(
        self, exchange: tuple[TurnInfo, TurnInfo], text: str
    ) -> tuple[str, TurnInfo, bool] | None:
        """The verb phrase a bare modal takes from a how-question of the last exchange that
        names its thing before the how-word, the user's turn first (modal_vp ``topic_how``:
        手风琴怎么拉 / … / 你会不会 -> 你会不会拉手风琴): the verb, then the thing. None when
        no turn asks so, the verb is no verb phrase's (怎么样) or the thing names a person."""
        mv = self.mv
        if mv.topic_how is None:
            return None
        for ti in exchange:
            h = mv.topic_how.match(ti.turn.content.strip())
            if h is None:
                continue
            topic, v = h.group("topic"), h.group("v")
            vp = v + topic
            start = h.start("topic") + len(ti.turn.content) - len(ti.turn.content.lstrip())
            if (
                v in mv.bare_vp_not
                # 他怎么来的: a person is no thing to do (by word: 电吉他 holds no 他)
                or any(
                    kind_of(t.pos, t.text) == "PRON"
                    for t in ti.parse.tokens
                    if start <= t.start < start + len(topic)
                )
                or _HAS_QWORD.search(topic)
                or vp in text
            ):
                return None
            return vp, ti, True
        return None

    def _how_asked(self, state: State, exchange: tuple[TurnInfo, TurnInfo]) -> State | None:
        """A bare how-question about a verb the last exchange asked about a topic, when nothing
        else completed the query (rules/completeness.yaml how_echo ``asked``): the topic goes
        before the how-word (你知道家常豆腐怎么做吗 / 怎么做 -> 家常豆腐怎么做). Why: the same
        question said again asks it about the same thing; the topic is a phrase of the turn
        ending right before the how-word (or before a gap such as 这个字), and the verb is a
        word of its own there (怎么做饭 asks no 怎么做)."""
        he = self.he
        text = state.standalone.strip()
        m = he.pattern.match(text) if he.pattern is not None else None
        if he.asked is None or m is None:
            return None
        v = m.group("v")
        if v in he.not_verbs:
            return None
        for ti in (exchange[1], exchange[0]):
            asked = self._asked_how_of(ti, v)
            if asked is not None:
                topic = asked.text
                if topic in text:
                    return None
                at = m.end("pre")
                note = f"{v} asked about how in the last exchange: of {topic!r}"
                return _resolved_from(
                    state,
                    he.source,
                    text[:at] + topic + text[at:],
                    topic,
                    ti,
                    "topic",
                    etype="thing",
                    slot="subject",
                    note=note,
                    confidence=0.6,
                )
        return None

    def _asked_how_of(self, ti: TurnInfo, v: str) -> Mention | None:
        """The topic ``ti`` asks how to ``v`` (rules/completeness.yaml how_echo ``asked``): the
        longest phrase of the turn ending right before the how-word, the verb a word of its own
        after it (你知道家常豆腐怎么做吗 -> 家常豆腐; 怎么做饭 asks no 怎么做); None when the turn
        asks no such thing."""
        asked = self.he.asked
        if asked is None:
            return None
        for a in asked.finditer(ti.turn.content):
            at = a.end("v")
            if not any(t.start == at and t.text == v for t in ti.parse.tokens):
                continue
            ends = [mt for mt in ti.mentions if mt.end == a.start() and not mt.is_set]
            if ends:
                return max(ends, key=lambda mt: len(mt.text))
        return None

    def _how_asked_object(
        self, state: State, d: Dialogue, cands: list[Any], parse: Parse, pos: int
    ) -> Any | None:
        """The topic the assistant's last turn asked how to do with the query's verb before
        its object's gap at ``pos`` (你觉得大刀肉怎么样 / 红烧肉怎么做 / 不会做 -> 不会做红烧肉,
        not the dish the user named): the query answers that question, about that thing. The
        candidate that is the topic, when there is one."""
        exchange = last_exchange(state, d)
        verb = next(
            (t.text for t in reversed(parse.tokens) if t.end <= pos and t.text not in self.aspects),
            "",
        )
        topic = self._asked_how_of(exchange[1], verb) if exchange is not None and verb else None
        if topic is None:
            return None
        return next(
            (
                c
                for c in cands
                if c.mention.turn == topic.turn
                and c.mention.start == topic.start
                and c.mention.end == topic.end
            ),
            None,
        )

    def _verb_object_open(self, state: State, exchange: tuple[TurnInfo, TurnInfo]) -> State | None:
        """A transitive verb ending the query after any lead, bare or with its aspect or a count,
        when nothing else completed the query (rules/completeness.yaml verb_object ``open``:
        你不是去过吗 / 那你戒了吗 / 你打一个试试 / 我会翻的): only the object the same verb (or
        one of its ``kinds``) had in the last exchange is put in (我去过大理 / 你不是去过吗 -> 你
        不是去过大理吗), after the aspect or the count. The verb is a word of its own in the
        query (not 一下 / 演出); a lead holding a choice or a modified topic (``open_not_pre``:
        买还是不买 / 她的听过) has its object, and a final 的 takes one only after a modal
        (``open_de``: 我会翻的)."""
        rule = self.vo_rule
        text = state.standalone.strip()
        m = self.vo_open.match(text) if self.vo_open is not None else None
        if rule is None or m is None:
            return None
        pre, v = m.group("pre"), m.group("v")
        if m.group("to") and v not in self.mt.vo_give:
            return None  # 爱我吗: 我 is the object, not who receives
        lead = self.vo_open_lead.match(pre) if self.vo_open_lead is not None else None
        if self.vo_open_not_pre is not None and self.vo_open_not_pre.search(
            pre[lead.end() :] if lead else pre
        ):
            return None
        at = max(m.end("v"), m.end("to"), m.end("asp"))
        # 什么时候去的 / 在哪买的: the event told, its object after 的 (去的厦门)
        after_de = (
            m.group("tail") == "的"
            and v not in self.vo_open_de_verbs
            and (self.vo_open_de is None or not self.vo_open_de.search(pre))
            and (self.vo_open_de_frame is None or not self.vo_open_de_frame.search(pre))
        )
        toks = [t for t in self.mt.parse(text).tokens if t.text.strip()]
        j = next((k for k, t in enumerate(toks) if t.end > m.start("v")), -1)
        # the verb is a word of its own, or one with its negation (没有 / 不会) or the particle
        # jieba joins to it (懂吗)
        start = toks[j].start if j >= 0 else -1
        if (
            j < 0
            or (
                toks[j].end > at
                and not (self.vo_open_glued and self.vo_open_glued.match(text[at : toks[j].end]))
            )
            or not (
                start == m.start("v")
                or (start == m.start("v") - 1 and text[start] in self.vo_open_neg)
                or toks[j].text in self.vo_open_joined
            )
        ):
            return None
        if any(
            t.text == v and kind_of(u.pos, u.text) in ("NOUN", "VERB", "OTHER")
            for t, u in pairwise(toks[:j])
        ):
            return None  # 喜欢吃小炒肉你做我吃吧: the query gave the verb its object already
        i = j - 1
        while i >= 0 and kind_of(toks[i].pos, toks[i].text) == "ADV":
            i -= 1
        means = i >= 1 and toks[i].text in self.vo_means and toks[i - 1].text in self.vo_lacking
        if (
            i >= 0
            and not means  # 没钱去 / 没时间打: what the verb lacks, no object in front of it
            and v not in self.purpose_verbs
            and toks[i].pos in _OBJECT_POS
            and not (i > 0 and is_question_word(toks[i - 1].text))
            and not text[toks[i].end : toks[j].start].count(" ")  # 换一个 吃不起: a new clause
            and self._has_object(toks, [kind_of(t.pos, t.text) for t in toks], j)
        ):
            return None  # 香蕉也吃: the object stands in front of the verb
        said = self.mt.verb_object(
            (exchange[1], exchange[0]), (v, *self.vo_kinds.get(v, ())), query=text
        ) or self._fronted_object(exchange, (v, *self.vo_kinds.get(v, ())), text)
        if said is None:
            topic = self._typed_topic(exchange, v, text) or self._shared_topic(
                exchange, v, text, m.start("v")
            )
            if topic is None:
                return None
            note = f"{v} takes the topic {topic!r} the user named, of its type"
            return _object_after(
                state,
                rule.source,
                text,
                m.end("tail") if after_de else at,
                topic,
                exchange[0],
                note,
            )
        obj, ti = said
        # 去屯门交通费倒是… / 去过屯门吗: the object the other turn gave, when the phrase starts
        # with it, is the thing (the rest of the phrase goes on to a new clause)
        other = self.mt.verb_object(tuple(t for t in exchange if t is not ti), (v,), query=text)
        if other is not None and other[0] != obj and obj.startswith(other[0]):
            obj, ti = other
        said_at = ti.turn.content.find(obj)
        if (self.vo_open_not_object is not None and self.vo_open_not_object.search(obj)) or (
            # one character is a whole word only where the turn ends it (抽烟: 烟; not 国 of 国漫)
            len(obj) == 1
            and (
                self.vo_open_single is None
                or not self.vo_open_single.match(ti.turn.content, said_at + 1)
            )
        ):
            return None
        note = f"{v} takes its object {obj!r} as said there"
        return _object_after(
            state, rule.source, text, m.end("tail") if after_de else at, obj, ti, note
        )

    def _fronted_shape_uncached(self, verbs: tuple[str, ...]) -> re.Pattern[str]:
        """The ``fronted`` pattern for ``verbs``, the longest first (memoised per verb set)."""
        alt = "|".join(re.escape(v) for v in verbs)
        return re.compile(f"{self.vo_fronted}(?P<v>{alt}){self.vo_fronted_end}")

    def _fronted_object(
        self, exchange: tuple[TurnInfo, TurnInfo], verbs: Sequence[str], text: str
    ) -> tuple[str, TurnInfo] | None:
        """The phrase a turn of the last exchange (the reply first) put before one of ``verbs``
        as its topic, the turn being nothing but that phrase, a speaker, adverbs or modals and
        the verb with its aspect and a final particle (rules/completeness.yaml verb_object
        ``fronted``: 手语你懂么 / 你懂吗 -> 你懂手语吗; 我作业还没做完呢 / 我刚写完 -> 我刚写完作业).
        Not a phrase naming a person (the verb's subject: 女儿也喜欢), a time alone (今天你吃了吗),
        one holding a pronoun or a question word, nor one the query already says."""
        verbs = [v for v in verbs if v not in self.vo_fronted_not_verbs]
        if not self.vo_fronted or not verbs:
            return None
        shape = self._fronted_shape(tuple(sorted(set(verbs), key=lambda v: (-len(v), v))))
        for ti in (exchange[1], exchange[0]):
            m = shape.match(ti.turn.content)
            # the verb a word of its own (not 看 of 好看 / 电影好看吗)
            if m is None or not any(t.start == m.start("v") for t in ti.parse.tokens):
                continue
            x = m.group("x")
            if x in text or phrase_len(x) > self.vo_max or _HAS_QWORD.search(x):
                continue
            if self.vo_fronted_not is not None and self.vo_fronted_not.search(x):
                continue
            toks = [t for t in self.mt.parse(x).tokens if t.text.strip()]
            kinds = [kind_of(t.pos, t.text) for t in toks]
            if not toks or all(k == "TIME" for k in kinds):
                continue  # 今天你吃了吗: when, not what
            if kinds[-1] not in ("NOUN", "OTHER") or not set(kinds) <= self.vo_fronted_kinds:
                continue  # 好久没玩了 / 哦都认识 / 你要负责吃完啊: no noun phrase before the verb
            if any(t.text in PERSON_PRONOUNS for t in toks):
                continue
            person = any(mt.text == x and mt.etype in HUMAN_TYPES for mt in ti.mentions) or (
                len(toks) == 1 and self.mt.analyzer.type_of(x, toks[0].pos) in HUMAN_TYPES
            )
            if person and m.group("v") not in self.vo_fronted_persons:
                continue  # 女儿也喜欢: the subject; 郭文杰认识吗: whom one knows
            return x, ti
        return None

    def _work_named(self, state: State, d: Dialogue, before: str) -> bool:
        """The verb before the object's gap takes a work (``open_topic_types``: 看 / 读) and the
        user named one in the last exchange (飘的作者是谁 / 玛格丽特米切尔 / 你读过吗): the
        author the reply named is no object of it."""
        lead = before.rstrip("了过着")
        verb = next((v for v in self.vo_topic_types if lead.endswith(v)), None)
        if verb is None or not self.vo_topic_types[verb] & self.vo_topic_no_person:
            return False
        exchange = last_exchange(state, d)
        return exchange is not None and self._typed_topic(exchange, verb, before) is not None

    def _typed_topic(self, exchange: tuple[TurnInfo, TurnInfo], verb: str, text: str) -> str | None:
        """The one thing of a type ``verb`` takes (rules/completeness.yaml verb_object
        ``open_topic_types``: 看 a work, 吃 a food) the last exchange names, typed by a dictionary
        or by a topic frame (``open_topic_frames``: X是谁写的 says X is a work), when the user's
        turn named it and the query does not (活着是谁写的 / 余华 / 你爱看吗 -> 活着); for a verb of
        going (``open_topic_reply``) also a place only the reply named, but not where the reply's
        speaker is (我在广州). None when there is none or more than one."""
        want = self.vo_topic_types.get(verb)
        if not want:
            return None
        found = {
            (mt.text, ti is exchange[0])
            for ti in exchange
            for mt in ti.mentions
            if (
                (mt.etype in want and mt.source.startswith(("dictionaries/", "rules/")))
                or want & self.vo_topic_frames.get(mt.source, frozenset())
            )
            and not (self.vo_topic_not is not None and self.vo_topic_not.search(mt.text))
        }
        if len({t for t, _ in found}) != 1:
            return None
        by_user = any(user for _, user in found)
        topic = found.pop()[0]
        if not by_user:
            # 去 / 来: the one place the reply named is where to go (我要深圳 / 那你来), not
            # where the reply's speaker is (我在广州)
            said = exchange[1].turn.content
            at = said.find(topic)
            if verb not in self.vo_topic_reply or (
                self.vo_topic_reply_not is not None
                and self.vo_topic_reply_not.search(said[: max(at, 0)])
            ):
                return None
        return None if topic in text else topic

    def _negation_echo(self, state: State, d: Dialogue, text: str) -> State | None:
        """The assistant's bare negation of the user's yes/no question said again by the user
        (rules/completeness.yaml ``negation_echo``: 你去过北京吗 / 没有 / 真的没有 -> 真的没有去过
        北京): what is negated is the question's predicate."""
        rule = self.neg_rule
        m = rule_match(rule, text.strip())
        exchange = last_exchange(state, d) if m is not None else None
        if rule is None or m is None or exchange is None or self.neg.end is None:
            return None
        told, last = exchange
        if self.final_mood.sub("", last.turn.content.strip()) != m.group("r"):
            return None
        asked = told.turn.content.strip().rstrip("?？!！。.~ 啊呀呢")
        body = self.neg.end.sub("", asked)
        if self.neg.lead is not None:
            body = self.neg.lead.sub("", body, count=1)
        has = self.neg.has.match(body) if self.neg.has is not None else None
        if body == asked.rstrip() and has is None:
            return None  # not a yes/no question (他去北京了 / 没有)
        pred = (body[has.end() :] if has else body).rstrip("了")
        topic = ""
        if has is None:
            toks = [t for t in self.mt.parse(pred).tokens if t.text.strip()]
            k = next((i for i, t in enumerate(toks) if t.text == "有"), -1)
            if k > 0 and all(kind_of(t.pos, t.text) == "NOUN" for t in toks[:k]):
                # 柳州有雾霾吗 / 没有 / 嗯没有 -> 嗯柳州没有雾霾: the topic stays in front
                topic, pred = pred[: toks[k].start], pred[toks[k].end :]
            elif not toks or kind_of(toks[0].pos, toks[0].text) != "VERB":
                return None  # what is negated is a verb phrase (去过北京), not a clause
        if (
            not 1 <= len(pred) <= self.neg.max_len
            or _CLAUSES.search(pred)
            or _HAS_QWORD.search(pred)
            or pred[0] in "不没"
        ):
            return None
        said = text.strip()
        lead = self.interjection.match(said)
        front = lead.end() if lead else 0
        new = said[:front] + topic + said[front : m.end("r")] + pred + said[m.end("r") :]
        note = f"{m.group('r')} of the user's question {asked!r}: {topic + pred!r}"
        return _resolved_from(
            state,
            rule.source,
            new,
            topic + pred,
            told,
            "obj",
            slot="object",
            note=note,
            confidence=0.6,
        )

    def _negated_statement(self, state: State, d: Dialogue, text: str) -> State | None:
        """A bare negation answering the assistant's statement of what was done (rules/
        completeness.yaml negation_echo ``stated_pattern``): the statement's verb phrase goes
        after the negation, its lead dropped and a noun subject kept in front (昨天吃火锅了 /
        没有 -> 没有吃火锅; 那你上小学了 / 没呢 -> 没上小学呢; 乐邦整容了 / 没有吧 -> 乐邦没有整容吧)."""
        ne = self.neg
        m = ne.stated.match(text.strip()) if ne.stated is not None else None
        last = _answered(state, d) if m is not None else None
        if m is None or last is None or ne.stated_end is None:
            return None
        said = last.turn.content.strip().rstrip("?？!！。.~ ")
        if re.search(r"[,，。;；!！?？\s]", said) or not ne.stated_end.search(said):
            return None
        body = ne.stated_end.sub("", said)
        if ne.stated_lead is not None:
            body = ne.stated_lead.sub("", body, count=1)
        toks = [t for t in self.mt.parse(body).tokens if t.text.strip()]
        k = next((i for i, t in enumerate(toks) if kind_of(t.pos, t.text) != "NOUN"), len(toks))
        if k == len(toks) or not (
            kind_of(toks[k].pos, toks[k].text) == "VERB"
            or (toks[k].pos == "f" and len(toks[k].text) == 1)  # 上/小学: 上 tagged a place word
        ):
            return None  # what is negated is a verb phrase after at most a noun subject
        subject, vp = body[: toks[k].start], body[toks[k].start :]
        if (
            not 2 <= len(vp) <= ne.stated_max
            or len(subject) > ne.stated_max
            or re.search("[了不没]", vp)  # 吃了火锅 / 不想去: no plain verb phrase
            or _HAS_QWORD.search(vp)
            or PERSON_PRONOUNS & {t.text for t in toks}
        ):
            return None
        new = m.group("pre") + subject + m.group("r") + vp + m.group("pt")
        note = f"{m.group('r')} answers the statement {said!r}: {subject + vp!r}"
        return _resolved_from(
            state,
            self.neg_rule.source if self.neg_rule is not None else "ellipsis:negation",
            new,
            subject + vp,
            last,
            "obj",
            slot="object",
            note=note,
            confidence=0.6,
        )

    def _tell_asked(self, state: State, exchange: tuple[TurnInfo, TurnInfo]) -> State | None:
        """A bare request to be told (告诉我吧, rules/completeness.yaml ``tell_asked``) after the
        user's own wh-question of the last exchange asks that question again: 你的电话号码是多少 /
        就不告诉你 / 告诉我吧 -> 告诉我你的电话号码是多少吧."""
        rule = self.tell_rule
        text = state.standalone.strip()
        m = rule_match(rule, text)
        if m is None or rule is None or self.tell.asked is None:
            return None
        told = exchange[0]
        asked = told.turn.content.strip()
        if self.tell.end is not None:
            asked = self.tell.end.sub("", asked)
        # 帮我查一下 takes a bare noun phrase, 告诉我吧 a question (a question to look up is
        # looked up by its topic: 你帮我搜一下 + 木槿, not 木槿是什么样的)
        look = bool(m.groupdict().get("look"))
        if (
            not 2 <= len(asked) <= self.tell.max_len
            or _CLAUSES.search(asked)
            or not (self._looked_up(told, asked) if look else self.tell.asked.search(asked))
            or (self.tell.not_asked is not None and self.tell.not_asked.match(asked))
            or asked in text
        ):
            return None
        note = f"what to tell: the user's question {asked!r}"
        return _object_after(state, rule.source, text, m.end("pre"), asked, told, note)

    def _looked_up(self, told: TurnInfo, asked: str) -> bool:
        """The user's turn ``told`` (``asked`` without its final particles) is a bare noun
        phrase, what a verb of looking up (rules/completeness.yaml tell_asked, group ``look``:
        帮我查一下 / 你帮我查查呗) is asked to find: no pronoun, verb or adverb in it
        (直链淀粉的结构 / 今年世界杯赛程表)."""
        toks = [t for t in told.parse.tokens if t.end <= len(asked) and t.text.strip()]
        kinds = [kind_of(t.pos, t.text) for t in toks]
        return (
            bool(toks)
            and toks[-1].end == len(asked)
            and kinds[-1] == "NOUN"
            and all(k in ("NOUN", "DE", "TIME", "ADJ", "NUM", "OTHER") for k in kinds)
        )

    def _send_had(self, state: State, exchange: tuple[TurnInfo, TurnInfo]) -> State | None:
        """A bare request to send (rules/completeness.yaml ``send_me``) after the user asked
        whether the assistant has a thing (``had``: 有没有会议纪要 / … / 发过来 -> 会议纪要发过来):
        that thing, before the request."""
        text = state.standalone.strip()
        if self.send_rule is None or self.send_me is None or self.send_had is None:
            return None
        if not self.send_me.match(text):
            return None
        told = exchange[0]
        m = self.send_had.match(told.turn.content.strip())
        if m is None or m.group("x") in text:
            return None
        note = f"what to send: what the user asked for ({m.group('x')!r})"
        return _object_after(state, self.send_rule.source, text, 0, m.group("x"), told, note)

    def _judged_lead(self, ti: TurnInfo) -> str | None:
        """The noun phrase turn ``ti`` opens with (one of its mentions, no pronoun, no question
        word) when the rest of the turn judges it (rules/completeness.yaml verb_object
        ``judged``: 银魂好看吗 -> 银魂)."""
        said = ti.turn.content.strip()
        if self.vo_judged is None:
            return None
        for m in sorted(ti.mentions, key=lambda m: m.end):
            if m.start != 0 or not 2 <= len(m.text) <= self.vo_max or m.end >= len(said):
                continue
            if self.personal.search(m.text[:1]) or _HAS_QWORD.search(m.text):
                continue
            if self.vo_judged.match(said[m.end :]):
                return said[: m.end]
        return None

    def _shared_topic(
        self, exchange: tuple[TurnInfo, TurnInfo], verb: str, text: str, at: int
    ) -> str | None:
        """The one noun phrase the user's turn of the last exchange names and the assistant's
        turn says again (卤煮 / 我知道有个零食叫卤煮: 卤煮), the topic a bare verb of the query
        takes when no turn gave the verb an object (rules/completeness.yaml verb_object
        ``shared_min`` …). A phrase inside a longer one of the set is the same topic; None when
        there is none, more than one, or the query says it; never for a verb of
        ``shared_not_verbs`` (去 / 看 take a place or a purpose more often than the topic: 买菜去 / 写给
        我看看), a query longer than ``shared_max_query`` nor a phrase matching
        ``shared_not_topic`` (那里 / 13号), a dictionary entity of a type of
        ``shared_not_types`` (a place is where, not what: 去吃 / 昆明) or a kind noun (公司: 京东方是什么公司); nor when a noun comes before the verb (``at``) in
        the query (对北京不了解 / 奥美拉唑儿童怎么吃: the verb has its topic)."""
        if not self.vo_shared or verb in self.vo_shared_not_verbs or len(text) > self.vo_shared_len:
            return None
        if any(
            kind_of(t.pos, t.text) == "NOUN" and not t.pos.startswith("t")
            for t in self.mt.parse(text[:at]).tokens
        ):
            return None
        told, last = exchange
        reply = last.turn.content
        found = {
            m.text
            for m in told.mentions
            if self.vo_shared_min <= len(m.text) <= self.vo_max
            and m.text in reply
            and not m.is_set
            and not self.personal.search(m.text)
            and not _HAS_QWORD.search(m.text)
            and not self.mt.is_clause(m)
            and not (self.vo_shared_not is not None and self.vo_shared_not.search(m.text))
            and not (m.protected and m.etype in self.vo_shared_not_types)
            and not self.mt.is_category(m.text)
        }
        found = {f for f in found if not any(f != g and f in g for g in found)}
        if not found:
            whole = self._said_whole(told)  # 就花鲢吧 / 好大的花鲢: cut 花/鲢, said whole
            found = {whole} if whole is not None and whole in reply else set()
        if len(found) != 1:
            return None
        topic = found.pop()
        return None if topic in text else topic

    def _said_whole(self, ti: TurnInfo) -> str | None:
        """Turn ``ti`` as one phrase, however jieba cut it, when it is nothing but a lead
        (rules/completeness.yaml verb_object ``shared_whole``: 就 / 那就) and the phrase with a
        final particle (就花鲢吧 -> 花鲢, 卤煮): at least ``shared_min`` and at most
        ``max_object`` characters, no pronoun, question word or what ``shared_not_topic`` finds."""
        m = self.vo_shared_whole.match(ti.turn.content) if self.vo_shared_whole else None
        if m is None:
            return None
        x = m.group("x")
        if (
            not self.vo_shared_min <= len(x) <= self.vo_max
            or self.personal.search(x)
            or _HAS_QWORD.search(x)
            or (self.vo_shared_not is not None and self.vo_shared_not.search(x))
            or self.mt.is_category(x)
        ):
            return None
        # a place or a time is where or when, not what (一起去吃 / 昆明; 冬天)
        toks = [t for t in ti.parse.tokens if x in t.text or t.text in x]
        types = {mt.etype for mt in ti.mentions if mt.text == x} | {
            self.mt.analyzer.type_of(t.text, t.pos) for t in toks
        }
        if types & self.vo_shared_not_types or any(t.pos.startswith(("t", "ns")) for t in toks):
            return None
        return x

    def _bare_topic(self, ti: TurnInfo) -> str | None:
        """The whole of turn ``ti`` when it is a bare noun phrase (剑风传奇 / 猪肘子呀): nouns, a
        的 inside them, final particles; at most the rule's ``max_object`` characters, no
        pronoun, no question word."""
        said = self.final_mood.sub("", ti.turn.content.strip())
        toks = [t for t in ti.parse.tokens if t.end <= len(said)]
        if not said or len(said) > self.vo_max or not toks or toks[-1].end != len(said):
            return None
        kinds = [kind_of(t.pos, t.text) for t in toks]
        if kinds[0] != "NOUN" or kinds[-1] != "NOUN" or any(k not in ("NOUN", "DE") for k in kinds):
            return None
        if any(t.text in PERSON_PRONOUNS or is_question_word(t.text) for t in toks):
            return None
        # a phrase the turn names whole, not a person's kind (朋友 / 老师)
        if not any(m.text == said and m.etype not in HUMAN_TYPES for m in ti.mentions):
            return None
        return said

    def _words(self, text: str) -> set[str]:
        return {t.text for t in self.mt.parse(text).tokens}

    def _after_verb(self, verb: str, said: str, pre: re.Pattern[str], text: str) -> str | None:
        """What ``said`` has after ``verb`` (or after the verb without a mood word before it:
        爱穿 / 穿), when all before the verb matches ``pre``: no aspect nor measure (讲个笑话 ->
        笑话), at most ``max_object`` characters, naming no person and asking nothing, and not
        already in the query ``text``."""
        obj = None
        # 我爱穿 after 你穿裙子吗: the verb without the mood word before it
        moods = len(verb) >= 2 and verb[0] in self.echo_moods
        for cand in (verb, verb[1:]) if moods else (verb,):
            i = said.find(cand)
            if i >= 0 and not self.personal.search(cand) and pre.match(said[:i]):
                obj = re.sub(r"^[了过]?个?", "", said[i + len(cand) :])
                break
        if (
            not obj
            or len(obj) > self.own_max
            or obj[0] in "不没了过的是"
            or self.personal.search(obj)
            or _HAS_QWORD.search(obj)
            or obj in text
        ):
            return None
        return obj

    def _complete(self, state: State, *, echo_again: bool) -> State:
        """The query completed; after a verb echo (不予 -> 不予7天无理由退货) the result is read
        once more (``echo_again`` False, no second echo), so that a subject the echoed verb
        phrase still misses is put back now, not by rewriting the rewrite: a rewrite of the
        rewrite changes nothing."""
        if state.decision == "ask_user" or "coreference" in state.modes:
            return state
        text = state.standalone
        # 哪种好吃 / 哪个牌子的最好: a kind of one thing asked about (kind_de), no choice between
        # things unless the last turns said a set to choose from; nor is 你以前的比较好看
        # (owned_head) a comparison between things
        kind_asked = (self.kind_de is not None and self.kind_de.search(text) is not None) or (
            self.owned_head is not None and self.owned_head.match(text) is not None
        )
        counted_noun = self._measure_noun(state, text)
        if counted_noun is not None:
            return counted_noun  # 哪张 -> 哪张海报: the thing the measure counts
        if state.has("fw:comparison") and not kind_asked:
            return state  # 哪个更便宜 / 有什么区别: the comparison mode's business
        if len(text) > self.max_len or self.mt.analyzer.is_chitchat(text):
            return state
        d = self.mt.dialogue(state)
        if kind_asked and d.sets():
            kind_asked = False
            if state.has("fw:comparison"):
                return state
        m = self.ne_shape.match(text.strip())
        if m and not _HAS_QWORD.search(m.group("x")):
            done = self._bare_ne(state, d, m.group("lead"), m.group("x").strip())
            if done is not None:
                return done
            # X is a clause, not a noun phrase (喜不喜欢呢 / 密码老是不对呢): an ordinary
            # question ending in 呢, checked for completeness like any other
        told = self.mt.narrate(state, d, text, mode="ellipsis")
        if told is not None:
            return told  # 梦到林俊杰 / … / 在唱歌 -> 梦到林俊杰在唱歌
        why = (
            self._bare_why(state, d, text)
            or self._where_to(state, d, text)
            or self._taught(state, d, text)
            or self._eaten_effect(state, d, text)
        )
        if why is not None:
            return why
        answer = (
            self._copula_echo(state, d, text)
            or self._weather(state, d, text)
            or self._place_answered(state, d, text)
            or self._judged_object(state, d, text)
            or self._negation_echo(state, d, text)
            or self._negated_statement(state, d, text)
            or self._stated_answer(state, text)
            or self._answer(state, d, text)
            or self._a_not_a(state, d, text)
            or self._judged_answer(state, d, text)
            or self._wh_answer(state, d, text)
            or self._times_answer(state, d, text)
            or self._stated_answer(state, text, echo=True)
            or self._unknown(state, d, text)
            or self._clause_object(state, d, text)
            or self._identity(state, d, text)
            or self._who_answer(state, d, text)
            or self._confirm(state, d, text)
            or self._comment(state, d, text)
            or self._really(state, d, text)
            or self._opinion(state, d, text)
        )
        if answer is not None:
            return answer
        fav = self._favourite(state, d, text)
        if fav is not None:
            return fav  # 你最喜欢谁 / 喜欢里面的谁: the members of the work talked about
        parse = self.mt.parse(text)
        if any(r.text for r in self.mt.references(text, parse)):
            # pronouns and sets: coreference / comparison decide; a zero-width one (the trouble
            # before a bare 怎么办, coreference problem_then) left unresolved leaves the subject
            # to find here (胃癌 / … / 怎么办 -> 胃癌怎么办)
            return state
        which, at = self.mt.which_noun(text, parse)
        member = which in self.which_members and not any(
            kind_of(t.pos, t.text) == "NOUN" for t in parse.tokens if t.end <= at
        )
        if at >= 0 and not member and which not in self.which_attributes and not kind_asked:
            return state  # 哪个更便宜 / 哪款手机: a choice, comparison decides
        # 你送我一个呗: the count with no noun, read once for the echo, the gap and the filter
        counted = self._counted(text)
        echo = self._verb_echo(state, d, parse, counted)
        if echo is not None:
            return self._complete(echo, echo_again=False) if echo_again else echo
        owner = None if member else self._owner_de(parse, d)
        if owner is not None:
            gap: tuple[str, int] | None = ("object", owner)  # 香港的 -> 香港的迪士尼
        else:
            gap = ("subject", at) if member else self._gap(parse, counted)
        if gap is not None and gap[0] == "subject" and not member:
            # read after an opening acknowledgement: 好吧大阪提供…吗 has its subject (大阪);
            # 嗯嗯怎么设置密码 takes its topic after 嗯嗯
            acked = self._gap(parse, counted, after_ack=True)
            gap = acked if acked is None or acked[0] == "subject" else gap
            gap = self._past_bare_frame(text, parse, counted, gap)
        elif gap is None and not member and self._acked_bare(parse):
            # 嗯嗯什么时候发新歌 / 恩 讲的什么: the clause after an acknowledgement has no
            # subject, though the whole (the acknowledgement read as its opening) looked whole
            acked = self._gap(parse, counted, after_ack=True)
            gap = acked if acked is not None and acked[0] == "subject" else None
        elif gap is None and self.frame is not None and self.frame.match(text):
            # 我感觉还不错啊: the speaker's frame has a subject, the clause it frames has none
            framed = self._gap(parse, counted, skip=self.frame)
            gap = framed if framed is not None and framed[0] == "subject" else None
        tasted = self.taste.match(text) if gap is None and self.taste is not None else None
        if tasted is not None:
            # 真香 / 但是有点腻 (jieba: 香 a place, 腻 a verb): the food a turn of eating named
            # first (typed_comment: 不吃粗粮 / 好难吃), else the subject goes after the lead
            exchange = last_exchange(state, d)
            typed = self._typed_comment(state, exchange) if exchange is not None else None
            if typed is not None:
                return typed
            gap = ("subject", tasted.end("lead"))
        how = self.how_object.match(text) if self.how_object is not None else None
        if how is not None and gap is not None and gap[0] == "subject":
            gap = ("subject", how.end("v"))  # 你怎么知道 -> 你怎么知道X: a how-verb's object
        media = self.media.match(text) if self.media is not None else None
        if media is not None:
            # 有图片吗 / 给我发个链接: a picture or link of no one; whose goes before the noun
            gap = ("subject", media.start("n"))
            asked = self._media_asked(state, d, text, media.start("n"))
            if asked is not None:
                return asked
        similar = self.similar.match(text) if self.similar is not None and media is None else None
        if similar is not None:
            # 有类似的动漫吗: like what goes after 类似 (有类似寄生兽的动漫吗)
            gap = ("subject", similar.end("sim"))
        owned = self.owned_head.match(text) if self.owned_head is not None else None
        if owned is not None and media is None and similar is None:
            gap = ("object", owned.end("de"))  # 我的也是二手的 -> 我的洗衣机也是二手的
            had = self._owned_said(state, d, text, owned.end("de"))
            if had is not None:
                return had  # 你的手机用了多久 / … / 我的用了两年 -> 我的手机用了两年
        if gap is None:
            # 吃了我怕胖 / 我买了也不中奖: a verb inside the query that lost its object
            echoed = self._mid_verb_echo(state, d, parse)
            if echoed is not None:
                return echoed
            closed = self._particle_gap(parse)
            if closed is None:
                return state
            gap = ("object", closed)  # 我还没买呢你怎么不请我 -> 我还没买月饼呢…
        kind, pos = gap
        if kind == "subject" and self._verb_then_part(parse):
            # 知道作者吗 / 说说情节: the part of the work is the verb's object, the work goes
            # before the part, not first
            part = self._work_attribute(state, d)
            if part is not None:
                return part
        if not any(ti.mentions for ti in d.turns):
            if kind == "subject" and not state.history and self._bare_attr(parse):
                etype, src = self.ask_type, self.mt.sources.get("ask_attributes", "ellipsis")
                return ask(
                    state,
                    "ellipsis",
                    src,
                    question=f"请问您问的是哪个{self.type_names.get(etype, '对象')}？",
                    missing=(etype,),
                    note=f"missing {etype} and no history",
                )
            return state
        recent = {ti.turn.index for ti in d.turns[-(self.max_back + 1) :]}
        hinted = {t for t, _ in self.mt.hinted_types(text)}
        human = kind == "subject" and any(t.text in self.human_predicates for t in parse.tokens)
        # 来一首 / 看一部: a work is counted, and a person is no work (a song of 林俊杰 is not 林俊杰)
        no_person = (
            kind == "object" and counted is not None and counted.group("m")[-1:] in self.work_counts
        ) or (kind == "object" and self._work_named(state, d, text[:pos]))
        # the tests on the mention's fields first; the two that may segment and parse the
        # mention's text (a reference in it, an adverb in it) only for what is left
        cands = [
            c
            for c in self.mt.rank(d, text=text)
            if not _is_pronounish(c.mention)
            and text not in c.mention.text  # 宽板凳 after 宽板凳神鲜杨家: an echo, not a gap
            # 不想喝热水了: 万能的热水 is already there as the object, it fills no other gap
            # (审批流程呢 opens with 审批: what it asks about belongs to 差旅标准审批)
            and not (
                len(c.mention.head) >= 2
                and c.mention.head in text
                and not text.startswith(c.mention.head)
            )
            and c.mention.turn in recent
            # a place is the setting of a chat, not its topic, unless the query asks about one
            and (
                c.mention.etype != "place"
                or "place" in hinted
                # 我也想去 / 你陪我去吗: a place is where one goes
                or (kind == "object" and text[:pos].rstrip("了过").endswith(self.going))
                # 你了解敦煌吗 / 介绍一下: a topic frame made the place the topic
                or (c.mention.gram == "topic" and c.mention.source.startswith("rules/"))
                # 悉尼天气怎么样 / 悉尼今天… / 湿度呢: the place the user's turn opens with
                # (its topic) and the answer took up is the topic of the chat, not its setting
                # 深圳怎么样 / … / 你喜欢吗: and it is what the user's liking is about
                or (
                    (kind == "subject" or not text[:pos].rstrip("了过").endswith(self.no_place))
                    and self._place_topic(c, d)
                )
            )
            # 好伤心 / 会讲话: only a person feels or talks
            and (not human or c.mention.etype in HUMAN_TYPES)
            and not (no_person and c.mention.etype in HUMAN_TYPES)
            # a phrase that itself refers (三者 / 其以及…) fills nothing; coreference's business
            and not self.mt.references(c.mention.text)
            and not self.mt.is_clause(c.mention)
        ]
        # a name inside a longer phrase that scores about as well (S7 in 云栖S7扫地机) is the same
        # referent, not a rival: keep the longer phrase
        cands = merge_nested(
            cands,
            self.margin,
            attributes=self.mt.attribute_words,
            own_names=self.mt.own_names,
            versions=self.mt.version_suffix,
        )
        if owned is not None:
            # 我的用了两年: the thing owned, not a question phrase of the last turns (多长)
            cands = [c for c in cands if not _HAS_QWORD.search(c.mention.text)]
        if not cands:
            return self._mid_verb_echo(state, d, parse) or state
        best = cands[0]
        if kind == "subject":
            best = self._other_attribute_owner(best, cands, text, d)
        asks = is_question(parse)
        kinds = self.question_kinds if asks else self.salient_kinds
        if not asks and len(text) <= self.statement_short:
            kinds = self.statement_kinds  # a short statement (吃了会胖) leans on the last turns
        if not asks and not state.has("entity") and not _same_kind_named(parse, best.mention.text):
            kinds = kinds | self.statement_any_kinds
        floor = self.min_score_question if asks else self.min_score
        if kind == "subject" and self._copula_led(parse):
            # 是一个游戏 / 也是歌手啊: what the missing topic is (salient_copula)
            kinds = self.salient_kinds | self.copula_kinds
            floor = self.min_score_question
        if kind == "subject" and self._judged_again(best, d, text):
            kinds = kinds | {"lead"}  # 高数好难 / 别怕没那么难 / 真的难: judged again
        tastes = (
            kind == "subject"
            and self.taste is not None
            and best.mention.etype not in self.taste_not_types
            and best.mention.head not in self.attribute_nouns  # 味道不错: no food of its own
            and self.taste.match(text) is not None
            and not self._asked_back(best, d)
        )
        if kind == "object":
            kinds = kinds | self.object_kinds
            if self._evaluated_lead(best, d):
                kinds = kinds | {"lead"}  # 榴莲臭吗 / 反胃了 / 我喜欢吃: what the user judged
        answer_turn = self.mt.bare_answer(state, d)
        answered = answer_turn.turn.index if answer_turn is not None else None
        if answered is not None and asks:
            # 去哪玩 / 游乐园 / 怎么去: the assistant's bare answer is what the question is about
            best = next((c for c in cands if c.mention.turn == answered), best)
            whole = self.mt.answer_mention(state, d, text)
            if (
                whole is not None
                and whole.source == "answer"  # a title answering a what-kind question
                and best.mention.turn == answered
                and best.mention.text in whole.text
                and len(whole.text) > len(best.mention.text)
            ):
                # 什么漫画 / 进击的巨人: the title is the whole answer, not its last noun
                best = new_candidate(whole, best.score, best.why + ", the whole answer")
        named = (
            self._named_object(state, d, cands)
            if kind == "object"
            else self._named_subject(state, d, cands)
        )
        if named is None and kind == "object":
            named = self._how_asked_object(state, d, cands, parse, pos)  # 红烧肉怎么做 / 不会做
        if named is None and kind == "object":
            named = self._where_got(state, d, cands, text)  # 可以试试冰硼散 / 在哪里能买到
        if named is None and kind == "object":
            named = self._told_topic(state, d, cands, text)  # 你知道千岛湖吗 / … / 仔细说说
        if kind == "subject" and asks and not member and answered is None:
            named = self._kind_answered(state, d, best, text)  # 晚饭吃什么 / 外卖便当 / 在哪买
        if named is None and kind == "subject" and not member:
            named = self._same_predicate(state, d, cands, parse, pos)  # 比赛就要开始了 / 已经开始了
        if named is None and kind == "subject" and not member and len(text) <= self.counter_len:
            named = self._counter_offer(state, d, cands)  # 那现金也行 / 怎么给 -> 现金怎么给
        confident = self._confident(cands, kinds, floor)  # the same candidates, kinds and floor
        if named is None and len(text) <= self.offered_len:
            offer = self._offered(state, d, cands)  # 晚上想吃什么 / 我想吃西餐 / 很贵的
            if offer is not None and (not confident or self._moved_on(state, d, offer)):
                named = offer
        if named is None and not confident and tastes:
            # 好吃极了 / 太甜: a food, however it ranks (after the thing the reply offered)
            confident = self._confident(cands, kinds | self.taste_kinds, min(floor, self.taste_min))
        if (
            named is None
            and not confident
            and kind == "subject"
            and self.kind_comment is not None
            and self.kind_comment.search(text) is not None
        ):
            # 毁童年的动漫 / 是很出名的明星: what kind of thing the exchange's thing is
            confident = self._confident(
                cands, kinds | self.kind_comment_kinds, min(floor, self.kind_comment_min)
            )
        if named is None and kind == "object" and not confident:
            named = self._judged_reply(state, d, cands)  # 刀塔传奇很好玩 / 我不会玩
        if named is None and kind == "object" and not confident:
            named = self._refused(state, d, cands, text)  # 成语接龙可从没输过 / 不玩
        if named is None and kind == "object" and not confident and not _HAS_QWORD.search(text):
            named = self._verb_after(d, cands, parse, pos)  # 鬼故事就怕你不敢听 / 敢听呀
        if named is not None:
            best = named  # 生蚝呀 / 没吃过: the thing the assistant just named is the object
        if not (
            (answered is not None and asks and best.mention.turn == answered)
            or named is not None
            or (confident and not self._left(best, d, parse))
            or (kind == "object" and self._quiet_reply(cands, d, text[:pos], state.history))
        ):
            declined = state.note(
                "ellipsis",
                self.mt.sources.get(f"missing_{kind}", "ellipsis"),
                f"missing {kind}: best {best.mention.text} not salient enough ({best.why})",
            )
            if kind != "object" or not self._short_reply_object(d, text, pos):
                # 不看只看动漫: no topic salient enough, but a verb inside lost its object
                return self._mid_verb_echo(state, d, parse) or declined
            defer = declined  # the reply's lead, only when no fallback completes the query
        else:
            defer = None
        if kind == "object" and named is None:
            b = best.mention
            objs = [
                c
                for c in cands
                if c.mention.gram in ("obj", "dep", "coo")
                # 魏无羡 of 魏无羡和蓝忘机: a part of the best phrase is no other object
                and not (
                    c.mention.turn == b.turn
                    and b.start <= c.mention.start
                    and c.mention.end <= b.end
                    and len(c.mention.text) < len(b.text)
                )
            ]
            if objs and objs[0].score >= best.score - 1.0:
                best = objs[0]
        if defer is not None and not self._reply_lead(best, d, text, pos):
            return defer
        if (
            kind == "subject"
            and self._predicate_lead_at(text, pos)
            and not any(
                ti.turn.role == "user" and best.mention.text in ti.turn.content for ti in d.turns
            )
        ):
            # 减肥可以吃什么水果 / 苹果 / 还有什么: more of what the user asked about, not of
            # what only the answer named (苹果还有什么)
            return state.note(
                "ellipsis",
                self.mt.sources.get("lead_words", "ellipsis"),
                f"还有 asks for more: {best.mention.text} was only named by the answer",
            )
        # 劳驾88VIP: a polite opener the phrase was said with is no part of it (a dictionary
        # entity stands as written: 你好李焕英 is a title, not a greeting)
        filler = best.mention.text
        if owned is not None:
            # 有好一点的吗 + 更多的表情包 -> 有好一点的表情包吗, 有便宜点的吗 + 一件羽绒服 ->
            # 有便宜点的羽绒服吗: the query has its own modifier, the head alone goes after it
            if len(best.mention.head) >= 2 and "的" in filler:
                filler = best.mention.head
            filler = self._uncounted(filler)
        if not self._whole_entity(filler):
            filler = self.openers_re.sub("", filler) or filler
        # 危险的照明灯 / 怎么危险了: the query says the modifier, the head alone goes in
        filler = self._title_alone(unmodified(filler, state.query))
        if kind == "subject" and not re.search("[我你他她]的?$", text[:pos]):
            filler = self._owned(state, d, filler)  # 是个大帅哥 -> 我男朋友是个大帅哥
            # 那汪涵的老婆呢 / 一般般 -> 汪涵的老婆一般般; a picture asked for is of the topic
            filler = self._asked_of(d, filler, opened=media is None)
        if kind == "subject":
            filler = self._had_illness(d, best.mention, filler, text)
            filler = self._work_of_role(filler, text)
            if filler == best.mention.text and best.mention.etype == "human":
                # 我要男朋友回来 / 你男朋友是何方妖孽 / 是个大帅哥 -> 我男朋友是个大帅哥: the
                # user's own person keeps the user's 我, as coreference gives it to 他 / 她
                filler = (
                    user_owner(state, filler, said_turn(state, best.mention), best.mention.start)
                    + filler
                )
        if filler == best.mention.text:
            filler = self._timed(d, best.mention, filler, text)
        if kind == "object":
            # 喜欢吃 + 吃榴莲, 没买 + 买票: the verb the phrase opens with is already there
            for k in range(min(3, len(filler) - 1), 0, -1):
                if text[:pos].endswith(filler[:k]):
                    filler = filler[k:]
                    break
        said = (
            next((t.text for t in parse.tokens if t.start >= pos), "") if kind == "subject" else ""
        )
        if (
            len(said) >= 2
            and filler.endswith(said)
            and len(filler.removesuffix(said).removesuffix("的")) >= 2
        ):
            # 房价会降吗 + 上海房价 -> 上海房价会降吗: the query says the head itself (its first
            # word), only the modifier is missing
            filler = filler.removesuffix(said).removesuffix("的")
        if media is not None:
            filler += "" if filler.endswith("的") else "的"  # 有图片吗 -> 有马卡龙的图片吗
        elif similar is not None:
            pass  # 类似 + the thing + the query's own 的
        elif member:
            # 喜欢哪个角色 -> 喜欢龙珠的哪个角色; 里面哪个人物 -> 命运石之门里面哪个人物
            inside = [t for t in parse.tokens if t.end <= pos and t.text in ("里面", "里")]
            if inside:
                pos = inside[-1].start  # 里面你最喜欢哪个人物: the whole goes before 里面
            filler += "" if inside else _owner_glue(filler)
        elif (
            which
            and not kind_asked
            and text.startswith("哪")
            and text.rstrip("?？呢啊呀").endswith("的")
        ):
            filler += "是"  # 哪个国家的 -> 毕加索是哪个国家的
        elif how is not None:
            pass  # the object of the how-verb takes nothing after it
        elif (
            kind == "subject"
            and not filler.endswith("的")
            and (link := self._link(d, filler, text[pos:]))
        ):
            filler += link  # 什么爆点内容 -> X有什么爆点内容; 哪个省 -> 合肥在哪个省
        elif kind == "subject" and not filler.endswith("的") and self._says_what(text[pos:]):
            filler += "是"  # 谁唱的 -> 泡沫是谁唱的; 唱民谣的 -> 赵雷是唱民谣的
        if (
            kind == "subject"
            and how is None
            and self._attribute_first(parse, pos, alone=best.mention.etype != "place")
        ):
            # 作者是谁 -> 三体的作者是谁 (钢铁是怎样炼成的 already ends with its 的); a bare 作者
            # -> 三体的作者, but a place's 空气质量 -> 成都空气质量
            filler += _owner_glue(filler)
        owner_at = (
            self._owned_object_at(parse, pos, said=state.query)
            if kind == "subject"
            and how is None
            and media is None
            and similar is None
            and filler == best.mention.text
            and not filler.endswith("的")
            else None
        )
        if owner_at is not None:
            # 讲讲大概意思 -> 讲讲雾都孤儿的大概意思: the topic owns the object told or read
            filler += _owner_glue(filler)
            pos = owner_at
        elif kind == "subject" and how is None and media is None and similar is None:
            filler = self._joined_as_said(d, filler, parse, pos)  # X剧情 / X的配音 as said
            pos = self._topic_at(parse, pos, bare=filler == best.mention.text)
        elif kind == "object":
            pos = self._object_at(text, pos)
        new = text[:pos] + filler + text[pos:]
        src = self.mt.sources.get(f"missing_{kind}", f"ellipsis:{kind}")
        if defer is not None:
            # kept aside: __call__ takes it when none of the fallbacks completes the query
            done = resolved(
                state,
                "ellipsis",
                self.rlo.source or src,
                new,
                best.mention,
                slot=kind,
                note=f"missing {kind}: {best.mention.text}, the short reply's lead ({best.why})",
                confidence=0.6,
            )
            return defer.evolve(scratch={**defer.scratch, _REPLY_LEAD: done})
        return resolved(
            state,
            "ellipsis",
            src,
            new,
            best.mention,
            slot=kind,
            note=f"missing {kind}: {best.mention.text} ({best.why})",
            confidence=0.75,
        )

    def _topic_at(self, parse: Parse, pos: int, *, bare: bool) -> int:
        """Where a missing topic goes in the parsed query, ``pos`` being the gap the
        completeness check found: before a why opener (lead_words ``topic_before``: 为什么不好用
        -> X为什么不好用) and, when the topic is put in as said (``bare``: no 的 or 是 added to
        it), after the copula of a confirmation question at the gap (ellipsis_patterns
        ``copula_asked``: 是吗真厉害啊 -> 是律师吗真厉害啊, not 律师是吗…), after the verb of
        a where-question (``where_object``: 在哪见过 -> 在哪见过猴腮雷) or of a rhetorical
        不是 (``done_asked``: 不是说过啊 -> 不是说过密码啊), after a bare 没有 (``none_had``:
        怎么没有 -> 怎么没有红包), after a verb of going ending the query (``go_end``: 有时间
        一起去 -> 有时间一起去大栅栏), of liking (``like_end``: 好喜欢 -> 好喜欢蜡笔小新) or
        after what one lacks to do it (``lack_to_do``: 没钱买 -> 没钱买戚风蛋糕), or after a
        count with
        nothing counted (``count_object``: 要多少 -> 要多少彩礼, unless a noun follows it)."""
        text = parse.text
        opener = next((w for w in self.topic_before if text[:pos].rstrip().endswith(w)), "")
        if opener:
            return len(text[:pos].rstrip()) - len(opener)
        if not bare:
            return pos
        asked = (
            self.copula_asked.match(text, pos)
            or self.where_object.match(text, pos)
            or self.done_asked.match(text, pos)
            or self.none_had.match(text, pos)
        )
        if asked is not None:
            return asked.end()
        went = (
            self.go_end.search(text, pos)
            or self.like_end.search(text, pos)
            or self.lack_to_do.search(text, pos)
        )
        if went is not None:
            return went.end()  # 有时间一起去 -> 有时间一起去大栅栏; 好喜欢 -> 好喜欢蜡笔小新
        counted = self.count_object.match(text, pos)
        if counted is None:
            return pos
        end = counted.end()
        after = next((t for t in parse.tokens if t.end > end), None)
        if after is None:
            return end
        # 要多少钱 (多少钱 one word) / 要多少押金: the count has its noun
        noun = after.start != end or kind_of(after.pos, after.text) == "NOUN"
        return pos if noun else end

    def _media_asked(self, state: State, d: Dialogue, text: str, at: int) -> State | None:
        """A picture, link or number asked for with no owner (有小视频吗, at ``at`` the noun)
        right after the user's turn of the last exchange (its reply may be chit-chat: 嗯嗯)
        asked for one with its owner
        (media_owner ``asked``: 发一张刘贺的图片 / 晨曦公主的图片): the nouns before that 的
        own the query's too (有刘贺的小视频吗), however they rank as a topic."""
        user = next((ti for ti in reversed(d.turns) if ti.turn.role == "user"), None)
        if user is None or not state.history or not self.media_asked:
            return None
        if user.turn.index < state.history[-1].index - 1:
            return None  # older than the last exchange (a reply of chit-chat may be left out)
        toks = [t for t in user.parse.tokens if t.text.strip()]
        for k in range(1, len(toks) - 1):
            if toks[k].text != "的" or toks[k + 1].text not in self.media_asked:
                continue
            j = k
            while j > 0 and kind_of(toks[j - 1].pos, toks[j - 1].text) == "NOUN":
                j -= 1
            owner = user.turn.content[toks[j].start : toks[k].start] if j < k else ""
            if len(owner) < 2 or owner in text:
                return None
            return _resolved_from(
                state,
                self.mt.sources.get("media_owner", "ellipsis"),
                text[:at] + owner + "的" + text[at:],
                owner,
                user,
                "att",
                etype="thing",
                slot="owner",
                note=f"whose: {owner}, whose {toks[k + 1].text} the user's last turn asked for",
                confidence=0.65,
            )
        return None

    def _owned_said(self, state: State, d: Dialogue, text: str, at: int) -> State | None:
        """A speaker's own one of something with the thing left out (owned_head, at ``at``
        after its 的: 我的用了刚两年 / 你的多高) right after the user's turn of the last exchange
        said someone's one of it (你的手机 / 你的EQ: a person's pronoun, 的, nouns): those nouns
        are the thing (我的手机用了刚两年), which the ranking, reading 你的手机 as a reference,
        does not offer."""
        if not text.startswith(("我的", "你的")):
            return None
        user = next((ti for ti in reversed(d.turns) if ti.turn.role == "user"), None)
        if user is None or not state.history or user.turn.index < state.history[-1].index - 1:
            return None
        toks = [t for t in user.parse.tokens if t.text.strip()]
        for k in range(1, len(toks) - 1):
            if toks[k].text != "的" or toks[k - 1].text not in self.owned_said_owners:
                continue
            j = k + 1
            while j < len(toks) and kind_of(toks[j].pos, toks[j].text) == "NOUN":
                j += 1
            head = user.turn.content[toks[k + 1].start : toks[j - 1].end] if j > k + 1 else ""
            if not head or head in text or _HAS_QWORD.search(head):
                return None
            return _resolved_from(
                state,
                self.mt.sources.get("owned_head", "ellipsis"),
                text[:at] + head + text[at:],
                head,
                user,
                "obj",
                etype="thing",
                slot="object",
                note=f"the thing owned: {head}, someone's {head} in the user's last turn",
                confidence=0.65,
            )
        return None

    def _owned_object_at(self, parse: Parse, pos: int, *, said: str) -> int | None:
        """Where the missing topic goes as the owner of the object of a verb of telling,
        showing, reading or playing back at the gap (ellipsis_patterns ``owned_object``): the
        start of that object, a noun that starts right after the verb (讲讲大概意思 -> 讲讲 +
        X的 + 大概意思); None when the verb has no noun of its own there (说说看 / 看到第几话)
        or when the user did not say it (``said``: 看过 + the object an earlier step gave it)."""
        m = self.owned_object.match(parse.text, pos)
        if m is None or m.end() == pos:
            return None
        if not any(t.start == pos for t in parse.tokens):
            return None
        toks = [t for t in parse.tokens if t.start >= m.end()]
        if not toks or toks[0].start != m.end():
            return None
        # a modifier jieba tags an adverb or adjective may open the object (大概意思)
        if len(toks) > 1 and kind_of(toks[0].pos, toks[0].text) in ("ADV", "ADJ"):
            toks = toks[1:] if toks[1].start == toks[0].end else toks
        noun = toks[0]
        if kind_of(noun.pos, noun.text) != "NOUN" or is_question_word(noun.text):
            return None
        return m.end() if parse.text[m.start() : noun.end] in said else None

    def _object_at(self, text: str, pos: int) -> int:
        """Where a missing object goes, ``pos`` being the gap after the verb: first, after the
        query's lead, when the query is a bare modal question on the verb with no one named to
        do it (ellipsis_patterns ``patient_modal``: 可以买吗 -> 比特币可以买吗, the thing asked
        about is the topic); before 给 when a beneficiary and what they do with the thing end
        the query (``give_to_do``: 念给我听 -> 念三重门给我听); else at the gap."""
        m = self.patient_modal.match(text)
        if m is not None:
            return m.end("lead")
        given = self.give_to_do.search(text)
        return given.start() if given is not None and given.end() >= pos else pos

    def _short_reply_object(self, d: Dialogue, text: str, pos: int) -> bool:
        """The query is short, its verb's object missing at its end, and the assistant's reply
        (the last turn) is short (rules/completeness.yaml ``reply_lead_object``): the shape in
        which the reply's lead may be the object (:meth:`_reply_lead`)."""
        rlo = self.rlo
        last = d.turns[-1] if d.turns else None
        if rlo.tail is None or last is None or last.turn.role != "assistant":
            return False
        before = text[:pos]
        return (
            len(text.strip()) <= rlo.max_query
            and len(last.turn.content.strip()) <= rlo.max_reply
            and rlo.tail.match(text, pos) is not None
            and not (rlo.not_before is not None and rlo.not_before.search(before))
            and not (rlo.not_query is not None and rlo.not_query.search(text))
        )

    def _reply_lead(self, best: Any, d: Dialogue, text: str, pos: int) -> bool:
        """``best`` is the object the assistant's short reply ends with, not after a copula (我会
        说日语 / 你能教我吗), or opens that reply (瓦力是你谁 / 糖醋排骨我很喜欢 / 大宝剑) and the
        query's verb (我不认识 / 来吃 / 没去过) is not said after it there (沙发能吃 / 不能吃: the
        thing is the topic of the verb, not its object) and the rest of the reply is no clause
        with an object of its own (大吉大利今晚吃鸡: 大吉大利 is no thing talked about); no phrase
        longer than ``max_phrase``, no person (``not_types``: 七妹 / 偶像 are no object of 吃 /
        看), no attribute (鸭脖的香味)."""
        m = best.mention
        last = d.turns[-1]
        said = last.turn.content.strip()
        verb = text[:pos].rstrip("了过着")[-1:]
        if (
            m.turn != last.turn.index
            or len(m.text) > self.rlo.max_phrase
            or m.etype in self.rlo.not_types
            or m.head in self.attributes
        ):
            return False
        end = said.rfind(m.text)
        if (
            m.gram == "obj"
            and end > 0
            and self.rlo.tail is not None
            and self.rlo.tail.match(said, end + len(m.text)) is not None
        ):
            # 你会说英文吗 / 你要教我吗: the object the reply ends with, not what a copula
            # says someone is (我是传说中的X / 哇幸会幸会)
            return not said[:end].endswith(self.copulas)
        rest = said[len(m.text) :]
        if not (said.startswith(m.text) and bool(verb) and verb not in rest):
            return False
        kinds = [kind_of(t.pos, t.text) for t in self.mt.parse(rest).tokens] if rest else []
        return not any(a == "VERB" and b == "NOUN" for a, b in pairwise(kinds))

    def _uncounted(self, phrase: str) -> str:
        """The phrase without the count it opens with (一件羽绒服 -> 羽绒服)."""
        toks = [t for t in self.mt.parse(phrase).tokens if t.text.strip()]
        if len(toks) >= 2 and kind_of(toks[0].pos, toks[0].text) == "NUM":
            return phrase[toks[1].start :]
        return phrase

    def _predicate_lead_at(self, text: str, pos: int) -> bool:
        """A lead word that is the query's predicate (还有 before a question word: rule
        lead_words ``predicate_leads``) starts at ``pos``."""
        if self.predicate_before is None:
            return False
        lead = next((w for w in self.predicate_leads if text.startswith(w, pos)), None)
        return lead is not None and self.predicate_before.match(text, pos + len(lead)) is not None

    def _place_topic(self, c: Any, d: Dialogue) -> bool:
        """A place the last user turn opens with (成都有什么好玩的 / 上海啊: the topic, first)
        and the assistant's reply took up (place_topic in the thresholds)."""
        if not self.place_topic or _EXCHANGE not in c.why:
            return False
        if len(d.turns) < 2 or d.turns[-2].turn.role != "user":
            return False
        user = d.turns[-2]
        if d.turns[-1].turn.index != user.turn.index + 1:
            return False  # the user's turn in between was chit-chat: no exchange
        said = self.openers_re.sub("", user.turn.content.strip())
        lead = next((w for w in self.lead if said.startswith(w)), "")
        said = said[len(lead) :]
        # 挪威的森林怎么样: a place that modifies a noun is part of the topic, not the topic
        return said.startswith(c.mention.text) and not said[len(c.mention.text) :].startswith("的")

    def _named_object(self, state: State, d: Dialogue, cands: list[Any]) -> Any | None:
        """The candidate the assistant's last turn is nothing but (a bare noun phrase: 生蚝呀 /
        泰国呀), when a verb of the query lacks its object (没吃过 / 春节想去): what the user
        reacts to is the thing just named."""
        last = _answered(state, d)
        said = self.mt.bare_noun_phrase(last.turn.content, _NOUN_PHRASE_KINDS) if last else None
        if last is None or said is None or self.personal.search(said):
            return None
        if any(said.endswith(n) for n in self.mt.category_nouns):
            return None  # 游戏 / 短篇小说: the kind of the topic, not a thing of its own
        if any(c.mention.turn != last.turn.index and c.mention.text in said for c in cands):
            return None  # 你对李健怎么看 / 音乐诗人李健: it describes the topic asked about
        return next(
            (c for c in cands if c.mention.turn == last.turn.index and c.mention.text == said),
            None,
        )

    def _named_subject(self, state: State, d: Dialogue, cands: list[Any]) -> Any | None:
        """The candidate the assistant's last turn is nothing but (:meth:`_named_object`) as the
        missing subject, when it names a new thing (有什么特产 / 臭豆腐 / 送女生不合适 -> 臭豆腐送
        女生不合适): not a word the user's turn said (2 characters in common: 考研英语复习什么 /
        考研的英语哦), not a reply to a yes/no question (你会说英语吗 / 小菜一碟啊: a comment on
        it), not a word for a person (男神: it describes someone), and not after a topic the user's
        turn framed (你知道血色黄昏 / 美丽的彼岸花 /
        是本书: the framed topic is what the query is about)."""
        exchange = last_exchange(state, d)
        named = self._named_object(state, d, cands) if exchange is not None else None
        if named is None or exchange is None or named.mention.etype == "human":
            return None
        asked = exchange[0]
        yes_no = self.own_asked_end
        if yes_no is not None and yes_no.search(unpunctuated(asked.turn.content)):
            return None  # 你会说英语吗 / 小菜一碟啊: a comment on the question, no new thing
        text = named.mention.text
        pairs = {text[k : k + 2] for k in range(len(text) - 1)}
        if any(
            any(p in mt.text for p in pairs)
            or (mt.gram == "topic" and mt.source.startswith("rules/"))
            for mt in asked.mentions
        ):
            return None
        return named

    def _same_predicate(
        self, state: State, d: Dialogue, cands: list[Any], parse: Parse, pos: int
    ) -> Any | None:
        """The candidate the assistant's last turn makes the subject of the query's own
        predicate: the first verb or adjective after the gap, said in that turn right after the
        candidate, only adverbs between, the two saying at least two characters alike from the
        verb on (很喜欢比赛就要开始了 / 已经开始了 -> 比赛已经开始了, not the team the user liked;
        上王者都打了多久 / 打了两年多了; not 支持全程网办 / 在哪里办?). Why: the query goes on
        about what the reply said of that thing, whatever the user's turn named."""
        exchange = last_exchange(state, d)
        if exchange is None:
            return None
        # an adjective said as an adverb (确实 / 完全, jieba's ad) before the verb or adjective
        # is no predicate of its own (确实惊艳: the predicate is 惊艳)
        after = [t for t in parse.tokens if t.start >= pos and t.text.strip()]
        at = next(
            (
                t
                for i, t in enumerate(after)
                if kind_of(t.pos, t.text) in ("VERB", "ADJ")
                and not (
                    t.pos == "ad"
                    and i + 1 < len(after)
                    and kind_of(after[i + 1].pos, after[i + 1].text) in ("VERB", "ADJ")
                )
            ),
            None,
        )
        last = exchange[1]
        pred = at.text if at is not None else ""
        if not pred or pred in self.same_predicate_not_verbs or pred not in last.turn.content:
            return None
        said, rest = last.turn.content, parse.text[at.start if at is not None else 0 :]
        toks = last.parse.tokens
        for j, t in enumerate(toks):
            if t.text != pred or len(rest) < 2 or not said.startswith(rest[:2], t.start):
                continue
            k = j - 1
            while k >= 0 and kind_of(toks[k].pos, toks[k].text) == "ADV":
                k -= 1
            if k < 0 or kind_of(toks[k].pos, toks[k].text) != "NOUN":
                continue  # 学会放下手机 / 放下了 (学会 a verb): no subject before it
            end = toks[k].end
            hit = next(
                (c for c in cands if c.mention.turn == last.turn.index and c.mention.end == end),
                None,
            )
            # not 有王者荣耀好玩吗 / 要学会放下 (compared with, or what is to be done), nor
            # 别急呀严重吗 (a clause and its particle jieba tags n)
            if (
                hit is not None
                and hit.mention.etype not in self.same_predicate_not_types
                and not hit.mention.text.endswith(self.same_predicate_not_end)
                and not last.turn.content[: hit.mention.start].endswith(
                    self.same_predicate_not_after
                )
            ):
                return hit
        return None

    def _counter_offer(self, state: State, d: Dialogue, cands: list[Any]) -> Any | None:
        """The thing the assistant's last turn ends by turning to (rules/completeness.yaml
        ``counter_offer``: 那现金也行 / 但是我知道酸奶 / 还有三国演义), when a candidate ends
        where it ends: a short query next is about it, not about what the user's turn named
        (支付宝多少 / 那现金也行 / 怎么给 -> 现金怎么给). Only a candidate that is the whole
        phrase turned to: 那就吃泻立停啊 / 那你要有颗坚硬的心 turn to no thing; nor is the
        user's own thing said again (张柏芝图片你有吗 / 张柏芝的照片呢) a new one."""
        rule, exchange = self.counter_rule, last_exchange(state, d)
        if rule is None or rule.pattern is None or exchange is None:
            return None
        last = exchange[1]
        said = unpunctuated(last.turn.content)
        m = rule.pattern.search(said)
        if m is None:
            return None
        start, end = m.span("x")
        if any(mt.text in m.group("x") for mt in exchange[0].mentions):
            return None  # 张柏芝图片你有吗 / 张柏芝的照片呢: what the user named, said again
        return next(
            (
                c
                for c in cands
                if c.mention.turn == last.turn.index
                and c.mention.start == start
                and c.mention.end == end
            ),
            None,
        )

    def _kind_answered(self, state: State, d: Dialogue, best: Any, text: str) -> Any | None:
        """The assistant's reply when it is nothing but the thing the user's turn asked for (a
        title-like run of characters: 晚饭吃什么 / 外卖便当; 动漫推荐 / 黑执事; 那你拿手菜是什么 /
        红烧大狮子头), in place of ``best``, the kind the user named in asking (晚饭 / 动漫 /
        拿手菜): a question next without its subject asks about the thing (rules/completeness.yaml
        ``kind_answered``: `pattern` finds the asking in the user's turn, `not_asked` a question
        about a named one, whose answer describes it: 李世民是谁 / 皇帝)."""
        rule = self.kind_answered_rule
        if rule is None or rule.pattern is None:
            return None
        last = _answered(state, d)
        if last is None or len(d.turns) < 2 or d.turns[-2].turn.role != "user":
            return None
        user = d.turns[-2]
        m = best.mention
        if m.turn != user.turn.index or not rule.pattern.search(user.turn.content):
            return None
        if self.kind_not_asked is not None and self.kind_not_asked.search(user.turn.content):
            return None
        if self.kind_not_query is not None and self.kind_not_query.search(text):
            return None  # 心理疾病有什么 / 幻觉幻听 / 还有什么吗: more of the kind asked for
        said = self.mt.title_answer(last.turn.content)
        if said is None or (self.kind_not_reply is not None and self.kind_not_reply.search(said)):
            return None  # 是的呀亲 / 没有作用 / 吉列的: a reply, not a thing
        if any(kind_of(t.pos, t.text) in _NOT_IN_THING for t in self.mt.parse(said).tokens):
            return None  # 人气很高的对战类手游 / 自己搜一下 / 星期三: no bare thing
        if self.personal.search(said) or m.text in said or m.head in said:
            return None  # 龙族你看过吗 / 龙族小说: the reply names the same thing again
        if any(said[k : k + 2] in text for k in range(len(said) - 1)):
            return None  # 星巴克味道 / 味道还可以: the query says part of it again
        etype = next((x.etype for x in last.mentions if x.text == said), "thing")
        start = last.turn.content.find(said)
        whole = said_mention(said, etype, last.turn, "subj", start, "answer")
        return new_candidate(whole, best.score, "the thing the user asked for")

    def _where_got(self, state: State, d: Dialogue, cands: list[Any], text: str) -> Any | None:
        """A where-question of getting (rules/completeness.yaml where_get: 在哪里能买到 / 哪里
        有) right after the assistant's reply asks where to get what that reply offered: the
        candidate its verb of offering (``offer_verbs``) has as its noun object (可以试试冰硼散 /
        我找个酒吧去先), a count between them skipped."""
        if self.where_get is None or not self.where_get.match(text):
            return None
        exchange = last_exchange(state, d)
        if exchange is None:
            return None
        last = exchange[1]
        ptoks = [t for t in last.parse.tokens if t.text.strip()]
        for k, t in enumerate(ptoks):
            if t.text not in self.where_offers:
                continue
            while k + 1 < len(ptoks) and kind_of(ptoks[k + 1].pos, ptoks[k + 1].text) == "NUM":
                k += 1  # 找个酒吧: the count is no part of the thing
            obj = self.mt.noun_object(last, ptoks, k)
            named = next(
                (
                    c
                    for c in cands
                    if c.mention.turn == last.turn.index and obj and c.mention.text == obj
                ),
                None,
            )
            if named is not None:
                return named
        return None

    def _told_topic(self, state: State, d: Dialogue, cands: list[Any], text: str) -> Any | None:
        """A request to be told (rules/completeness.yaml tell_me: 仔细说说 / 介绍下) right after
        the user's own question that a topic frame read (rules/context.yaml: 你知道千岛湖吗 /
        你看过余华的活着吗) asks to be told about that topic: the frame's candidate."""
        if self.tell_me is None or not self.tell_me.match(text):
            return None
        exchange = last_exchange(state, d)
        if exchange is None:
            return None
        topic = self._told_frame(exchange[0], text)
        mt = next((x for x in exchange[0].mentions if x.text == topic), None)
        if mt is None:
            return None
        # ranked or not (a place the reply said again ranks as the reply's setting)
        return next(
            (c for c in cands if c.mention is mt),
            new_candidate(mt, 0.0, "the topic the user asked to be told about"),
        )

    def _offered(self, state: State, d: Dialogue, cands: list[Any]) -> Any | None:
        """The one thing the assistant's reply offered when the user had just asked for one
        (晚上想吃什么 / 我是想吃西餐 / 很贵的 -> 西餐很贵的; 有好看的电影吗 / 狄仁杰之四大天王
        还不错 / 看过了): a short reaction next is about it. Not when the reply names two or
        more things, nor the kind the user asked for (电影 / 零食)."""
        rule, exchange = self.offer_rule, last_exchange(state, d)
        if rule is None or rule.pattern is None or exchange is None:
            return None
        asked, last = exchange
        if not rule.pattern.search(asked.turn.content):
            return None
        offered = [
            c
            for c in cands
            if c.mention.turn == last.turn.index
            and c.mention.text not in asked.turn.content
            and c.mention.etype not in ("place", "time")
            and c.mention.head not in self.attributes  # 味道不错: an attribute, not a thing
            and not any(n in c.mention.text for n in self.kind_words)
        ]
        if not offered:
            return None
        best = offered[0]
        said = self.offer_end.sub("", last.turn.content.strip())
        texts = {c.mention.text for c in offered}
        if any(t not in best.mention.text for t in texts) and not self._offered_first(
            offered, last.turn.content
        ):
            return None  # two things offered: not clear which
        # 吃烙饼 / 腊八节吃八宝粥: what is offered follows the verb of the asking
        # (我吃的羊肉臊子面: the 的 after the verb is no part of the name)
        said = self.offer_verb.split(said)[-1].lstrip("的")
        if (
            best.mention.text in said
            and len(said) <= 10
            and not self.offer_clause.search(said)
            and said != best.mention.text
        ):
            # 烤冷面啊 / 进击的巨人: a reply that is only the offer is its whole name, however
            # the segmenter cut it (烤/冷面)
            m = best.mention
            whole = new_mention(
                said, m.head, m.etype, m.turn, m.role, "obj", 0, len(said), 0, "offer"
            )
            best = new_candidate(whole, best.score, best.why + ", the whole reply")
        return best

    def _other_attribute_owner(
        self, best: Candidate, cands: Sequence[Candidate], text: str, d: Dialogue
    ) -> Candidate:
        """The owner X of a best candidate X的A when the query opens with an attribute word B
        (multiturn ``attribute_words``: 保修期 / 审批流程 / 日志) and A is one too (价格), X is a
        candidate of its own, or its turn says X的A as a common noun A after a noun X
        (差旅标准的规定是什么: ``_common_of``): 保修期呢 after 小米14的价格有哪些 asks for
        小米14的保修期, not 小米14的价格保修期. Why: B is asked in A's place, so only what A was
        said of carries over. Not when the query asks A again (价格呢), nor for an X too short
        to stand for anything. A lead word opening the query (lead_words: 那保修期呢) is read
        past."""
        text = text[len(next((w for w in self.lead if text.startswith(w)), "")) :]
        phrase = best.mention.text
        cut = phrase.rfind("的")
        attr = phrase[cut + 1 :]
        if (
            cut < 2
            or not attr
            or text.startswith(attr)
            or not text.startswith(self.mt.attribute_openers)
        ):
            return best
        owner = phrase[:cut]
        m = best.mention
        if (
            attr not in self.mt.attribute_words
            and not any(c.mention.text == owner for c in cands)
            and not self._common_of(d, m, cut, text)
        ):
            return best
        etype = self.mt.analyzer.type_by_suffix(owner) or m.etype
        whole = owner_mention(m, owner, etype, m.gram)
        return new_candidate(whole, best.score, best.why + f", owner of {attr}")

    def _common_of(self, d: Dialogue, m: Mention, cut: int, text: str) -> bool:
        """A phrase X的A whose turn segments as a noun X, 的 and one common noun A ending it
        (差旅标准 / 的 / 规定): A is a thing X has, not part of a name. Not a title or a
        person's name (a dictionary work: 挪威的森林; ``own_phrase_types``), nor any phrase
        when the query asks what one asks of a work (``hint_work``: 三少爷的剑 / 作者是谁),
        nor an X that is no noun (不存在的骑士 / 风居住的街道), nor a person, place or time A."""
        if m.etype in self.mt.analyzer.own_phrase_types or any(
            t == "work" for t, _w in self.mt.hinted_types(text)
        ):
            return False
        ti = next((ti for ti in d.turns if ti.turn.index == m.turn), None)
        if ti is None:
            return False
        at = m.start + cut
        toks = ti.parse.tokens
        k = next((t.i for t in toks if t.start == at), None)
        return (
            k is not None
            and 0 < k < len(toks) - 1
            and toks[k].text == "的"
            and toks[k + 1].end == m.end
            and toks[k + 1].pos in ("n", "vn")  # a common noun: no name, place or time
            and kind_of(toks[k - 1].pos, toks[k - 1].text) == "NOUN"
        )

    def _moved_on(self, state: State, d: Dialogue, offer: Any) -> bool:
        """The reply moved on to the thing it offered, so the offer outranks even a confident
        candidate: the offer opens the reply (after an acknowledgement: 巧克力吧很受欢迎的零食啊
        / 水立方吧这地方很不错的), or the reply says nothing the user's turn named (喜欢五颜六色
        的马卡龙). Not a reply that goes on about the user's thing and only names something in
        passing (关于成都呢前几天看到个攻略的文章 / 牛板筋很好吃稍有点辣), nor an offer that
        says the user's thing itself (厦门的鼓浪屿)."""
        exchange = last_exchange(state, d)
        if exchange is None:
            return False
        asked, last = exchange
        if any(mt.text in offer.mention.text for mt in asked.mentions):
            return False  # 厦门有什么好玩的 / 厦门的鼓浪屿很有名: still about 厦门
        said = last.turn.content
        at = said.find(offer.mention.text)  # a whole-reply offer is not where its start says
        lead = said[: max(at, 0)].strip()
        if (at >= 0 and not lead) or (
            self.ack is not None and self.ack.fullmatch(lead) is not None
        ):
            return True
        return not any(mt.text in said for mt in asked.mentions)

    def _offered_first(self, offered: list[Any], reply: str) -> bool:
        """The first thing offered opens the reply (after an acknowledgement) as its subject or
        object and the others only come up in what is said of it (戚风蛋糕好吃软软的…早餐必备:
        早餐 is no second offer)."""
        m = offered[0].mention
        lead = reply[: m.start].strip()
        if lead and (self.ack is None or self.ack.fullmatch(lead) is None):
            return False
        return m.gram in ("subj", "obj") and all(c.mention.gram == "dep" for c in offered[1:])

    def _judged_reply(self, state: State, d: Dialogue, cands: list[Any]) -> Any | None:
        """The candidate the assistant's last turn opens with, when nothing but an evaluation
        follows it (刀塔传奇很好玩 / 火龙果不好吃; rules/completeness.yaml judged_reply): a verb
        of the query left without its object (我不会玩 / 你吃过) is about the thing just
        judged."""
        last = _answered(state, d)
        if last is None:
            return None
        said = unpunctuated(last.turn.content)
        if len(said) > self.judged_reply_len:
            return None
        for c in cands:
            m = c.mention
            if m.turn != last.turn.index or m.start != 0 or self.personal.search(m.text):
                continue
            if m.head in self.attributes:
                continue  # 味道很不错: an attribute judged, its owner is the thing
            if said.startswith(m.text) and self._evaluation(said[len(m.text) :]) is not None:
                return c
        return None

    def _refused(self, state: State, d: Dialogue, cands: list[Any], text: str) -> Any | None:
        """The best candidate, when it is the assistant's last turn's and the query is nothing
        but a negated verb (rules/completeness.yaml verb_object ``refused``: 不玩 / 没看过 /
        我不认识): the user turns down or denies what the reply just brought up (我熟读成语
        成语接龙可从没输过 / 不玩 -> 不玩成语接龙), however salient. Never for a verb of
        ``refused_not_verbs`` (不知道 takes a clause); not a person's kind (表哥), nor a named
        person for a verb of ``refused_no_person`` (吃 / 玩), nor a modifier (神级的东西)."""
        m = self.vo_refused.match(text) if self.vo_refused is not None else None
        last = _answered(state, d)
        if m is None or last is None or not cands:
            return None
        best, v = cands[0], m.group("v")
        if best.mention.turn != last.turn.index or self.personal.search(best.mention.text):
            return None
        if best.mention.text.startswith(v):
            return None  # 养猫很治愈的 / 我没养过: the verb's own phrase, no thing (own_question)
        if (
            v in self.vo_refused_not_verbs
            or best.mention.etype == "human"  # 表哥 / 同学: a kind of person, not who
            or (best.mention.etype in HUMAN_TYPES and v in self.vo_refused_no_person)
        ):
            return None
        after = last.turn.content[best.mention.end : best.mention.end + 2]
        if after[:1] == "的" and self.vo_refused_de.match(after[1:]):
            return None  # 不用特别神级的东西: a modifier, no thing (讲鱼香肉丝的 ends the turn)
        return best

    def _verb_after(self, d: Dialogue, cands: list[Any], parse: Parse, pos: int) -> Any | None:
        """The candidate of the last two turns that its turn says right before the query's own
        verb, in the same clause (a topic the verb comments on: 鬼故事啊就怕你不敢听 / 敢听呀 ->
        敢听鬼故事呀; 就是星盘你懂吗 / 看不懂啊 -> 看不懂星盘啊): the conversation pairs that verb
        with that thing. The verb is the query's last before the gap, without its negation,
        aspect or complement (看不懂 -> 懂 / 看); between the thing and the verb only the clause's
        own words (no punctuation, at most ``verb_after_gap`` characters; a space may part the
        clauses: 找到一本小说 你想看吗 / 想看啊), the verb not said before the thing (then the
        thing is no topic of it). A verb of two characters or more said right before the thing
        pairs them too (你不能看到图片 / 我自己都看不到). Not a person (the verb's subject: 女儿也
        喜欢)."""
        forms = self._verb_forms(parse, pos)
        if not forms or not self.verb_after_gap:
            return None
        recent = {ti.turn.index: ti for ti in d.turns[-2:]}
        # where each turn's words start, once per turn, not once per candidate
        starts = {i: {t.start for t in ti.parse.tokens} for i, ti in recent.items()}
        for c in cands:
            m = c.mention
            ti = recent.get(m.turn)
            if ti is None or m.etype in HUMAN_TYPES or self.personal.search(m.text):
                continue
            said = ti.turn.content
            rest = said[m.end : m.end + self.verb_after_gap + 2]
            stop = _CLAUSE_END.search(rest)
            rest = rest[: stop.start()] if stop is not None else rest
            before = said[max(0, m.start - 4) : m.start].rstrip("了过着")
            for v in forms:
                at = rest.find(v)
                if (
                    0 <= at <= self.verb_after_gap
                    and m.end + at in starts[m.turn]
                    and v not in said[: m.start]
                ):
                    return c
                if len(v) >= 2 and before.endswith(v):
                    return c  # 你不能看到图片 / 我自己都看不到: the verb before it, as said
        return None

    def _verb_forms(self, parse: Parse, pos: int) -> tuple[str, ...]:
        """The verb before the object gap at ``pos`` as it may be said elsewhere: the word, and
        without its negation, aspect, potential or result complement (看不懂 -> 看懂 / 懂 / 看;
        不敢听 -> 听); not a verb of ``verb_after_not`` (有 / 是 / a modal: said after
        anything); none when a noun or a 的 of the query stands before the verb (莫西子诗的听过:
        the query has its own topic)."""
        toks = [t for t in parse.tokens if t.end <= pos and t.text.strip()]
        while toks and toks[-1].text in self.aspects:
            toks = toks[:-1]
        if not toks or kind_of(toks[-1].pos, toks[-1].text) != "VERB":
            return ()
        if any(kind_of(t.pos, t.text) in ("NOUN", "DE") for t in toks[:-1]):
            return ()  # 莫西子诗的听过: a phrase of the query's own before the verb is its topic
        w = toks[-1].text.rstrip("了过着")
        w = next(iter(self._unnegated(w)), w)
        forms = {w}
        if len(w) == 3 and w[1] in _POTENTIAL_MARKS:
            forms |= {w[0] + w[2], w[0], w[2]}  # 看不懂 / 看得懂
        elif len(w) == 2 and w[1] in self.result_complements:
            forms.add(w[0])  # 看懂 / 买到
        return tuple(
            f for f in sorted(forms, key=len, reverse=True) if f not in self.verb_after_not
        )

    def _copula_led(self, parse: Parse) -> bool:
        """是 + a noun phrase and nothing before it (是一个游戏 / 也是歌手啊): it says what
        something is, and that something is missing."""
        toks = [t for t in parse.tokens if kind_of(t.pos, t.text) != "PUNCT"]
        k = 1 if toks and toks[0].text in ("也", "就") else 0
        if len(toks) < k + 2 or toks[k].text != "是":
            return False
        return kind_of(toks[k + 1].pos, toks[k + 1].text) in ("NOUN", "NUM")

    def _evaluated_lead(self, best: Any, d: Dialogue) -> bool:
        """The candidate opens the last user turn and nothing but an evaluation follows it
        (榴莲臭吗 / 猕猴桃好吃不 / 魔道祖师小说应该好看 / 小米电视太坑): the thing the user
        judged, which a verb left without its object next is about."""
        m = best.mention
        user = next((t for t in reversed(d.turns) if t.turn.role == "user"), None)
        if user is None or m.turn != user.turn.index:
            return False
        said = unpunctuated(user.turn.content)
        if not said.startswith(m.text):
            return False
        return self._evaluation(said[len(m.text) :]) is not None

    def _evaluation(self, text: str) -> str | None:
        """The judging word when ``text`` is nothing but an evaluation (adverbs, then an
        adjective or 好X / 难X, then particles: 超好吃啊 -> 好吃; 真的难 -> 难), else None."""
        rest = self.judged_end.sub("", unpunctuated(text))
        toks = [t for t in self.mt.parse(rest).tokens if t.text.strip()] if rest else []
        if not toks:
            return None
        last = toks[-1]
        if all(
            kind_of(t.pos, t.text) == "ADV" or t.text in self.judging_adverbs for t in toks[:-1]
        ) and (
            kind_of(last.pos, last.text) == "ADJ"
            or (len(last.text) == 2 and last.text[0] in "好难")
        ):
            return last.text
        return None

    def _asked_back(self, best: Any, d: Dialogue) -> bool:
        """The assistant's reply asks a question back, by a question word or 吗, and the
        candidate is not its own (问一下酸辣粉好吃吗 / 好吃的东西可多了你要哪种): the exchange
        moved on from the user's thing (not a mere 呢: 你这么一说我也想吃了呢)."""
        reply = d.turns[-1] if d.turns else None
        if reply is None or reply.turn.role != "assistant" or best.mention.turn == reply.turn.index:
            return False
        said = reply.turn.content
        return bool(self.yes_no.search(said)) or any(
            is_question_word(t.text) for t in reply.parse.tokens
        )

    def _judged_again(self, best: Any, d: Dialogue, text: str) -> bool:
        """The query judges again, with the same word, what the last user turn opened with and
        judged (小米粥好吃吗 / 好吃 / 超好吃 -> 小米粥超好吃; 高数好难 / … / 真的难)."""
        user = next((t for t in reversed(d.turns) if t.turn.role == "user"), None)
        if user is None or best.mention.turn != user.turn.index:
            return False
        now = self._evaluation(text)
        if now is None:
            return False
        said = unpunctuated(user.turn.content)
        reply = d.turns[-1].turn.content if d.turns[-1].turn.role == "assistant" else ""
        if not said.startswith(best.mention.text):
            # 追了好几期偶像练习生 / 好看吗 / 好看: the reply asked for this very judgement
            return len(reply) <= self.judged_reply_max and now in reply
        return now[-1] in said[len(best.mention.text) :] or now[-1] in reply

    def _confident(self, cands: list[Any], kinds: frozenset[str], floor: float) -> bool:
        """Insert only a clearly salient topic (salient in one of ``kinds``: a topic frame, a
        dictionary entity, a name or a phrase repeated across turns), ahead of the runner-up by
        a margin."""
        best = cands[0]
        if not salient(best, kinds):
            return False
        if best.score < floor:
            return False
        rivals = [c for c in cands[1:] if salient(c, kinds)]
        if _EXCHANGE in best.why:
            # the topic the user asked about and the answer took up is not rivalled by what
            # the answer mentions in passing (财务部 in 由部门经理和财务部审批)
            rivals = [c for c in rivals if _EXCHANGE in c.why or BY_USER in c.why]
        elif all(note in best.why for note in _FRAMED_LEAD):
            # 你知道三体吗 / 刘慈欣写的科幻小说: what the user asked about by name is not
            # rivalled by a name the answer says in passing (its author, a character)
            rivals = [c for c in rivals if BY_USER in c.why or "repeated" in c.why]
        return not rivals or best.score - rivals[0].score >= self.margin

    def _quiet_reply(
        self, cands: list[Any], d: Dialogue, before: str, history: Sequence[Turn] = ()
    ) -> bool:
        """The assistant's reply names nothing that could fill the gap (会一点点 / 挺好 / 当然),
        so a verb left without its object (``before`` ends with it) goes on with the user's own
        last turn: its best phrase, ahead of the turn's others by the margin (你会说德语吗 /
        会一点点 / 那你教我吧 -> 那你教我德语吧; quiet_reply in the thresholds). Not after a verb
        of knowing (你怎么知道: what is known is a fact, not a phrase), not a modifier cut from
        its phrase (各区县 of 各区县人民医院), not the subject of the user's turn unless the turn
        only judged it (这款耳机太坑 / … / 我不喜欢; not 我昨天学会了包饺子 / … / 你教我吧)."""
        if not self.quiet_min or not d.turns:
            return False
        if before.rstrip("了过着").endswith(self.quiet_not_verbs):
            return False
        last = d.turns[-1]
        reply: TurnInfo | None
        if (
            last.turn.role == "user"
            and history
            and history[-1].role == "assistant"
            and last.turn.index == history[-1].index - 1
        ):
            # 天生城在哪儿 / 嗯嗯 / 介绍一下: the reply was chit-chat the window left out, it
            # names nothing
            reply, user = None, last
        elif len(d.turns) >= 2:
            reply, user = last, d.turns[-2]
        else:
            return False
        if (reply is not None and reply.turn.role == "user") or user.turn.role != "user":
            return False
        best = cands[0]
        m = best.mention
        if m.turn != user.turn.index or best.score < self.quiet_min or m.gram == "att":
            return False
        if m.gram == "subj" and not self._evaluated_lead(best, d):
            return False  # 我昨天学会了包饺子: a subject only as the thing the user judged
        said_before = user.turn.content[: m.start].rstrip()
        if said_before.endswith(self.going):
            return False  # 去大理玩吗 / 想去 / 推荐几个: where one goes is no thing to give
        if said_before.endswith(self.pointing):
            return False  # 你知道这个游戏吗: the phrase points back itself, it names nothing
        if reply is not None and (
            reply.mentions
            or any(kind_of(t.pos, t.text) in _REPLY_NAMES for t in reply.parse.tokens)
        ):
            return False  # 我更喜欢南方的冬天: the reply has a thing, a time or a place of its own
        # a phrase inside the best one (魏无羡 of 魏无羡和蓝忘机) is a part of it, no rival
        rivals = [
            c
            for c in cands[1:]
            if c.mention.turn == user.turn.index
            and not (m.start <= c.mention.start and c.mention.end <= m.end)
        ]
        return not rivals or best.score - rivals[0].score >= self.margin

    def _left(self, best: Any, d: Dialogue, parse: Parse) -> bool:
        """The candidate belongs to an exchange the conversation has left (salient_left): it
        comes from the user's previous turn, the assistant's reply did not take it up, and it
        is said again only in older turns; the query names no attribute it would own."""
        if self.left_kinds is None or len(d.turns) < 3:
            return False
        m = best.mention
        if m.turn == d.turns[-1].turn.index or d.turns[-1].turn.role == "user":
            return False
        if "repeated" not in best.why or _EXCHANGE in best.why:
            return False
        if salient(best, self.left_kinds) or self.hint_re.search(parse.text):
            return False
        # 一天几杯合适 / 有什么推荐: a question for something new may go on with the user's
        # topic; a reaction (不会吧 / 真残忍 / 还好吧) answers what was just said
        return not any(t.text in self.attributes or is_question_word(t.text) for t in parse.tokens)

    # -- completeness ----------------------------------------------------------------------------

    def _gap(
        self,
        parse: Parse,
        counted: re.Match[str] | None,
        *,
        after_ack: bool = False,
        skip: re.Pattern[str] | None = None,
    ) -> tuple[str, int] | None:
        """(``subject``, insert offset) or (``object``, insert offset) or None (complete);
        ``counted`` is :meth:`_counted` of the parsed text; ``after_ack`` reads the query after
        an opening acknowledgement (好吧 / 嗯嗯), ``skip`` after what that pattern matches at the
        start (a speaker's frame: 我感觉)."""
        toks = [t for t in parse.tokens if kind_of(t.pos, t.text) != "PUNCT"]
        if not toks:
            return None
        if self.contained is not None and self.contained.search(parse.text):
            return None  # 哪有帅哥 / 谁买谁是250: the question names its own subject
        got = self.where_get.match(parse.text) if self.where_get is not None else None
        if got is not None:
            return "object", got.end("v")  # 在哪里能买到 / 哪里有卖的: what is got
        tell = self.tell_me.match(parse.text) if self.tell_me is not None else None
        if tell is not None:
            return "object", tell.end("v")  # 给我讲讲 / 介绍一下: what to talk about
        if self.send_me is not None and self.send_me.match(parse.text):
            return "subject", 0  # 发给我 / 发过来看看: what is sent goes first
        kind = self.kind_de.search(parse.text) if self.kind_de is not None else None
        if kind is not None and not any(
            kind_of(t.pos, t.text) == "NOUN" for t in toks if t.end <= kind.start()
        ):
            return "object", kind.end("de")  # 什么牌子的 -> 什么牌子的雪糕: the thing asked about
        if counted is not None:
            return "object", counted.end("m")  # 你送我一个呗: the thing counted
        if any(
            t.pos in self.set_phrase_tags and len(t.text) >= self.set_phrase_len for t in toks
        ) and not is_question(parse):
            return None  # 鞭长莫及 / 一言难尽啊: an idiom is a complete comment
        kinds = [kind_of(t.pos, t.text) for t in toks]
        i0 = 0
        ack = self.ack.match(parse.text) if after_ack and self.ack is not None else None
        if skip is not None:
            ack = skip.match(parse.text)
        if ack is not None:
            while i0 < len(toks) and toks[i0].end <= ack.end():
                i0 += 1
        while (
            i0 < len(toks)
            and toks[i0].text in self.lead
            # 那么帅: a degree before an adjective, not the opener 那么 (the topic goes first)
            and not (toks[i0].text == "那么" and kinds[i0 + 1 : i0 + 2] == ["ADJ"])
            # 还有什么特点: 还有 is the predicate, the topic goes before it
            and not self._predicate_lead_at(parse.text, toks[i0].start)
        ):
            i0 += 1
        if i0 >= len(toks):
            return None
        content = [k for k in kinds[i0:] if k in _CONTENT]
        if not content:
            # 为什么不好用 / 为啥呢 (segmented into function words): a short question with no
            # word of its own content asks about the topic of the conversation
            if len(parse.text) <= self.short_len and is_question(parse):
                return "subject", toks[i0].start if i0 < len(toks) else 0
            return None
        has_nominal_subject = attribute = False
        for t, k in zip(toks[i0:], kinds[i0:], strict=True):
            if k == "NOUN" and t.text in self.attributes:
                attribute = True
                continue  # 保修多久 / 价格怎么样: an attribute of something not named
            if is_question_word(t.text):
                break
            if k in ("NOUN",) or k == "PRON":
                has_nominal_subject = True
                break
            if k in ("VERB", "ADJ"):
                break
        measured = self._measured(toks, kinds, i0)
        if measured is not None:
            return "object", measured  # 背一下 / 说几句 -> 背一下醉翁亭记
        # 讲一下 / 背一遍: a verbal measure belongs to the verb, the object goes after it
        rest = [
            (t, k)
            for t, k in zip(toks[i0:], kinds[i0:], strict=True)
            if k != "PART" and t.text not in _VERB_MEASURE
        ]
        if (
            len(rest) >= 2
            and rest[-1][0].text in RECIPIENTS
            and rest[-2][0].text in self.give_verbs
            and len(parse.text) <= self.short_len
        ):
            return "object", rest[-1][0].end  # 快点给我 / 我教你: what is given or taught
        if (
            len(rest) >= 2
            and rest[-1][0].text == "过"
            and rest[-2][0].text in self.going
            and all(k == "ADV" or k == "PRON" for _t, k in rest[:-2])
        ):
            return "object", rest[-1][0].end  # 你来过吗: where one has been (来过重庆)
        # 玩过吗 / 去过了 / 买了 / 没玩过: the aspect particles after a bare verb (jieba splits
        # them off: 听 + 过) belong to it, the object goes after them (_after_aspect); after
        # 过了 only a verb of going misses its object (去过了 -> 去过南京了), the others have
        # theirs in front (海上钢琴师 / 看过了: the thing recommended is the topic)
        bare = rest
        while len(bare) >= 2 and bare[-1][1] == "AUX" and bare[-1][0].text in self.aspects:
            bare = bare[:-1]
        done = "".join(t.text for t, _k in rest[len(bare) - 1 :])
        if "过了" not in done or done.startswith(self.going):
            rest = bare
        # 找不到 / 做不了: a verb and its potential complement end the verb phrase
        tail = 2 if len(rest) >= 2 and rest[-1][0].text in self.potential else 1
        if (
            tail == 1
            and len(rest) >= 3
            and rest[-2][0].text in self.negations
            and rest[-3][0].text == rest[-1][0].text
        ):
            tail = 3  # 玩不玩 / 吃不吃: an A-not-A verb, the object goes after it
        if (
            len(rest) >= tail
            and rest[-tail][1] == "VERB"
            and self._dangles(rest[-tail][0].text if tail < 3 else rest[-1][0].text)
            and all(
                k == "ADV"
                or t.text in self.modals
                or t.text in self.how_degree
                or t.text in self.negations  # 没听过: jieba tags 没 a verb
                or t.text in self.together
                for t, k in rest[:-tail]
            )
        ):
            # 知道 / 不知道 / 也喜欢吗 / 不想去 / 没看过 / 超喜欢: a bare verb (after adverbs,
            # modals or a degree)
            if tail >= 2:
                return "object", rest[-1][0].end
            return "object", self._after_aspect(toks, toks.index(rest[-1][0]))
        if not has_nominal_subject:
            root = parse.root
            if (
                root is not None
                and root.text in self.complete_verbs
                and not (len(toks) > 2 and is_question(parse))  # 好用吗 (好 + 用 + 吗) asks
                and not attribute  # 演技也很好: the attribute's owner is missing
            ):
                return None
            if self.speakers.search(parse.text, toks[i0].start):
                return None  # 我也挺作 / 不逗你: the speakers are the subject
            first = toks[i0].text
            body = parse.text[toks[i0].start :]
            if self.how.match(body) and any(
                kinds[k] == "VERB"
                and kinds[k + 1] == "NOUN"
                and toks[k + 1].text not in self.attributes
                for k in range(i0, len(toks) - 1)
            ):
                # 怎么包粽子: a how-question with its own object stands alone; one whose object
                # is an attribute of something (怎么申请理赔 / 怎么看日志) still misses its owner
                return None
            # a longer query that opens with its own content (感冒发烧应该挂哪个科) stands alone;
            # short ones, and ones opening with a question word, a modal or an attribute, do not;
            # nor one that opens with a lead word (如果没有孙悟空…能到吗 / 对呀酸酸的就是…): its
            # clause goes on about a topic (unless a speaker's frame follows the lead: 恩觉得…)
            if (
                len(body) > self.short_len
                and not (i0 > 0 and not (self.frame is not None and self.frame.match(body)))
                and not is_question_word(first)
                and first not in self.openers
                and not self.hint_re.search(body)
            ):
                return None
            return "subject", toks[i0].start
        # a verb at the end with nothing after it (你要看吗): the object is missing
        j = len(toks) - 1
        while j >= 0 and kinds[j] in ("PART", "AUX") and toks[j].text not in QUESTION_WORDS:
            j -= 1
        asked_mei = False
        mei = toks[j].text if j >= 1 else ""
        if mei in ("没", "没有"):
            vi = j - 1  # 你看过没 / 你玩过没: 没 asks, like 吗 (你看过魔道祖师没)
            while vi >= 1 and kinds[vi] == "AUX":
                vi -= 1
            asked_mei = kinds[vi] == "VERB"
            j = vi if asked_mei else j
        # 你找不到: the verb before its potential complement, the object after both
        potential = j >= 1 and toks[j].text in self.potential and kinds[j - 1] == "VERB"
        v = j - 1 if potential else j
        if (
            v >= 0
            and kinds[v] == "VERB"
            and self._dangles(toks[v].text)
            and len(parse.text) <= self.short_len
            and not self._has_object(toks, kinds, v)
        ):
            if asked_mei and mei in self.le_asks and j + 1 < len(toks) and toks[j + 1].text == "了":
                # 你看了没 -> 你看世界杯了没; not 你喝了没有 (-> 你喝了腊八粥没有: le_asks)
                return "object", toks[j].end
            return "object", toks[j].end if potential else self._after_aspect(toks, j)
        return None

    def _measured(self, toks: list[Any], kinds: list[str], i0: int) -> int | None:
        """Where the object goes when the query is a verb of rules/completeness.yaml
        measured_verbs with a verbal measure or a count and nothing after them (背一下 / 说几句
        / 读一段 / 你给我评价一下), only adverbs, pronouns, prepositions and modals before the
        verb: after the measure."""
        if self.measure_re is None:
            return None
        j = len(toks) - 1
        while j > i0 and kinds[j] == "PART":
            j -= 1
        if j - 1 < i0 or not self.measure_re.fullmatch(toks[j].text):
            return None
        if toks[j - 1].text not in self.measured_verbs or toks[j - 1].end != toks[j].start:
            return None
        if not all(
            k in ("ADV", "PRON", "PREP") or t.text in self.modals
            for t, k in zip(toks[i0 : j - 1], kinds[i0 : j - 1], strict=True)
        ):
            return None
        return int(toks[j].end)

    def _owner_de(self, parse: Parse, d: Dialogue) -> int | None:
        """Where the thing goes when the query is nothing but a modifier with 的 (香港的 /
        蝙蝠侠里的 / 女生版的 / 工作上的, rules/completeness.yaml owner_de): after the 的. Not a
        time alone (明天的: a weather or schedule question), a verb or an adjective (打工的 /
        挺好的: they say something of their own), a verbal noun but before a place word
        (犯法的 / 工作上的), nor a question (你哪的); not after the assistant's question that
        names nothing (我想买跑车 / 啥样的 / 白色的呗: an answer, the wh-answer's business)."""
        if not self.owner_words:
            return None
        toks = [t for t in parse.tokens if kind_of(t.pos, t.text) != "PUNCT"]
        j = len(toks) - 1
        while j >= 0 and kind_of(toks[j].pos, toks[j].text) == "PART":
            j -= 1
        if j < 1 or j > self.owner_words or toks[j].text != "的":
            return None
        kinds = [kind_of(t.pos, t.text) for t in toks[:j]]
        if all(k == "TIME" for k in kinds):
            return None
        for i, (t, k) in enumerate(zip(toks[:j], kinds, strict=True)):
            if k not in self.owner_classes or is_question_word(t.text):
                return None
            if t.pos in self.owner_verbal and kinds[i + 1 : i + 2] != ["LOC"]:
                return None
        last = d.turns[-1] if d.turns else None
        if (
            last is not None
            and last.turn.role == "assistant"
            and not last.mentions
            and is_question(last.parse)
        ):
            return None
        return toks[j].end

    def _has_object(self, toks: list[Any], kinds: list[str], j: int) -> bool:
        """The verb ``toks[j]`` already has its object in front (墨西哥去过了 / 三体也看过: a
        topicalised object, adverbs skipped; a person there is the subject: 女儿也喜欢) or is
        the 去/来 of purpose after another verb (买菜去) or stands before its beneficiary (念三
        重门给我听): no object is missing after it. A modal
        before it (想吃 / 想去 / 喜欢看) still leaves the object out."""
        i = j - 1
        while i >= 0 and kinds[i] == "ADV":  # 三体也看过 / 榴莲还没吃过
            i -= 1
        if i < 0:
            return False
        prev_tok, prev = toks[i], kinds[i]
        if (
            prev_tok.text in RECIPIENTS
            and i >= 2
            and toks[i - 1].text in self.give_verbs
            and kinds[i - 2] == "NOUN"
        ):
            return True  # 做午饭给我吃: the thing stands before the beneficiary
        if prev == "NOUN":
            # a person before the verb is its subject (女儿也喜欢), anything else its object
            return self.mt.analyzer.type_of(prev_tok.text, prev_tok.pos) not in HUMAN_TYPES
        return (
            i == j - 1
            and prev == "VERB"
            and toks[j].text in self.purpose_verbs
            and prev_tok.text not in self.modals
        )

    def _after_aspect(self, toks: list[Any], j: int) -> int:
        """Where an object goes after the verb ``toks[j]``: after its aspect particle or verbal
        measure (读过 + 飘, 讲一下 + 刘邦)."""
        end = int(toks[j].end)
        for k, t in enumerate(toks[j + 1 : j + 3], start=j + 1):
            if t.start != end or t.text not in ("了", "过", "着", *_VERB_MEASURE):
                break
            if t.text == "了" and all(u.text in self.final_particles for u in toks[k + 1 :]):
                break  # 你拿到了吗: a 了 that ends the sentence goes after the object (拿到户口本了吗)
            end = int(t.end)
        return end

    def _dangles(self, word: str) -> bool:
        """A transitive verb that can end a query without its object (看 / 看过 / 买了), also
        as jieba joins it to its negation or its potential complement (不吃 / 买不起)."""
        if word in self.dangling or (word[-1:] in "了过着" and word[:-1] in self.dangling):
            return True
        if word[:1] in self.negations and word[1:] in self.dangling:
            return word[1:] not in self.answer_verbs  # 没有 / 不会: an answer of its own
        if len(word) == 3 and word[1] in self.negations and word[0] == word[2]:
            # 吃不吃 / 看不看: an A-not-A verb (有没有 / 会不会 ask on their own; 喜不喜欢呢
            # asks about the topic, which stays in front)
            return word[2:] in self.dangling and word[2:] not in self.answer_verbs
        return len(word) >= 3 and word[-2:] in self.potential and word[:-2] in self.dangling

    def _link(self, d: Dialogue, topic: str, rest: str) -> str:
        """The verb that joins a missing subject ``topic`` and the wh-question after it
        (``rest``) when a turn of the last exchange shows it (rules/completeness.yaml
        missing_subject): 有 for a thing that turn said someone has (``had_what`` /
        ``had_by``: 有个爆点内容 / 什么爆点内容 -> X有什么爆点内容), 在 for a kind of place
        asked about a topic said to be somewhere (``where_what``: 合肥在华东地区 / 哪个省 ->
        合肥在哪个省), 是 for a kind asked about a topic whose kind was asked or said
        (``kind_what`` / ``kind_by``: 蒙毅是什么样的人 / 什么官 -> 蒙毅是什么官; or a turn
        opening with X是 and the kind: X是游戏名字 / 什么游戏); "" when no
        turn shows one. Why: without it the question leaves out the verb it is about."""
        said = [ti.turn.content for ti in d.turns[-2:]]
        query = rest.strip()
        had = self.had_what.match(query) if self.had_what is not None else None
        if had is not None and self.had_by is not None:
            thing = had.group("n")
            if any(s.startswith(thing, h.end()) for s in said for h in self.had_by.finditer(s)):
                return "有"
        where = self.where_what.match(query) if self.where_what is not None else None
        if where is not None and any(topic + "在" in s for s in said):
            return "在"
        kind = self.kind_what.match(query) if self.kind_what is not None else None
        if kind is not None and self.kind_by is not None:
            for s in said:
                at = s.find(topic + "是")
                after = s[at + len(topic) :] if at >= 0 else ""
                # the kind said, only of the turn's own topic (X是游戏名字, not 治疗X是秘方)
                if after and (self.kind_by.match(after) or (at == 0 and kind.group("n") in after)):
                    return "是"
        return ""

    def _joined_as_said(self, d: Dialogue, filler: str, parse: Parse, pos: int) -> str:
        """``filler``, the topic going in before the noun the query opens with at ``pos`` (an
        attribute: 剧情是怎样的 / 配音是谁啊), joined to it as a turn of the last exchange that
        says nothing but the two joined them, with 的 or without (尼基塔是讲什么的 / 尼基塔剧情 /
        剧情是怎样的 -> 尼基塔剧情是怎样的). Why: the dialogue's own wording of the phrase is the
        one to restore. Else ``filler`` as it is."""
        head = next((t for t in parse.tokens if t.start >= pos and t.text.strip()), None)
        owner = filler.removesuffix("的")
        if head is None or head.start != pos or kind_of(head.pos, head.text) != "NOUN" or not owner:
            return filler
        said = [self.final_mood.sub("", unpunctuated(ti.turn.content)) for ti in d.turns[-2:]]
        with_de = owner + "的" + head.text in said
        without = owner + head.text in said
        if with_de == without:
            return filler
        return owner + "的" if with_de else owner

    def _asked_of(self, d: Dialogue, topic: str, *, opened: bool = True) -> str:
        """The attribute or relation of ``topic`` the assistant's last turn asked back about
        (missing_subject ``asked_of``: 那汪涵的老婆呢 / 高尔基的原名呢), with its owner: what the
        user says next is said of it (一般般 -> 汪涵的老婆一般般). Why: the topic alone would
        judge the owner, not what was asked. Else, when ``opened``, the property the last turn
        opened with (:meth:`_opened_with_owned`), or ``topic`` as it is."""
        last = d.turns[-1] if d.turns else None
        if self.asked_of is None or last is None or last.turn.role == "user":
            return topic
        m = self.asked_of.match(unpunctuated(last.turn.content))
        if m is None or m["of"] != topic:
            return self._opened_with_owned(d, topic) if opened else topic
        if m["n"] not in self.attribute_nouns and m["n"] not in self.owned_relations:
            return topic
        return topic + "的" + m["n"]

    def _opened_with_owned(self, d: Dialogue, topic: str) -> str:
        """What: ``topic`` with the property or relation of it the assistant's last turn opened
        with (曾小贤的恋人 / 杨坤的声音很有特点: the turn opens with ``topic``的N, N a property noun
        or an owned relation of rules/completeness.yaml, the longest such) when the user's turn
        before it named ``topic`` without asking for a property of it; else ``topic``.
        Why: the owner was said again only inside that phrase; what the user says next is said
        of the thing the answer put first (是胡一菲 -> 曾小贤的恋人是胡一菲), not of its owner. When
        the user asked for the property (麻薯什么味道 / 麻薯的口味甜) the answer only gave it,
        and the topic stays the owner.
        Example: 谢霆锋 / 谢霆锋的身高多少啊 / 好像是一米七五 -> 谢霆锋的身高好像是一米七五."""
        said = unpunctuated(d.turns[-1].turn.content)
        lead = topic + "的"
        if not said.startswith(lead):
            return topic
        rest = said[len(lead) :]
        owned = [n for n in self.opened_owned if rest.startswith(n)]
        if not owned:
            return topic
        asked = d.turns[-2].turn.content if len(d.turns) >= 2 else ""
        if topic not in asked:
            return topic  # 哪部美剧好看 / 行尸走肉的第一季特别好看: the answer's own topic
        for k in (i for i in range(len(asked)) if asked.startswith(topic, i)):
            after = _ASKED_PROP.sub("", asked[k + len(topic) :], count=1)
            if any(after.startswith(n) for n in self.topic_props):
                return topic  # 麻薯什么味道: the user asked for the property, it was given
        return lead + max(owned, key=len)

    def _owned(self, state: State, d: Dialogue, phrase: str) -> str:
        """``phrase`` with its owner when it is a relation (missing_subject
        ``owned_relations``: 男朋友 / 老家) a turn of the last exchange, the assistant's first,
        said whose it is (你男朋友 / 我的老家), the owner seen from the user's side
        (:func:`user_owner` with ``claimed=False``): 你男朋友是何方妖孽 / 是个大帅哥 ->
        我男朋友是个大帅哥. Why: a relation without its owner leaves out whose it is. Else
        ``phrase`` as it is."""
        if phrase not in self.owned_relations:
            return phrase
        for ti in reversed(d.turns[-2:]):
            m = re.search(f"(?:我|你)的?({re.escape(phrase)})", ti.turn.content)
            if m is not None:
                return user_owner(state, phrase, ti.turn, m.start(1), claimed=False) + phrase
        return phrase

    def _says_what(self, rest: str) -> bool:
        """What follows a missing subject says what the subject is, so 是 joins them: where
        it comes from (哪里人 / 哪国的), or a noun phrase of two words or more that is no
        attribute of it (一个伟大的人 / 好吃的水果 / 导演的名字; not 价格 / 作者). A phrase
        ending in 的 (谁写的 / 讲什么的 / 挺好吃的) is left as it is: said with and without
        是 alike."""
        said = self.says_end.sub("", rest.strip())
        if len(said) < 2 or said.startswith(self.copulas):
            return False
        if said in self.from_where:
            return True
        if _A_NOT_A.search(said):
            return False  # 帅不帅: a question of degree
        toks = [t for t in self.mt.parse(said).tokens if t.text.strip()]
        return (
            len(toks) >= 2
            and toks[-1].text not in self.attributes
            and toks[0].text not in ("有", "没有", "没")  # 有类似的动漫吗: what exists
            # 喜欢看的电影: the speaker's liking, a clause about the speaker
            and not all(kind_of(t.pos, t.text) == "VERB" for t in toks[:2])
            # 很帅很帅的样子 / 好无聊没认识的人: a judgement with its degree, not a kind
            and not any(
                kind_of(t.pos, t.text) == "ADV"
                or (
                    kind_of(t.pos, t.text) == "ADJ"
                    and kind_of(toks[i + 1].pos, toks[i + 1].text) not in ("DE", "NOUN")
                )
                for i, t in enumerate(toks[:-1])
            )
            and names_a_thing(toks)
            and not any(is_question_word(t.text) for t in toks)
        )

    def _attribute_first(self, parse: Parse, pos: int, *, alone: bool = False) -> bool:
        """The query opens (at ``pos``) with an attribute noun followed by 是, 呢 or 谁 (作者是谁
        / 作者呢 / 主角谁); with ``alone``, also an attribute noun (attribute_nouns, not a type
        hint such as 多少钱) and nothing else (作者 / 代表作)."""
        toks = [t for t in parse.tokens if t.start >= pos and t.text.strip()]
        if len(toks) == 1:
            return (
                alone
                and toks[0].text in self.attribute_nouns
                and kind_of(toks[0].pos, toks[0].text) == "NOUN"
            )
        return (
            len(toks) >= 2
            and toks[0].text in self.attributes
            and kind_of(toks[0].pos, toks[0].text) == "NOUN"
            and toks[1].text in ("是", "呢", "谁")
        )

    def _bare_attr(self, parse: Parse) -> bool:
        """Nothing but an attribute and a question (保修多久 / 续航怎么样 / 落户需要什么条件):
        with no history there is no way to know whose attribute is meant."""
        has_attr = has_q = False
        for t in parse.tokens:
            k = kind_of(t.pos, t.text)
            if t.text in self.ask_words:
                has_attr = True
            elif is_question_word(t.text) or t.text in ("吗", "么", "呢", "多"):
                has_q = True  # 多 + adjective: 多大 / 多长 split by the segmenter
            elif k == "ADJ" and len(t.text) == 1:
                continue
            elif not (t.text in self.openers or k in ("PART", "PUNCT", "ADV", "AUX")):
                return False
        return has_attr and has_q

    # -- 为什么？ --------------------------------------------------------------------------------------

    def _bare_why(self, state: State, d: Dialogue, text: str) -> State | None:
        """A bare 为什么 / 为啥 right after the assistant said something asks why that holds:
        the assistant's statement becomes the question (为什么 + 该订单无法退款)."""
        bare = text.strip().rstrip("?？!！。.~")
        core = bare.rstrip("啊呀呢嘞哇")
        if core not in self.why_words or not d.turns:
            return None
        last = d.turns[-1]
        said = last.turn.content.strip().rstrip("?？!！。.~").rstrip("啊呀哦哈嘛呗吧")
        if (
            last.turn.role != "assistant"
            or last.turn.index != state.history[-1].index
            or not 2 <= len(said) <= self.why_max
            or is_question(last.parse)
            or self.mt.analyzer.is_chitchat(said)
            or re.search(r"[,，。;；!！?？]", said)
        ):
            return None
        return _resolved_from(
            state,
            self.mt.sources.get("bare_why", "ellipsis:bare_why"),
            # the query's own final particle stays at the end (为啥啊 -> 为啥无聊啊)
            core + self._why_statement(d, said) + bare[len(core) :],
            said,
            last,
            "statement",
            slot="reason",
            note=f"{core}: asks why the last answer holds",
            confidence=0.6,
        )

    def _title_alone(self, filler: str) -> str:
        """The title of a filler said as its kind and then the title (科幻小说沙丘 -> 沙丘,
        rules/completeness.yaml kind_before_title); ``filler`` unchanged when it opens with no
        kind, is a dictionary entity as written, would keep less than two characters, or the
        kind is no word of its own there (电影院线: 电影院 is the word)."""
        kind = next((k for k in self.title_kinds if filler.startswith(k)), "")
        title = filler[len(kind) :].strip()
        if not kind or len(title) < 2 or self._whole_entity(filler):
            return filler
        if not any(t.end == len(kind) for t in self.mt.parse(filler).tokens):
            return filler
        return title

    def _work_of_role(self, filler: str, text: str) -> str:
        """The work X of a topic X的Y / XY whose Y is a role a person holds in it
        (rules/coreference.yaml owner_of_role: 作者) when the query asks about the work and
        not about the role (哈利波特作者是谁 / … / 讲了些什么 -> 哈利波特讲了些什么); ``filler``
        unchanged otherwise."""
        role = next((r for r in self.work_roles if filler.endswith(r)), "")
        work = filler[: -len(role)].removesuffix("的") if role else ""
        if len(work) < 2 or role in text or not self.mt.asks_about_work(text):
            return filler
        return work

    def _had_illness(self, d: Dialogue, m: Mention, filler: str, text: str) -> str:
        """``filler`` with the verb the dialogue said it with as an illness someone has (得了水痘)
        when the query says what having it is like (天天都会发烧么 -> 得了水痘天天都会发烧么),
        rules/completeness.yaml illness_had; ``filler`` unchanged for a question how to treat
        it (怎么治) or any other topic."""
        if self.illness_had is None or filler != m.text:
            return filler
        if self.illness_treat is not None and self.illness_treat.search(text):
            return filler
        return said_before(d, m, filler, self.illness_had) + filler

    def _timed(self, d: Dialogue, m: Mention, filler: str, text: str) -> str:
        """``filler`` with the time the dialogue said it with (今年世界杯看点很多呀 / 有哪些看点
        -> 今年世界杯有哪些看点; 今晚有空), rules/completeness.yaml timed_topic: the query is
        about that occasion. Unchanged when the query names a time of its own, and for a place
        (明天北京天气: the weather rules order a place and its day)."""
        if self.timed_before is None or m.etype == "place":
            return filler
        if self.timed_own is not None and self.timed_own.search(text):
            return filler
        return said_before(d, m, filler, self.timed_before) + filler

    def _eaten_effect(self, state: State, d: Dialogue, text: str) -> State | None:
        """An effect of eating with nothing eaten (会着凉的 / 会胖) after a turn of the last
        exchange that eats or drinks something (我想吃雪糕), the reply first
        (rules/completeness.yaml eaten_effect): eating that food has the effect, the verb goes
        in with it (吃雪糕会着凉的), or the food alone when the query says the eating (吃多了上火
        -> 火锅吃多了上火)."""
        m = rule_match(self.effect_rule, unpunctuated(text), whole=True)
        exchange = last_exchange(state, d)
        if m is None or exchange is None or self.effect_eaten is None:
            return None
        lead = m.group("lead") or ""
        for ti in reversed(exchange):  # the assistant's reply first
            ate = self.effect_eaten.search(ti.turn.content)
            if ate is None:
                continue
            # 吃多了上火 says the eating itself: the food alone goes before it
            eaten = ("" if m.group("ate") else ate.group("v")) + ate.group("food")
            return _resolved_from(
                state,
                self.mt.sources.get("eaten_effect", "ellipsis:eaten_effect"),
                lead + eaten + text[len(lead) :],
                ate.group("food"),
                ti,
                "obj",
                etype="thing",
                slot="topic",
                note=f"{m.group('effect')}: an effect of {eaten}",
                confidence=0.6,
            )
        return None

    def _taught(self, state: State, d: Dialogue, text: str) -> State | None:
        """A request to teach with nothing taught (教教我 / 那你教我吧 / 我教你) after the user
        asked whether the assistant can do something (你会做饭吗 / c语言会吗) or the assistant
        said it cannot (可我不会骂人), rules/completeness.yaml teach_what: what to teach is
        that (教我做饭 / 我教你骂人), before the query's final particle."""
        rule = self.teach_rule
        m = rule_match(rule, text.strip())
        exchange = last_exchange(state, d)
        if m is None or exchange is None:
            return None
        for ti, pat in zip(exchange, (self.teach_asked, self.teach_unable), strict=True):
            said = unpunctuated(ti.turn.content)
            found = pat.search(said) if pat is not None else None
            if found is None:
                continue
            x = next((g for g in found.groups() if g), "")
            if not x or self.personal.search(x) or _HAS_QWORD.search(x):
                return None
            # 你会说德语吗 / 那你教我吧 -> 那你教我德语吧: the language, not the speaking
            lead = next((v for v in self.teach_drop if x.startswith(v)), "")
            if lead and len(x) - len(lead) >= 2:
                x = x[len(lead) :]
            new = m.group("pre") + x + (m.group("pt") or "")
            return _resolved_from(
                state,
                rule.source if rule is not None else "ellipsis",
                new,
                x,
                ti,
                "statement",
                slot="object",
                note=f"teach {x!r}",
                confidence=0.65,
            )
        return None

    def _where_to(self, state: State, d: Dialogue, text: str) -> State | None:
        """去哪里 / 你想去哪 after a turn of the last exchange that names what to go and do
        (明天出差 / 我最近想去旅行 / 明天中午吃鱼, rules/completeness.yaml where_to) asks where to
        go and do it: the activity goes after the where-word (去哪里出差 / 去哪吃鱼); the
        assistant's turn first, then the user's."""
        rule = self.where_to_rule
        m = self.where_to_re.match(text.strip()) if self.where_to_re is not None else None
        exchange = last_exchange(state, d)
        if rule is None or m is None or exchange is None or not self.activities:
            return None
        for ti in reversed(exchange):
            said = ti.turn.content
            found = [(said.find(a), a) for a in self.activities if a in said]
            if not found:
                continue
            at, act = min(found, key=lambda f: (f[0], -len(f[1])))
            if act in self.activity_objects:
                toks = [t for t in ti.parse.tokens if t.start >= at + len(act)]
                if not toks or kind_of(toks[0].pos, toks[0].text) != "NOUN":
                    continue  # 吃 with no thing eaten: no activity said
                act = said[at : toks[0].end]
            new = m.group("pre") + act + m.group("pt")
            return _resolved_from(
                state,
                rule.source,
                new,
                act,
                ti,
                "statement",
                slot="object",
                note=f"where to go and do {act!r}",
                confidence=0.65,
            )
        return None

    def _why_statement(self, d: Dialogue, said: str) -> str:
        """The assistant's statement as the body of a why question: its first-person opener and
        a hedge dropped (我觉得不应该… -> 不应该…; 估计短期内… -> 短期内…), and a short negated reply completed with the object
        of the user's question with the same verb (你会五笔吗 / 不会 -> 不会五笔); an opening
        acknowledgement goes too (嗯嗯我放弃了 -> 放弃了), and a statement said twice is said once
        (不会长胖不会长胖 -> 不会长胖)."""
        compared = self._why_compared(d, said)
        if compared is not None:
            return compared
        ack = self.ack.match(said) if self.ack is not None else None
        if ack is not None and len(said) - ack.end() >= 2:
            said = said[ack.end() :]
        half = len(said) // 2
        if half >= 2 and said == said[:half] * 2:
            said = said[:half]  # 不会长胖不会长胖: a statement said twice is asked about once
        if not said.startswith("我们"):
            said = _drop_opener(said, self.why_openers, keep=2)
        # 估计短期内都不会去: the hedge is no part of the reason
        said = _drop_opener(said, self.why_hedges, keep=3)
        pat = self.mt.patterns.get("why_negated_reply")
        m = pat[0].match(said) if pat else None
        pm = self.why_potential.match(said) if self.why_potential is not None else None
        user = d.last_user()
        if (m is None and pm is None) or user is None:
            return said
        asked = user.turn.content.strip().rstrip("?？!！。.~")
        v = m.group("v") if m is not None else pm.group("v") if pm is not None else ""
        i = asked.find(v)
        if i < 0:
            return said
        if m is not None and m.group("neg") in self.why_hedged:
            said = "不" + said[m.end("neg") :]  # 不怎么喜欢 -> 为什么不喜欢巧克力
        obj = self.question_tail.sub("", asked[i + len(v) :]).strip()
        if pm is not None:
            # 发不了 + 几张图片: a counted noun, its count dropped (a pronoun is no piece the
            # guard finds said: 见不到 + 我)
            toks = [t for t in self.mt.parse(obj).tokens if t.text.strip()]
            while toks and kind_of(toks[0].pos, toks[0].text) == "NUM":
                toks.pop(0)
            if not toks or any(kind_of(t.pos, t.text) != "NOUN" for t in toks):
                return said
            obj = obj[toks[0].start :]
        if not 1 <= len(obj) <= 10 or re.search(r"[,，。;；]", obj) or is_question_word(obj):
            return said
        return said + obj

    def _why_compared(self, d: Dialogue, said: str) -> str | None:
        """The member the assistant's reply ``said`` named, with what the user's question
        compared (人类和机器人谁聪明 / 机器人 -> 机器人聪明: rules/completeness.yaml
        why_compared), or None when the reply is no such choice."""
        user = d.last_user()
        if self.why_compared is None or self.why_compared_reply is None or user is None:
            return None
        q = self.why_compared.match(unpunctuated(user.turn.content))
        r = self.why_compared_reply.match(said)
        if q is None or r is None or r.group("x") not in (q.group("a"), q.group("b")):
            return None
        return r.group("x") + q.group("p")

    # -- 会 / 不是 / 没看过: a short answer to the assistant's yes/no question ---------------------

    def _answer(self, state: State, d: Dialogue, text: str) -> State | None:
        """A short yes/no answer repeats only the verb of the assistant's yes/no question; the
        rest of the question completes it, seen from the user's side (你会下象棋吗 / 会 ->
        会下象棋; 有人照顾你吗 / 没有 -> 没有人照顾我)."""
        reply_re = self.mt.patterns.get("answer_reply")
        end_re = self.mt.patterns.get("answer_question_end")
        last = _answered(state, d)
        if reply_re is None or end_re is None or last is None:
            return None
        asked = unpunctuated(last.turn.content)
        if re.search(r"[,，。;；!！?？]", asked) or not end_re[0].search(asked):
            return None
        m = reply_re[0].match(unpunctuated(text))
        if m is None or self._a_request(asked, _previous_question(d), m.group("v")):
            return None  # 能不能像我这样严肃点: a request, the user's own question is answered
        v, asp = m.group("v"), m.group("asp") or ""
        i = asked.find(v)
        if i < 0 or v in ("不", "没", "没有"):
            return None  # (挂科了没 / 没: the answer is the negation alone)
        rest = end_re[0].sub("", asked[i + len(v) :])
        if self.answer_clause_rest is not None and self.answer_clause_rest.search(rest):
            return None  # 有这个倾向你结婚了吗 / 没有呢: 结婚 was asked, not 有
        if rest.startswith(("了", "过")):
            asp, rest = asp or rest[0], rest[1:]
        cut = next((w for w in self.answer_tentative if rest.endswith(w)), "")
        if cut and len(rest) - len(cut) >= 2:
            rest = rest[: -len(cut)]  # 有去医院看看吗 / 有啊 -> 有去医院啊: the try goes
        if v == "是" and self._member_de(rest):
            rest = rest[:-1]  # 你是篮球俱乐部的吗 / 不是 -> 不是篮球俱乐部: what one belongs to
        neg, pt = m.group("neg") or "", m.group("pt") or ""
        # nothing after the verb (作业写完了没 / 写完了): the question's topic before it, a
        # noun phrase only (单身不好么 / 好 -> 单身好: the question's own negation is dropped)
        part = rest or re.sub(
            r"^(?:那么|那)|(?:你们|我们|你|我|也|都|还|已经|不|没有|没)+$", "", asked[:i]
        )
        toks = self.mt.parse(part).tokens
        if not 1 <= len(part) <= self.answer_max or any(is_question_word(t.text) for t in toks):
            return None
        words = [t for t in toks if t.text.strip()]
        kinds = {
            kind_of(t.pos, t.text)
            for k, t in enumerate(words)
            # 您的订单: a possessive pronoun belongs to the noun phrase
            if not (t.text in PERSON_PRONOUNS and k + 1 < len(words) and words[k + 1].text == "的")
        }
        if not rest and (not kinds <= {"NOUN", "DE", "NUM"} or "NOUN" not in kinds):
            return None
        part = part.translate(_PERSPECTIVE)
        if not rest and not m.group("asp") and v in self.object_verbs:
            new = neg + v + part + pt  # 迪士尼去么 / 去 -> 去迪士尼: the topic is the object
        elif not rest:
            new = part + text.strip()  # 作业写完了没 / 写完了 -> 作业写完了
        elif asp and part.endswith(asp):
            new = neg + v + part + pt  # 有节目单了吗 / 有了 -> 有节目单了
        else:
            new = neg + v + asp + part + pt
        if rest:
            # 卫青是汉武帝吗 / 不是 -> 卫青不是汉武帝: the question's subject stays in front
            new = self._asked_subject(asked[:i], text) + new
        return _resolved_from(
            state,
            reply_re[1],
            new,
            part,
            last,
            "obj",
            slot="object",
            note=f"answer to {asked!r}: {v} + {part}",
            confidence=0.75,
        )

    def _a_request(self, asked: str, own: TurnInfo | None, verb: str) -> bool:
        """The assistant's question is a request (rules/completeness.yaml answer_reply
        ``request``: 能不能像我这样严肃点 / 能不能说点好听的) right after ``own``, the user's
        yes/no question with ``verb``, the answer's (狗能吃葡萄吗): a bare 不能 answers that
        question, not the request, which asks for something rather than whether something is so."""
        if self.answer_request is None or self.answer_request.match(asked) is None:
            return False
        said = unpunctuated(own.turn.content) if own is not None else ""
        end = self.own_asked_end
        return bool(verb) and verb in said and end is not None and end.search(said) is not None

    def _member_de(self, rest: str) -> bool:
        """``rest`` (what a 是…吗 question asks after 是) is a noun phrase of two words or more
        and the 的 of belonging (篮球俱乐部的 / 酒店行业的): a bare 是 / 不是 answer says the
        noun phrase without it. Not a 的 after a verb or a pronoun (你做的 / 你的: whose work,
        whose thing)."""
        if not rest.endswith("的") or len(rest) < 4:
            return False
        words = [t for t in self.mt.parse(rest[:-1]).tokens if t.text.strip()]
        return (
            len(words) >= 2
            and all(kind_of(t.pos, t.text) == "NOUN" for t in words)
            and not any(t.text in PERSON_PRONOUNS for t in words)
        )

    def _asked_subject(self, before: str, text: str) -> str:
        """The subject of a yes/no question, from what it says ``before`` the answered verb:
        a noun phrase the answer ``text`` does not hold, neither a speaker nor a word of address
        (德语 of 德语难学么, 素颜 of 素颜你敢直视么), else "". Not the subject of a negated
        question (小孩子不会很皮吗 / 会 -> 会很皮: the answer contradicts it)."""
        if before.endswith(("不", "没", "没有")):
            return ""
        # the opener and the speakers and adverbs before the verb go, word by word (成都算一线
        # 城市么: the 都 of 成都 is no adverb)
        words = [t for t in self.mt.parse(before).tokens if t.text.strip()]
        if words and words[0].text in self.answer_subject_open:
            words = words[1:]
        while words and words[-1].text in self.answer_subject_end:
            words.pop()
        subj = before[words[0].start : words[-1].end].strip() if words else ""
        if not 2 <= len(subj) <= self.answer_max or subj in text or subj in self.answer_addressees:
            return ""
        toks = [t for t in self.mt.parse(subj).tokens if t.text.strip()]
        kinds = {kind_of(t.pos, t.text) for t in toks}
        if (
            not kinds <= {"NOUN", "DE", "NUM"}
            or "NOUN" not in kinds
            or kind_of(toks[-1].pos, toks[-1].text) != "NOUN"
            or any(t.text in PERSON_PRONOUNS or is_question_word(t.text) for t in toks)
        ):
            return ""
        return subj

    def _verb_echo(
        self, state: State, d: Dialogue, parse: Parse, counted: re.Match[str] | None
    ) -> State | None:
        """A short query ending with a verb and no object (要怎样才能遇到 / 怎么补) takes the
        object that verb had in the last turn (会遇到好男人 -> 要怎样才能遇到好男人): the
        conversation itself pairs the verb with its object (``counted``: :meth:`_counted` of
        the parsed text)."""
        if counted is not None and len(parse.text) <= self.max_len:
            return self._counted_echo(state, d, parse.text, counted)
        agree = self.counted_agree.match(parse.text) if self.counted_agree is not None else None
        if agree is not None:
            return self._counted_echo(state, d, parse.text, agree)
        toks = [t for t in parse.tokens if t.text.strip()]
        j = len(toks) - 1
        while j >= 0 and kind_of(toks[j].pos, toks[j].text) in ("PART", "AUX"):
            j -= 1
        if j < 0 or len(parse.text) > 8 or kind_of(toks[j].pos, toks[j].text) != "VERB":
            return None
        verb = toks[j].text
        # 你会吗 after 你会做PPT吗: a bare modal takes the verb phrase it had
        modal = verb in self.modals and verb not in self.purpose_verbs
        if len(verb) < 2 and verb not in self.dangling and not modal and not self._led(toks, j):
            return None
        # 看过 / 吃了 match the bare verb of the last turns (我看延禧攻略 / 你看过吗)
        verbs = {verb, verb[:-1]} if len(verb) > 1 and verb[-1] in "了过着" else {verb}
        having = verb in self.mt.vo_having_query
        if having:
            verbs |= self.mt.vo_having  # 没充电宝 / 我有: having and not having, one verb
        flipped: set[str] = set()
        if modal:
            # 不会 of the query is the modal 会 of 你会做饭吗, and the other way round
            base = next(iter(self._unnegated(verb)), verb)
            if base in self.modals:
                flipped = ({base} | {n + base for n in self.negated}) - verbs
                verbs |= flipped
        i = j - 1
        while i >= 0 and kind_of(toks[i].pos, toks[i].text) == "ADV":
            i -= 1
        if (
            i >= 0
            and verb not in self.purpose_verbs  # 组团去: 去 takes a place, not what precedes it
            and toks[i].pos in _OBJECT_POS
            and not (i > 0 and is_question_word(toks[i - 1].text))
            and self._has_object(toks, [kind_of(t.pos, t.text) for t in toks], j)
        ):
            return None  # 三体也看过: the object stands in front of the verb (not 下沙 / 什么语言)
        own = _previous_question(d)
        for ti in reversed(d.turns[-2:]):
            if (
                modal
                and ti is not own
                and self._a_request(unpunctuated(ti.turn.content), own, verb.lstrip("不没"))
            ):
                continue  # 狗能吃葡萄吗 / 能不能说点好听的 / 不能: the user's own question
            ptoks = [t for t in ti.parse.tokens if t.text.strip()]
            for k, t in enumerate(ptoks):
                same = self.mt.same_verb(t.text, verbs)
                bound = None if modal or same else self.mt.bound_object(ptoks, k, verbs)
                if not same and bound is None:
                    continue
                if (
                    t.text in flipped
                    and ti.turn.role != "user"
                    and self.yes_no.search(ti.turn.content)
                ):
                    continue  # 你想去爬山吗 / 我不想: the assistant asks, no statement of the verb
                np: list[Any] = []
                vp = ptoks[k + 1 :]
                if modal and vp and vp[0].text in verbs:
                    vp = vp[1:]  # 会不会摔倒: the verb phrase after the modal's A-not-A
                if modal and not (
                    vp
                    and (
                        vp[0].text in self.mt.vo_times
                        or (having and kind_of(vp[0].pos, vp[0].text) != "VERB")
                    )
                ):
                    # the verb phrase after the modal, up to the clause's end or its question;
                    # a season it takes (喜欢冬天) or what one has (没有假期) is a noun object
                    if not vp or kind_of(vp[0].pos, vp[0].text) != "VERB":
                        continue
                    for u in vp:
                        if (
                            kind_of(u.pos, u.text) in ("PUNCT", "PART")
                            or u.text in _VP_ENDS
                            or is_question_word(u.text)
                            # 会拍照的人: the modal's verb phrase is a relative clause, it ends
                            # at its 的 (modal_vp clause_modals; not 喜欢透明的果冻)
                            or (
                                kind_of(u.pos, u.text) == "DE"
                                and t.text in self.mv.clause_modals
                                and bool(np)
                                and kind_of(np[-1].pos, np[-1].text) == "VERB"
                            )
                        ):
                            break
                        np.append(u)
                    # 做饭 / 沟通: a verb of two characters or more is a verb phrase alone
                    if (len(np) < 2 and len(np[0].text) < 2) or np[-1].end - np[0].start > 8:
                        continue
                    obj = ti.turn.content[np[0].start : np[-1].end]
                    if obj in parse.text or self.personal.search(obj):
                        return None
                    end = self._after_aspect(toks, j)
                    new, what = parse.text[:end] + obj + parse.text[end:], "verb phrase"
                    return self._echoed(state, ti, new, obj, verb, what)
                named = bound or self.mt.noun_object(ti, ptoks, k)
                if named is None:
                    continue
                obj = named
                if obj in parse.text or self.personal.search(obj):
                    return None
                if (
                    self.how.match(parse.text)
                    # 如何找 / 怎么去: a how_object verb takes it after (如何找工作)
                    and not (self.how_object is not None and self.how_object.match(parse.text))
                    # 你知道怎么查文献吗 / 怎么查: the turn asked it so (怎么查文献)
                    and not self.how_said.search(ti.turn.content[: t.start])
                    # 如何提高自身修养 / 提高自身修养是… / 怎么提高: the user asked it so
                    and not self._how_asked_of(d, verb, obj)
                ):
                    new = obj + parse.text  # 怎么写 -> 藏头诗怎么写: the object goes first
                else:
                    end = self._after_aspect(toks, j)
                    if parse.text[end - 1 : end] == "了" and end - 1 > toks[j].start:
                        end -= 1  # 去过了 -> 去过成都了: a final 了 closes the sentence
                    end = self._object_at(parse.text, end)  # 可以买吗 -> 比特币可以买吗
                    new = parse.text[:end] + obj + parse.text[end:]
                return self._echoed(state, ti, new, obj, verb, "object")
        return None

    def _mid_verb_echo(self, state: State, d: Dialogue, parse: Parse) -> State | None:
        """A dangling verb inside a query the completeness check found whole, with nothing
        after it (its aspect particle aside) that could be its object: a clause goes on with an
        adverb, a new subject and its verb, or a final particle (吃了我怕胖 / 我买了也不中奖 /
        去了没用). It takes the noun object the same verb had in the last turns (不敢吃零食 ->
        吃了零食我怕胖), after the verb and its aspect; the conversation itself pairs them. A verb
        that is no dangling verb (跳 / 讨厌) takes only a phrase said right after that same verb
        (跳芭蕾 -> 那就跳芭蕾吧你); not a modal, a verb said after anything (missing_object
        verb_after_not: 是 / 有 / 在) or a reduplication (叫叫 / 看看: trying, no object)."""
        toks = [t for t in parse.tokens if t.text.strip()]
        kinds = [kind_of(t.pos, t.text) for t in toks]
        for k, t in enumerate(toks):
            going = t.text in self.going  # 来吧: a verb of going misses where, a place
            dangles = going or self._dangles(t.text)
            # 那就跳吧你 / 跳芭蕾: any other verb only with the object the same verb had; 叫叫
            # / 看看: a reduplication tries the doing, it takes no object
            other = (
                t.text not in self.modals
                and t.text not in self.verb_after_not
                and t.text[:1] != t.text[1:2]
                and not (k > 0 and toks[k - 1].text == t.text)
            )
            if kinds[k] != "VERB" or not (dangles or other):
                continue
            if k + 1 >= len(toks) or self._has_object(toks, kinds, k):
                continue  # a verb ending the query is the bare verb echo's (short) business
            if t.text.lstrip("不没").startswith(self.quiet_not_verbs):
                continue  # 知道啊: what is known is a fact, not a phrase
            end = self._after_aspect(toks, k)
            if t.text.endswith("着") or "着" in parse.text[t.end : end]:
                continue  # 看着挺震撼: a verb with 着 describes, it takes no object here
            n = next((i for i, u in enumerate(toks) if u.start >= end), len(toks))
            # 来看看天安门: where one goes comes before what one goes there to do
            # (去了没用: a negated predicate is no purpose, it comments on the going)
            purpose = (
                going
                and n < len(toks)
                and kinds[n] == "VERB"
                and toks[n].text[:1] not in self.negations
            )
            if not purpose and not self._object_left_out(toks, kinds, n):
                continue
            if n < len(toks) and toks[n].start == t.end and toks[n].text[:1] in "不得":
                continue  # 看不动了: the verb's potential complement, no new clause
            verb = t.text
            verbs = {verb, verb[:-1]} if len(verb) > 1 and verb[-1] in "了过着" else {verb}
            # 不喜欢 / 没吃过 of the query is the verb 喜欢 / 吃 of the last turns
            verbs |= {s for v in verbs for s in self._unnegated(v, every=True)}
            # 玩过怪物猎人世界: the object after the verb's aspect; another verb only with a
            # phrase said right after it (跳芭蕾), no verb-object word of its own
            found = self._same_verb_object(
                d, verbs, after_aspect=True, bound=dangles, min_len=1 if dangles else 2
            )
            if found is None:
                if dangles:
                    return None
                continue
            ti, obj = found
            if obj in parse.text or self.personal.search(obj):
                return None
            if (purpose or (going and not self._dangles(verb))) and not any(
                x.text == obj and x.etype == "place" for x in ti.mentions
            ):
                return None  # 去上课 / 去旅游: only a place goes before the purpose
            at = toks[n].start if n < len(toks) else len(parse.text)
            at = min(at, end)
            if parse.text[t.end : at].endswith("了") and (
                t.text in self.going
                # 你看过了吗今年… -> 你看过三体了吗…: a 了 before a final particle closes
                # the clause, the object goes before it
                or (n < len(toks) and toks[n].text in self.final_particles)
            ):
                at -= 1  # 去了没用 -> 去医院了没用: a place goes before the 了
            new = parse.text[:at] + obj + parse.text[at:]
            return self._echoed(state, ti, new, obj, verb, "object")
        return None

    def _particle_gap(self, parse: Parse) -> int | None:
        """Where the object goes when a dangling verb (its aspect aside) closes a clause with a
        sentence-final particle and the query goes on after it (我自己还没买呢你怎么不请我 /
        要不要一起吃啊我请 / 来吧一起吃饭): after the verb and its aspect, as a bare verb at the
        end of a short query takes it (_gap); None when the clause has its object in front
        (三体也看过呢…), the verb is one of knowing (知道啊: a fact) or of state (看着)."""
        toks = [t for t in parse.tokens if t.text.strip()]
        kinds = [kind_of(t.pos, t.text) for t in toks]
        for k, t in enumerate(toks):
            if kinds[k] != "VERB" or not (t.text in self.going or self._dangles(t.text)):
                continue
            end = self._after_aspect(toks, k)
            n = next((i for i, u in enumerate(toks) if u.start >= end), len(toks))
            if n + 1 >= len(toks) or toks[n].start != end:
                return None
            if toks[n].text not in self.final_particles:
                return None
            if (
                t.text.lstrip("不没").startswith(self.quiet_not_verbs)
                or "着" in parse.text[t.start : end]
                or self._has_object(toks, kinds, k)
                or end > self.short_len
            ):
                return None
            if parse.text[end - 1 : end] == "了" and end - 1 >= t.end:
                # 你看过了吗今天才上映 -> 你看过侏罗纪世界2了吗…: the 了 closes the clause
                return end - 1
            return end
        return None

    def _same_verb_object(
        self,
        d: Dialogue,
        verbs: set[str],
        *,
        after_aspect: bool = False,
        after_count: bool = False,
        bound: bool = True,
        min_len: int = 1,
    ) -> tuple[TurnInfo, str] | None:
        """The first object one of ``verbs`` has in the last two turns, the latest first (its
        turn and the object): the noun phrase after the same verb (``after_aspect``: after its
        aspect particles too, 玩过怪物猎人世界; ``after_count``: after its own count, 要一杯拿铁),
        or, with ``bound``, the noun of a verb-object word jieba keeps whole (会发表情 / 再发几个
        -> 表情); objects shorter than ``min_len`` are passed over. None when no turn has one."""
        for ti in reversed(d.turns[-2:]):
            ptoks = [t for t in ti.parse.tokens if t.text.strip()]
            for k, t in enumerate(ptoks):
                same = self.mt.same_verb(t.text, verbs)
                word = None if same or not bound else self.mt.bound_object(ptoks, k, verbs)
                if not same and word is None:
                    continue
                a = k
                while a + 1 < len(ptoks) and (
                    (after_aspect and ptoks[a + 1].text in self.aspects)
                    or (after_count and kind_of(ptoks[a + 1].pos, ptoks[a + 1].text) == "NUM")
                ):
                    a += 1
                obj = word or self.mt.noun_object(ti, ptoks, a)
                if obj is not None and len(obj) >= min_len:
                    return ti, obj
        return None

    def _unnegated(self, word: str, *, every: bool = False) -> list[str]:
        """``word`` without the negation it opens with (dangling_verbs ``negations``: 不喜欢 ->
        喜欢; the longest first, 没有吃 -> 吃), when something is left; with ``every``, one
        for each negation it opens with (没有吃 -> 吃, 有吃). Empty when it opens with none."""
        out = [word[len(n) :] for n in self.negated if word.startswith(n) and len(word) > len(n)]
        return out if every else out[:1]

    def _acked_bare(self, parse: Parse) -> bool:
        """The query opens with an acknowledgement (rules/completeness.yaml ack_openers) and
        what follows names no one (no pronoun but a question word: 哈哈哈安慰自己这样好么 /
        噢那说不定… point to their own topic) and opens with no verb of knowing (哈哈哈不知道唱
        什么啊: what is not known is a clause, no thing)."""
        ack = self.ack.match(parse.text) if self.ack is not None else None
        if ack is None or ack.end() == 0:
            return False
        rest = [t for t in parse.tokens if t.start >= ack.end() and t.text.strip()]
        said = parse.text[ack.end() :].lstrip().lstrip("不没")
        if not rest or said.startswith(self.quiet_not_verbs):
            return False
        return not any(
            kind_of(t.pos, t.text) == "PRON" and not is_question_word(t.text) for t in rest
        )

    def _object_left_out(self, toks: list[Any], kinds: list[str], n: int) -> bool:
        """What follows a verb from ``toks[n]`` on cannot be its object: an adverb, a
        conjunction, a final particle, a clause break, or a new subject (我 / 你) and the
        adverb or verb of its own clause."""
        if n >= len(toks):
            return False
        k = kinds[n]
        if k in ("ADV", "CONJ", "PART", "PUNCT") or toks[n].text in self.left_object_next:
            return True
        if k == "VERB" and len(toks[n].text) >= 2 and toks[n].text[:1] in self.negations:
            return True  # 去了没用 / 找了没用: a negated predicate opens a clause of its own
        if toks[n].text in self.give_verbs and n + 1 < len(toks):
            return toks[n + 1].text in RECIPIENTS  # 弹给我听: what is played goes before 给
        return (
            k == "PRON"
            and toks[n].text in RECIPIENTS
            and n + 1 < len(toks)
            and kinds[n + 1] in ("ADV", "VERB")
        )

    def _how_asked_of(self, d: Dialogue, verb: str, obj: str) -> bool:
        """Whether the user's turn of the last exchange asked how to do ``verb`` to ``obj``
        in that order (如何提高自身修养): a bare how-question on the verb then asks it the same
        way, the object after the verb (怎么提高 -> 怎么提高自身修养, not 自身修养怎么提高)."""
        for ti in d.turns[-2:]:
            said = ti.turn.content
            at = said.find(verb + obj)
            if ti.turn.role == "user" and at > 0 and self.how_said.search(said[:at]):
                return True
        return False

    def _led(self, toks: list[Any], j: int) -> bool:
        """The verb ``toks[j]`` follows a modal or a helper (你能说吗 / 你给我发, rules/
        completeness.yaml dangling_verbs verb_leads), adverbs between: any one-character verb
        there may miss its object, which the same verb had in the last turns."""
        i = j - 1
        while i >= 0 and kind_of(toks[i].pos, toks[i].text) == "ADV":
            i -= 1
        if i < 0:
            return False
        # 帮/我/查: a helper and its person are two words
        return toks[i].text in self.verb_leads or (
            i > 0 and toks[i - 1].text + toks[i].text in self.verb_leads
        )

    def _counted(self, text: str) -> re.Match[str] | None:
        """The counted_object match ending ``text`` (你送我一个呗), unless a clause before it
        stands apart (不好吃 换一个: its own gap comes first)."""
        m = self.counted.search(text) if self.counted is not None else None
        if m is None or _CLAUSE_BREAK.search(text, 0, m.start("v")):
            return None
        return m

    def _counted_echo(
        self, state: State, d: Dialogue, text: str, counted: re.Match[str]
    ) -> State | None:
        """A verb of giving or getting with a count and no noun (你也帮我买一个吧, rules/
        completeness.yaml counted_object) takes the noun object the same verb had in the last
        turns (我在网上买耳机 -> 你也帮我买一个耳机吧), after the count."""
        verb = counted.group("v")
        at = counted.end("m")
        # 我要一杯拿铁 / 我也要一杯: the noun after the verb's own count
        said = self._same_verb_object(d, {verb}, after_count=True)
        if said is not None:
            ti, obj = said
            if obj in text or self.personal.search(obj):
                return None
            return self._echoed(state, ti, text[:at] + obj + text[at:], obj, verb, "object")
        found = self._counted_thing(d, text, verb, counted.group("m")[-1:])
        if found is None:
            return None
        ti, obj, what = found
        return self._echoed(state, ti, text[:at] + obj + text[at:], obj, verb, what)

    def _counted_thing(
        self, d: Dialogue, text: str, verb: str, measure: str
    ) -> tuple[TurnInfo, str, str] | None:
        """What a count with no noun counts when its verb had no object in the last turns
        (rules/completeness.yaml counted_object): after a verb of wanting (``wants``: 想要一个),
        the noun a turn of the last two says its speaker lacks (``lacks``: 我没有男朋友); else
        the best ranked noun of the last two turns the measure counts (measure_noun ``kinds``:
        一台 + 电脑), no person, place or time."""
        recent = d.turns[-2:]
        if verb in self.count_wants:
            for ti in reversed(recent):
                ptoks = [t for t in ti.parse.tokens if t.text.strip()]
                for k, t in enumerate(ptoks):
                    if t.text not in self.count_lacks:
                        continue
                    obj = self.mt.noun_object(ti, ptoks, k)
                    if obj is not None and obj not in text and not self.personal.search(obj):
                        return ti, obj, "thing lacked"
        heads = self.measure_kinds.get(measure, ())
        if not heads:
            return None
        turns = {ti.turn.index: ti for ti in recent}
        for c in self.mt.rank(d, text=text):
            x = c.mention
            if x.turn not in turns or _is_pronounish(x) or x.is_set:
                continue
            if x.etype in HUMAN_TYPES or x.etype in ("place", "time"):
                continue
            name = self._uncounted(x.text)  # 三台电脑 -> 电脑; 张学友的歌 stays whole
            if not name.endswith(heads) or self.mt.references(name):
                name = x.head
            if name and name.endswith(heads) and name not in text:
                if self.personal.search(name):
                    return None
                return turns[x.turn], name, f"thing {measure} counts"
        # 你会抽烟吗 / 来一根: the noun of a verb-object word jieba keeps whole (抽烟 / 看书)
        for ti in reversed(recent):
            ptoks = [t for t in ti.parse.tokens if t.text.strip()]
            for k, t in enumerate(ptoks):
                obj = self.mt.bound_object(ptoks, k, {t.text[:1]})
                if obj is not None and obj.endswith(heads) and obj not in text:
                    return ti, obj, f"thing {measure} counts"
        return None

    def _shown(self, state: State, exchange: tuple[TurnInfo, TurnInfo]) -> State | None:
        """When nothing else completed the query: a request to show one (那你说一句 / 那你弹
        一个我听听 / 唱一首呗, rules/completeness.yaml show_one) takes as its object what the
        user's last turn asked the assistant about (你会英语吗 -> 那你说一句英语) or what that
        verb had in the last exchange (我最近在画熊猫 / 那你画一个我看看 -> 那你画一个熊猫我看看)."""
        rule = self.show_rule
        text = state.standalone.strip()
        m = rule_match(rule, text, whole=True)
        if rule is None or m is None:
            return None
        verb = m.group("v")
        obj, src = None, exchange[0]
        a = self.show_asked.match(exchange[0].turn.content.strip()) if self.show_asked else None
        if a is not None:
            x = a.group("x")
            if x[:1] == verb or (x[:1] in self.show_verbs and len(x) > 2):
                x = x[1:]  # 你会弹尤克里里吗 / 弹一个: what is played; 讲英文 / 说一个: 英文
            kinds = {kind_of(t.pos, t.text) for t in self.mt.parse(x).tokens}
            if not kinds & {"VERB", "PRON", "PART", "ADV", "NUM"}:
                obj = x  # a thing, however jieba cut it (尤克里/里)
        for ti in reversed(exchange) if obj is None else ():
            toks = [t for t in ti.parse.tokens if t.text.strip()]
            for k, t in enumerate(toks):
                if self.mt.same_verb(t.text, {verb}):
                    obj, src = self.mt.noun_object(ti, toks, k), ti
                    if obj is not None:
                        break
            if obj is not None:
                break
        if obj is None or obj in text or self.personal.search(obj):
            return None
        note = f"{verb}{m.group('m')} shows one {obj!r}, what the last exchange was about"
        return _object_after(state, rule.source, text, m.end("m"), obj, src, note)

    def _requested(self, state: State, exchange: tuple[TurnInfo, TurnInfo]) -> State | None:
        """When nothing else completed the query: a request for one or a few with no object
        (再来一张 / 给我发两张呗 / 你帮我找一个呗, rules/completeness.yaml request_one) asks
        for the thing the user's last turn was about: its last noun phrase, the mentions
        that touch joined (焰灵姬 + 图片), a count before it dropped (一首张学友的歌 -> 张学友的
        歌); not a phrase that only names a person, place or time, nor a verb (咨询) (你有焰灵姬
        图片吗 / … / 给我发两张呗 -> 给我发两张焰灵姬图片呗)."""
        rule = self.request_rule
        text = state.standalone.strip()
        m = rule_match(rule, text, whole=True)
        if rule is None or m is None:
            return None
        told = exchange[0]
        spans: list[list[Mention]] = []
        for mention in sorted(told.mentions, key=lambda x: (x.start, -x.end)):
            if spans and mention.start <= max(x.end for x in spans[-1]):
                spans[-1].append(mention)
            else:
                spans.append([mention])
        if not spans:
            return None
        last = spans[-1]
        if all(
            x.etype in ("person", "place", "time") or x.source.startswith("pos:v") for x in last
        ):
            return None
        start, end = min(x.start for x in last), max(x.end for x in last)
        if told.turn.content[:start].endswith(self.going):
            return None  # 去大理玩吗: where one goes is a place, whatever its tag
        # 你的手机壳 / 你也买一个 -> 你也买一个手机壳: whose it was is no part of the thing asked for
        obj = self.possessor.sub("", told.turn.content[start:end])
        if self.request_count is not None:
            obj = self.request_count.sub("", obj)
        verb = m.group("pre")[-2:]
        for k in (2, 1):
            if obj.startswith(verb[-k:]) and len(obj) > k:
                obj = obj[k:]  # 预测股市 / 那你预测一下 -> 那你预测一下股市: the verb is there
                break
        if (
            not obj
            or len(obj) > self.own_max
            or self.personal.search(obj)
            or _HAS_QWORD.search(obj)
            or obj in text
            or any(r.start == 0 for r in self.mt.references(obj))  # 这个动漫 points
        ):
            return None
        note = f"{m.group('m')} of what the user's last turn was about: {obj!r}"
        return _object_after(state, rule.source, text, m.end("m"), obj, told, note)

    def _work_attribute(self, state: State, d: Dialogue) -> State | None:
        """When nothing else completed the query: a part of a work said with no work before it
        (作者是谁 / 那你知道主角是谁吗 / 结局怎么样) belongs to the title the last exchange
        talked about (rules/completeness.yaml
        work_attribute): 你知道明朝那些事儿吗 / … / 作者是谁 -> 明朝那些事儿作者是谁. The title
        goes straight before the part when the query opens with it, with 的 after a verb
        (你知道作者是谁吗 -> 你知道围城的作者是谁吗). The title is a topic frame's or a work's
        name, or one both speakers said; no person, place or time, nothing pointing (这样的漫画).
        The inside of a work (``inside``: 你最喜欢里面的谁 -> 你最喜欢琅琊榜里面的谁) takes the
        title with no 的, unless 里面 is a place (我忘在里面了 / 那里面); a question word before
        the part stays with it (你什么段位 -> 你星际争霸什么段位)."""
        rule = self.work_rule
        if rule is None or not self.work_parts or state.has("fw:comparison"):
            return None
        parse = self.mt.parse(state.standalone)
        toks = [t for t in parse.tokens if t.text.strip()]
        k = next((i for i, t in enumerate(toks) if t.text in self.work_any_part), None)
        if k is None or len(parse.text) > self.work_max:
            return None
        before = toks[:k]
        inside = toks[k].text in self.work_inside
        if inside and (
            k + 1 == len(toks)
            or (
                before
                and (
                    kind_of(before[-1].pos, before[-1].text) == "PREP"
                    or before[-1].text[-1] in self.into
                    or before[-1].text in ("那", "这")  # 那里面有寿司吗: in there
                )
            )
        ):
            return None  # 放在里面 / 走进里面: a place, not the inside of a work
        if any(
            kind_of(t.pos, t.text) in ("NOUN", "PRON")
            and t.text not in "你我"
            and t.text not in self.lead  # 那你喜欢里面的谁: 那 opens the query, it owns nothing
            and not is_question_word(t.text)  # 你什么段位
            for t in before
        ):
            return None  # 火影的结局 / 他的作者: the part has its owner (or coreference decides)
        if before and (before[-1].text == "的" or kind_of(before[-1].pos, before[-1].text) == "DE"):
            return None
        last = d.turns[-2:]
        title = self._work_title(d, parse.text) or self._framed_work(d)
        if title is None or title.text in parse.text:
            return None
        part = toks[k].text
        while k > 0 and is_question_word(toks[k - 1].text):
            k -= 1  # 你什么段位 -> 你星际争霸什么段位: the title goes before the question word
        at = toks[k].start
        opens = not any(kind_of(t.pos, t.text) == "VERB" for t in before)
        glue = "" if opens or inside else "的"
        if opens and not inside and self._part_takes_de(d, parse, at, title.text, part):
            glue = "的"  # 歌曲消愁 / … / 作者是谁 -> 消愁的作者是谁, as missing_subject says it
        new = parse.text[:at] + title.text + glue + parse.text[at:]
        return _resolved_from(
            state,
            rule.source,
            new,
            title.text,
            next(ti for ti in last if ti.turn.index == title.turn),
            "att",
            etype=title.etype,
            slot="owner",
            note=f"{part} of {title.text!r}, the work the last exchange talked about",
            confidence=0.65,
        )

    def _copula_echo(self, state: State, d: Dialogue, text: str) -> State | None:
        """A bare copula with its subject or adverb and nothing after it (你也是 / 我不是 / 汪峰
        也是吗 / 你不也是吗, completeness ``copula_echo``) says of its subject what a recent
        turn said with 是: the noun phrase after that turn's last 是 (我是唐山人 / … / 你也是 ->
        你也是唐山人; 就知道你是个小吃货 / 你不也是吗 -> 你不也是小吃货吗), the newest turn first."""
        m = self.copula_query.match(text) if self.copula_query is not None else None
        if m is None:
            return None
        reply = d.turns[-1] if d.turns and d.turns[-1].turn.role == "assistant" else None
        bare = self.mt.bare_noun_phrase(reply.turn.content, ANSWER_KINDS) if reply else None
        if reply is not None and bare and bare not in text and not self.personal.search(bare):
            # 不是金牛就是巨蟹吧 / 金牛座 / 我就觉得你是: a reply that is nothing but a noun phrase
            # settles what the subject is, before what an older turn said with 是
            return _resolved_from(
                state,
                self.copula_rule.source if self.copula_rule is not None else "ellipsis",
                text[: m.end("v")] + bare + text[m.end("v") :],
                bare,
                reply,
                "obj",
                slot="object",
                note=f"是 takes the reply's bare noun phrase {bare!r}",
                confidence=0.7,
            )
        supposed = False
        for ti in reversed(d.turns[-self.copula_back :]):
            ptoks = [t for t in ti.parse.tokens if t.text.strip()]
            # 你不是个老师吗 asks for agreement: what it supposes is said of no one
            asks_agree = ti.turn.content.rstrip("?？!！。 ").endswith(("吗", "么"))
            ks = [
                k
                for k, t in enumerate(ptoks)
                if t.text.endswith("是") and not (asks_agree and t.text == "不是")
            ]
            supposed = supposed or (asks_agree and any(t.text == "不是" for t in ptoks))
            for k in reversed(ks):
                while k + 1 < len(ptoks) and ptoks[k + 1].text in self.copula_counts:
                    k += 1  # 是个小吃货: the count is no part of what it is
                obj = self.mt.noun_object(ti, ptoks, k)
                if obj is not None and self.copula_drop_end is not None:
                    obj = self.copula_drop_end.sub("", obj)  # 大猪蹄子哈哈
                if not obj or self.personal.search(obj) or _HAS_QWORD.search(obj):
                    continue
                if obj in text:
                    return None
                new = text[: m.end("v")] + obj + text[m.end("v") :]
                return _resolved_from(
                    state,
                    self.copula_rule.source if self.copula_rule is not None else "ellipsis",
                    new,
                    obj,
                    ti,
                    "obj",
                    slot="object",
                    note=f"是 takes what turn {ti.turn.index} said is: {obj!r}",
                    confidence=0.7,
                )
        if supposed:
            return None  # 你不是个老师吗 / 算是吧 / 我不是: the question only supposed it
        # no turn said what anything is: the bare copula says its subject is the thing the last
        # exchange talks about (转行当程序员吧 / 程序员你有同感吗 / 我就是 -> 我就是程序员)
        recent = {ti.turn.index for ti in d.turns[-2:]}
        # 你是什么星座的 / 金牛座 / 我觉得你是: the assistant's bare answer first (a reply that is
        # nothing but a noun phrase names the thing); a name inside a longer phrase (广渠门 of
        # 广渠门中学) is the same thing, the longer phrase kept
        ranked = merge_nested(
            self.mt.rank(d, text=text),
            self.margin,
            attributes=self.mt.attribute_words,
            own_names=self.mt.own_names,
            versions=self.mt.version_suffix,
        )
        answer = self.mt.answer_mention(state, d, text)
        if answer is not None:
            ranked = [new_candidate(answer, 0.0, "the bare answer"), *ranked]
        for c in ranked:
            mt = c.mention
            if (
                mt.turn not in recent
                or _is_pronounish(mt)
                or mt.text in text
                or _HAS_QWORD.search(mt.text)
                or self.personal.search(mt.text)
                or self.mt.is_clause(mt)
                or self.mt.references(mt.text)
            ):
                continue
            new = text[: m.end("v")] + mt.text + text[m.end("v") :]
            return resolved(
                state,
                "ellipsis",
                self.copula_rule.source if self.copula_rule is not None else "ellipsis",
                new,
                mt,
                slot="object",
                note=f"是 takes the exchange's thing {mt.text!r} ({c.why})",
                confidence=0.6,
            )
        return None

    def _verb_then_part(self, parse: Parse) -> bool:
        """The query opens with a verb (after the leads) whose object is a part of a work
        (知道作者吗 / 说说情节 / 讲一下结尾剧情), no noun before the part."""
        if not self.work_parts:
            return False
        toks = [t for t in parse.tokens if t.text.strip() and t.text not in self.lead]
        k = next((i for i, t in enumerate(toks) if t.text in self.work_parts), None)
        if not k:
            return False
        kinds = [kind_of(t.pos, t.text) for t in toks[:k]]
        return kinds[0] == "VERB" and all(k in ("VERB", "NUM", "ADV") for k in kinds)

    def _work_title(self, d: Dialogue, text: str) -> Mention | None:
        """The title the last exchange talked about (work_attribute): the best ranked mention
        of the last two turns, when it is a topic frame's or a work's name or one both speakers
        said; no person, place or time, nothing pointing (这样的漫画)."""
        window = {ti.turn.index for ti in d.turns[-2:]}
        for c in self.mt.rank(d, text=text):
            m = c.mention
            if m.turn not in window or c.score < self.min_score_question:
                continue
            if (
                m.etype in HUMAN_TYPES
                or m.etype in ("place", "time")
                or _is_pronounish(m)
                or m.text.endswith("的")
                # 这样的漫画 points; 明朝那些事儿 is a title with 那些 inside it
                or any(r.start == 0 for r in self.mt.references(m.text))
            ):
                continue
            if (
                (m.gram == "topic" and m.source.startswith("rules/"))
                or m.etype == "work"
                or "repeated" in c.why
            ):
                return m
            return None
        return None

    def _part_takes_de(self, d: Dialogue, parse: Parse, at: int, title: str, part: str) -> bool:
        """A part opening a question about it (at ``at``: 作者是谁 / 配音呢 / 主角谁, the shapes of
        :meth:`_attribute_first`) takes 的 after its title, as a missing subject before it does (消愁的作者是谁);
        not after a title of one character or of digits, which reads glued to the part (飘作者
        / 1984作者), nor when a turn said the title and the part glued (巴黎圣母院作者是)."""
        toks = [t for t in parse.tokens if t.start >= at and t.text.strip()]
        asked = len(toks) >= 2 and toks[0].text == part and toks[1].text in ("是", "呢", "谁")
        if len(title) < 2 or title.isdigit() or not asked:
            return False
        return not any(title + part in ti.turn.content for ti in d.turns)

    def _framed_work(self, d: Dialogue) -> Mention | None:
        """A title no ranking finds (a one-character or number title, a kind word glued to
        it) that a turn of the last exchange, the user's first, says in a frame naming it a
        work (work_attribute ``title_frames``: 你知道飘吗 / 歌曲消愁 / 有首歌叫偏爱)."""
        if not self.work_frames or self.work_rule is None:
            return None
        last = d.turns[-2:]
        for ti in sorted(last, key=lambda t: t.turn.role != "user"):
            for frame in self.work_frames:
                m = frame.search(ti.turn.content)
                if m is not None:
                    title = m.group("title")
                    return said_mention(
                        title, "work", ti.turn, "topic", m.start("title"), self.work_rule.source
                    )
        return None

    def _favourite(self, state: State, d: Dialogue, text: str) -> State | None:
        """A which- or who-question about what the listener likes best with no whole named
        (work_attribute ``favourite``: 你最喜欢谁 / 喜欢里面的谁 / 那你最喜欢哪一集) asks about
        the members of the work the last exchange talked about: its title goes before the
        question word, with ``里的`` before 谁, ``的`` before 哪 (``里`` before 哪 + a person of
        the work's world, ``favourite_in``: 哪个人物 / 哪个英雄), nothing before 里面."""
        rule = self.work_rule
        m = self.work_favourite.match(text) if self.work_favourite is not None else None
        if rule is None or m is None or len(text) > self.work_max:
            return None
        title = self._work_title(d, text)
        if title is None or title.text in text:
            return None
        at = m.start("w")
        w = m.group("w")
        glue = "" if w in self.work_inside else ("里的" if w == "谁" else "的")
        fav_in = self.work_favourite_in
        if glue == "的" and fav_in is not None and fav_in.match(text, m.end("w")):
            glue = "里"  # 哪个人物 -> 海贼王里哪个人物: a person of the work's world
        new = text[:at] + title.text + glue + text[at:]
        ti = next(ti for ti in d.turns if ti.turn.index == title.turn)
        return _resolved_from(
            state,
            rule.source,
            new,
            title.text,
            ti,
            "att",
            etype=title.etype,
            slot="owner",
            note=f"{w} of {title.text!r}, the work the last exchange talked about",
            confidence=0.65,
        )

    def _measure_noun(self, state: State, text: str) -> State | None:
        """A which-question by a measure word alone (rules/completeness.yaml
        ``measure_noun``: 哪张 / 你要哪一只 / 哪家好吃) counts a thing of the last exchange: the
        best ranked noun of the last two turns whose head the measure counts goes right after
        the measure (哪张 -> 哪张海报); ``open_pattern``: 哪个 / 哪些 after a verb of using or
        buying counts whatever the last exchange talked about (住哪个好 -> 住哪个民宿好). Not
        when the query names a noun before the measure, nor when the last turns set out things
        to choose from (comparison's business)."""
        rule = self.measure_rule
        text = text.strip()
        m = rule_match(rule, text)
        opened = False
        if m is None and self.measure_open is not None:
            # 住哪个好: a measure of anything after a verb; any noun, not a person, place or time
            m = self.measure_open.match(text)
            opened = True
        if rule is None or m is None or len(text) > self.max_len:
            return None
        d = self.mt.dialogue(state)
        if d.sets():
            return None
        fav = self.work_favourite
        if fav is not None and fav.match(text) and self._work_title(d, text) is not None:
            return None  # 四大名著 / 你最喜欢哪一本: a member of the work (_favourite)
        heads = self.measure_kinds.get(m.group("w"), ())
        pre = m.group("pre")
        if (not heads and not opened) or (
            pre and any(kind_of(t.pos, t.text) == "NOUN" for t in self.mt.parse(pre).tokens)
        ):
            return None
        recent = {ti.turn.index for ti in d.turns[-2:]}
        for c in self.mt.rank(d, text=text):
            x = c.mention
            if x.turn not in recent or _is_pronounish(x) or x.is_set:
                continue
            name = self._uncounted(x.text)  # 好多猫 -> 猫
            if "的" in name or self.mt.references(name):
                name = x.head  # 李白的诗 -> 诗: the kind counted, not whose
            if opened and (x.etype in HUMAN_TYPES or x.etype in ("place", "time")):
                return None  # 去过哪些 / 北京: where, not what
            if not name or not (opened or name.endswith(heads)) or name in text:
                if x.etype in HUMAN_TYPES:
                    return None  # 听罗大佑 / 哪一首: whose (罗大佑哪一首), the gap rules' business
                continue
            at = m.end("m")
            new = text[:at] + name + text[at:]
            return resolved(
                state,
                "ellipsis",
                rule.source,
                new,
                x,
                slot="object",
                note=f"{m.group('m')} counts {name!r}, the thing of the last exchange",
                confidence=0.65,
            )
        return None

    def _bare_which(self, state: State) -> tuple[State, bool] | None:
        """A bare which-ones question after a user's turn that is nothing but a short noun
        phrase (rules/completeness.yaml ``bare_which``: 网红零食 / … / 有哪些 -> 网红零食有哪些),
        the phrase first, and whether it is taken over the ranking's choice (a 的-phrase,
        ``whole``). Why: the user named a kind and asks for its members; the owner inside a
        的-phrase (宫崎骏 in 宫崎骏的动漫) is no kind."""
        rule = self.bare_which
        text = state.standalone.strip()
        if rule is None or not state.history or rule_match(rule, text) is None:
            return None
        d = self.mt.dialogue(state)
        exchange = last_exchange(state, d)
        if exchange is None or exchange[0].turn.role != "user":
            return None
        user = exchange[0]
        np = self.mt.bare_noun_phrase(user.turn.content, self.bare_which_kinds)
        if np is None or np in text:
            return None
        note = f"which ones asked of the kind the user named: {np!r}"
        done = _topic_first(state, rule.source, np, text, user, note)
        whole = self.bare_which_whole is not None and bool(self.bare_which_whole.search(np))
        return done, whole

    def _good_kind(self, state: State, exchange: tuple[TurnInfo, TurnInfo]) -> State | None:
        """A question for good ones with no kind, when nothing else completed the query
        (rules/completeness.yaml ``good_kind``: 有什么好吃的 / 有什么好的嘛): the kind the user's
        last turn named goes after the 的 (我想做兼职 / … / 有什么好的嘛 -> 有什么好的兼职嘛). Why:
        the user asks for good ones of what they were talking about, and the longest phrase both
        turns said is it."""
        rule = self.good_kind
        text = state.standalone.strip()
        m = rule_match(rule, text) if rule is not None else None
        user, reply = exchange
        if rule is None or m is None or self.good_kind_span is None or user.turn.role != "user":
            return None
        said, heard = user.turn.content, reply.turn.content
        shared = {
            said[i:j]
            for i in range(len(said))
            for j in range(i + 2, len(said) + 1)
            if said[i:j] in heard
        }
        kinds = [k for k in shared if self.good_kind_span.fullmatch(k)]
        kind = max(kinds, key=lambda k: (len(k), -said.index(k)), default=None)
        if kind is None or kind in text:
            return None
        note = f"good ones asked for: of the kind {kind!r} the user named"
        return _object_after(state, rule.source, text, m.end("at"), kind, user, note)

    def _said_kind(self, state: State, d: Dialogue) -> State | None:
        """When nothing else completed the query: what was said is a book, a song, a show… with
        no name (rules/completeness.yaml said_kind: 我说的是书 / 你说的是漫画啊) takes the name
        the speaker's last turn said, its topic frame or the whole turn, after 说的 (你读过呐喊吗
        / 那部电影拍得不错 / 我说的是书 -> 我说的呐喊是书); 我 is the user, 你 the assistant."""
        rule = self.said_kind_rule
        if rule is None or rule.pattern is None or len(d.turns) < 2:
            return None
        text = state.standalone
        m = rule.pattern.match(text)
        if m is None:
            return None
        role = "user" if m.group("who") == "我" else "assistant"
        ti = next((t for t in reversed(d.turns[-2:]) if t.turn.role == role), None)
        if ti is None:
            return None
        said = ti.turn.content.strip()
        end = self.said_kind_bare_end
        bare = end.sub("", said) if end is not None else said  # 动物庄园呢 -> 动物庄园
        name = next(
            (
                x
                for x in ti.mentions
                if (x.gram == "topic" and x.source.startswith("rules/")) or x.text in (said, bare)
            ),
            None,
        )
        if name is None and self.said_kind_min_shared:
            # no frame: the longest phrase the turn and the other speaker's answer to it both
            # said (老人与海你觉得怎么样 / 初中读过老人与海… / 我说的是书 -> 老人与海)
            shared = [
                x
                for x in self.mt.shared_spans(d)
                if x.turn > ti.turn.index
                and x.text in said
                and len(x.text) >= self.said_kind_min_shared
            ]
            name = max(shared, key=lambda x: len(x.text), default=None)
        if name is None or name.text in text or _is_pronounish(name):
            return None
        at = m.end("pre")
        cop = "" if m.group("cop") else "是"  # 我说的小说 -> 我说的诛仙是小说
        return _resolved_from(
            state,
            rule.source,
            text[:at] + name.text + cop + text[at:],
            name.text,
            ti,
            "subj",
            etype=name.etype,
            slot="subject",
            note=f"what was said is {name.text!r}, the name the {role}'s last turn said",
            confidence=0.6,
        )

    def _echoed(
        self, state: State, ti: TurnInfo, new: str, obj: str, verb: str, what: str
    ) -> State:
        return _resolved_from(
            state,
            self.mt.sources.get("missing_object", "ellipsis:object"),
            new,
            obj,
            ti,
            "obj",
            slot="object",
            note=f"{verb} takes its {what} {obj!r} from the last turns",
            confidence=0.7,
        )

    def _a_not_a(self, state: State, d: Dialogue, text: str) -> State | None:
        """A short answer to the assistant's A-not-A question (在不在武汉 / 算不算明星脸 / 喜不喜欢
        猫) ends with its verb and takes the rest of the question (不在 -> 不在武汉; 可以算 ->
        可以算明星脸; 喜欢 -> 喜欢猫), seen from the user's side."""
        last = _answered(state, d)
        if last is None:
            return None
        asked = last.turn.content.strip().rstrip("?？!！。.~ 呢啊呀吖哦嘛")
        m = _A_NOT_A.search(asked)
        if (
            m is None
            or re.search(r"[,，。;；!！?？\s]", asked[m.start() :])
            or self._a_request(asked, _previous_question(d), m.group("a"))
        ):
            return None
        said = unpunctuated(text)
        core = said.rstrip("啊呀哦吧的哈呢吖嘛")
        a, rest = m.group("a"), asked[m.end() :]
        if (
            not 1 <= len(core) <= 4
            or _HAS_QWORD.search(rest)
            or re.search("[你您吗嘛么]", said)  # 你怕嘛: a question back, not an answer
        ):
            return None
        if core.endswith(a):
            new = core + rest
        elif rest and core.endswith(a + rest[0]):
            rest = rest[1:]
            new = core + rest  # 喜不喜欢猫 / 喜欢 -> 喜欢猫
        else:
            return None
        if new == core or len(rest) > 10:
            return None
        new = new.translate(_PERSPECTIVE) + said[len(core) :]
        # 开普勒是不是游戏 / 不是 -> 开普勒不是游戏: the question's subject stays in front
        new = self._asked_subject(asked[: m.start()], text) + new
        if not asked[: m.start()] and a in self.answer_need:
            new = self._trouble(d) + new  # 馒头生病了 / 需不需要请假 / 需要 -> 馒头生病了需要请假
        return _resolved_from(
            state,
            self.mt.sources.get("answer_reply", "ellipsis:answer"),
            new,
            asked,
            last,
            "obj",
            slot="object",
            note=f"answer to {asked!r}: {core} + {rest}",
            confidence=0.7,
        )

    def _trouble(self, d: Dialogue) -> str:
        """What the user's turn before the assistant's told is wrong (馒头生病了 / 痛经怎么办 ->
        痛经), when it is a short statement or a how-to-cope question (answer_reply
        ``trouble_end`` / ``trouble_max``), else "". Why: a need asked with no subject
        (需不需要请假) comes of that trouble, and the answer says so: 馒头生病了需要请假."""
        told = d.turns[-2] if len(d.turns) >= 2 else None
        if told is None or told.turn.role != "user" or self.answer_trouble_end is None:
            return ""
        said = unpunctuated(told.turn.content)
        trouble = self.answer_trouble_end.sub("", said, count=1)
        if (
            not 2 <= len(trouble) <= self.answer_trouble_max
            or _HAS_QWORD.search(trouble)
            or re.search(r"[你您吗么嘛,，。;；!！?？\s]", trouble)  # 你好 / 你呢: no trouble told
        ):
            return ""
        return trouble

    def _judged_answer(self, state: State, d: Dialogue, text: str) -> State | None:
        """A short answer repeating the predicate the assistant's yes/no question ends with
        (rules/completeness.yaml ``answer_judged``: 华为荣耀七好不好用 / 不好用 -> 华为荣耀七
        不好用): what the question judged goes first."""
        rule = self.judged_answer_rule
        last = _answered(state, d)
        if rule is None or last is None or self.ja.end is None or self.ja.degree is None:
            return None
        asked = unpunctuated(last.turn.content)
        body = self.ja.end.sub("", asked)
        if body == asked:
            m = _A_NOT_A.search(asked)
            if m is None or m.end() + 2 < len(asked):
                return None
            body = asked[: m.start()] + asked[m.end() - 1 :]  # 好不好用 -> 好用
        if self.ja.lead is not None:
            # a frame that was a relative clause (你说的大衣好看不) leaves the noun, not 的大衣
            body = self.ja.lead.sub("", body, count=1).lstrip("的")
        said = unpunctuated(text)
        core = self.ja.drop.sub("", said) if self.ja.drop is not None else said
        degree = self.ja.degree.match(core)
        pred = core[degree.end() :] if degree else core
        if not pred and core in self.ja.asserted:
            # 你觉得剑桥美吗 / 当然啦 -> 剑桥当然美啦: the subject, the assertion, the predicate
            split = self._judged_split(body)
            if split is None:
                return None
            subject, pred = split
            said = core + pred + said[len(core) :]
            body = subject + pred
        if not pred or not body.endswith(pred):
            return None
        # a quality judged (不好用 / 很严重 / 舒服), not a verb the question put its object
        # before (高达看过么 / 看过)
        if (degree is None or not degree.group()) and any(
            kind_of(t.pos, t.text) != "ADJ" for t in self.mt.parse(pred).tokens
        ):
            return None
        subject = body[: len(body) - len(pred)]
        if (
            not 2 <= len(subject) <= self.ja.max_len
            or subject[-1] in "不没很太好还"
            or _CLAUSES.search(subject)
            or _HAS_QWORD.search(subject)
            or self.not_judged_subject.search(subject)
        ):
            return None
        owned = self._owned(state, d, subject)  # 你女朋友漂亮么 / 漂亮 -> 我女朋友漂亮
        at = last.turn.content.find(subject)
        if owned == subject and at > 0:
            # 我同桌 / 你同桌帅么 / 帅 -> 我同桌帅: the user's own, the assistant asked with 你
            owned = user_owner(state, subject, last.turn, at) + subject
        subject = owned
        note = f"{core} judges what the assistant asked of: {subject!r}"
        return _resolved_from(
            state,
            rule.source,
            subject + said,
            subject,
            last,
            "subj",
            slot="subject",
            note=note,
            confidence=0.65,
        )

    def _judged_split(self, body: str) -> tuple[str, str] | None:
        """``body`` as its subject, the nouns it opens with, and its predicate, opening with an
        adjective or a verb (剑桥美 -> 剑桥, 美); None when it does not split so."""
        toks = [t for t in self.mt.parse(body).tokens if t.text.strip()]
        n = 0
        while n < len(toks) and kind_of(toks[n].pos, toks[n].text) == "NOUN":
            n += 1
        if n == 0 or n == len(toks) or kind_of(toks[n].pos, toks[n].text) not in ("ADJ", "VERB"):
            return None
        return body[: toks[n].start], body[toks[n].start :]

    def _wh_answer(self, state: State, d: Dialogue, text: str) -> State | None:
        """A short noun answer to the assistant's wh-question fills the question word's slot,
        seen from the user's side (南开在哪 / 天津 -> 南开在天津; 你在哪里 / 北京啊 ->
        在北京啊; 哪个版本的神雕 / 刘亦菲 -> 刘亦菲版本的神雕)."""
        wh = self.wh_rule
        last = _answered(state, d)
        if wh is None or wh.pattern is None or last is None:
            return None
        asked = last.turn.content.strip().rstrip("?？!！。.~ 呢啊呀吖哦嘛")
        if self.wh_end is not None:
            asked = self.wh_end.sub("", asked).rstrip("呢啊呀吖哦嘛")
        knows = self.wh_knows.fullmatch(asked) if self.wh_knows is not None else None
        if knows is not None:
            asked = knows.group("q")  # 知道江苏省会在哪里吗 / 南京 -> 江苏省会在南京
        said = unpunctuated(text)
        modifier = self._modifier_answer(wh.pattern, asked, said)
        if modifier is not None:
            filled, q = modifier
            return _answered_as(
                state, wh.source, filled, asked, last, f"a kind of what {q} asks about"
            )
        # an interjection before the answer (哈哈张国荣) stays in front of the filled question
        opener = self.interjection.match(said)
        before = opener.group() if opener else ""
        echoed = self._wh_echoed(wh.pattern, asked, before, said)
        if echoed is not None:
            filled, q = echoed
            return _answered_as(state, wh.source, filled, asked, last, f"{q} said in its frame")
        said = said[len(before) :]
        core = said.rstrip("啊呀哦吧的哈呢吖嘛")
        if (
            not 1 <= len(core) - core.startswith("在") <= int(wh.get("max_answer") or 4)
            or len(asked) > int(wh.get("max_question") or 12)
            or re.search(r"[,，。;；!！?？]", asked)
        ):
            return None
        if re.match(r"(?:哈+|呵+|嘿+|卧槽|我靠|哇|嗯+|恩+|啊+)", asked):
            return None  # 哈哈你们家在哪里 / 卧槽烟台哪儿的: banter, the answer stands alone
        found = list(wh.pattern.finditer(asked))
        if len(found) != 1 or wh.pattern.search(core):
            return None
        if found[0].group(0) == "多少" and re.search(r"\d\s*[^\d\s]+$", core):
            return None  # 你多少斤 / 45kg: the answer carries its own unit
        m = found[0]
        after = asked[m.end() :]
        at = ""
        if m.group(0) in self.where and core.startswith("在") and len(core) > 1:
            # 黑龙江在哪里 / 在东北 -> 黑龙江在东北; 天河区哪里 / 在广州 -> 天河区在广州
            at = "" if asked[: m.start()].endswith("在") else "在"
            core, said = core[1:], said[1:]
        if m.group(0) in ("哪个", "哪") and after in self.wh_kinds:
            after = ""  # 北京哪个位置 / 北五环 -> 北京北五环
        if after == "了":
            after = ""  # 回哪里了 / 青岛 -> 回青岛: the question's aspect is not the answer's
        if m.group(0) in ("什么", "啥") and after:
            first = self.mt.parse(after).tokens
            end = self.wh_named_kinds.get(after.removesuffix("的"))
            if end and self.wh_names is not None and self.wh_names.match(core):
                # 你什么星座 / 摩羯 -> 摩羯座: the bare name with its kind's ending
                filled = before + core + end + said[len(core) :]
                return _answered_as(state, wh.source, filled, asked, last, f"{core}{end}")
            if first and kind_of(first[0].pos, first[0].text) == "NOUN":
                if not core.endswith(after) and not self._wh_kind_named(asked, m.start(), first):
                    return None  # 什么星座 / 啥1984年: the noun is part of what is asked
                # 领什么证 / 结婚证: the answer says the noun itself; 李小龙创建了什么功夫 /
                # 截拳道: the thing a verb takes, named, in place of the kind asked for; 买什么
                # 手机 / 华为: a make the dictionaries do not know as a thing keeps the noun
                # (华为的: a whose-answer stands as it is)
                if (
                    core.endswith(after)
                    or after not in self.wh_make_kinds
                    or state.has("entity")
                    or said[len(core) :].startswith("的")
                ):
                    after = ""
        number = m.group(0) in ("几", "多少")
        if number != bool(self.number.fullmatch(core)) and m.group(0) == "几":
            return None  # 几 takes a bare number only (几岁 / 17)
        if not (number and self.number.fullmatch(core)) and any(
            kind_of(t.pos, t.text) not in ("NOUN", "TIME", "LOC")
            for t in self.mt.parse(core).tokens
        ):
            return None  # only a name, a thing, a place, a time or a count answers it
        # 哟 梁思佳是谁呀 / 班长: the opener goes, and the space after it
        lead = self.wh_lead.sub("", asked[: m.start()], count=1).lstrip() + at
        if after and core.endswith(after):
            after = ""  # 信阳什么县 / 商城县: the answer says the question's noun itself
        elif m.group(0) in ("哪个", "哪") and said.rstrip("啊呀哦吧哈呢吖嘛").endswith("的"):
            # 犹他州公园是哪个公园 / 美国的吧: a 的-answer says whose or where from, the noun
            # stays out (犹他州公园是美国的吧, not 美国公园的)
            after = ""
        tail = said[len(core) :]
        k = len(tail)
        while k and not after.endswith(tail[:k]):
            k -= 1
        tail = tail[k:]  # 摘金奇缘是哪国的 / 韩国的呀: the 的 both end with is said once
        filled = (lead + core + after).translate(_PERSPECTIVE)
        if after and not number:
            # 你觉得摆渡人怎么样 / 你什么时候看的呀 / 去年 -> 去年看的摆渡人: the work the user
            # named is what the question's last verb takes
            filled += self._wh_work(state, d, after, filled)
        filled += tail
        if number and self.number.fullmatch(core) and after[:1] in self.measures:
            filled = core + after[0] + said[len(core) :]  # 你几岁了 / 17 -> 17岁
        filled = before + filled
        if filled == text.strip():
            return None  # 你在哪 / 北京: nothing but the answer itself
        return _answered_as(state, wh.source, filled, asked, last, f"{core} for {m.group(0)}")

    def _wh_kind_named(self, asked: str, at: int, kind: Sequence[Any]) -> bool:
        """Whether the question asks for the object of its verb by its kind (创建了什么功夫 /
        喜欢什么颜色): a verb (and its aspect: dangling_verbs ``aspects``) right before the
        question word at ``at`` and only nouns after it; not a verb that says what something
        is or has (same_predicate_subject ``not_verbs``: 是什么星座 / 叫什么名字). Why: a name
        answering it is the object itself (截拳道, not 截拳道功夫)."""
        toks = [t for t in self.mt.parse(asked[:at]).tokens if t.text.strip()]
        while toks and toks[-1].text in self.aspects:
            toks.pop()
        return (
            bool(toks)
            and kind_of(toks[-1].pos, toks[-1].text) == "VERB"
            and toks[-1].text not in self.same_predicate_not_verbs
            and all(kind_of(t.pos, t.text) == "NOUN" for t in kind)
        )

    def _wh_echoed(
        self, pattern: re.Pattern[str], asked: str, before: str, said: str
    ) -> tuple[str, str] | None:
        """(the filled answer, the question word) when the reply is a noun phrase followed by
        what follows the question word in the assistant's question, said again (这首歌是谁唱的 /
        周深唱的 -> 这首歌是周深唱的; 程蝶衣是谁演的 / 哈哈张国荣演的 -> 哈哈程蝶衣是张国荣演的):
        the question's frame with the noun phrase in the question word's place, the opening
        interjection ``before`` (_wh_answer's split of ``said``) kept in front. Why: the reply
        repeats the frame's verb, so it answers the whole question, not a part of it; a bare
        name (张国荣) is the answer_wh's own."""
        body = said[len(before) :].rstrip("啊呀哦吧哈呢吖嘛")
        found = list(pattern.finditer(asked))
        if len(found) != 1 or pattern.search(body) or len(asked) > self.wh_echo_question_max:
            return None
        m = found[0]
        after = asked[m.end() :]
        head = body[: len(body) - len(after)]
        if (
            len(after) < 2
            or not body.endswith(after)
            or not 1 <= len(head) <= self.wh_echo_max
            or _CLAUSES.search(asked)
        ):
            return None
        toks = [t for t in self.mt.parse(head).tokens if t.text.strip()]
        if not toks or any(kind_of(t.pos, t.text) != "NOUN" for t in toks):
            return None  # 谁唱的 / 不知道唱的: only a name or a thing answers who or what
        lead = self.wh_lead.sub("", asked[: m.start()], count=1).lstrip()
        filled = (
            before
            + (lead + head + after).translate(_PERSPECTIVE)
            + said[len(before) :][len(body) :]
        )
        return filled, m.group(0)

    def _stated_answer(self, state: State, text: str, *, echo: bool = False) -> State | None:
        """A short answer to the assistant's bare question word completes the statement the
        user made before it (我喜欢周杰伦 / 谁啊 / 唱歌的 -> 周杰伦是唱歌的; 我搬家了 / 什么时候 /
        上周 -> 上周我搬家了; 我是四川人 / 四川哪里的 / 绵阳 -> 我是四川绵阳人;
        rules/completeness.yaml answer_stated)."""
        st = self.stated
        hist = state.history
        if (
            not st.source
            or len(hist) < 2
            or hist[-1].role != "assistant"
            or hist[-2].role != "user"
        ):
            return None
        asked = unpunctuated(hist[-1].content)
        stated = hist[-2].content.strip().rstrip("!！。.~ ")
        said = unpunctuated(text)
        core = said.rstrip("啊呀哦吧的哈呢吖嘛呗哒")
        if (
            not 1 <= len(core) <= st.max_answer
            or len(stated) > st.max_statement
            or _HAS_QWORD.search(said)
        ):
            return None
        one = st.one_of.match(stated) if st.one_of is not None else None
        if one is None and (_HAS_QWORD.search(stated) or re.search(r"[?？]", stated)):
            return None  # a question of the user's own, not a statement
        new = None
        if echo:
            new = self._stated_echo(asked, stated, said)
        elif st.who is not None and st.who.match(asked):
            new = self._stated_who(stated, said, one)
        elif st.when is not None and st.when.match(asked):
            toks = self.mt.parse(core).tokens
            if core in st.when_words or all(kind_of(t.pos, t.text) == "TIME" for t in toks):
                new = said + stated  # 我失恋了 / 什么时候的事 / 昨天 -> 昨天我失恋了
        elif st.where is not None and st.stated_from is not None:
            new = self._stated_where(asked, stated, said, core)
        if new is None:
            return None
        mention = new_mention(
            stated,
            "",
            "statement",
            hist[-2].index,
            hist[-2].role,
            "subj",
            0,
            len(stated),
            0,
            "history",
        )
        return resolved(
            state,
            "ellipsis",
            st.source,
            new,
            mention,
            slot="question",
            note=f"answer to {asked!r} completes the statement {stated!r}",
            confidence=0.7,
        )

    def _stated_echo(self, asked: str, stated: str, said: str) -> str | None:
        """和谁去看啊 / 去哪取: a who- or where-question with the statement's verb; the answer
        (和我朋友 / 去银行) goes before that verb and the object the statement gave it
        (我想去看电影了 -> 和我朋友看电影; 取钱 -> 去银行取钱)."""
        st = self.stated
        q = st.echo.match(asked) if st.echo is not None else None
        if q is None:
            return None
        v = q.group("v")
        at = stated.find(v)
        if at < 0:
            return None
        obj = ""
        for t in self.mt.parse(stated[at + len(v) :]).tokens:
            if kind_of(t.pos, t.text) != "NOUN":
                break
            obj += t.text
        if not obj and len(v) < 2:
            return None  # 我也去 / 去哪去: no object to say
        toks = [t for t in self.mt.parse(said).tokens if t.text.strip()]
        k = 0
        while k < len(toks) and _interjection(toks[k]):
            k += 1
        if k < len(toks) and toks[k].text in st.echo_open:
            k += 1
        rest = toks[k:]
        if not rest or any(kind_of(t.pos, t.text) not in ("NOUN", "PRON") for t in rest):
            return None  # 不知道 / 随便: no one and no place named
        return said + v + obj

    def _stated_who(self, stated: str, said: str, one: re.Match[str] | None) -> str | None:
        """谁啊 / 那他是谁呢: the one person the statement named (or brought in as 一个X:
        ``one``) is what the noun phrase ``said`` says."""
        np = said.removeprefix("是")
        toks = self.mt.parse(np.rstrip("啊呀哦吧哈呢吖嘛呗")).tokens
        if not toks or not (names_a_thing(toks) or toks[-1].text == "的"):
            return None  # 不知道 / 你猜: no noun phrase
        if one is not None:
            who = "我" + one.group("v") + "的" + one.group("n")
        else:
            names = {t.text for t in self.mt.parse(stated).tokens if t.pos.startswith("nr")}
            if len(names) != 1:
                return None
            who = names.pop()
        return who + "是" + np

    def _stated_where(self, asked: str, stated: str, said: str, core: str) -> str | None:
        """四川哪里的 / 哪个市: a place answering it goes after the place the user said they
        are from (我是四川人 -> 我是四川绵阳人)."""
        st = self.stated
        q = st.where.match(asked) if st.where is not None else None
        f = st.stated_from.match(stated) if st.stated_from is not None else None
        if q is None or f is None:
            return None
        place, asked_place = f.group("p"), q.group("p")
        if not place.startswith(asked_place) or core.startswith(place):
            return None
        if not all(t.pos.startswith("ns") for t in self.mt.parse(place).tokens):
            return None
        if not all(t.pos.startswith("ns") for t in self.mt.parse(core).tokens):
            return None  # 不告诉你 / 你猜: no place given
        tail = said[len(core) :].lstrip("的哒")
        if f.group("end"):
            return (f.group("lead") or "") + place + core + f.group("end") + tail
        return place + core + tail

    def _times_answer(self, state: State, d: Dialogue, text: str) -> State | None:
        """A count answering how often the user saw the work their turn named says it of the
        work (你知道围城吗 / 你看了几遍啊 / 3遍 -> 围城看了3遍; answer_wh ``times``)."""
        last = _answered(state, d)
        if last is None or self.wh_times is None or self.wh_many is None or self.wh_rule is None:
            return None
        asked = last.turn.content.strip().rstrip("?？!！。.~ 呢啊呀吖哦嘛")
        q = self.wh_times.match(asked)
        said = unpunctuated(text)
        core = said.rstrip("啊呀哦吧哈呢吖嘛")
        if q is None or not core.removesuffix("了").endswith(q.group("m")):
            return None
        if not self.wh_many.match(core.removesuffix("了")[: -len(q.group("m"))]):
            return None  # 没看过 / 忘了: no count
        v = q.group("v")
        exchange = last_exchange(state, d)
        # the question says the topic is a work: the one topic the user's turn framed
        topics = {
            mt.text
            for mt in (exchange[0].mentions if exchange is not None else ())
            if mt.role == "user" and mt.gram == "topic" and mt.etype not in ("person", "place")
        }
        if len(topics) != 1:
            return None
        work = topics.pop()
        filled = work + v + (q.group("asp") or "了") + said
        return _answered_as(
            state, self.wh_rule.source, filled, asked, last, f"{core} times for {work}"
        )

    def _wh_work(self, state: State, d: Dialogue, after: str, filled: str) -> str:
        """The thing the user's turn named that the verb ending the wh-question (``after`` its
        question word: 看的 / 看) takes, of the types answer_wh ``object_types`` allows (a work:
        你知道围城吗 / 你在哪看的 -> 围城); empty when there is none."""
        verb = after.rstrip("的了过着")
        exchange = last_exchange(state, d)
        if (
            exchange is None
            or exchange[0].turn.role != "user"
            or not self.vo_topic_types.get(verb, frozenset()) & self.wh_object_types
        ):
            return ""
        return self._typed_topic(exchange, verb, filled) or ""

    def _whole_entity(self, text: str) -> bool:
        """``text`` is, as a whole, one dictionary entity (你好李焕英), not a phrase holding one
        (劳驾88VIP)."""
        lexicon = self.mt.lexicon
        norm = lexicon.normalizer(text)
        hits = lexicon.match(norm)
        return (
            len(hits) == 1
            and hits[0].start == 0
            and hits[0].end == len(norm.text)
            and hits[0].first("entity") is not None
        )

    def _modifier_answer(
        self, pattern: re.Pattern[str], asked: str, said: str
    ) -> tuple[str, str] | None:
        """(the filled answer, the question word) when the reply is a phrase ending in 的 that
        says which one of the thing the assistant's question names right after its question
        word (啥壁纸啊 / 动漫的 -> 动漫的壁纸; 谁的脚丫子 / 我女朋友的 -> 我女朋友的脚丫子; 哪个网页
        / 你刚发的 -> 你刚发的网页): the thing goes after the 的. The question is nothing but the
        question word and the thing (rules/completeness.yaml answer_wh modifier_max)."""
        body = said.rstrip("啊呀哦吧哈呢吖嘛呗")
        limit = self.wh_modifier_max
        if not body.endswith("的") or not 2 <= len(body) <= limit or pattern.search(body):
            return None
        m = pattern.match(asked)
        if m is None or m.group(0) not in self.which_of:
            return None
        thing = asked[m.end() :].removeprefix("的")
        toks = self.mt.parse(thing).tokens if thing else ()
        if not toks or any(kind_of(t.pos, t.text) != "NOUN" for t in toks):
            return None  # 啥样的 / 哪一篇: no thing named, or more than a noun after it
        return body + thing + said[len(body) :], m.group(0)

    def _weather(self, state: State, d: Dialogue, text: str) -> State | None:
        """A turn about the weather, naming no place, right after the assistant's weather report
        for a place is about that place (邯郸今天的天气是霾转多云… / 好冷 -> 邯郸好冷;
        雷阵雨下多久 -> 青岛雷阵雨下多久); an opening interjection stays in front."""
        rule, report = self.weather_rule, self.weather_report
        last = _answered(state, d)
        if rule is None or rule.pattern is None or report is None or last is None:
            return None
        m = report.match(last.turn.content.strip())
        said = text.strip()
        if m is None or not rule.pattern.search(said) or m.group("p") in said:
            return None
        if any(w in said for w in self.weather_elsewhere):
            return None  # 你那儿冷吗 / 哪里不下雨: another place, or one to be found
        if any(t.pos.startswith("ns") for t in self.mt.parse(said).tokens):
            return None  # 北京冷吗: a place of its own
        # 下雨不过很小重庆明天的天气是…: the place is the run of place names ending the capture
        toks = self.mt.parse(m.group("p")).tokens
        k = len(toks)
        while k and toks[k - 1].pos.startswith("ns"):
            k -= 1
        place = m.group("p")[toks[k].start :] if k < len(toks) else m.group("p")
        if k == len(toks) and len(place) > 4:
            return None  # no place name there, only chatter
        at = 0
        for lead in self.weather_after:
            if said.startswith(lead):
                at = len(lead) + len(said[len(lead) :]) - len(said[len(lead) :].lstrip(" ，,"))
                break
        day = ""
        if (
            "t" in report.groupindex
            and not ("a" in report.groupindex and m.group("a"))
            and self.weather_day_question is not None
            and self.weather_day_question.search(said)
            and not (self.weather_own_time is not None and self.weather_own_time.search(said))
        ):
            day = m.group("t") or ""  # 有雨吗 -> 菏泽今天有雨吗: the day the report is for
        return _resolved_from(
            state,
            rule.source,
            said[:at] + place + day + said[at:],
            place,
            last,
            "topic",
            etype="place",
            slot="subject",
            note=f"weather follow-up to the report for {place}",
            confidence=0.75,
        )

    def _place_answered(self, state: State, d: Dialogue, text: str) -> State | None:
        """A short remark on how far it is, after the assistant answered the user's
        where-question with a bare place, is about that place (你在哪里呀 / 长沙 / 离我远吗 ->
        长沙离我远吗; rules/completeness.yaml place_answered)."""
        rule, asking, reply = self.place_rule, self.place_question, self.place_reply
        if rule is None or rule.pattern is None or asking is None or reply is None:
            return None
        exchange = last_exchange(state, d)
        said = text.strip()
        m = rule.pattern.match(said)
        if exchange is None or m is None:
            return None
        asked, answer = (t.turn.content.strip() for t in exchange)
        if len(asked) > self.place_question_max or not asking.search(asked):
            return None
        a = reply.match(answer.rstrip("?？!！。.~ "))
        if a is None or (self.place_not is not None and self.place_not.search(a.group("p"))):
            return None  # 不告诉你 / 你猜: no place given
        if any(t.pos.startswith("ns") for t in self.mt.parse(said).tokens):
            return None  # 离北京远吗: a place of its own
        place = a.group("p")
        if self.place_end is not None:
            place = self.place_end.sub("", place) or place
        if len(place) < 2:
            return None
        return _resolved_from(
            state,
            rule.source,
            m.group("lead") + place + m.group("rest"),
            place,
            exchange[1],
            "topic",
            etype="place",
            slot="subject",
            note=f"remark on the place {place} the assistant answered with",
            confidence=0.7,
        )

    def _who_answer(self, state: State, d: Dialogue, text: str) -> State | None:
        """A noun phrase answering the assistant's identity question says what its subject is
        (张孝全是谁啊 / 我男神 -> 张孝全是我男神; 围城的作者是谁 / 没记错的话是钱钟书 ->
        没记错的话围城的作者是钱钟书)."""
        rule, asking = self.who_rule, self.who_question
        last = _answered(state, d)
        if rule is None or rule.pattern is None or asking is None or last is None:
            return None
        asked = unpunctuated(last.turn.content)
        q = next((mq for p in self.who_questions if (mq := p.match(asked)) is not None), None)
        said = unpunctuated(text)
        m = rule.pattern.match(said)
        if (
            q is None
            or m is None
            or q.group("s") in said
            or _HAS_QWORD.search(said)
            or _A_NOT_A.search(said)
        ):
            # 同英语废是啥意思 / 啥意思 / 帅不帅: asking back, not answering
            return None
        subject = q.group("s")
        stoks = self.mt.parse(subject).tokens
        if any(kind_of(t.pos, t.text) == "PRON" for t in stoks):
            return None  # 这是谁 / 你是谁: a reference or a speaker, not a named topic
        if "y" in q.groupdict() and (
            not (
                kind_of(stoks[-1].pos, stoks[-1].text) == "NOUN"
                or any(subject in t.turn.content for t in d.turns[:-1])
            )
            or self.mt.bare_noun_phrase(said, _NOUN_PHRASE_KINDS) is None
        ):
            # 郭敬明是同志吗 / 不是个好同志; 说了是派大星了好么: a yes/no guess takes a bare
            # noun phrase only, about a thing named (导航 said by the user before)
            return None
        np = m.group("np").strip()
        cop, loc = m.group("cop"), m.groupdict().get("loc")
        where = q.groupdict().get("where")
        if where and not (cop or loc):
            return None  # 南开在哪 / 天津: answer_wh's business
        if loc and not (
            where and (names_a_thing(stoks) or any(subject in t.turn.content for t in d.turns[:-1]))
        ):
            # 许嵩是谁 / 在北京: 在 answers only a where-question, about a thing named or said
            # before (还记得是在哪儿吗 / 在门口: the question's subject is a clause)
            return None
        if (
            not cop
            and np not in self.who_self
            and (
                len(np) > self.who_np_max
                or not (loc or names_a_thing(self.mt.parse(np).tokens) or self._bare_name(np))
            )
        ):
            return None  # 不知道 / 夺得第一名: a clause, not what the subject is
        if cop and self.says_nothing.match(np):
            return None  # 是啊 / 是吗: a reply to the question, not an answer
        lead, hedge = m.group("lead"), m.group("hedge") or ""
        rest = said[m.end("hedge") if hedge else len(lead) :]
        if (q.groupdict().get("rel") or "").startswith("你") and not self.personal.match(np):
            # 郁振波是你啥人啊 / 男朋友: the user's relation, so 我男朋友
            at = m.start("np") - (len(said) - len(rest))
            rest = rest[:at] + "我" + rest[at:]
        new = lead + subject + hedge + ("" if cop or loc else "是") + rest
        new += text.strip()[len(said) :]
        return _resolved_from(
            state,
            rule.source,
            new,
            subject,
            last,
            "subj",
            etype="thing",
            slot="subject",
            note=f"{m.group('np').strip()} says what {subject} is",
            confidence=0.7,
        )

    def _bare_name(self, np: str) -> bool:
        """Whether ``np`` is a short run of content words only, which answering an identity
        question names what its subject is though the segmenter reads a verb in it (烧烤 /
        孙笑川 / 爱知之星): at most ``bare_max`` characters, one word or a noun last (not 去搜搜),
        no adverb, negation, pronoun, particle, preposition, number nor aspect word, and no
        dodge (``bare_not``: 保密)."""
        toks = [t for t in self.mt.parse(np).tokens if t.text.strip()]
        return (
            len(np) <= self.who_bare_max
            and bool(toks)
            and all(kind_of(t.pos, t.text) in ("NOUN", "VERB", "OTHER", "DE") for t in toks)
            and (len(toks) == 1 or kind_of(toks[-1].pos, toks[-1].text) == "NOUN")
            and not any(t.text in self.who_bare_not for t in toks)
        )

    def _unknown(self, state: State, d: Dialogue, text: str) -> State | None:
        """ "I don't know" to the assistant's wh-question takes the question as its object
        (话说许嵩到底是谁 / 我也不知道 -> 我也不知道许嵩到底是谁)."""
        rule = self.unknown_rule
        last = _answered(state, d)
        if rule is None or rule.pattern is None or last is None:
            return None
        m = rule.pattern.match(unpunctuated(text))
        asked = self.unknown_end.sub("", unpunctuated(last.turn.content))
        if (
            m is None
            or not _HAS_QWORD.search(asked)
            or (self.unknown_not is not None and self.unknown_not.search(asked))
            or len(asked) > int(rule.get("max_question") or 16)
            or re.search(r"[,，。;；!！?？]", asked)
        ):
            return None
        question = self.unknown_lead.sub("", asked, count=1)
        if len(question) < 2:
            return None
        return _resolved_from(
            state,
            rule.source,
            m.group("reply") + question.translate(_PERSPECTIVE) + m.group("pt"),
            question,
            last,
            "obj",
            slot="object",
            note=f"does not know the answer to {asked!r}",
            confidence=0.7,
        )

    def _clause_object(self, state: State, d: Dialogue, text: str) -> State | None:
        """A bare verb of knowing or saying takes the wh-question of the last exchange as its
        object (rules/completeness.yaml ``clause_object``: 怎么去火车站 / 我哪知道 / 你竟然不
        知道 -> 你竟然不知道怎么去火车站): the assistant's question, else the user's own when
        the assistant asked nothing back."""
        cl = self.clause
        m = cl.pattern.match(unpunctuated(text)) if cl.pattern else None
        exchange = last_exchange(state, d) if m is not None else None
        if m is None or exchange is None:
            return None
        told, last = exchange
        # 没看懂 / 不懂 take the thing a frame of knowing asked about, not a wh-question
        framed = cl.frame_only is not None and cl.frame_only.search(m.group("v")) is not None
        question = None if framed else self._clause_asked(last, cl.not_reply)
        src = last
        if framed:
            pass
        elif question is not None:
            question = question.translate(_PERSPECTIVE)
            if (
                m.group("you")
                and cl.knowing is not None
                and cl.knowing.search(m.group("v"))
                and cl.named_only is not None
                and cl.named_only.match(question)
            ):
                return None  # 德克士是啥 / 你不知道: the ranking's (你不知道德克士)
        elif cl.asked_back is None or not cl.asked_back.search(last.turn.content):
            question, src = self._clause_asked(told, cl.not_own), told
        if question is None and cl.knowing is not None and cl.knowing.search(m.group("v")):
            # 你知道乔布斯吗 / 这么厉害的人物怎么会不知道呢 / 我不知道啊: no wh-question, what a
            # topic frame asked about (the assistant's first: 知道阿尔法狗么) is what is not known
            # (乔斯达你知道不 of 你知道乔纳森乔斯达吗: the same thing, as the user named it whole)
            known = self.known_frames
            replied = self._told_frame(last, text, known)
            own = self._told_frame(told, text, known)
            if replied is not None and not (own is not None and replied in own):
                question, src = replied, last
            else:
                question, src = own, told
        if question is None or len(question) < 2 or question in text:
            return None
        new = text.strip()[: m.end("pre")] + question + m.group("pt")
        return _resolved_from(
            state,
            cl.source,
            new,
            question,
            src,
            "obj",
            slot="object",
            note=f"{m.group('v')} takes the question {question!r}",
            confidence=0.6,
        )

    def _told_frame(
        self, ti: TurnInfo, text: str, frames: frozenset[str] | None = None
    ) -> str | None:
        """The topic a topic frame (rules/context.yaml: 你知道千岛湖吗; one of ``frames``, by
        source, when given) read in turn ``ti``, when ``text`` does not say it; None when there
        is none."""
        return next(
            (
                mt.text
                for mt in ti.mentions
                if mt.gram == "topic"
                and mt.source.startswith("rules/")
                and (frames is None or mt.source in frames)
                and not _is_pronounish(mt)
                and mt.text not in text
                and not self.mt.references(mt.text)
            ),
            None,
        )

    def _clause_asked(self, ti: TurnInfo, not_said: re.Pattern[str] | None) -> str | None:
        """Turn ``ti`` as a short wh-question without its asking frame and final particles
        (clause_object), or None."""
        cl = self.clause
        said = unpunctuated(ti.turn.content)
        if cl.drop_end is not None:
            said = cl.drop_end.sub("", said)
        if (
            cl.asked is None
            or not cl.asked.search(said)
            or len(said) > cl.max_question
            or re.search(r"[,，。;；!！?？\s]", said)
            or (not_said is not None and not_said.search(said))
        ):
            return None
        return cl.drop_lead.sub("", said, count=1) if cl.drop_lead is not None else said

    def _confirm(self, state: State, d: Dialogue, text: str) -> State | None:
        """A bare reply to the assistant's short guess, remark, proposal or question takes that
        turn as what it confirms, denies, agrees to, echoes or negates, seen from the user's
        side (樱桃小丸子 / 不是 -> 不是樱桃小丸子; 还在上学吧 / 是的 -> 是的还在上学; 唱一曲吧 /
        可以 -> 可以唱一曲; 大四还有一个月毕业了 / 我也是 -> 我也是大四还有一个月毕业; 她回了吗 /
        没有 -> 没有回)."""
        last = _answered(state, d)
        if last is None:
            return None
        reply_text = unpunctuated(text)
        # an interjection before the reply (嗯嗯对呢 / 哈哈哈可以) stays in front of it
        opener = self.interjection.match(reply_text)
        said_before = opener.group() if opener else ""
        reply_text = reply_text[len(said_before) :]
        for rule, lead, end in self.reply_rules:
            m = rule_match(rule, reply_text)
            if m is None:
                continue
            said = unpunctuated(last.turn.content)
            led = lead.sub("", said, count=1)
            remark = end.sub("", led).strip()
            if (
                not 1 <= len(remark) <= int(rule.get("max_remark") or 10)
                or remark in (rule.get("dodges") or ())
                # the question word before the final particles are cut (区块链是什么: 么 is
                # part of 什么, not a particle)
                or _HAS_QWORD.search(led)
                or re.search(r"[,，。;；!！?？\s]", remark)
            ):
                return None
            remark = remark.translate(_PERSPECTIVE)
            reply, pt = m.group("r"), m.group("pt") or ""
            if not remark or remark[0] == "的":
                return None
            if (reply == "是" or rule.get("no_negation")) and re.search("[不没]", remark):
                return None  # 是 + 不是陕西的 reads as a question (是不是…)
            first_kinds = rule.get("first_kinds")
            topic = ""
            modal = self.reply_modal.get(rule.id)
            mm = modal.match(remark) if modal is not None else None
            if mm is not None and self._modal_subject(mm.group("s")):
                # 米饭能吃吗 / 可以的 -> 米饭可以吃的: the agreement takes the modal's place
                topic, remark = mm.group("s"), mm.group("vp")
            if first_kinds:
                toks = [t for t in self.mt.parse(remark).tokens if t.text.strip()]
                if (
                    len(toks) >= 2
                    and kind_of(toks[0].pos, toks[0].text) == "NOUN"
                    and self.mt.analyzer.type_of(toks[0].text, toks[0].pos) not in HUMAN_TYPES
                    and kind_of(toks[1].pos, toks[1].text) in first_kinds
                ):
                    # 作业写完了么 / 还没 -> 作业还没写完: the thing done stays in front
                    topic, remark = toks[0].text, remark[toks[1].start :]
                elif not toks or kind_of(toks[0].pos, toks[0].text) not in first_kinds:
                    return None  # 今天股票涨了吗 / 没有: a clause, not a predicate to negate
            if reply in (rule.get("kind_denied") or ()):
                denied = self._kind_denied(d, remark)
                if denied is not None:
                    topic, remark = denied  # 看地狱少女 / 电视剧 / 不是 -> 地狱少女不是电视剧
            after = reply in (rule.get("particles_after") or ())
            if after and pt and remark.endswith(pt):
                pt = ""  # 素食系的 / 我也是的 -> 我也是素食系的, not 素食系的的
            new = said_before + topic + (reply + remark + pt if after else reply + pt + remark)
            return _resolved_from(
                state,
                rule.source,
                new,
                remark,
                last,
                "statement",
                slot="object",
                note=f"{reply} to {said!r}",
                confidence=0.65,
            )
        return None

    def _kind_denied(self, d: Dialogue, remark: str) -> tuple[str, str] | None:
        """The one thing the user's turn before the assistant's named (a topic frame or an
        object: 你知道红月吗 / 看地狱少女) and the remark without the assistant's knowing it
        (answer_confirm ``kind_lead``), when that remark is a kind (it ends with a category
        noun: 电视剧 / 一款游戏) the thing is not in. Why: 不是 denies the thing is of the kind,
        so the thing goes first (红月不是一款游戏), not 不是知道一款游戏. None otherwise."""
        lead = self.kind_lead
        kind = lead.sub("", remark, count=1) if lead is not None else remark
        toks = [t for t in self.mt.parse(kind).tokens if t.text.strip()]
        if not toks or toks[-1].text not in self.mt.category_nouns or len(d.turns) < 2:
            return None
        told = d.turns[-2]
        if told.turn.role != "user":
            return None
        things = {
            m.text
            for m in told.mentions
            if not m.is_set
            and m.gram in ("topic", "obj")
            and m.text not in kind
            and m.text not in self.mt.category_nouns
            and not PERSON_PRONOUNS & self._words(m.text)
        }
        return (things.pop(), kind) if len(things) == 1 else None

    def _modal_subject(self, subject: str) -> bool:
        """Whether ``subject``, said before the modal of a proposal, is named by nouns only
        (冰淇淋 / 小王), naming no speaker and pointing at nothing (这个 / 他 go with the modal)."""
        toks = [t for t in self.mt.parse(subject).tokens if t.text.strip()]
        return (
            bool(toks)
            and all(kind_of(t.pos, t.text) == "NOUN" for t in toks)
            and not self.personal.search(subject)
        )

    def _judged_object(self, state: State, d: Dialogue, text: str) -> State | None:
        """A bare judgement of how a thing tastes (好吃吗 / 辣吗 / 好不好喝) judges
        what the last turns said was eaten or drunk (吃了西瓜 / 好吃吗 -> 西瓜好吃吗;
        约个吃货吃火锅 / 辣吗 -> 火锅辣吗): rules/completeness.yaml ``judged_object``; the
        assistant's last turn first, then the user's turn before it."""
        rule, site = self.judged_rule, self.judged_site
        m = rule_match(rule, text.strip())
        if rule is None or m is None or site is None:
            return None
        judged = m.group("v") or m.group("v2")
        verbs = self.judged_verbs.get(judged or "吃", frozenset())
        last = _answered(state, d)
        turns = [last] if last is not None else []
        if len(d.turns) >= 2 and d.turns[-2].turn.role == "user" and last is not None:
            turns.append(d.turns[-2])
        for ti in turns:
            thing = self._judged_thing(ti.turn.content, site, verbs)
            if thing is not None:
                return _resolved_from(
                    state,
                    rule.source,
                    thing + text.strip(),
                    thing,
                    ti,
                    "obj",
                    etype="thing",
                    slot="subject",
                    note=f"{text.strip()} judges {thing!r}",
                    confidence=0.65,
                )
        return None

    def _judged_thing(self, said: str, site: re.Pattern[str], verbs: frozenset[str]) -> str | None:
        """The last run of nouns ``said`` has right after one of ``verbs`` (its aspect and count
        skipped), at least two characters, naming no speaker and not going on into a place word
        or 的 (学校旁边滴串串); None when there is none."""
        thing = None
        for m in site.finditer(said):
            if m.group("v") not in verbs:
                continue
            run, ended = "", True
            for t in self.mt.parse(said[m.end() :]).tokens:
                k = kind_of(t.pos, t.text)
                if k == "NOUN" or (run and t.pos in ("g", "ng")):
                    run += t.text
                    continue
                ended = k not in ("LOC", "DE") and t.text not in ("滴", "地")
                break
            if len(run) >= 2 and ended and not self.personal.search(run):
                thing = run
        return thing

    def _comment(self, state: State, d: Dialogue, text: str) -> State | None:
        """A bare evaluation (好远 / 好巧 / 挺好听的) of what the assistant just named in a bare
        noun phrase is about that phrase (火车站哦 / 好远 -> 火车站好远; 历下区 / 好巧 ->
        历下区好巧)."""
        last = _answered(state, d)
        said = unpunctuated(text)
        if last is None or not self.evaluation.match(said):
            return None
        if any(_names_a_kind(t) for t in self.mt.parse(said).tokens):
            return None
        remark = self.mt.bare_noun_phrase(last.turn.content, _NOUN_PHRASE_KINDS) or self._evaluated(
            last.turn.content
        )
        if remark is None or self.personal.search(remark):
            return None
        return _resolved_from(
            state,
            self.mt.sources.get("missing_subject", "ellipsis:subject"),
            remark + said,
            remark,
            last,
            "subj",
            slot="subject",
            note=f"{said} is said of {remark!r}",
            confidence=0.65,
        )

    def _really(self, state: State, d: Dialogue, text: str) -> State | None:
        """真的吗 right after the assistant's statement about a thing the user's turn named
        (rules/completeness.yaml ``really_echo``: k701是耳机 / k701太贵了 / 真的吗 -> k701真的太
        贵了吗): the statement asked about again, 真的 after its subject."""
        rv = self.re_echo
        m = rv.pattern.match(text.strip()) if rv.pattern is not None else None
        last = _answered(state, d)
        if last is None or len(d.turns) < 2 or d.turns[-2].turn.role != "user":
            return None
        if m is None:
            return self._really_asked(state, d, text, last)
        said = last.turn.content.strip()
        if rv.drop_end is not None:
            said = rv.drop_end.sub("", said)
        if self.yes_no.search(said) or (rv.statement is not None and not rv.statement.match(said)):
            return None
        # the subject: the statement's first nouns, as the user's turn said them too
        told = d.turns[-2].turn.content
        end = 0
        for t in last.parse.tokens:
            if kind_of(t.pos, t.text) not in rv.subject_kinds or said[: t.end] not in told:
                break
            end = t.end
        if end == 0 or end >= len(said) or self.personal.search(said[:end]):
            return None
        new = m.group("pre") + said[:end] + m.group("r") + said[end:] + m.group("pt")
        return _resolved_from(
            state,
            rv.source,
            new,
            said,
            last,
            "statement",
            slot="question",
            note=f"{m.group('r')} asks about {said!r} again",
            confidence=0.6,
        )

    def _really_asked(self, state: State, d: Dialogue, text: str, last: TurnInfo) -> State | None:
        """A bare 真的 after the assistant's short yes to the user's yes/no question (really_echo
        ``asked``: 火箭能夺冠吗 / 能 / 真的 -> 火箭真的能夺冠): the question as a statement, 真的
        after its subject (its first nouns or pronoun)."""
        rv = self.re_echo
        m = rv.asked.match(text.strip()) if rv.asked is not None else None
        if m is None or rv.confirm is None or not rv.confirm.match(last.turn.content.strip()):
            return None
        asked = d.turns[-2]
        q = asked.turn.content.strip()
        if not self.yes_no.search(q) or rv.asked_end is None:
            return None
        q = rv.asked_end.sub("", q)
        end = 0
        for t in asked.parse.tokens:
            if kind_of(t.pos, t.text) not in rv.asked_subject or t.end > len(q):
                break
            end = t.end
        if end == 0 or end >= len(q) or _HAS_QWORD.search(q):
            return None
        new = m.group("pre") + q[:end] + m.group("r") + q[end:] + m.group("pt")
        return _resolved_from(
            state,
            rv.source,
            new,
            q,
            asked,
            "statement",
            slot="question",
            note=f"{m.group('r')} asks again what {q!r} asked",
            confidence=0.6,
        )

    def _evaluated(self, said: str) -> str | None:
        """The noun phrase a short evaluative statement opens with (鱼皮花生特别脆 ->
        鱼皮花生; 小油条看着不错 -> 小油条): what a bare evaluation after it goes on about."""
        if len(said) > 12 or self.personal.search(said):
            return None
        toks = [t for t in self.mt.parse(said.rstrip("?？!！。.~ ")).tokens if t.text.strip()]
        k = 0
        stop = self.mt.analyzer.non_entity  # 有点 / 一点 are tagged n
        while (
            k < len(toks)
            and kind_of(toks[k].pos, toks[k].text) in _NOUN_PHRASE_KINDS
            and toks[k].text not in stop
        ):
            k += 1
        if k == 0 or k == len(toks) or kind_of(toks[k - 1].pos, toks[k - 1].text) != "NOUN":
            return None
        if toks[k - 1].text in self.attributes:
            return None  # 味道不错: an attribute of the topic, not the topic itself
        np = said[: toks[k].start]
        rest = toks[k:]
        if not 2 <= len(np) <= 8 or not (
            kind_of(rest[0].pos, rest[0].text) in ("ADV", "ADJ") or rest[0].text in self.seems
        ):
            return None
        if any(_names_a_kind(t) or kind_of(t.pos, t.text) == "VERB" for t in rest[1:]):
            return None  # 饺子特别好包 / 荔枝喜欢给他剥: a clause, not an evaluation
        return np

    def _opinion(self, state: State, d: Dialogue, text: str) -> State | None:
        """A bare evaluation answering the assistant's opinion question about a named thing is
        said of that thing (你觉得周杰伦怎么样 / 挺好的 -> 周杰伦挺好的; 重庆火锅好吃吗 / 好辣 ->
        重庆火锅好辣). Why: the reply's subject is the thing asked about, and nothing else in
        the reply says so. Not when the thing is a speaker (你觉得我怎么样) or a clause."""
        rule, asked = self.opinion_rule, self.opinion_question
        if rule is None or rule.pattern is None or asked is None:
            return None
        said = unpunctuated(text)
        m = rule.pattern.match(said)
        last = _answered(state, d)
        if last is not None and m is None and len(said) <= 6:
            return self._bare_opinion(state, d, said, last)  # 严重 / 好看: the predicate itself
        if m is None or last is None:
            return None
        if any(_names_a_kind(t) for t in self.mt.parse(m["e"]).tokens):
            return None  # 好学校 / 不是他: a kind or a person, not a quality
        q = asked.match(unpunctuated(last.turn.content))
        if q is None:
            return self._bare_opinion(state, d, said, last)
        thing = self.mt.bare_noun_phrase(q["x"], _NOUN_PHRASE_KINDS)
        if thing is None or thing != q["x"] or self.personal.search(thing):
            return None
        return _resolved_from(
            state,
            rule.source,
            thing + said,
            thing,
            last,
            "subj",
            slot="subject",
            note=f"{said} answers what the assistant asked of {thing!r}",
            confidence=0.65,
        )

    def _bare_opinion(self, state: State, d: Dialogue, said: str, last: TurnInfo) -> State | None:
        """The assistant's evaluative question names no thing (好吃吗 / 严重吗) and the reply
        repeats its predicate (特别好吃 / 严重): it is said of what the user's turn before it
        named (晚上有虾米吃 / 好吃吗 / 特别好吃 -> 虾米特别好吃)."""
        bare = self.opinion_bare
        asked = unpunctuated(last.turn.content)
        if _A_NOT_A.search(asked):
            # 好不好吃啊 asks what 好吃吗 asks
            asked = _A_NOT_A.sub(r"\g<a>", asked, count=1).rstrip("啊呀呢哈") + "吗"
        q = bare.match(asked) if bare else None
        exchange = last_exchange(state, d)
        if q is None or q["p"] not in said or exchange is None or exchange[1] is not last:
            return None
        told = exchange[0]
        if any(kind_of(t.pos, t.text) == "NOUN" for t in self.mt.parse(said).tokens):
            return None  # 当然味道不错: the reply names its own subject
        thing = self.mt.bare_noun_phrase(told.turn.content, _NOUN_PHRASE_KINDS)
        pain = (
            self.opinion_ailment.match(unpunctuated(told.turn.content))
            if self.opinion_ailment
            else None
        )
        if thing is None and pain is not None:
            thing = pain["x"] + pain["a"]  # 我的喉咙痛 / 怎么了严重吗 / 很严重 -> 喉咙痛很严重
        if thing is None:
            # a topic frame's topic (读过X吗), else the one thing the turn names (我痔疮犯了)
            named = [
                m for m in told.mentions if m.gram == "topic" and m.source.startswith("rules/")
            ]
            named = named or [m for m in told.mentions if not m.is_set]
            thing = named[0].text if len(named) == 1 else None
        if thing is None or self.personal.search(thing) or thing in said:
            return None
        return _resolved_from(
            state,
            self.opinion_rule.source if self.opinion_rule is not None else "ellipsis",
            thing + said,
            thing,
            told,
            "obj",
            slot="subject",
            note=f"{said} answers the assistant's {q['p']!r} of {thing!r}",
            confidence=0.6,
        )

    def _identity(self, state: State, d: Dialogue, text: str) -> State | None:
        """A bare noun phrase naming a kind, right after the user introduced a topic with a
        topic frame, says what that topic is (你知道扶摇吗 / … / 电视剧 -> 扶摇是电视剧;
        米鹏是谁 / … / 一个老师 -> 米鹏是一个老师; 是小说吗 -> 玩偶之家是小说吗); so does what the
        topic is to the speaker (``own``: 认识邹肖羽吗 / … / 我女朋友 -> 邹肖羽是我女朋友)."""
        rule = self.identity_rule
        if rule is None or rule.pattern is None or not self.identity_heads:
            return None
        m = rule.pattern.match(unpunctuated(text))
        if m is None:
            return None
        np_toks = self.mt.parse(m.group("np")).tokens
        by = self.identity_by.match(m.group("np")) if self.identity_by is not None else None
        # 我女朋友 / 我最爱的动漫: who or what the topic is to the speaker
        own = self.identity_own is not None and self.identity_own.match(m.group("np")) is not None
        if by is not None:
            # 狄更斯写的 / 初音未来的: whose the topic is; the maker is a name, not a speaker
            maker = self.mt.parse(by.group("who")).tokens
            if not maker or any(kind_of(t.pos, t.text) != "NOUN" for t in maker):
                return None
        elif (
            not (m.group("cop") and names_a_thing(np_toks) and m.group("np")[0] not in "啊呀吧嘛哦")
            and not own
            and (
                not (
                    m.group("np").endswith(self.identity_heads)
                    # 你知道苏翔吗 / 不知道 / 最帅的男人: after "who is that?" any noun phrase
                    or (self._unknown_reply(state) and names_a_thing(np_toks))
                )
                or not np_toks
                or kind_of(np_toks[0].pos, np_toks[0].text) == "VERB"
                or any(kind_of(t.pos, t.text) == "PRON" for t in np_toks)
            )
        ):
            # (是我男朋友 / 是我心爱的人: with its copula any noun phrase says who the topic is)
            # 喜欢看电影 / 我的书: a clause or the speakers' thing, not a kind; a verb inside a
            # modifier is fine (成都地下说唱皇帝 / 陀思妥耶夫斯基写的小说)
            return None
        user = next((ti for ti in reversed(d.turns[-2:]) if ti.turn.role == "user"), None)
        if user is None:
            return None
        topics = [
            mm
            for mm in user.mentions
            if mm.gram == "topic"
            and mm.source.startswith("rules/")
            and mm.text not in text
            # 想喝龙井茶 / … / 杭州的: what is eaten or drunk is no topic to say the kind of
            and mm.source != self.eat_source
        ]
        last = d.turns[-1]
        if (
            not topics
            and by is None
            and last is not user
            and m.group("np").endswith(self.identity_heads)
            and is_question(last.parse)
            # 感觉像戏剧而不是电影 / 这么有名没玩过吗冒险游戏: a clause, not what the topic is
            # (男歌手 is one word jieba tags l: the head may be any word)
            and all(kind_of(t.pos, t.text) in _KIND_MODIFIERS for t in np_toks[:-1])
        ):
            # 你喜欢谁 / 周深是谁 / 一个歌手: the reply asked what or who its topic is, and the
            # kind answers it
            topics = [
                mm
                for mm in last.mentions
                if mm.gram == "topic" and mm.source.startswith("rules/") and mm.text not in text
            ]
        if not topics and by is None and self._unknown_reply(state):
            # 你竟然不知道苏翔 / 不知道: the one name the user said is what was not known (not
            # for a by-line: 迪士尼哈哈 / 不知道 / 香港的 means the one in Hong Kong)
            named = [
                mm
                for mm in user.mentions
                if mm.etype in NAMED_TYPES and not mm.is_set and mm.text not in text
            ]
            topics = [a for a in named if not any(a.text in b.text != a.text for b in named)]
        if not topics and by is None and m.group("np").endswith(self.identity_heads):
            # 有什么小说好看 / 平凡的世界 / 一本很励志的书: the assistant's bare answer is what
            # the kind describes
            answer = self.mt.bare_answer(state, d)
            said = (
                self.mt.bare_noun_phrase(answer.turn.content, ANSWER_KINDS)
                if answer is not None
                else None
            )
            if answer is not None and said and said not in text and m.group("np") not in said:
                new = said + ("" if m.group("cop") else "是") + text.strip()
                return _resolved_from(
                    state,
                    rule.source,
                    new,
                    said,
                    answer,
                    "subj",
                    etype="thing",
                    slot="subject",
                    note=f"{m.group('np')} says what the answer {said} is",
                    confidence=0.7,
                )
        if not topics and by is None and m.group("np").endswith(self.identity_heads):
            # 魔法禁书目录 / … / 一部动漫: a turn that only names a title or a name introduces it
            # as the topic as a topic frame would
            bare = self.mt.bare_noun_phrase(user.turn.content, _NOUN_PHRASE_KINDS)
            reply = d.turns[-1].turn.content if d.turns[-1] is not user else ""
            if (
                bare is not None
                and bare not in text
                and not self.personal.search(bare)
                # 也有电影 / 这么有名没玩过吗冒险游戏: a clause, not what the topic is
                and not any(kind_of(t.pos, t.text) == "ADV" for t in np_toks)
                # 陈奕迅音乐王子 / 你知道陈奕迅: the reply took up a part of it as its topic
                and (
                    bare in reply or not any(bare[k : k + 2] in reply for k in range(len(bare) - 1))
                )
            ):
                start = user.turn.content.find(bare)
                topics = [said_mention(bare, "thing", user.turn, "topic", start, "bare")]
        if len(topics) != 1 or m.group("np") in topics[0].text:
            return None
        topic = topics[0]
        # 朝花夕拾作者是谁 / 是部小说吗: the work is the topic, not its attribute
        attr = self.mt.attribute_of(topic.text)
        name = topic.text[: -len(attr)].removesuffix("的") if attr else topic.text
        new = name + ("" if m.group("cop") else "是") + text.strip()
        return resolved(
            state,
            "ellipsis",
            rule.source,
            new,
            topic,
            slot="subject",
            note=f"{m.group('np')} says what {name} is",
            confidence=0.7,
        )

    def _defined(self, state: State, exchange: tuple[TurnInfo, TurnInfo]) -> State | None:
        """就是 + what the topic is, after the reply asked what or who the framed topic is
        (X是谁 / 就是… -> X就是…) or said it does not know the topic the user framed
        (你知道X吗 / 不知道 / 就是… -> X就是…) or asked back or said it knows it (什么 / 知道啊:
        ``asked_back``), when nothing else completed the query
        (rules/completeness.yaml answer_identity ``defines``). Why: the user explains the
        thing the exchange left unknown, and the explanation is said of it."""
        rule = self.identity_rule
        text = state.standalone.strip()
        if rule is None or self.identity_defines is None or not self.identity_defines.match(text):
            return None
        told, last = exchange
        reply = unpunctuated(last.turn.content)
        asked_back = self.identity_asked_back is not None and (
            self.identity_asked_back.match(reply) is not None
        )
        # 沈佳宜是谁 / 就是…的女主角: the reply's own topic; 你知道X吗 / 不知道 (是谁 / 什么 /
        # 知道啊) / 就是…: the topic the user framed
        turns = [last] if is_question(last.parse) else []
        if asked_back or self._unknown_reply(state):
            turns.append(told)
        found = next(((ti, t) for ti in turns if (t := self._framed_topic(ti, text))), None)
        if found is None:
            return None
        ti, topic = found
        attr = self.mt.attribute_of(topic)
        name = topic[: -len(attr)].removesuffix("的") if attr else topic
        if not name or name in text:
            return None
        return _topic_first(
            state,
            rule.source,
            name,
            text,
            ti,
            f"{text!r} says what {name!r} is, which the last exchange left unknown",
        )

    @staticmethod
    def _framed_topic(ti: TurnInfo, text: str) -> str | None:
        """The one topic frame of the turn the query does not already say, if exactly one."""
        topics = {
            m.text
            for m in ti.mentions
            if m.gram == "topic" and m.source.startswith("rules/") and m.text not in text
        }
        return topics.pop() if len(topics) == 1 else None

    def _unknown_reply(self, state: State) -> bool:
        """The assistant's last message says it does not know the topic (不知道 / 不认识 /
        是谁: answer_identity ``unknown``), so the user's next words may describe it."""
        last = state.history[-1] if state.history else None
        return (
            self.identity_unknown is not None
            and last is not None
            and last.role == "assistant"
            and self.identity_unknown.match(unpunctuated(last.content)) is not None
        )

    def _attribute_ne(self, state: State, d: Dialogue, x: str) -> State | None:
        prev = _previous_question(d)
        if prev is None or prev is not d.turns[-2 if len(d.turns) > 1 else -1]:
            return None
        toks = prev.parse.tokens
        at = [t for t in toks if t.text in self.attribute_nouns and t.text != x]
        if len(at) != 1 or any(is_question_word(t.text) for t in toks if t.start < at[0].start):
            return None
        ptext = prev.turn.content
        new = ptext[: at[0].start] + x + "呢"
        return _asked_again(
            state,
            self.mt.sources.get("bare_ne", "ellipsis:bare_ne"),
            new,
            prev,
            slot="attribute",
            note=f"{x} takes the attribute slot of {at[0].text!r}",
        )

    # -- X呢 ---------------------------------------------------------------------------------------

    def _what_else(self, state: State, d: Dialogue, lead: str) -> State | None:
        """What: 还有呢 after a question asking what a thing has asks what else it has (rule
        ne_what_else). Why: 还有 alone retrieves nothing, and the thing of the question is no
        topic to glue to it (还有北京呢). Example: (西安有什么小吃 / 肉夹馍) 还有呢 ->
        西安还有什么小吃呢; (科幻片有哪些 / 星际穿越) 还有呢 -> 还有哪些科幻片呢."""
        rule = self.what_else
        prev = _previous_question(d)
        if rule is None or rule.pattern is None or prev is None:
            return None
        m = rule.pattern.match(prev.turn.content.strip().rstrip("?？。.!！"))
        if m is None:
            return None
        s, q, n = m.group("s"), m.group("q"), m.group("n")
        new = lead + (s + "还有" + q + n if n else "还有" + q + s) + "呢"
        return _asked_again(
            state,
            rule.source,
            new,
            prev,
            slot="question",
            note="还有 asks the previous what-question again",
        )

    def _rank_ne(self, state: State, d: Dialogue, x: str) -> State | None:
        """What: X呢 where X is a rank (第二个 / 最低的) and the previous question holds one:
        X takes its place, a who-or-what ending (是谁) goes and the query's 呢 stays (rules
        bare_ne rank / rank_end).
        Why: a rank is no noun to insert (七龙珠中战斗力最高的最低的呢 is broken).
        Example: (清朝第一位皇帝是谁 / 努尔哈赤) 第二位呢 -> 清朝第二位皇帝呢."""
        if self.ne_rank is None:
            return None
        said = state.standalone.strip().rstrip("?？")
        x = x + "的" if said.endswith("的呢") else x
        if not self.ne_rank.fullmatch(x):
            return None  # no rank: the previous question (the history read) is not needed
        prev = _previous_question(d)
        if prev is None:
            return None
        ptext = prev.turn.content.strip().rstrip("?？。.!！")
        m = self.ne_rank.search(ptext)
        if m is None or m.group() == x or (m.group().startswith("第") != x.startswith("第")):
            return None
        new = ptext[: m.start()] + x + ptext[m.end() :]
        end = self.ne_rank_end.search(new) if self.ne_rank_end is not None else None
        new = new[: end.start()] + "呢" if end is not None else new
        return _asked_again(
            state,
            self.mt.sources.get("bare_ne", "ellipsis:bare_ne"),
            new,
            prev,
            slot="rank",
            note=f"{x} takes the rank slot of {m.group()!r}",
        )

    def _identity_swap(self, prev: TurnInfo, noun: Token, x: str) -> str | None:
        """What: the previous question asks what or who its subject is (太阳是什么天体 /
        百年孤独的作者是谁); X takes the subject's place, or the owner's place before an
        attribute (百年孤独 of 百年孤独的作者), instead of being glued after it.
        Why: 太阳月亮是什么天体 / 百年孤独的作者月亮与六便士是谁 are broken questions.
        Example: (太阳是什么天体 / …) 那月亮呢 -> 月亮是什么天体;
        (围城的作者是谁 / …) 红楼梦呢 -> 红楼梦的作者是谁."""
        ptext = prev.turn.content.strip().rstrip("?？。.!！")
        if not self.identity_question.match(ptext[noun.end :]):
            return None
        toks = [t for t in prev.parse.tokens if t.end <= noun.start]
        if noun.text in self.attribute_nouns:
            if not toks or toks[-1].text != "的" or toks[-1].end != noun.start:
                return None
            toks = toks[:-1]  # the owner: everything before 的
            end = noun.start - 1
        else:
            end = noun.end
            toks.append(noun)
        if not toks or any(t.pos[:1] in ("v", "r") for t in toks):
            return None  # 你知道围城的作者是谁: not a bare subject (a title may be tagged i)
        return x + ptext[end:]

    def _weather_ne(
        self,
        state: State,
        d: Dialogue,
        prev: TurnInfo,
        lead: str,
        x: str,
        xtype: str,
        *,
        attr_said: str = "",
    ) -> State | None:
        """What: a bare time (or place) + 呢 after a question about the weather of a place asks
        for the weather there and then: lead + place + time + attribute + 呢, without the
        question's how-word and old time (rule ne_weather).
        Why: the dialogue-rewrite gold says a weather follow-up this way, and the slot swap
        left the old time or put the new one in the wrong place (明天深圳天气怎么样).
        Example: (本周深圳天气怎么样 / …) 那明天呢 -> 那深圳明天天气呢;
        (北京 / 北京明天的天气是多云… ) 后天呢 -> 北京后天的天气呢;
        (明天天气怎么样 / …) 北京呢 -> 北京明天天气怎么样呢."""
        ptext = prev.turn.content.strip().rstrip("?？。.!！")
        attr = next((w for w in self.ne_weather_words if w in ptext), None)
        places = [m for m in prev.mentions if m.etype == "place" and not m.is_set]
        new = None
        if attr is not None:
            at = ptext.index(attr)
            if not self.ne_weather_how.fullmatch(ptext[at + len(attr) :]):
                return None  # 天气预报 / 天气会变冷吗: not a plain weather question
            dated = [
                m for m in places if re.fullmatch(f"(?:{_TIME.pattern})?的?", ptext[m.end : at])
            ]
            if dated and xtype == "time":
                de = "的" if ptext[:at].endswith("的") and not x.endswith("的") else ""
                new = dated[0].text + x + de + attr
            elif not places:
                # no place: the question keeps its wording, the time swapped or the place first
                asked = ptext.rstrip("啊呀嘛呢")
                times = _time_tokens(prev)
                if xtype == "place":
                    new = x + asked
                elif times:
                    new = asked[: times[0].start] + x + asked[times[0].end :]
        elif xtype == "time" and len(places) == 1 and places[0].text == ptext.rstrip("啊呀呢"):
            # a bare place the assistant answered with a weather report for it
            last = _answered(state, d)
            report = self.weather_report
            m = report.match(last.turn.content.strip()) if report and last else None
            if m is not None and m.group("p").endswith(places[0].text):
                said = attr_said or ("" if x.endswith("的") else "的") + "天气"
                new = places[0].text + x + said  # 明天天气呢 keeps its own wording
        if new is None or new == ptext:
            return None
        return _asked_again(
            state,
            self.ne_weather_src,
            lead + new + "呢",
            prev,
            slot=xtype,
            note=f"{x} asks the weather question again",
            confidence=0.75,
        )

    def _bare_ne(self, state: State, d: Dialogue, lead: str, x: str) -> State | None:
        src = self.mt.sources.get("bare_ne", "ellipsis:bare_ne")
        # X must be a short noun phrase or time (广州 / 一等座 / 明天 / Galaxy S24), not a clause
        # (安享一生有没有等待期呢 / 密码老是不对呢): for a clause the answer is None
        xparse = self.mt.parse(x)
        xtoks = [t for t in xparse.tokens if kind_of(t.pos, t.text) != "PUNCT"]
        if not xtoks or len(x) > 14 or self.personal.search(x):
            return None
        if x in self.attribute_nouns:
            # 缺点呢 after 双鱼座的特点: the attribute takes the previous question's attribute;
            # 作者呢 after 你知道白夜行吗: the topic is missing (白夜行的作者呢, the gap path)
            return self._attribute_ne(state, d, x)
        if x in self.what_else_words:
            return self._what_else(state, d, lead)
        if x.strip().isdigit():
            return None  # 35呢: a bare number fills no slot (the question is read as it is)
        ranked = self._rank_ne(state, d, x)
        if ranked is not None:
            return ranked
        # 2017年呢: a date the time words do not hold is a time all the same
        dated = self.ne_time is not None and self.ne_time.fullmatch(x) is not None
        named = dated or self.mt.analyzer.type_by_suffix(x) is not None  # 金禧年金保险: a name
        # X的呢 (上班的呢 / 其他行业的呢): X modifies the thing the last question was about,
        # and may be a verb phrase; a one-character verb + 的 (吃的 / 玩的) names a thing itself
        de = state.standalone.strip().rstrip("?？").endswith("的呢") and len(x) >= 2
        kinds = _NE_KINDS | {"VERB", "PRON"} if de else _NE_KINDS
        if not named and (
            len(xtoks) > 4  # a clause, not a name (华为Watch GT4 is two tokens)
            or any(kind_of(t.pos, t.text) not in kinds for t in xtoks)
            or not (
                de
                or kind_of(xtoks[-1].pos, xtoks[-1].text) in ("NOUN", "TIME")
                or (xtoks[-1].pos == "q" and len(xtoks) >= 2)  # 一等座 / 商务座
            )
        ):
            return None
        verbal = any(kind_of(t.pos, t.text) == "VERB" for t in xtoks)
        prev = _previous_question(d)
        if prev is None:
            content = [t for t in xtoks if kind_of(t.pos, t.text) in ("NOUN", "TIME")]
            if state.history or len(content) >= 2:
                # Qdrant备份方案呢 / 护照办理的费用呢: a thing and its aspect, specific enough
                return state
            return ask(
                state,
                "ellipsis",
                src,
                question=f"请问您想了解{x}的哪方面？",
                missing=("question",),
                note=f"{x}呢 with no previous question",
            )
        head = xtoks[-1]
        xtype = "time" if dated else self.mt.analyzer.type_of(head.text, head.pos)
        if xtype in UNKNOWN_TYPES:
            xtype = self.mt.analyzer.type_by_suffix(x) or xtype  # 长青护理保险 -> product
        norm = self.mt.lexicon.normalizer(x)
        for mm in self.mt.lexicon.match(norm):
            e = mm.first("entity")
            if e is not None:
                xtype = e.etype or xtype
        ptext = prev.turn.content.rstrip("?？。.!！")
        if len(x) > 1 and x in ptext and xtype != "time":
            # 小米14的价格有哪些 / 价格呢: the question already says X, no slot takes it again
            # (was 小米14的价格价格有哪些); the other follow-up rules read it
            return None
        # 后天天气呢: a time with the weather word the question already has is that time
        attr = next((w for w in self.ne_weather_words if x.endswith(w) and x != w), "")
        when = x[: -len(attr)] if attr else ""
        if when and self.mt.analyzer.type_of(when.removesuffix("的"), "t") == "time":
            weather = self._weather_ne(state, d, prev, lead, when, "time", attr_said=attr)
            if weather is not None:
                return weather
        elif xtype in ("time", "place"):
            x_de = x + ("的" if de else "")
            weather = self._weather_ne(state, d, prev, lead, x_de, xtype)
            if weather is not None:
                return weather
        same: list[Mention] = []
        if xtype in _SLOT_TYPES:
            same = [m for m in prev.mentions if m.etype == xtype and not m.is_set and m.text != x]
        if xtype == "time":
            same += _time_tokens(prev, self.ne_time)
            same.sort(key=lambda m: m.start)
        if same:
            target = same[0]
            new = ptext[: target.start] + x + ptext[target.end :]
            # 深圳天气 / … / 重庆呢: a previous turn that asks nothing by itself keeps the 呢
            # that makes the query a question (重庆天气呢), as below; so does another time for
            # a question (_time_ne: 2018年环法冠军是谁 / 2017年呢 -> 2017年环法冠军是谁呢)
            if not is_question(prev.parse):
                new += "呢"
            elif xtype == "time":
                new = _time_ne(new)
            note = f"{x} takes the {xtype} slot of {target.text!r}"
            slot = xtype
        elif de and any(kind_of(t.pos, t.text) != "TIME" for t in xtoks):
            # 医保怎么算的 / … / 上班的呢 -> 上班的医保呢: X的 + the thing the question asked
            # about (the last run of nouns before its question word) + the query's 呢
            topic = _topic_nouns(prev.parse.tokens)
            if not topic:
                return None
            new = lead + x + "的" + topic + "呢"
            note = f"{x} modifies {topic!r} of the previous question"
            slot = "modifier"
        elif verbal:
            return None  # a verb phrase modifies only through 的
        else:
            # X modifies the phrase the question is about: the last noun before the question word
            at = -1
            before = None
            noun = None
            for t in prev.parse.tokens:
                if is_question_word(t.text):
                    break
                if kind_of(t.pos, t.text) == "NOUN":
                    # 周口天气 / 明天呢: a time goes before the attribute it dates (周口明天天气;
                    # 宁波的房价 -> 宁波明年的房价)
                    dated = xtype == "time" and t.text in self.attributes
                    # a one-character head after a common noun or 的 takes X before it (高铁 +
                    # 一等座 + 票), not one ending a name jieba does not know (琅/琊/榜, 璎珞/榜,
                    # 优/衣/库): the name stays whole
                    compound = (
                        before is None
                        or before.text == "的"
                        or (before.pos in ("n", "vn") and len(before.text) > 1)
                    )
                    at = t.start if (len(t.text) == 1 and compound) or dated else t.end
                    if dated and before is not None and before.text == "的":
                        at = before.start
                    noun = t
                before = t
            if at < 0:
                return state
            swapped = self._identity_swap(prev, noun, x) if noun is not None else None
            why = f"{x} takes the subject of the identity question"
            if swapped is None and noun is not None and _same_kind(noun.text, x):
                # 用韩语怎么说 / 法语呢: a noun of the same kind (the same last character) is
                # replaced, not followed by X (用韩语法语怎么说 is broken)
                swapped = ptext[: noun.start] + x + ptext[noun.end :]
                why = f"{x} takes the place of {noun.text!r}, a noun of the same kind"
            if swapped is not None:
                if not is_question(prev.parse):
                    swapped = swapped.rstrip("啊呀吧嘛哈哦") + "呢"  # a bare topic keeps the 呢
                return _asked_again(
                    state,
                    src,
                    swapped,
                    prev,
                    slot="subject",
                    note=why,
                )
            # 石家庄 / … / 明天的天气呢: a previous turn that is a bare topic asks nothing by
            # itself, so the 呢 that makes the query a question stays (石家庄明天的天气呢); so
            # does another time for a question (石家庄限号多少 / 明天呢 -> 石家庄明天限号多少呢)
            if is_question(prev.parse):
                new = ptext[:at] + x + ptext[at:]
                new = _time_ne(new) if xtype == "time" else new
            else:  # 成都啊 / … / 简阳呢: the bare topic's own particle goes (成都简阳呢)
                new = (ptext[:at] + x + ptext[at:]).rstrip("啊呀吧嘛哈哦") + "呢"
            note = f"{x} inserted into the previous question"
            slot = "modifier"
        new = self.openers_re.sub("", new) or new  # 想问下… of the reused question goes
        if new == state.standalone or self.mt.references(new):
            return state  # the old question points elsewhere itself (那三者…): not reusable
        return _asked_again(
            state,
            src,
            new,
            prev,
            slot=slot,
            note=note,
            confidence=0.75,
        )


_SLOT_TYPES = NAMED_TYPES | {"time"}
# word classes a reply names something with (quiet_reply: a reply holding one is not quiet)
_REPLY_NAMES = frozenset({"NOUN", "TIME", "LOC"})
# a break between clauses (不好吃 换一个)
_CLAUSE_BREAK = re.compile(r"[\s，,。；;！!？?]")
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
