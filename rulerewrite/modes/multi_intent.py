"""multi_intent: split a multi-question query into sub-queries that each stand alone."""

from __future__ import annotations

import re
from typing import Any

from rulerewrite.lexicon import Lexicon
from rulerewrite.modes.base import State, mode
from rulerewrite.result import Step

_SENT = re.compile(r"([^?？;；!！。\n]+)([?？;；!！。\n]*)")
_EDGE = " ,，、:：~"
_MODEL_SUFFIX = re.compile(
    r"(?:\s?[vV]?\d+(?:\.\d+)*[A-Za-z]*)+(?:\s(?:Pro|Max|Plus|Ultra|mini|Air|Lite|SE))*"
)
_HAS_OBJ = re.compile(r"几|多少|什么|哪|啥|没有")
_NOUNISH_END = re.compile(r"[0-9A-Za-z\u4e00-\u9fff)）]$")


@mode("multi_intent")
class MultiIntent:
    """What: cut the query into its questions and make each one stand alone.

    Rules, in order (data in ``rules/multi_intent.yaml``):

    1. *Cut* at ? ！ 。 ; and at a conjunction (以及, 还有, 另外, 顺便问一下 …) or a comma — but a
       conjunction or comma cuts only when the text on **both** sides is a question (a question
       cue such as 多少/怎么/吗/能否, an A-not-A form such as 变不变, or a closing ?). So
       ``退保流程以及费用`` and ``如果现在退保，能退多少钱`` stay whole.
    2. *Distribute over coordinated subjects* only with a distributive marker (分别, 各自, 各是,
       都支持 …): ``MySQL 和 PostgreSQL 的默认端口分别是多少`` → one query per subject, each with
       ``的默认端口是多少``. Never when the clause names a relation or comparison (区别, 关系, 对比,
       哪个, 还是 …), and never at a 和 inside a dictionary term: ``Redis 和 Memcached 有什么区别``
       stays one query; 中美关系 and 黑白打印机 have no coordinator to cut at; ``牛奶和面包的保质期
       分别是多少`` splits because 分别 asks for one answer per item.
    3. *Distribute a shared subject*: a clause's subject is its text before the first attribute
       word, predicate or question cue (激光切割机|多少钱); a later clause without a subject of its
       own (保修多久, 支持定制吗) gets the last subject in front. ``X呢`` after a question takes that
       question's predicate (北京的社保基数多少？上海呢 → 上海的社保基数多少).
    4. *Dependent follow-up*: a clause that names the previous action by its verb only
       (换了之后…) gets the full action (能不能换投保人，换了之后保费变不变 →
       换投保人后保费是否变化).
    5. A-not-A questions become 能否/是否 forms in the sub-queries (能不能换投保人 → 能否换投保人).

    The standalone query stays the user's single utterance; at most ``config.max_subqueries``
    sub-queries are produced (the tail is kept together in the last one, so nothing is lost).
    Why: one embedding of three questions retrieves none of them well; each sub-query finds
    its own passage. Example: ``激光切割机多少钱？保修多久？支持定制吗？`` -> ``激光切割机多少钱`` /
    ``激光切割机保修多久`` / ``激光切割机支持定制吗``.
    """

    def __init__(self, lexicon: Lexicon, config: Any) -> None:
        self.lexicon = lexicon
        self.max_sub = config.max_subqueries
        rules = {r.id: r for r in lexicon.rules.get("multi_intent", ())}
        self.sources = {k: r.source for k, r in rules.items()}

        def words(rid: str) -> list[str]:
            r = rules.get(rid)
            return [str(w) for w in (r.get("words") or [])] if r else []

        def pat(rid: str, default: str) -> re.Pattern[str]:
            r = rules.get(rid)
            return r.pattern if r is not None and r.pattern is not None else re.compile(default)

        self.question = pat("question_cues", r"吗|多少|怎么|如何|什么|哪|几")
        conj = set(words("conjunctions")) | {e.text for e in lexicon.entries_of("fw:conjunction")}
        conj_alt = "|".join(sorted((re.escape(c) for c in conj), key=len, reverse=True))
        self.conj = (
            re.compile(rf"[,，;；\s]*(?:{conj_alt})[,，:：\s]*|[,，]\s*") if conj_alt else None
        )
        self.distributive = pat("distributive", r"分别|各自")
        self.coord = pat("coordinators", r"和|与|跟|及|、")
        self.relations = words("relations")
        self.attributes = sorted(set(words("attributes")), key=len, reverse=True)
        attr_alt = "|".join(re.escape(a) for a in self.attributes)
        end = pat("subject_end", r"的|是|有|吗|呢|多少|怎么")
        # a later clause's own subject ends at an attribute word or a predicate (保修多久 has
        # none); the first subject of a query (its topic) ends at a predicate only (年假怎么申请)
        self.subject_end = re.compile(f"{attr_alt}|{end.pattern}" if attr_alt else end.pattern)
        self.topic_end = end
        forms_rule = rules.get("anota_forms")
        forms = forms_rule.get("forms") if forms_rule else None
        self.anota = (
            sorted(((str(k), str(v)) for k, v in forms.items()), key=lambda kv: -len(kv[0]))
            if isinstance(forms, dict)
            else []
        )
        self.dependent = pat(
            "dependent", r"^(?P<v>[\u4e00-\u9fff])了?(?:之后|以后|后)(?P<rest>.+)$"
        )
        self.modal = pat("modal_prefix", r"^(?:能不能|能否|可以|能)")
        self.non_subjects = {
            e.text
            for e in lexicon.entries
            if e.kind in ("pronoun", "demonstrative", "fw:filler", "fw:question")
        } | {"我", "我们", "你", "你们", "您"}
        # the checklist test: more than one sentence, a comma/conjunction, or a distributive word
        trig = [r"[?？;；!！。\n][^?？;；!！。\n]", r"[,，]", self.distributive.pattern]
        if conj_alt:
            trig.append(conj_alt)
        self.trigger = re.compile("|".join(f"(?:{t})" for t in trig))

    def applies(self, state: State) -> bool:
        return self.trigger.search(state.standalone) is not None

    # -- the mode ---------------------------------------------------------------------------

    def __call__(self, state: State) -> State:
        text = state.standalone
        clauses: list[str] = []
        rules: list[str] = []
        for m in _SENT.finditer(text):
            body, punct = m.group(1).strip(_EDGE), m.group(2)
            if not body:
                continue
            parts = self._cut(body, asked="?" in punct or "？" in punct)
            if len(parts) > 1:
                rules.append("conjunctions")
            for p in parts:
                dist = self._distribute(p)
                if len(dist) > 1:
                    rules.append("distributive")
                clauses.extend(dist)
        if len([c for c in clauses if c]) < 2:
            return state
        if len(clauses) > 1 and len(list(_SENT.finditer(text))) > 1:
            rules.insert(0, "question_cues")
        subs = self._stand_alone(clauses, rules)
        subs = [self._anota(s) for s in subs]
        subs = list(dict.fromkeys(s for s in subs if s))
        if len(subs) < 2:
            return state
        if len(subs) > self.max_sub:
            subs = [*subs[: self.max_sub - 1], "，".join(subs[self.max_sub - 1 :])]
        used = list(dict.fromkeys(rules)) or ["question_cues"]
        src = self.sources.get(used[0], "rules/multi_intent.yaml")
        step = Step(
            "multi_intent",
            src,
            text,
            " | ".join(subs),
            None,
            "applied",
            f"{len(subs)} sub-queries ({', '.join(used)})",
        )
        return state.with_step(step, subqueries=tuple(subs))

    # -- 1. cutting --------------------------------------------------------------------------

    def is_question(self, clause: str) -> bool:
        return self.question.search(clause) is not None

    def _cut(self, body: str, *, asked: bool) -> list[str]:
        """Cut at conjunctions/commas where both sides are questions."""
        if self.conj is None:
            return [body]
        frags: list[str] = []
        last = 0
        for m in self.conj.finditer(body):
            if m.start() == 0 and m.group().strip(_EDGE):
                body_rest = body[m.end() :]
                if body_rest and self.is_question(body_rest):
                    # 顺便问一下怎么开启 gzip: a leading conjunction only joins sentences
                    return self._cut(body_rest, asked=asked)
            if m.start() == 0 or m.end() >= len(body):
                continue
            if self._inside_term(body, m.start(), m.end()):
                continue
            frags.append(body[last : m.start()])
            frags.append(m.group())
            last = m.end()
        frags.append(body[last:])
        if len(frags) == 1:
            return [body]
        out = [frags[0]]
        for i in range(1, len(frags), 2):
            joiner, frag = frags[i], frags[i + 1]
            is_last = i + 2 >= len(frags)
            right_q = self.is_question(frag) or (is_last and asked and bool(frag.strip()))
            if self.is_question(out[-1]) and right_q and frag.strip(_EDGE):
                # 还有几种颜色: the 有 of 还有 is the verb of the second question
                if joiner.strip(_EDGE).endswith("有") and _HAS_OBJ.match(frag):
                    frag = "有" + frag
                out.append(frag)
            else:
                out[-1] = out[-1] + joiner + frag
        return [o.strip(_EDGE) for o in out if o.strip(_EDGE)]

    def _inside_term(self, text: str, start: int, end: int) -> bool:
        nt = self.lexicon.normalizer(text)
        for m in self.lexicon.match(nt):
            s, e = nt.to_original(m.start, m.end)
            if s < end and start < e and m.kinds() & {"entity", "alias", "canonical", "synonym"}:
                return True
        return False

    # -- 2. coordinated subjects ---------------------------------------------------------------

    def _distribute(self, clause: str) -> list[str]:
        m = self.distributive.search(clause)
        if m is None or any(r in clause for r in self.relations):
            return [clause]
        left, right = clause[: m.start()], clause[m.end() :]
        if not right.strip() or not left.strip():
            return [clause]
        attr = ""
        de = left.rfind("的")
        if de > 0 and not self.coord.search(left[de + 1 :]):
            left, attr = left[:de], left[de:]
        items: list[str] = []
        last = 0
        for c in self.coord.finditer(left):
            if self._inside_term(left, c.start(), c.end()):
                continue
            items.append(left[last : c.start()])
            last = c.end()
        items.append(left[last:])
        items = [i.strip(_EDGE) for i in items]
        if len(items) < 2 or any(not i or self.is_question(i) for i in items):
            return [clause]
        if not attr:
            # MySQL和PostgreSQL默认端口分别是多少: the attribute sticks to the last item
            tail = items[-1]
            for a in self.attributes:
                if tail.endswith(a) and len(tail) > len(a):
                    items[-1], attr = tail[: -len(a)].strip(_EDGE), a
                    break
        right = right.lstrip()
        return [_join(item, attr + right) for item in items]

    # -- 3./4. subjects and dependent follow-ups ----------------------------------------------

    def subject(self, clause: str, *, topic: bool = False) -> str:
        """The clause's own subject: the text before its first attribute word, predicate or
        question cue (``topic``: before its first predicate or cue only). A clause opening with
        a protected entity has at least that entity as subject (Python 3.8 怎么安装 → Python 3.8)."""
        start = 0
        nt = self.lexicon.normalizer(clause)
        for m in self.lexicon.match(nt):
            if m.start > 0:
                break
            e = m.first("entity")
            if e is not None and e.etype != "term":
                start = nt.to_original(m.start, m.end)[1]
                ext = _MODEL_SUFFIX.match(clause, start)  # Python 3.8, iPhone 15 Pro
                subj = clause[: ext.end() if ext else start].strip(_EDGE)
                return subj
        m2 = self.subject_end.search(clause, start)
        if topic and m2 is not None and m2.start() == 0:
            m2 = self.topic_end.search(clause, start)  # 年假|怎么申请: the attribute is the topic
        # X的Y: the subject ends before 的 only when an attribute follows (MySQL|的默认端口);
        # 上个月的加班费 is one subject
        while m2 is not None and m2.group() == "的" and not self._attribute_at(clause, m2.end()):
            m2 = self.subject_end.search(clause, m2.end())
        subj = (clause[: m2.start()] if m2 else clause).strip(_EDGE)
        if not subj or subj in self.non_subjects or not _NOUNISH_END.search(subj):
            return ""
        if len(subj) < 2 and not subj.isascii():
            return ""
        return subj

    def _attribute_at(self, text: str, pos: int) -> bool:
        return any(text.startswith(a, pos) for a in self.attributes)

    def _stand_alone(self, clauses: list[str], rules: list[str]) -> list[str]:
        out: list[str] = []
        subj = ""
        prev = ""
        for i, c in enumerate(clauses):
            own = self.subject(c, topic=not subj)
            if i > 0:
                dep = self.dependent.match(c)
                # the previous clause's action: without its subject and modal (能不能换投保人 →
                # 换投保人; 保额50万以上能不能加保 → 保额50万以上 + 加保)
                psubj = self.subject(prev, topic=True) if prev else ""
                head = psubj if psubj and prev.startswith(psubj) else ""
                core = self.modal.sub("", prev[len(head) :].lstrip()).rstrip("吗呢么嘛?？ ")
                if dep and core.startswith(dep.group("v")) and len(core) > len(dep.group("v")):
                    c = _join(head, f"{core}后{dep.group('rest')}")
                    rules.append("dependent")
                    own = self.subject(c)
                elif c.endswith("呢") and own and own == c[:-1].strip(_EDGE) and prev:
                    psubj = self.subject(prev)
                    if psubj and prev.startswith(psubj) and len(prev) > len(psubj):
                        c = _join(own, prev[len(psubj) :])
                        rules.append("subject_end")
                elif not own and subj and subj not in c:
                    c = _join(subj, c)
                    rules.append("subject_end")
            if own:
                subj = own
            out.append(c)
            prev = c
        return out

    def _anota(self, text: str) -> str:
        for k, v in self.anota:
            if k in text:
                text = text.replace(k, v)
        return text


def _join(left: str, right: str) -> str:
    """Put a subject in front of a predicate; a Latin subject keeps a space before CJK."""
    if left and right and left[-1].isascii() and left[-1].isalnum() and right[0].isalnum():
        return f"{left} {right}"
    return left + right
