"""Shared machinery of the multi-turn modes (coreference, ellipsis, comparison); not a mode.

- :class:`MultiTurn` is built once per mode instance: the context analyzer (window, chit-chat
  drop, entities of the history, cached parses), the referring expressions of the packs
  (pronouns/demonstratives with number/animacy/refers/count), the type hints and the
  completeness word lists of ``rules/completeness.yaml``.
- :meth:`MultiTurn.dialogue` caches the analysed window in ``state.scratch`` so the three modes
  share one analysis per rewrite.
- :meth:`MultiTurn.references` finds the referring expressions of the current text, on word
  boundaries (他 inside 其他 is not a pronoun).
- :meth:`MultiTurn.rank` orders antecedent candidates by agreement, salience and recency.
- :func:`ask` / :func:`resolved` build the resulting states.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from typing import Any, NamedTuple, TypeVar

from rulerewrite.context import (
    UNKNOWN_TYPES,
    ContextAnalyzer,
    Dialogue,
    Mention,
    Turn,
    TurnInfo,
    long_enough,
    new_mention,
    said_mention,
)
from rulerewrite.fastinit import fast_init, fast_replace
from rulerewrite.lexicon import Lexicon, Rule
from rulerewrite.lexicon.readers import required_text, rule_pattern, rule_tuple, rule_words
from rulerewrite.memo import FifoMemo
from rulerewrite.modes.base import State
from rulerewrite.result import new_entity, new_step
from rulerewrite.text.builtin_parser import is_question_word, kind_of, may_end_name
from rulerewrite.text.parse import Parse

HUMAN_TYPES = frozenset({"person", "human"})
NAMED_TYPES = frozenset(
    {"person", "place", "org", "product", "code", "system", "drug", "plan", "department"}
)
ATTRIBUTE_TYPES = frozenset(
    {"term"}
)  # dictionary entities that name an attribute (等待期)  # untyped phrases may still name a person


# a pronoun names a person (你的照片); who receives after a verb of giving (送你月饼)
PERSON_PRONOUNS = frozenset({"你", "您", "我", "你们", "我们", "他", "她", "它", "他们", "她们"})
RECIPIENTS = frozenset({"我", "你", "他", "她", "我们", "你们"})
_GOES_ON = frozenset(("NOUN", "ADJ", "DE"))  # what a noun phrase goes on with
_POTENTIAL_MARKS = frozenset("不得")  # 听不懂 / 看得懂: a verb and its potential complement


@dataclass(frozen=True, slots=True)
class Ref:
    """A referring expression in the current text (offsets on ``state.standalone``)."""

    start: int
    end: int
    text: str
    kind: str  # pronoun | demonstrative
    number: str | None
    animacy: str | None
    refers: str | None
    count: int | None
    source: str
    noun: str = ""  # the noun a demonstrative determines (这款手机 -> 手机), if any
    noun_end: int = 0
    etype: str | None = None  # 那里 -> a place

    @property
    def plural(self) -> bool:
        return self.number == "plural" or self.refers == "all" or (self.count or 0) >= 2

    @property
    def ordinal(self) -> bool:
        return self.refers in ("first", "second", "third", "last")


@dataclass(frozen=True, slots=True)
class Candidate:
    mention: Mention
    score: float
    why: str


# Candidate(mention, score, why) without the frozen __init__ (rank makes one per candidate of
# every call)
new_candidate = fast_init(Candidate)


class MultiTurn:
    """Build once per mode (``MultiTurn(lexicon, config)``); every method is per-rewrite cheap."""

    def __init__(self, lexicon: Lexicon, config: Any) -> None:
        self.lexicon = lexicon
        # one analyzer (parser, parse and turn caches), one reference cache and one pool cache
        # shared by the modes of one Rewriter (each mode builds its own MultiTurn)
        shared: dict[Any, _Shared] = lexicon.__dict__.setdefault("_multiturn", {})
        key = (config.window, config.parser, config.hanlp_model)
        entry = shared.get(key)
        if entry is None:
            parser = _hanlp_parser(lexicon, config) if config.parser == "hanlp" else None
            analyzer = ContextAnalyzer(lexicon, window=config.window, parser=parser)
            entry = shared[key] = _Shared(analyzer)
        self.analyzer = entry.analyzer
        # every dictionary key of a pronoun or demonstrative, as the automaton holds it: a
        # normalised text none of them occurs in has no such hit (one regex search instead of
        # a full dictionary match of a text no one matched before)
        ref_keys: set[str] = set()
        for kind in ("pronoun", "demonstrative"):
            for e in lexicon.entries_of(kind):
                k = lexicon.normalizer(e.text).text
                ref_keys.update((k, k.replace(" ", "")))
        ref_keys.discard("")
        self._ref_keys = re.compile(
            "|".join(re.escape(k) for k in sorted(ref_keys, key=len, reverse=True)) or "(?!)"
        )
        if entry.refs is None:
            entry.refs = lru_cache(maxsize=4096)(self._references)
        self._refs = entry.refs
        # the candidate pool of a window (its mentions, shared spans, owners of attributes and
        # the parts of their scores that depend on the window alone), built once per distinct
        # window and reused by every mode and every reference
        self._pools = entry.pools
        # the longest common stretch of two turn texts and the topic span it gives in the later
        # one (shared_spans), per pair of texts: a turn pair recurs as the window slides
        self._shared_pair = entry.shared_pair
        self.parser = self.analyzer.parser
        self._attribute_memo = lru_cache(maxsize=8192)(self._attribute_of_uncached)
        self._hinted = lru_cache(maxsize=4096)(self._hinted_uncached)
        # the hinted types alone, as rank reads them (a set per text, never handed out)
        self._hint_types = lru_cache(maxsize=4096)(self._hint_types_uncached)
        # the 2-character stretches of a turn's text (shared_spans' quick test), per text
        self._bigrams = lru_cache(maxsize=4096)(_bigrams)
        self.type_hints: list[tuple[str, tuple[str, ...], str]] = []
        self.words: dict[str, frozenset[str]] = {}
        self.patterns: dict[str, tuple[re.Pattern[str], str]] = {}
        self.sources: dict[str, str] = {}
        self.values: dict[str, Any] = {}
        for r in lexicon.rules.get("completeness", ()):
            self.sources[r.id] = r.source
            if r.id in ("thresholds", "ask_attributes") and r.get("type"):
                self.values["ask_type"] = r.get("type")
            if r.id == "thresholds":
                self.values.update(r.data)
            if r.get("type_hint"):
                self.type_hints.append(
                    (str(r.get("type_hint")), tuple(r.get("words", [])), r.source)
                )
            elif r.get("words"):
                self.words[r.id] = frozenset(str(w) for w in r.get("words"))
            if r.pattern is not None:
                self.patterns[r.id] = (r.pattern, r.source)
        # a dream the user began to tell and goes on telling (narrated)
        told = lexicon.rule("completeness", "narrative_frame")
        self.narrative = told.pattern if told is not None else None
        self.narrative_verbs = tuple(str(v) for v in (told.get("verbs") or ())) if told else ()
        self.narrative_not_first = (
            tuple(str(v) for v in (told.get("not_first") or ())) if told else ()
        )
        # fragments that never fill a gap (78 / so / 一下好像是), one regex for every rank call
        self.not_antecedent = self.patterns.get("not_antecedent", (None, ""))[0]
        # what a name plus a word is not a compound name with (杭州天气 / 三体作者 / 小米价格)
        self.attribute_words = frozenset(self.words.get("attribute_nouns", ())) | frozenset(
            w for _t, ws, _s in self.type_hints for w in ws
        )
        self.attribute_openers = tuple(sorted(self.attribute_words))  # for str.startswith
        # what follows a name in a numbered version of it (小米 / 小米8: rules/context.yaml
        # version_suffix): merge_nested keeps the version
        vs = lexicon.rule("context", "version_suffix")
        self.version_suffix = vs.pattern if vs is not None else None
        # dictionary names that are a referent of their own (rules/context.yaml entity_phrase
        # types: persons, works), case-folded: merge_nested keeps one the user said whole
        own_types = self.analyzer.own_phrase_types
        self.own_names = frozenset(
            e.text.casefold() for e in lexicon.entries_of("entity") if e.etype in own_types
        )
        self.attribute_heads = sorted(
            self.words.get("attribute_nouns", frozenset()), key=len, reverse=True
        )
        # the longest attribute noun a phrase ends with, in one regex search
        self._attr_end = re.compile(
            "(?:" + "|".join(re.escape(a) for a in self.attribute_heads) + ")$"
            if self.attribute_heads
            else "(?!)"
        )
        self.which = [
            r.pattern for r in lexicon.rules.get("comparison", ()) if r.pattern is not None
        ]
        self._hint_res = [
            (t, re.compile("|".join(re.escape(w) for w in sorted(ws, key=len, reverse=True))), s)
            for t, ws, s in self.type_hints
            if ws
        ]
        self.extra_refs: list[tuple[re.Pattern[str], dict[str, Any], str]] = []
        self.category_nouns: frozenset[str] = frozenset()
        self.category_types: dict[str, set[str]] = {}
        self.category_endings: dict[str, tuple[str, ...]] = {}
        self.coref_values: dict[str, Any] = {}
        for r in lexicon.rules.get("coreference", ()):
            self.sources[r.id] = r.source
            if r.id == "thresholds":
                self.coref_values.update(r.data)
            if r.pattern is not None and r.get("number") is not None:
                self.extra_refs.append((r.pattern, dict(r.data), r.source))
            elif r.id == "category_nouns":
                for etype, words in (r.get("types") or {}).items():
                    for w in words:
                        self.category_types.setdefault(str(w), set()).add(str(etype))
                self.category_nouns = frozenset(self.category_types)
                self.category_endings = {
                    str(etype): tuple(str(e) for e in ends)
                    for etype, ends in (r.get("endings") or {}).items()
                }
            elif r.get("words"):
                self.words[r.id] = frozenset(str(w) for w in r.get("words"))
        # the strings one of which every match of some extra reference pattern holds (这 / 那 /
        # 当地 ...: readers.required_text), in one search; None when a pattern has none
        needs = [required_text(pat) for pat, _d, _s in self.extra_refs]
        self._extra_needs = (
            re.compile("|".join(n.pattern for n in needs if n is not None) or "(?!)")
            if all(n is not None for n in needs)
            else None
        )
        # the object a verb had in the last exchange (``verb_object``): its longest length, the
        # mood words jieba joins to a verb (爱看: rules/completeness.yaml dangling_verbs
        # echo_moods) and the verbs of giving, which take who receives before it (送你月饼)
        vo = lexicon.rule("completeness", "verb_object")
        self.vo_max = int((vo.get("max_object") if vo else 0) or 8)
        dangling = lexicon.rule("completeness", "dangling_verbs")
        self.echo_moods = frozenset("".join((dangling.get("echo_moods") or ()) if dangling else ()))
        # the aspect words after a verb (dangling_verbs ``aspects``: 了 / 过 / 着)
        self.aspects = rule_words(dangling, "aspects")
        self.vo_give = self.wordset("give_verbs")
        self.vo_counts = frozenset(str(w) for w in ((vo.get("work_counts") or ()) if vo else ()))
        self.vo_complements = frozenset(
            str(w) for w in ((vo.get("complements") or ()) if vo else ())
        )
        # what-kind words between a verb and its object (看什么球赛: 球赛 is what 看 takes) and
        # potential complements jieba cuts off the verb (发/不了/红包: 红包 is what 发 takes)
        self.vo_asked_kinds = rule_words(vo, "asked_kinds")
        # 吃什么 asks for an object, 是什么 / 有什么 for none (:meth:`asked_object`)
        self.vo_asked_what = rule_words(vo, "asked_what")
        self.vo_asked_not_verbs = rule_words(vo, "asked_not_verbs")
        # a negation jieba joins to the verb (没用过 / 不玩: ``open_negations``)
        self.vo_negations = rule_words(vo, "open_negations")
        self.vo_potential = rule_words(vo, "potential_after")
        # 自身修养: a reflexive word jieba tags a pronoun opens a noun phrase before a noun
        self.vo_reflexive = rule_words(vo, "reflexive_modifiers")
        # 喜欢冬天: a season or holiday jieba tags a time word is a noun after a verb
        self.vo_times = rule_words(vo, "object_times")
        self.vo_having = rule_words(vo, "having")  # 没充电宝 / 我有: one verb before a noun
        self.vo_having_query = rule_words(vo, "having_query")
        games = (vo.get("bound_games") if vo else None) or {}
        self.vo_games = {str(v): tuple(str(w) for w in ws) for v, ws in games.items()}
        titles = sorted(self.wordset("title_hints"), key=len, reverse=True)
        self._title_re = re.compile("|".join(map(re.escape, titles)) or "(?!)")
        # a narrative statement (rules/coreference.yaml thresholds): longer than statement_len
        # and asking nothing; its pronouns take only antecedents of statement_salient kinds
        self.statement_len = int(self.coref_values.get("statement_len", 10_000))
        self.statement_kinds = frozenset(
            self.coref_values.get("statement_salient", ["topic", "entity"])
        )

    # -- per rewrite -----------------------------------------------------------------------------

    def clear_memos(self) -> None:
        """Empty the memos that are not ``functools.lru_cache`` s (for cold benchmarks)."""
        self._pools.clear()
        self._shared_pair.clear()

    def dialogue(self, state: State) -> Dialogue:
        d = state.scratch.get("dialogue")
        if isinstance(d, Dialogue):
            return d
        # analysed on first read: a mode that builds the window and returns before looking at
        # it (nothing to resolve) costs no analysis of the history turns
        d = self.analyzer.dialogue(state.history, lazy=True)
        state.scratch["dialogue"] = d  # scratch is per-rewrite; modes share the analysis
        return d

    def parse(self, text: str) -> Parse:
        return self.parser.parse(text)

    def wordset(self, rule_id: str) -> frozenset[str]:
        return self.words.get(rule_id, frozenset())

    def references(self, text: str, parse: Parse | None = None) -> list[Ref]:
        """Pronouns and demonstratives of ``text`` that start and end on word boundaries
        (``parse``, the text's parse, is not needed: it is made when there is one to check)."""
        return list(self._refs(text))

    def _references(self, text: str) -> tuple[Ref, ...]:
        norm = self.lexicon.normalizer(text)
        if (
            self._ref_keys.search(norm.text) is None
            or not any(
                m.first("pronoun") or m.first("demonstrative") for m in self.lexicon.match(norm)
            )
        ) and not self.extra_hit(text):
            return ()  # no candidate at all: no need to parse the text (a rewritten one is new)
        parse = self.parse(text)
        starts = {t.start for t in parse.tokens}
        ends = {t.end for t in parse.tokens}
        out: list[Ref] = []
        for m in self.lexicon.match(norm):
            e = m.first("pronoun") or m.first("demonstrative")
            if e is None:
                continue
            s, en = norm.to_original(m.start, m.end)
            if s not in starts:
                continue
            if en not in ends:
                # 他的 / 这款手机: the pronoun may end inside a token only if jieba glued a noun
                tok = next((t for t in parse.tokens if t.start == s), None)
                over = next((t for t in parse.tokens if t.start < en < t.end), None)
                if not (
                    (tok is not None and self._glued_ok(tok.text, text[s:en]))
                    # 这/本书: the segmenter cut inside the demonstrative; the noun finishes it
                    or (over is not None and text[en : over.end] in self.category_nouns)
                ):
                    continue
            cnt = e.feature("count")
            out.append(
                Ref(
                    s,
                    en,
                    text[s:en],
                    e.kind,
                    e.feature("number"),
                    e.feature("animacy"),
                    e.feature("refers"),
                    int(cnt) if cnt else None,
                    e.source,
                )
            )
        for pat, data, src in self.extra_refs if self._may_extra(text) else ():
            for mm in pat.finditer(text):
                s, en = mm.span("ref") if "ref" in pat.groupindex else mm.span()
                if any(r.start < en and s < r.end for r in out):
                    continue
                out.append(
                    Ref(
                        s,
                        en,
                        text[s:en],
                        "demonstrative",
                        data.get("number"),
                        data.get("animacy"),
                        data.get("refers"),
                        None,
                        src,
                        etype=data.get("type"),
                    )
                )
        out.sort(key=lambda r: r.start)
        return tuple(self._with_noun(r, text, parse) for r in out)

    def extra_hit(self, text: str) -> bool:
        """What: whether one of the extra reference patterns (rules/coreference.yaml rules
        with a ``number``: 这是… / 那里 / 当地 …) matches somewhere in ``text``.
        Why: the fourteen patterns are searched in every text that holds no dictionary
        pronoun (~10 us, most of a rewritten text's reference search); a text holding none of
        the strings every match needs (``_may_extra``) is not searched with them.
        Example: 定期寿险的保障范围呢 holds no 这 / 那 / 当地 …: False, without a search."""
        if not self._may_extra(text):
            return False
        return any(pat.search(text) for pat, _data, _src in self.extra_refs)

    def _may_extra(self, text: str) -> bool:
        """Whether ``text`` holds a string some extra reference pattern needs (always, when a
        pattern needs none: see ``_extra_needs``)."""
        needs = self._extra_needs
        return needs is None or needs.search(text) is not None

    def _glued_ok(self, token: str, ref: str) -> bool:
        """jieba may glue a demonstrative to its noun (该市, 这款手机): accept when the rest of
        the token is 的 or a category noun, or 家 after 他 / 她 / 它 (他家: coreference
        ``house_pronoun``); 其他 / 其它 are not 其 + 他."""
        rest = token[len(ref) :]
        return token.startswith(ref) and (
            rest == "的" or rest in self.category_nouns or (rest == "家" and ref in _HOUSE_REFS)
        )

    def _category_span(self, word: str, after: str) -> tuple[int, int]:
        """Where the noun a demonstrative determines lies in the word jieba made of it: the
        whole word, or a category noun inside it, after a measure word glued to it (首歌 -> 歌),
        or before characters that make a word with the next token (这部动漫画风: 动漫 + 画风;
        动画片 stays whole)."""
        if word in self.category_nouns:
            return 0, len(word)
        if len(word) >= 2 and word[0] in _MEASURES and word[1:] in self.category_nouns:
            return 1, len(word)
        seg = self.analyzer.lexicon.segmenter
        for k in (3, 2):
            if len(word) > k and word[:k] in self.category_nouns and seg.freq(word[k:] + after):
                return 0, k
        if (
            len(word) == 2
            and word[0] in self.category_nouns
            and seg.freq(word[1])
            and after[:1] in _VERB_AFTER
        ):
            return 0, 1  # 这本书写的 / 这首歌唱得: jieba made 书写 / 歌唱 of the noun and its verb
        return 0, len(word)

    def _with_noun(self, r: Ref, text: str, parse: Parse) -> Ref:
        if r.kind != "demonstrative":
            return r
        toks = parse.tokens
        for k, t in enumerate(toks):
            if t.start < r.end < t.end:  # glued: 该市
                rest = t.text[r.end - t.start :]
                if rest in self.category_nouns:
                    return _ref_with(r, noun=rest, noun_end=t.end)
                return r
            if (
                t.start == r.end
                and kind_of(t.pos, t.text) == "ADJ"
                and k + 1 < len(toks)
                and toks[k + 1].start == t.end
                and kind_of(toks[k + 1].pos, toks[k + 1].text) == "NOUN"
            ):
                # 那个小loli / 这种萌萌哒稀饭: the demonstrative determines its own noun phrase
                return _ref_with(r, noun=toks[k + 1].text, noun_end=toks[k + 1].end)
            if t.start >= r.end and text[r.end : t.start].strip() == "":
                # 这个费用多少: the noun may be the parse's root when no verb follows
                if (
                    kind_of(t.pos, t.text) == "NOUN"
                    and (t.rel != "root" or t.end < len(text))
                    and not _ASKING.search(t.text)  # 这个多久能办好: 多久能办好 is no noun
                ):
                    after = toks[k + 1].text if k + 1 < len(toks) else ""
                    a, b = self._category_span(t.text, after)
                    return _ref_with(r, noun=t.text[a:b], noun_end=t.start + b)
                break
        return r

    def is_category(self, noun: str) -> bool:
        """这款**手机** / 这家**公司** / 这个**药**: a noun that names the kind, not the thing."""
        return noun in self.category_nouns

    def verb_object(
        self, turns: Sequence[TurnInfo], verbs: Sequence[str], *, query: str, kinds: bool = True
    ) -> tuple[str, TurnInfo] | None:
        """The object verb ``verbs[0]`` had in ``turns`` (the last exchange, the reply first;
        rules/completeness.yaml ``verb_object``: 我在吃辣条 -> 辣条 for 吃), failing it the object of
        one of the other ``verbs`` (a verb of having for a verb of giving: 我带了充电宝 / 给我),
        searched turn by turn: the noun phrase after the verb's aspect or a count (``_object_of``).
        An object the ``query`` already says is none; with ``kinds`` False neither is a noun
        that names a kind (这款手机: 手机). None when no turn has one."""
        for ti in turns:
            obj = next((o for o in (self._object_of(ti, w) for w in verbs) if o), None)
            if obj is not None and obj not in query and (kinds or not self.is_category(obj)):
                return obj, ti
        return None

    def _object_of(self, ti: TurnInfo, verb: str) -> str | None:
        """The noun phrase after ``verb`` in turn ``ti`` (after its aspect or a count: 吃了点 /
        有三台), or the noun jieba joined to it (吃火锅); None when it has none, names a person
        or is longer than the rule's ``max_object``. Spaces stay tokens: a phrase after one
        belongs to the next clause (头像换了 太丑了: no object of 换)."""
        ptoks = list(ti.parse.tokens)
        for k, t in enumerate(ptoks):
            w = t.text
            if self._verb_form(w, verb, t.pos):
                j = k
                while j + 1 < len(ptoks) and (
                    ptoks[j + 1].text in self.aspects
                    or kind_of(ptoks[j + 1].pos, ptoks[j + 1].text) == "NUM"
                    # 送你 + 月饼: who receives, after a verb of giving only (认识我哥哥)
                    or (j == k and verb in self.vo_give and ptoks[j + 1].text in RECIPIENTS)
                    # 你平常看什么球赛: the kind asked about is what the verb takes
                    or (j == k and ptoks[j + 1].text in self.vo_asked_kinds)
                    # 发不了 + 红包: a potential complement, the object after it
                    or (j == k and ptoks[j + 1].text in self.vo_potential)
                ):
                    j += 1
                # 吃的面条儿 / 我昨晚吃的火锅: the head the bare verb's 的 modifies, the clause
                # ending with it, is what the verb took (not 好看的电影, 做的生蚝味道不错)
                rel = w == verb and j == k and j + 2 < len(ptoks) and ptoks[j + 1].text == "的"
                obj = self.noun_object(ti, ptoks, j + 1 if rel else j)
                if rel and obj is not None:
                    end = ti.turn.content.find(obj, ptoks[j + 1].end) + len(obj)
                    if self._clause_goes_on(ptoks, end):
                        obj = None
                if obj and j > k and kind_of(ptoks[j].pos, ptoks[j].text) == "NUM":
                    # 做个月饼/试试: a counted thing, not the verb jieba tagged a noun after it
                    # (unlike 进群/聊天, two verbs and no count)
                    at = ptoks[j + 1].start if j + 1 < len(ptoks) else 0
                    obj = self.analyzer.without_verb_last(ptoks, at, obj)
                if obj is None and j > k and ptoks[j].text[-1:] in self.vo_counts:
                    obj = self._counted_title(ptoks, j)
            else:
                obj = self.bound_object(ptoks, k, {verb})
            # a pronoun names a person (你的照片), 吉他 holds no 他
            if (
                not obj
                or phrase_len(obj) > self.vo_max
                or PERSON_PRONOUNS & {u.text for u in self.parse(obj).tokens}
            ):
                continue
            at = ti.turn.content.find(obj, t.start)
            if ti.turn.content[at + len(obj) : at + len(obj) + 1] == "的":
                continue  # 买进口的: 进口 modifies a thing, it is none
            # 喝朋友送的茶: 朋友 says who gave it
            after = [u for u in ptoks[k + 1 :] if u.start >= at + len(obj)][:2]
            if (
                len(after) == 2
                and after[1].text == "的"
                and kind_of(after[0].pos, after[0].text) == "VERB"
            ):
                continue
            return obj
        return None

    def _clause_goes_on(self, ptoks: list[Any], end: int) -> bool:
        """A word other than a particle or punctuation follows offset ``end`` in its clause."""
        nxt = _word_from(ptoks, end)
        return nxt is not None and kind_of(nxt.pos, nxt.text) not in ("PUNCT", "PART")

    def _counted_title(self, ptoks: list[Any], j: int) -> str | None:
        """What a measure of works ``ptoks[j]`` counts (唱首征服 / 看部无间道): the words after
        it to the end of their clause, whatever their tags (a title may be a verb: 征服); None
        when a particle, a pronoun or a question word is among them."""
        words: list[Any] = []
        for u in ptoks[j + 1 :]:
            if kind_of(u.pos, u.text) in ("PUNCT", "PART") or not u.text.strip():
                break
            if u.text in PERSON_PRONOUNS or is_question_word(u.text):
                return None
            words.append(u)
        if not words or len(words) > 2:
            return None
        title = "".join(u.text for u in words)
        return title if len(title) >= 2 else None

    def _verb_form(self, word: str, verb: str, pos: str) -> bool:
        """``word`` (tagged ``pos``) of a history turn is ``verb`` with its aspect, its negation
        or a mood word before it (换了 / 没用过 / 爱看), or a two-character verb ending with it
        (更换 / 阅读; not a noun such as 边玩 of 边玩边学)."""
        w = word[:-1] if word[-1:] in self.aspects and len(word) > len(verb) else word
        w = w[1:] if w[:1] in self.vo_negations and len(w) > len(verb) else w
        return (
            w == verb
            or self.same_verb(w, {verb})
            or (
                len(verb) == 1
                and len(w) == 2
                and w[1] == verb
                and w[0] not in self.echo_moods
                and kind_of(pos, word) == "VERB"
            )
            # 听不懂 / 看得懂: the complement is the verb asked about (你懂吗)
            or (
                len(w) == 3
                and w[2:] == verb
                and w[1] in _POTENTIAL_MARKS
                and verb in self.vo_complements
            )
        )

    def same_verb(self, word: str, verbs: set[str] | frozenset[str]) -> bool:
        """``word`` of a history turn is one of ``verbs``, or one of them after a mood word
        jieba joined to it: 爱看 / 想玩 of the last turn and 没看过 / 不玩 of the query are one
        verb (rules/completeness.yaml echo_moods)."""
        return word in verbs or (len(word) == 2 and word[0] in self.echo_moods and word[1] in verbs)

    def noun_object(self, ti: TurnInfo, ptoks: list[Any], k: int) -> str | None:
        """The noun phrase right after the verb ``ptoks[k]`` of turn ``ti`` (nouns, a 的 inside
        them), as the turn's own mention there says it whole (魔道祖师, not 魔 of 魔/道/祖师);
        None when there is none or it opens with a number's digits (阴转雨夹雪0度: no object of
        雨夹雪)."""
        np: list[Any] = []
        rest = ptoks[k + 1 :]
        # 自身修养: a reflexive word and the word after it, whatever its tag, open the phrase
        keep = 2 if self._reflexive_head(rest) else 0
        np += rest[:keep]
        for n, u in enumerate(rest[keep:], keep):
            kind = kind_of(u.pos, u.text)
            if kind == "TIME" and u.text in self.vo_times:
                kind = "NOUN"  # 喜欢冬天: the season is what the verb takes
            # 麻辣香锅 / 红烧肉: a modifier (tagged a, b or z) right before a noun opens the phrase
            modifier = (kind == "ADJ" or u.pos == "z") and (
                n + 1 < len(rest) and kind_of(rest[n + 1].pos, rest[n + 1].text) == "NOUN"
            )
            if kind == "NOUN" or (np and u.text == "的") or modifier:
                np.append(u)
                continue
            break
        while (
            len(np) > keep
            and kind_of(np[-1].pos, np[-1].text) != "NOUN"
            and np[-1].text not in self.vo_times
        ):
            np.pop()  # the phrase ends with its noun (not 的, not a bare modifier)
        if not np or np[0].text.isdigit():
            return None
        whole = [
            m
            for m in ti.mentions
            if m.start == np[0].start and m.end >= np[-1].end and not self.is_clause(m)
        ]
        if whole:
            return max(whole, key=lambda m: m.end).text
        return ti.turn.content[np[0].start : np[-1].end]

    def _reflexive_head(self, rest: list[Any]) -> bool:
        """Whether ``rest`` opens with a reflexive word (rules/completeness.yaml verb_object
        ``reflexive_modifiers``) and a word of two or more characters jieba tagged a noun or a
        verb: the two are a noun phrase (提高/自身/修养: 修养 is tagged a verb, 自身 a pronoun)."""
        return (
            len(rest) > 1
            and rest[0].text in self.vo_reflexive
            and len(rest[1].text) >= 2
            and kind_of(rest[1].pos, rest[1].text) in ("NOUN", "VERB")
        )

    def bound_object(self, ptoks: list[Any], k: int, verbs: set[str]) -> str | None:
        """The noun a verb-object word ``ptoks[k]`` of a history turn has after one of the
        one-character ``verbs``: 吃药 said and 赶紧吃 asked give 药 (jieba keeps 吃药 / 喝酒 /
        吃火锅 whole); None for a verb and its complement (打开 / 吃完), a reduplication (看看),
        or a word a noun or modifier goes on from (做法简单 / 查理普斯: no verb and object). A
        game after its verb (rules/completeness.yaml verb_object ``bound_games``: 下围棋 /
        打篮球) is one whatever the tags jieba gives the words."""
        t = ptoks[k]
        w = t.text
        if len(w) < 2 or w[0] not in verbs or w[1] == w[0]:
            return None
        game = len(w) > 2 and w.endswith(self.vo_games.get(w[0], ()))
        if not game and kind_of(t.pos, w) != "VERB":
            return None
        if k + 1 < len(ptoks) and kind_of(ptoks[k + 1].pos, ptoks[k + 1].text) in _GOES_ON:
            return None
        if game:
            return w[1:]
        rest = self.parse(w[1:]).tokens
        return w[1:] if rest and all(kind_of(u.pos, u.text) == "NOUN" for u in rest) else None

    def is_clause(self, m: Mention) -> bool:
        """A phrase the chunker or the shared-span finder made that holds an adverb
        (全世界的客户都想不花钱 / 兴奋点大大增加) is a clause, not a thing to put back; a topic
        frame's title (我不是药神) stands as written."""
        if m.source.startswith("rules/") or m.protected:
            return False
        return any(kind_of(t.pos, t.text) == "ADV" for t in self.parse(m.text).tokens)

    def bare_answer(self, state: State, d: Dialogue) -> TurnInfo | None:
        """The assistant's last turn when it is nothing but a short noun phrase answering the
        user's which/what question just before it (你最喜欢哪本书 / 围城; 去哪玩 / 游乐园), else
        None. After 李世民是谁 / 皇帝 the answer describes the topic and is no topic itself."""
        if len(d.turns) < 2 or not state.history:
            return None
        asked, last = d.turns[-2], d.turns[-1]
        if (
            last.turn.role != "assistant"
            or last.turn.index != state.history[-1].index
            or asked.turn.role != "user"
            or _IDENTITY_Q.search(asked.turn.content)
        ):
            return None
        kind = self.asked_kind(asked.turn.content)
        if not (_WHICH_Q.search(asked.turn.content) or kind):
            return None
        if self.bare_noun_phrase(last.turn.content, ANSWER_KINDS) is None and (
            kind is None or self.title_answer(last.turn.content, kind=kind) is None
        ):
            return None
        return last

    def named_last(self, state: State, d: Dialogue, text: str) -> Mention | None:
        """What the assistant's last turn only named (水煮肉片 / 来个鱼香肉丝 / 有火锅: a bare
        noun phrase after an offering verb), when ``text`` does not hold it: what a bare 这个 /
        它 right after it points at. None when the turn says more, names a person or a kind."""
        if not d.turns or not state.history:
            return None
        last = d.turns[-1]
        if last.turn.role != "assistant" or last.turn.index != state.history[-1].index:
            return None
        if len(d.turns) >= 2 and _IDENTITY_Q.search(d.turns[-2].turn.content):
            return None  # JAVA是什么 / 编程语言啊: the answer describes the topic asked about
        offered = _OFFERED.match(last.turn.content.strip()) is not None
        said = _OFFERED.sub("", last.turn.content.strip())
        np = self.bare_noun_phrase(said, ANSWER_KINDS)
        if (
            np is None
            or np in text
            or any(np.endswith(n) for n in self.category_nouns)
            or np.startswith(self.attribute_openers)
        ):
            return None  # 游戏 / 情节很漂亮: a kind, or an attribute of the topic
        named = _mention_said(last, np)
        if named is None:
            return None
        if named.etype in HUMAN_TYPES and (
            not offered or np.startswith(self.analyzer.surnames) or named.source != "pos:nr"
        ):
            # a person: 这个 / 它 do not point at one. What the assistant offered (来个鱼香肉丝)
            # that jieba guesses is a name (nr) but opens with no surname is a dish, a thing
            return None
        return named

    def narrated(self, state: State, d: Dialogue, text: str) -> tuple[str, str, TurnInfo] | None:
        """A follow-up that goes on telling the dream the user's turn before the assistant's
        last one began to tell (我梦见一个帅哥 / 发生了什么 / 他把我推倒了), with the frame the
        dream was told in: 梦见一个帅哥把我推倒了 (a pronoun becomes who was dreamt of; a
        reply without a subject gets it: 在唱歌 -> 梦到林俊杰在唱歌). Returns the rewrite, who
        or what was dreamt of and the user's turn; None when the query is no such follow-up."""
        exchange = last_exchange(state, d)
        if self.narrative is None or exchange is None:
            return None
        told = exchange[0]
        fm = self.narrative.match(unpunctuated(told.turn.content))
        if fm is None:
            return None
        verb = fm.group("v")
        said = text.strip()
        pron = _NARRATED_PRONOUN.search(said)
        who = self.dreamt_of(fm.group("x"), clause=pron is not None)
        if who is None:
            return None  # 梦到我捡到钱了 / 梦见房子塌了: an event, not who was dreamt of
        if pron is not None and said[pron.end() :].startswith(("是", "就是", "也是")):
            return None  # 她是我梦中情人: who they are, not what happened in the dream
        if said.removeprefix("我").startswith(self.narrative_verbs):
            # 梦到她死了: the frame is there, the pronoun is who was dreamt of
            new = said.replace(pron.group(), who) if pron is not None else None
        elif "梦" in said:
            # 在梦里她不理我: told inside the dream already; the first pronoun is who
            new = said.replace(pron.group(), who, 1) if pron is not None else None
        elif pron is not None and not said[: pron.start()].strip(_NARRATIVE_OPENERS):
            # 他把我推倒了 / 然后他找我聊天: who was dreamt of is the subject
            new = verb + said[: pron.start()] + who + said[pron.end() :]
        elif pron is not None:
            # 和她见面 / 我向她告白: inside the event the count goes (一个朋友 -> 朋友), not
            # before a 的 that names them (一个男的: 我在他的房间里 -> 我在一个男的房间里)
            bare = who if who.endswith("的") else _COUNTED.sub("", who) or who
            if bare.endswith("的"):
                said = said.replace(pron.group() + "的", bare)
            new = verb + said.replace(pron.group(), bare)
        elif said.startswith(self.narrative_not_first) or _SPEAKER.match(said):
            new = None  # 不记得了 / 我开着车: no more of the dream, or a subject of its own
        elif said.startswith("一起"):
            new = verb + "和" + who + said  # 一起吃饭: the speaker was with them
        else:
            first = self.parse(said).tokens[:1]
            new = (
                verb + who + said
                if first
                and (
                    kind_of(first[0].pos, first[0].text) in ("VERB", "ADV", "PREP", "ADJ")
                    or first[0].text in ("和", "跟", "与", "同")
                )
                else None  # 在唱歌 / 非礼我 / 把我给咬了 / 和我一起去上学: what they did
            )
        if new is None or new == said or _SPEAKER.fullmatch(who):
            return None
        return new, who, told

    def dreamt_of(self, x: str, *, clause: bool) -> str | None:
        """Who or what a dream frame's phrase ``x`` says was dreamt of (梦到X), else None.

        What: ``x`` itself when it is a noun phrase (:func:`names_a_thing`), ends with a
        person word jieba tags otherwise (初恋情人 l / 女下属 v), or is a 的-phrase of a noun
        (一个男的); with ``clause`` (the follow-up points back with a pronoun) the counted
        noun phrase that opens a clause ``x`` goes on with (一个小姑娘在打游戏 -> 一个小姑娘).
        Why: the follow-up's 他 / 她 is that person whatever tags jieba gave the words, and
        someone met as 一个X is there only in the dream (a name, 明星王嘉尔打自己小孩, is
        someone the follow-up may speak of outside it).
        Example: 梦到一个小姑娘在打游戏 / … / 她一直在打游戏 -> 梦到一个小姑娘一直在打游戏."""
        toks = [t for t in self.parse(x).tokens if t.text.strip()]
        if not toks:
            return None
        kinds = [kind_of(t.pos, t.text) for t in toks]
        if clause and _COUNTED.match(x):
            for k in range(1, len(toks)):
                if kinds[k] in ("VERB", "ADV", "PREP", "ADJ") and names_a_thing(toks[:k]):
                    # 一个女鬼长的很好看: who was dreamt of, then what they were like or did
                    return x[: toks[k].start - toks[0].start]
        if names_a_thing(toks):
            return x
        last = toks[-1]
        if "VERB" not in kinds[:-1] and self.analyzer.type_of(last.text, last.pos) == "human":
            return x  # 我初恋情人 / 女下属: a person word jieba tags an idiom or a verb
        if len(toks) > 1 and last.text == "的" and names_a_thing(toks[:-1]):
            return x  # 一个男的: the 的-phrase names a person
        return None

    def narrate(self, state: State, d: Dialogue, text: str, *, mode: str) -> State | None:
        """``state`` rewritten by :meth:`narrated` (by ``mode``: coreference when the query
        holds a pronoun, ellipsis when it has no subject), or None."""
        told = self.narrated(state, d, text)
        if told is None:
            return None
        new, who, ti = told
        mention = new_mention(
            who, who, "thing", ti.turn.index, ti.turn.role, "obj", 0, len(who), 0, "history"
        )
        return resolved(
            state,
            mode,
            self.sources.get("narrative_frame", mode),
            new,
            mention,
            slot="subject",
            note=f"goes on telling the dream of {who!r}",
            confidence=0.7,
        )

    def asked_kind(self, question: str) -> str | None:
        """The kind of work a what-question asks for (什么动漫 / 哪首歌 / 啥书 -> 动漫 / 歌 / 书:
        category nouns of type ``work`` in rules/coreference.yaml), else None."""
        for m in _WHAT_KIND.finditer(question):
            rest = m.group("n")
            for k in range(min(3, len(rest)), 0, -1):
                if "work" in self.category_types.get(rest[:k], ()):
                    return rest[:k]
        return None

    def title_answer(self, said: str, *, kind: str | None = None) -> str | None:
        """``said`` without its final particles when it can be a title answering a what-kind
        question, whatever the segmenter makes of it (名侦探柯南 / 萤火虫之墓): short, one run
        of characters, no speaker and no question; else None. With the ``kind`` asked for
        (歌), a verb acting on that kind (点歌 / 听歌 / 看电影) is no title but what to do with
        one: None too."""
        remark = _PRAISED.sub("", said.strip().rstrip("?？!！。.~ 哦啊呀吧呢嘛哈吗"))
        remark = _RECOMMENDED.sub("", remark)  # 看火影忍者: the title after the advice
        if not 2 <= len(remark) <= 10 or not _TITLE.fullmatch(remark):
            return None
        if _SPEAKER.search(remark) or _WHICH_Q.search(remark):
            return None
        if kind and self.acts_on_kind(remark, kind):
            return None
        return remark

    def acts_on_kind(self, remark: str, kind: str) -> bool:
        """Whether ``remark`` is a verb acting on the ``kind`` a question asked for (推荐一首歌
        / 点歌: the request to pick one; 什么电影 / 看电影), not a title of that kind: it ends
        with the kind and opens with a verb. 好汉歌 / 活着 (a title) are not."""
        if not remark.endswith(kind) or len(remark) <= len(kind):
            return False
        toks = [t for t in self.parse(remark).tokens if t.text.strip()]
        return bool(toks) and kind_of(toks[0].pos, toks[0].text) == "VERB"

    def bare_noun_phrase(self, said: str, kinds: frozenset[str]) -> str | None:
        """``said`` without its final particles when that is nothing but a short noun phrase
        (2-8 characters, words of ``kinds`` only, a noun last, no speaker): 火车站哦 -> 火车站,
        平凡的世界 / 狮子座; else None."""
        remark = said.strip().rstrip("?？!！。.~ 哦啊呀吧呢嘛哈")
        toks = [t for t in self.parse(remark).tokens if t.text.strip()]
        if (
            not 2 <= len(remark) <= 8
            or not toks
            or any(kind_of(t.pos, t.text) not in kinds for t in toks)
            or kind_of(toks[-1].pos, toks[-1].text) != "NOUN"
            or toks[-1].text.endswith("了")  # 卖完了 (nz in jieba's dictionary): a clause
            or _SPEAKER.search(remark)
        ):
            return None
        return remark

    def answer_mention(self, state: State, d: Dialogue, text: str) -> Mention | None:
        """The longest mention of the assistant's bare answer (:meth:`bare_answer`) that
        ``text`` does not already hold: what 这 / 它 / 他们 then point at."""
        ti = self.bare_answer(state, d)
        if ti is None:
            return None
        named = [m for m in ti.mentions if not m.is_set and m.text not in text]
        best = max(named, key=lambda m: len(m.text)) if named else None
        kind = self.asked_kind(d.turns[-2].turn.content)
        whole = self.title_answer(ti.turn.content, kind=kind) if kind is not None else None
        if (
            whole is not None
            and whole not in text
            and (best is None or len(whole) > len(best.text))
        ):
            # 你爱看什么动漫 / 名侦探柯南: the title is the whole answer, whatever its pieces
            start = ti.turn.content.find(whole)
            return said_mention(whole, "work", ti.turn, "topic", start, "answer")
        return best

    def asked_object(self, state: State, d: Dialogue, text: str) -> Mention | None:
        """What the assistant's last turn gave the verb the user's what-question asked about,
        when the reply says more than a bare answer (冬天吃什么 / 据说冬天吃羊肉最滋补了 -> 羊肉:
        the noun after the question's own verb, :meth:`verb_object`), or, when the reply does
        not repeat the verb, the noun phrase it opens with (你喜欢吃什么零食 / 巧克力吧… ->
        巧克力); what a bare 这个 / 那个 then points at. None when the question asks what a
        thing is or has (是什么 / 有什么), the object is a kind, said in ``text`` or shares
        words with the question (it restates it), or a verb follows the echoed verb's object
        (玩狼人/杀: the segmenter cut a word)."""
        exchange = last_exchange(state, d)
        if exchange is None:
            return None
        asked, reply = exchange
        if _IDENTITY_Q.search(asked.turn.content):
            return None
        toks = asked.parse.tokens
        at = next(
            (
                k
                for k in range(1, len(toks))
                if toks[k].text in self.vo_asked_what
                and kind_of(toks[k - 1].pos, toks[k - 1].text) == "VERB"
            ),
            None,
        )
        if at is None or toks[at - 1].text in self.vo_asked_not_verbs:
            return None  # 是什么意思 / 有什么禁忌: what a thing is or has, no verb's object
        verb = toks[at - 1].text
        # 住什么酒店: the kind asked for, which the answer may end with (全季酒店)
        kind = toks[at + 1].text if at + 1 < len(toks) else ""
        if len(verb) == 2 and verb[0] in self.echo_moods:
            verb = verb[1]  # 爱吃什么: the verb after the mood word
        got = self.verb_object([reply], [verb], query=text, kinds=False)
        # 你喜欢吃什么零食 / 巧克力吧很受欢迎的…: a reply that opens with a noun phrase
        obj = got[0] if got is not None else self.noun_object(reply, list(reply.parse.tokens), -1)
        if got is None and not any(m.start == 0 and m.text == obj for m in reply.mentions):
            return None  # 恩是啊比亚迪…: no noun phrase the reply opens with
        if obj is None or obj in text or self.is_category(obj):
            return None
        core = obj.removesuffix(kind)  # "" removes nothing
        if not self._bigrams(core).isdisjoint(self._bigrams(asked.turn.content)):
            return None  # 准备什么材料 / 准备绩效考核材料…: the question restated, no answer
        start = reply.turn.content.find(obj)
        if got is not None:
            nxt = _word_from(reply.parse.tokens, start + len(obj))
            if nxt is not None and kind_of(nxt.pos, nxt.text) == "VERB":
                return None  # 玩狼人/杀: a word the segmenter cut, or the subject of a clause
        named = _mention_said(reply, obj)
        if named is not None:
            return named
        return said_mention(obj, "thing", reply.turn, "obj", start, "answer")

    def asks_about_work(self, text: str) -> bool:
        """The query asks what one asks of a work: its author, story … (``title_hints``)."""
        return bool(self._title_re.search(text))

    def is_statement(self, text: str) -> bool:
        """A narrative statement: longer than ``statement_len`` and no question."""
        return len(text) > self.statement_len and not is_question(self.parse(text))

    def asks_which(self, text: str) -> bool:
        """哪个保费更低 / 哪款好用: a choice between things (rules/comparison.yaml ``which``)."""
        return any(p.search(text) for p in self.which)

    def which_noun(self, text: str, parse: Parse) -> tuple[str, int]:
        """The noun a which-word determines and where the which-word starts (哪个**学校**的,
        哪款**手机**); ('', start) when the choice is adjectival (哪个更便宜, 哪个好), ('', -1)
        when the text has no which-word."""
        for p in self.which:
            m = p.search(text)
            if m is None:
                continue
            after = [t for t in parse.tokens if t.start >= m.end() and t.text.strip()]
            noun = after[0].text if after and kind_of(after[0].pos, after[0].text) == "NOUN" else ""
            return noun, m.start()
        return "", -1

    # -- phrases both speakers said ---------------------------------------------------------------

    def shared_spans(self, d: Dialogue) -> list[Mention]:
        """Phrases said in two turns of the window (易烊千玺 in 我要聊易烊千玺 and
        易烊千玺嗓音很棒): the conversation's topic, found without the segmenter, so names it
        does not know still count. Each is a ``topic`` mention of the later turn."""
        tis = list(d.turns)
        out: dict[str, Mention] = {}
        pairs = self._shared_pair
        for j in range(len(tis) - 1, 0, -1):
            b = tis[j].turn.content
            for i in range(j - 1, -1, -1):
                a = tis[i].turn.content
                key = (a, b)
                span = pairs.get(key, _UNSEEN)
                if span is _UNSEEN:
                    if self._bigrams(a).isdisjoint(self._bigrams(b)):
                        span = None  # no stretch of 2 characters in common (size must be >= 2)
                    else:
                        ia, ib, size = longest_common(a, b)
                        span = None
                        if size >= 2:
                            s, e = _whole_in_both(tis[i].parse, ia, tis[j].parse, ib, size)
                            if e - s >= 2:
                                span = self._topic_span(tis[j], s, e)
                    pairs.put(key, span)  # a pair with nothing in common is remembered too
                if span is None or span[2] in out:
                    continue
                s, e, phrase, etype = span
                out[phrase] = new_mention(
                    phrase,
                    phrase,
                    etype,
                    tis[j].turn.index,
                    tis[j].turn.role,
                    "topic",
                    s,
                    e,
                    0,
                    SHARED,
                )
        return list(out.values())

    def _topic_span(self, ti: Any, s: int, e: int) -> tuple[int, int, str, str] | None:
        """The shared stretch ``[s, e)`` of a turn trimmed to whole tokens and checked to be
        nominal: it holds a noun, or is a run of single characters the segmenter could not
        group (an unknown name); verbs, pronouns and function words alone are not a topic."""
        toks = [t for t in ti.parse.tokens if t.start >= s and t.end <= e and t.text.strip()]
        if any(not _WORDISH.fullmatch(t.text) for t in toks):
            return None  # crosses punctuation or a space: two pieces, not one phrase
        # 张艺/兴 in both turns: a two-character name and the last character of the given name
        # jieba left apart (said the same way twice, it is no name followed by a verb)
        split_name = (
            len(toks) == 2
            and toks[0].pos in ("nr", "nrt")
            and len(toks[0].text) == 2
            and may_end_name(toks[1].text)
        )
        # 张/大大 in both turns: a surname and a two-character word jieba knew on its own (大大 /
        # 更新) make a name when the speakers repeat them together
        split_name = split_name or (
            len(toks) == 2
            and len(toks[0].text) == 1
            and len(toks[1].text) == 2
            and toks[0].text.startswith(self.analyzer.surnames)
            and self.analyzer.lexicon.segmenter.freq(toks[0].text + toks[1].text) == 0
        )
        singles = sum(1 for t in toks if len(t.text) == 1)
        if not split_name and (singles < len(toks) or len(toks) < 2):
            # trim function words and verbs at the edges (喜欢X / X的); a run of single
            # characters is kept whole: that is how the segmenter leaves an unknown name
            while toks and _kind(toks[0]) not in _TOPICAL:
                toks.pop(0)
            while toks and _kind(toks[-1]) not in _TOPICAL:
                toks.pop()
        while len(toks) >= 2 and toks[0].text == toks[1].text:
            toks.pop(0)  # 猫咪/猫咪: a word said twice is said once (as the analyzer's phrases)
        if not toks:
            return None
        s, e = toks[0].start, toks[-1].end
        phrase = ti.parse.text[s:e]
        kinds = [_kind(t) for t in toks]
        singles = sum(1 for t in toks if len(t.text) == 1)
        name_run = split_name or (
            len(toks) >= 2
            and singles == len(toks)
            and len(phrase) <= 4
            and (
                phrase.startswith(self.analyzer.surnames)
                or toks[0].pos.startswith("nr")
                # 蛮/吉 in both turns: a piece jieba tags a name, the rest no function word
                or (
                    any(t.pos.startswith("nr") for t in toks)
                    and all(may_end_name(t.text) for t in toks)
                )
            )
        )
        nominal = name_run or any(
            k == "NOUN" and len(t.text) >= 2 for k, t in zip(kinds, toks, strict=True)
        )
        if (
            not long_enough(phrase)
            or not nominal
            or phrase in self.analyzer.non_entity
            or phrase[-1] in "了的吧啊呀么吗呢"
            or _SPEAKER.search(phrase)
            or any(is_question_word(t.text) for t in toks)
            or "PRON" in kinds
        ):
            return None
        etype = "person" if name_run else (self.analyzer.type_by_suffix(phrase) or "thing")
        if len(toks) == 1:
            etype = self.analyzer.type_of(toks[0].text, toks[0].pos)
        return s, e, phrase, etype

    def attribute_of(self, phrase: str) -> str:
        """The attribute noun a longer phrase ends with (报销单据的审批人 -> 审批人), or ''
        (memoised per phrase: ``_attribute_of_uncached``)."""
        return self._attribute_memo(phrase)

    def _attribute_of_uncached(self, phrase: str) -> str:
        m = self._attr_end.search(phrase)
        if m is None or len(phrase) <= len(m.group()) + 1:
            return ""
        return m.group()

    def _owners(self, mentions: list[Mention]) -> list[Mention]:
        """For a phrase headed by an attribute noun (报销单据的审批人), the phrase it is an
        attribute of (报销单据), as a candidate of its own."""
        have = {m.text for m in mentions}
        out: list[Mention] = []
        attribute_of = self._attribute_memo
        for m in mentions:
            attr = attribute_of(m.text)
            if not attr:
                continue
            owner = m.text[: -len(attr)].rstrip().removesuffix("的").rstrip()
            if not long_enough(owner) or owner in have or _SPEAKER.search(owner):
                continue
            have.add(owner)
            etype = self.analyzer.type_by_suffix(owner) or "thing"
            out.append(owner_mention(m, owner, etype, m.gram))
        return out

    def _possessors(self, d: Dialogue, mentions: list[Mention]) -> list[Mention]:
        """For a subject X的Y naming a thing (女人的心思是真的难猜 / 同事的态度让我很难受), the
        person X who has it, one word the segmenter typed a person or a person noun, as a
        candidate of its own: 他 / 她 may point at the owner, and no other phrase holds it. Not
        a phrase said of something else (深圳是个年轻人的城市: 年轻人 only says which city)."""
        have = {m.text for m in mentions}
        out: list[Mention] = []
        type_of = self.analyzer.type_of
        for m in mentions:
            cut = m.text.find("的")
            if cut < 2 or m.etype in HUMAN_TYPES or m.is_set or m.gram not in _SUBJECTS:
                continue
            owner = m.text[:cut]
            if owner in have or _SPEAKER.search(owner):
                continue
            ti = d.turn_at(m.turn)
            if ti is None:
                continue
            toks = [t for t in ti.parse.tokens if m.start <= t.start and t.end <= m.start + cut]
            if len(toks) != 1 or toks[0].text != owner:
                continue
            etype = type_of(owner, toks[0].pos)
            if etype not in HUMAN_TYPES:
                continue
            have.add(owner)
            out.append(owner_mention(m, owner, etype, "att"))
        return out

    def _pool(self, d: Dialogue) -> _Pool:
        """The window's candidates and the phrases credited as repeated, once per window."""
        turns = d.turns
        key = tuple((ti.turn.index, ti.turn.role, ti.turn.content) for ti in turns)
        pools = self._pools
        pool = pools.get(key)
        if pool is not None:
            pools.move_to_end(key)
            return pool
        shared = self.shared_spans(d) if len(turns) > 1 else None
        mentions, names = self._widened(d, d.mentions())
        echoed: frozenset[str] = _NOTHING
        if shared:
            # a shared stretch that ends a longer phrase of its turn (交响曲 of 命运交响曲: the
            # same head) credits that phrase; one that only modifies it (葛屿舟 of 葛屿舟演技)
            # or that no phrase covers (an unknown name) becomes a candidate itself
            echoed = frozenset(
                m.text
                for m in mentions
                for sp in shared
                if sp.turn == m.turn and m.text.endswith(sp.text) and m.start <= sp.start
            )
            # 张宝华 said twice and read as a name there, tagged nz in its turn: a person
            named = {sp.text for sp in shared if sp.etype == "person"}
            if named:
                mentions = [
                    _retyped(m, "person") if m.text in named and m.etype in UNKNOWN_TYPES else m
                    for m in mentions
                ]
            texts = {m.text for m in mentions}
            mentions += [
                sp
                for sp in shared
                if sp.text not in texts
                and not any(sp.text in e for e in echoed)
                and not any(sp.text in n for n in names)  # 泽香菜 of 花泽香菜: a piece
            ]
        owners = self._owners(mentions)
        if owners:
            mentions += owners
        possessors = self._possessors(d, mentions)
        if possessors:
            mentions += possessors
        # the window-only part of each candidate's score, filled in on first use by rank
        eligible = tuple(self._eligible(m) for m in mentions)
        pool = _Pool(tuple(mentions), echoed, _Window.of(turns), [None] * len(mentions), eligible)
        pools.put(key, pool)
        return pool

    def _widened(
        self, d: Dialogue, mentions: list[Mention]
    ) -> tuple[list[Mention], frozenset[str]]:
        """Mentions that are a piece of a name the segmenter cut, widened to the whole name
        where their turn says it around them (rules/context.yaml whole_turn_name): a short
        user turn that is nothing but the name (边伯贤 / 麻辣香锅 / 西安科技大学), said again
        whole in another turn of the window (边伯贤可爱吗), so 伯贤 / 香锅 / 西安 are 边伯贤 /
        麻辣香锅 / 西安科技大学. Not a turn that opens with a verb taking the rest as its object
        (发个红包). Also returns the names, whose pieces are no candidates of their own."""
        whole = self.analyzer.whole_turn
        if whole is None or len(d.turns) < 2:
            return mentions, _NO_NAMES
        names: set[str] = set()
        for ti in d.turns:
            fm = whole.fullmatch(ti.turn.content) if ti.turn.role == "user" else None
            if fm is None:
                continue
            name = fm.group("name")
            if not any(
                o.turn.index != ti.turn.index and self._echoes(name, o.turn.content)
                for o in d.turns
            ):
                continue  # 鹿晗最棒 said once: a name and what is said of it
            toks = ti.parse.tokens
            if not any(o is not ti and name in o.turn.content for o in d.turns) and any(
                len(t.text) > 1
                and t.text != name
                and name.endswith(t.text)
                and not t.pos.startswith("nr")
                for t in toks
            ):
                continue  # 苗山童心 echoed by 童心: its tail is a word of its own, no given name
            if (
                toks
                and kind_of(toks[0].pos, toks[0].text) == "VERB"
                and (
                    toks[0].text in self.wordset("dangling_verbs")
                    or (len(toks) > 1 and kind_of(toks[1].pos, toks[1].text) in ("NUM", "MEASURE"))
                )
            ):
                continue  # 发个红包 / 吃火锅: a verb and its object (花泽香菜: 花 is no verb here)
            if _entity_judged(ti, name):
                continue  # 周杰伦好帅 said twice: a listed name and what is said of it
            names.add(name)
        names |= self._said_three(d, mentions)
        given = frozenset(names)
        # a title a topic frame took whole (你知道你好旧时光吗: 你好 / 旧时光 to jieba), said
        # whole again in another turn: its pieces there are the title too
        frames = self.analyzer.topic_sources
        for m in mentions:
            if (
                m.source in frames
                and len(m.text) >= 3
                and "的" not in m.text
                and any(ti.turn.index != m.turn and m.text in ti.turn.content for ti in d.turns)
            ):
                names.add(m.text)
        if not names:
            return mentions, _NO_NAMES
        src = self.analyzer.whole_turn_source
        # a piece of two names widens to the longer one, whatever order the set holds them in
        # (a set's order changes with the process's string hashing: outputs must not)
        ordered = sorted(names, key=lambda n: (-len(n), n))
        out = []
        for m in mentions:
            for n in ordered:
                if m.text == n or m.text not in n:
                    continue
                if n not in given and m.etype not in UNKNOWN_TYPES:
                    continue  # 张学友 in a title with it: a name of its own
                at = d.said(m.turn).find(n, max(0, m.end - len(n)))
                if 0 <= at <= m.start and m.end <= at + len(n):
                    etype = m.etype
                    if etype in UNKNOWN_TYPES | {"place"} and self._surname_name(n):
                        etype = "person"  # 胡一菲 read as 胡 + the place 一菲: a person
                    m = replace(m, text=n, start=at, end=at + len(n), source=src, etype=etype)
                    break
                if n in given and m.start == 0 and n.endswith(m.text) and self._echoes(n, m.text):
                    # 千玺 opening 千玺棒棒哒 after 易烊千玺: the given name is the whole name
                    m = replace(m, text=n, source=src, etype="person")
                    break
            out.append(m)
        return out, frozenset(names)

    def _said_three(self, d: Dialogue, mentions: list[Mention]) -> set[str]:
        """Three-character names the segmenter cut after two (张艺/兴, 井柏/然): a two-character
        person mention opening with a family name, the character after it able to end a name,
        and the three said in two turns of the window (我是张艺兴的 / 挺喜欢张艺兴的)."""
        out: set[str] = set()
        for m in mentions:
            if (
                m.etype != "person"
                or len(m.text) != 2
                or not m.text.startswith(self.analyzer.surnames)
            ):
                continue
            nxt = d.said(m.turn)[m.end : m.end + 1]
            if not nxt or not may_end_name(nxt):
                continue
            name = m.text + nxt
            if sum(name in ti.turn.content for ti in d.turns) >= 2:
                out.add(name)
        return out

    def _echoes(self, name: str, said: str) -> bool:
        """Whether another turn says ``name`` again: whole, or a person's name (3 or 4
        characters opening with a family name) by its given name opening the turn (千玺棒棒哒
        after 易烊千玺, 伯贤怎么了 after 边伯贤; rules/context.yaml whole_turn_name
        ``echoed_tail_drop``). Its head alone (鹿晗 of 鹿晗最棒) is no echo: that is a name and
        what is said of it; nor a tail said inside a phrase (有橙光游戏 after 程光游戏)."""
        if name in said:
            return True
        drop = min(self.analyzer.whole_turn_tail, len(name) - 2)
        if drop < 1 or not self._surname_name(name):
            return False
        return any(said.startswith(name[k:]) for k in range(1, drop + 1))

    def _surname_name(self, name: str) -> bool:
        """Three or four characters opening with a family name (胡一菲 / 东野圭吾)."""
        return 3 <= len(name) <= 4 and name.startswith(self.analyzer.surnames)

    def _eligible(self, m: Mention) -> bool:
        """Whether :meth:`rank` may take ``m`` at all, whatever the query (tested once per
        window): a phrase about the speakers is no topic (我的计划 / 问我手中的宝剑; but 我喜欢的人
        is a person the user feels for, rules/context.yaml human_relative, and 你好旧时光 a
        title a topic frame took whole, its 你 inside the word 你好), nor is a fragment (78 /
        so / 一下好像是: not_antecedent); a dictionary entity always may be."""
        if m.protected:
            return True
        if (
            _SPEAKER.search(m.text)
            and m.source not in self.analyzer.relative_sources
            and m.source not in self.analyzer.title_sources
        ):
            return False
        junk = self.not_antecedent
        return junk is None or not junk.match(m.text)

    def _static(self, win: _Window, m: Mention, echoed: frozenset[str]) -> _Static:
        """The parts of a candidate's filter and score that depend on the window alone, in
        :meth:`rank`'s order: the score and reasons before the query-dependent terms (prefix),
        and the signed terms after them (suffix)."""
        back = win.back.get(m.turn, 9)
        text = m.text
        gram = m.gram
        etype = m.etype
        score = 3.0 - 0.6 * back
        why = _RECENCY[back] if back < len(_RECENCY) else _recency(back)
        if gram in _SUBJECTS:
            if m.turn == win.last_user_index:
                score += 2.0
                why += ", subject of last user turn"
            else:
                score += 0.8
                why += ", subject"
        named = m.protected or etype in NAMED_TYPES
        if named and win.last_user_text is not None and text in win.last_user_text:
            score += 1.0  # what the user named outranks what the answer mentions in passing
            why += ", " + BY_USER
        elif gram == "obj":
            score += 0.5
            why += ", object"
        if gram == "topic" and m.source.startswith("rules/"):
            score += 2.5
            why += ", topic frame"
        if m.protected:
            score += 2.0
            why += ", dictionary entity"
        if etype in NAMED_TYPES:
            score += 1.0
            why += ", " + etype
        # the signed terms added after the query-dependent ones, in order, and their reasons
        deltas: list[float] = []
        suffix_why = ""
        turn = m.turn
        repeats = 0
        for i, t in win.texts:
            if i != turn and text in t:
                repeats += 1
        if not repeats and text in echoed:
            repeats = 1
        if repeats:
            deltas.append(1.0 * repeats)
            suffix_why += ", repeated"
        exchange = win.exchange
        if exchange and text in exchange[0] and text in exchange[1]:
            deltas.append(1.5)  # asked, and taken up
            suffix_why += ", topic of the last exchange"
        attr = self._attribute_memo(text)
        if attr:
            # 报销单据的审批人: the 报销单据 is what is talked about
            deltas.append(-1.5)
            suffix_why += f", an attribute ({attr})"
        if etype in ATTRIBUTE_TYPES:
            # 等待期 / 犹豫期: an attribute of a product, not the product
            deltas.append(-2.5)
            suffix_why += f", an attribute ({etype})"
        deltas.append(-(0.1 * m.order))
        # the reasons as rank writes them: the window's joined with ", " (never empty: recency
        # comes first), and those of the signed terms, each after ", "
        return _Static(score, why, tuple(deltas), suffix_why)

    # -- ranking ---------------------------------------------------------------------------------

    def hinted_types(self, text: str) -> list[tuple[str, str]]:
        """(type, rule source) for every type hint word in ``text`` (保修 -> product)."""
        return list(self._hinted(text))

    def _hinted_uncached(self, text: str) -> tuple[tuple[str, str], ...]:
        return tuple((etype, src) for etype, pat, src in self._hint_res if pat.search(text))

    def _hint_types_uncached(self, text: str) -> frozenset[str]:
        return frozenset(t for t, _ in self._hinted(text))

    def house(
        self,
        d: Dialogue,
        *,
        text: str,
        min_score: float,
        kinds: frozenset[str],
        not_types: Collection[str],
    ) -> Candidate | None:
        """What: the shop, brand, company or home 他家 / 他们家 points at: the best candidate of
        the last exchange, of any tag (jieba tags 麦当劳 a name), scoring ``min_score``, salient
        in one of the ``kinds`` ways, of none of ``not_types`` (a family's people: 父母 / 同事)
        and not rivalled; None otherwise.
        Why: chat calls a shop or a family by 他家 / 他们家, one word to jieba, and no person
        pronoun rule finds it; coreference (他家) and comparison (他们家) share this choice.
        Example: 哪一家火锅店好吃 / 海底捞 / 他家火锅有老鼠 -> 海底捞."""
        window = {ti.turn.index for ti in d.turns[-2:]}  # the last exchange only
        cands = [
            c for c in self.rank(d, text=text) if c.score >= min_score and c.mention.turn in window
        ]
        if not cands or ambiguous(cands, d):
            return None
        best = cands[0]
        if not salient(best, kinds) or best.mention.etype in not_types:
            return None
        return best

    def rank(
        self,
        d: Dialogue,
        *,
        text: str,
        animacy: str | None = None,
        plural: bool = False,
        noun: str = "",
        etype: str | None = None,
        titles_only: bool = False,
    ) -> list[Candidate]:
        """Antecedent candidates, best first.

        Agreement filters (他/她 → a person, 它/这个 → not a person, plural → a coordinated set);
        the score adds salience (subject/topic of the last user turn, a dictionary entity, a name,
        a phrase said in several turns), recency, the query's type hints and the determined noun
        (这款手机 prefers a phrase headed by 手机). Not a person for 它/这个, except a name from
        POS that a topic frame introduced (jieba tags titles such as 金瓶梅 nr), at a penalty;
        with ``titles_only`` (the pronoun 它) only when the query asks about a work (它的作者)."""
        hints = self._hint_types(text)
        pool = self._pool(d)
        cat_types = self.category_types.get(noun, ()) if noun else ()
        # 儿童抽动症 / 这种疾病: an untyped phrase ending as the kind's names end is of the kind
        cat_endings = tuple(e for t in cat_types for e in self.category_endings.get(t, ()))
        # 它 takes a POS name only as a title (它的作者); 这 / 那 may point at a person
        title_q = bool(self._title_re.search(text))  # asks about a work: 作者 / 讲了什么
        # 红与黑的作者是谁 / 司汤达 / 他…: the person the answer named is who 他 is
        who = _who_answer(d) if animacy == "human" else None
        titled = animacy == "nonhuman" and (not titles_only or title_q)
        out: list[Candidate] = []
        seen: set[str] = set()
        statics = pool.statics
        eligible = pool.eligible
        for k, m in enumerate(pool.mentions):
            if m.text in seen or m.text in text or not eligible[k]:
                continue
            if plural != m.is_set:
                continue
            if etype is not None and m.etype != etype:
                continue
            human = m.etype in HUMAN_TYPES
            if (
                animacy == "human"
                and not human
                and not (
                    m.etype in UNKNOWN_TYPES
                    and m.gram == "topic"
                    and (m.source.startswith("rules/") or m.source == SHARED)
                    # 张学友的歌: a thing someone owns, not a name
                    and "的" not in m.text
                )
                # a Latin word the dictionaries do not know may name a person (tony, Ellie
                # goulding) as well as a product, when the turn says it as a participant (a
                # subject, an object, a topic) or both speakers say it; not a word glued on as a
                # modifier or a tag (只有ooxx时的表情 / 你懂的nozuonodie: slang, no one)
                and not (_LATIN_NAME.fullmatch(m.text) and not m.protected and _participant(m, d))
                # chat says 他的作者 of a book or a song: a topic-frame title, whatever its tag
                and not (title_q and m.gram == "topic" and m.source.startswith("rules/"))
                # 小王子呢 / … / 你知道他的作者是谁吗: a work of the dictionaries too
                and not (title_q and m.etype == "work" and m.protected)
                # 莎士比亚 / 拿破仑: jieba tags transliterated names ns or n as often as nr
                and not (not m.protected and self.analyzer.looks_foreign(m.text))
                # 权志龙 / 新垣结衣: a name jieba does not know, left as single characters
                and not (m.etype in UNKNOWN_TYPES and self.analyzer.unknown_word(m.text))
                # 罗大佑: a proper noun jieba tags nz, one word of its own, opening with a
                # surname (双鱼座 / 金球奖 end with the kind they are)
                and not (
                    m.source == "pos:nz"
                    and m.text == m.head
                    and 3 <= len(m.text) <= 4
                    and m.text.startswith(self.analyzer.surnames)
                    and m.text[-1] not in _KIND_ENDS
                )
            ):
                continue  # 他/她: a person, or the topic a topic frame introduced (你知道X吗)
            # 它 after 你读过庄子吗 / 你知道金瓶梅吗: jieba tags many titles nr, so a POS name
            # a topic frame introduced may still be a thing (at a penalty below)
            pos_titled = (
                titled
                and m.etype == "person"
                and m.gram == "topic"
                and m.source.startswith("rules/")
            )
            if animacy == "nonhuman" and human and not pos_titled:
                continue
            if who is not None and _WHO.search(m.text):
                continue  # EVA的导演是谁: the question, not the person it asked about
            seen.add(m.text)
            st = statics[k]
            if st is None:
                st = statics[k] = self._static(pool.window, m, pool.echoed)
            score = st.score
            why = st.why  # the window's reasons, already joined with ", "
            if animacy == "human" and not human:
                score -= 1.5
                why += ", untyped for a person pronoun"
            elif animacy == "nonhuman" and human:
                score -= 1.5
                why += ", a name from POS, maybe a title"
            if who is not None and m.turn == who:
                score += 3.0
                why += ", answer to a who-question"
            if m.etype in hints:
                score += 2.0
                why += TYPE_HINT
            if noun and (m.head == noun or m.text.endswith(noun)):
                score += 2.5
                why += f", head {noun}"
            elif noun and (
                m.etype in cat_types or (m.etype in UNKNOWN_TYPES and m.text.endswith(cat_endings))
            ):
                score += 2.0
                why += f"{OF_KIND}{noun}"
            elif noun and "work" in cat_types and m.etype in UNKNOWN_TYPES and m.gram == "topic":
                # 这本书 / 这首歌 after 你读过X吗: titles are untyped, the topic frame vouches
                score += 2.0
                why += f", a title ({noun})"
            for delta in st.deltas:  # the signed terms, added in the same order as before
                score += delta
            out.append(new_candidate(m, score, why + st.suffix_why))
        out.sort(key=lambda c: -c.score)
        return out


SHARED = "shared"  # Mention.source of a phrase said in two turns


def _participant(m: Mention, d: Dialogue) -> bool:
    """Whether ``m`` was said as a participant of its turn: a subject, an object or a topic, a
    phrase both speakers said, or a whole turn (你认识tony吗 / tony; david bowie / …: yes; 你懂的
    nozuonodie: a tag glued on, no)."""
    if m.gram in _PARTICIPANT_GRAMS or m.source == SHARED:
        return True
    return any(
        ti.turn.index == m.turn and ti.turn.content.strip().lower() == m.text.lower()
        for ti in d.turns
    )


_PARTICIPANT_GRAMS = frozenset({"subj", "obj", "topic"})


# ``m`` with another entity type (a name the repetition revealed: 张宝华 tagged nz)
_retyped = fast_replace(Mention, "etype")
_NO_NAMES: frozenset[str] = frozenset()


def owner_mention(m: Mention, owner: str, etype: str, gram: str) -> Mention:
    """A mention of ``owner``, the words that open mention ``m`` (X of X的Y), in ``m``'s turn,
    role and order."""
    return new_mention(
        owner,
        owner,
        etype,
        m.turn,
        m.role,
        gram,
        m.start,
        m.start + len(owner),
        m.order,
        m.source,
    )


def _recency(back: int) -> str:
    """The reason a candidate ``back`` turns back loses score (recency -1.2)."""
    return f"recency -{0.6 * back:.1f}"


_RECENCY = tuple(_recency(b) for b in range(16))  # the usual ones, formatted once


class _Static(NamedTuple):
    """The part of a candidate's score :meth:`MultiTurn.rank` knows before seeing the query."""

    score: float  # the score before the query-dependent terms
    why: str  # the reasons of that score, joined with ", "
    deltas: tuple[float, ...]  # the signed terms added after the query-dependent ones, in order
    suffix_why: str  # the reasons of those terms that have one, each after ", "


_HOUSE_REFS = frozenset({"他", "她", "它"})  # 他家 / 她家 / 它家: one jieba word


class _Window(NamedTuple):
    """What scoring needs of a window: turn indexes, the last user turn, texts, last exchange."""

    back: dict[int, int]  # turn index -> how many turns back (0 = the last)
    last_user_index: int | None  # the last user turn's index, its text
    last_user_text: str | None
    texts: tuple[tuple[int, str], ...]  # (turn index, text)
    exchange: tuple[str, str] | None

    @classmethod
    def of(cls, turns: tuple[TurnInfo, ...]) -> _Window:
        """The window of a dialogue's turns, oldest first."""
        n = len(turns)
        back: dict[int, int] = {}
        texts: dict[int, str] = {}
        last = None  # the last user turn
        for k, ti in enumerate(turns):
            t = ti.turn
            back[t.index] = n - 1 - k  # as turns[::-1].index: the last one wins
            texts[t.index] = t.content
            if t.role == "user":
                last = t
        if last is None:
            return cls(back, None, None, tuple(texts.items()), None)
        exchange: tuple[str, str] | None = None
        for ti in turns:  # the answer: the first turn after the question
            if ti.turn.index > last.index:
                exchange = (last.content, ti.turn.content)
                break
        return cls(back, last.index, last.content, tuple(texts.items()), exchange)


class _Pool(NamedTuple):
    mentions: tuple[Mention, ...]
    echoed: frozenset[str]  # phrases credited as repeated (a shared stretch ends them)
    window: _Window
    statics: list[_Static | None]  # one per mention, computed on first use
    eligible: tuple[bool, ...]  # one per mention: MultiTurn._eligible, whatever the query


@dataclass
class _Shared:
    """The per-Rewriter state the multi-turn modes share (kept on the lexicon)."""

    analyzer: ContextAnalyzer
    refs: Any = None  # the memoised MultiTurn._references
    # a hit moves its window last (least recently used first out)
    pools: FifoMemo[tuple[tuple[int, str, str], ...], _Pool] = field(
        default_factory=lambda: FifoMemo(4096)
    )
    # a hit does not move (first in, first out)
    shared_pair: FifoMemo[tuple[str, str], tuple[int, int, str, str] | None] = field(
        default_factory=lambda: FifoMemo(8192)
    )


_THING_NAMES = frozenset({"product", "system", "drug", "plan"})
_SUBJECTS = frozenset({"subj", "topic"})
_NOTHING: frozenset[str] = frozenset()
BY_USER = "named by the user"  # a why-note of rank: said in the last user turn
_UNSEEN: Any = object()  # a pair the shared-span memo has not seen
_TOPICAL = frozenset({"NOUN", "OTHER"})
# what follows a verb glued to the noun before it (书写的 / 歌唱得 / 剧演了)
_VERB_AFTER = frozenset("的得了过着")
_WORDISH = re.compile(r"[\w\u3400-\u9fff]+")


_WHO = re.compile(r"谁|哪位")


def key(
    name: str = "",
    default: Any = None,
    *,
    absent: Any = None,
    ending: bool = False,
    prefix: str = "",
    sort: bool = False,
) -> Any:
    """A field of a :class:`RuleView`: the rule key ``name`` (the field's own name when empty;
    ``"pattern"`` is the rule's pattern), the value when the key is absent (``default``) and
    when the whole rule is (``absent``, else ``default``); ``ending`` anchors a pattern to the
    end of what it searches, ``prefix`` goes before every word of a word set (``pos:``), ``sort``
    sorts a word tuple."""
    meta = {"key": name, "default": default, "ending": ending, "prefix": prefix, "sort": sort}
    return field(default=default if absent is None else absent, metadata=meta)


_View = TypeVar("_View", bound="RuleView")


@dataclass(frozen=True)
class RuleView:
    """The keys of one rule, read once when a mode is built, each field by its declared type:
    ``frozenset[str]`` a word set (``rule_words``), ``tuple[str, ...]`` the words in their
    order, ``re.Pattern[str] | None`` a pattern (``rule_pattern``), ``tuple[int, int]`` two
    numbers (``key("min_len/max_len", (2, 8))``), ``int`` / ``float`` / ``bool`` / ``str`` a
    value; ``source`` is where the rule stands. Subclasses declare the fields; ``read`` fills
    them (the defaults when the rule is absent)."""

    source: str = ""

    @classmethod
    def read(cls: type[_View], rule: Rule | None) -> _View:
        if rule is None:
            return cls()
        values: dict[str, Any] = {}
        for f in fields(cls):
            name = str(f.metadata.get("key") or f.name)
            default = f.metadata.get("default", f.default)
            if f.name == "source":
                values[f.name] = rule.source
            elif f.type == "frozenset[str]":
                pre = f.metadata.get("prefix", "")
                values[f.name] = frozenset(pre + w for w in rule_words(rule, name))
            elif f.type == "tuple[str, ...]":
                words = rule_tuple(rule, name)
                values[f.name] = tuple(sorted(words)) if f.metadata.get("sort") else words
            elif f.type == "re.Pattern[str] | None":
                values[f.name] = (
                    rule.pattern
                    if name == "pattern"
                    else rule_pattern(rule, name, ending=bool(f.metadata.get("ending")))
                )
            elif f.type == "tuple[int, int]":
                lo, hi = name.split("/")
                values[f.name] = (int(rule.get(lo, default[0])), int(rule.get(hi, default[1])))
            elif f.type in ("int", "float", "bool", "str"):
                conv = {"int": int, "float": float, "bool": bool, "str": str}[str(f.type)]
                values[f.name] = conv(rule.get(name, default))
            else:
                raise TypeError(f"{cls.__name__}.{f.name}: no reader for {f.type}")
        return cls(**values)


@dataclass(frozen=True)
class LoneAnimal(RuleView):
    """rules/coreference.yaml ``lone_animal``, read by coreference (它) and comparison (它们 /
    他们): the animal words, the degree adverbs an animal word after them is not (很牛), the
    singular and the plural pronouns that may take the one animal named."""

    pronouns: frozenset[str] = frozenset()
    plural_pronouns: frozenset[str] = frozenset()
    animals: frozenset[str] = frozenset()
    not_after: frozenset[str] = frozenset()


def _who_answer(d: Dialogue) -> int | None:
    """The turn that answered the user's last who-question (红与黑的作者是谁 / 就是司汤达啦):
    the assistant turn right after it, when it is the window's last exchange."""
    turns = d.turns
    if len(turns) < 2:
        return None
    q, a = turns[-2], turns[-1]
    if q.turn.role != "user" or a.turn.role != "assistant" or not _WHO.search(q.turn.content):
        return None
    return a.turn.index if a.mentions else None


# a question asking to pick or name a thing (去哪玩 / 最喜欢哪本书 / 吃什么), not one asking
# what or who a topic is (李世民是谁 / 龟苓膏是什么)
_WHICH_Q = re.compile(r"哪|什么|啥")
# 什么动漫 / 哪首歌 / 啥书 / 哪一部电影 / 推荐一部好看的电影: a what-question (or a request
# for a recommendation) and the kind it asks for (`n`)
_WHAT_KIND = re.compile(
    r"(?:什么|啥|哪一?[部首本个款种家只位篇支]|推荐[一几]?[部首本个款种家只位篇支]?)"
    r"(?:[\u4e00-\u9fff]{1,3}的)?(?P<n>[\u4e00-\u9fff]{1,3})"
)
_MEASURES = frozenset("首部本款个种家只位篇支张台辆件")  # glued before a noun: 首歌
# a recommendation's praise after the title (小猪佩奇好看 / 晴天超好听的)
_PRAISED = re.compile(
    r"(?:很|超|超级|特别|挺|真)?(?:好看|好听|好玩|好吃|不错|经典|推荐)[的啊呀吧哦]*$"
)
_RECOMMENDED = re.compile(r"^(?:可以|推荐|建议)?(?:看看|看|听听|听|玩玩|玩|读读|读|试试)(?=..)")
OF_KIND = ", a kind of "  # the reason a candidate is of the kind a category noun names
TYPE_HINT = ", type hint"  # the reason a candidate is of the type the query's hint words ask for
# an offer before what the assistant names (来个鱼香肉丝 / 有火锅 / 吃盖饭)
_OFFERED = re.compile(r"^(?:来个|来份|来一份|来一个|来点|有|吃|就)(?=..)")
_KIND_ENDS = frozenset("座奖网版剧片语族省市县区路街线站队")  # 双鱼座 / 金球奖: kinds, not names
_TITLE = re.compile(r"[^\s,，。？?！!、;；:：]+")
ANSWER_KINDS = frozenset({"NOUN", "DE", "ADJ"})  # 平凡的世界 / 狮子座
_IDENTITY_Q = re.compile(r"是(?:什么|啥)[啊呀呢吗嘛?？]*$|是(?:哪里|哪儿)|谁")


def _whole_in_both(pa: Parse, a: int, pb: Parse, b: int, size: int) -> tuple[int, int]:
    """The common stretch ``pa.text[a:a+size] == pb.text[b:b+size]`` narrowed to start and end
    on a word boundary of both segmentations, as offsets in ``pb`` (``e <= s`` when none is
    left): 国人 of 哪国人 and 法国人 ends one turn's word and sits inside the other's, so it
    was said in neither as a phrase of its own."""
    cuts_a = {t.start - a for t in pa.tokens} | {t.end - a for t in pa.tokens}
    cuts = sorted(
        k
        for k in {t.start - b for t in pb.tokens} | {t.end - b for t in pb.tokens}
        if 0 <= k <= size and k in cuts_a
    )
    if not cuts:
        return b, b
    return b + cuts[0], b + cuts[-1]


_END_PUNCT = "?？!！。.~ "  # what ends a turn without being part of what it says


_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")


def phrase_len(text: str) -> int:
    """The length of a phrase as a cap on objects reads it: a Latin word (office365 / iphone)
    counts as one character, a Chinese character as one (买了office365: 1, not 9)."""
    return len(_LATIN_WORD.sub("A", text))


def unpunctuated(text: str) -> str:
    """``text`` without surrounding whitespace and the punctuation that ends it (你说呢？ ->
    你说呢): the form the answer and echo rules match a turn in."""
    return text.strip().rstrip(_END_PUNCT)


def unmodified(filler: str, query: str) -> str:
    """The head of ``filler`` when the query itself says the filler's modifier (the words
    before its last 的, or before a space): the query already says it of the head, so the
    filler restores the head alone. ``filler`` unchanged when the query does not say the
    modifier, or when the head is a single character (喜欢的人: the relative clause is what
    names the person, not a description the query repeats).

    Example:
        >>> unmodified("破旧的自行车", "怎么破旧了")
        '自行车'
        >>> unmodified("歌手 王五", "他是一名歌手")
        '王五'
        >>> unmodified("喜欢的人", "我不知道他喜不喜欢我")
        '喜欢的人'
    """
    for sep in ("的", " "):
        modifier, found, head = filler.rpartition(sep)
        if (
            found
            and len(modifier.strip()) >= 2
            and len(head.strip()) >= 2
            and modifier.strip() in query
        ):
            return head.strip()
    return filler


def said_before(d: Dialogue, m: Mention, filler: str, before: re.Pattern[str]) -> str:
    """What ``before`` (a pattern anchored at its end) finds right before ``filler`` in the
    turn the mention ``m`` came from (when ``filler`` is its text), or failing that in a turn of
    the last two, the reply first: a word the dialogue said the filler with (得了 / 今年 /
    那个); "" when none did.

    Example: with 得了水痘 said by the user, ``said_before(d, m, "水痘", re.compile("得了$"))``
    is "得了".
    """
    own = d.turn_at(m.turn)
    said = [own.turn.content[: m.start]] if own is not None and filler == m.text else []
    for ti in reversed(d.turns[-2:]):
        at = ti.turn.content.find(filler)
        if at > 0:
            said.append(ti.turn.content[:at])
    return next((f.group() for f in map(before.search, said) if f is not None), "")


def longest_common(a: str, b: str) -> tuple[int, int, int]:
    """``(start in a, start in b, size)`` of the longest stretch ``a`` and ``b`` have in common,
    the one that starts earliest in ``a``, at its first place in ``b``: what
    ``difflib.SequenceMatcher(None, a, b, autojunk=False).find_longest_match()`` gives, found by
    growing each start of ``a`` with substring tests (C-level searches on these short texts)
    instead of its character-by-character table. ``(0, 0, 0)`` when nothing is shared.

    Example:
        >>> longest_common("我要聊易烊千玺", "易烊千玺嗓音很棒")
        (3, 0, 4)
    """
    best = 0
    at = 0
    n = len(a)
    i = 0
    while i + best < n:
        j = i + best + 1  # only a longer stretch than the best so far counts
        if a[i:j] in b:
            while j < n and a[i : j + 1] in b:
                j += 1
            best = j - i
            at = i
        i += 1
    if not best:
        return 0, 0, 0
    return at, b.find(a[at : at + best]), best


def _bigrams(text: str) -> frozenset[str]:
    return frozenset(text[i : i + 2] for i in range(len(text) - 1))


def _kind(t: Any) -> str:
    """The word class, with a character jieba could not tag (烊 of 易烊千玺) counted as a word."""
    k = kind_of(t.pos, t.text)
    return "OTHER" if k == "PUNCT" and _WORDISH.fullmatch(t.text) else k


_ONE_OF = re.compile(r"一[种员个类部位款只]")


# who owns a person word in the turn that says it (我老公 / 你同桌); seen from the user's side,
# the assistant's "your" is the user's "my" (你同桌 -> 我同桌) and its "my" the user's "your"
_OWNER = re.compile(r"(?:我们|我的|我|你的|你)$")
_SWAPPED = {"你": "我", "你的": "我的", "我": "你", "我的": "你的"}


def user_owner(
    state: State, phrase: str, turn: Turn | None, at: int, *, claimed: bool = True
) -> str:
    """The owner of ``phrase`` (a person word or a relation: 老公 / 同桌 / 老家) seen from the
    user's side, from ``turn``, the turn that said whose it is, where ``phrase`` starts at
    ``at``: the owner the user said (我老公太让我伤心了 -> 我); the assistant's 你 / 我 swapped
    (你同桌 -> 我, 我的老家 -> 你的); "" when the turn says no owner (老公最厉害) or ``turn``
    is None. Why: a person word put back into the user's query without its owner leaves out
    whose it is, and the assistant speaks of the user as 你.

    With ``claimed`` (the default: a person word an antecedent brings) the assistant's 你 is
    the user's 我 only when a user turn said ``phrase`` after a 我 (我同桌 / 你同桌好帅 -> 我同桌;
    你老公真厉害 alone -> ""), and the assistant's own 我 gives no owner: the assistant may
    take up a word the user never owned. ``claimed=False`` (a relation of missing_subject
    ``owned_relations``, owned by whoever the last exchange says: 你男朋友是何方妖孽 / 是个大帅哥
    -> 我男朋友是个大帅哥) swaps without that check. The two differ on purpose (measured
    on the dev rows): the check everywhere drops the owner of relations the user never
    said with 我 (你爸妈呢 / 在另一个城市 -> 我爸妈在另一个城市), no check adds a 我 to
    persons the user never called theirs (我是北方人 / 那你男友呢 / 他叫阿杰 -> 我男友叫阿杰)."""
    owner = _OWNER.search(turn.content[:at]) if turn is not None else None
    if owner is None or turn is None:
        return ""
    if turn.role == "user":
        return owner.group()
    said = _SWAPPED.get(owner.group(), "")
    if not claimed or not said:
        return said
    if said.startswith("我") and any(
        t.role == "user" and phrase in t.content and "我" in t.content.split(phrase)[0]
        for t in state.history
    ):
        return said
    return ""


def thing_of_person(
    d: Dialogue, m: Mention, text: str, *, things: frozenset[str], told: frozenset[str]
) -> str:
    """The thing X的Y of X (``m``) the last two turns said (唱刘德华的歌 / 宋智孝的照片 / 李白的诗)
    when the query ``text`` says a predicate of things only (``things``, rules/completeness.yaml
    thing_predicates: 票价多少 / 发完了 / 能念几首么) and X is a person, or a telling verb
    (``told``, told_predicates: 讲一讲) of any X; else ``m``'s text.

    Why: a person has no ticket price and is not recited, so the query means what was said of
    the person, not the person (票价多少 -> 刘德华的歌票价多少); a telling verb tells the Y
    the last turns said of X (路遥的人生也写得很好 / 讲一讲 -> 讲一讲路遥的人生). Y is the nouns
    right after X的 (up to four characters, or one longer noun), the latest turn first; X as it
    is when no turn says X的 + a noun. A person is ``m`` or another mention of X typed one (a
    turn that only names a person is typed a thing; its name is not).
    """
    if not any(w in text for w in told):
        if not any(w in text for w in things):
            return m.text
        if m.etype not in HUMAN_TYPES and not any(
            x.text == m.text and x.etype in HUMAN_TYPES for x in d.mentions()
        ):
            return m.text
    for ti in reversed(d.turns[-2:]):
        at = ti.turn.content.find(m.text + "的")
        if at < 0:
            continue
        start = at + len(m.text) + 1
        nouns = ""
        for t in ti.parse.tokens:
            if t.start < start:
                continue
            if t.start != start + len(nouns) or kind_of(t.pos, t.text) != "NOUN":
                break
            if nouns and len(nouns) + len(t.text) > 4:
                break
            nouns += t.text
        if nouns:
            return m.text + "的" + nouns
    return m.text


def said_turn(state: State, m: Mention) -> Turn | None:
    """The history turn ``m`` was said in (None when it is out of the history)."""
    return next((t for t in state.history if t.index == m.turn), None)


def lone_animal(state: State, d: Dialogue, text: str, rule: LoneAnimal) -> Mention | None:
    """The animal 它 (or 它们 / 他们 with no group named) points at when the last exchange
    names exactly one kind of animal by a one-character word (rules/coreference.yaml
    ``lone_animal``: 狗 / 狗不吃骨头的 / 那它为什么吃屎 -> 狗), the user's word first; a doubled
    form (猫猫) is the same animal; not a word right after a ``not_after`` degree adverb (网易很牛:
    the adjective). None when the query names that animal itself, or the exchange names two."""
    exchange = last_exchange(state, d)
    if exchange is None:
        return None
    found: dict[str, tuple[Any, Any]] = {}
    for ti in exchange:
        before = ""
        for t in ti.parse.tokens:
            word = t.text[:1] if len(t.text) == 2 and t.text[0] == t.text[1] else t.text
            if word in rule.animals and word not in found and before not in rule.not_after:
                found[word] = (ti, t)
            before = t.text
    if len(found) != 1:
        return None
    word, (ti, t) = next(iter(found.items()))
    if word in text:
        return None
    return said_mention(word, "thing", ti.turn, "topic", t.start, rule.source)


def _word_from(toks: Sequence[Any], at: int) -> Any | None:
    """The first of ``toks`` (a parse's tokens) that starts at offset ``at`` or after it."""
    return next((u for u in toks if u.start >= at), None)


def _mention_said(ti: TurnInfo, text: str) -> Mention | None:
    """The first mention of turn ``ti`` that is ``text`` itself, no coordinated set."""
    return next((m for m in ti.mentions if not m.is_set and m.text == text), None)


def last_exchange(state: State, d: Dialogue) -> tuple[TurnInfo, TurnInfo] | None:
    """(the user's turn, the assistant's reply right after it) when that reply is the last
    message of the history and both are in the window; else None."""
    if len(d.turns) < 2 or not state.history:
        return None
    told, last = d.turns[-2], d.turns[-1]
    if (
        last.turn.role != "assistant"
        or told.turn.role != "user"
        or last.turn.index != state.history[-1].index
        or told.turn.index != last.turn.index - 1
    ):
        return None
    return told, last


def names_a_thing(toks: Sequence[Any]) -> bool:
    """The tokens are a noun phrase: a noun last, and a verb only inside a modifier, with a 的
    after it (写月亮与六便士的人 / 我喜欢的人; not 夺得第一名 / 房子塌了)."""
    if len(toks) > 2 and toks[-2].text == "的" and _ONE_OF.fullmatch(toks[-1].text):
        toks = toks[:-2]  # 股票的一种 / 组合的一员: one of a kind is a thing of that kind
    return (
        bool(toks)
        and kind_of(toks[-1].pos, toks[-1].text) == "NOUN"
        and not any(
            kind_of(t.pos, t.text) == "VERB" and not any(u.text == "的" for u in toks[i + 1 :])
            for i, t in enumerate(toks)
        )
    )


_SPEAKER = re.compile(r"[你我您咱]")
# a third-person pronoun in a dream told on (他把我推倒了), and what may open a turn before it
_NARRATED_PRONOUN = re.compile(r"他们|她们|它们|他俩|她俩|他|她|它")
# "one" opening a phrase (一个朋友 / 一条大黑蛇); a larger count says how many (两个陌生人)
_COUNTED = re.compile(r"^一[个只条位名头匹张本部件]")
_NARRATIVE_OPENERS = "然后后来接着就还又 ，,"
_LATIN_NAME = re.compile(r"[A-Za-z][A-Za-z .'-]*")
_ASKING = re.compile(r"多久|多少|多长|什么|怎么|哪|几")


_QEND = ("吗", "么", "呢", "?", "？")


def is_question(parse: Parse) -> bool:
    """A question: a final question particle / question mark (嘛 only as a word of its own), or
    a question word."""
    toks = [t.text for t in parse.tokens if t.text.strip()]
    return bool(toks) and (
        parse.text.rstrip().endswith(_QEND)
        or toks[-1] == "嘛"
        or any(is_question_word(t) for t in toks)
    )


def salient(c: Candidate, kinds: frozenset[str]) -> bool:
    """Is the candidate salient in one of the ways ``kinds`` accepts: ``topic`` (a topic frame
    of rules/context.yaml), ``entity`` (a dictionary entity), ``repeated`` (said in two turns),
    ``named`` (a person/place/org/product name from POS), ``lead`` (the subject or topic of the
    last user turn), ``exchange`` (asked about by the user and taken up by the answer),
    ``exchange_repeated`` (that, and said in two turns besides), ``kind``
    (of the kind the query's category noun names: 这个星座 -> 狮子座), ``hinted`` (of the type
    the query's hint words ask for: 冷不冷 -> 南极), ``any`` (whatever ranks first)?"""
    m = c.mention
    return (
        ("topic" in kinds and m.gram == "topic" and m.source.startswith("rules/"))
        or ("entity" in kinds and m.protected)
        or ("repeated" in kinds and "repeated" in c.why)
        or ("named" in kinds and m.etype in ("person", "place", "org", "product"))
        or ("set" in kinds and m.is_set)
        or ("lead" in kinds and "subject of last user turn" in c.why)
        or ("exchange" in kinds and "topic of the last exchange" in c.why)
        or (
            "exchange_repeated" in kinds
            and "topic of the last exchange" in c.why
            and "repeated" in c.why
        )
        or ("kind" in kinds and OF_KIND in c.why)
        or ("hinted" in kinds and TYPE_HINT in c.why)
        or ("any" in kinds)
    )


def ambiguous(cands: list[Candidate], d: Dialogue, *, margin: float = 0.75) -> bool:
    """Two or more equally plausible named antecedents (two products discussed, the user says
    它): the best candidate and another name/entity of its type are members of one coordinated
    set (A 和 B) in the window, or were said in the same turn with scores within ``margin``."""
    if len(cands) < 2:
        return False
    top = cands[0]
    a = top.mention
    rivals = set_rivals(cands, d)
    if rivals and not _user_echo(top, rivals):
        return True  # A和B哪个… then 它: the members are equally plausible by construction
    if not (a.protected or a.etype in NAMED_TYPES):
        return False
    for c in cands[1:]:
        b = c.mention
        if b.etype != a.etype or not (b.protected or b.etype in NAMED_TYPES):
            continue
        if _user_echo(top, [c]):
            continue  # 姚明 / 姚明和易建联都是中锋: the user's name, the reply's set around it
        if any(a.text in s.members and b.text in s.members for s in d.sets()):
            return True
        if BY_USER in top.why and BY_USER not in c.why:
            continue  # the user asked about it; the answer only mentioned the other in passing
        if a.turn == b.turn and top.score - c.score < margin:
            return True
    return False


def _user_echo(top: Candidate, others: list[Candidate]) -> bool:
    """The best candidate is what the user named and the reply repeated, and none of the
    others was named by the user: 姚明 / 姚明和易建联都是中锋 -> 他 is 姚明, no tie."""
    return (
        BY_USER in top.why
        and "repeated" in top.why
        and not any(BY_USER in c.why for c in others if c is not top)
    )


_COMPOUND_MARGIN = 3.0  # how much worse a compound name may score than its piece
_NAME_TYPES = frozenset({"person", "place", "org", "product", "other"})
# what may finish a compound name around a name (迈克尔|乔丹, 比特|币, NBA|勇士队): one to three
# characters, no numeral or measure (两个烧饼), no 的, no attribute (杭州|天气), not a name again
_ADDRESS = (
    "哥",
    "姐",
    "弟",
    "妹",
    "叔",
    "姨",
    "老师",
    "先生",
    "小姐",
    "女士",
    "同学",
    "大神",
    "大大",
)
_COMPOUND_REST = re.compile(r"[^\d的一二两三几个些这那是了]{1,3}")


def _compound_rest(wider: str, part: str, attributes: frozenset[str]) -> bool:
    if wider.startswith(part):
        rest = wider[len(part) :]
    elif wider.endswith(part):
        rest = wider[: -len(part)]
    else:
        return False
    return (
        bool(_COMPOUND_REST.fullmatch(rest))
        and rest not in attributes
        and part not in rest
        and not rest.endswith(_ADDRESS)  # 张杰|哥, 小姐姐|朱主爱: a form of address, not a name
    )


def _entity_judged(ti: TurnInfo, name: str) -> bool:
    """The turn's ``name`` (rules/context.yaml whole_turn_name) opens with a name the
    dictionaries list whole and goes on with a predicate on it: an adjective, an adverb or a
    verb (周杰伦 + 好帅 / 刘德华 + 唱歌). Why: the reply that repeats such a turn word for word
    makes no longer name of it; the listed name is the one to take (周杰伦好帅 / 周杰伦好帅 /
    他们是谁 -> 周杰伦是谁, not 周杰伦好帅是谁)."""
    start = ti.turn.content.find(name)
    for m in ti.mentions:
        if not m.protected or ".yaml" not in m.source or m.start != start:
            continue
        end = m.end
        nxt = next((t for t in ti.parse.tokens if t.start == end), None)
        if end < start + len(name) and nxt is not None:
            return kind_of(nxt.pos, nxt.text) in ("ADJ", "ADV", "VERB")
    return False


def _user_fuller(wider: Candidate, part: str, versions: re.Pattern[str] | None) -> bool:
    """The user's own turn said ``wider``, a fuller form of the name ``part``: the name with
    words before it (列夫托尔斯泰 / 托尔斯泰) or its numbered version (战狼二 / 战狼). Then the
    user named ``part`` only inside it, and a name of the dictionaries is no reason to keep the
    piece (你看过战狼二吗 / …战狼 / 好看吗 -> 战狼二好看吗); a phrase that goes on after the name
    (宫崎骏第一部动画电影 / 郭德纲相声) or a 的-phrase (村上春树的挪威的森林) is no fuller name,
    and neither is a stray particle the segmenter left before it (过王俊凯)."""
    text = wider.mention.text
    if wider.mention.role != "user":
        return False
    if text.endswith(part):
        lead = text[: -len(part)]
        return len(lead) >= 2 and "的" not in lead
    rest = text[len(part) :] if text.startswith(part) else ""
    return bool(rest) and versions is not None and versions.match(rest) is not None


def _fuller_name(wider: Candidate, part: Candidate, versions: re.Pattern[str] | None) -> bool:
    """``wider`` is the user's fuller form of the name ``part`` (:func:`_user_fuller`) that ends
    with it, in the same script (克里斯|保罗, david |bowie; not fgo|李书文). Why: the reply and
    the chat shorten a name the user said in full, and the rewrite says it as the user did.
    Example: 克里斯保罗是我最喜欢的球星 / 我喜欢保罗 / 他能夺冠吗 -> 克里斯保罗能夺冠吗."""
    text, piece = wider.mention.text, part.mention.text
    if part.mention.etype not in _NAME_TYPES or not text.endswith(piece):
        return False
    lead = text[: -len(piece)].strip()
    return lead.isascii() == piece.isascii() and _user_fuller(wider, piece, versions)


def outermost(texts: Sequence[str] | set[str]) -> list[str]:
    """The texts no other of ``texts`` contains (S7 inside 云栖S7, 球迷 inside 天台的球迷: a name
    inside a longer one is the same thing), in their order."""
    return [t for t in texts if not any(t != u and t in u for u in texts)]


def merge_nested(
    cands: list[Candidate],
    margin: float,
    *,
    attributes: frozenset[str] = frozenset(),
    own_names: frozenset[str] = frozenset(),
    versions: re.Pattern[str] | None = None,
    fuller_names: bool = False,
) -> list[Candidate]:
    """A name inside a longer candidate that scores about as well (S7 in 云栖S7扫地机,
    养老年金 in 金福来养老年金) is the same referent, not a rival: keep the longer phrase. A
    phrase both speakers said in full (安享一生终身寿险) absorbs the piece the segmenter cut
    from its end (终身寿险) whatever their scores, and takes the better score; a phrase that
    only starts with a name (etcd的日志) does not absorb the name. A name is absorbed by a
    compound name that starts or ends with it (乔丹 / 迈克尔乔丹), but not by the name plus one of
    ``attributes`` (杭州天气: an attribute of the name, not a longer name). One of
    ``own_names`` (case-folded dictionary persons and works) the user named is not absorbed by a
    longer phrase only the reply said (海绵宝宝 / 海绵宝宝动画). A name is absorbed by its
    numbered version whatever their scores when ``versions`` matches what follows it (小米 /
    小米8, 战狼 / 战狼2; a sign's stem by its full name: 双鱼 / 双鱼座). With ``fuller_names``
    (a person pronoun) a name is absorbed whatever the scores by the user's fuller form of it
    (:func:`_fuller_name`: 克里斯保罗 / 保罗, david bowie / bowie)."""
    out: list[Candidate] = []
    absorbed: dict[str, Candidate] = {}  # wider phrase -> the best part it absorbed
    texts = [c.mention.text for c in cands]
    for c in cands:
        ct = c.mention.text
        # the phrases that contain this one (a cheap test over the texts first: most pairs are
        # unrelated)
        around = [o for o, ot in zip(cands, texts, strict=True) if ct in ot and ct != ot]
        if not around:
            out.append(c)
            continue
        # 你看海绵宝宝么 / 喜欢看海绵宝宝动画: a person or a work the user named is not absorbed
        # by a longer phrase only the reply said
        mine = BY_USER in c.why and c.mention.text.casefold() in own_names
        wider = [
            o
            for o in around
            if not (mine and BY_USER not in o.why and not _user_fuller(o, ct, versions))
            and (
                o.score >= c.score - margin
                # the full name both said ends with the piece (安享一生终身寿险 / 终身寿险)
                or (o.mention.source == SHARED and o.mention.text.endswith(c.mention.text))
                # a brand inside a product's full name (福满堂 / 福满堂终身寿险)
                or (o.mention.etype in _THING_NAMES and c.mention.etype not in _THING_NAMES)
                # a numbered version of the name (小米 / 小米8, 战狼 / 战狼2)
                or (
                    versions is not None
                    and o.mention.text.startswith(ct)
                    and versions.match(o.mention.text[len(ct) :]) is not None
                )
                # the user's fuller form of a person's name that ends with it (克里斯保罗 /
                # 保罗 in the reply): the user's name, whatever the piece scores as the topic
                or (fuller_names and _fuller_name(o, c, versions))
                # a piece of a compound name that starts or ends with it (乔丹 / 迈克尔乔丹,
                # 比特 / 比特币, NBA / NBA勇士队): the full name, unless it is a 的-phrase
                or (
                    o.score >= c.score - _COMPOUND_MARGIN
                    and c.mention.etype in _NAME_TYPES
                    and _compound_rest(o.mention.text, c.mention.text, attributes)
                )
            )
        ]
        if not wider:
            out.append(c)
            continue
        host = max(wider, key=lambda o: (o.mention.source == SHARED, o.score))
        prev = absorbed.get(host.mention.text)
        if prev is None or c.score > prev.score:
            absorbed[host.mention.text] = c
    for i, c in enumerate(out):
        part = absorbed.get(c.mention.text)
        if part is not None and part.score > c.score:
            out[i] = Candidate(
                c.mention, part.score, f"{c.why}, {part.why} (as {part.mention.text})"
            )
    out.sort(key=lambda c: -c.score)
    return out


def set_rivals(cands: list[Candidate], d: Dialogue) -> list[Candidate]:
    """When the best candidate is a member of a coordinated set of the window (A和B), the
    candidates that are members of that set, in the set's order; else an empty list."""
    top = cands[0].mention.text
    for st in d.sets():
        if top in st.members:
            members = [c for c in cands if c.mention.text in st.members]
            if len({c.mention.text for c in members}) >= 2:
                order = {t: i for i, t in enumerate(st.members)}
                seen: set[str] = set()
                out = []
                for c in sorted(members, key=lambda c: order[c.mention.text]):
                    if c.mention.text not in seen:
                        seen.add(c.mention.text)
                        out.append(c)
                return out
    return []


def ambiguous_with(cands: list[Candidate], d: Dialogue) -> list[Candidate]:
    """The candidates to name in the clarification question: the members of the best one's
    set, or else the candidates of its type."""
    return set_rivals(cands, d) or [c for c in cands if c.mention.etype == cands[0].mention.etype]


def named_referent(state: State) -> bool:
    """Whether a reference of the query was already resolved to a person's name (etype
    ``person``, not a person word such as 前男友). Why: such a query names who it is about, and
    asking the user would throw that resolution away over a second reference (那这个你去问他 /
    他们幸福么) that the user's words keep well enough. Example: after 他 -> 伍佰 in 那这个你去问他,
    the unresolved 这个 no longer makes the rewrite ask."""
    return any(e.slot == "referent" and e.type == "person" for e in state.resolved_context)


def ask(
    state: State,
    mode_id: str,
    rule: str,
    *,
    question: str,
    missing: tuple[str, ...],
    note: str,
) -> State:
    """The ask-the-user result: nothing is invented, the user is asked to name the entity.

    Once a reference of the query was resolved to a name, a further reference that finds
    nothing stays as the user wrote it instead (李晨 / 他是我第一个喜欢的明星 -> 李晨是我第一个
    喜欢的明星): the query is then clear enough to search, see :func:`named_referent`."""
    if named_referent(state):
        return state.note(mode_id, rule, f"{note}; left as said after a name was resolved")
    step = new_step(mode_id, rule, state.standalone, state.standalone, None, "applied", note)
    return state.with_step(
        step,
        decision="ask_user",
        clarification=question,
        missing_fields=missing,
        confidence=min(state.confidence, 0.3),
    )


def resolved(
    state: State,
    mode_id: str,
    rule: str,
    new_text: str,
    mention: Mention,
    *,
    slot: str,
    note: str,
    confidence: float = 0.8,
) -> State:
    entity = new_entity(mention.text, mention.etype, mention.turn, mention.role, mention.gram, slot)
    step = new_step(mode_id, rule, state.standalone, new_text, mention.turn, "applied", note)
    return state.with_step(
        step,
        standalone=new_text,
        resolved_context=(*state.resolved_context, entity),
        confidence=min(state.confidence, confidence),
    )


def candidates_question(cands: list[Candidate], k: int = 3) -> str:
    names = [c.mention.text for c in cands[:k]]
    return f"您指的是{'还是'.join(names)}？"


def _ref_with(r: Ref, **kw: Any) -> Ref:
    import dataclasses

    return dataclasses.replace(r, **kw)


def _hanlp_parser(lexicon: Lexicon, config: Any) -> Any:
    """The HanLP backend (``parser="hanlp"``): one shared instance per lexicon and model (so
    every mode uses one loaded model and one parse cache), loaded lazily on the first parse."""
    from rulerewrite.text import make_parser

    return make_parser(config, lexicon)
