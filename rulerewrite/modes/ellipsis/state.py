"""The rule data every ellipsis rule group reads, loaded once per engine from rules/*.yaml."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from rulerewrite.context import Dialogue
from rulerewrite.lexicon import Lexicon, Rule
from rulerewrite.lexicon.readers import (
    rule_alternation,
    rule_pattern,
    rule_regex,
    rule_tuple,
    rule_words,
)
from rulerewrite.modes.ellipsis.common import (
    _AnswerJudged,
    _AnswerStated,
    _ClauseObject,
    _HowEcho,
    _ModalVp,
    _NegationEcho,
    _ReallyEcho,
    _ReplyLeadObject,
    _specific_named,
    _TellAsked,
    _TypedComment,
)
from rulerewrite.modes.multiturn import MultiTurn


class _State:
    """The rule data every ellipsis rule group reads, loaded once per engine from rules/*.yaml."""

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
        self.emote_end = rule_pattern(pats, "emote_end") or never
        self.evaluation = rule_pattern(pats, "evaluation") or never
        self.own_statement = rule_pattern(pats, "own_statement") or never
        self.judged_end = rule_pattern(pats, "judged_end") or never
        self.says_end = rule_pattern(pats, "says_end") or never
        self.offer_end = rule_pattern(pats, "offer_end") or never
        self.offer_clause = rule_pattern(pats, "offer_clause") or never
        self.how = rule_pattern(pats, "how") or never
        self.how_said = rule_pattern(pats, "how_said") or never
        self.taste = rule_pattern(pats, "taste")
        self.kind_comment = rule_pattern(pats, "kind_comment")
        self.possessor = rule_pattern(pats, "possessor") or never
        self.speaker_owner = rule_pattern(pats, "speaker_owner") or never
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
        specific = lexicon.rule("completeness", "specific_named")
        self.specific_asked = rule_pattern(specific, "asked")
        self.specific_lead_min = int((specific.get("lead_min") if specific else None) or 2)
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
        self.count_general = rule_words(counted_rule, "general")
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
        self.aspects = self.mt.aspects
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
        self.continued_how_come = rule_words(continued, "how_come")
        self.purpose_verbs = self.mt.wordset("purpose_verbs")
        self.left_object_next = self.mt.wordset("left_object_next")
        self.complete_verbs = self.mt.wordset("complete_predicates")
        self.human_predicates = self.mt.wordset("human_predicates")
        self.thing_predicates = self.mt.wordset("thing_predicates")
        self.told_predicates = self.mt.wordset("told_predicates")
        self.weather_predicates = self.mt.wordset("weather_predicates")
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
        # the user's statement a wh-question echoes (answer_wh ``statement_max``, its verbs)
        self.wh_statement_max = int((self.wh_rule.get("statement_max") if self.wh_rule else 0) or 0)
        self.wh_statement_not = rule_words(self.wh_rule, "statement_not_verbs")
        self.wh_statement_object = rule_words(self.wh_rule, "statement_object")
        self.wh_statement_adverbial = rule_words(self.wh_rule, "statement_adverbial")
        self.wh_statement_openers = sorted(
            rule_words(self.wh_rule, "statement_openers"), key=len, reverse=True
        )
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
        self.ne_weather_dated = rule_pattern(weather_ne, "dated")
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
        # 他们是魏晋玄学…: an answer opening with one of these has its own subject (own_subjects)
        self.who_own_subjects = rule_words(self.who_rule, "own_subjects")
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
        # a comment asking about a place (冷不冷) may take the place however it ranks
        self.hinted_types = frozenset(self.mt.values.get("salient_hinted_types", []))
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
        # 现在的天气预报 / … / 深圳的 -> 深圳的天气预报 (questions._modifier_swap)
        self.modifier_swap = lexicon.rule("completeness", "modifier_swap")
        self.modifier_swap_said = rule_pattern(self.modifier_swap, "said")
        self.modifier_swap_kinds = rule_words(self.modifier_swap, "kinds")
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
        self.topic_pred_any = rule_words(tc, "predicate_any")
        self.topic_desc_verb = rule_words(tc, "described_verb_led")
        self.topic_known = rule_pattern(tc, "known")
        self.answer_not_lead = rule_pattern(tc, "answer_not_lead")
        self.topic_reply_rest = int((tc.get("reply_subject_max") if tc else 0) or 8)
        self.topic_asked_back = rule_pattern(tc, "asked_back")
        self.topic_acked = rule_pattern(tc, "acked")
        self.topic_answered = rule_pattern(tc, "answered")
        self.answer_not_kinds = rule_words(tc, "answer_not_kinds")
        self.topic_also = rule_words(tc, "also")
        self.topic_described_max = int((tc.get("described_max") if tc else 0) or 16)
        self.topic_hinted_types = rule_words(tc, "hinted_types")
        self.topic_seen = rule_pattern(tc, "seen")
        self.topic_seen_first = rule_pattern(tc, "seen_first")
        self.topic_seen_not = rule_words(tc, "seen_not_sources")
        # 那周杰伦呢 / … / 和林俊杰比呢: the comparison's first term of Y's kind (compared_first)
        cf = self.compared_rule = lexicon.rule("completeness", "compared_first")
        shapes = (cf.get("shapes") if cf else None) or {}
        self.compared_shapes = tuple(
            rule_regex(cf, f"shapes.{k}", v) for k, v in shapes.items() if cf is not None
        )
        self.compared_rest_max = int((cf.get("rest_max") if cf else 0) or 6)
        self.compared_speakers = rule_words(cf, "speakers")
        self.compared_types = rule_words(cf, "types")
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

    def _past_lead(self, text: str) -> str:
        """``text`` without the lead word it opens with (lead_words, the longest first: 那保修期呢
        -> 保修期呢; 那么 before 那), or ``text`` as it is."""
        return text[len(next((w for w in self.lead if text.startswith(w)), "")) :]

    def _fronted_shape_uncached(self, verbs: tuple[str, ...]) -> re.Pattern[str]:
        """The ``fronted`` pattern for ``verbs``, the longest first (memoised per verb set)."""
        alt = "|".join(re.escape(v) for v in verbs)
        return re.compile(f"{self.vo_fronted}(?P<v>{alt}){self.vo_fronted_end}")

    def _specific(self, d: Dialogue, name: str) -> str:
        """``name``, or the one of its kind the last reply named (rules/completeness.yaml
        ``specific_named``: 啥会员 / 爱奇艺会员 -> 爱奇艺会员)."""
        return _specific_named(
            d,
            name,
            asked=self.specific_asked,
            lead_min=self.specific_lead_min,
            personal=self.personal,
        )
