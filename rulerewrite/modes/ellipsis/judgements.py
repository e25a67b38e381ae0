"""Evaluations and opinions: a bare judgement (很好看, 真的吗, 不是) takes what was judged; negation echoes."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rulerewrite.context import Dialogue, Turn, TurnInfo
from rulerewrite.lexicon.readers import rule_match
from rulerewrite.modes.base import State
from rulerewrite.modes.ellipsis.answers import _Answers
from rulerewrite.modes.ellipsis.common import (
    _A_NOT_A,
    _CLAUSES,
    _HAS_QWORD,
    _NOUN_PHRASE_KINDS,
    _REPLY_NAMES,
    _answered,
    _names_a_kind,
    _resolved_from,
)
from rulerewrite.modes.multiturn import PERSON_PRONOUNS, last_exchange, unpunctuated
from rulerewrite.text.builtin_parser import kind_of


class _Judgements(_Answers):
    """Evaluations and opinions: a bare judgement (很好看, 真的吗, 不是) takes what was judged; negation
    echoes."""

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
        if _CLAUSES.search(said) or not ne.stated_end.search(said):
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
        if before.rstrip("".join(self.aspects)).endswith(self.quiet_not_verbs):
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
