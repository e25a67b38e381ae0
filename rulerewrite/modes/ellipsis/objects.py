"""Verbs and their objects: a verb left without its object takes the one the history gave it (你要看吗 ->
你要看流浪地球吗), counted and measured things, fronted objects, requests and offers."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from rulerewrite.context import _VERB_MEASURE, Dialogue, Mention, TurnInfo
from rulerewrite.lexicon.readers import rule_match
from rulerewrite.modes.base import State
from rulerewrite.modes.ellipsis.common import (
    _ASKED_PROP,
    _CLAUSE_END,
    _CLAUSES,
    _CONTENT,
    _EXCHANGE,
    _HAS_QWORD,
    _NOUN_PHRASE_KINDS,
    _OBJECT_POS,
    _VP_ENDS,
    _answered,
    _is_pronounish,
    _object_after,
    _previous_question,
    _resolved_from,
)
from rulerewrite.modes.ellipsis.works import _Works
from rulerewrite.modes.multiturn import (
    _POTENTIAL_MARKS,
    ANSWER_KINDS,
    HUMAN_TYPES,
    PERSON_PRONOUNS,
    RECIPIENTS,
    is_question,
    last_exchange,
    merge_nested,
    new_candidate,
    phrase_len,
    resolved,
    unpunctuated,
    user_owner,
)
from rulerewrite.text.builtin_parser import QUESTION_WORDS, is_question_word, kind_of
from rulerewrite.text.parse import Parse, Token
from rulerewrite.text.perspective import user_side


class _Objects(_Works):
    """Verbs and their objects: a verb left without its object takes the one the history gave it
    (你要看吗 -> 你要看流浪地球吗), counted and measured things, fronted objects, requests and offers."""

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
            topic = self._specific(self.mt.dialogue(state), topic)  # 啥会员 / 爱奇艺会员
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
            if any(t.text in PERSON_PRONOUNS for t in toks) or x in self.mt.analyzer.non_entity:
                continue  # 大家都去 / 别人也用: a stand-in (non_entity) for who, not a thing
            person = any(mt.text == x and mt.etype in HUMAN_TYPES for mt in ti.mentions) or (
                len(toks) == 1 and self.mt.analyzer.type_of(x, toks[0].pos) in HUMAN_TYPES
            )
            if person and m.group("v") not in self.vo_fronted_persons:
                continue  # 女儿也喜欢: the subject; 郭文杰认识吗: whom one knows
            return x, ti
        return None

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
        word = False  # the object opens with a word holding 了 / 过 (坐/过山车)
        # 我爱穿 after 你穿裙子吗: the verb without the mood word before it
        moods = len(verb) >= 2 and verb[0] in self.echo_moods
        for cand in (verb, verb[1:]) if moods else (verb,):
            i = said.find(cand)
            if i >= 0 and not self.personal.search(cand) and pre.match(said[:i]):
                at = i + len(cand)
                rest = said[at:]
                cut = re.match(r"^[了过]?个?", rest)
                strip = cut.end() if cut is not None else 0
                if strip and self._word_across(said, at, strip):
                    strip, word = 0, True  # 坐过山车: 过山车 is the word, not 过 + 山车
                obj = rest[strip:]
                break
        if (
            not obj
            or len(obj) > self.own_max
            or (obj[0] in "不没了过的是" and not word)
            or self.personal.search(obj)
            or _HAS_QWORD.search(obj)
            or obj in text
        ):
            return None
        return obj

    def _word_across(self, said: str, at: int, strip: int) -> bool:
        """Does a word of ``said`` start at ``at`` and run past the ``strip`` characters of
        aspect or measure after the verb (坐/过山车: 过山车 from 过 on)? Then they are the
        object's own first character, not the verb's aspect."""
        return any(t.start == at and t.end > at + strip for t in self.mt.parse(said).tokens)

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
        said = self._past_lead(self.openers_re.sub("", user.turn.content.strip()))
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
        w = self._without_negation(w)
        forms = {w}
        if len(w) == 3 and w[1] in _POTENTIAL_MARKS:
            forms |= {w[0] + w[2], w[0], w[2]}  # 看不懂 / 看得懂
        elif len(w) == 2 and w[1] in self.result_complements:
            forms.add(w[0])  # 看懂 / 买到
        return tuple(
            f for f in sorted(forms, key=len, reverse=True) if f not in self.verb_after_not
        )

    def _attribute_end(self, text: str, toks: Sequence[Token], j: int) -> int:
        """Where the longest attribute noun that starts with ``toks[j]`` and ends with a token
        ends in ``text`` (价格; 审批人, which the segmenter cuts 审批/人 as 审批 is a dictionary
        term), or 0 when none does."""
        start = toks[j].start
        for t in reversed(toks[j : j + 3]):
            if text[start : t.end] in self.attributes:
                return t.end
        return 0

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
        covered = 0  # the end of the attribute noun read last
        for j, (t, k) in enumerate(zip(toks, kinds, strict=True)):
            if j < i0 or t.end <= covered:
                continue
            if k == "NOUN" and (covered := self._attribute_end(parse.text, toks, j)):
                attribute = True
                continue  # 保修多久 / 价格怎么样 / 审批人呢: an attribute of something not named
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
            if t.start != end or (t.text not in self.aspects and t.text not in _VERB_MEASURE):
                break
            if t.text == "了" and all(u.text in self.final_particles for u in toks[k + 1 :]):
                break  # 你拿到了吗: a 了 that ends the sentence goes after the object (拿到户口本了吗)
            end = int(t.end)
        return end

    def _verb_end(self, toks: list[Any], k: int) -> tuple[int, int]:
        """(where the verb ``toks[k]`` and its aspect particle end: :meth:`_after_aspect`, the
        index of the first word from there or ``len(toks)``): what follows a verb inside the
        query, read to tell whether it lost its object (吃了 + 我怕胖)."""
        end = self._after_aspect(toks, k)
        return end, next((i for i, u in enumerate(toks) if u.start >= end), len(toks))

    def _dangles(self, word: str) -> bool:
        """A transitive verb that can end a query without its object (看 / 看过 / 买了), also
        as jieba joins it to its negation or its potential complement (不吃 / 买不起)."""
        if word in self.dangling or (word[-1:] in self.aspects and word[:-1] in self.dangling):
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
            # 先把你的红包分我一半 / 你先分: a verb that takes no object bare only with what
            # the same verb's 把 phrase disposed of
            return self._ba_echo(state, d, parse, toks, j)
        # 看过 / 吃了 match the bare verb of the last turns (我看延禧攻略 / 你看过吗)
        verbs = self._said_verbs(verb)
        having = verb in self.mt.vo_having_query
        if having:
            verbs |= self.mt.vo_having  # 没充电宝 / 我有: having and not having, one verb
        flipped: set[str] = set()
        if modal:
            # 不会 of the query is the modal 会 of 你会做饭吗, and the other way round
            base = self._without_negation(verb)
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
        # the object: the same verb's (or a verb-object word's) in the last turns; a modal's
        # verb phrase, or the noun after it (喜欢冬天 / 没有假期), in the loop below
        found = None if modal else self._same_verb_object(d, verbs)
        own = _previous_question(d)
        for ti in reversed(d.turns[-2:]) if modal else ():
            if found is not None:
                break
            if ti is not own and self._a_request(
                unpunctuated(ti.turn.content), own, self._without_negation(verb)
            ):
                continue  # 狗能吃葡萄吗 / 能不能说点好听的 / 不能: the user's own question
            ptoks = [t for t in ti.parse.tokens if t.text.strip()]
            for k, t in enumerate(ptoks):
                if not self.mt.same_verb(t.text, verbs):
                    continue
                if (
                    t.text in flipped
                    and ti.turn.role != "user"
                    and self.yes_no.search(ti.turn.content)
                ):
                    continue  # 你想去爬山吗 / 我不想: the assistant asks, no statement of the verb
                np: list[Any] = []
                vp = ptoks[k + 1 :]
                if vp and vp[0].text in verbs:
                    vp = vp[1:]  # 会不会摔倒: the verb phrase after the modal's A-not-A
                if not (
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
                    if self._unfit_echo(obj, parse.text):
                        return None
                    end = self._after_aspect(toks, j)
                    new, what = parse.text[:end] + obj + parse.text[end:], "verb phrase"
                    return self._echoed(state, ti, new, obj, verb, what)
                named = self.mt.noun_object(ti, ptoks, k)
                if named is not None:
                    found = ti, named, t.start
                    break
        if found is not None:
            ti, obj, said_at = found
            if self._unfit_echo(obj, parse.text):
                return None
            if (
                self.how.match(parse.text)
                # 如何找 / 怎么去: a how_object verb takes it after (如何找工作)
                and not (self.how_object is not None and self.how_object.match(parse.text))
                # 你知道怎么查文献吗 / 怎么查: the turn asked it so (怎么查文献)
                and not self.how_said.search(ti.turn.content[:said_at])
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
        # 先把你的文件发我 / 你先发: no object after the verb, the one its 把 put before it
        return None if modal else self._ba_echo(state, d, parse, toks, j)

    def _ba_echo(
        self, state: State, d: Dialogue, parse: Parse, toks: list[Any], j: int
    ) -> State | None:
        """The query's bare verb ``toks[j]`` (你先分) takes the noun phrase a 把 put before the
        same verb in the last two turns, the latest first (先把你的红包分我一半 -> 你先分红包),
        its owner dropped (你的 / 我的 turn with the speaker), after the verb and its aspect."""
        verb = toks[j].text
        for ti in reversed(d.turns[-2:]):
            ptoks = [t for t in ti.parse.tokens if t.text.strip()]
            for k, t in enumerate(ptoks):
                if t.text != verb:
                    continue
                b = k - 1
                # back from the verb over the noun phrase (你的红包) to the 把 before it
                while (
                    b >= 0
                    and ptoks[b].text != "把"
                    and kind_of(ptoks[b].pos, ptoks[b].text) in ("NOUN", "PRON", "DE", "ADJ")
                ):
                    b -= 1
                if b < 0 or ptoks[b].text != "把" or b + 1 >= k:
                    continue
                a = b + 1
                if a + 1 < k and ptoks[a].text in RECIPIENTS and ptoks[a + 1].text == "的":
                    a += 2  # 把你的红包: whose it is turns with the speaker, the thing stays
                obj = self.mt.noun_object(ti, ptoks, a - 1)
                if obj is None or not ti.turn.content.startswith(obj, ptoks[a].start):
                    continue
                if ptoks[a].start + len(obj) != ptoks[k - 1].end:
                    continue  # the whole phrase between 把 and the verb is the noun phrase
                if self._unfit_echo(obj, parse.text):
                    return None
                end = self._after_aspect(toks, j)
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
            if self._without_negation(t.text).startswith(self.quiet_not_verbs):
                continue  # 知道啊: what is known is a fact, not a phrase
            end, n = self._verb_end(toks, k)
            if t.text.endswith("着") or "着" in parse.text[t.end : end]:
                continue  # 看着挺震撼: a verb with 着 describes, it takes no object here
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
            if n < len(toks) and toks[n].start == t.end and toks[n].text[:1] in _POTENTIAL_MARKS:
                continue  # 看不动了: the verb's potential complement, no new clause
            verb = t.text
            # 不喜欢 / 没吃过 of the query is the verb 喜欢 / 吃 of the last turns
            verbs = self._said_verbs(verb, unnegated=True)
            # 玩过怪物猎人世界: the object after the verb's aspect; another verb only with a
            # phrase said right after it (跳芭蕾), no verb-object word of its own
            found = self._same_verb_object(
                d, verbs, after_aspect=True, bound=dangles, min_len=1 if dangles else 2
            )
            if found is None:
                if dangles:
                    return None
                continue
            ti, obj, _at = found
            if self._unfit_echo(obj, parse.text):
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
        (三体也看过呢…), the verb is one of knowing (知道啊: a fact) or of state (看着). Why: the
        particle closes the verb's clause, so nothing after it can be the verb's object."""
        toks = [t for t in parse.tokens if t.text.strip()]
        kinds = [kind_of(t.pos, t.text) for t in toks]
        for k, t in enumerate(toks):
            if kinds[k] != "VERB" or not (t.text in self.going or self._dangles(t.text)):
                continue
            end, n = self._verb_end(toks, k)
            if n + 1 >= len(toks) or toks[n].start != end:
                return None
            if toks[n].text not in self.final_particles:
                return None
            if (
                self._without_negation(t.text).startswith(self.quiet_not_verbs)
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
    ) -> tuple[TurnInfo, str, int] | None:
        """The first object one of ``verbs`` has in the last two turns, the latest first (its
        turn, the object and where the verb starts in the turn): the noun phrase after the same
        verb (``after_aspect``: after its aspect particles too, 玩过怪物猎人世界; ``after_count``:
        after its own count, 要一杯拿铁), or, with ``bound``, the noun of a verb-object word jieba
        keeps whole (会发表情 / 再发几个 -> 表情); objects shorter than ``min_len`` are passed
        over. None when no turn has one. Why: the conversation itself pairs the verb with its
        object, so the echo rules read it from there rather than from the ranking."""
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
                    return ti, obj, t.start
        return None

    def _one_char_object(self, state: State, d: Dialogue, parse: Parse, pos: int) -> State | None:
        """An object gap at ``pos`` after the query's last verb takes the one-character noun
        the same verb had in the last two turns (你喜欢猫吗 / 喜欢啥品种的 -> 喜欢啥品种的猫;
        买房借钱 / 买了 -> 买房了): a one-character noun is no mention the ranking could give,
        so only the same verb's own object, said right after it, licenses it. None when the
        verb's latest object there is longer (the ranked mentions' business) or absent, or
        the noun modifies with 的 (要活的)."""
        toks = [t for t in parse.tokens if t.text.strip() and t.end <= pos]
        k = next(
            (
                i
                for i in range(len(toks) - 1, -1, -1)
                if kind_of(toks[i].pos, toks[i].text) == "VERB"
            ),
            -1,
        )
        if k < 0:
            return None
        # 买了 / 喜欢啥品种的: the gap right after the verb and its aspect, or after a phrase of
        # what kind ending in 的; not after a count (说一个: the measure's thing is ranked)
        # or a receiver (推荐给我: the thing goes before 给)
        between = toks[k + 1 :]
        if not all(t.text in self.aspects for t in between) and not (
            between[-1].text == "的"
            and not any(t.text in RECIPIENTS or kind_of(t.pos, t.text) == "NUM" for t in between)
        ):
            return None
        verb = toks[k].text
        verbs = self._said_verbs(verb, unnegated=True)
        found = self._same_verb_object(d, verbs, after_aspect=True)
        if found is None:
            return None
        ti, obj, _at = found
        if len(obj) != 1 or self._unfit_echo(obj, parse.text):
            return None
        if obj + "的" in ti.turn.content:
            return None  # 要活的: a noun before 的 modifies what is taken, it is not taken
        new = parse.text[:pos] + obj + parse.text[pos:]
        return self._echoed(state, ti, new, obj, verb, "object")

    def _said_verbs(self, verb: str, *, unnegated: bool = False) -> set[str]:
        """The words that say the query's ``verb`` in the last turns: the verb itself and, when
        it ends in an aspect particle, the verb without it (看过 -> 看过, 看); with
        ``unnegated``, each of those without every negation it opens with as well (没吃过 ->
        没吃过, 没吃, 吃过, 吃). Why: the echo rules match the bare verb of the last turns."""
        verbs = {verb, verb[:-1]} if len(verb) > 1 and verb[-1] in self.aspects else {verb}
        if unnegated:
            verbs |= {s for v in verbs for s in self._unnegated(v, every=True)}
        return verbs

    def _unnegated(self, word: str, *, every: bool = False) -> list[str]:
        """``word`` without the negation it opens with (dangling_verbs ``negations``: 不喜欢 ->
        喜欢; the longest first, 没有吃 -> 吃), when something is left; with ``every``, one
        for each negation it opens with (没有吃 -> 吃, 有吃). Empty when it opens with none."""
        out = [word[len(n) :] for n in self.negated if word.startswith(n) and len(word) > len(n)]
        return out if every else out[:1]

    def _without_negation(self, word: str) -> str:
        """``word`` without the negation it opens with (:meth:`_unnegated`: 不喜欢 -> 喜欢, 没有
        吃 -> 吃), or ``word`` as it is (不 alone, 知道)."""
        return next(iter(self._unnegated(word)), word)

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
        if m is None or _CLAUSES.search(text, 0, m.start("v")):
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
            ti, obj, _at = said
            if self._unfit_echo(obj, text):
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
            return self._only_thing(d, text) if measure in self.count_general else None
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

    def _only_thing(self, d: Dialogue, text: str) -> tuple[TurnInfo, str, str] | None:
        """The one thing the last two turns name, for a general measure (counted_object
        ``general``: 个) with no noun whose verb had no object there (你头像好丑 / 大家都夸好看 /
        要不换一个 -> 要不换一个头像): no person, place, time or set. None when they name none
        or more than one: a general measure agrees with anything, so only a single candidate
        says what it counts."""
        recent = d.turns[-2:]
        turns = {ti.turn.index: ti for ti in recent}
        found: dict[str, TurnInfo] = {}
        for c in self.mt.rank(d, text=text):
            x = c.mention
            if x.turn not in turns or _is_pronounish(x) or x.is_set:
                continue
            if x.etype in HUMAN_TYPES or x.etype in ("place", "time"):
                continue
            name = self._uncounted(x.text)
            if name and name not in text and not self.personal.search(name):
                found.setdefault(name, turns[x.turn])
        if len(found) != 1:
            return None
        ((name, ti),) = found.items()
        return ti, name, "only thing named"

    def _copula_echo(self, state: State, d: Dialogue, text: str) -> State | None:
        """A bare copula with its subject or adverb and nothing after it (你也是 / 我不是 / 汪峰
        也是吗 / 你不也是吗, completeness ``copula_echo``) says of its subject what a recent
        turn said with 是: the noun phrase after that turn's last 是 (我是唐山人 / … / 你也是 ->
        你也是唐山人; 就知道你是个小吃货 / 你不也是吗 -> 你不也是小吃货吗), the newest turn first."""
        m = self.copula_query.match(text) if self.copula_query is not None else None
        if m is None:
            return None
        source = self.copula_rule.source if self.copula_rule is not None else "ellipsis"
        reply = d.turns[-1] if d.turns and d.turns[-1].turn.role == "assistant" else None
        bare = self.mt.bare_noun_phrase(reply.turn.content, ANSWER_KINDS) if reply else None
        if reply is not None and bare and bare not in text and not self.personal.search(bare):
            # 不是金牛就是巨蟹吧 / 金牛座 / 我就觉得你是: a reply that is nothing but a noun phrase
            # settles what the subject is, before what an older turn said with 是
            return _resolved_from(
                state,
                source,
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
            asks_agree = bool(self.yes_no.search(ti.turn.content))
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
                    source,
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
                source,
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

    def _unfit_echo(self, obj: str, text: str) -> bool:
        """``obj`` is no object to echo into the query ``text``: the query says it already, or
        it holds a personal pronoun (completeness_words ``personal``: 你的红包 / 我妈)."""
        return obj in text or self.personal.search(obj) is not None

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
        knowing = cl.knowing is not None and cl.knowing.search(m.group("v")) is not None
        question = None if framed else self._clause_asked(last, cl.not_reply)
        src = last
        if question is not None:
            question = user_side(question)
            if (
                m.group("you")
                and knowing
                and cl.named_only is not None
                and cl.named_only.match(question)
            ):
                return None  # 德克士是啥 / 你不知道: the ranking's (你不知道德克士)
        elif not framed and (cl.asked_back is None or not cl.asked_back.search(last.turn.content)):
            # the assistant asked nothing back: the user's own wh-question
            question, src = self._clause_asked(told, cl.not_own), told
        if question is None and knowing:
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
        """The text of ``_told_frame_mention`` (None when there is none)."""
        mt = self._told_frame_mention(ti, text, frames)
        return mt.text if mt is not None else None

    def _told_frame_mention(
        self, ti: TurnInfo, text: str, frames: frozenset[str] | None = None
    ) -> Mention | None:
        """The topic a topic frame (rules/context.yaml: 你知道千岛湖吗; one of ``frames``, by
        source, when given) read in turn ``ti``, when ``text`` does not say it; None when there
        is none. Why: a question of knowing or a request to be told (不知道 / 仔细说说) is about
        the thing such a frame asked after."""
        return next(
            (
                mt
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
            or _CLAUSES.search(said)
            or (not_said is not None and not_said.search(said))
        ):
            return None
        return cl.drop_lead.sub("", said, count=1) if cl.drop_lead is not None else said
