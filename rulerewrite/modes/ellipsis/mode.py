"""ellipsis: the missing topic, object or slot of a follow-up put back from the last turns.

The mode class; its rule groups are the layered mixins of this package (state <- works <-
objects <- offers <- answers <- judgements <- topics <- questions <- mode)."""

from __future__ import annotations

import re

from rulerewrite.modes.base import State, mode
from rulerewrite.modes.ellipsis.common import (
    _A_NOT_A,
    _HAS_QWORD,
    _REPLY_LEAD,
    _is_pronounish,
    _owner_glue,
    _same_kind_named,
)
from rulerewrite.modes.ellipsis.questions import _Questions
from rulerewrite.modes.multiturn import (
    HUMAN_TYPES,
    TYPE_HINT,
    ask,
    is_question,
    last_exchange,
    merge_nested,
    new_candidate,
    resolved,
    said_turn,
    thing_of_person,
    unmodified,
    user_owner,
)
from rulerewrite.text.builtin_parser import kind_of
from rulerewrite.text.parse import Parse


def _answers_a_not_a(text: str, asked: str) -> bool:
    """``text`` says the predicate the turn ``asked`` asks both ways (厉不厉害 / 好不好吃: the
    asked verb's first character and the one after the A-not-A, 厉害 / 好吃)."""
    m = _A_NOT_A.search(asked)
    return m is not None and (m["a"] + asked[m.end() : m.end() + 1]) in text


def _verb_said(parse: Parse, pos: int, filler: str) -> str:
    """What: an object phrase that opens with a verb the query already says before the gap
    goes in without that verb.
    Why: the segmenter keeps a verb and its object as one noun (买车), so the phrase the verb
    had in the last turn repeats the query's own verb (买啥颜色的买车).
    Example: (我想买车 / 买吧) 买啥颜色的 -> 买啥颜色的车."""
    said = [t.text for t in parse.tokens if t.end <= pos and t.pos.startswith("v")]
    fits = [v for v in said if filler.startswith(v) and len(filler) > len(v)]
    # the longest such verb, in a fixed order (a set's order changes with PYTHONHASHSEED)
    return filler[len(max(fits, key=len)) :] if fits else filler


@mode("ellipsis")
class Ellipsis(_Questions):
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
        ):
            return done
        if self.mt.analyzer.is_chitchat(text):
            # 你说厉不厉害 / 厉害: the answer to an A-not-A question is no small talk
            if not _answers_a_not_a(text, state.history[-1].content):
                return done
            return self._continued_predicate(done, self.mt.dialogue(done)) or done
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
            or (self._compared_first(done, exchange) if exchange is not None else None)
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
            # 哪个更便宜 / 有什么区别: the comparison mode's business; a bare verb of knowing
            # (你还是不知道: 还是 says "still") chooses between nothing, it takes its object
            known = self._clause_object(state, self.mt.dialogue(state), text)
            return known if known is not None else state
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
            self._modifier_swap(state, d, text)
            or self._copula_echo(state, d, text)
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
        if kind == "object" and counted is None:
            # 你喜欢猫吗 / 喜欢啥品种的: a one-character noun only as the same verb's object
            one = self._one_char_object(state, d, parse, pos)
            if one is not None:
                return one
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
        # 需要带伞吗 / 会下雨吗: the weather is said of a place or a time
        weather = kind == "subject" and any(w in text for w in self.weather_predicates)
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
            # 需要带伞吗: a common noun (月色, tagged n) is no place the weather is of; a name
            # jieba mistypes (玉林 nr) may be one
            and not (weather and c.mention.source.partition("|")[0] == "pos:n")
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
        hinted_topic = best if kind == "subject" and self._hinted_topic(best, hinted) else None
        if hinted_topic is not None:
            kinds = kinds | {"hinted"}  # 我在南极 / 冷不冷: the comment asks about a place
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
            best = self._hinted_asker(cands, answered, hinted) or next(
                (c for c in cands if c.mention.turn == answered), best
            )
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
        if not confident and hinted_topic is not None and hinted_topic is best:
            # 济宁今天…北风小于3级 / 什么时候是晴天: a rival of another type answers nothing the
            # hint words ask about
            confident = self._confident([c for c in cands if TYPE_HINT in c.why], kinds, floor)
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
        filler = self._specific(d, best.mention.text)  # 啥会员 / 爱奇艺会员: the one named
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
        if filler == best.mention.text:
            # 票价多少 -> 刘德华的歌票价多少: a person's thing, when only a thing fits
            filler = thing_of_person(
                d, best.mention, text, things=self.thing_predicates, told=self.told_predicates
            )
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
            else:
                filler = _verb_said(parse, pos, filler)  # 买啥颜色的 + 买车 -> 买啥颜色的车
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
            if best is hinted_topic:
                pos = self._before_time(parse, pos)  # 看样明天天气不错 -> 看样威海明天…
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
