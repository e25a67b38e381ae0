"""Requests, offers and other exchange shapes: 来一份 after the assistant offered a dish, refusals,
where to get or go, what something was sent, shown or taught as."""

from __future__ import annotations

from typing import Any

from rulerewrite.context import Dialogue, Mention, TurnInfo, new_mention
from rulerewrite.lexicon.readers import rule_match
from rulerewrite.modes.base import State
from rulerewrite.modes.ellipsis.common import (
    _A_NOT_A,
    _EXCHANGE,
    _HAS_QWORD,
    _answered,
    _object_after,
    _resolved_from,
)
from rulerewrite.modes.ellipsis.objects import _Objects
from rulerewrite.modes.multiturn import (
    HUMAN_TYPES,
    last_exchange,
    names_a_thing,
    new_candidate,
    said_before,
    salient,
    unpunctuated,
)
from rulerewrite.text.builtin_parser import is_question_word, kind_of
from rulerewrite.text.parse import Parse


class _Offers(_Objects):
    """Requests, offers and other exchange shapes: 来一份 after the assistant offered a dish, refusals,
    where to get or go, what something was sent, shown or taught as."""

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

    def _offered_first(self, offered: list[Any], reply: str) -> bool:
        """The first thing offered opens the reply (after an acknowledgement) as its subject or
        object and the others only come up in what is said of it (戚风蛋糕好吃软软的…早餐必备:
        早餐 is no second offer)."""
        m = offered[0].mention
        lead = reply[: m.start].strip()
        if lead and (self.ack is None or self.ack.fullmatch(lead) is None):
            return False
        return m.gram in ("subj", "obj") and all(c.mention.gram == "dep" for c in offered[1:])

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
            and said not in self.attributes  # 审批人 (审批/人): one attribute noun
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
        if obj is None and _HAS_QWORD.search(exchange[0].turn.content):
            # 你学过什么 / 篮球啊 / 打个给我看看: the bare noun phrase answering the user's
            # wh-question is the thing shown (not a reply to a remark: 你还会跳芭蕾舞啊 / 基本功)
            obj, src = self._bare_topic(exchange[1]), exchange[1]
        if obj is None or self._unfit_echo(obj, text):
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
        before = [t.text for t in told.parse.tokens if t.end <= start and t.text.strip()]
        if len(before) >= 2 and before[-2] in self.copulas and is_question_word(before[-1]):
            # 老板这是什么态度 / 京东方是什么公司: the kind a copula question asks is no thing
            # the turn named (什么洗面奶好用 names one)
            return None
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
