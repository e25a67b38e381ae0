"""condition: hard constraints of the query → ``conditions`` (type, text, value)."""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Callable, Sequence
from typing import Any

from rulerewrite.lexicon import Lexicon, Match, Rule
from rulerewrite.memo import FifoMemo
from rulerewrite.modes.base import State, mode
from rulerewrite.result import Condition, Step
from rulerewrite.text.normalize import NormText

_CN_DIGIT = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
}
_CN_DIGIT.update({"八": 8, "九": 9})
_CN_UNIT = {"十": 10, "百": 100, "千": 1000}
_CN_BIG = {"万": 10_000, "亿": 100_000_000}
_UNIT_MULT = {"万": 10_000, "w": 10_000, "千": 1000, "k": 1000, "百": 100}
# what the text must contain for a value parser's rules to have a chance (a fast pre-test)
_NEEDS = {
    "version": re.compile(r"\d|版"),
    "recent": re.compile(r"近|过去|前"),
    "quarter": re.compile(r"[Qq季]"),
    "half": re.compile(r"半年"),
    "date": re.compile(r"[年月]|\d[-/.]\d"),
    "relword": re.compile(r"[月周星年天日]"),
    "range": re.compile(r"[到至~-]"),
    "bound": re.compile(r"[岁元块万千kwRr]"),
    "quantity": re.compile(r"[台件张份套箱瓶盒辆间名人位次本部只条批]"),
}
_PLACE_TYPES = frozenset({"place", "city", "province", "region", "district", "country"})
_AFTER = ("以后", "之后", "以来", "起", "开始")
_BEFORE = ("以前", "之前", "前")
# cheap checklist test: a digit, a Chinese numeral next to a unit, or a time word
_TRIGGER = re.compile(
    r"\d|[一二两三四五六七八九十百千万][元块岁万千台件个月年天版]|上个?月|本月|这个月|下个?月|上周|本周|"
    r"这周|下周|今年|去年|前年|明年|今天|昨天|前天|明天|最近|季度|半年|版"
)


def cn_number(text: str) -> float | None:
    """``"3000"`` → 3000, ``"三千"`` → 3000, ``"两万五"`` → 25000, ``"十二"`` → 12; else None.

    Example:
        >>> cn_number("六十"), cn_number("1.5"), cn_number("一万二千")
        (60.0, 1.5, 12000.0)
    """
    text = text.strip()
    if not text:
        return None
    try:
        return float(text)
    except ValueError:
        pass
    if text == "半":
        return 0.5
    total = 0.0
    section = 0.0
    digit: float | None = None
    last_unit = 1
    for ch in text:
        if ch in _CN_DIGIT:
            digit = float(_CN_DIGIT[ch])
        elif ch in _CN_UNIT:
            u = _CN_UNIT[ch]
            section += (digit if digit is not None else 1.0) * u
            digit = None
            last_unit = u
        elif ch in _CN_BIG:
            section += digit or 0.0
            total += section * _CN_BIG[ch]
            section, digit = 0.0, None
            last_unit = _CN_BIG[ch]
        else:
            return None
    if digit is not None:
        # 两万五 = 25000: a trailing digit after a unit counts one place lower
        section += digit * (last_unit // 10 if last_unit >= 10 and text[-2] in "万千百" else 1)
    return total + section


def _num(text: str | None) -> float | None:
    return None if text is None else cn_number(text)


def _clean(v: float) -> int | float:
    return int(v) if float(v).is_integer() else v


@mode("condition")
class ConditionMode:
    """What: find the query's hard constraints — versions (2023版, v2.4, Python 3.8), times
    (上个月, 去年12月以后, 2024年Q1; relative dates resolved against ``config.reference_date``,
    today by default, the user's text kept), amounts and price ranges (3000元以内), ages
    (60岁以上), places (北京), quantities, and the slot values a pack defines (tenants, roles) —
    into ``conditions`` as ``{type, text, value}``; ``value`` is what a caller turns into a
    metadata filter. Every query sent to retrieval keeps each constraint's text verbatim: a
    sub-query or rewrite that lost one gets it back in front (unless it already has a constraint
    of the same type, as in 北京…？上海呢？).
    Why: a filter on ``time >= 2025-12-01`` is exact where embedding "去年12月以后" is not; and a
    sub-query that dropped "2023版" would retrieve the wrong edition.
    Rules: ``rules/conditions.yaml`` (pattern + value parser, first rule wins on overlaps; text
    inside a protected dictionary entity such as 康宁重疾2024 is that entity's, not a condition).
    Example: ``3000元以内的手机`` -> ``conditions=[{type: amount, text: 3000元以内,
    value: {max: 3000, unit: 元}}]``.
    """

    def __init__(self, lexicon: Lexicon, config: Any) -> None:
        self.lexicon = lexicon
        self.config = config
        self.rules: list[Rule] = [r for r in lexicon.rules.get("condition", ()) if r.pattern]
        self.place_rule: Rule | None = None
        for r in lexicon.rules.get("condition", ()):
            if r.get("parse") == "place":
                self.place_rule = r
        places = set(self.place_rule.get("places", []) if self.place_rule else [])
        places.update(e.text for e in lexicon.entries if e.kind == "entity" and e.etype == "place")
        places.update(lexicon.slots.get("place", ()))
        suffixes = self.place_rule.get("suffixes", []) if self.place_rule else []
        alt = "|".join(sorted((re.escape(p) for p in places if p), key=len, reverse=True))
        suf = "|".join(re.escape(s) for s in suffixes)
        self.places = (
            re.compile(f"(?P<p>{alt})(?:{suf})?" if suf else f"(?P<p>{alt})") if alt else None
        )
        self.slot_kinds = {"slot"}
        self.parsers: dict[str, Callable[[re.Match[str], dt.date], Any]] = {
            "version": self._version,
            "recent": self._recent,
            "quarter": self._quarter,
            "half": self._half,
            "date": self._date,
            "relword": self._relword,
            "range": self._range,
            "bound": self._bound,
            "quantity": self._quantity,
        }
        # each pattern rule as _extract reads it, resolved once: (value parser kind, its cheap
        # literal pre-test, pattern, value parser, condition type, source); place rules are the
        # place pattern's business
        self._plan: list[
            tuple[
                str,
                re.Pattern[str] | None,
                re.Pattern[str],
                Callable[[re.Match[str], dt.date], Any] | None,
                str,
                str,
            ]
        ] = []
        for r in self.rules:
            kind = str(r.get("parse"))
            if kind == "place" or r.pattern is None:
                continue
            self._plan.append(
                (
                    kind,
                    _NEEDS.get(kind),
                    r.pattern,
                    self.parsers.get(kind),
                    str(r.get("type", r.id)),
                    r.source,
                )
            )
        # the (text, reference day) pairs that hold no constraint: most texts the mode runs on
        # (a digit, a time word or a place name passed its cheap test) end up with none, and a
        # repeated query would run every pattern again to find that out. Only the empty answer
        # is kept: a found constraint's value is a fresh dict in every result
        self._none: FifoMemo[tuple[str, dt.date], bool] = FifoMemo(self._NONE_MEMO)

    _NONE_MEMO = 8192  # entries, the oldest dropped first

    def clear_memos(self) -> None:
        """Empty the memo of texts without constraints (for cold benchmarks)."""
        self._none.clear()

    def applies(self, state: State) -> bool:
        return (
            _TRIGGER.search(state.standalone) is not None
            or "slot" in state.features.kinds
            or (self.places is not None and self.places.search(state.standalone) is not None)
        )

    # -- extraction --------------------------------------------------------------------------

    def extract(self, text: str, *, today: dt.date | None = None) -> list[Condition]:
        """Every constraint in ``text`` in reading order (a library call, also used by tests)."""
        return [c for c, _src in self._extract(text, today=today)]

    def _extract(
        self,
        text: str,
        *,
        today: dt.date | None = None,
        known: tuple[NormText, Sequence[Match]] | None = None,
    ) -> list[tuple[Condition, str]]:
        """Constraints with the rule (``file:line``) that found each. ``known``: the text's
        normalisation and dictionary matches when the caller already has them."""
        today = today or self.config.today()
        if (text, today) in self._none:
            return []
        found: list[tuple[int, int, Condition, str]] = []
        taken: list[tuple[int, int]] = []
        if known is not None:
            nt, matches = known
        else:
            nt = self.lexicon.normalizer(text)
            matches = self.lexicon.match(nt)
        inside: list[tuple[int, int]] = []  # protected entities: a condition may contain one
        for m in matches:
            slot = ent = None
            for en in m.entries:  # m.first("slot") and m.first("entity") in one pass
                if en.kind == "slot":
                    slot = slot or en
                elif en.kind == "entity":
                    ent = ent or en
            if slot is None and ent is None:
                continue
            s, e = nt.to_original(m.start, m.end)
            if ent is not None:
                inside.append((s, e))
            if slot is not None and slot.etype:  # a pack's filter key (tenant, role, city ...)
                found.append((s, e, Condition(slot.etype, text[s:e], slot.text), slot.source))
                taken.append((s, e))
            elif ent is not None and ent.etype == "place":
                cond = Condition("place", text[s:e], ent.canonical or ent.text)
                found.append((s, e, cond, ent.source))
                taken.append((s, e))
        need: dict[str, bool] = {}
        for kind, pre, pat, parser, ctype, src in self._plan:
            if pre is not None:  # a cheap literal test before the full pattern
                ok = need.get(kind)
                if ok is None:
                    ok = need[kind] = pre.search(text) is not None
                if not ok:
                    continue
            for mm in pat.finditer(text):
                s, e = mm.span()
                if s == e or any(s < b and a < e for a, b in taken):
                    continue
                if any(s < b and a < e and not (s <= a and b <= e) for a, b in inside):
                    continue  # inside (or across) a protected entity: the entity's business
                value = parser(mm, today) if parser else None
                if value is None and parser is not None:
                    continue
                found.append((s, e, Condition(ctype, mm.group(), value), src))
                taken.append((s, e))
        if self.places is not None:
            for mm in self.places.finditer(text):
                s, e = mm.span()
                if any(s < b and a < e for a, b in (*taken, *inside)):
                    continue
                src = self.place_rule.source if self.place_rule else "rules/conditions.yaml"
                found.append((s, e, Condition("place", mm.group(), mm.group("p")), src))
                taken.append((s, e))
        if not found:
            self._none.put((text, today), True)
            return []
        found.sort(key=lambda x: x[0])
        out: list[tuple[Condition, str]] = []
        for _s, _e, c, src in found:
            if all(c != o for o, _ in out):
                out.append((c, src))
        return out

    def __call__(self, state: State) -> State:
        if "fw:chitchat" in state.features.kinds and len(state.query) <= 12:
            return state  # 今天天气不错 is small talk, not a time filter
        same = state.standalone == state.query
        today = self.config.today()
        known = (state.norm, state.matches)
        found = self._extract(state.standalone, today=today, known=known if same else None)
        if not same:
            # the state's normalisation and matches are the query's (no mode changes them)
            for c, s in self._extract(state.query, today=today, known=known):
                if all(c.text != d.text for d, _ in found):
                    found.append((c, s))
        if not found:
            return state
        conds = [c for c, _ in found]
        trace = list(state.trace)
        src = ", ".join(dict.fromkeys(s for _, s in found))
        standalone = self._keep(state.standalone, conds)
        subs = tuple(self._keep(s, conds) for s in state.subqueries)
        note = "; ".join(f"{c.type}: {c.text} = {c.value}" for c in conds)
        trace.append(Step("condition", src, state.standalone, standalone, None, "applied", note))
        changed: dict[str, Any] = {
            "conditions": (*state.conditions, *(c for c in conds if c not in state.conditions))
        }
        if standalone != state.standalone:
            changed["standalone"] = standalone
        if subs != state.subqueries:
            changed["subqueries"] = subs
        modes = state.modes if "condition" in state.modes else (*state.modes, "condition")
        return state.evolve(trace=tuple(trace), modes=modes, **changed)

    def _keep(self, text: str, conds: list[Condition]) -> str:
        """Put back, in front, every constraint ``text`` lost (unless it has one of that type)."""
        lost = [c for c in conds if c.text not in text]
        if not lost:
            return text
        own = {_family(c.type) for c in self.extract(text)}
        missing = [c.text for c in lost if _family(c.type) not in own]
        if not missing:
            return text
        return " ".join([*missing, text]) if text[:1].isascii() else "".join([*missing, text])

    # -- value parsers -----------------------------------------------------------------------

    @staticmethod
    def _version(m: re.Match[str], today: dt.date) -> Any:
        ver = m.group("ver")
        n = cn_number(ver) if not ver[:1].isdigit() and ver[:1] not in "vV" else None
        v = str(_clean(n)) if n is not None else ver.lstrip("vV")
        out: dict[str, Any] = {"version": v}
        name = m.groupdict().get("name")
        if name:
            out["name"] = name
        return out

    @staticmethod
    def _recent(m: re.Match[str], today: dt.date) -> Any:
        n = cn_number(m.group("n"))
        if n is None:
            return None
        unit = m.group("unit").lstrip("个")
        days = {"天": 1, "日": 1, "周": 7, "星期": 7, "月": 30, "年": 365}[unit] * n
        if unit == "月":
            start = _add_months(today, -round(n)) if float(n).is_integer() else None
            start = start or today - dt.timedelta(days=round(days))
        elif unit == "年" and float(n).is_integer():
            start = _add_months(today, -12 * round(n))
        else:
            start = today - dt.timedelta(days=round(days))
        return {"start": start.isoformat(), "end": today.isoformat()}

    @staticmethod
    def _year(m: re.Match[str], today: dt.date) -> int:
        y = m.groupdict().get("year")
        if y:
            return int(y)
        rel = m.groupdict().get("rel")
        return today.year + {"今年": 0, "去年": -1, "前年": -2, "明年": 1}.get(rel or "今年", 0)

    def _quarter(self, m: re.Match[str], today: dt.date) -> Any:
        q = m.group("q") or m.group("qc")
        qn = int(cn_number(q) or 0)
        if not 1 <= qn <= 4:
            return None
        y = self._year(m, today)
        start = dt.date(y, 3 * qn - 2, 1)
        end = _month_end(dt.date(y, 3 * qn, 1))
        return _modified(start, end, m.groupdict().get("mod"), today)

    def _half(self, m: re.Match[str], today: dt.date) -> Any:
        y = self._year(m, today)
        if m.group("h") == "上半年":
            start, end = dt.date(y, 1, 1), dt.date(y, 6, 30)
        else:
            start, end = dt.date(y, 7, 1), dt.date(y, 12, 31)
        return _modified(start, end, m.groupdict().get("mod"), today)

    def _date(self, m: re.Match[str], today: dt.date) -> Any:
        g = m.groupdict()
        y = self._year(m, today)
        month = _num(g.get("month"))
        day = _num(g.get("day"))
        try:
            if month is None:
                start, end = dt.date(y, 1, 1), dt.date(y, 12, 31)
            elif day is None:
                start = dt.date(y, int(month), 1)
                end = _month_end(start)
            else:
                start = end = dt.date(y, int(month), int(day))
        except ValueError:
            return None
        mod = g.get("mod")
        if mod == "底":
            start = end - dt.timedelta(days=9 if month is not None else 30)
            mod = None
        elif mod == "初":
            end = start + dt.timedelta(days=9 if month is not None else 30)
            mod = None
        return _modified(start, end, mod, today)

    @staticmethod
    def _relword(m: re.Match[str], today: dt.date) -> Any:
        w = m.group("w")
        if w in ("今天", "今日", "昨天", "昨日", "前天", "明天"):
            d = today + dt.timedelta(
                days={"今天": 0, "今日": 0, "昨天": -1, "昨日": -1, "前天": -2, "明天": 1}[w]
            )
            start = end = d
        elif "周" in w or "星期" in w:
            monday = today - dt.timedelta(days=today.weekday())
            shift = -7 if w.startswith("上") else 7 if w.startswith("下") else 0
            start = monday + dt.timedelta(days=shift)
            end = start + dt.timedelta(days=6)
        elif "月" in w:
            shift = -1 if w.startswith("上") else 1 if w.startswith("下") else 0
            start = _add_months(today.replace(day=1), shift)
            end = _month_end(start)
        else:
            y = today.year + {"今年": 0, "去年": -1, "前年": -2, "明年": 1}[w]
            start, end = dt.date(y, 1, 1), dt.date(y, 12, 31)
        return _modified(start, end, m.groupdict().get("mod"), today)

    @staticmethod
    def _range(m: re.Match[str], today: dt.date) -> Any:
        a, b = _num(m.group("a")), _num(m.group("b"))
        if a is None or b is None:
            return None
        g = m.groupdict()
        ub = g.get("ub") or ""
        ua = g.get("ua") or ""
        mult_b = _UNIT_MULT.get(ub[:1].lower(), 1) if ub else 1
        mult_a = _UNIT_MULT.get(ua[:1].lower(), mult_b) if ua else mult_b
        out: dict[str, Any] = {"min": _clean(a * mult_a), "max": _clean(b * mult_b)}
        if "岁" in m.group():
            out["unit"] = "岁"
        else:
            out["unit"] = "元"
        return out

    @staticmethod
    def _bound(m: re.Match[str], today: dt.date) -> Any:
        a = _num(m.group("a"))
        if a is None:
            return None
        g = m.groupdict()
        unit = g.get("unit") or ""
        if unit:
            mult = _UNIT_MULT.get(unit[:1].lower(), 1)
            a *= mult
            tail = g.get("tail")
            if tail:  # 两万五 = 25000
                a += _CN_DIGIT[tail] * mult / 10
            unit = "元"
        else:
            unit = "岁"
            if "岁半" in m.group():
                a += 0.5
        pre, post = g.get("pre") or "", g.get("post") or ""
        v = _clean(a)
        out: dict[str, Any]
        if post in ("以上", "及以上", "起", "之后", "以后") or pre in (
            "年满", "满", "超过", "大于", "高于", "多于", "不低于", "至少", "最少",
        ):  # fmt: skip
            out = {"min": v}
        elif post in ("以内", "以下", "之内", "内", "及以下", "封顶", "之前") or pre in (
            "未满", "不满", "不超过", "不高于", "不到", "不足", "低于", "少于", "小于", "最多",
        ):  # fmt: skip
            out = {"max": v}
        elif post in ("左右", "上下"):
            out = {"approx": v}
        else:
            out = {"eq": v}
        out["unit"] = unit
        return out

    @staticmethod
    def _quantity(m: re.Match[str], today: dt.date) -> Any:
        a = _num(m.group("a"))
        if a is None:
            return None
        out: dict[str, Any] = {"unit": m.group("unit")}
        post = m.groupdict().get("post") or ""
        key = (
            "min"
            if post in ("以上", "起", "及以上")
            else "max"
            if post in ("以下", "以内")
            else "eq"
        )
        out[key] = _clean(a)
        return out


def _family(ctype: str) -> str:
    """Constraint types that exclude each other in one query (北京…？上海呢？ are alternatives)."""
    return "place" if ctype in _PLACE_TYPES else ctype


def _month_end(d: dt.date) -> dt.date:
    return d.replace(day=calendar.monthrange(d.year, d.month)[1])


def _add_months(d: dt.date, n: int) -> dt.date:
    y, m0 = divmod(d.month - 1 + n, 12)
    year, month = d.year + y, m0 + 1
    return d.replace(year=year, month=month, day=min(d.day, calendar.monthrange(year, month)[1]))


def _modified(start: dt.date, end: dt.date, mod: str | None, today: dt.date) -> dict[str, Any]:
    """A period and its modifier: 以后 → from its start; 以前 → before its start; 至今 → to today."""
    if mod in _AFTER:
        return {"start": start.isoformat()}
    if mod in _BEFORE:
        return {"end": (start - dt.timedelta(days=1)).isoformat()}
    if mod == "至今":
        return {"start": start.isoformat(), "end": today.isoformat()}
    return {"start": start.isoformat(), "end": end.isoformat()}
