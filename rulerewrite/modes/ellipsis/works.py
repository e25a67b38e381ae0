"""Works, titles and typed topics: 这首歌 / 作者是谁, a title said with 《》, a typed comment (好听 goes with
songs)."""

from __future__ import annotations

import re

from rulerewrite.context import Dialogue, Mention, TurnInfo, said_mention
from rulerewrite.modes.base import State
from rulerewrite.modes.ellipsis.common import (
    _CLAUSES,
    _NOUN_PHRASE_KINDS,
    _is_pronounish,
    _resolved_from,
    _topic_first,
)
from rulerewrite.modes.ellipsis.state import _State
from rulerewrite.modes.multiturn import HUMAN_TYPES, last_exchange, outermost
from rulerewrite.text.builtin_parser import is_question_word, kind_of
from rulerewrite.text.parse import Parse


class _Works(_State):
    """Works, titles and typed topics: 这首歌 / 作者是谁, a title said with 《》, a typed comment (好听 goes
    with songs)."""

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
