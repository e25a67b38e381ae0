"""A BM25 retriever over a JSONL or CSV knowledge base (extra ``rulerewrite[retrieval]``).

What: :class:`BM25Retriever` indexes short documents with ``bm25s`` and answers the retriever
contract of :mod:`rulerewrite.retrieval`: ``retriever(query, k, filters=None) -> list[Hit]``.
Text is normalised with the rewriter's own :class:`~rulerewrite.text.normalize.Normalizer` and
segmented with its own jieba tokenizer (``lexicon.segmenter``), so dictionary terms such as
``安心福终身寿险`` stay whole tokens on both sides.
Why: a baseline every user has (keyword search) that shows what rewriting adds, with no model.

Knowledge base rows: JSONL objects or CSV rows with ``id`` and ``text`` (required), ``title``
(optional, indexed with the text) and any other fields (kept as ``metadata``; a JSONL
``metadata`` object is merged in). A bad row raises :class:`KnowledgeBaseError` naming
``file:line`` (codes RR610..RR615).

Example:
    >>> from rulerewrite import Rewriter
    >>> docs = [KBDoc("d1", "犹豫期内退保可全额退还保费"), KBDoc("d2", "保单借款的利率")]
    >>> bm = BM25Retriever(docs, lexicon=Rewriter().lexicon)
    >>> bm("犹豫期退保", 1)[0].id
    'd1'
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulerewrite.errors import RuleRewriteError
from rulerewrite.retrieval import Hit

__all__ = ["BM25Retriever", "KBDoc", "KnowledgeBaseError", "load_kb"]

_RESERVED = ("id", "text", "title", "metadata")


class KnowledgeBaseError(RuleRewriteError, ValueError):
    """A knowledge base file cannot be read or has a bad row (``file:line RR61x ...``)."""


@dataclass(frozen=True, slots=True)
class KBDoc:
    """One knowledge-base document."""

    id: str
    text: str
    title: str = ""
    metadata: Mapping[str, Any] = field(default_factory=dict)

    @property
    def indexed_text(self) -> str:
        return f"{self.title} {self.text}" if self.title else self.text


def _row_to_doc(row: Mapping[str, Any], where: str) -> KBDoc:
    for key in ("id", "text"):
        if key not in row or row[key] is None or str(row[key]).strip() == "":
            raise KnowledgeBaseError(f"{where} RR612 row has no {key!r}")
    doc_id, text = row["id"], row["text"]
    if not isinstance(doc_id, (str, int)) or isinstance(doc_id, bool):
        raise KnowledgeBaseError(f"{where} RR612 'id' must be a string or integer, got {doc_id!r}")
    if not isinstance(text, str):
        raise KnowledgeBaseError(
            f"{where} RR612 'text' must be a string, got {type(text).__name__}"
        )
    title = row.get("title") or ""
    if not isinstance(title, str):
        raise KnowledgeBaseError(f"{where} RR612 'title' must be a string")
    meta: dict[str, Any] = {}
    extra = row.get("metadata")
    if extra is not None:
        if not isinstance(extra, Mapping):
            raise KnowledgeBaseError(f"{where} RR612 'metadata' must be an object")
        meta.update(extra)
    meta.update({k: v for k, v in row.items() if k not in _RESERVED and v not in (None, "")})
    return KBDoc(str(doc_id).strip(), text.strip(), title.strip(), meta)


def _jsonl_rows(path: Path, disp: str) -> Iterable[tuple[int, Mapping[str, Any]]]:
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                raise KnowledgeBaseError(
                    f"{disp}:{lineno}:{e.colno} RR611 invalid JSON ({e.msg})"
                ) from None
            if not isinstance(row, dict):
                raise KnowledgeBaseError(
                    f"{disp}:{lineno} RR612 expected a JSON object, got {type(row).__name__}"
                )
            yield lineno, row


def _csv_rows(path: Path, disp: str, delimiter: str) -> Iterable[tuple[int, Mapping[str, Any]]]:
    with path.open(encoding="utf-8-sig", newline="") as fh:
        reader = csv.DictReader(fh, delimiter=delimiter)
        header = reader.fieldnames or []
        missing = [c for c in ("id", "text") if c not in header]
        if missing:
            raise KnowledgeBaseError(f"{disp}:1 RR612 CSV header lacks column(s) {missing}")
        for row in reader:
            lineno = reader.line_num
            if None in row:  # more cells than header columns
                raise KnowledgeBaseError(
                    f"{disp}:{lineno} RR612 row has {len(header) + len(row[None])} cells, "
                    f"the header has {len(header)}"
                )
            yield lineno, row


def load_kb(path: str | os.PathLike[str]) -> list[KBDoc]:
    """Read a knowledge base: ``.jsonl``/``.json`` (one object per line), ``.csv`` or ``.tsv``.

    Raises :class:`KnowledgeBaseError` (``file:line CODE message``) for an unreadable file
    (RR610), invalid JSON (RR611), a bad row (RR612), a duplicate id (RR613), an empty knowledge
    base (RR614) or an unknown format (RR615). Nothing is half-loaded.
    """
    p = Path(path)
    disp = str(path)
    suffix = p.suffix.lower()
    rows: Iterable[tuple[int, Mapping[str, Any]]]
    if suffix in (".jsonl", ".json", ".ndjson"):
        rows = _jsonl_rows(p, disp)  # generators: reading happens in the loop below
    elif suffix in (".csv", ".tsv"):
        rows = _csv_rows(p, disp, "\t" if suffix == ".tsv" else ",")
    else:
        raise KnowledgeBaseError(
            f"{disp}:1 RR615 unknown knowledge-base format {suffix or '(none)'!r}; "
            "use .jsonl, .csv or .tsv"
        )
    docs: list[KBDoc] = []
    first_line: dict[str, int] = {}
    try:
        for lineno, row in rows:
            doc = _row_to_doc(row, f"{disp}:{lineno}")
            if doc.id in first_line:
                raise KnowledgeBaseError(
                    f"{disp}:{lineno} RR613 duplicate id {doc.id!r} (first at line "
                    f"{first_line[doc.id]})"
                )
            first_line[doc.id] = lineno
            docs.append(doc)
    except OSError as e:
        raise KnowledgeBaseError(f"{disp}:1 RR610 cannot read ({e.strerror})") from None
    except UnicodeDecodeError as e:
        raise KnowledgeBaseError(f"{disp}:1 RR610 not UTF-8 text ({e.reason})") from None
    except csv.Error as e:
        raise KnowledgeBaseError(f"{disp}:1 RR611 malformed CSV ({e})") from None
    if not docs:
        raise KnowledgeBaseError(f"{disp}:1 RR614 knowledge base has no documents")
    return docs


class BM25Retriever:
    """BM25 over short documents, tokenised like the rewriter sees text.

    Keyword-only options: ``lexicon`` (a :class:`~rulerewrite.lexicon.Lexicon`, e.g.
    ``rewriter.lexicon``; default: the bundled packs), ``tokenizer`` (a callable ``str ->
    list[str]`` replacing the built-in one), ``k1``/``b`` (BM25 parameters), ``apply_filters``
    (when True, ``filters`` keys that a document's metadata also has must match: equal, or
    contained when the filter value is a list; ``conditions`` and ``intent`` are ignored).

    Hits with a zero score (no query term in the document) are not returned; ties keep the
    knowledge-base order.
    """

    def __init__(
        self,
        docs: Sequence[KBDoc],
        *,
        lexicon: Any = None,
        tokenizer: Callable[[str], list[str]] | None = None,
        k1: float = 1.5,
        b: float = 0.75,
        apply_filters: bool = False,
    ) -> None:
        try:
            import bm25s
            import numpy as np
        except ImportError as e:  # pragma: no cover - depends on the install
            raise ImportError(
                "BM25Retriever needs the retrieval extra: pip install 'rulerewrite[retrieval]'"
            ) from e
        self._np = np
        if not docs:
            raise KnowledgeBaseError("<docs>:1 RR614 knowledge base has no documents")
        ids = [d.id for d in docs]
        if len(set(ids)) != len(ids):
            dup = next(i for i in ids if ids.count(i) > 1)
            raise KnowledgeBaseError(f"<docs>:1 RR613 duplicate id {dup!r}")
        self.docs = list(docs)
        if tokenizer is None:
            if lexicon is None:
                from rulerewrite.lexicon import Lexicon

                lexicon = Lexicon.load()
            tokenizer = _LexiconTokenizer(lexicon)
        self.tokenize = tokenizer
        self.apply_filters = apply_filters
        corpus = [self.tokenize(d.indexed_text) or [""] for d in self.docs]
        self._bm25 = bm25s.BM25(k1=k1, b=b)
        self._bm25.index(corpus, show_progress=False)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str], **options: Any) -> BM25Retriever:
        """Load a JSONL/CSV knowledge base (see :func:`load_kb`) and index it."""
        return cls(load_kb(path), **options)

    def __len__(self) -> int:
        return len(self.docs)

    def __call__(
        self, query: str, k: int = 10, filters: Mapping[str, Any] | None = None
    ) -> list[Hit]:
        if not isinstance(query, str):
            raise TypeError(f"query must be a str, got {type(query).__name__}")
        np = self._np
        tokens = self.tokenize(query)
        if not tokens or k < 1:
            return []
        scores = self._bm25.get_scores(tokens)
        if self.apply_filters and filters:
            mask = np.fromiter(
                (_passes(d.metadata, filters) for d in self.docs), dtype=bool, count=len(self.docs)
            )
            scores = np.where(mask, scores, 0.0)
        order = np.argsort(-scores, kind="stable")[:k]
        out: list[Hit] = []
        for i in order:
            s = float(scores[i])
            if s <= 0.0:
                break
            d = self.docs[int(i)]
            out.append(Hit(d.id, s, d.text, {"title": d.title, **d.metadata}))
        return out


def _passes(meta: Mapping[str, Any], filters: Mapping[str, Any]) -> bool:
    for key, want in filters.items():
        if key in ("conditions", "intent") or key not in meta:
            continue
        have = meta[key]
        if isinstance(want, (list, tuple, set, frozenset)):
            if have not in want:
                return False
        elif have != want:
            return False
    return True


_WHOLE_KINDS = frozenset({"entity", "alias", "synonym", "synonym_canonical", "canonical"})


class _LexiconTokenizer:
    """Normalise (NFKC, t2s, lower-case) and segment like the rewriter: every dictionary term the
    automaton finds (entities, aliases, synonyms) is one token, whatever its casing or spaces
    (``iPhone 15 Pro`` and ``iphone15pro`` both give ``iphone15pro``); the text between terms is
    segmented with the lexicon's own jieba tokenizer. Blank and punctuation-only tokens are
    dropped."""

    def __init__(self, lexicon: Any) -> None:
        self.lexicon = lexicon
        self.norm = lexicon.normalizer
        self.seg = lexicon.segmenter

    def __call__(self, text: str) -> list[str]:
        nt = self.norm(text)
        t = nt.text
        out: list[str] = []
        pos = 0
        for m in self.lexicon.match(nt):
            if _WHOLE_KINDS.isdisjoint(m.kinds()):
                continue
            out.extend(self._cut(t[pos : m.start]))
            out.append(t[m.start : m.end].replace(" ", ""))
            pos = m.end
        out.extend(self._cut(t[pos:]))
        return out

    def _cut(self, text: str) -> list[str]:
        if not text.strip():
            return []
        return [w for w in self.seg.cut(text) if w.strip() and any(ch.isalnum() for ch in w)]
