"""Topic and comment: a subjectless comment takes the topic of the last exchange or the user's own
topic (性能怎么样 -> 小米14性能怎么样)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulerewrite.context import Dialogue, Mention, TurnInfo, new_turn, said_mention
from rulerewrite.lexicon.readers import rule_match
from rulerewrite.modes.base import State
from rulerewrite.modes.ellipsis.common import (
    _A_NOT_A,
    _A_NOT_A_VERB,
    _CJK,
    _CJK_OR_WORD,
    _CLAUSES,
    _COMMENT_NP,
    _HAS_QWORD,
    _NOUN_PHRASE_KINDS,
    _PREDICATED,
    _REPLY_LEAD,
    _SWAP_SPEAKERS,
    _agent_then_verb,
    _alone,
    _is_pronounish,
    _object_after,
    _resolved_from,
    _same_kind,
    _verb_tagged,
)
from rulerewrite.modes.ellipsis.judgements import _Judgements
from rulerewrite.modes.multiturn import (
    HUMAN_TYPES,
    TYPE_HINT,
    is_question,
    last_exchange,
    new_candidate,
    outermost,
    unpunctuated,
)
from rulerewrite.text.builtin_parser import CONJ_WORDS, is_question_word, kind_of
from rulerewrite.text.parse import Token


def _verb_heads(toks: list[Token], q_end: int, ptoks: list[Token], t_end: int) -> bool:
    """A run ending at ``q_end`` in the query's words ``toks`` and at ``t_end`` in the turn's
    ``ptoks`` ends one character into a verb on both sides, two different words both tagged
    verbs: the verb character they share heads both (下雪 / 下雨: the same 下 of the weather)."""
    q = next((t for t in toks if t.start < q_end < t.end), None)
    t = next((u for u in ptoks if u.start < t_end < u.end), None)
    return (
        q is not None
        and t is not None
        and q.start + 1 == q_end
        and t.start + 1 == t_end
        and q.text != t.text
        and q.pos.startswith("v")
        and t.pos.startswith("v")
    )


class _Topics(_Judgements):
    """Topic and comment: a subjectless comment takes the topic of the last exchange or the user's
    own topic (性能怎么样 -> 小米14性能怎么样)."""

    def _hinted_topic(self, best: Any, hinted: set[str]) -> bool:
        """The best candidate is of a type the query's hint words ask about, one of the types
        ``salient_hinted_types`` of the thresholds lets that single out (北京今天的天气是多云… /
        有雨吗 / 应该大晴天吧: 大晴天 asks about a place's weather, so 北京 is the topic however
        it ranks). Why: a comment on the weather or the whereabouts of a place answers the
        question the words ask about that place, not about anything else the turns said."""
        return best.mention.etype in self.hinted_types & hinted and TYPE_HINT in best.why

    @staticmethod
    def _before_time(parse: Any, pos: int) -> int:
        """Where a place taken by ``_hinted_topic`` goes: before the query's first time word
        after the gap (看样明天天气不错 -> 看样威海明天天气不错; 看了下天气预报 未来一周都下雨 ->
        …广州未来一周都下雨), else at the gap. Why: the weather is that of a place at a time,
        said place first, and a word before the time word (看样 / 看了下天气预报) is no part of
        it."""
        return next((t.start for t in parse.tokens if t.start >= pos and t.pos == "t"), pos)

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
            if best < 0 or (
                q0 + size not in ends
                and t0 + size not in t_ends
                and not _verb_heads(toks, q0 + size, ptoks, t0 + size)
            ):
                continue
            # the run without its lead words is a content predicate (not 是 / 有 / 好 / 什么)
            inner = [t for t in toks[qi:] if t.start < q0 + size]
            while len(inner) > 1 and self._predicate_lead(inner[0]):
                inner = inner[1:]  # 不同意: the last word stays, whatever jieba tags it
            head = text[max(inner[0].start, q0) : min(inner[0].end, q0 + size)]
            if len(head) > 1 and head[-1] in self.aspects:
                head = head[:-1]
            if len(head) == 3 and _A_NOT_A.fullmatch(head):
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
            # the query holds more of the turn's predicate than one character: a time is its
            # subject only so (初二拿什么零食 / 不能拿零食, not 现在还疼吗 / 疼)
            held = size > 1 or any(
                u.text == t.text and kind_of(t.pos, t.text) == "NOUN"
                for t in toks
                if t.start >= q0 + size
                for u in ptoks
                if u.start >= t0 + size
            )
            phrase = self._said_of(ti, ptoks, best, t0 + size, time_ok=held)
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
        return _verb_heads(toks, q_end, ptoks, t_end)

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

    def _said_of(
        self, ti: TurnInfo, ptoks: list[Token], k: int, run_end: int, *, time_ok: bool = False
    ) -> str | None:
        """The noun phrase opening its clause in turn ``ti`` that the predicate at word ``k``
        (running to ``run_end``) is said of, only adverbs, negations, modals, degrees, "how
        come" and a time between (上海今年会不会下雪: 上海); a time alone when ``time_ok`` and
        the turn names no speaker (初二拿什么零食); None when there is none (不想单身了: no
        phrase) or it is a pronoun alone."""
        said = ti.turn.content
        j = k - 1
        while j >= 0 and (
            (self._predicate_lead(ptoks[j]) and not is_question_word(ptoks[j].text))
            or (j > 0 and ptoks[j].text in self.continued_how_come)
        ):
            j -= 1  # 明天早上怎么会起不来: how come, between the phrase and the predicate
        if (
            j > 0
            and j + 1 < k
            and ptoks[j + 1].text in self.negations
            and ptoks[j].text == said[ptoks[k].start]
        ):
            j -= 1  # 我厉不厉害 (jieba: 我 / 厉 / 不 / 厉害): the first A of the A-not-A
        if j < 0:
            return None
        kinds = [kind_of(t.pos, t.text) for t in ptoks]
        # a time after the phrase is no part of it (上海今年会不会下雪: 上海)
        t1 = j
        while j > 0 and kinds[j] == "TIME" and kinds[j - 1] in ("NOUN", "TIME"):
            j -= 1
        if kinds[j] == "TIME":
            j = t1  # the time is the whole phrase (初二拿什么零食), read below
        # where the clause opens: after the last punctuation before the phrase, or after an
        # acknowledgement the turn opens with (好吧玥玥要吃水果)
        c0 = next((x + 1 for x in range(j, -1, -1) if kinds[x] == "PUNCT"), 0)
        ack = self.ack.match(said) if c0 == 0 and self.ack is not None else None
        ack = ack or (self.interjection.match(said) if c0 == 0 else None)  # 额没掰过
        if ack is not None and ack.end() > 0:
            c0 = next((x for x, t in enumerate(ptoks) if t.start >= ack.end()), len(ptoks))
        if c0 < j and ptoks[c0].text in self.continued_how_come:
            c0 += 1  # 怎么高铁也会晚点: how come, before the phrase
        if c0 > j:
            return None
        if all(kinds[x] == "TIME" for x in range(c0, j + 1)):
            # 初二拿什么零食 / 明天早上怎么会起不来: a time the turn is about, no speaker in it,
            # when the query holds more of its predicate (``time_ok``)
            if not time_ok or self.personal.search(said):
                return None
            return said[ptoks[c0].start : ptoks[j].end]
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
            # 高考没考好 (jieba: 高考 a verb): one word, then only the negated predicate, is
            # what the turn says did not go well
            negated_one = (
                j == c0
                and k == j + 2
                and ptoks[j + 1].text in self.negations
                and ptoks[j].text[-1] not in self.aspects  # 算了不听了: giving up, no subject
            )
            if len(said[ptoks[s].start : ptoks[j].end]) < 2 or (
                not negated_one
                and any(
                    (kinds[x] not in ("NOUN", "NUM") and ptoks[x].pos != "zg")
                    or is_question_word(ptoks[x].text)
                    for x in range(s, j + 1)
                )
            ):
                return None  # 找人嫁了吧 / 关到打: a verb in it, no phrase
        if s != c0:
            return None  # 停止股市交易: the phrase opens no clause
        if all(kinds[x] in ("PRON", "DE", "CONJ", "TIME", "NUM") for x in range(s, j + 1)) or any(
            is_question_word(ptoks[x].text) for x in range(s, j + 1)
        ):
            return None  # 我 / 我们 / 我今天: the speakers; 那什么时候能看: a question
        phrase = said[ptoks[s].start : ptoks[j].end]
        if (
            len(phrase) > 2
            and ptoks[k - 1].text in self.negations
            and ptoks[k - 1].start == ptoks[j].end
            and phrase[-1] == said[ptoks[k].start]
        ):
            phrase = phrase[:-1]  # 司昊田厉不厉害 (jieba: 田厉 / 不 / 厉害): the first A goes
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
            or self._answered_topic(exchange)
            or self._reply_subject(exchange)
            or self._user_known(exchange)
            or self._user_hinted(exchange, said)
        )
        seen = self._user_seen(exchange)
        if seen is not None and found is None:
            found = seen
        if found is not None and found[1] == "reply":
            # 有什么小说好看 / 雪中悍刀行: the reply's bare phrase answers the user's which / what
            # question, and takes the ``answered`` shapes
            answered = self._answered_topic(exchange)
            found = (
                answered if answered is not None and answered[0].text == found[0].text else found
            )
        judged = self._user_judged(exchange)
        if judged is not None and (found is None or found[0].text in judged[0].text):
            # 王老师讲课最清楚 / 嗯 / 好清楚: what the user judged holds the name, and is the topic
            found = judged
        if found is None or (found[1] == "answered" and _REPLY_LEAD in state.scratch):
            # 哪里呢 / 张家界的一条文艺街 / 没有去过: the verb's object, kept aside, comes first
            return None
        topic, source = found
        name = self._specific(d, topic.text)  # 五仁味的月饼 / 鲜肉月饼…: the one the reply named
        typed_both = source == "both" and any(
            m.text == name and m.source.startswith("dictionaries/") and m.etype in _PREDICATED
            for ti in exchange
            for m in ti.mentions
        )
        shapes = self.topic_shapes.get(source, frozenset())
        if seen is not None and seen[0].text == name:
            # 你玩第五人格吗: a typed name found otherwise takes the ``user_seen`` shapes too
            shapes = shapes | self.topic_shapes.get("user_seen", frozenset())
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
        elif "degree_word" in shapes and self._degree_word(toks, body):
            how = "degree"  # 真棒 / 太差: a degree and a judging word the segmenter kept as one
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
            and (typed_both or source in self.topic_pred_any)
            and kinds[0] in ("ADV", "VERB")
            and toks[0].text not in self.topic_not_pred
            and not self.speakers.search(body)
            and "PRON" not in kinds
            and not body.endswith(("吧", "吗", "么"))
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
        if (
            not how
            and "described" in shapes
            and self._described(np_toks, np_kinds, body, verb_led=source in self.topic_desc_verb)
        ):
            how = "described"  # 一座来了就不想走的城市: what kind of thing the topic is
        if not how and "hinted" in shapes and not self.speakers.search(body):
            how = "hinted"  # 讲了些什么故事: what one asks or says of the topic's type
        if not how and "de_clause" in shapes and self._de_clause(toks, kinds, body):
            how = "de_clause"  # 拿刀砍人被反杀的: the one who did it, what the topic is
        if (
            not how
            and "which" in shapes
            and self.topic_which is not None
            and self.topic_which.match(body)
            and len(toks) > 1
            and kinds[1] == "NOUN"
        ):
            how = "which"  # 哪家酒店好: which one of the topic's parts or kinds
        if (
            not how
            and "remark" in shapes
            and toks[0].text not in self.topic_not_pred
            and not self.speakers.search(body)
            and "PRON" not in kinds
            and not body.endswith(("吧", "吗", "么"))
        ):
            how = "remark"  # 一点也不恐怖好不好 / 600多级: anything said of the thing asked about
        if not how:
            return None
        # 我觉得蛮好的: a frame that names its speaker (ellipsis_patterns speakers) keeps the
        # topic after it, in the clause it frames (我觉得华为蛮好的); a bare 感觉 does not
        at = frame.end() if frame is not None and framed and self.speakers.match(said) else 0
        cop_word = (
            "是" if how in ("kind", "described", "de_clause") and cop is None and not framed else ""
        )
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

    def _compared_first(self, state: State, exchange: tuple[TurnInfo, TurnInfo]) -> State | None:
        """A comparison opening the query without its first term, when nothing else completed
        it (rules/completeness.yaml ``compared_first``): the one thing of Y's kind the last
        exchange named goes first, or where the shape's empty group ``at`` stands (那周杰伦呢 /
        他的歌写得真好 / 和林俊杰比呢 -> 周杰伦和林俊杰比呢; 成都好热 / 重庆更热 / 比起重庆 凉快多了
        -> 比起重庆 成都凉快多了). Why: 和Y比呢 / 比起Y… compares something with Y, and after an
        exchange about one thing of Y's kind (two people, two places, two phones) that thing is
        the other term; ``_topic_comment`` reads it only from the sources it lists."""
        text = state.standalone.strip()
        m = next((m for p in self.compared_shapes if (m := p.match(text))), None)
        if self.compared_rule is None or m is None:
            return None
        rest = unpunctuated(text[m.end() :])
        if len(rest) > self.compared_rest_max or any(
            kind_of(t.pos, t.text) in ("NOUN", "PRON") for t in self.mt.parse(rest).tokens
        ):
            return None  # 跟上海比起来北京很热闹: the first term is said after it
        y = m["y"]
        kin = self._compared_kin(text, y)
        if kin is None:
            return None
        found = {
            c.text: ti
            for ti in exchange
            for c in ti.mentions
            if y not in c.text
            and c.text not in y
            and not c.is_set
            and not _is_pronounish(c)
            and not self.mt.is_clause(c)
            and kin(c)
        }
        names = [n for n in found if not any(n != o and n in o for o in found)]
        if len(names) != 1:
            return None  # nothing of Y's kind, or two of them: which one is compared is unsaid
        name = names[0]
        at = m.start("at") if "at" in m.re.groupindex else 0
        return _resolved_from(
            state,
            self.compared_rule.source,
            text[:at] + name + text[at:],
            name,
            found[name],
            "topic",
            etype="thing",
            slot="subject",
            note=f"{name!r} is compared with {y!r}: the one thing of its kind the exchange named",
            confidence=0.6,
        )

    def _compared_kin(self, text: str, y: str) -> Callable[[Mention], bool] | None:
        """What may be compared with ``y`` (said in the query ``text``), or None when its kind is
        unknown: a person's name for a speaker (比我高 / 和你比), a thing of the same type for a
        typed thing (林俊杰 / 重庆: rules/completeness.yaml compared_first ``types``), a noun of
        the same head for a noun (清朝 / 明朝)."""
        if y in self.compared_speakers:
            # a topic frame's unknown name opening with a family name is a person's too (你认识
            # 李小龙吗: jieba may cut such a name, the frame keeps it whole)
            surnames = self.mt.analyzer.surnames
            return lambda c: (
                c.etype == "person"
                or (
                    c.source.startswith("rules/")
                    and 3 <= len(c.text) <= 4
                    and c.text.startswith(surnames)
                )
            )
        said = self.mt.analyzer.analyze(new_turn(0, "user", text))
        ym = next((c for c in said.mentions if c.text == y), None)
        if ym is None:
            return None
        if ym.etype in self.compared_types:
            return lambda c: c.etype == ym.etype
        return lambda c: _same_kind(c.text, y)

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

    def _described(
        self, toks: list[Any], kinds: list[str], body: str, *, verb_led: bool = False
    ) -> bool:
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
        if not (
            kinds[0] in ("ADV", "NUM", "NOUN", "ADJ", "LOC") or (verb_led and kinds[0] == "VERB")
        ) or (kinds[0] == "ADV" and kinds[1] == "VERB"):
            return False
        return not any(k in ("CONJ", "PREP", "PRON") for k in kinds)

    def _de_clause(self, toks: list[Any], kinds: list[str], body: str) -> bool:
        """Whether the comment is a clause closed by 的 that names what the topic is by what
        it did or is about (``de_clause``: 拿刀砍人被反杀的 / 关于哲学的), with a verb or a
        preposition in it and no pronoun, copula nor question. Why: such a 的-phrase stands
        for a noun, so said of the topic it takes 是 like ``described``."""
        text = body.rstrip("啊呀吧嘛呢哦哈啦")
        if not text.endswith("的") or len(text) > self.topic_described_max or len(toks) < 3:
            return False
        if "是" in text or _HAS_QWORD.search(text) or "PRON" in kinds:
            return False
        return kinds[0] in ("VERB", "PREP", "NOUN") and any(k in ("VERB", "PREP") for k in kinds)

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

    def _answered_topic(self, exchange: tuple[TurnInfo, TurnInfo]) -> tuple[Mention, str] | None:
        """The assistant's whole reply when it is a bare noun phrase answering the user's which
        or what question (rules/completeness.yaml topic_comment ``answered``: 什么零食 /
        巧克力派; 推荐一本书 / 秘密花园), as the ``answered`` source; else None.
        Why: the reply names the very thing the user asked for, so a comment after it is said of
        that thing, the whole phrase and not a name inside it (巧克力派, not 巧克力)."""
        told, last = exchange
        if self.topic_answered is None or not self.topic_answered.search(told.turn.content):
            return None
        b = last.turn.content
        reply = self.mt.bare_noun_phrase(b, _NOUN_PHRASE_KINDS) or self._named_answer(b)
        if reply is None or not _CJK.search(reply) or self.personal.search(reply):
            return None
        if self.answer_not_lead is not None and self.answer_not_lead.match(reply):
            return None  # 别生气嘛: a prohibition the segmenter keeps as one noun, no thing
        return said_mention(reply, "thing", last.turn, "topic", b.find(reply), "reply"), "answered"

    def _named_answer(self, said: str) -> str | None:
        """``said`` as a name the segmenter cuts into pieces (土豆炖粉条子 / 第九交响曲): a title
        answer (one run of characters, no speaker nor question) that opens with no verb, ends
        with a noun and has no adverb, particle, conjunction nor pronoun in it; else None.
        Why: a reply that opens with a verb (去海边 / 有个妹妹) or holds a 了 / 没有 is a
        clause, whose comment needs no subject put back."""
        name = self.mt.title_answer(said)
        if name is None:
            return None
        kinds = [kind_of(t.pos, t.text) for t in self.mt.parse(name).tokens if t.text.strip()]
        if not kinds or kinds[0] == "VERB" or kinds[-1] != "NOUN":
            return None
        return None if set(kinds) & self.answer_not_kinds else name

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

    def _degree_word(self, toks: list[Token], body: str) -> bool:
        """Whether the comment is one word of a degree and a judging word (真棒 / 太差 / 超赞),
        which the segmenter keeps whole (and often tags a noun): ``degree`` all the same. Why:
        the two-token test of ``degree`` misses it, yet 真棒 says as much of the topic as 真好."""
        if len(toks) != 1 and not (len(toks) == 2 and toks[1].pos in ("y", "zg", "ul")):
            return False
        word = toks[0].text
        deg = next(
            (d for d in sorted(self.topic_degrees, key=len, reverse=True) if word.startswith(d)), ""
        )
        rest = word[len(deg) :]
        if not deg or not rest or rest in self.topic_not_deg:
            return False
        tail = [t for t in self.mt.parse(rest).tokens if t.text.strip()]
        return len(tail) == 1 and kind_of(tail[0].pos, tail[0].text) in ("ADJ", "VERB")

    def _reply_subject(self, exchange: tuple[TurnInfo, TurnInfo]) -> tuple[Mention, str] | None:
        """The noun phrase the assistant's reply opens with as its subject, the rest of the
        reply a short predicate or question about it (``reply_subject``: 魏晨很帅的 / 里番好看 /
        中考好吗), when no other source found a topic. Why: the reply said something of that
        thing, and a follow-up that only predicates (超帅 / 看不懂) goes on about it."""
        last = exchange[1]
        if last.turn.role == "user":
            return None
        toks = [t for t in last.parse.tokens if t.text.strip()]
        kinds = [kind_of(t.pos, t.text) for t in toks]
        j = 0
        while j < len(toks) and kinds[j] == "NOUN":
            j += 1
        if j == 0 or j == len(toks):
            return None
        name = "".join(t.text for t in toks[:j])
        rest = last.turn.content[toks[j - 1].end :].strip().rstrip("?？!！。.~ ")
        if (
            len(name) < 2
            or _CJK.search(name) is None
            or self.personal.search(name)
            or kinds[j] not in ("ADV", "ADJ", "VERB")
            or "PRON" in kinds[j:]
            or len(rest) > self.topic_reply_rest
        ):
            return None
        etype = next((m.etype for m in last.mentions if m.text == name), "thing")
        return said_mention(name, etype, last.turn, "topic", 0, "reply_subject"), "reply_subject"

    def _user_known(self, exchange: tuple[TurnInfo, TurnInfo]) -> tuple[Mention, str] | None:
        """The name the user asked the assistant about knowing (``user_known``: 你知道X吗 /
        看过X吗, rules/completeness.yaml topic_comment ``known``), when the reply says it does not
        know it (answer_identity ``unknown``: 不知道 / 没听过). Why: a follow-up that only describes something (写了某书的一位作家) after
        你知道X吗 / 不知道 tells what X is, typed by a dictionary or not."""
        told, last = exchange
        if self.topic_known is None or told.turn.role != "user":
            return None
        m = self.topic_known.match(told.turn.content.strip().rstrip("?？!！。.~ "))
        unknown = self.identity_unknown
        if m is None or not m.group("x") or m.group("x") in last.turn.content:
            return None
        if unknown is None or not unknown.match(last.turn.content.strip().rstrip("?？!！。.~ ")):
            return None  # 知道啊: the assistant knew it, the comment may be about anything
        name = m.group("x")
        if self.personal.search(name) or (_CJK.search(name) is None and not name.isascii()):
            return None
        etype = next((x.etype for x in told.mentions if x.text == name), "thing")
        start = told.turn.content.find(name)
        return said_mention(name, etype, told.turn, "topic", start, "user_known"), "user_known"

    def _user_hinted(
        self, exchange: tuple[TurnInfo, TurnInfo], said: str
    ) -> tuple[Mention, str] | None:
        """The one name the user's last turn said, typed by a dictionary or a topic frame, of a
        type the query's words ask about (``user_hinted``, topic_comment ``hinted_types``:
        讲了什么 / 原著 of a work, 作品 of a person, 冷不冷 of a place), when the reply does not
        name it and the turn names nothing else of that type (我最近在读三体 / 很烧脑 / 第二部讲了
        什么 -> 三体第二部讲了什么). Why: a hint word asks what only a thing of that type has,
        and the user's name is the one such thing the exchange said."""
        told, last = exchange
        if told.turn.role != "user" or not self.topic_hinted_types:
            return None
        hinted = {t for t, _s in self.mt.hinted_types(said)} & self.topic_hinted_types
        found = {
            m.text: m
            for m in told.mentions
            if m.etype in hinted and not m.is_set and m.text not in last.turn.content
        }
        names = outermost(list(found))
        # (宜宾到成都有多远: two places, whichever a dictionary typed, leave the topic open)
        if len(names) != 1 or not found[names[0]].source.startswith(("dictionaries/", "rules/")):
            return None
        if found[names[0]].gram == "dep":
            return None  # …到最后竟然变无间道: a name deep in a clause is no topic of the turn
        return found[names[0]], "user_hinted"

    def _user_seen(self, exchange: tuple[TurnInfo, TurnInfo]) -> tuple[Mention, str] | None:
        """The name the user asked whether the assistant had watched, played, read or tasted
        (``user_seen``, topic_comment ``seen``: 看过白色相簿嘛 / 你玩第五人格吗, ``seen_first``:
        忍龙玩过吗), a name, not a common noun (看电视剧不: any series), the reply not naming
        it. Why: the reply said whether, and the user's follow-up remark (动画很好啊 / 一点也
        不恐怖) is about the thing asked about."""
        told, last = exchange
        if told.turn.role != "user":
            return None
        content = told.turn.content.strip().rstrip("?？!！。.~ ")
        m = self.topic_seen.search(content) if self.topic_seen is not None else None
        first = self.topic_seen_first.search(content) if self.topic_seen_first else None
        names = [
            x
            for x in told.mentions
            if not x.is_set
            and x.source not in self.topic_seen_not  # 看电视剧不: a common noun, any series
            and (
                (m is not None and x.text == m["x"])
                or (first is not None and first["x"].endswith(x.text))
            )
        ]
        if not names:
            return None
        name = max(names, key=lambda x: len(x.text))
        if (
            name.text in last.turn.content
            or _CJK.search(name.text) is None
            or name.text.endswith(self.topic_any_kind)  # 你看电视剧吗 / 网络小说: a kind, no name
        ):
            return None
        return name, "user_seen"

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

    def _told_topic(self, state: State, d: Dialogue, cands: list[Any], text: str) -> Any | None:
        """A request to be told (rules/completeness.yaml tell_me: 仔细说说 / 介绍下) right after
        the user's own question that a topic frame read (rules/context.yaml: 你知道千岛湖吗 /
        你看过余华的活着吗) asks to be told about that topic: the frame's candidate."""
        if self.tell_me is None or not self.tell_me.match(text):
            return None
        exchange = last_exchange(state, d)
        if exchange is None:
            return None
        mt = self._told_frame_mention(exchange[0], text)
        if mt is None:
            return None
        # ranked or not (a place the reply said again ranks as the reply's setting)
        return next(
            (c for c in cands if c.mention is mt),
            new_candidate(mt, 0.0, "the topic the user asked to be told about"),
        )

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
