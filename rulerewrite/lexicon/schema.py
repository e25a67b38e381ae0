"""Validate packs and rule files and turn them into :mod:`rulerewrite.lexicon.model` records.

Validation collects *every* problem (with a stable code and ``file:line:col``) before anything
is returned; callers raise :class:`~rulerewrite.errors.LexiconError` if the list is not empty,
so nothing is ever half-loaded.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rulerewrite.errors import Diagnostic
from rulerewrite.lexicon.model import Entry, Intent, Rule
from rulerewrite.lexicon.yamlloc import LDict, LList, LScalar, load_located, plain, pos
from rulerewrite.text.normalize import Normalizer
from rulerewrite.text.segment import POS_TAGS, parse_pieces

ENTITY_TYPES = frozenset(
    [
        "product",
        "org",
        "person",
        "code",
        "place",
        "plan",
        "system",
        "drug",
        "department",
        "document",
        "term",
        "service",
        "work",
        "other",
    ]
)
_HAS_WORD = re.compile(r"[0-9a-z\u3400-\u4dbf\u4e00-\u9fff\U00020000-\U0002ffff]")


@dataclass
class ParsedFile:
    """What one file contributed, before cross-file checks."""

    path: str
    kind: str  # "pack" | "rules"
    name: str
    entries: list[Entry] = field(default_factory=list)
    intents: list[Intent] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    slots: dict[str, list[str]] = field(default_factory=dict)
    # (normalised term, entry) pairs for cross checks, with positions
    positions: dict[int, tuple[int, int]] = field(default_factory=dict)


class _Ctx:
    def __init__(self, path: str, norm: Normalizer, diags: list[Diagnostic]) -> None:
        self.path = path
        self.norm = norm
        self.diags = diags

    def err(self, value: Any, code: str, msg: str, at: tuple[int, int] | None = None) -> None:
        line, col = at or pos(value)
        self.diags.append(Diagnostic(self.path, line, col, code, msg))

    def src(self, value: Any) -> str:
        return f"{self.path}:{pos(value)[0]}"

    def term(self, value: Any, what: str) -> str | None:
        """A non-empty, normalisable term string, or None (error recorded)."""
        if (
            isinstance(value, LScalar)
            and isinstance(value.value, (int, float))
            and not isinstance(value.value, bool)
        ):
            value = _as_lstr(str(value.value), value)
        if not isinstance(value, str):
            self.err(value, "RR101", f"{what} must be a string, got {_tname(value)}")
            return None
        if not value.strip() or not _HAS_WORD.search(self.norm(value).text):
            self.err(
                value, "RR106", f"{what} {value!r} is empty or has nothing left after normalisation"
            )
            return None
        return value

    def key(self, s: str) -> str:
        return self.norm(s).text


def _as_lstr(s: str, like: Any) -> Any:
    from rulerewrite.lexicon.yamlloc import LStr

    out = LStr(s)
    out.line, out.col = pos(like)
    return out


def _tname(v: Any) -> str:
    if isinstance(v, LScalar):
        return type(v.value).__name__
    if isinstance(v, dict):
        return "mapping"
    if isinstance(v, list):
        return "list"
    return type(v).__name__


def _mapping(ctx: _Ctx, v: Any, what: str, allowed: set[str], required: set[str]) -> LDict | None:
    if not isinstance(v, LDict):
        ctx.err(v, "RR101", f"{what} must be a mapping, got {_tname(v)}")
        return None
    ok = True
    for k in v:
        if k not in allowed:
            ctx.err(
                v,
                "RR101",
                f"unknown key {k!r} in {what}; expected one of {sorted(allowed)}",
                v.key_pos.get(k),
            )
            ok = False
    for k in sorted(required - set(v)):
        ctx.err(v, "RR101", f"{what} is missing required key {k!r}")
        ok = False
    return v if ok else None


def _list(ctx: _Ctx, v: Any, what: str) -> LList | None:
    if not isinstance(v, LList):
        ctx.err(v, "RR101", f"{what} must be a list, got {_tname(v)}")
        return None
    return v


def _terms(ctx: _Ctx, v: Any, what: str) -> list[str]:
    lst = _list(ctx, v, what)
    if lst is None:
        return []
    if not lst:
        ctx.err(v, "RR101", f"{what} must not be empty")
    out = []
    for item in lst:
        t = ctx.term(item, f"{what} item")
        if t is not None:
            out.append(t)
    return out


def _bool(ctx: _Ctx, v: Any, what: str) -> bool:
    if isinstance(v, LScalar) and isinstance(v.value, bool):
        return v.value
    ctx.err(v, "RR101", f"{what} must be true or false, got {plain(v)!r}")
    return False


def _choice(ctx: _Ctx, v: Any, what: str, choices: frozenset[str]) -> str | None:
    if isinstance(v, str) and v in choices:
        return str(v)
    ctx.err(v, "RR101", f"{what} must be one of {sorted(choices)}, got {plain(v)!r}")
    return None


class _Dups:
    """RR102: the same normalised term defined twice in one section of one file."""

    def __init__(self, ctx: _Ctx) -> None:
        self.ctx = ctx
        self.seen: dict[tuple[str, str], int] = {}

    def add(self, section: str, term: str) -> bool:
        k = (section, self.ctx.key(term))
        line = pos(term)[0]
        if k in self.seen:
            self.ctx.err(
                term,
                "RR102",
                f"duplicate term {str(term)!r} in {section} (first defined at line {self.seen[k]})",
            )
            return False
        self.seen[k] = line
        return True


# ---------------------------------------------------------------------------------------------
# Packs

_FEATURES = {
    "number": frozenset({"singular", "plural"}),
    "animacy": frozenset({"human", "nonhuman", "any"}),
    "refers": frozenset({"first", "second", "third", "last", "all"}),
}


def parse_pack(path: str, doc: Any, norm: Normalizer, diags: list[Diagnostic]) -> ParsedFile:
    ctx = _Ctx(path, norm, diags)
    sections = {
        "pack", "description", "synonyms", "aliases", "entities", "negations", "blocking",
        "colloquial", "intents", "slots", "pronouns", "demonstratives", "function_words",
    }  # fmt: skip
    _mapping(ctx, doc, "pack file", sections, {"pack"})
    name = str(doc.get("pack", Path(path).stem)) if isinstance(doc, dict) else Path(path).stem
    pf = ParsedFile(path=path, kind="pack", name=name)
    if not isinstance(doc, LDict):
        return pf
    # an unknown section or a missing 'pack' is reported above; keep validating the rest so
    # every problem is listed (the file is rejected either way)
    top = doc
    if "pack" in top and (
        not isinstance(top["pack"], str) or not re.fullmatch(r"[a-z][a-z0-9_-]*", top["pack"])
    ):
        ctx.err(top["pack"], "RR101", "pack must be a lower-case id such as 'insurance'")
    dups = _Dups(ctx)
    E = pf.entries

    def add(kind: str, text: str, **kw: Any) -> None:
        E.append(
            Entry(
                kind=kind, text=str(text), pack=name, source=ctx.src(text), col=pos(text)[1], **kw
            )
        )

    for item in _list(ctx, top.get("synonyms", LList()), "synonyms") or []:
        m = _mapping(
            ctx, item, "synonym", {"canonical", "variants", "two_way"}, {"canonical", "variants"}
        )
        if m is None:
            continue
        canon = ctx.term(m["canonical"], "synonym canonical")
        variants = _terms(ctx, m["variants"], "synonym variants")
        two_way = _bool(ctx, m["two_way"], "two_way") if "two_way" in m else False
        if canon is None:
            continue
        for v in variants:
            if ctx.key(v) == ctx.key(canon):
                ctx.err(v, "RR102", f"variant {str(v)!r} is the canonical itself")
                continue
            if dups.add(f"synonyms of {canon}", v):
                add("synonym", v, canonical=str(canon))
        if two_way and variants:
            add("synonym_canonical", canon, targets=tuple(str(v) for v in variants))
        else:
            add("canonical", canon)

    for item in _list(ctx, top.get("aliases", LList()), "aliases") or []:
        m = _mapping(ctx, item, "alias", {"canonical", "variants"}, {"canonical", "variants"})
        if m is None:
            continue
        canon = ctx.term(m["canonical"], "alias canonical")
        for v in _terms(ctx, m["variants"], "alias variants"):
            if canon is not None and dups.add("aliases", v):
                add("alias", v, canonical=str(canon))
        if canon is not None:
            add("canonical", canon)

    for item in _list(ctx, top.get("entities", LList()), "entities") or []:
        if isinstance(item, str):
            t = ctx.term(item, "entity")
            if t is not None and dups.add("entities", t):
                add("entity", t, etype="other")
            continue
        m = _mapping(ctx, item, "entity", {"text", "type", "aliases"}, {"text"})
        if m is None:
            continue
        t = ctx.term(m["text"], "entity text")
        etype = _choice(ctx, m["type"], "entity type", ENTITY_TYPES) if "type" in m else "other"
        if t is None:
            continue
        if dups.add("entities", t):
            add("entity", t, etype=etype, canonical=str(t))
        if "aliases" in m:
            for a in _terms(ctx, m["aliases"], "entity aliases"):
                if dups.add("entities", a):
                    add("entity", a, etype=etype, canonical=str(t))

    for item in _list(ctx, top.get("negations", LList()), "negations") or []:
        t = _text_item(ctx, item, "negation")
        if t is not None and dups.add("negations", t):
            add("negation", t)

    for item in _list(ctx, top.get("blocking", LList()), "blocking") or []:
        m = _mapping(ctx, item, "blocking word", {"text", "blocks"}, {"text"})
        if m is None:
            continue
        t = ctx.term(m["text"], "blocking text")
        blocks = _terms(ctx, m["blocks"], "blocks") if "blocks" in m else []
        if t is None:
            continue
        for b in blocks:
            if ctx.key(b) not in ctx.key(t):
                ctx.err(
                    b,
                    "RR107",
                    f"blocking word {str(t)!r} does not contain the trigger {str(b)!r} it blocks",
                )
        if dups.add("blocking", t):
            add("blocking", t, targets=tuple(str(b) for b in blocks))

    for item in _list(ctx, top.get("colloquial", LList()), "colloquial") or []:
        m = _mapping(
            ctx,
            item,
            "colloquial pattern",
            {"pattern", "queries", "intent"},
            {"pattern", "queries"},
        )
        if m is None:
            continue
        t = ctx.term(m["pattern"], "colloquial pattern")
        qs = _terms(ctx, m["queries"], "colloquial queries")
        intent = m.get("intent")
        if intent is not None and not isinstance(intent, str):
            ctx.err(intent, "RR101", "colloquial intent must be a string")
            intent = None
        if t is not None and dups.add("colloquial", t):
            add(
                "colloquial",
                t,
                targets=tuple(str(q) for q in qs),
                intent=None if intent is None else str(intent),
            )

    for item in _list(ctx, top.get("intents", LList()), "intents") or []:
        m = _mapping(ctx, item, "intent", {"label", "keywords", "filters"}, {"label", "keywords"})
        if m is None:
            continue
        label = ctx.term(m["label"], "intent label")
        kws = _terms(ctx, m["keywords"], "intent keywords")
        filters: dict[str, Any] = {}
        if "filters" in m:
            f = m["filters"]
            if not isinstance(f, LDict):
                ctx.err(f, "RR101", f"intent filters must be a mapping, got {_tname(f)}")
            else:
                filters = plain(f)
        if label is None or not dups.add("intents", label):
            continue
        pf.intents.append(
            Intent(
                str(label),
                tuple(str(k) for k in kws),
                tuple(sorted(filters.items())),
                name,
                ctx.src(label),
            )
        )
        for k in kws:
            add("intent", k, intent=str(label))

    for item in _list(ctx, top.get("slots", LList()), "slots") or []:
        m = _mapping(ctx, item, "slot", {"type", "values"}, {"type", "values"})
        if m is None:
            continue
        st = ctx.term(m["type"], "slot type")
        vals = _terms(ctx, m["values"], "slot values")
        if st is None:
            continue
        pf.slots.setdefault(str(st), []).extend(str(v) for v in vals)
        for v in vals:
            if dups.add(f"slot {st}", v):
                add("slot", v, etype=str(st))

    for section, kind in (("pronouns", "pronoun"), ("demonstratives", "demonstrative")):
        for item in _list(ctx, top.get(section, LList()), section) or []:
            if isinstance(item, str):
                t = ctx.term(item, kind)
                if t is not None and dups.add(section, t):
                    add(kind, t)
                continue
            m = _mapping(
                ctx, item, kind, {"text", "number", "animacy", "refers", "count"}, {"text"}
            )
            if m is None:
                continue
            t = ctx.term(m["text"], f"{kind} text")
            feats: list[tuple[str, str]] = []
            for fk, choices in _FEATURES.items():
                if fk in m:
                    c = _choice(ctx, m[fk], fk, choices)
                    if c:
                        feats.append((fk, c))
            if "count" in m:
                cv = m["count"]
                if (
                    isinstance(cv, LScalar)
                    and isinstance(cv.value, int)
                    and not isinstance(cv.value, bool)
                    and cv.value > 0
                ):
                    feats.append(("count", str(cv.value)))
                else:
                    ctx.err(cv, "RR101", "count must be a positive integer")
            if t is not None and dups.add(section, t):
                add(kind, t, features=tuple(feats))

    fw = top.get("function_words")
    if fw is not None:
        if not isinstance(fw, LDict):
            ctx.err(
                fw,
                "RR101",
                f"function_words must be a mapping of category -> list, got {_tname(fw)}",
            )
        else:
            for cat, words in fw.items():
                if not re.fullmatch(r"[a-z_]+", cat):
                    ctx.err(
                        fw,
                        "RR101",
                        f"function word category {cat!r} must be a lower-case id",
                        fw.key_pos.get(cat),
                    )
                    continue
                for w in _terms(ctx, words, f"function_words.{cat}"):
                    if dups.add(f"function_words.{cat}", w):
                        add(f"fw:{cat}", w)
    return pf


def _text_item(ctx: _Ctx, item: Any, what: str) -> str | None:
    if isinstance(item, LDict):
        m = _mapping(ctx, item, what, {"text"}, {"text"})
        return None if m is None else ctx.term(m["text"], what)
    return ctx.term(item, what)


# ---------------------------------------------------------------------------------------------
# Rule files

# The keys some rules must give and what each holds ("words": a non-empty list of strings,
# "names": a mapping of string to string, "word_lists": a mapping of string to a non-empty list
# of strings, "regex": a valid regular expression, "count": a whole number), per (mode, id).
RULE_KEYS: dict[tuple[str, str], dict[str, str]] = {
    # the segmenter's words (rules/segment.yaml): "tags" maps a word to a POS tag of jieba's set,
    # "pieces" a word to the "piece/tag piece/tag" it is given out as
    **{("segment", rid): {"tags": "tags"} for rid in ("retag", "add", "join")},
    ("segment", "drop"): {"words": "words"},
    ("segment", "split"): {"pieces": "pieces"},
    ("context", "name_apposition"): dict.fromkeys(
        ("address_after", "demonstratives", "measures"), "words"
    ),
    ("context", "echoed_extension"): {
        "stop": "regex",
        "piece_tags": "words",
        "max_chars": "count",
    },
    ("context", "mention_edges"): {
        **dict.fromkeys(("verb_last", "verb_first", "topic_open"), "words"),
        "a_not_a": "regex",
    },
    ("completeness", "ellipsis_words"): {
        **dict.fromkeys(
            (
                "final_particles",
                "le_asks",
                "how_degree",
                "work_counts",
                "pointing",
                "which_of",
                "potential",
                "going",
                "where",
                "into",
                "copulas",
                "from_where",
                "seems",
                "judging_adverbs",
                "offer_verbs",
                "measures",
                "own",
                "question_tails",
                "not_judged_subject",
            ),
            "words",
        ),
        "type_names": "names",
        "identity_question": "regex",
    },
    ("completeness", "ellipsis_patterns"): dict.fromkeys(
        (
            "ne_shape",
            "personal",
            "speakers",
            "says_nothing",
            "interjection",
            "emote_end",
            "evaluation",
            "judged_end",
            "says_end",
            "offer_end",
            "offer_clause",
            "how",
            "how_said",
            "possessor",
            "speaker_owner",
            "yes_no",
            "final_mood",
            "negated_end",
            "number",
            "taste",
            "kind_comment",
            "copula_asked",
            "patient_modal",
            "count_object",
            "where_object",
            "give_to_do",
            "done_asked",
            "none_had",
            "go_end",
            "like_end",
            "lack_to_do",
            "owned_object",
            "own_statement",
        ),
        "regex",
    ),
    # 鬼故事就怕你不敢听 / 敢听呀: the thing said before the same verb (ellipsis _verb_after)
    ("completeness", "missing_object"): {
        "verb_after_gap": "count",
        **dict.fromkeys(("verb_after_not", "result_complements"), "words"),
    },
    # 你送我一个呗 / 送我一台 / 我想要一个: the thing counted (ellipsis counted echo)
    ("completeness", "counted_object"): {
        **dict.fromkeys(("pattern", "agree"), "regex"),
        **dict.fromkeys(("wants", "lacks", "general"), "words"),
    },
    ("completeness", "measure_noun"): {
        "pattern": "regex",
        "open_pattern": "regex",
        "kinds": "word_lists",
    },
    # 怎么做 / 喝多少: the object the same verb had in the last exchange (ellipsis how_echo)
    ("completeness", "how_echo"): {
        "pattern": "regex",
        "much": "regex",
        "what": "regex",
        "drop_end": "regex",
        "not_verbs": "words",
        "treat_verbs": "words",
        "illness": "regex",
        "asked": "regex",
        "where": "regex",
        "bare_reply_kinds": "words",
        "bare_reply_max": "count",
    },
    # 已经开始了 after 比赛就要开始了: the noun the reply said the query's predicate of
    # (ellipsis same_predicate)
    ("completeness", "same_predicate_subject"): dict.fromkeys(
        ("not_after", "not_types", "not_end", "not_verbs"), "words"
    ),
    # 篮球 / 他: a common word is no person while the exchange names one (coreference)
    ("coreference", "word_not_person"): {"common_freq": "count"},
    # 她 / 他 and the gendered phrases they may not take (coreference gender_of)
    ("coreference", "gender"): {
        "pronouns": "names",
        **dict.fromkeys(("male", "female", "male_names", "he", "women", "women_names"), "words"),
    },
    # 那现金也行 / 怎么给: the thing the reply ends by turning to (ellipsis counter_offer)
    ("completeness", "counter_offer"): {"pattern": "regex", "max_query": "count"},
    # 会 / 没有吧: a short yes/no answer to the assistant's yes/no question (ellipsis answer)
    ("completeness", "answer_reply"): {
        **dict.fromkeys(("pattern", "clause_rest", "request", "trouble_end"), "regex"),
        **dict.fromkeys(
            ("addressees", "subject_open", "subject_end", "tentative_end", "need_asked"), "words"
        ),
        "trouble_max": "count",
    },
    # 是个大帅哥 / 什么爆点内容 / 哪个省: the missing topic, its owner and the verb joining it
    # to a wh-question (ellipsis _owned / _link)
    ("completeness", "missing_subject"): {
        **dict.fromkeys(
            (
                "had_what",
                "had_by",
                "where_what",
                "kind_what",
                "kind_by",
                "asked_of",
                "relation_asked",
                "relation_not",
            ),
            "regex",
        ),
        "owned_relations": "words",
    },
    # 不是 / 是的 / 对啊: a bare yes or no to the assistant's remark (ellipsis _confirm)
    ("completeness", "answer_confirm"): {
        **dict.fromkeys(("pattern", "drop_lead", "drop_end", "kind_lead"), "regex"),
        **dict.fromkeys(("dodges", "particles_after", "kind_denied", "self_inside"), "words"),
        "max_remark": "count",
    },
    # 这都不知道 after the reply's question: what the question asks about (coreference
    # known_asked)
    ("coreference", "known_asked"): dict.fromkeys(("query", "asked"), "regex"),
    # 我想吃雪糕 / 会着凉的: eating what the last exchange ate has the effect (ellipsis
    # eaten_effect)
    ("completeness", "eaten_effect"): dict.fromkeys(("pattern", "eaten"), "regex"),
    # 科幻小说沙丘 / 讲的是什么: the title without its kind (ellipsis kind_before_title)
    ("completeness", "kind_before_title"): {"kinds": "words"},
    # 今年世界杯看点很多呀 / 有哪些看点: the topic keeps its time (ellipsis timed_topic)
    ("completeness", "timed_topic"): dict.fromkeys(("before", "own_time"), "regex"),
    # 得了水痘 / … / 天天都会发烧么: the illness goes in with its verb (ellipsis illness_had)
    ("completeness", "illness_had"): dict.fromkeys(("had", "treat"), "regex"),
    # 我喜欢那个女孩 / … / 她: the demonstrative stays (coreference pointed_person)
    ("coreference", "pointed_person"): {"before": "regex"},
    # 哈利波特的作者 / … / 它讲了什么: the owner of a role (coreference owner_of_role)
    ("coreference", "owner_of_role"): {"roles": "words"},
    # 起床后的那种: the kind of the thing the last exchange talked about (coreference kind_end)
    ("coreference", "kind_end"): {"query": "regex", "grams": "words", "skip_types": "words"},
    # 谁啊 / 什么时候 / 四川哪里的: a bare answer completes the user's own statement
    # (ellipsis answer_stated)
    ("completeness", "answer_stated"): {
        **dict.fromkeys(("who", "one_of", "when", "where", "from", "echo"), "regex"),
        **dict.fromkeys(("when_words", "echo_open"), "words"),
        **dict.fromkeys(("max_answer", "max_statement"), "count"),
    },
    # 我冷 / … / (那)怎么办: the trouble the last exchange stated (coreference problem_then)
    # (its ``number`` is a plain word, singular, checked as a string like a regex)
    ("coreference", "problem_then"): {
        **dict.fromkeys(("pattern", "number", "problem", "drop", "reply_drop"), "regex"),
        "max_len": "count",
    },
    # 手风琴怎么拉 / 你会吗 -> 你会拉手风琴吗: the how-verb the history said (guards how_verbs)
    ("guard", "how_verbs"): {"how_words": "words"},
    # 有哪些 after the user's bare noun phrase (宫崎骏的动漫 / … / 有哪些): ellipsis bare_which
    ("completeness", "bare_which"): {
        "pattern": "regex",
        "whole": "regex",
        "kinds": "words",
    },
    # 我也想 / 你敢不敢 / 不可能: the verb phrase a modal of its family carries (ellipsis modal_vp)
    ("completeness", "modal_vp"): {
        **dict.fromkeys(
            (
                "pattern",
                "carrier_lead",
                "vp_open",
                "vp_end",
                "vp_shape",
                "user_personal",
                "bare_vp",
                "bare_vp_how",
                "how_vp",
                "topic_how",
                "asked_vp",
            ),
            "regex",
        ),
        "carriers": "word_lists",
        "bare_vp_objects": "words",
        "bare_vp_not": "words",
        "clause_modals": "words",
    },
    # k701太贵了 / 真的吗: the assistant's statement asked about again (ellipsis really_echo)
    ("completeness", "really_echo"): {
        **dict.fromkeys(
            ("pattern", "statement", "drop_end", "asked", "confirm", "asked_end"), "regex"
        ),
        **dict.fromkeys(("subject_kinds", "asked_subject"), "words"),
    },
    # 你知道扶摇吗 / 电视剧 / 我女朋友: what the framed topic is (ellipsis answer_identity)
    ("completeness", "answer_identity"): {
        **dict.fromkeys(("pattern", "by", "unknown", "defines", "asked_back", "own"), "regex"),
        "heads": "words",
    },
    # 你平时都喜欢听什么歌 / 都可以: the asked part said of "any will do" (ellipsis any_will_do)
    ("completeness", "any_will_do"): dict.fromkeys(("pattern", "asked", "asked_back"), "regex"),
    # 帅不帅 / 我问你般配吗: the end of the user's last turn said again (ellipsis said_again)
    ("completeness", "said_again"): {
        **dict.fromkeys(("pattern", "not_in_turn", "drop_lead", "asking_lead"), "regex"),
        **dict.fromkeys(("min_len", "min_lead"), "count"),
        "head_not_last": "words",
    },
    # 你居然不知道 / 你说呢: the wh-question of the last exchange (ellipsis clause_object)
    ("completeness", "clause_object"): dict.fromkeys(
        (
            "pattern",
            "asked",
            "drop_lead",
            "drop_end",
            "not_reply",
            "not_own",
            "asked_back",
            "knowing",
            "named_only",
            "frame_only",
        ),
        "regex",
    )
    | {"max_question": "count", "known_frames": "words"},
    # 有什么好吃的 / 有什么好的嘛: the kind the user's last turn named (ellipsis good_kind)
    ("completeness", "good_kind"): {
        "pattern": "regex",
        "span": "regex",
    },
    # 现在的天气预报 / … / 深圳的: the head of the user's own noun phrase (ellipsis modifier_swap)
    ("completeness", "modifier_swap"): {"pattern": "regex", "said": "regex", "kinds": "words"},
}


def _rule_keys(ctx: _Ctx, item: LDict, rid: str, keys: dict[str, str]) -> bool:
    """Check the keys ``keys`` declares for rule ``rid`` (every one present, of its kind, no
    other key); True when all are well formed."""
    what = f"rule {rid!r}"
    ok = _mapping(ctx, item, what, {"id", "note", *keys}, set(keys)) is not None
    for k, kind in keys.items():
        v = item.get(k)
        if v is None:
            continue
        at = f"{what} key {k!r}"
        if kind == "words":
            n = len(ctx.diags)
            _terms(ctx, v, at)
            ok = ok and len(ctx.diags) == n
        elif kind == "names":
            if not isinstance(v, LDict):
                ctx.err(v, "RR101", f"{at} must be a mapping, got {_tname(v)}")
                ok = False
                continue
            for name, word in v.items():
                if not isinstance(word, str) or not word:
                    ctx.err(word, "RR101", f"{at} {name!r} must be a string, got {_tname(word)}")
                    ok = False
        elif kind == "word_lists":
            if not isinstance(v, LDict):
                ctx.err(v, "RR101", f"{at} must be a mapping, got {_tname(v)}")
                ok = False
                continue
            for name, words in v.items():
                n = len(ctx.diags)
                _terms(ctx, words, f"{at} {name!r}")
                ok = ok and len(ctx.diags) == n
        elif kind in ("tags", "pieces"):
            ok = _segment_words(ctx, v, at, pieces=kind == "pieces") and ok
        elif kind == "count":
            n = v.value if isinstance(v, LScalar) else v
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                ctx.err(v, "RR101", f"{at} must be a whole number, got {_tname(v)}")
                ok = False
        elif not isinstance(v, str):
            ctx.err(v, "RR101", f"{at} must be a string, got {_tname(v)}")
            ok = False
        else:
            try:
                re.compile(str(v))
            except re.error as e:
                ctx.err(v, "RR108", f"invalid regular expression in {at}: {e}")
                ok = False
    return ok


def _segment_words(ctx: _Ctx, v: Any, at: str, *, pieces: bool) -> bool:
    """Check a segmenter mapping: word -> a POS tag of jieba's set (RR111 when unknown), or with
    ``pieces`` word -> "piece/tag piece/tag" whose pieces, two or more, make the word (RR112)
    and whose tags are known (RR111). True when every entry is well formed.

    Example: ``买房: 买/v 房/n`` is fine, ``买房: 买/v 屋/n`` is RR112, ``买房: 买/v 房/nn`` RR111.
    """
    if not isinstance(v, LDict):
        ctx.err(v, "RR101", f"{at} must be a mapping, got {_tname(v)}")
        return False
    ok = True
    for word, spec in v.items():
        where = spec if isinstance(spec, str) else v
        if not isinstance(spec, str) or not spec.strip():
            ctx.err(where, "RR101", f"{at} {word!r} must be a string, got {_tname(spec)}")
            ok = False
            continue
        if not pieces:
            tags = [str(spec)]
        else:
            parts = parse_pieces(str(spec))
            if len(parts) < 2 or "".join(p for p, _t in parts) != word:
                ctx.err(
                    where,
                    "RR112",
                    f"{at} {word!r}: pieces {str(spec)!r} must be two or more 'piece/tag' whose"
                    f" pieces make {word!r}",
                )
                ok = False
                continue
            tags = [t for _p, t in parts]
        for tag in tags:
            if tag not in POS_TAGS:
                ctx.err(
                    where,
                    "RR111",
                    f"{at} {word!r}: unknown POS tag {tag!r} (jieba's tags:"
                    f" {', '.join(sorted(POS_TAGS))})",
                )
                ok = False
    return ok


def parse_rules(path: str, doc: Any, norm: Normalizer, diags: list[Diagnostic]) -> ParsedFile:
    ctx = _Ctx(path, norm, diags)
    top = _mapping(ctx, doc, "rule file", {"mode", "description", "rules"}, {"mode", "rules"})
    pf = ParsedFile(path=path, kind="rules", name=Path(path).stem)
    if top is None:
        return pf
    mode = top["mode"]
    if not isinstance(mode, str) or not re.fullmatch(r"[a-z_]+", mode):
        ctx.err(mode, "RR101", "mode must be a lower-case mode id such as 'condition'")
        return pf
    pf.name = str(mode)
    seen: dict[str, int] = {}
    for item in _list(ctx, top["rules"], "rules") or []:
        if not isinstance(item, LDict):
            ctx.err(item, "RR101", f"a rule must be a mapping, got {_tname(item)}")
            continue
        rid = item.get("id")
        if not isinstance(rid, str) or not rid:
            ctx.err(item, "RR101", "rule is missing a string 'id'")
            continue
        if rid in seen:
            ctx.err(
                rid, "RR109", f"duplicate rule id {str(rid)!r} (first defined at line {seen[rid]})"
            )
            continue
        seen[rid] = pos(rid)[0]
        pattern = None
        if "pattern" in item:
            p = item["pattern"]
            if not isinstance(p, str):
                ctx.err(p, "RR101", "pattern must be a string")
                continue
            try:
                pattern = re.compile(str(p))
            except re.error as e:
                ctx.err(p, "RR108", f"invalid regular expression in rule {str(rid)!r}: {e}")
                continue
        keys = RULE_KEYS.get((str(mode), str(rid)))
        if keys is not None and not _rule_keys(ctx, item, str(rid), keys):
            continue
        data = {k: plain(v) for k, v in item.items() if k not in ("id", "pattern")}
        pf.rules.append(
            Rule(
                id=str(rid),
                mode=str(mode),
                source=f"{path}:{pos(item)[0]}",
                pattern=pattern,
                data=data,
            )
        )
    return pf


# ---------------------------------------------------------------------------------------------
# Files and cross-file checks


def read_file(
    path: Path, display: str, norm: Normalizer, diags: list[Diagnostic]
) -> ParsedFile | None:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        diags.append(Diagnostic(display, 1, 1, "RR100", f"cannot read file: {e}"))
        return None
    try:
        doc = load_located(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        problem = getattr(e, "problem", None) or str(e)
        diags.append(Diagnostic(display, line, col, "RR100", f"YAML syntax error: {problem}"))
        return None
    if isinstance(doc, LDict) and "mode" in doc and "pack" not in doc:
        return parse_rules(display, doc, norm, diags)
    return parse_pack(display, doc, norm, diags)


def cross_check(files: list[ParsedFile], norm: Normalizer, diags: list[Diagnostic]) -> None:
    """Checks that need every loaded file: RR103, RR104, RR105, RR110."""
    key: Callable[[str], str] = lambda s: norm(s).text  # noqa: E731
    alias_target: dict[str, tuple[str, Entry]] = {}
    protected: dict[str, Entry] = {}
    rewritten: list[Entry] = []
    edges: dict[str, set[str]] = {}
    labels: set[str] = set()
    for f in files:
        labels.update(i.label for i in f.intents)
    for f in files:
        for e in f.entries:
            if (
                e.kind in ("alias", "entity")
                and e.canonical is not None
                and (e.kind == "alias" or e.canonical != e.text)
            ):
                k = key(e.text)
                prev = alias_target.get(k)
                if prev is not None and key(prev[0]) != key(e.canonical):
                    _diag(
                        diags,
                        e,
                        "RR103",
                        f"{e.text!r} maps to {e.canonical!r} here but to {prev[0]!r} at {prev[1].source}",
                    )
                else:
                    alias_target.setdefault(k, (e.canonical, e))
            if e.kind == "entity":
                protected.setdefault(key(e.text), e)
            if e.kind in ("synonym", "alias"):
                rewritten.append(e)
            if e.kind == "synonym" and e.canonical is not None:
                edges.setdefault(key(e.text), set()).add(key(e.canonical))
            if e.kind == "colloquial" and e.intent is not None and e.intent not in labels:
                _diag(
                    diags,
                    e,
                    "RR110",
                    f"colloquial pattern {e.text!r} names unknown intent {e.intent!r}; known: {sorted(labels)}",
                )
    for e in rewritten:
        p = protected.get(key(e.text))
        if p is not None:
            _diag(
                diags,
                e,
                "RR105",
                f"{e.text!r} is a protected entity ({p.source}) and also rewritten as a {e.kind} variant",
            )
    # RR104: a cycle among one-way synonym edges (variant -> canonical).
    state: dict[str, int] = {}
    by_key = {key(e.text): e for e in rewritten if e.kind == "synonym"}
    for start in sorted(edges):
        if state.get(start):
            continue
        stack: list[tuple[str, list[str]]] = [(start, sorted(edges.get(start, ())))]
        path = [start]
        state[start] = 1
        while stack:
            node, succ = stack[-1]
            if not succ:
                state[node] = 2
                stack.pop()
                path.pop()
                continue
            nxt = succ.pop()
            if state.get(nxt) == 1:
                cyc = [*path[path.index(nxt) :], nxt]
                where = by_key.get(node)
                if where is not None:
                    _diag(diags, where, "RR104", "synonym cycle: " + " -> ".join(cyc))
            elif not state.get(nxt):
                state[nxt] = 1
                path.append(nxt)
                stack.append((nxt, sorted(edges.get(nxt, ()))))


def _diag(diags: list[Diagnostic], e: Entry, code: str, msg: str) -> None:
    file, _, line = e.source.rpartition(":")
    diags.append(Diagnostic(file, int(line), e.col, code, msg))
