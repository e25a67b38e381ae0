"""Follow-up questions: how/modal verb phrases (怎么弄, 能吗), bare X呢 reusing the previous question with
X in its slot (广州呢 -> 广州的落户条件是什么), which/kind questions and attributes."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rulerewrite.context import UNKNOWN_TYPES, Dialogue, Mention, TurnInfo
from rulerewrite.lexicon.readers import rule_match
from rulerewrite.modes.base import State
from rulerewrite.modes.ellipsis.common import (
    _CLAUSES,
    _HAS_QWORD,
    _NE_KINDS,
    _SLOT_TYPES,
    _TIME,
    _answered,
    _asked_again,
    _is_pronounish,
    _object_after,
    _previous_question,
    _resolved_from,
    _same_kind,
    _time_ne,
    _time_tokens,
    _topic_first,
    _topic_nouns,
)
from rulerewrite.modes.ellipsis.topics import _Topics
from rulerewrite.modes.multiturn import (
    HUMAN_TYPES,
    Candidate,
    ask,
    is_question,
    last_exchange,
    new_candidate,
    owner_mention,
    unpunctuated,
)
from rulerewrite.text.builtin_parser import is_question_word, kind_of
from rulerewrite.text.parse import Parse, Token


class _Questions(_Topics):
    """Follow-up questions: how/modal verb phrases (怎么弄, 能吗), bare X呢 reusing the previous question
    with X in its slot (广州呢 -> 广州的落户条件是什么), which/kind questions and attributes."""

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
        base = self._without_negation(m.group("m"))
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

    def _hinted_asker(
        self, cands: Sequence[Candidate], answered: int, hinted: set[str]
    ) -> Candidate | None:
        """What the question the assistant's bare answer (turn ``answered``) replies to asked
        about (X of its X的A), when the query's hint words ask about a type (作者 / 导演: a
        work) the answer is not. Why: the answer fills the attribute asked (三体的出版社是哪家 /
        重庆出版社), so another attribute asked next (那作者呢) is the asked-about thing's:
        那三体的作者呢, not 那重庆出版社的作者呢. None when the query hints at no type, the
        answer is of the type, or the question names no X的A (or X itself) of it."""
        said = [c for c in cands if c.mention.turn == answered]
        if not hinted or not said or said[0].mention.etype in hinted:
            return None
        for c in cands:
            m = c.mention
            if m.turn != answered - 1:
                continue
            cut = m.text.rfind("的")
            owner = m.text[:cut] if cut >= 2 else m.text
            etype = self.mt.analyzer.type_by_suffix(owner) or m.etype
            if cut >= 2 and (etype in hinted or m.etype not in hinted):
                # 三体的出版社 (merged with 三体): the owner is what the question was about
                whole = owner_mention(m, owner, etype, m.gram)
                return new_candidate(whole, c.score, c.why + f", asked about ({m.text})")
            if m.etype in hinted:
                return c
        return None

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
        text = self._past_lead(text)
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

    def _attribute_first(self, parse: Parse, pos: int, *, alone: bool = False) -> bool:
        """The query opens (at ``pos``) with an attribute noun followed by 是, 呢 or 谁 (作者是谁
        / 作者呢 / 主角谁); with ``alone``, also an attribute noun (attribute_nouns, not a type
        hint such as 多少钱) and nothing else (作者 / 代表作)."""
        toks = [t for t in parse.tokens if t.start >= pos and t.text.strip()]
        if not toks or kind_of(toks[0].pos, toks[0].text) != "NOUN":
            return False
        # the attribute noun may be more than one token (审批/人: 审批 is a dictionary term)
        end = self._attribute_end(parse.text, toks, 0)
        n = sum(1 for t in toks if t.end <= end)
        if end and n == len(toks):
            return alone and parse.text[toks[0].start : end] in self.attribute_nouns
        return bool(end) and toks[n].text in ("是", "呢", "谁")

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

    def _attribute_ne(self, state: State, d: Dialogue, x: str, *, lead: str = "") -> State | None:
        """What: a bare attribute noun X呢 after a question about one attribute of a thing asks
        about X of the same thing: X takes the previous question's attribute slot, the query's
        ``lead`` (那 / 那么) staying in front.
        Why: gluing the whole previous subject to X names an attribute of an attribute
        (项目预算的负责人); dropping the lead loses what the user said.
        Example: (双鱼座的特点是什么 / 温柔) 那缺点呢 -> 那双鱼座的缺点呢; (项目预算是多少 /
        100万) 负责人呢 -> 项目负责人呢."""
        prev = _previous_question(d)
        if prev is None or prev is not d.turns[-2 if len(d.turns) > 1 else -1]:
            return None
        toks = prev.parse.tokens
        at = [t for t in toks if t.text in self.attribute_nouns and t.text != x]
        if len(at) != 1 or any(is_question_word(t.text) for t in toks if t.start < at[0].start):
            return None
        if self._named_org(d) and not any(t == "work" for t, _ in self.mt.hinted_types(x)):
            # 三体的出版社是哪家 / 重庆出版社 / 那地址呢: the organisation the reply named owns
            # an attribute no work has (the ranking takes it); 导演 stays the work's
            return None
        if {t for t, _ in self.mt.hinted_types(x)} == {"person"} and any(
            m.etype == "work" and m.end <= at[0].start for m in prev.mentions
        ):
            return None  # 流浪地球的票房是多少 / 四十多亿 / 那身高呢: a film has no 身高
        ptext = prev.turn.content
        new = lead + ptext[: at[0].start] + x + "呢"
        return _asked_again(
            state,
            self.mt.sources.get("bare_ne", "ellipsis:bare_ne"),
            new,
            prev,
            slot="attribute",
            note=f"{x} takes the attribute slot of {at[0].text!r}",
        )

    def _named_org(self, d: Dialogue) -> bool:
        """Whether the assistant's last turn is nothing but the name of an organisation (重庆
        出版社 / 人民文学出版社), the answer to the question before it."""
        reply = d.turns[-1]
        bare = reply.turn.content.strip().rstrip("?？!！。.~ 哦啊呀吧呢嘛哈")
        return reply.turn.role == "assistant" and any(
            m.etype == "org" and m.text == bare for m in reply.mentions
        )

    def _asked_role(self, d: Dialogue) -> bool:
        """Whether the user's question right before the assistant's last turn asked who holds
        a role in a thing (rules/coreference.yaml owner_of_role roles: 三体的作者是谁 /
        这部电影导演是谁), its one attribute noun being that role."""
        prev = _previous_question(d)
        if prev is None or len(d.turns) < 2 or prev is not d.turns[-2]:
            return False
        at = [t.text for t in prev.parse.tokens if t.text in self.attribute_nouns]
        return len(at) == 1 and at[0] in self.work_roles

    def _role_holder_ne(self, state: State, d: Dialogue, x: str, *, lead: str) -> State | None:
        """What: a bare attribute X呢 that only a person has (rules/completeness.yaml
        hint_person: 身高 / 年龄 / 老婆), after a question about a role in a thing (作者 / 导演,
        rules/coreference.yaml owner_of_role roles) that the assistant answered with one person
        and nothing else, asks about X of that person; None when the reply names no one.
        Why: the work has no 身高; gluing X to the thing (那三体的身高呢) asks nonsense.
        Example: (三体的作者是谁 / 刘慈欣) 那身高呢 -> 那刘慈欣的身高呢; (这部电影导演是谁 / 张艺谋)
        年龄呢 -> 张艺谋的年龄呢."""
        reply = d.turns[-1]
        if reply.turn.role != "assistant":
            return None
        bare = reply.turn.content.strip().rstrip("?？!！。.~ 哦啊呀吧呢嘛哈")
        who = [m for m in reply.mentions if m.etype in HUMAN_TYPES and not m.is_set]
        if len(who) != 1 or who[0].text != bare:
            return None
        new = lead + who[0].text + "的" + x + "呢"
        return _resolved_from(
            state,
            self.mt.sources.get("bare_ne", "ellipsis:bare_ne"),
            new,
            who[0].text,
            reply,
            "obj",
            etype=who[0].etype,
            slot="subject",
            note=f"{x} belongs to {who[0].text!r}, the person the reply named",
            confidence=0.7,
        )

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
        (围城的作者是谁 / …) 红楼梦呢 -> 红楼梦的作者是谁; an attribute is the subject's:
        (小米14是什么 / …) 价格呢 -> 小米14的价格呢."""
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
        if x in self.attributes:
            # 小米14是什么 / 价格呢: an attribute is no new subject but one of the old subject
            # (价格是什么 lost the phone): the subject's X is asked about (小米14的价格呢)
            return ptext[:end] + "的" + x + "呢"
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
        end: str = "呢",
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
            dated = [m for m in places if self._weather_dated(ptext[m.end : at]) is not None]
            if dated and xtype == "time":
                # 杭州这个礼拜什么天气 / 明天呢: a question naming no form of its own takes the
                # report's (杭州明天的天气)
                gap = self._weather_dated(ptext[dated[0].end : at])
                named = gap is not None and bool(gap.group("q"))
                de = "的" if (ptext[:at].endswith("的") or named) and not x.endswith("的") else ""
                new = dated[0].text + x + de + attr
            elif not places:
                # no place: the question keeps its wording, the time swapped or the place first
                asked = ptext.rstrip("啊呀嘛呢")
                times = _time_tokens(prev)
                if xtype == "place":
                    new = x + asked
                elif times:
                    new = asked[: times[0].start] + x + asked[times[0].end :]
        elif len(places) == 1 and places[0].text == ptext.rstrip("啊呀呢"):
            # a bare place the assistant answered with a weather report for it
            last = _answered(state, d)
            report = self.weather_report
            m = report.match(last.turn.content.strip()) if report and last else None
            if m is not None and m.group("p").endswith(places[0].text):
                if xtype == "time":
                    said = attr_said or ("" if x.endswith("的") else "的") + "天气"
                    new = places[0].text + x + said  # 明天天气呢 keeps its own wording
                elif x != places[0].text and not attr_said:
                    # 上海 / 上海今天的天气是… / 深圳呢 -> 深圳今天的天气呢: the report's day
                    new = x + (m.groupdict().get("t") or "") + "的天气"
        if new is None or new == ptext:
            return None
        return _asked_again(
            state,
            self.ne_weather_src,
            lead + new + end,
            prev,
            slot=xtype,
            note=f"{x} asks the weather question again",
            confidence=0.75,
        )

    def _modifier_swap(self, state: State, d: Dialogue, text: str) -> State | None:
        """What: a bare modifier with 的 right after the user's own turn that is nothing but a
        noun phrase with a modifier puts the new modifier on that phrase's head (rule
        modifier_swap).
        Why: the user asks for the same thing of another owner, place or time; the reply in
        between (a report, a counter-question) is no part of it, and a bare 深圳的 retrieves
        nothing.
        Example: (现在的天气预报 / 成都今天的天气是…) 深圳的 -> 深圳的天气预报;
        (阿拉伯的历史 / 地球有多少亿的历史) 伊斯兰的 -> 伊斯兰的历史."""
        m = rule_match(self.modifier_swap, text.strip())
        exchange = last_exchange(state, d)
        if m is None or exchange is None or self.modifier_swap_said is None:
            return None
        x = m.group("x")
        if self._only_kinds(x, {"TIME"}):
            # 武汉天气 / 武汉今天的天气是… / 明天的 -> 武汉明天的天气: the weather asked again
            # for that day, the query's own particle kept (no 呢 added)
            return self._weather_ne(state, d, exchange[0], "", x + "的", "time", end=m["pt"])
        user = exchange[0]
        said = self.modifier_swap_said.match(user.turn.content.strip())
        if said is None or said.group("y") == x:
            return None
        if not (
            self._only_kinds(x, self.modifier_swap_kinds)
            and self._only_kinds(said.group("y"), self.modifier_swap_kinds)
            and self._only_kinds(said.group("h"), {"NOUN"})
        ):
            return None
        head = said.group("h")
        return _resolved_from(
            state,
            self.modifier_swap.source if self.modifier_swap is not None else "ellipsis",
            x + "的" + head + m.group("pt"),
            head,
            user,
            "obj",
            slot="object",
            note=f"{x}的 modifies {head!r}, the head of the user's {said.group()!r}",
            confidence=0.7,
        )

    def _only_kinds(self, phrase: str, kinds: frozenset[str] | set[str]) -> bool:
        """What: every word of ``phrase`` is of a word class in ``kinds`` (kind_of) and none
        is a question word. Why: a modifier or head that holds a verb, an adjective or a
        pronoun (好看的 / 我的 / 哪里的) says something of its own. Example: 深圳 / 现在 (NOUN,
        TIME) yes; 好看 no."""
        toks = [t for t in self.mt.parse(phrase).tokens if t.text.strip()]
        return bool(toks) and all(
            kind_of(t.pos, t.text) in kinds and not is_question_word(t.text) for t in toks
        )

    def _weather_dated(self, gap: str) -> re.Match[str] | None:
        """What: ``gap`` (what a weather question says between its place and 天气) is nothing
        but the time asked about and maybe a question word (rules/completeness.yaml
        ne_weather ``dated``; group ``q`` the question word).
        Why: the place of such a question is the place of the weather asked again for another
        time; anything else there (天气预报 / 的空气) asks about something else.
        Example: 杭州这个礼拜什么天气 -> 这个礼拜什么 (q 什么); 长春一周天气 -> 一周."""
        if self.ne_weather_dated is None:
            return re.fullmatch(f"(?:{_TIME.pattern})?(?P<q>)的?", gap)
        return re.fullmatch(f"(?:{_TIME.pattern})?(?:{self.ne_weather_dated.pattern})的?", gap)

    def _bare_ne(self, state: State, d: Dialogue, lead: str, x: str) -> State | None:
        src = self.mt.sources.get("bare_ne", "ellipsis:bare_ne")
        # X must be a short noun phrase or time (广州 / 一等座 / 明天 / Galaxy S24), not a clause
        # (安享一生有没有等待期呢 / 密码老是不对呢): for a clause the answer is None
        xparse = self.mt.parse(x)
        xtoks = [t for t in xparse.tokens if kind_of(t.pos, t.text) != "PUNCT"]
        if not xtoks or len(x) > 14 or self.personal.search(x):
            return None
        if self._asked_role(d) and any(t == "person" for t, _ in self.mt.hinted_types(x)):
            # 三体的作者是谁 / 刘慈欣 / 那身高呢: only a person has a 身高, the one the reply named
            return self._role_holder_ne(state, d, x, lead=lead)
        if x in self.attribute_nouns:
            # 缺点呢 after 双鱼座的特点: the attribute takes the previous question's attribute;
            # 作者呢 after 你知道白夜行吗: the topic is missing (白夜行的作者呢, the gap path)
            return self._attribute_ne(state, d, x, lead=lead)
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
