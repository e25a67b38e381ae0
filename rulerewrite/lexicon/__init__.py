"""Packs and rule files → one compiled :class:`Lexicon` (Aho-Corasick automaton + records).

Build once per :class:`~rulerewrite.Rewriter`; the compiled form is cached on disk keyed by a hash
of every file's content (and this package's version), so a second process loads it without
re-validating or re-compiling, and any edit to a file rebuilds it.
"""

from __future__ import annotations

import hashlib
import operator
import os
import pickle
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ahocorasick

from rulerewrite.errors import Diagnostic, LexiconError, UnknownDomainError
from rulerewrite.lexicon.model import Entry, Intent, Match, Rule, new_match
from rulerewrite.lexicon.schema import ParsedFile, cross_check, read_file
from rulerewrite.memo import FifoMemo
from rulerewrite.text.normalize import Normalizer, NormText
from rulerewrite.text.segment import Segmenter, parse_pieces

__all__ = [
    "Entry",
    "Intent",
    "Lexicon",
    "Match",
    "Rule",
    "available_domains",
    "check_paths",
    "data_dir",
]

CACHE_FORMAT = "rulerewrite-lexicon-6"


def data_dir(kind: str) -> Path:
    """The bundled ``dictionaries`` or ``rules`` folder (installed wheel or source checkout)."""
    here = Path(__file__).resolve().parent.parent
    for cand in (here / "_data" / kind, here.parent / kind):
        if cand.is_dir():
            return cand
    raise FileNotFoundError(f"bundled {kind}/ folder not found next to {here}")


def available_domains() -> list[str]:
    """Names of the bundled domain packs (``general`` excluded: it is always loaded)."""
    return sorted(p.stem for p in data_dir("dictionaries").glob("*.yaml") if p.stem != "general")


def _expand(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(list(path.glob("*.yaml")) + list(path.glob("*.yml"))))
        else:
            out.append(path)
    return out


def _display(path: Path) -> str:
    """Paths inside the package data or the cwd are shown relative (``dictionaries/x.yaml``)."""
    try:
        for kind in ("dictionaries", "rules"):
            base = data_dir(kind)
            if path.resolve().is_relative_to(base.resolve()):
                return f"{kind}/{path.resolve().relative_to(base.resolve())}"
    except FileNotFoundError:  # pragma: no cover
        pass
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _parse_all(
    files: Sequence[Path], norm: Normalizer
) -> tuple[list[ParsedFile], list[Diagnostic]]:
    diags: list[Diagnostic] = []
    parsed: list[ParsedFile] = []
    for f in files:
        disp = _display(f)
        if not f.is_file():
            diags.append(Diagnostic(disp, 1, 1, "RR100", "no such file"))
            continue
        pf = read_file(f, disp, norm, diags)
        if pf is not None:
            parsed.append(pf)
    cross_check(parsed, norm, diags)
    return parsed, sorted(set(diags))


def check_paths(
    paths: Sequence[str | os.PathLike[str]], *, with_general: bool = True
) -> list[Diagnostic]:
    """Validate packs and rule files (files or folders); returns every problem found.

    The bundled ``general`` pack is added as context (it defines the shared intent labels) unless
    a file named ``general.yaml`` is among ``paths``.
    """
    files = _expand(paths)
    if with_general and not any(f.stem == "general" for f in files):
        files.insert(0, data_dir("dictionaries") / "general.yaml")
    _, diags = _parse_all(files, Normalizer())
    return diags


@dataclass
class Lexicon:
    """Everything the modes need from the packs: entries, intents, rules and the automaton."""

    packs: tuple[str, ...]
    files: tuple[str, ...]
    entries: tuple[Entry, ...]
    intents: dict[str, Intent]
    rules: dict[str, tuple[Rule, ...]]
    slots: dict[str, tuple[str, ...]]
    automaton: Any
    fingerprint: str
    normalizer: Normalizer = field(repr=False, compare=False, default_factory=Normalizer)
    # each entry's text normalised, as the automaton was built from it (kept in the cache)
    entry_keys: tuple[str, ...] = field(default=(), repr=False, compare=False)
    by_kind: dict[str, tuple[Entry, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        kinds: dict[str, list[Entry]] = {}
        for e in self.entries:
            kinds.setdefault(e.kind, []).append(e)
        self.by_kind = {k: tuple(v) for k, v in kinds.items()}

    # -- building ---------------------------------------------------------------------------

    @classmethod
    def load(
        cls,
        *,
        domains: Sequence[str] | None = None,
        dictionaries: Sequence[str | os.PathLike[str]] = (),
        rules: Sequence[str | os.PathLike[str]] | None = None,
        cache_dir: str | os.PathLike[str] | None = None,
        use_cache: bool = True,
        normalizer: Normalizer | None = None,
    ) -> Lexicon:
        """Load ``general`` + the named bundled domains (all when None) + the user's files.

        Raises :class:`LexiconError` listing every problem when any file is invalid.
        """
        norm = normalizer or Normalizer()
        dict_dir = data_dir("dictionaries")
        known = available_domains()
        if domains is None:
            names = known
        else:
            if isinstance(domains, str):
                raise TypeError("domains must be a list of pack names, not a string")
            unknown = [d for d in domains if d not in known]
            if unknown:
                raise UnknownDomainError(f"[RR200] unknown domain(s) {unknown}; available: {known}")
            names = list(dict.fromkeys(domains))
        files = [dict_dir / "general.yaml", *(dict_dir / f"{n}.yaml" for n in names)]
        files += _expand(dictionaries)
        files += _expand([data_dir("rules")] if rules is None else rules)
        fp = _fingerprint(files)
        cache_path = _cache_dir(cache_dir) / f"{fp}.pickle"
        if use_cache and cache_path.is_file():
            try:
                with cache_path.open("rb") as fh:
                    lex: Lexicon = pickle.load(fh)
                lex.normalizer = norm
                return lex
            except Exception:  # corrupt or incompatible cache: rebuild below
                pass
        parsed, diags = _parse_all(files, norm)
        if diags:
            raise LexiconError(diags)
        lex = cls._compile(parsed, norm, fp)
        if use_cache:
            _write_cache(cache_path, lex)
        return lex

    @classmethod
    def _compile(cls, parsed: list[ParsedFile], norm: Normalizer, fp: str) -> Lexicon:
        entries: list[Entry] = []
        intents: dict[str, Intent] = {}
        rules: dict[str, list[Rule]] = {}
        slots: dict[str, list[str]] = {}
        packs: list[str] = []
        for pf in parsed:
            if pf.kind == "pack":
                packs.append(pf.name)
                entries.extend(pf.entries)
                for it in pf.intents:
                    if it.label in intents:  # a domain pack extends a label of general
                        old = intents[it.label]
                        it = Intent(
                            it.label,
                            old.keywords + it.keywords,
                            old.filters + it.filters,
                            it.pack,
                            it.source,
                        )
                    intents[it.label] = it
                for k, v in pf.slots.items():
                    slots.setdefault(k, []).extend(v)
            else:
                rules.setdefault(pf.name, []).extend(pf.rules)
        auto = ahocorasick.Automaton()
        table: dict[str, list[Entry]] = {}
        keys: list[str] = []
        for e in entries:
            k = norm(e.text).text
            keys.append(k)
            table.setdefault(k, []).append(e)
            # A Latin/digit term written with spaces also matches without them (iPhone 15 Pro).
            if " " in k:
                table.setdefault(k.replace(" ", ""), []).append(e)
        for k, es in table.items():
            # edge flags, computed once: does the term start/end with a Latin letter or digit
            # (word-boundary check needed), with a digit (dotted-number check needed)?
            auto.add_word(
                k,
                (k, tuple(es), _is_word(k[0]), _is_word(k[-1]), k[0] in _DIGITS, k[-1] in _DIGITS),
            )
        auto.make_automaton()
        return cls(
            packs=tuple(packs),
            files=tuple(pf.path for pf in parsed),
            entries=tuple(entries),
            intents=intents,
            rules={k: tuple(v) for k, v in rules.items()},
            slots={k: tuple(v) for k, v in slots.items()},
            automaton=auto,
            fingerprint=fp,
            normalizer=norm,
            entry_keys=tuple(keys),
        )

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("normalizer", None)
        state.pop("by_kind", None)
        state.pop("_segmenter", None)
        state.pop("_match_cache", None)
        state.pop("_multiturn", None)  # per-Rewriter context analyzers (rulerewrite.modes)
        state.pop("_parsers", None)  # parser backends (text.make_parser) hold models
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.__post_init__()

    # -- matching ---------------------------------------------------------------------------

    def scan(self, norm: NormText) -> list[Match]:
        """Every dictionary hit (overlapping), as half-open spans on ``norm.text``.

        Latin/digit terms only match on word boundaries (``py`` does not fire inside ``happy``).
        """
        text = norm.text
        n = len(text)
        out: list[Match] = []
        for end_incl, (key, es, w0, w1, d0, d1) in self.automaton.iter(text):
            end = end_incl + 1  # pyahocorasick gives an inclusive end
            start = end - len(key)
            if w0 and start > 0:
                c = text[start - 1]
                if _is_word(c):
                    continue
                # nor inside a dotted number: "3.12" does not fire in "1.3.12"
                if d0 and c == "." and start > 1 and text[start - 2] in _DIGITS:
                    continue
            if w1 and end < n:
                c = text[end]
                if _is_word(c):
                    continue
                # "python 3.12" does not fire in "python 3.12.1"
                if d1 and c == "." and end + 1 < n and text[end + 1] in _DIGITS:
                    continue
            out.append(new_match(start, end, key, es))
        return out

    def match(self, norm: NormText) -> list[Match]:
        """Non-overlapping hits: protected entities and blocking words win, then the longest.

        Memoised on the normalised text (hits depend on nothing else; a fresh list is returned).
        """
        return list(self.match_tuple(norm))

    def match_tuple(self, norm: NormText) -> tuple[Match, ...]:
        """:meth:`match` as the memoised tuple itself (immutable: no copy)."""
        cache: FifoMemo[str, tuple[Match, ...]] | None = self.__dict__.get("_match_cache")
        if cache is None:
            cache = self.__dict__["_match_cache"] = FifoMemo(_MATCH_CACHE_SIZE)
        hit = cache.get(norm.text)
        if hit is None:
            hit = cache.put(norm.text, tuple(resolve(self.scan(norm))))
        return hit

    def normalized_entries(self) -> tuple[str, ...]:
        """Each entry's text normalised (``normalizer(e.text).text``), in ``entries`` order.

        Why: the typo corrector and the intent classifier read every entry in its normalised
        form when a Rewriter is built; the lexicon computed those texts once to build its
        automaton and keeps them in the cache, so a warm start normalises no entry again.
        A lexicon built without them (``entry_keys`` empty) normalises here.

        Example:
            >>> lex = Lexicon.load(domains=[])
            >>> lex.normalized_entries()[0] == lex.normalizer(lex.entries[0].text).text
            True
        """
        if len(self.entry_keys) == len(self.entries):
            return self.entry_keys
        norm = self.normalizer
        return tuple(norm(e.text).text for e in self.entries)

    def entries_of(self, kind: str) -> tuple[Entry, ...]:
        return self.by_kind.get(kind, ())

    def rule(self, mode: str, rule_id: str) -> Rule | None:
        """The rule ``rule_id`` of ``mode``'s rule files (the first one), or None; for a mode's
        constructor, not for the per-rewrite path."""
        return next((r for r in self.rules.get(mode, ()) if r.id == rule_id), None)

    @property
    def segmenter(self) -> Segmenter:
        """jieba-exact segmentation that keeps every dictionary term whole (loaded lazily, once)."""
        seg = self.__dict__.get("_segmenter")
        if seg is None:
            retag = self.rule("segment", "retag")
            drop = self.rule("segment", "drop")
            add = self.rule("segment", "add")
            seg = Segmenter(
                [
                    *(
                        (e.text, _POS_OF.get(e.etype or "", "nz"))
                        for e in self.entries
                        if _segment_worthy(e)
                    ),
                    *(
                        (str(w), str(t))
                        for w, t in ((add.get("tags") or {}) if add else {}).items()
                    ),
                ],
                retag=((str(w), str(t)) for w, t in (retag.get("tags") or {}).items())
                if retag is not None
                else (),
                drop=(str(w) for w in ((drop.get("words") or ()) if drop is not None else ())),
                join=((str(w), str(t)) for w, t in _rule_map(self.rule("segment", "join"), "tags")),
                split=(
                    (str(w), parse_pieces(str(p)))
                    for w, p in _rule_map(self.rule("segment", "split"), "pieces")
                ),
            )
            self.__dict__["_segmenter"] = seg
        return seg


_MATCH_CACHE_SIZE = 16384
_POS_OF = {"person": "nr", "place": "ns", "org": "nt", "department": "nt"}


def _rule_map(rule: Rule | None, key: str) -> Iterable[tuple[Any, Any]]:
    """The ``key`` mapping of a rule's data as pairs (none when the rule or the key is absent):
    ``_rule_map(lexicon.rule("segment", "join"), "tags")`` -> ``[("审批人", "n"), ...]``."""
    return ((rule.get(key) or {}) if rule is not None else {}).items()


def _segment_worthy(e: Entry) -> bool:
    """A dictionary term the segmenter keeps whole; a variant that asks (怎么吃 / 吃多少 of
    用法用量) is a question, not a term, and would glue the question to the noun before it."""
    return (
        e.kind in ("entity", "alias", "canonical", "synonym", "synonym_canonical")
        and len(e.text) > 1
        and _ASKS.search(e.text) is None
    )


_ASKS = re.compile(r"怎么|怎样|多少|什么|啥|哪|几|吗|么")


def _is_word(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch == "_")


_DIGITS = frozenset("0123456789")


def resolve(matches: list[Match]) -> list[Match]:
    """Longest-match resolution with protected kinds first; result sorted by start."""
    if len(matches) < 2:
        return list(matches)
    by_start = sorted(matches, key=_span)
    prev_end = -1
    for m in by_start:
        if m.start < prev_end:
            break
        prev_end = m.end
    else:
        return by_start  # nothing overlaps (the common case): nothing to resolve
    ranked = sorted(matches, key=_rank)
    taken: list[Match] = []
    for m in ranked:
        for t in taken:
            if m.start < t.end and t.start < m.end:
                break
        else:
            taken.append(m)
    taken.sort(key=_span)
    return taken


_span = operator.attrgetter("start", "end")


def _rank(m: Match) -> tuple[bool, int, int]:
    return not m.protected, m.start - m.end, m.start


def _fingerprint(files: Sequence[Path]) -> str:
    from rulerewrite import __version__

    h = hashlib.sha256()
    h.update(CACHE_FORMAT.encode())
    h.update(__version__.encode())
    for f in files:
        h.update(str(f.resolve()).encode())
        try:
            h.update(f.read_bytes())
        except OSError:
            h.update(b"<missing>")
        h.update(b"\0")
    return h.hexdigest()[:32]


def _cache_dir(cache_dir: str | os.PathLike[str] | None) -> Path:
    if cache_dir is not None:
        return Path(cache_dir)
    env = os.environ.get("RULEREWRITE_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "rulerewrite"


def _write_cache(path: Path, lex: Lexicon) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        with tmp.open("wb") as fh:
            pickle.dump(lex, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError:  # a read-only home must not break rewriting
        pass
