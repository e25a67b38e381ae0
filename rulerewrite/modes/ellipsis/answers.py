"""Replies to the assistant's question: a short answer fills the question's slot (住在哪个区 / 鼓楼 ->
住在鼓楼区), yes/no answers, who/what/where/why answers, identities and definitions."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rulerewrite.context import Dialogue, TurnInfo, new_mention, said_mention
from rulerewrite.lexicon.readers import rule_match
from rulerewrite.modes.base import State
from rulerewrite.modes.ellipsis.common import (
    _A_NOT_A,
    _CLAUSE_END,
    _CLAUSES,
    _EXCHANGE,
    _FRAMED_LEAD,
    _HAS_QWORD,
    _KIND_MODIFIERS,
    _NOT_IN_THING,
    _NOUN_PHRASE_KINDS,
    _answered,
    _answered_as,
    _drop_opener,
    _interjection,
    _previous_question,
    _resolved_from,
    _topic_first,
)
from rulerewrite.modes.ellipsis.offers import _Offers
from rulerewrite.modes.multiturn import (
    ANSWER_KINDS,
    BY_USER,
    HUMAN_TYPES,
    NAMED_TYPES,
    PERSON_PRONOUNS,
    is_question,
    last_exchange,
    names_a_thing,
    new_candidate,
    resolved,
    salient,
    unpunctuated,
    user_owner,
)
from rulerewrite.text.builtin_parser import is_question_word, kind_of
from rulerewrite.text.parse import Parse
from rulerewrite.text.perspective import user_side


class _Answers(_Offers):
    """Replies to the assistant's question: a short answer fills the question's slot (住在哪个区 / 鼓楼 ->
    住在鼓楼区), yes/no answers, who/what/where/why answers, identities and definitions."""

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

    def _copula_led(self, parse: Parse) -> bool:
        """是 + a noun phrase and nothing before it (是一个游戏 / 也是歌手啊): it says what
        something is, and that something is missing."""
        toks = [t for t in parse.tokens if kind_of(t.pos, t.text) != "PUNCT"]
        k = 1 if toks and toks[0].text in ("也", "就") else 0
        if len(toks) < k + 2 or toks[k].text != "是":
            return False
        return kind_of(toks[k + 1].pos, toks[k + 1].text) in ("NOUN", "NUM")

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
            or _CLAUSE_END.search(said)
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
        if user is not None and m is None and pm is None:
            return self._why_topic(user, said)
        if (m is None and pm is None) or user is None:
            return said
        asked = user.turn.content.strip().rstrip("?？!！。.~")
        v = m.group("v") if m is not None else pm.group("v") if pm is not None else ""
        i = asked.find(v)
        if i < 0:
            return self._why_topic(user, said)
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

    def _why_topic(self, user: TurnInfo, said: str) -> str:
        """``said`` with the topic of the user's question it leaves out put first: a statement
        that opens with an attribute noun takes the thing the user asked about as its owner
        (你觉得钢铁侠怎么样 / 剧情莫名其妙的 -> 钢铁侠剧情莫名其妙的), and one with no subject
        of its own that says the verb of the user's question takes the question's subject, a
        noun phrase before that verb (厦门房价会降吗 / 不可能降 -> 厦门房价不可能降; 那我们用英文
        沟通吧 / 没法沟通 -> 用英文没法沟通). Anything else is returned as it is.

        Why: the statement the bare why asks about is said of that topic; without it the
        question asks why a bare predicate holds (为什么不可能降: what?).
        """
        if not is_question(user.parse):
            return said
        toks = [t for t in self.mt.parse(said).tokens if t.text.strip()]
        if len(toks) < 2:
            return said
        if toks[0].text in self.attributes and kind_of(toks[0].pos, toks[0].text) == "NOUN":
            owner = self._why_owner(user, toks[0].text)
            # no 的 between them: the two pieces are what the dialogue said (钢铁侠 / 剧情…)
            return said if owner is None else owner + said
        return self._why_subject(user, said, toks)

    def _why_owner(self, user: TurnInfo, attribute: str) -> str | None:
        """The one thing the user's question is about (its topic or subject), the owner of
        ``attribute``, or None (none, or more than one)."""
        things = [
            m
            for m in user.mentions
            if not m.is_set
            and m.gram in ("topic", "subj")
            and attribute not in m.text
            and m.head not in self.attributes
        ]
        if len(things) != 1 or not 2 <= len(things[0].text) <= 10:
            return None
        return things[0].text

    def _why_subject(self, user: TurnInfo, said: str, toks: list[Any]) -> str:
        """``said`` (no noun, pronoun or time word before its verb) with the subject of the
        user's question that has the same verb put first (see :meth:`_why_topic`)."""
        verbs = [k for k, t in enumerate(toks) if kind_of(t.pos, t.text) == "VERB"]
        if not verbs or any(
            kind_of(t.pos, t.text) in ("NOUN", "PRON", "TIME", "NUM") for t in toks[: verbs[-1]]
        ):
            return said
        asked = [t for t in user.parse.tokens if t.text.strip()]
        v = toks[verbs[-1]].text
        at = next((k for k, t in enumerate(asked) if t.text == v), None)
        if at is None:
            return said
        lead = asked[:at]
        while lead and (lead[0].text in self.why_hedges or lead[0].text in PERSON_PRONOUNS):
            lead = lead[1:]
        while lead and kind_of(lead[-1].pos, lead[-1].text) in ("ADV", "VERB", "AUX"):
            lead = lead[:-1]  # 会 / 能 / 还: the question's modal is no part of the subject
        # a noun phrase, with the time it is asked of (油价下个月) or a preposition before it
        kinds = [kind_of(t.pos, t.text) for t in lead]
        if (
            "NOUN" not in kinds
            or any(k not in ("NOUN", "TIME", "PREP") for k in kinds)
            or "PREP" in kinds[1:]
            or any(t.text in PERSON_PRONOUNS for t in lead)
        ):
            return said
        subject = "".join(t.text for t in lead)
        if subject in said or not 2 <= len(subject) <= 10:
            return said
        return subject + said

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
        if _CLAUSE_END.search(asked) or not end_re[0].search(asked):
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
        again = self._asked_again_rest(rest, v)
        if again is None:
            return None
        rest = again
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
        part = user_side(part)
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

    def _asked_again_rest(self, rest: str, v: str) -> str | None:
        """What the answered verb ``v`` takes when the question says it twice, first in a
        relative clause and again at its end (会弹吉他的人很受欢迎你会吗): the first verb's
        object, up to the 的 of the relative clause; None (no answer to complete) when there is
        no such 的. Any other ``rest`` is returned as it is.
        Why: everything after the first 会 names the clause's head and the question again
        (不会弹吉他的人很受欢迎我会). Example: 会弹吉他的人很受欢迎你会吗 / 不会 -> 不会弹吉他."""
        if len(rest) <= len(v) or not rest.endswith(v):
            return rest
        at = rest.find("的")
        return rest[:at] if 0 < at < len(rest) - len(v) else None

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

    def _acked_bare(self, parse: Parse) -> bool:
        """The query opens with an acknowledgement (rules/completeness.yaml ack_openers) and
        what follows names no one (no pronoun but a question word: 哈哈哈安慰自己这样好么 /
        噢那说不定… point to their own topic) and opens with no verb of knowing (哈哈哈不知道唱
        什么啊: what is not known is a clause, no thing)."""
        ack = self.ack.match(parse.text) if self.ack is not None else None
        if ack is None or ack.end() == 0:
            return False
        rest = [t for t in parse.tokens if t.start >= ack.end() and t.text.strip()]
        said = self._without_negation(parse.text[ack.end() :].lstrip())
        if not rest or said.startswith(self.quiet_not_verbs):
            return False
        return not any(
            kind_of(t.pos, t.text) == "PRON" and not is_question_word(t.text) for t in rest
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
            or _CLAUSES.search(asked[m.start() :])
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
        new = user_side(new) + said[len(core) :]
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
            or _CLAUSE_END.search(asked)
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
        filled = user_side(lead + core + after)
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
        echo = self._wh_statement(d, last, asked, m.start(), m.end(), core)
        if echo is not None:
            filled = before + echo + said[len(core) :].rstrip("的")
            how = f"{core} into the user's statement {echo!r}"
            return _answered_as(state, wh.source, filled, asked, last, how)
        return _answered_as(state, wh.source, filled, asked, last, f"{core} for {m.group(0)}")

    def _wh_statement(
        self, d: Dialogue, last: TurnInfo, asked: str, start: int, end: int, core: str
    ) -> str | None:
        """The user's own statement the wh-question ``asked`` echoes, with the answer ``core``
        put in next to the verb both say (answer_wh ``statement_max``): after the verb the
        question word follows (不能拔 / 拔什么 / 牙 -> 不能拔牙; 请你吃饭 / 好啊吃什么 / 牛排 ->
        请你吃牛排, the statement's own one-character object replaced), before the predicate
        the question word precedes, the statement's adverbs after it (你很棒 / 哪里棒 / 智力 ->
        你智力很棒; 今天下雨 / 哪里下雨 / 昆山 -> 今天昆山下雨). None when the question echoes
        no statement of the user's.

        Why: the echo question leaves out what the statement said around its verb (the
        negation, the subject, the time); filled in alone it loses them (拔牙, 昆山下雨).
        """
        user = d.last_user()
        if user is None or user.turn.index != last.turn.index - 1:
            return None
        said = unpunctuated(user.turn.content).rstrip("啊呀哦吧哈呢吖嘛")
        said = _drop_opener(said, self.wh_statement_openers, keep=2)
        if (
            not 2 <= len(said) <= self.wh_statement_max
            or is_question(user.parse)
            or _A_NOT_A.search(said)  # 要不要买手机: a question too
            or core in said
        ):
            return None
        not_verbs, word = self.wh_statement_not, asked[start:end]
        toks = [t for t in self.mt.parse(asked).tokens if t.text.strip()]
        before = [t for t in toks if t.end <= start]
        after = [t for t in toks if t.start >= end]

        def predicate(t: Any) -> bool:
            return (
                kind_of(t.pos, t.text) in ("VERB", "ADJ")
                and t.text not in not_verbs
                and said.count(t.text) == 1
            )

        if (
            word in self.wh_statement_object
            and before
            and before[-1].end == start
            and predicate(before[-1])
        ):
            v = before[-1].text
            j = said.index(v) + len(v)
            rest, tail = said[j:], asked[end:]
            if rest and rest != tail and not (len(rest) == 1 and not tail):
                return None  # 介绍一个呗 / 介绍什么: the statement goes on after its verb
            if core.endswith(tail):
                tail = ""  # 去办证 / 办什么证 / 居住证: the answer says the noun itself
            return said[:j] + core + tail
        if (
            word in self.wh_statement_adverbial
            and not before
            and after
            and after[0].start == end
            and predicate(after[0])
        ):
            j = said.index(after[0].text)
            lead = [t for t in self.mt.parse(said[:j]).tokens if t.text.strip()]
            k = len(lead)
            while k and kind_of(lead[k - 1].pos, lead[k - 1].text) == "ADV":
                k -= 1  # 你很棒: 很 stays with its predicate, after the answer
            if not k:
                return None  # 下雨 / 哪里下雨: the statement has nothing the question lacks
            cut = lead[k - 1].end
            return said[:cut] + core + said[cut:]
        return None

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
        filled = before + user_side(lead + head + after) + said[len(before) :][len(body) :]
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
        first = self.mt.parse(said).tokens[:1]
        if first and first[0].text in self.who_own_subjects:
            # 竹林七贤都是谁 / 他们是魏晋玄学…: the answer names its own subject (a pronoun
            # coreference resolves), it does not say what the asked one is after it
            return None
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
            or _CLAUSE_END.search(asked)
        ):
            return None
        question = self.unknown_lead.sub("", asked, count=1)
        if len(question) < 2:
            return None
        return _resolved_from(
            state,
            rule.source,
            m.group("reply") + user_side(question) + m.group("pt"),
            question,
            last,
            "obj",
            slot="object",
            note=f"does not know the answer to {asked!r}",
            confidence=0.7,
        )

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
            said = self.emote_end.sub("", unpunctuated(last.turn.content))  # 介绍嘛害羞
            own = False
            user = d.turns[-2] if len(d.turns) >= 2 else None
            if user is not None and (user.turn.role != "user" or is_question(user.parse)):
                user = None
            if rule.get("past_evaluation") and self.evaluation.match(said):
                # 我是四川人 / 好巧 / 我也是: the bare evaluation reacts to the user's own
                # statement, which is what the reply echoes (said as it was: no perspective)
                if user is None:
                    return None
                last, said, own = user, unpunctuated(user.turn.content), True
            if self._acknowledges(said):
                return None  # 今天天气不错 / 是啊 / 可以: a yes or an okay proposes nothing
            led = lead.sub("", said, count=1)
            remark = end.sub("", led).strip()
            if not self._echoable(rule, led, remark) and rule.get("own_fallback") and not own:
                # 我刚刚军训完 / 星期二军训完从基地回到学校… / 我也是: the reply is no
                # short remark to echo, the user's own first-person statement is
                own_said = unpunctuated(user.turn.content) if user is not None else ""
                if user is not None and self.own_statement.match(own_said):
                    last, said, own = user, own_said, True
                    led = lead.sub("", said, count=1)
                    remark = end.sub("", led).strip()
            if not self._echoable(rule, led, remark):
                return None
            if own and self.personal.search(remark):
                return None  # 我喜欢我妈 / 好巧 / 我也是: whose 我 that is is unclear
            if not own and self.speaker_owner.search(remark):
                return None  # 我家养 / 我也是: the assistant's home is not the user's (家养)
            if not own and any(w in remark[1:] for w in rule.get("self_inside") or ()):
                return None  # 肯定是在淄博难不倒我 / 不是: the assistant speaks of itself
            remark = remark if own else user_side(remark)
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

    def _echoable(self, rule: Any, led: str, remark: str) -> bool:
        """``remark`` (``led`` before its final particles are cut) is a short remark a bare
        reply can take: within ``max_remark``, no dodge, no question word (区块链是什么: 么 is
        part of 什么, not a particle, so ``led`` is read), no second clause."""
        return (
            1 <= len(remark) <= int(rule.get("max_remark") or 10)
            and remark not in (rule.get("dodges") or ())
            and not _HAS_QWORD.search(led)
            and not _CLAUSES.search(remark)
        )

    def _acknowledges(self, said: str) -> bool:
        """``said`` is itself a bare yes, okay, "me too" or no (是啊 / 好的 / 没有: a pattern
        of the reply rules answer_confirm ... answer_negated). Why: such a turn only
        acknowledges; a reply to it (可以 / 是的) confirms or agrees to no remark, and taking
        the acknowledgement as one writes 可以是."""
        return any(rule_match(rule, said) is not None for rule, _lead, _end in self.reply_rules)

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
