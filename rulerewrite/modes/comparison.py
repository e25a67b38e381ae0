"""comparison: 这两个 / 它们 / 哪个更… / 前者 / 后者 resolved over a set from the dialogue."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from rulerewrite.context import Dialogue, Mention, said_mention
from rulerewrite.lexicon import Lexicon
from rulerewrite.lexicon.readers import rule_pattern, rule_words
from rulerewrite.modes.base import State, mode
from rulerewrite.modes.multiturn import (
    HUMAN_TYPES,
    Candidate,
    LoneAnimal,
    MultiTurn,
    Ref,
    ambiguous,
    ask,
    is_question,
    last_exchange,
    lone_animal,
    new_candidate,
    outermost,
    resolved,
    salient,
)

# the dictionary types 他们 may point at as one group
_GROUP_TYPES = frozenset({"person", "human", "org"})
_ORDINAL = {"first": 0, "second": 1, "third": 2, "last": -1}
_NAMED = ("person", "place", "org", "product", "code")
# 6号 / 34号 / 817: a date or a number said in two turns is no pair of compared things
_NUMERIC = re.compile(r"[\d一二三四五六七八九十两]+[号月日天点个次岁]?")


@mode("comparison")
class Comparison:
    """What: a comparison or set reference over things discussed earlier becomes one query that
    names them: 这两个/它们/两者 → "A和B", a bare 哪个更便宜/有什么区别 gets "A和B" in front,
    and 前者/后者/第一个/第二个 pick the right member of the most recent coordinated set
    (A 和 B, A、B 和 C, 有A款和B款两种). With no set, 他们/它们 may still point at one clearly
    salient group (你知道TFBOYS吗 / 他们最火的歌 -> TFBOYS最火的歌); otherwise the user is asked.
    Why: "哪个更好" retrieves nothing; the two names retrieve both products' documents.
    Example: (Model Y 和 小鹏 G6 哪个续航长 / ...) 后者充电快吗 -> 小鹏 G6充电快吗
    """

    def __init__(self, lexicon: Lexicon, config: Any) -> None:
        self.mt = MultiTurn(lexicon, config)
        weak: set[str] = set()
        for r in lexicon.rules.get("comparison", ()):
            weak.update(str(w) for w in r.get("not_alone", []))
        # 还是 / 比较 alone do not make a comparison question (所以家还是在深圳好)
        self.cmp_words = sorted(
            {e.text for e in lexicon.entries_of("fw:comparison")} - weak, key=len, reverse=True
        )
        # does the text hold one of the words (one search instead of a test per word)
        self._cmp_re = re.compile("|".join(map(re.escape, self.cmp_words)) or "(?!)")
        coll = lexicon.rule("comparison", "collective")
        self.collective_kinds = frozenset(coll.get("salient") or ()) if coll else frozenset()
        self.collective_min = float(coll.get("min_score") or 2.0) if coll else 2.0
        # 动物比友谊更重要 / 人是感情动物 / 保护它们: what 它们 may take besides (things_salient)
        self.things_kinds = frozenset(coll.get("things_salient") or ()) if coll else frozenset()
        # 被别人污蔑 / … / 他们误会了我: the others the user's last turn spoke of (``others``)
        self.others_source = coll.source if coll is not None else ""
        # 牛太勤劳善良 / … / 不能杀他们来吃: the one animal the exchange named (rules/coreference.yaml
        # lone_animal plural_pronouns)
        self.animal = LoneAnimal.read(lexicon.rule("coreference", "lone_animal"))
        self.others = tuple(
            sorted((str(w) for w in (coll.get("others") or ())), key=len, reverse=True)
            if coll
            else ()
        )
        # 父母 / 巨蟹男 / 水瓶座: a class of people both speakers just talked about (people_*)
        self.people_kinds = frozenset(coll.get("people_salient") or ()) if coll else frozenset()
        # 西南财大也要归汪雨管了 / … / 他们要是选不出…: a statement still takes a named group
        # that led the user's last turn (``statement_groups``)
        self.statement_groups = rule_words(coll, "statement_groups")
        self.statement_group_kinds = rule_words(coll, "statement_group_salient")
        # 它们家的鸡翅 / 他们家的多多西西: the shop or company the chat is about (``house``)
        house = lexicon.rule("comparison", "house")
        self.house_source = house.source if house is not None else ""
        self.house_after = str(house.get("after") or "") if house is not None else ""
        self.house_kinds = frozenset(house.get("salient") or ()) if house else frozenset()
        self.house_min = float(house.get("min_score") or 2.0) if house else 2.0
        self.house_not_types = frozenset(house.get("not_types") or ()) if house else frozenset()
        self.people_types = frozenset(coll.get("people_types") or ()) if coll else frozenset()
        # 天台的球迷 / 父母 / 大处女座: a group of people, by how the noun ends (people_groups)
        self.people_groups = rule_pattern(coll, "people_groups", ending=True)
        self.people_signs = rule_pattern(coll, "people_signs", ending=True)
        self.counted = rule_pattern(coll, "counted")
        self.counted_by = rule_pattern(coll, "counted_by")
        # 她写了那些诗 / 他经历过那些困难: chat's 那些 for 哪些, ending the query (``which_typo``)
        # 他们 / 她们 after an exchange that named exactly two people (``named_pair``)
        pair = lexicon.rule("comparison", "named_pair")
        self.pair_source = pair.source if pair is not None else ""
        self.pair_pronouns = (
            frozenset(str(w) for w in (pair.get("pronouns") or ())) if pair else frozenset()
        )
        self.pair_types = (
            frozenset(str(w) for w in (pair.get("types") or ())) if pair else frozenset()
        )
        self.pair_female = (
            frozenset(str(w) for w in (pair.get("female") or ())) if pair else frozenset()
        )
        gender = lexicon.rule("coreference", "gender")
        self.male_names = (
            frozenset(str(w) for w in (gender.get("male_names") or ())) if gender else frozenset()
        )
        typo = lexicon.rule("comparison", "which_typo")
        self.typo_source = typo.source if typo is not None else ""
        self.which_typo = rule_pattern(typo, "at_ref")
        # 他结婚了么 / 他们幸福么: 他们 after the 他 the query resolved (``after_one``)
        one = lexicon.rule("comparison", "after_one")
        self.one_source = one.source if one is not None else ""
        self.one_plural = rule_words(one, "pronouns")
        self.one_single = rule_pattern(one, "single")
        self.one_other = rule_pattern(one, "other")
        # 斗破苍穹斗罗大陆武动乾坤都好看 / … / 这些都是好漫画: a list written without 和 (``juxtaposed``)
        jux = lexicon.rule("comparison", "juxtaposed")
        self.jux_source = jux.source if jux is not None else ""
        self.jux_refs = rule_words(jux, "refs")
        self.jux_tags = rule_words(jux, "tags")
        self.jux_min = int(jux.get("min_len") or 3) if jux is not None else 3

    def applies(self, state: State) -> bool:
        return (
            state.has("pronoun")
            or state.has("demonstrative")
            or state.has("fw:comparison")
            or (state.features.has_history and self.mt.asks_which(state.standalone))
        )

    def __call__(self, state: State) -> State:
        if state.decision == "ask_user":
            return state
        text = state.standalone
        refs = [r for r in self.mt.references(text) if r.plural or r.ordinal]
        d = self.mt.dialogue(state)
        if refs:
            out = state
            for ref in sorted(refs, key=lambda r: -r.start):
                out = self._ref(out, d, ref)
                if out.decision == "ask_user":
                    break
            return out
        if not state.history:
            return state
        if not (self._cmp_re.search(text) or self.mt.asks_which(text)):
            return state
        # a bare comparison: the query itself must not name two things already (tested before
        # the text is parsed: a text coreference rewrote is new to the parser)
        named = [m for m in state.matches if m.first("entity") is not None]
        if len(named) >= 2 or "coreference" in state.modes:
            return state
        parse = self.mt.parse(text)
        if not is_question(parse):
            return state  # 看情况不同和材料的选择: a statement, not a comparison to complete
        if any(t.rel == "coo" for t in parse.tokens):
            return state
        group = _latest_set(d)
        if group is None:
            return state
        members, anchor = group
        noun = self.mt.which_noun(text, parse)[0]
        said = d.said(anchor.turn)
        if noun and not (anchor.protected or noun in said):
            return state  # 哪个学校的 after 6号 … 34号: the choice is among schools, not them
        joined = _join(members)
        if joined in text:
            return state
        at = _lead_end(text)
        new = text[:at] + joined + text[at:]
        return resolved(
            state,
            "comparison",
            self.mt.sources.get("bare_comparison", "comparison:bare"),
            new,
            anchor,
            slot="compared",
            note=f"comparison over {joined}",
        )

    def _ref(self, state: State, d: Dialogue, ref: Ref) -> State:
        text = state.standalone
        if (
            ref.kind == "demonstrative"
            and ref.noun
            and not ref.count
            and not self.mt.is_category(ref.noun)
            and ref.noun not in ("个", "款", "种")
        ):
            return state  # 那些激光去过唇毛的妞儿们: 那些 determines a new noun phrase, no set
        group = _latest_set(d, animacy=ref.animacy)
        if (
            group is None
            and ref.kind == "pronoun"
            and self.house_after
            and text.startswith(self.house_after, ref.end)
        ):
            shop = self._house(d, text)
            if shop is not None:  # 麦当劳好吃吗 / 它们家的鸡翅最棒 -> 麦当劳的鸡翅最棒
                end = ref.end + len(self.house_after)
                return resolved(
                    state,
                    "comparison",
                    self.house_source,
                    text[: ref.start] + shop.mention.text + text[end:],
                    shop.mention,
                    slot="referent",
                    note=f"{ref.text}{self.house_after} -> {shop.mention.text} ({shop.why})",
                )
        if group is None and ref.kind == "pronoun" and not ref.count and not ref.ordinal:
            # 他们家 after 同事 is the colleague's home: no group of people stands for it
            home = bool(self.house_after) and text.startswith(self.house_after, ref.end)
            one = (
                self._answered_group(state, d, text)
                or self._collective(d, text, ref.animacy, groups=not home)
                or (self._others_said(d, text) if ref.animacy == "human" and not home else None)
                or (
                    self._animal(state, d, text)
                    if ref.text in self.animal.plural_pronouns
                    else None
                )
            )
            if one is not None:  # 你知道EXO吗 / 他们最火的歌是什么 -> EXO最火的歌是什么
                return resolved(
                    state,
                    "comparison",
                    ref.source,
                    text[: ref.start] + one.mention.text + text[ref.end :],
                    one.mention,
                    slot="referent",
                    note=f"{ref.text} -> {one.mention.text} (one group: {one.why})",
                )
        if group is None and ref.text in self.pair_pronouns:
            pair = self._named_pair(d, ref)
            if pair is not None:  # 张志明…余春娇 / 他们开心就好 -> 张志明和余春娇开心就好
                value = _join(tuple(m.text for m in pair))
                return resolved(
                    state,
                    "comparison",
                    self.pair_source,
                    text[: ref.start] + value + text[ref.end :],
                    pair[-1],
                    slot="compared",
                    note=f"{ref.text} -> {value} (the two people the last exchange named)",
                )
        if group is None and self.which_typo is not None and self.which_typo.match(text, ref.start):
            # 她写了那些诗: with no set to point at, 那些 + a noun ending the query asks which
            # (哪些), or names a new noun phrase: nothing to resolve, nothing to ask back
            return state.note("comparison", self.typo_source, f"{ref.text}: 哪些, no set reference")
        if group is None and ref.text in self.jux_refs and not ref.noun:
            run = self._juxtaposed(state, d)
            if run is not None:  # 打篮球乒乓球 / … / 你会这些吗 -> 你会打篮球乒乓球吗
                return resolved(
                    state,
                    "comparison",
                    self.jux_source,
                    text[: ref.start] + run.text + text[ref.end :],
                    run,
                    slot="compared",
                    note=f"{ref.text} -> {run.text} (a list written without 和)",
                )
        if group is None and ref.text in self.one_plural and self._after_one(state, ref):
            # 他结婚了么 新娘美么 他们幸福么: the person the query resolved and someone it tells of
            return state.note("comparison", self.one_source, f"{ref.text}: {self.one_note}")
        if group is None and ref.kind == "pronoun" and ref.text in text[: ref.start]:
            # 他们家的多多西西是我的新伙伴呢喜欢他们: the first 他们 of the query says who they
            # are (it is resolved or asked about on its own); a repeat is left as it is
            return state.note(
                "comparison", ref.source, f"{ref.text}: repeats an earlier {ref.text}"
            )
        if group is None:
            return ask(
                state,
                "comparison",
                ref.source,
                question=f"“{ref.text}”指的是哪几个？请说出具体名称。",
                missing=("compared",),
                note=f"{ref.text}: no set of candidates in the dialogue window",
            )
        members, anchor = group
        if ref.kind == "demonstrative" and self._other_kind(ref.noun, anchor):
            # 我喜欢周杰伦和林俊杰 / … / 他们唱过那些歌: songs are not the singers; 那些 starts a
            # new noun phrase (or asks which, 哪些) and is left as it is
            return state.note("comparison", ref.source, f"{ref.text}{ref.noun}: not {anchor.text}")
        if ref.ordinal:
            idx = _ORDINAL[ref.refers or "first"]
            if idx >= len(members):
                return ask(
                    state,
                    "comparison",
                    ref.source,
                    question=f"只提到了{_join(members)}，“{ref.text}”指的是哪个？",
                    missing=("referent",),
                    note=f"{ref.text}: the set has {len(members)} members",
                )
            value = members[idx]
        else:
            if ref.count and ref.count != len(members) and ref.count >= 2:
                members = members[: ref.count] if ref.count < len(members) else members
            value = _join(members)
            if ref.text.endswith("都"):
                value += "都"  # 两个都需要 -> A和B都需要
        if self.mt.references(value):
            # a member that itself holds a reference (三者AirPods Max) would leave one behind:
            # rewriting the result again would change it again
            return state.note("comparison", ref.source, f"{ref.text}: the set refers elsewhere")
        # 这两款 / 这两个人 / 这两款手机 -> A和B: the set names them, a kind noun after the
        # demonstrative goes with it (A和B人 would not read)
        cover = ref.noun and (ref.noun in ("个", "款", "种") or self.mt.is_category(ref.noun))
        end = ref.noun_end if cover else ref.end
        new = text[: ref.start] + value + text[end:]
        return resolved(
            state,
            "comparison",
            ref.source,
            new,
            anchor,
            slot="compared" if not ref.ordinal else "referent",
            note=f"{ref.text} -> {value}",
        )

    one_note = "the person the query already resolved and another, left as it is"

    def _juxtaposed(self, state: State, d: Dialogue) -> Mention | None:
        """What: the one run of at least two adjacent nouns (rules/comparison.yaml ``juxtaposed``
        ``tags``), each at least ``min_len`` characters, in a turn of the last exchange (the
        reply first), as a mention of that turn.
        Why: chat lists things side by side without 和 or 、 (斗破苍穹斗罗大陆武动乾坤), so no set
        is found and 这些 would be asked back, though the list is plain to read. Short nouns are
        left out: two-character nouns side by side are mostly one compound (电脑键盘).
        Example: 对啊打篮球乒乓球 / 超人啊都会 / 你呢会这些嘛 -> 打篮球乒乓球; 电脑键盘坏了 -> None."""
        exchange = last_exchange(state, d)
        if exchange is None:
            return None
        for ti in (exchange[1], exchange[0]):
            content = ti.turn.content
            runs: list[list[tuple[int, int]]] = [[]]
            for t in self.mt.parse(content).tokens:
                if t.pos not in self.jux_tags or len(t.text) < self.jux_min:
                    runs.append([])
                elif runs[-1] and runs[-1][-1][1] != t.start:
                    runs.append([(t.start, t.end)])
                else:
                    runs[-1].append((t.start, t.end))
            lists = [r for r in runs if len(r) >= 2]
            if len(lists) == 1:
                a, b = lists[0][0][0], lists[0][-1][1]
                return said_mention(content[a:b], "thing", ti.turn, "obj", a, self.jux_source)
        return None

    def _after_one(self, state: State, ref: Ref) -> bool:
        """What: the user's query said a singular 他 / 她 (rules/comparison.yaml ``after_one``
        ``single``), then someone else (``other``: 新娘 / 女朋友), then this 他们 / 她们, and
        coreference resolved the 他.
        Why: such a query speaks of that person and someone it brings in itself (his bride, her
        friends); no set of the dialogue is meant, so asking back would throw away the resolved
        他 as well. Without the other person (他升职了么 他们还好么) 他们 is still asked.
        Example: 前男友都出来了 / 他结婚了么 新娘美么 他们幸福么 -> True; 他们幸福么 alone -> False."""
        if self.one_single is None or self.one_other is None:
            return False
        q = state.query
        at = q.find(ref.text)
        single = self.one_single.search(q, 0, at) if at > 0 else None
        if single is None or not self.one_other.search(q, single.end(), at):
            return False
        return any(st.mode == "coreference" and st.status == "applied" for st in state.trace)

    def _other_kind(self, noun: str, anchor: Mention) -> bool:
        """这些**歌** after a set of singers: the kind noun after a demonstrative names things of
        another animacy than the set's members (a person noun for a set of things, or a noun of
        things for a set of persons), so the set is not what it points at."""
        kinds = self.mt.category_types.get(noun) if noun else None
        if not kinds or not anchor.etype:
            return False
        human = anchor.etype in HUMAN_TYPES
        return kinds.isdisjoint(HUMAN_TYPES) if human else kinds <= HUMAN_TYPES

    def _named_pair(self, d: Dialogue, ref: Ref) -> tuple[Mention, Mention] | None:
        """The two people 他们 / 她们 point at when no set was said (rules/comparison.yaml
        ``named_pair``): the last exchange names exactly two distinct people, by name (a
        dictionary person or a name jieba tags), in the order said, none of them a known man
        for 她们, and the query names neither. None otherwise: the engine asks which ones."""
        window = {ti.turn.index for ti in d.turns[-2:]}
        named: list[Mention] = []
        for ti in d.turns:
            if ti.turn.index not in window:
                continue
            for m in sorted(ti.mentions, key=lambda m: m.start):
                if m.is_set or m.etype not in self.pair_types:
                    continue
                if any(m.text == x.text or m.text in x.text or x.text in m.text for x in named):
                    continue
                named.append(m)
        if len(named) != 2:
            return None
        if ref.text in self.pair_female and any(m.text in self.male_names for m in named):
            return None
        return named[0], named[1]

    def _answered_group(self, state: State, d: Dialogue, text: str) -> Candidate | None:
        """The assistant's bare answer to the user's which/what question is the group 他们 /
        它们 point at (八月十五什么星座 / 狮子座 / 他们特别要面子 -> 狮子座特别要面子)."""
        m = self.mt.answer_mention(state, d, text)
        return new_candidate(m, 10.0, "answer to a question") if m is not None else None

    def _others_said(self, d: Dialogue, text: str) -> Candidate | None:
        """The others (rules/comparison.yaml collective ``others``: 别人 / 周围人) the user's last
        turn spoke of, when it says exactly one such word and the query none: 他们 with no
        group named is those people (被别人污蔑 / … / 他们误会了我 -> 别人误会了我). None
        otherwise."""
        lu = d.last_user()
        if lu is None or not self.others or any(w in text for w in self.others):
            return None
        said = lu.turn.content
        found = {w for w in self.others if w in said}
        # a longer word holds a shorter one (周围的人 / 别人 is no pair): keep the longest
        words = [w for w in found if not any(w != o and w in o for o in found)]
        if len(words) != 1:
            return None
        w = words[0]
        m = said_mention(w, "human", lu.turn, "obj", said.find(w), self.others_source)
        return new_candidate(m, self.collective_min, "the others the user spoke of")

    def _animal(self, state: State, d: Dialogue, text: str) -> Candidate | None:
        """The one kind of animal the last exchange named (multiturn :func:`lone_animal`), for
        它们 / 他们 with no group named (牛太勤劳善良 / … / 不能杀他们来吃 -> 不能杀牛来吃)."""
        m = lone_animal(state, d, text, self.animal)
        return new_candidate(m, self.collective_min, "the one animal named") if m else None

    def _house(self, d: Dialogue, text: str) -> Candidate | None:
        """The shop, brand or company 他们家 / 它们家 points at (rules/comparison.yaml
        ``house``): the best candidate of the last exchange, of any tag (jieba tags 麦当劳 a name),
        salient in one of the ``salient`` ways, scoring ``min_score``, none of ``not_types``
        (a family's people: 父母 / 同事) and not rivalled. None otherwise."""
        return self.mt.house(
            d,
            text=text,
            min_score=self.house_min,
            kinds=self.house_kinds,
            not_types=self.house_not_types,
        )

    def _collective(
        self, d: Dialogue, text: str, animacy: str | None, *, groups: bool = True
    ) -> Candidate | None:
        """The one clearly salient group 他们 / 它们 may point at when no set was said
        (rules/comparison.yaml ``collective``; ``groups``: else the one group of people the last
        exchange names, ``people_groups``), or None."""
        kinds = self.collective_kinds
        if animacy == "nonhuman":
            kinds = kinds | self.things_kinds
        statement = self.mt.is_statement(text)
        if statement:
            # a narrative statement: only a topic or a dictionary entity, as for 他 / 它
            kinds = kinds & self.mt.statement_kinds
        people = animacy == "human"
        if not kinds and not (people and self.people_kinds) and not statement:
            return None
        ranked = self.mt.rank(d, text=text, animacy="nonhuman" if not people else None)
        cands = [
            c
            for c in ranked
            if (
                salient(c, kinds)
                # 西南财大…/ 他们要是选不出…: a named group the user's last turn led with
                or (
                    statement
                    and c.mention.etype in self.statement_groups
                    and salient(c, self.statement_group_kinds)
                )
                # 父母 / 为什么提父母 / 他们不在意我: people the last exchange is about
                or (
                    people
                    and c.mention.etype in self.people_types
                    and salient(c, self.people_kinds)
                )
            )
            and c.score >= self.collective_min
            and c.mention.etype != "place"  # a group of people or things, not where they are
            # 他们 is people, a band or a team: never a product or a drug of the dictionaries
            and not (people and c.mention.protected and c.mention.etype not in _GROUP_TYPES)
        ]
        if not cands or ambiguous(cands, d) or self.mt.references(cands[0].mention.text):
            return self._people_group(d, ranked) if people and groups else None
        return cands[0]

    def _people_group(self, d: Dialogue, ranked: list[Candidate]) -> Candidate | None:
        """The one group of people the last exchange names (rules/comparison.yaml
        ``collective`` ``people_groups``: 天台的球迷 / 父母 / 处女座, whatever they were typed),
        scoring ``min_score``, among the candidates ``ranked`` for 他们 (no animacy filter);
        None when there is none or more than one (a noun inside another, 球迷 in 天台的球迷, is
        the same group)."""
        if self.people_groups is None and self.people_signs is None:
            return None
        window = {ti.turn.index for ti in d.turns[-2:]}
        found: dict[str, Candidate] = {}
        for c in ranked:
            m = c.mention
            if m.turn not in window or m.is_set or c.score < self.collective_min:
                continue
            sign = self.people_signs.search(m.text) if self.people_signs is not None else None
            if sign is not None:  # 大处女座 -> 处女座: the sign is the group
                if sign.group() != m.text:
                    c = new_candidate(
                        replace(
                            m,
                            text=sign.group(),
                            head=sign.group(),
                            etype="zodiac",
                            start=m.start + sign.start(),
                            end=m.start + sign.end(),
                        ),
                        c.score,
                        c.why,
                    )
            elif (
                len(m.text) < 2
                or self.people_groups is None
                or not self.people_groups.search(m.text)
                or self.mt.references(m.text)  # 我们 / 他们 point elsewhere themselves
            ):
                continue
            found.setdefault(c.mention.text, c)
        groups = outermost(list(found))
        return self._counted_by(d, found[groups[0]]) if len(groups) == 1 else None

    def _counted_by(self, d: Dialogue, c: Candidate) -> Candidate:
        """``c`` with the short 的-phrase its turn opens with right before it, when it is a
        counted group (rules/comparison.yaml ``collective`` ``counted`` / ``counted_by``: 我最讨厌的
        + 两个人). Why: 两个人 alone says how many, not who (我最讨厌的两个人 / 再说具体点 /
        他们伤害过我 -> 我最讨厌的两个人伤害过我). Else ``c`` as it is."""
        m = c.mention
        ti = d.turn_at(m.turn)
        if self.counted is None or self.counted_by is None or ti is None:
            return c
        before = ti.turn.content[: m.start]
        if not self.counted.match(m.text) or not self.counted_by.match(before):
            return c
        return new_candidate(
            replace(m, text=before + m.text, start=0), c.score, c.why + ", counted by " + before
        )


def _join(members: tuple[str, ...]) -> str:
    if len(members) <= 2:
        return "和".join(members)
    return "、".join(members[:-1]) + "和" + members[-1]


def _latest_set(
    d: Dialogue, *, animacy: str | None = None
) -> tuple[tuple[str, ...], Mention] | None:
    """The most recent coordinated set; else the two most recent distinct named mentions of one
    type said in different turns (A 怎么样 … B 呢 … 这两个哪个好), persons (or organisations)
    for 他们, no persons for 它们, never bare numbers or dates."""
    for ti in reversed(d.turns):
        for m in ti.mentions:
            if m.is_set:
                return m.members, m
    named: list[Mention] = []
    for m in d.mentions():
        if m.is_set or not (m.protected or m.etype in _NAMED):
            continue
        if _NUMERIC.fullmatch(m.text):
            continue
        human = m.etype in HUMAN_TYPES or m.etype == "org"
        if (animacy == "human" and not human) or (animacy == "nonhuman" and m.etype in HUMAN_TYPES):
            continue
        if not m.protected and m.role != "user":
            continue  # an assistant's passing mention (用 EXPIRE 命令) is not a compared thing
        if any(m.text == x.text or m.text in x.text or x.text in m.text for x in named):
            continue
        if named and m.etype != named[0].etype:
            continue
        named.append(m)
        if len(named) == 2:
            break
    if len(named) == 2 and named[0].turn != named[1].turn:
        older, newer = sorted(named, key=lambda m: (m.turn, m.start))
        return (older.text, newer.text), newer
    return None


def _lead_end(text: str) -> int:
    for w in ("那么", "那", "所以", "那请问", "请问"):
        if text.startswith(w):
            return len(w)
    return 0
