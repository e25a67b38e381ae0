"""The dialogue: validated history turns, the window the modes look at, and its entities.

:func:`parse_history` validates the caller's messages into :class:`Turn` s. A
:class:`ContextAnalyzer` (built once per Rewriter) turns the last ``window`` exchanges into a
:class:`Dialogue`: chit-chat turns dropped by rules, every other turn parsed once (cached) and
its :class:`Mention` s extracted with turn, speaker, grammatical role and type, coordinated sets
(A、B 和 C) kept in order so 前者/后者/第二个/这两个 can point into them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rulerewrite.errors import QueryError
from rulerewrite.fastinit import fast_init, fast_replace
from rulerewrite.lexicon.readers import required_text, rule_pattern, rule_words
from rulerewrite.text.builtin_parser import is_stray_char, kind_of, may_end_name, noun_phrases
from rulerewrite.text.normalize import clean_query
from rulerewrite.text.parse import Parse, Parser, Token

if TYPE_CHECKING:
    from rulerewrite.lexicon import Lexicon

ROLES = ("user", "assistant", "system")


@dataclass(frozen=True, slots=True)
class Turn:
    """One history message. ``index`` is its position in the caller's history (0 = oldest)."""

    index: int
    role: str
    content: str


# Turn(index, role, content) without the frozen __init__ (every history message of every rewrite)
new_turn = fast_init(Turn)


def parse_history(history: Sequence[Any] | None, *, max_chars: int = 4096) -> tuple[Turn, ...]:
    """Validate ``history`` (OpenAI-style messages or plain strings) into turns.

    Plain strings alternate user/assistant starting with the user. A malformed item raises
    :class:`QueryError` (or :class:`TypeError` for a wrong container type) naming its index.

    Example:
        >>> parse_history(["iPad Air 多少钱", "4799 元起"])[1].role
        'assistant'
    """
    if history is None:
        return ()
    if isinstance(history, (str, bytes)) or not isinstance(history, Sequence):
        raise TypeError(
            f"history must be a list of messages or strings, got {type(history).__name__}"
        )
    turns: list[Turn] = []
    for i, item in enumerate(history):
        role: Any
        content: Any
        if isinstance(item, str):
            role, content = ("user" if i % 2 == 0 else "assistant"), item
        elif isinstance(item, dict):
            role = item.get("role")
            content = item.get("content")
            if role not in ROLES:
                raise QueryError(
                    f"[RR301] history item {i}: role must be one of {list(ROLES)}, got {role!r}"
                )
            if not isinstance(content, str):
                raise QueryError(
                    f"[RR302] history item {i}: content must be a string, got {type(content).__name__}"
                )
        else:
            raise QueryError(
                f"[RR300] history item {i}: expected a string or a {{'role', 'content'}} mapping, "
                f"got {type(item).__name__}"
            )
        content = clean_query(content)
        if len(content) > max_chars:
            content = content[:max_chars]
        turns.append(new_turn(i, str(role), content))
    return tuple(turns)


# -- the window and the entities of the last turns ---------------------------------------------

ENTITY_TYPES_OF_POS = {
    "nr": "person",
    "nrt": "person",
    "nrfg": "person",
    "ns": "place",
    "nt": "org",
    "nz": "other",
    "eng": "product",
    "j": "other",
}
_CODE = re.compile(r"[a-z]{0,4}[-_]?\d{6,}", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Mention:
    """An entity or noun phrase found in a history turn.

    ``text`` is the phrase as written (modifiers included: 项目管理里的里程碑), ``head`` its head
    word (里程碑), ``etype`` product/person/place/org/code/time/thing/... (the dictionary type when
    the phrase is a dictionary entity), ``turn``/``role`` where it was said, ``gram`` its
    grammatical role (subj, obj, topic, att, dep), ``members`` the conjuncts of a coordinated set
    in order (A、B 和 C), ``source`` how it was found (a dictionary ``file:line`` or ``pos:<tag>``).
    """

    text: str
    head: str
    etype: str
    turn: int
    role: str
    gram: str
    start: int
    end: int
    order: int  # position among the mentions of its turn
    source: str
    members: tuple[str, ...] = ()
    protected: bool = False

    @property
    def is_set(self) -> bool:
        return len(self.members) >= 2

    def at_turn(self, turn: int) -> Mention:
        """The same mention said at another turn index (``dataclasses.replace(m, turn=turn)``
        without its field introspection: a moved turn re-indexes all its mentions)."""
        return _mention_at_turn(self, turn)


# Mention(...) without the frozen __init__: the mentions of a turn are re-indexed whenever the
# window slides, and shared spans, owners of attributes and ellipsis antecedents are made per
# rewrite
new_mention = fast_init(Mention)
_mention_at_turn = fast_replace(Mention, "turn")


def said_mention(text: str, etype: str, turn: Turn, gram: str, start: int, source: str) -> Mention:
    """A phrase a rule found whole at ``start`` of ``turn`` (a title asked for, a name the
    reply repeated), as a mention headed by itself: not one the noun-phrase chunker made."""
    return new_mention(
        text, text, etype, turn.index, turn.role, gram, start, start + len(text), 0, source
    )


# the types that say nothing about what a phrase names (a noun chunk, an unknown word): a
# verb of enjoying a work may make a title of one, 他/她 may take one only at a penalty
UNKNOWN_TYPES = frozenset({"thing", "other"})
# 是 after a phrase, then the phrase it is said to be (新垣结衣是我老婆: 我 is no part of 老婆)
_COPULA_TO = re.compile(r"(?:就|也|真|可|都)?是(?:我|你|他|她|我们|你们)?(?:的)?")
# the same, with a measure word before the person (洪X是个坏人 / 江北是一位医生): what
# _copula_people reads, a description said of the phrase
_COPULA_ONE = re.compile(
    r"(?:就|也|真|可|都)?是(?:我|你|他|她|我们|你们)?(?:的)?(?:一)?(?:个|位|名)?"
)
# what may follow the person a phrase is said to be (新垣结衣是我老婆呀), not a verb (数学是英语
# 老师教的: the subject is what the teacher taught)
_CLAUSE_END = re.compile(r"[啊呀呢吧哦哈嘛啦了喔~。！!？?，,\s]*$|[。！!？?，,\s]")


# per text: the runs that may be a word jieba does not know, (start, end, gram) each, and
# their spans (ContextAnalyzer._runs)
_Runs = tuple[tuple[tuple[int, int, str], ...], frozenset[tuple[int, int]]]


def _after_addressee(
    out: list[tuple[int, int, str, str, str, str, bool]], text: str, cut: int
) -> list[tuple[int, int, str, str, str, str, bool]]:
    """The phrases of a turn that opens by addressing the assistant (小微泡泡糖怎么样), each
    starting after the address: the address itself is no phrase (小微), and a phrase it opens
    starts after it (泡泡糖)."""
    kept = []
    for s, e, phrase, head, etype, src_gram, prot in out:
        if s < cut < e:
            s, phrase = cut, text[cut:e]
            head = head if head in phrase else phrase
        elif s < cut:
            continue
        kept.append((s, e, phrase, head, etype, src_gram, prot))
    return kept


@dataclass(frozen=True, slots=True)
class TurnInfo:
    """One analysed history turn: its parse, mentions and whether it is chit-chat."""

    turn: Turn
    parse: Parse
    mentions: tuple[Mention, ...]
    chitchat: bool


class Dialogue:
    """The window the modes look at: analysed turns, oldest first (chit-chat turns excluded).

    Built lazily by :meth:`ContextAnalyzer.dialogue`: the turns are analysed (segmented,
    parsed, their mentions extracted) on the first read of ``turns`` / ``dropped`` (or of what
    derives from them), so a mode that builds the window and then finds nothing to resolve
    costs no analysis of the history. Immutable once read; equal when the windows are equal.
    """

    __slots__ = ("_build", "_dropped", "_memo", "_turns")

    def __init__(self, turns: tuple[TurnInfo, ...] = (), dropped: tuple[int, ...] = ()) -> None:
        self._turns = turns
        self._dropped = dropped  # indexes of chit-chat turns dropped from the window
        self._build: Callable[[], tuple[tuple[TurnInfo, ...], tuple[int, ...]]] | None = None
        # memo of mentions() / sets(), filled on first use (the window never changes)
        self._memo: dict[str, tuple[Mention, ...]] = {}

    @classmethod
    def lazy(cls, build: Callable[[], tuple[tuple[TurnInfo, ...], tuple[int, ...]]]) -> Dialogue:
        """A window whose ``(turns, dropped)`` ``build`` makes on first use."""
        d = cls()
        d._build = build
        return d

    @property
    def analysed(self) -> bool:
        """Have the turns been analysed (always, for a window not built lazily)?"""
        return self._build is None

    @property
    def turns(self) -> tuple[TurnInfo, ...]:
        if self._build is not None:
            self._force()
        return self._turns

    @property
    def dropped(self) -> tuple[int, ...]:
        if self._build is not None:
            self._force()
        return self._dropped

    def _force(self) -> None:
        build, self._build = self._build, None
        if build is not None:
            self._turns, self._dropped = build()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dialogue):
            return NotImplemented
        return (self.turns, self.dropped) == (other.turns, other.dropped)

    def __hash__(self) -> int:
        return hash((self.turns, self.dropped))

    def __repr__(self) -> str:
        return f"Dialogue(turns={self.turns!r}, dropped={self.dropped!r})"

    def mentions(self) -> list[Mention]:
        """All mentions, most recent turn first, in reading order within a turn."""
        ms = self._memo.get("mentions")
        if ms is None:
            ms = self._memo["mentions"] = tuple(
                m for ti in reversed(self.turns) for m in ti.mentions
            )
        return list(ms)

    def sets(self) -> list[Mention]:
        ss = self._memo.get("sets")
        if ss is None:
            ss = self._memo["sets"] = tuple(m for m in self.mentions() if m.is_set)
        return list(ss)

    def turn_at(self, index: int) -> TurnInfo | None:
        """The turn of the window with this history ``index`` (None when it was dropped or is
        outside the window)."""
        for ti in self.turns:
            if ti.turn.index == index:
                return ti
        return None

    def said(self, index: int) -> str:
        """What the turn of the window with this history ``index`` says ("" for none)."""
        ti = self.turn_at(index)
        return "" if ti is None else ti.turn.content

    def last_user(self) -> TurnInfo | None:
        for ti in reversed(self.turns):
            if ti.turn.role == "user":
                return ti
        return None


class ContextAnalyzer:
    """Builds :class:`Dialogue` windows; each distinct turn is analysed once (LRU cache keyed by
    role and text, so the turns of one conversation are parsed once across its rewrites).

    Example:
        >>> from rulerewrite.lexicon import Lexicon
        >>> ca = ContextAnalyzer(Lexicon.load(domains=[]))
        >>> d = ca.dialogue(parse_history(["北京和上海哪个冷", "北京更冷"]))
        >>> [m.members for m in d.sets()]
        [('北京', '上海')]
    """

    def __init__(
        self, lexicon: Lexicon, *, window: int = 3, parser: Parser | None = None, cache: int = 4096
    ) -> None:
        from rulerewrite.text.builtin_parser import BuiltinParser, surnames_of

        self.lexicon = lexicon
        self.window = window
        self.parser: Parser = parser or BuiltinParser.for_lexicon(lexicon)
        self.human_heads: tuple[str, ...] = ()
        self.not_human: frozenset[str] = frozenset()
        self.not_name_ends: tuple[str, ...] = ()
        self.topic_not_first: tuple[str, ...] = ()
        self.topic_not_last: tuple[str, ...] = ()
        self.topic_not_inside: tuple[str, ...] = ()
        # what runs on after a topic (a particle, a reason, a comment): rules/context.yaml
        # topic_bounds ``cut``
        self.topic_cut: re.Pattern[str] | None = None
        self.topic_cut_keep: frozenset[str] = frozenset()
        self.non_entity: frozenset[str] = frozenset()
        self.named_kinds: list[tuple[re.Pattern[str], str]] = []
        self.work_verbs: frozenset[str] = frozenset()
        self.manner_words: frozenset[str] = frozenset()  # 怎么 / 如何 (rules/context.yaml)
        # a numeral and measure opening a noun phrase: its tags and its text (rules/context.yaml
        # quantity_opener)
        self.opener_tags: frozenset[str] = frozenset()
        self.opener: re.Pattern[str] | None = None
        # a person frame's X that is a role (网易老板是谁 / 微软之父是谁): not typed a person
        self.role_ends: tuple[str, ...] = ()
        self.kin_one: frozenset[str] = frozenset()  # 哥 of 我哥 (rules/context.yaml owned_kin)
        # 小姐姐 of 朱小满小姐姐: a word of address after a name (rules/context.yaml
        # name_apposition)
        self.address_after: frozenset[str] = frozenset()
        # 这 / 首 of 这首歌林一鸣: a demonstrative and the measures after it (name_apposition)
        self.name_demonstratives: frozenset[str] = frozenset()
        self.name_measures: tuple[str, ...] = ()
        # 狗狗 / 痘痘: doubled words that name a thing (rules/context.yaml doubled_things)
        self.doubled_things: frozenset[str] = frozenset()
        # longest first (欧阳 before 欧) for str.startswith
        self.surnames: tuple[str, ...] = tuple(sorted(surnames_of(lexicon), key=lambda x: -len(x)))
        self.translit_chars: frozenset[str] = frozenset()
        self.translit_min = 3
        self.translit_edge = 0  # off unless rules/context.yaml transliteration sets edge_min
        # the tags of one name character jieba glued on as a verb, and of what may precede it
        # (rules/context.yaml transliteration glued_tags / glued_after)
        self.translit_glued: frozenset[str] = frozenset()
        self.translit_glued_after: frozenset[str] = frozenset()
        # dictionary names that are a phrase of their own: the words before them are no part
        # (rules/context.yaml ``entity_phrase``)
        ep = lexicon.rule("context", "entity_phrase")
        self.own_phrase_types = frozenset(map(str, ep.get("types") or ())) if ep else frozenset()
        suffixes: list[tuple[str, str]] = []
        chitchat: list[tuple[re.Pattern[str], str]] = []
        self.topic_frames: list[tuple[re.Pattern[str], str, str | None]] = []
        # a set frame's members are topics of their turn unless the rule says otherwise
        # (``member_role``: 不是A就是B hedges between two, neither is the turn's topic)
        self.set_frames: list[tuple[re.Pattern[str], str, str]] = []
        self.relative_frames: list[tuple[re.Pattern[str], str]] = []
        # 叫野猪佩琪的人 / 松冈茉优的照片 / 模特水原希子: a slot only a person fills, and the
        # unknown name in it (rules/context.yaml kind: name_slot)
        self.name_slots: list[tuple[re.Pattern[str], str]] = []
        self.slot_trimmed: frozenset[str] = frozenset()  # slots open on the left (their source)
        self.slot_not_last = ""
        self.slot_not_first = ""
        # per slot, the tags of a dictionary word that fills it as a name (扶苏 ns in 扶苏怼你)
        self.slot_proper: dict[str, frozenset[str]] = {}
        self.slot_not_chars = ""
        self.slot_common_freq = 0
        self.slot_not_edge_tags: frozenset[str] = frozenset()
        self.slot_not_word_tags: frozenset[str] = frozenset()
        for r in lexicon.rules.get("context", ()):
            if r.get("human_heads"):
                self.human_heads += tuple(r.get("human_heads"))
            if r.get("manner_words"):
                self.manner_words |= frozenset(str(w) for w in r.get("manner_words"))
            if r.get("opener_tags") and r.pattern is not None:
                self.opener_tags |= frozenset(str(t) for t in r.get("opener_tags"))
                self.opener = r.pattern
            if r.get("not_human"):
                self.not_human |= frozenset(str(w) for w in r.get("not_human"))
            if r.get("not_name_ends"):
                self.not_name_ends += tuple(str(w) for w in r.get("not_name_ends"))
            if r.get("not_first"):
                self.topic_not_first += tuple(str(w) for w in r.get("not_first"))
            if r.get("not_last"):
                self.topic_not_last += tuple(str(w) for w in r.get("not_last"))
            if r.get("not_inside"):
                self.topic_not_inside += tuple(str(w) for w in r.get("not_inside"))
            if r.get("cut") and r.id == "topic_bounds":
                self.topic_cut = re.compile(str(r.get("cut")))
                self.topic_cut_keep = frozenset(str(t) for t in (r.get("cut_keep") or ()))
            for etype, words in (r.get("type_suffixes") or {}).items():
                suffixes += [(str(w), str(etype)) for w in words]
            if r.get("chars") and r.id == "transliteration":
                self.translit_chars = frozenset("".join(str(r.get("chars")).split()))
                self.translit_min = int(r.get("min_len") or 3)
                self.translit_edge = int(r.get("edge_min") or 0)
                self.translit_glued = rule_words(r, "glued_tags")
                self.translit_glued_after = rule_words(r, "glued_after")
            if r.get("doubled_things"):
                self.doubled_things |= frozenset(str(w) for w in r.get("doubled_things"))
            if r.get("address_after"):
                self.address_after |= frozenset(str(w) for w in r.get("address_after"))
            if r.get("demonstratives"):
                self.name_demonstratives |= frozenset(str(w) for w in r.get("demonstratives"))
                self.name_measures += tuple(str(w) for w in r.get("measures") or ())
            if r.get("kin_one"):
                self.kin_one = self.kin_one | frozenset(str(w) for w in r.get("kin_one"))
            if r.get("work_verbs"):
                self.work_verbs = self.work_verbs | frozenset(str(w) for w in r.get("work_verbs"))
            for kind, pat in (r.get("named_kinds") or {}).items():
                self.named_kinds.append((re.compile(str(pat)), str(kind)))
            if r.get("non_entity"):
                self.non_entity = self.non_entity | frozenset(r.get("non_entity"))
            if r.pattern is not None and r.get("kind") == "chitchat":
                chitchat.append((r.pattern, r.source))
            if r.pattern is not None and r.get("kind") == "topic":
                self.topic_frames.append((r.pattern, r.source, r.get("type")))
                if r.get("type") == "person":
                    self.role_ends += tuple(str(w) for w in r.get("role_ends") or ())
            if r.pattern is not None and r.get("kind") == "set":
                self.set_frames.append((r.pattern, r.source, str(r.get("member_role") or "topic")))
            if r.pattern is not None and r.get("kind") == "relative":
                self.relative_frames.append((r.pattern, r.source))
            if r.pattern is not None and r.get("kind") == "name_slot":
                self.name_slots.append((r.pattern, r.source))
                if r.get("open_left"):
                    self.slot_trimmed = self.slot_trimmed | {r.source}
                if r.get("proper_tags"):
                    self.slot_proper[r.source] = rule_words(r, "proper_tags")
            if r.get("slot_not_last"):
                self.slot_not_last = str(r.get("slot_not_last"))
            if r.get("slot_not_first"):
                self.slot_not_first = str(r.get("slot_not_first"))
            if r.get("slot_not_chars"):
                self.slot_not_chars = str(r.get("slot_not_chars"))
            if r.get("slot_common_freq"):
                self.slot_common_freq = int(r.get("slot_common_freq"))
            if r.get("slot_not_edge_tags"):
                self.slot_not_edge_tags = rule_words(r, "slot_not_edge_tags")
            if r.get("slot_not_word_tags"):
                self.slot_not_word_tags = rule_words(r, "slot_not_word_tags")
        self.chitchat_patterns = chitchat
        # per frame, a search for the words every match of it holds (None: none to read off
        # it), so a turn that holds none of them skips the frame (most turns, most frames)
        self._topic_needs = tuple(required_text(p) for p, _s, _t in self.topic_frames)
        self._set_needs = tuple(required_text(p) for p, _s, _r in self.set_frames)
        self._relative_needs = tuple(required_text(p) for p, _s in self.relative_frames)
        self._slot_needs = tuple(required_text(p) for p, _s in self.name_slots)
        self.topic_sources = frozenset(src for _p, src, _t in self.topic_frames)
        self.relative_sources = frozenset(src for _p, src in self.relative_frames)
        whole = lexicon.rule("context", "whole_turn_name")
        self.whole_turn = whole.pattern if whole is not None else None
        self.whole_turn_source = whole.source if whole is not None else "context"
        # mentions a topic frame or whole_turn_name took whole: a 你 / 我 inside is part of a word
        self.title_sources = self.topic_sources | {self.whole_turn_source}
        # how many opening characters a later turn may drop and still echo the name (千玺 of
        # 易烊千玺); 0 when the rule does not say
        self.whole_turn_tail = int(whole.get("echoed_tail_drop") or 0) if whole is not None else 0
        # 别生气 / 别客气: a prohibition jieba made one word of is no mention (:meth:`_prohibits`)
        prohibition = lexicon.rule("context", "prohibition")
        self.prohibition = prohibition.pattern if prohibition is not None else None
        # 不帅 / 没劲: a negated predicate jieba made one word of is no mention either
        negated = lexicon.rule("context", "negated_predicate")
        self.negated = negated.pattern if negated is not None else None
        self.negated_tags = (
            frozenset(negated.get("tags") or ()) if negated is not None else frozenset()
        )
        # a polite opener (劳驾 / 麻烦) is no thing talked about, whatever jieba tags it
        self.non_entity = self.non_entity | frozenset(
            e.text for e in lexicon.entries_of("fw:polite")
        )
        # the person words of two or more characters, for phrases jieba cut inside one (男/神)
        self.human_words = tuple(h for h in self.human_heads if len(h) >= 2)
        owned = lexicon.rule("context", "owned_person")
        self.owned_person = owned.pattern if owned is not None else None
        self.owned_not_after: tuple[str, ...] = tuple(
            str(w) for w in ((owned.get("not_after") or []) if owned is not None else [])
        )
        self.owned_not_before: tuple[str, ...] = tuple(
            str(w) for w in ((owned.get("not_before") or []) if owned is not None else [])
        )
        # verbs jieba tags a noun: never the last / first word of a longer phrase
        # (rules/context.yaml mention_edges)
        edges = lexicon.rule("context", "mention_edges")
        self.verb_last = rule_words(edges, "verb_last")
        self.verb_first = rule_words(edges, "verb_first")
        self.topic_open = rule_words(edges, "topic_open")
        self.a_not_a = rule_pattern(edges, "a_not_a")
        # a phrase another turn writes longer (rules/context.yaml echoed_extension)
        echo = lexicon.rule("context", "echoed_extension")
        self.echo_stop = rule_pattern(echo, "stop")
        self.echo_piece_tags = rule_words(echo, "piece_tags")
        self.echo_max = int(echo.get("max_chars") or 0) if echo is not None else 0
        # characters jieba left apart that another turn writes the same (rules/context.yaml
        # repeated_run)
        run = lexicon.rule("context", "repeated_run")
        self.run_stop = rule_pattern(run, "stop")
        self.run_skip_tags = rule_words(run, "skip_tags")
        self.run_max = int(run.get("max_chars") or 0) if run is not None else 0
        self.run_free = int(run.get("free_freq") or 0) if run is not None else 0
        self.run_edge = rule_pattern(run, "edge")
        self.run_verbal = rule_words(run, "verbal_tags")
        self.run_trim = rule_words(run, "trim_tags")
        self.run_source = run.source if run is not None else "context"
        addressee = lexicon.rule("context", "addressee")
        self.addressee = addressee.pattern if addressee is not None else None
        self.type_suffixes = sorted(suffixes, key=lambda x: -len(x[0]))
        self._suffix_type = dict(reversed(self.type_suffixes))  # first listed wins a tie
        self._suffix_re = re.compile(
            "(?:" + "|".join(re.escape(w) for w, _t in self.type_suffixes) + ")$"
            if self.type_suffixes
            else "(?!)"
        )
        norm = lexicon.normalizer
        self.chitchat_words = sorted(
            {norm(e.text).text for e in lexicon.entries_of("fw:chitchat")}
            | {norm(e.text).text for e in lexicon.entries_of("fw:filler")},
            key=len,
            reverse=True,
        )
        # the turn read left to right: at each place the first listed (longest) chit-chat word
        # that starts there, else one punctuation mark or particle; possessive, so a word once
        # taken is never given back (the same as blanking the words, then the marks)
        words = "".join(re.escape(w) + "|" for w in self.chitchat_words if w)
        self._chitchat_only = re.compile(f"(?:{words}{_PUNCT_OR_PARTICLE_CHAR})*+")
        # per turn (index, role, text): a key of plain values, hashed and compared in C (a
        # Turn's dataclass __hash__ / __eq__ run in Python, ~3 us a lookup on every rewrite)
        self._analyze_at = lru_cache(maxsize=cache)(self._analyze_at_uncached)
        # the analysis of a text said by a role, whatever its position in the history: a turn
        # that moves in the window (the caller sends the last N messages) is not analysed again
        self._analyze_said = lru_cache(maxsize=cache)(self._analyze_said_uncached)
        self.is_chitchat = lru_cache(maxsize=cache)(self._is_chitchat)  # type: ignore[method-assign]
        # per text: the runs of characters jieba left apart and its word boundaries
        self._runs = lru_cache(maxsize=cache)(self._runs_uncached)
        # a head word's type, asked of the same few words for every phrase of every turn
        self.type_of = lru_cache(maxsize=cache)(self._type_of)  # type: ignore[method-assign]

    def _prohibits(self, token: Token) -> bool:
        """Whether ``token`` is a prohibition jieba made one word of (别生气 / 别客气: 别 and a
        dictionary word after it; rules/context.yaml ``prohibition``), a clause said to the
        listener rather than a thing named (别墅 / 别克 / 别针 are words of their own)."""
        m = self.prohibition.match(token.text) if self.prohibition is not None else None
        if m is not None and self.lexicon.segmenter.freq(m.group("rest")) > 0:
            return True
        return self._negated(token)

    def _negated(self, token: Token) -> bool:
        """Whether ``token`` is a negated predicate jieba made one word of (不帅: 不 and one
        word it tags an adjective or a verb; rules/context.yaml ``negated_predicate``): what
        is said of a thing, not the thing (不丹 / 不倒翁 are names of their own)."""
        m = self.negated.match(token.text) if self.negated is not None else None
        if m is None:
            return False
        rest = self.lexicon.segmenter.pos(m.group("rest"))
        return len(rest) == 1 and rest[0][1] in self.negated_tags

    def dialogue(self, history: Sequence[Turn], *, lazy: bool = False) -> Dialogue:
        """The window: the last ``window`` exchanges, chit-chat turns dropped. ``lazy``: the
        turns are analysed when the window is first read (:meth:`Dialogue.lazy`)."""
        turns = tuple(history[-2 * self.window :]) if history else ()
        if lazy:
            return Dialogue.lazy(lambda: self._window(turns))
        return Dialogue(*self._window(turns))

    def _window(self, turns: tuple[Turn, ...]) -> tuple[tuple[TurnInfo, ...], tuple[int, ...]]:
        infos: list[TurnInfo] = []
        dropped: list[int] = []
        for t in turns:
            if t.role == "system" or not t.content.strip():
                continue
            ti = self._analyze_at(t.index, t.role, t.content)
            if ti.chitchat:
                dropped.append(t.index)
                continue
            infos.append(ti)
        if self.echo_max and len(infos) >= 2:
            infos = self._echo_widened(infos)
        if self.run_max and len(infos) >= 2:
            infos = self._with_runs(infos)
        if len(infos) >= 2:
            infos = _said_whole(infos)
        return tuple(infos), tuple(dropped)

    def _runs_uncached(self, text: str) -> _Runs:
        """The runs of ``text`` that may be a word jieba does not know (rules/context.yaml
        ``repeated_run``): two to ``run_max`` single characters in a row (国/漫, 孙/笑/川), or a
        nominal word and one nominal character on its own next to it (端木/蓉); each as
        ``(start, end, gram)``, the longest first. Also the set of their spans."""
        toks = self.parser.parse(text).tokens
        stop, skip, tags = self.run_stop, self.run_skip_tags, self.echo_piece_tags
        freq = self.lexicon.segmenter.freq
        verbal, trim = self.run_verbal, self.run_trim

        def piece(t: Token) -> bool:
            return (
                len(t.text) == 1
                and "\u4e00" <= t.text <= "\u9fff"
                and t.pos not in skip
                and (stop is None or stop.search(t.text) is None)
            )

        def nominal(t: Token) -> bool:
            return t.pos in tags and (stop is None or stop.search(t.text) is None)

        units: list[tuple[int, int, str]] = []
        n = len(toks)
        i = 0
        while i < n:
            if not piece(toks[i]):
                i += 1
                continue
            j = i + 1
            while j < n and piece(toks[j]) and toks[j].start == toks[j - 1].end:
                j += 1
            a, b = i, j
            if j - i == 1 and nominal(toks[i]):
                # one character on its own: with the nominal word of two or three characters
                # it touches (端木/蓉 before, 蓉/端木 after: the one on the left first)
                if i > 0 and 2 <= len(toks[i - 1].text) <= 3 and nominal(toks[i - 1]):
                    a = i - 1
                elif j < n and 2 <= len(toks[j].text) <= 3 and nominal(toks[j]):
                    b = j + 1
            # the run, and the run without predicates at its edges (聊/本/兮: 本兮 when no turn
            # writes 聊本兮; 国/考/难), the longest first; not 何 of 何/洁/婷 (洁婷 is a piece)
            left = a
            while left < b - 2 and toks[left].pos in trim:
                left += 1
            right = b
            while right > a + 2 and toks[right - 1].pos in trim:
                right -= 1
            spans = sorted(
                {(x, y) for x in range(a, left + 1) for y in range(right, b + 1) if y - x >= 2},
                key=lambda xy: xy[0] - xy[1],
            )
            for x, y in spans:
                s, e = toks[x].start, toks[y - 1].end
                word = text[s:e]
                if (
                    e - s > self.run_max
                    or len(set(word)) == 1  # 找/找, 哈/哈: a character doubled
                    or all(t.pos in verbal for t in toks[x:y])  # 赞/将: a verb and an adverb
                    # 人/爱, 吃/完: every character a word said on its own
                    or min(freq(c) for c in word) > self.run_free
                ):
                    continue
                rels = {t.rel for t in toks[x:y]}
                gram = "subj" if "subj" in rels else "obj" if "obj" in rels else "dep"
                units.append((s, e, gram))
            i = j
        return tuple(units), frozenset((s, e) for s, e, _g in units)

    def _echoed_run(self, text: str, s: int, e: int, other: str, runs: _Runs) -> bool:
        """Does ``other`` write ``text[s:e]`` as a run of its own (:meth:`_runs`), and not inside a longer stretch the two texts share (观书 of 观书有感 said twice: the
        same character after it in both, unless one of ``edge``, a particle after a word)?"""
        word = text[s:e]
        edge = self.run_edge
        at = other.find(word)
        while at >= 0:
            b = at + len(word)
            if (
                (at, b) in runs[1]
                and not (
                    s > 0
                    and at > 0
                    and text[s - 1] == other[at - 1]
                    and (edge is None or not edge.match(other, at - 1))
                )
                and not (
                    e < len(text)
                    and b < len(other)
                    and text[e] == other[b]
                    and (edge is None or not edge.match(other, b))
                )
            ):
                return True
            at = other.find(word, at + 1)
        return False

    def _with_runs(self, infos: list[TurnInfo]) -> list[TurnInfo]:
        """The window's turns, each run of characters jieba left apart (:meth:`_runs`) that
        another turn of the window writes the same, between word boundaries there too, a
        mention of its own (rules/context.yaml ``repeated_run``).

        Why: jieba cuts a name or a term its dictionary lacks into characters (国/漫, 本/兮),
        tags them as it can (漫 a, 兮 y) and the chunker makes no phrase of them, so nothing
        the user says of it later finds it. A second turn that writes the same characters
        between its own word boundaries shows they are one word (中国/漫画 holds 国漫 across
        two words, and is no such evidence). A run inside a phrase of its turn is left to it;
        one that crosses a phrase's edge is no word.

        Example: (我不喜欢国漫 / 国漫还是很不错的) both turns get the mention 国漫.
        """
        texts = [ti.turn.content for ti in infos]
        runs = [self._runs(t) for t in texts]
        out = infos
        for k, ti in enumerate(infos):
            units = runs[k][0]
            if not units:
                continue
            text = texts[k]
            ms = list(ti.mentions)
            changed = False
            for s, e, gram in units:
                word = text[s:e]
                if not any(
                    x != k and self._echoed_run(text, s, e, texts[x], runs[x])
                    for x in range(len(texts))
                ):
                    continue
                if any(
                    not m.is_set
                    and m.start < e
                    and s < m.end
                    and not (s <= m.start and m.end <= e and (m.start, m.end) != (s, e))
                    for m in ms
                ):
                    continue  # a phrase of the turn already, inside one, or across its edge
                if any(
                    word in m.text and m.text != word
                    for x in range(len(infos))
                    if x != k
                    for m in infos[x].mentions
                ):
                    continue  # 网红 / 网红零食: another turn says what the word is part of
                order = sum(1 for m in ms if m.start < s)
                etype = self.type_by_suffix(word) or "other"
                new = new_mention(
                    word,
                    word,
                    etype,
                    ti.turn.index,
                    ti.turn.role,
                    gram,
                    s,
                    e,
                    order,
                    self.run_source,
                )
                ms = [m for m in ms if m.is_set or not (s <= m.start and m.end <= e)]
                ms.insert(sum(1 for m in ms if m.start < s), new)
                changed = True
            if changed:
                if out is infos:
                    out = list(infos)
                out[k] = TurnInfo(ti.turn, ti.parse, tuple(ms), ti.chitchat)
        return out

    def _echo_widened(self, infos: list[TurnInfo]) -> list[TurnInfo]:
        """The window's turns, a phrase of one widened over the characters another turn writes
        on the same side of it (rules/context.yaml ``echoed_extension``).

        Why: jieba cuts a name or a compound its dictionary lacks (樊恩/帅, 擀/面皮, 芳华/绝代),
        and the chunker keeps one piece; a second turn that writes the same characters around
        the piece shows where the whole ends. Only phrases found in another turn of the window
        are looked at (one ``in`` test per phrase and turn).

        Example: (芳华绝代我不大喜欢 / 给你安利一首芳华绝代吧) the phrase 芳华 of either turn
        becomes 芳华绝代.
        """
        texts = [ti.turn.content for ti in infos]
        out = infos
        for k, ti in enumerate(infos):
            widened: list[Mention] | None = None
            for j, m in enumerate(ti.mentions):
                if m.is_set or m.protected or ".yaml" in m.source or not m.text:
                    continue  # a dictionary entity is whole as listed (Redis / Redis调优)
                others = [t for x, t in enumerate(texts) if x != k and m.text in t]
                if not others:
                    continue
                s, e = self._echo_span(ti, m, others)
                if (s, e) == (m.start, m.end) or any(
                    o is not m and not o.is_set and s <= o.start < o.end <= e for o in ti.mentions
                ):
                    continue  # unchanged, or grown over another phrase (霓凰 of 霓凰郡主)
                if widened is None:
                    widened = list(ti.mentions)
                text = ti.turn.content[s:e]
                widened[j] = replace(m, text=text, start=s, end=e)
            if widened is not None:
                # a widened phrase that is now another phrase of the turn gives way to it
                said = {(m.start, m.end) for m in ti.mentions}
                kept = [
                    w
                    for w, m in zip(widened, ti.mentions, strict=True)
                    if w is m or (w.start, w.end) not in said
                ]
                if out is infos:
                    out = list(infos)
                out[k] = TurnInfo(ti.turn, ti.parse, tuple(kept), ti.chitchat)
        return out

    def _echo_span(self, ti: TurnInfo, m: Mention, others: list[str]) -> tuple[int, int]:
        """``m``'s span in its turn widened on each side over the characters every occurrence
        in ``others`` shares with it there (the longest over the occurrences), cut back to a
        word boundary of the turn and before a stop character or a long word of a stop tag."""
        text = ti.turn.content
        stop = self.echo_stop
        most = self.echo_max
        right = left = 0
        for o in others:
            at = o.find(m.text)
            while at >= 0:
                r = 0
                while (
                    r < most
                    and m.end + r < len(text)
                    and at + len(m.text) + r < len(o)
                    and text[m.end + r] == o[at + len(m.text) + r]
                ):
                    r += 1
                lft = 0
                while (
                    lft < most
                    and m.start - lft > 0
                    and at - lft > 0
                    and text[m.start - lft - 1] == o[at - lft - 1]
                ):
                    lft += 1
                right, left = max(right, r), max(left, lft)
                at = o.find(m.text, at + 1)
        if not right and not left:
            return m.start, m.end
        return (
            self._echo_edge(ti, m.start, m.start - left, stop),
            self._echo_edge(ti, m.end, m.end + right, stop),
        )

    def _echo_edge(self, ti: TurnInfo, edge: int, far: int, stop: re.Pattern[str] | None) -> int:
        """How far from ``edge`` toward ``far`` the phrase may grow: over whole words of the
        turn, each a piece of the phrase (:meth:`_echo_blocked`)."""
        best = edge
        if far == edge:
            return edge
        toks = ti.parse.tokens
        if far > edge:
            for t in toks:
                if t.start < edge:
                    continue
                if t.start != best or t.end > far or self._echo_blocked(t, stop):
                    break
                best = t.end
            return best
        for t in reversed(toks):
            if t.end > edge:
                continue
            if t.end != best or t.start < far or self._echo_blocked(t, stop):
                break
            best = t.start
        return best

    def _echo_blocked(self, t: Token, stop: re.Pattern[str] | None) -> bool:
        """May the phrase not grow over word ``t``? Only a single character left on its own
        with a tag of ``piece_tags`` (秀 of 雪花/秀) is a piece of the phrase; a longer word
        (女团 of 韩国/女团) is a word of its own."""
        if len(t.text) != 1 or not t.text.isalnum() or t.pos not in self.echo_piece_tags:
            return True
        return stop is not None and stop.search(t.text) is not None

    # -- one turn ------------------------------------------------------------------------------

    def is_chitchat(self, text: str) -> bool:
        """Greetings, thanks and small talk with nothing else in them (cached per text)."""
        return self._is_chitchat(text)

    def _is_chitchat(self, text: str) -> bool:
        t = self.lexicon.normalizer(text).text
        bare = t.strip(" ,.!?~")
        for pat, _src in self.chitchat_patterns:
            if pat.fullmatch(bare):
                return True
        return t.strip() != "" and self._chitchat_only.fullmatch(t) is not None

    def analyze(self, turn: Turn) -> TurnInfo:
        """The analysis of one turn (memoised per index, role and text)."""
        return self._analyze_at(turn.index, turn.role, turn.content)

    def _analyze_at_uncached(self, index: int, role: str, content: str) -> TurnInfo:
        ti = self._analyze_said(role, content)
        if ti.turn.index == index:
            return ti
        # the same text analysed at another position: only the turn index of its mentions moves
        ms = tuple(m.at_turn(index) for m in ti.mentions)
        return TurnInfo(new_turn(index, role, content), ti.parse, ms, ti.chitchat)

    def _analyze_said_uncached(self, role: str, content: str) -> TurnInfo:
        return self._analyze_turn(Turn(0, role, content))

    def _analyze_turn(self, turn: Turn) -> TurnInfo:
        text = turn.content
        parse = self.parser.parse(text)
        chit = self.is_chitchat(text)
        mentions = () if chit else tuple(self._mentions(turn, parse))
        return TurnInfo(turn, parse, mentions, chit)

    def without_verb_last(
        self, toks: Sequence[Token], start: int, phrase: str, *, keep: int = 1
    ) -> str:
        """``phrase`` (at ``start`` in the text ``toks`` cut) without its last word when that is a
        verb jieba tags a noun (rules/context.yaml mention_edges ``verb_last``: 月饼/试试,
        火锅店/排队), as long as ``keep`` characters of it remain."""
        last = next((t for t in toks if t.end == start + len(phrase)), None)
        if last is not None and last.text in self.verb_last and last.start - start >= keep:
            return phrase[: last.start - start]
        return phrase

    def _mentions(self, turn: Turn, parse: Parse) -> list[Mention]:
        text = parse.text
        toks = parse.tokens
        norm = self.lexicon.normalizer(text)
        # 小微泡泡糖怎么样: the turn addresses the assistant; nothing is said before ``cut``
        lead = self.addressee.match(text) if self.addressee is not None else None
        cut = lead.end() if lead is not None else 0
        dict_spans: list[tuple[int, int, str, str]] = []  # original offsets, etype, source
        for m in self.lexicon.match_tuple(norm):  # the memoised hits, not a copy
            ent = m.first("entity")
            if ent is not None:
                s, en = norm.to_original(m.start, m.end)
                if en > cut:
                    dict_spans.append((max(s, cut), en, ent.etype or "other", ent.source))
        out: list[tuple[int, int, str, str, str, str, bool]] = []
        # the dictionary entity spanning exactly (start, end): the first found wins
        dict_at: dict[tuple[int, int], tuple[int, int, str, str]] = {}
        for x in dict_spans:
            dict_at.setdefault(x[:2], x)
        # the last subject of the turn: a subject before it is the topic
        last_subj = -1
        for t in toks:
            if t.rel == "subj":
                last_subj = t.i
        for a, b in noun_phrases(parse):
            if (
                b - a >= 2
                and b < len(toks)
                and toks[b].text in _ASPECT
                and toks[b - 1].pos not in _NAME_TAGS  # 梦见我女朋友/林小满/了: the name is hers
                and self.type_of(toks[b - 2].text, toks[b - 2].pos) in ("human", "person")
            ):
                # 女朋友/生气/了, 老师/布置/了: a word jieba tags a noun is the predicate when an
                # aspect particle follows it; the person before it is the phrase
                b -= 1
            a_mod = -1
            trim = 0  # characters of the address jieba glued onto the name (陈一鸣大/帅哥)
            if (
                b - a >= 2
                and toks[b - 1].text in self.address_after
                and toks[b - 2].pos in _NAME_TAGS
                and len(toks[b - 2].text) >= 2
                and not toks[b - 2].text.endswith(self.human_heads)  # 小哥哥/小姐姐
            ):
                # 朱小满/小姐姐 / 节目里的林一鸣/老师: the name, not how the speaker calls them
                # nor what it was said of
                a_mod, a, b = a, b - 2, b - 1  # its named modifiers are still said (a_mod)
                if len(toks[b - 1].text) >= 3 and toks[b - 1].text[-1] + toks[b].text in (
                    self.address_after
                ):
                    trim = 1
            front = 0  # a measure jieba glued onto the front of a name (这/张许嘉欣)
            if a > 0 and toks[b - 1].pos in _NAME_TAGS:
                dem = toks[a - 1].text
                if dem in self.name_demonstratives and toks[a].text.startswith(self.name_measures):
                    if b - a >= 2:
                        a = b - 1  # 这/首歌/林一鸣: the song is demonstrated, the name is named
                    elif len(toks[a].text) >= 3:
                        front = 1
                elif (
                    b - a >= 2
                    and dem[:1] in self.name_demonstratives
                    and dem[1:] in self.name_measures
                ):
                    a = b - 1  # 这部/电影/林一鸣
            if b - a >= 2 and toks[b - 1].text in self.verb_last:
                b -= 1  # 火锅店/排队, 叔叔/聊天: the verb jieba tagged a noun is no part
            if b - a >= 2 and toks[a].text in self.verb_first:
                a += 1  # 问/苹果手机, 指导/上海
            if self.a_not_a is not None and b - a >= 2:
                for k in (b - 1, b - 2):
                    if k > a and self.a_not_a.match(text, toks[k].start):
                        b = k  # 吴亦凡/帅/不帅, 火锅/辣/不/辣: the question is no part
                        break
            if not _COPULA_TO.match(text, toks[b - 1].end):  # 我不是喜子喜子是…: two clauses
                while b - a >= 2 and toks[a].text == toks[a + 1].text:
                    a += 1  # 火锅/火锅, 成语/成语/接龙: a word said twice is said once
            head = toks[b - 1]
            while a < b - 1 and (
                toks[a].text in _MEASURE
                or toks[a].text in _VERB_MEASURE
                or (
                    toks[a].pos in self.opener_tags
                    and self.opener is not None
                    and self.opener.fullmatch(toks[a].text) is not None
                )
            ):
                # 个坎 / 些问题 / (讲解)一下金瓶梅 / (唱)首加州旅馆 / 很多表情包: a measure word
                # or a numeral opens no name
                a += 1
            if b - a >= 2 and a > 0 and toks[a - 1].text in self.manner_words:
                a += 1  # 怎么评价宋江: after 怎么 / 如何 the first word is the verb (manner_verb)
            if head.pos == "nr" and b - a >= 2 and not head.text.endswith(self.human_heads):
                # 哥哥张国荣 / 学长李华 / 乐队主唱林一鸣: a title before a name, the name is who
                # (not a name that ends like one: 张学友)
                for k in range(b - 2, a - 1, -1):
                    t = toks[k]
                    if t.text.endswith(self.human_heads) and not (
                        t.pos in _NAME_TAGS and t.text.startswith(self.surnames)
                    ):
                        a = k + 1
                        break
            a0, b0 = a, b  # the chunker's phrase, before it is widened over a word's pieces
            a, b = _whole_run(toks, a, b)
            a = _glued_opener(toks, a, b)
            if self.translit_edge and head.pos in ("nr", "nrt", "nrfg"):
                a, b = self._foreign_edges(toks, a, b)
            s, e = toks[a].start + front, toks[b - 1].end - trim
            phrase = text[s:e]
            if head.text in self.non_entity or phrase in self.non_entity or self._prohibits(head):
                continue
            if _QWORD.search(phrase) or (a > 0 and toks[a - 1].text == "哪"):
                # 多少钱 / 什么东西: a question, not an antecedent; nor is what follows a bare 哪,
                # which the segmenter cut from its measure (哪国人 -> 哪/国人: 国人 is no phrase
                # of the turn); a term modifying it still is (个税年度汇算 in 个税年度汇算多久能办好)
                for t in toks[a : b - 1]:
                    if t.pos == "nz" and len(t.text) >= 3 and not _QWORD.search(t.text):
                        out.append((t.start, t.end, t.text, t.text, "other", "pos:nz|topic", False))
                continue
            if kind_of(head.pos, head.text) != "NOUN":
                continue
            etype = self.type_of(head.text, head.pos)
            if etype in UNKNOWN_TYPES:
                etype = self.type_by_suffix(phrase) or etype
            if etype == "thing" and phrase.endswith(self.human_words) and len(head.text) == 1:
                etype = "human"  # 男/神: jieba cut the person word, the phrase still ends with it
            if (
                etype in UNKNOWN_TYPES
                and b - a == 2
                and len(phrase) == 2
                and toks[a].pos == "nr"
                and may_end_name(toks[a + 1].text)
                # 耶/屎: an interjection jieba tags a name opens no name
                and not re.fullmatch(_PUNCT_OR_PARTICLE_CHAR, toks[a].text)
            ):
                etype = "person"  # 曼/雨: a character jieba tags a name and one more, a name
            if (
                etype in UNKNOWN_TYPES
                or (etype == "person" and not phrase.startswith(self.surnames))
            ) and self._after_work_verb(toks, a):
                # 听晴天 / 在追火影 / 听七里香 (tagged nr): what is listened to is a work; a name
                # opening with a surname stays a person (听李开复说)
                etype = "work"
            if etype in ("human", "person") and self.owned_person is not None:
                own = self.owned_person.match(phrase)
                if (
                    own is not None
                    and long_enough(phrase[own.end() :])
                    and not text[:s].endswith(self.owned_not_after)
                    and not text.startswith(self.owned_not_before, e)
                ):
                    # 我的男朋友 / 我的老师: the person, said without the speaker's possessive
                    # (as 我老公 is); coreference puts the possessive back as the user said it
                    s += own.end()
                    phrase = phrase[own.end() :]
            src = f"pos:{head.pos}"
            prot = False
            for ds, de, dt, dsrc in dict_spans:
                if ds <= head.start and head.end <= de:
                    etype, src, prot = dt, dsrc, True
                    if dt in self.own_phrase_types and (s < ds or e > de):
                        # 感觉/蔡徐坤, 锦鲤/杨超越, 王菲/吖 (a stray character the run took in):
                        # the name alone
                        s, e = max(s, ds), min(e, de)
                        phrase = text[s:e]
            gram = head.rel if head.rel in ("subj", "obj", "coo") else "dep"
            if gram == "subj" and last_subj > head.i:
                gram = "topic"
            out.append((s, e, phrase, head.text, etype, src + "|" + gram, prot))
            # named modifiers inside the phrase (深圳 in 深圳的落户条件), not the pieces of a
            # word it was widened over (陈婉 of 陈婉/婷)
            for t in toks[a0 if a_mod < 0 else a_mod : b0 - 1]:
                whole = dict_at.get((t.start, t.end))
                if whole is not None:
                    # a dictionary entity modifying the head (海绵宝宝动画): typed by the
                    # dictionary, yet not salient as an entity on its own
                    out.append((t.start, t.end, t.text, t.text, whole[2], whole[3] + "|att", False))
                    continue
                sub = ENTITY_TYPES_OF_POS.get(t.pos)
                if sub in ("person", "place", "org", "product") and t.text not in self.non_entity:
                    out.append((t.start, t.end, t.text, t.text, sub, f"pos:{t.pos}|att", False))
        body = text[cut:]  # 小微你觉得X怎么样: the frame opens after the address
        if cut:
            out = _after_addressee(out, text, cut)
        for (pat, fsrc, ftype), need in zip(self.topic_frames, self._topic_needs, strict=True):
            # 你知道X吗 / X是谁: X is the topic
            if need is not None and need.search(body) is None:
                continue  # the turn holds no word every match of the frame holds
            fm = pat.match(body)
            if fm is None:
                continue
            s, e = fm.span("topic")
            s, e = s + cut, e + cut
            phrase = text[s:e].strip()
            q = _TRAILING_Q.search(phrase)
            if q is not None and q.start() >= 2:
                phrase = phrase[: q.start()]  # 我喜欢罗胜南怎么办: the topic is 罗胜南
            at = text.find(phrase, s)
            first = next((t for t in toks if t.start == at), None)
            if first is not None and first.text in _MEASURE and len(phrase) > 2:
                phrase, at = phrase[1:], at + 1  # 我想买个摄影机: a measure word opens no title
            elif (
                first is not None
                and first.text in self.topic_open
                and len(phrase) - len(first.text) >= 2
                # 那家网红奶茶店: a demonstrative with a measure word after it points at the
                # thing, it is part of the phrase
                and not (
                    first.pos.startswith("r")
                    and any(t.start == first.end and t.pos in ("q", "m") for t in toks)
                )
            ):
                # 你知道关于速度滑冰吗: the preposition introduces the topic, it is no part of it
                phrase, at = phrase[len(first.text) :], first.end
            if self.topic_cut is not None:
                # 我喜欢听眉间雪因为好听 / 你喜欢李易峰吖: the topic ends where a word of its
                # own runs on with a particle, a reason or a comment
                for cm in self.topic_cut.finditer(phrase, 2):
                    k = next((i for i, t in enumerate(toks) if t.start == at + cm.start()), -1)
                    if (
                        k < 0
                        # 他 / 你 in what runs on: no topic at all (你说喻文州啊他是谁)
                        or _PERSONAL.search(phrase, cm.start())
                        # 微微一笑很倾城: a word before a noun belongs to the title
                        or (
                            toks[k].text == cm.group()
                            and k + 1 < len(toks)
                            and toks[k + 1].pos in self.topic_cut_keep
                        )
                    ):
                        continue
                    phrase = phrase[: cm.start()]
                    break
            phrase = self.without_verb_last(toks, at, phrase, keep=2)  # 迪玛希/唱歌好听吗
            # a speaker's pronoun or an adverb as a word of its own, not a character inside
            # a word of a title (你好旧时光 / 无人生还: 你好 and 生还 are words the phrase holds)
            inside = {
                k
                for t in toks
                if len(t.text) > 1 and t.pos != "r" and at <= t.start and t.end <= at + len(phrase)
                for k in range(t.start, t.end)
            }
            if (
                len(phrase) < 2
                or phrase in self.non_entity
                or _PRONOUNISH.fullmatch(phrase)
                or any(at + p.start() not in inside for p in _PERSONAL.finditer(phrase))
                or (phrase[-1] in "没不也都还就吗呢了" and at + len(phrase) - 1 not in inside)
                or (len(phrase) <= 2 and phrase[-1] in "的啊呀")  # 我喜欢是的: a reply
                # 知道啊很有名 / 知道哈哈: an answer, not a title (哈姆雷特 / 哈利波特 are titles)
                or (phrase[0] in "啊呀哦嗯吧了的呢吗很太" and at not in inside)  # not 了不起的…
                or phrase.startswith("哈哈")
                or phrase.startswith(("有人", "没人", "谁"))
                # 你喜欢吃啥 / 你最喜欢哪一本: ends asking, no topic (钢铁是怎样炼成的 is one)
                or _QWORD_END.search(phrase) is not None
                or phrase.startswith(self.topic_not_first)
                or any(w in phrase for w in self.topic_not_inside)
                or phrase.endswith(self.topic_not_last)
            ):
                continue  # 你知道我在哪吗: a question about the speakers, not a topic
            if ftype == "person" and phrase.endswith((*self.human_heads, *self.role_ends)):
                continue  # 网易老板是谁: a role; the person is who the reply names
            s = at  # where the phrase (without a measure word it opened with) was found
            e = s + len(phrase)
            inner = [t for t in toks if s <= t.start and t.end <= e]
            etype = ftype or self.type_by_suffix(phrase) or "thing"
            if len(inner) == 1:
                etype = ftype or self.type_of(inner[0].text, inner[0].pos)
            for ds, de, dt, _src in dict_spans:
                if ds <= s and e <= de:
                    etype = dt
            out = [o for o in out if not (o[0] == s and o[1] == e)]
            out.append((s, e, phrase, phrase, etype, fsrc + "|topic", False))
            break
        for (pat, fsrc), need in zip(self.relative_frames, self._relative_needs, strict=True):
            # 我喜欢的人 / 旁边的人: a person, said whole
            if need is not None and need.search(text, cut) is None:
                continue
            for fm in pat.finditer(text, cut):
                s, e = fm.span("who")
                out = [o for o in out if not (s <= o[0] and o[1] <= e)]
                gram = "subj" if s == cut or text[s - 1] in _CLAUSE_OPEN else "obj"
                out.append((s, e, text[s:e], fm.group("head"), "human", f"{fsrc}|{gram}", False))
        out = self._slot_names(text, cut, out)
        frame_set: tuple[list[tuple[int, int]], str] | None = None
        for (pat, fsrc, mrole), need in zip(self.set_frames, self._set_needs, strict=True):
            # A和B哪个…: the members whatever the parse says
            if need is not None and need.search(text) is None:
                continue
            fm = pat.match(text)
            if fm is None:
                continue
            members: list[tuple[int, int]] = []
            for g in ("a", "b"):
                s, e = fm.span(g)
                while s < e and text[s].isspace():
                    s += 1
                while e > s and text[e - 1].isspace():
                    e -= 1
                etype = self.type_by_suffix(text[s:e]) or "thing"
                for ds, de, dt, _src in dict_spans:
                    if ds <= s and e <= de:
                        etype = dt
                out = [o for o in out if not (s <= o[0] < e or s < o[1] <= e)]
                out.append((s, e, text[s:e], text[s:e], etype, f"{fsrc}|{mrole}", False))
                members.append((s, e))
            frame_set = (members, fsrc)
            break
        spans = {o[:2] for o in out}
        for ds, de, dt, dsrc in dict_spans:  # dictionary entities not already a mention
            if (ds, de) not in spans:
                spans.add((ds, de))
                out.append((ds, de, text[ds:de], text[ds:de], dt, dsrc + "|dep", True))
        out.sort()
        mentions: list[Mention] = []
        # the length/measure-word test is for phrases the POS chunker made; a dictionary entity
        # or a frame's member (个税年度汇算) stands as written
        # (a doubled character the parser joined into a pet name stands: 君君 / 康康, words
        # the segmenter does not know; 宝宝 / 赫赫 are in its dictionary and stay out)
        out = [
            o
            for o in out
            if long_enough(o[2])
            or not o[5].startswith("pos:")
            or (
                o[5].startswith("pos:nr|")
                and len(o[2]) == 2
                and self.lexicon.segmenter.freq(o[2]) == 0
            )
            # 哥哥 / 姐姐 / 奶奶: a doubled kin word of the dictionary is a person, no babble
            or (o[4] == "human" and len(o[2]) >= 2 and self.lexicon.segmenter.freq(o[2]) > 0)
            # 狗狗 / 痘痘 / 串串: a doubled word of a listed thing is no babble either
            or o[2] in self.doubled_things
            # 我哥 / 我的姐: a one-character kin word after the user's own possessive is a
            # person (not 你妹, an oath; the assistant's 我姐 is not the user's)
            or (o[2] in self.kin_one and turn.role == "user" and text[: o[0]].endswith(_POSSESSIVE))
        ]
        typed = {(o[0], o[1]) for o in out if o[4] not in UNKNOWN_TYPES}
        # 邝钰萱 chunked as a noun (thing) and read as a name (person): the typed reading stays
        out = [o for o in out if o[4] not in UNKNOWN_TYPES or (o[0], o[1]) not in typed]
        for k, (s, e, phrase, hd, etype, src_gram, prot) in enumerate(out):
            src, gram = src_gram.rsplit("|", 1)
            if not prot:
                # 射手座: a name of a closed kind, whatever its tag
                for p, kind in self.named_kinds:
                    if p.fullmatch(phrase):
                        etype = kind
                        break
            mentions.append(
                new_mention(phrase, hd, etype, turn.index, turn.role, gram, s, e, k, src, (), prot)
            )
        if len(mentions) > 1:
            mentions = self._copula_people(text, mentions)
        if frame_set is not None:
            (sa, sb), fsrc = frame_set[0], frame_set[1]
            ma = next((m for m in mentions if (m.start, m.end) == sa), None)
            mb = next((m for m in mentions if (m.start, m.end) == sb), None)
            if ma is not None and mb is not None:
                types = {ma.etype, mb.etype}
                both = Mention(
                    text[sa[0] : sb[1]],
                    mb.head,
                    types.pop() if len(types) == 1 else "thing",
                    turn.index,
                    turn.role,
                    "topic",
                    sa[0],
                    sb[1],
                    ma.order,
                    fsrc,
                    (ma.text, mb.text),
                    ma.protected and mb.protected,
                )
                rest = [
                    m for m in _with_sets(mentions, parse) if not (m.is_set and m.start < sb[1])
                ]
                return [both, *rest]
        return _with_sets(mentions, parse)

    def _slot_names(
        self, text: str, cut: int, out: list[tuple[int, int, str, str, str, str, bool]]
    ) -> list[tuple[int, int, str, str, str, str, bool]]:
        """叫 野猪佩琪 的人 / 松冈茉优的照片你有吗 / 人气模特水原希子: a name jieba does not know
        (:meth:`name_like`) in a slot only a person fills (rules/context.yaml ``name_slot``) is a
        person, said whole; the pieces the chunker made of it (野猪, 人气模特水原) give way, so
        他 / 她 in a later turn has the name to take. A name already typed stays as typed."""
        for (pat, fsrc), need in zip(self.name_slots, self._slot_needs, strict=True):
            if need is not None and need.search(text, cut) is None:
                continue
            for fm in pat.finditer(text, cut):
                s, e = fm.span("name")
                while fsrc in self.slot_trimmed and e - s > 2 and not self._fills(fsrc, text[s:e]):
                    s += 1  # 我说的是呆呆不理我: the slot's left edge is open, the name ends it
                if not self._fills(fsrc, text[s:e]) or any(
                    (o[6] and s <= o[0] and o[1] <= e)
                    or (o[4] == "person" and o[0] <= s and e <= o[1])
                    or (o[:2] == (s, e) and o[5].rsplit("|", 1)[0] in self.topic_sources)
                    or (o[:2] == (s, e) and o[4] == "human")  # 贝姐: a person already
                    for o in out
                ):
                    # 叫张三丰的人: the parser's name or a dictionary entity stands, and so does
                    # a topic frame's phrase (曹会丹这个名字怎么样: the name is what is judged)
                    continue
                # what the chunker made of its pieces or of the same span goes (野猪 / 人气模特水原 /
                # 扶苏 the place); a phrase holding it and more stays (那吾克热的儿子娃娃)
                out = [
                    o
                    for o in out
                    if o[1] <= s or o[0] >= e or (o[0] <= s and e <= o[1] and o[:2] != (s, e))
                ]
                gram = "subj" if s == cut or text[s - 1] in _CLAUSE_OPEN else "obj"
                out.append((s, e, text[s:e], text[s:e], "person", f"{fsrc}|{gram}", False))
        return out

    def _fills(self, source: str, word: str) -> bool:
        """Does ``word`` fill the name slot of rule ``source`` as a name: it looks like a name
        jieba does not know (:meth:`name_like`), or it is one dictionary word of a tag the slot
        takes (``proper_tags``: 扶苏, a place to jieba, scolds no one; a person does)?"""
        if self.name_like(word):
            return True
        tags = self.slot_proper.get(source)
        if not tags or any(c in self.slot_not_chars for c in word):
            return False
        pos = self.lexicon.segmenter.pos(word)
        return len(pos) == 1 and pos[0][1] in tags

    def name_like(self, word: str) -> bool:
        """睿哥 / 本兮 / 松冈茉优 / 呆呆: two to four Chinese characters, none of them a pronoun or
        a function word (``slot_not_chars``), not opening with a numeral (``slot_not_first``: 一本书,
        while 小九 is a name) nor ending with a kind of person (``slot_not_last``: 直男 / 宅女),
        that are no common word (rarer than
        ``slot_common_freq``) and that the segmenter cuts into single characters only, or a word
        and at least two single characters after or around it (松冈/茉/优), or a doubled
        character: a name it does not know. Not 红薯/粥 or 小/螃蟹 (a word and one character: a
        kind of it), 唱/刘德华 (a known name inside), 发/蔡徐坤 / 杨洪基/唱 (a verb opening or
        closing it, ``slot_not_edge_tags``) nor 喜欢/阿哲 (a word of its that is a verb, an
        adjective or a function word, ``slot_not_word_tags``)."""
        if not 2 <= len(word) <= 4 or not all("\u4e00" <= c <= "\u9fff" for c in word):
            return False
        if (
            any(c in self.slot_not_chars for c in word)
            or word[0] in self.slot_not_first
            or word[-1] in self.slot_not_last
        ):
            return False
        seg = self.lexicon.segmenter
        if seg.freq(word) >= self.slot_common_freq:
            return False
        if len(word) == 2 and word[0] == word[1]:
            return True
        pieces = seg.pos(word)
        if any(len(w) == 1 and t in self.slot_not_edge_tags for w, t in (pieces[0], pieces[-1])):
            return False
        words = [(w, t) for w, t in pieces if len(w) > 1]
        if any(t in _NAME_TAGS or t in self.slot_not_word_tags for _w, t in words):
            return False
        return len(pieces) - len(words) >= (2 if words else 1)

    def _copula_people(self, text: str, mentions: list[Mention]) -> list[Mention]:
        """新垣结衣是我老婆 / 小周是我同学 / 江北是个好医生: an untyped phrase, or one jieba
        tags a place (no dictionary entity), said to be a person (the phrase after its 是, a
        measure word at most between, is typed human) is a person too, so 他 / 她 can take its
        name rather than the description."""
        out = mentions
        for k, m in enumerate(mentions):
            if (m.etype not in UNKNOWN_TYPES and m.etype != "place") or m.protected:
                continue
            cop = _COPULA_ONE.match(text, m.end)
            if cop is None:
                continue
            if any(
                o.start == cop.end() and o.etype == "human" and _CLAUSE_END.match(text, o.end)
                for o in mentions
            ):
                if out is mentions:
                    out = list(mentions)
                out[k] = replace(m, etype="person")
        return out

    def _foreign_edges(self, toks: Sequence[Token], a: int, b: int) -> tuple[int, int]:
        """A name's token span ``[a, b)`` widened over a run of at least ``translit_edge``
        single characters of transliterated names touching it on either side (玛丽安 +
        因/兹/贝/伦, 列/夫 + 托尔斯泰): jieba cut the rest of a long foreign name into pieces."""
        chars, n = self.translit_chars, len(toks)

        def piece(t: Token) -> bool:
            return len(t.text) == 1 and t.text in chars

        k = b
        while k < n and piece(toks[k]) and toks[k].start == toks[k - 1].end:
            k += 1
        if k - b >= self.translit_edge:
            b = k
        k = a
        while k > 0 and piece(toks[k - 1]) and toks[k - 1].end == toks[k].start:
            k -= 1
        if a - k >= self.translit_edge:
            a = k
        elif (
            a - k == 1
            and toks[b - 1].pos == "nrt"
            and toks[k].pos in self.translit_glued
            and (k == 0 or toks[k - 1].pos in self.translit_glued_after)
        ):
            # 唉/查/斯特, 知不知道/加/尔/鲁什: one character jieba read as a verb opens a
            # transliterated name (nrt) when nothing before it could be that verb's subject
            # (the turn's start, an interjection, another verb); 我/爱/安娜 keeps its verb
            a = k
        return a, b

    def looks_foreign(self, word: str) -> bool:
        """莎士比亚 / 拿破仑: a transliterated foreign name (rules/context.yaml transliteration),
        whatever jieba tagged it."""
        return len(word) >= self.translit_min and all(c in self.translit_chars for c in word)

    def unknown_word(self, phrase: str) -> bool:
        """权志龙 / 新垣结衣: three or four Chinese characters the segmenter could not cut into
        any word of its dictionary (each one on its own), none a function word: a name jieba
        does not know, whatever it tagged the pieces."""
        if not 3 <= len(phrase) <= 4 or not all("\u4e00" <= c <= "\u9fff" for c in phrase):
            return False
        pieces = self.lexicon.segmenter.cut(phrase)
        return len(pieces) == len(phrase) and all(may_end_name(c) for c in phrase)

    def _after_work_verb(self, toks: Sequence[Token], a: int) -> bool:
        """Does a verb of enjoying a work (听 / 看过 / 在追 / 播放, rules/context.yaml
        work_verbs) govern the phrase starting at token ``a``, directly or over a measure
        (来一首X / 看一部X)?"""
        k = a - 1
        if k >= 0 and toks[k].text in _WORK_MEASURES:
            k -= 1
        return k >= 0 and toks[k].text in self.work_verbs

    def type_by_suffix(self, phrase: str) -> str | None:
        """The type a phrase's ending gives it (…医疗险 -> product), if any; at least two
        characters must come before the suffix (险 alone or 保险 alone is no product name)."""
        m = self._suffix_re.search(phrase)
        if m is None or len(phrase) - len(m.group()) < 2:
            return None
        return self._suffix_type[m.group()]

    def type_of(self, head: str, pos: str) -> str:
        """The entity type of a phrase with this head word and tag (memoised per word and tag)."""
        return self._type_of(head, pos)

    def _type_of(self, head: str, pos: str) -> str:
        if _CODE.fullmatch(head):
            return "code"
        if head in self.not_human:
            return "thing"
        if pos not in ("nr", "nrt", "nrfg") and head.endswith(self.human_heads):
            return "human"
        t = ENTITY_TYPES_OF_POS.get(pos)
        if t == "product" and head.isdigit():
            return "number"
        if t == "person" and pos == "nr" and head.endswith(self.not_name_ends):
            return "thing"  # 安全感 / 世博园 / 马家堡: jieba's dictionary tags them nr
        if t:
            return t
        if pos in ("t",):
            return "time"
        if head.endswith(self.human_heads):
            return "human"
        return "thing"


_PUNCT_OR_PARTICLE_CHAR = r"[\s,.!?~:;'\"()\[\]<>\-啊呀哇啦哦嗯呢吧嘛哈呵嘿么噢喔耶]"


_PERSONAL = re.compile(r"[你我他她您咱]")
_POSSESSIVE = ("我", "我的")
_NAME_TAGS = frozenset({"nr", "nrt", "nrfg"})
_ASPECT = frozenset({"了", "着", "过"})  # after a word, it is the predicate (生气了)
_CLAUSE_OPEN = frozenset(" ,.!?~，。！？、和跟但可")  # a relative phrase after these opens a clause
_WORK_MEASURES = frozenset({"一首", "首", "一部", "部", "一本", "本", "一集", "一曲", "一下"})
_MEASURE = frozenset("个些位只条辆台款件双瓶盒")
# verbal measures the chunker glues onto the next noun (讲解一下金瓶梅 / 看一次电影)
_VERB_MEASURE = frozenset({"一下", "一下子", "一次", "一遍", "一趟", "一番"})
_TRAILING_Q = re.compile(r"(?:怎么办|怎么样|咋办|咋整|好不好|行不行|对不对|对吧|是吧)$")
_QWORD = re.compile(r"多少|什么|哪|谁|几|啥|怎")
_QWORD_END = re.compile(
    r"(?:多少|什么|谁|啥子?|哪(?:一?[个本部首种支家位款]|里|儿)?|几个?)[的了]?$"
)
_PRONOUNISH = re.compile(r"[你我他她它您咱]们?|这个|那个|这|那|什么|啥|谁")


def _whole_run(toks: Sequence[Token], a: int, b: int) -> tuple[int, int]:
    """The token span ``[a, b)`` widened over the stray single characters it touches when its
    own edge token is one too: the segmenter leaves an unknown word as a run of characters
    (穆/赫/兰/道, 抖/音), and a phrase cut inside the run names a piece (穆赫兰, 音)."""

    def stray(t: Token) -> bool:
        return is_stray_char(t.text, t.pos)

    while a > 0 and stray(toks[a]) and stray(toks[a - 1]) and toks[a - 1].end == toks[a].start:
        a -= 1
    n = len(toks)
    while b < n and stray(toks[b - 1]) and stray(toks[b]) and toks[b - 1].end == toks[b].start:
        b += 1
    last = toks[b - 1]
    if (
        b < n
        and len(last.text) == 2
        and last.pos in ("nr", "nrt")
        and stray(toks[b])
        and last.end == toks[b].start
        and (b + 1 >= n or not stray(toks[b + 1]))
    ):
        b += 1  # 陈婉/婷, 加藤/鹰: a two-character name and the character jieba left after it
    elif (
        b + 1 < n
        and len(last.text) == 2
        and last.pos == "nr"
        and len(toks[b].text) == 1
        and toks[b].pos == "v"
        and may_end_name(toks[b].text)
        and last.end == toks[b].start
        and toks[b + 1].pos == "t"
        and toks[b + 1].start == toks[b].end
    ):
        # 张假/花/将来: a time word never follows its verb, so the character jieba read as a
        # verb between a two-character name and a time word ends the name (张假花)
        b += 1
    return a, b


def _said_whole(infos: list[TurnInfo]) -> list[TurnInfo]:
    """The window's turns, a person's name said again shorter (the end of a name one word
    long an earlier turn said, at most two characters more) standing for the whole name.

    Why: a later turn shortens a name an earlier one said (利威尔帅吗 / 看到威尔了: jieba's
    dictionary holds 威尔 as a name of its own), and the piece, being newer, won as the
    antecedent. Only a name alone: a description (勇士队的格林, 三十岁的刘珊珊) is no name,
    the bare name is what is meant; nor other phrases (攻略 after 旅游攻略 is as often a
    new thing: measured, it lost more rows than it won).

    Example: (利威尔帅吗 / 哈哈看到威尔了) the second turn's 威尔 reads 利威尔."""
    out = infos
    seen: list[Mention] = []
    for k, ti in enumerate(infos):
        new = list(ti.mentions)
        for j, m in enumerate(ti.mentions):
            if m.is_set or m.protected or len(m.text) < 2 or m.etype != "person":
                continue
            whole = next(
                (
                    o.text
                    for o in reversed(seen)
                    if len(m.text) < len(o.text) <= len(m.text) + 2
                    and o.text.endswith(m.text)
                    and o.etype == "person"
                    and o.head == o.text
                    and not o.is_set
                ),
                None,
            )
            if whole is not None and whole not in ti.turn.content:
                new[j] = replace(m, text=whole)
        seen.extend(ti.mentions)
        if new != list(ti.mentions):
            if out is infos:
                out = list(infos)
            out[k] = TurnInfo(ti.turn, ti.parse, tuple(new), ti.chitchat)
    return out


# tags of a turn's first character that is a word of its own before a name, not a piece
# of it (我/她/这 ..., 很, 在, 和, 的, 嗯, 一)
_OPENER_STOP_TAGS = frozenset({"r", "rr", "rz", "d", "p", "u", "uj", "ul", "y", "e", "o", "m", "q"})


def _glued_opener(toks: Sequence[Token], a: int, b: int) -> int:
    """The phrase ``[a, b)``'s first token moved back over the turn's first character when the
    phrase is two single characters or more: jieba cut a name it does not know into characters and
    read the first as a word of its own (开/福/寺 as 开 + 福寺, 梗/型/犬 as 梗 + 型犬), so the
    phrase named a piece. Not a pronoun, adverb, preposition, particle or numeral (我/家/狗,
    很/美, 在/杭/州), nor a character that never opens a name (是 / 有 / 吃), nor a surname
    (吴/一/帆和孙一鸣: the parser's names and the set decide); nor a phrase holding a word of the dictionary (做/冰/皮/月饼: 做 is the verb of 冰皮月饼), nor one
    character alone (观/书/有感: 观书 is no name).

    Example: 开/福/寺/那里 -> the phrase 开福寺, not 福寺."""
    if a != 1 or b - a < 2 or any(len(t.text) != 1 for t in toks[a:b]):
        return a
    first, nxt = toks[0], toks[1]
    if (
        first.start == 0
        and first.end == nxt.start
        and len(nxt.text) == 1
        and may_end_name(first.text)
        and may_end_name(nxt.text)
        and first.pos not in _OPENER_STOP_TAGS
        and first.pos not in _NAME_TAGS  # a surname: the parser joins a name it opens
    ):
        return 0
    return a


def long_enough(phrase: str) -> bool:
    """One CJK character (吴 of a name jieba split) or an interjection run (啊啊啊) is not a
    usable antecedent."""
    return len(phrase) >= 2 and len(set(phrase)) > 1


def _with_sets(mentions: list[Mention], parse: Parse) -> list[Mention]:
    """Add one set mention per coordination chain (A、B 和 C), placed before its first member."""
    toks = parse.tokens
    by_head_end = {m.end: m for m in mentions}
    chains: dict[int, list[Mention]] = {}
    for t in toks:
        if t.rel == "coo" and 0 <= t.head < len(toks):
            first = by_head_end.get(toks[t.head].end)
            member = by_head_end.get(t.end)
            if first is None or member is None:
                continue
            chains.setdefault(first.start, [first]).append(member)
    if not chains:
        return mentions
    out: list[Mention] = []
    for m in mentions:
        chain = chains.get(m.start)
        if chain and chain[0] is m:
            members = tuple(x.text for x in sorted(chain, key=lambda x: x.start))
            s, e = chain[0].start, max(x.end for x in chain)
            types = {x.etype for x in chain}
            out.append(
                Mention(
                    parse.text[s:e],
                    m.head,
                    types.pop() if len(types) == 1 else "thing",
                    m.turn,
                    m.role,
                    m.gram,
                    s,
                    e,
                    m.order,
                    "coordination",
                    members,
                    any(x.protected for x in chain),
                )
            )
        out.append(m)
    return out
