"""HanLP as a parser backend (extra ``rulerewrite[hanlp]``): ``Rewriter(parser="hanlp", ...)``.

What: :class:`HanLPParser` implements :class:`~rulerewrite.text.parse.Parser` with a HanLP
dependency parser, loaded with ``hanlp.load(identifier_or_folder)`` on the first parse (never at
import, never at ``Rewriter()``). Words and POS tags come from the project's
:class:`~rulerewrite.text.segment.Segmenter` (``lexicon.segmenter``), so dictionary terms such as
``Galaxy S24 Ultra`` or ``安心福终身寿险`` stay one token; the model only adds heads and relations.
HanLP's labels (Stanford/CTB: ``nsubj dobj amod nn assmod conj cc punct``; Universal
Dependencies: ``obj nmod case:dec discourse:sp``; HIT/PMT: ``SBV VOB ATT ADV COO LAD RAD WP HED``)
are mapped onto the shared label set (``root subj obj att adv coo cc de q punct dep``) by
:data:`RELATIONS` and :func:`map_relation`; a malformed tree is repaired (:func:`repair_tree`) so
every parse has exactly one root.

Why: the built-in analysis is fast and deterministic but shallow; a trained parser gets long or
unusual sentences right. It costs milliseconds per sentence and needs torch, so it is optional.

Offline machines cannot download HanLP's pretrained models: :func:`train_tiny_parser` trains a
small ``BiaffineDependencyParser`` from a CoNLL-X/CoNLL-U file in seconds, into a folder that
``hanlp_model=`` accepts (see DEVELOPERS.md).

Example:
    >>> from rulerewrite import Rewriter
    >>> rw = Rewriter(parser="hanlp", hanlp_model="/models/tiny-dep")  # doctest: +SKIP
    >>> rw.rewrite("它支持防水吗", history=["Galaxy S24 Ultra怎么样"]).standalone  # doctest: +SKIP
    'Galaxy S24 Ultra支持防水吗'

Errors: RR521 the extra is not installed; RR522 the model cannot be loaded (which identifier or
folder, and why); RR523 the loaded component does not behave like a dependency parser; RR524 a
bad training file or training failure.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rulerewrite.errors import ParserError
from rulerewrite.memo import FifoMemo
from rulerewrite.text.builtin_parser import QUESTION_PARTICLES, QUESTION_WORDS
from rulerewrite.text.builtin_parser import _merge_latin as merge_latin
from rulerewrite.text.parse import Parse, Token
from rulerewrite.text.segment import Segmenter

DEFAULT_MODEL = "CTB9_DEP_ELECTRA_SMALL"
"""The pretrained identifier used when ``hanlp_model`` is not given (needs a download)."""

INSTALL_HINT = 'pip install torch==2.13.0 && pip install "rulerewrite[hanlp]"'

# Raw HanLP relation label (lower-cased) -> the shared label set. Labels not listed fall back to
# their part before ':' (``nsubj:pass`` -> ``nsubj``), then to ``dep``.
RELATIONS: dict[str, str] = {
    # the head of the sentence
    "root": "root",
    "hed": "root",
    # subject / topic
    "nsubj": "subj",
    "nsubjpass": "subj",
    "csubj": "subj",
    "csubjpass": "subj",
    "xsubj": "subj",
    "top": "subj",
    "expl": "subj",
    "sbv": "subj",
    "tpc": "subj",
    # object
    "dobj": "obj",
    "obj": "obj",
    "iobj": "obj",
    "attr": "obj",
    "range": "obj",
    "obl:patient": "obj",
    "vob": "obj",
    "iob": "obj",
    "fob": "obj",
    "dbl": "obj",
    # attributive modifiers of a noun
    "amod": "att",
    "nn": "att",
    "assmod": "att",
    "rcmod": "att",
    "det": "att",
    "nummod": "att",
    "ordmod": "att",
    "clf": "att",
    "compound": "att",
    "nmod": "att",
    "acl": "att",
    "appos": "att",
    "prnmod": "att",
    "flat": "att",
    "att": "att",
    "qun": "att",
    "app": "att",
    # adverbials
    "advmod": "adv",
    "neg": "adv",
    "mmod": "adv",
    "tmod": "adv",
    "nmod:tmod": "adv",
    "obl:tmod": "adv",
    "prep": "adv",
    "loc": "adv",
    "plmod": "adv",
    "dvpmod": "adv",
    "advcl": "adv",
    "obl": "adv",
    "aux": "adv",
    "ba": "adv",
    "pass": "adv",
    "adv": "adv",
    # coordination
    "conj": "coo",
    "coo": "coo",
    "cc": "cc",
    "lad": "cc",
    # 的 / 之 as a modifier marker
    "assm": "de",
    "cpm": "de",
    "dec": "de",
    "deg": "de",
    "case:dec": "de",
    "mark:rel": "de",
    "mark:relcl": "de",
    "de": "de",
    # sentence-final particles
    "discourse": "q",
    "discourse:sp": "q",
    "sp": "q",
    # punctuation
    "punct": "punct",
    "wp": "punct",
    "pun": "punct",
}

_FUNCTION_LABELS = frozenset(
    {
        "assm",
        "cpm",
        "dec",
        "deg",
        "case",
        "case:dec",
        "mark",
        "mark:rel",
        "mark:relcl",
        "rad",
        "dep",
    }
)
_PUNCT_TAGS = frozenset({"x", "w", "wp"})
_PARTICLE_TAGS = frozenset({"y", "e", "o", "zg", "x", "ul", "uj"})


def map_relation(
    label: str | None,
    text: str,
    pos: str = "",
    *,
    labels: Mapping[str, str] | None = None,
) -> str:
    """Map one HanLP relation label onto the shared label set.

    ``labels`` (raw label, lower-cased -> ours) overrides :data:`RELATIONS` for custom models.
    The word itself settles function words whatever the model called them: 的 -> ``de``, a
    question particle (吗/呢/吧 ...) -> ``q``, a question word (多少/什么/怎么 ...) used as an
    adverbial or object -> ``q`` (as the built-in parser does), punctuation -> ``punct``.

    >>> map_relation("nsubj", "手机"), map_relation("VOB", "电池"), map_relation("assm", "的")
    ('subj', 'obj', 'de')
    >>> map_relation("dep", "吗", "y"), map_relation("attr", "多少", "m"), map_relation("SBV:x", "它")
    ('q', 'q', 'subj')
    """
    raw = (label or "").strip().lower()
    rel = None
    if labels:
        rel = next((v for k, v in labels.items() if k.lower() == raw), None)
    if rel is None:
        rel = RELATIONS.get(raw)
    if rel is None and ":" in raw:
        rel = RELATIONS.get(raw.split(":", 1)[0])
    if rel is None:
        rel = "dep"
    if rel == "root":
        return rel
    if text == "的" or (text == "之" and (raw in _FUNCTION_LABELS or rel in ("dep", "de"))):
        return "de"
    if text in QUESTION_PARTICLES and (pos in _PARTICLE_TAGS or rel in ("dep", "q")):
        return "q"
    if text in QUESTION_WORDS and rel in ("adv", "dep", "obj"):
        return "q"
    if pos in _PUNCT_TAGS and text.strip() and not any(c.isalnum() for c in text):
        return "punct"
    return rel


def repair_tree(heads: Sequence[int], *, prefer: Sequence[int] = ()) -> list[int]:
    """Make 0-based ``heads`` (``-1`` = root) a tree with exactly one root.

    Out-of-range heads and self-loops go to the root; with several roots the first one in
    ``prefer`` (else the first) stays root and the others attach to it; cycles are broken by
    attaching their first token to the root. A valid tree is returned unchanged.

    >>> repair_tree([1, -1, 1])
    [1, -1, 1]
    >>> repair_tree([-1, -1, 2])  # two roots and a self-loop
    [-1, 0, 0]
    >>> repair_tree([1, 0])  # a cycle and no root
    [-1, 0]
    """
    n = len(heads)
    out = [h if isinstance(h, int) and 0 <= h < n and h != i else -1 for i, h in enumerate(heads)]
    roots = [i for i, h in enumerate(out) if h == -1]
    if n and not roots:
        roots = [0]
        out[0] = -1
    if roots:
        keep = next((p for p in prefer if p in roots), roots[0])
        for r in roots:
            if r != keep:
                out[r] = keep
    else:
        return out
    root = keep
    # break cycles: follow heads; a walk longer than n never reaches the root
    for i in range(n):
        seen = set()
        j = i
        while j != -1 and j not in seen:
            seen.add(j)
            j = out[j]
        if j != -1:  # j is on a cycle
            out[j] = root if j != root else -1
    return out


def hanlp_available() -> bool:
    """True when the ``hanlp`` extra (hanlp and torch) is installed; imports nothing."""
    return all(importlib.util.find_spec(m) is not None for m in ("hanlp", "torch"))


def require_hanlp() -> None:
    """Raise RR521 when the ``hanlp`` extra is missing."""
    missing = [m for m in ("torch", "hanlp") if importlib.util.find_spec(m) is None]
    if missing:
        raise ParserError(
            f"[RR521] parser='hanlp' needs `pip install rulerewrite[hanlp]` "
            f"(missing: {', '.join(missing)}); install torch first on CPU machines: {INSTALL_HINT}"
        )


class HanLPParser:
    """The ``hanlp`` :class:`~rulerewrite.text.parse.Parser` backend.

    ``model`` is a HanLP pretrained identifier (downloaded by HanLP on first use) or a local
    model folder (a ``config.json`` beside the weights, e.g. from :func:`train_tiny_parser`);
    ``None`` means :data:`DEFAULT_MODEL`. The model is loaded on the first ``parse`` (or by
    :meth:`load`); the extra is checked at construction (RR521). ``labels`` extends the label
    map for models with their own relation names. Parses are cached per text.
    ``torch_threads`` is applied with ``torch.set_num_threads`` when the model loads (process
    wide; ``None`` leaves torch alone): one thread is fastest for one short sentence and avoids
    thread thrashing on busy small machines (measured 11 ms vs 82 ms per parse on 2 busy cores).

    Models that take POS tags (trained with ``feat='pos'``) are given the segmenter's jieba
    tags, so they must have been trained on jieba tags (as :func:`train_tiny_parser` data is).
    """

    name = "hanlp"

    def __init__(
        self,
        model: str | os.PathLike[str] | None = None,
        *,
        segmenter: Segmenter,
        labels: Mapping[str, str] | None = None,
        cache_size: int = 4096,
        batch_size: int = 32,
        torch_threads: int | None = 1,
    ) -> None:
        require_hanlp()
        if not isinstance(segmenter, Segmenter):
            raise TypeError(f"segmenter must be a Segmenter, got {type(segmenter).__name__}")
        self.model = os.fspath(model) if model is not None else DEFAULT_MODEL
        self.segmenter = segmenter
        self.labels = dict(labels) if labels else None
        self.batch_size = batch_size
        self.torch_threads = torch_threads
        # a hit moves its text last (least recently used first out)
        self._cache: FifoMemo[str, Parse] = FifoMemo(cache_size)
        self._component: Any = None
        self._use_pos = False
        self.calls = 0  # sentences sent to the model (cache misses), for tests and diagnostics

    def __repr__(self) -> str:
        state = "loaded" if self._component is not None else "not loaded"
        return f"HanLPParser(model={self.model!r}, {state})"

    # -- loading -------------------------------------------------------------------------------

    @property
    def loaded(self) -> bool:
        return self._component is not None

    def load(self) -> Any:
        """Load the HanLP component now (once); returns it. RR522 if it cannot be loaded."""
        if self._component is not None:
            return self._component
        where = self.model
        local = Path(where).expanduser()
        looks_local = (
            os.path.isabs(where)
            or where.startswith((".", "~"))
            or os.sep in where
            or local.exists()
        )
        if looks_local and "://" not in where:
            if not local.is_dir():
                raise ParserError(
                    f"[RR522] hanlp_model={where!r}: folder not found (give a HanLP model folder, "
                    "e.g. one written by rulerewrite.text.hanlp_backend.train_tiny_parser, or a "
                    "pretrained identifier such as "
                    f"{DEFAULT_MODEL!r} on a machine that can download it)"
                )
            if not (local / "config.json").is_file() and not (local / "meta.json").is_file():
                raise ParserError(
                    f"[RR522] hanlp_model={where!r}: not a HanLP model folder (no config.json)"
                )
            where = str(local)
        try:
            import hanlp

            if self.torch_threads is not None:
                import torch

                torch.set_num_threads(self.torch_threads)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                component = hanlp.load(where, verbose=False)
        except (Exception, SystemExit) as e:  # HanLP raises many kinds; all mean "cannot load"
            reason = " ".join(str(e).split())[:300] or type(e).__name__
            raise ParserError(
                f"[RR522] cannot load HanLP model {self.model!r}: {type(e).__name__}: {reason}. "
                "Offline? Pretrained identifiers need a download; use a local model folder "
                "(see train_tiny_parser and DEVELOPERS.md)."
            ) from None
        if not callable(getattr(component, "predict", None)):
            raise ParserError(
                f"[RR523] HanLP model {self.model!r} is a {type(component).__name__}, "
                "not a dependency parser (no predict method)"
            )
        config = getattr(component, "config", None) or {}
        self._use_pos = bool(config.get("feat") == "pos" or config.get("use_pos"))
        if self._use_pos:
            _feed_pos_tags(component)
        self._component = component
        return component

    # -- the Parser interface ------------------------------------------------------------------

    def parse(self, text: str) -> Parse:
        return self.parse_many([text])[0]

    def parse_many(self, texts: Sequence[str]) -> list[Parse]:
        """Parse several texts; uncached ones go to the model in batches of ``batch_size``."""
        todo = list(dict.fromkeys(t for t in texts if t not in self._cache))
        for k in range(0, len(todo), self.batch_size):
            chunk = todo[k : k + self.batch_size]
            for text, parse in zip(chunk, self._analyse(chunk), strict=True):
                self._cache.put(text, parse)
        out: list[Parse] = []
        for t in texts:
            p = self._cache.get(t)
            if p is None:  # evicted within this call (more texts than cache_size)
                p = self._analyse([t])[0]
            else:
                self._cache.move_to_end(t)
            out.append(p)
        return out

    # -- the analysis --------------------------------------------------------------------------

    def _words(self, text: str) -> list[tuple[str, str, int]]:
        """(word, jieba tag, start offset) from the project's segmenter."""
        out: list[tuple[str, str, int]] = []
        pos = 0
        for w, t in merge_latin(self.segmenter.pos(text)):
            at = text.find(w, pos)
            if at < 0:
                at = pos
            out.append((w, t, at))
            pos = at + len(w)
        return out

    def parse_words(self, words: Sequence[tuple[str, str]]) -> Parse:
        """Parse a pre-tokenised sentence of (word, jieba tag) pairs (not cached); the text is
        the words joined."""
        text = "".join(w for w, _t in words)
        spans: list[tuple[str, str, int]] = []
        at = 0
        for w, t in words:
            spans.append((w, t, at))
            at += len(w)
        return self._analyse([text], [spans])[0]

    def _analyse(
        self, texts: Sequence[str], words: list[list[tuple[str, str, int]]] | None = None
    ) -> list[Parse]:
        if words is None:
            words = [self._words(t) for t in texts]
        # whitespace tokens are not sent to the model; they come back as punct of the root
        keep = [[i for i, (w, _t, _s) in enumerate(ws) if w.strip()] for ws in words]
        if any(keep):
            self.load()  # before building the batch: the model decides whether tags go in
        batch: list[list[Any]] = []
        which: list[int] = []
        for n, (ws, kept) in enumerate(zip(words, keep, strict=True)):
            if kept:
                batch.append([(ws[i][0], ws[i][1]) if self._use_pos else ws[i][0] for i in kept])
                which.append(n)
        results: list[list[tuple[int, str]]] = [[] for _ in texts]
        if batch:
            component = self._component
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    outputs = component.predict(batch)
                except Exception as e:
                    raise ParserError(
                        f"[RR523] HanLP model {self.model!r} failed on {len(batch)} sentence(s) "
                        f"(first: {''.join(str(x[0] if isinstance(x, tuple) else x) for x in batch[0])!r}): "
                        f"{type(e).__name__}: {e}"
                    ) from None
            self.calls += len(batch)
            if len(outputs) != len(batch):
                raise ParserError(
                    f"[RR523] HanLP model {self.model!r} returned {len(outputs)} parses "
                    f"for {len(batch)} sentences"
                )
            for n, sent, out in zip(which, batch, outputs, strict=True):
                arcs = [_arc(x) for x in out]
                if len(arcs) != len(sent):
                    raise ParserError(
                        f"[RR523] HanLP model {self.model!r} returned {len(arcs)} words for "
                        f"{len(sent)} tokens of {texts[n]!r}"
                    )
                results[n] = arcs
        return [
            self._build(t, ws, kept, arcs)
            for t, ws, kept, arcs in zip(texts, words, keep, results, strict=True)
        ]

    def _build(
        self,
        text: str,
        words: list[tuple[str, str, int]],
        kept: list[int],
        arcs: list[tuple[int, str]],
    ) -> Parse:
        if not words:
            return Parse(text, ())
        n = len(words)
        heads = [-1] * n
        raw = ["punct"] * n
        for k, i in enumerate(kept):
            h, label = arcs[k]
            heads[i] = kept[h - 1] if 1 <= h <= len(kept) else -1
            raw[i] = label
        heads = _repair(heads, raw, kept)
        spaces = set(range(n)) - set(kept)
        tokens: list[Token] = []
        for i, (w, t, s) in enumerate(words):
            if heads[i] == -1:
                rel = "root"
            elif i in spaces:
                rel = "punct"
            else:
                rel = map_relation(raw[i], w, t, labels=self.labels)
                if rel == "root":
                    rel = "dep"
            tokens.append(Token(i, w, t, heads[i], rel, s, s + len(w)))
        return Parse(text, tuple(tokens))


def _repair(heads: list[int], raw: list[str], kept: list[int]) -> list[int]:
    """Repair the tree over the model's tokens (``kept``), then hang the others (whitespace) on
    its root. A token the model labelled root is preferred as the root."""
    if not kept:  # whitespace only: the first token is the root
        return [-1] + [0] * (len(heads) - 1) if heads else []
    at = {i: k for k, i in enumerate(kept)}
    sub = [at.get(heads[i], -1) for i in kept]
    roots = [k for k, h in enumerate(sub) if h == -1]
    labelled = [k for k in roots if raw[kept[k]].lower() in ("root", "hed")]
    fixed = repair_tree(sub, prefer=labelled or roots)
    root = kept[fixed.index(-1)]
    out = [root] * len(heads)
    for k, i in enumerate(kept):
        out[i] = kept[fixed[k]] if fixed[k] != -1 else -1
    return out


def _arc(x: Any) -> tuple[int, str]:
    """(1-based head, label) from a HanLP output word: CoNLLWord, dict or (head, label)."""
    if isinstance(x, (tuple, list)) and len(x) >= 2:
        h, label = x[0], x[1]
    elif isinstance(x, Mapping):
        h, label = x.get("head"), x.get("deprel")
    else:
        h, label = getattr(x, "head", None), getattr(x, "deprel", None)
    try:
        head = int(h) if h is not None else 0
    except (TypeError, ValueError):
        head = 0
    return head, str(label or "dep")


def _feed_pos_tags(component: Any) -> None:
    """HanLP 2.1's BiaffineDependencyParser trained with ``feat='pos'`` reads tags at prediction
    time into a field (UPOS) that its data transform never copies to the model input; add the
    missing copy (harmless where the field is already filled)."""
    config = getattr(component, "config", None)
    if config is None or config.get("transform") is not None:
        return
    from hanlp_common.constant import ROOT

    def copy_tags(sample: dict[str, Any]) -> dict[str, Any]:
        if "pos" not in sample:
            for key in ("CPOS", "UPOS"):
                if key in sample:
                    sample["pos"] = [ROOT, *sample[key]]
                    break
        return sample

    config.transform = copy_tags


def train_tiny_parser(
    conll_path: str | os.PathLike[str],
    save_dir: str | os.PathLike[str],
    *,
    dev_path: str | os.PathLike[str] | None = None,
    feat: str | None = "pos",
    epochs: int = 30,
    seed: int = 1,
    torch_threads: int | None = 1,
    **fit_options: Any,
) -> Path:
    """Train a small HanLP ``BiaffineDependencyParser`` offline; returns ``save_dir``.

    ``conll_path`` is a CoNLL-X (``.conllx``/``.conll``: FORM, CPOS, HEAD, DEPREL columns) or
    CoNLL-U (``.conllu``: FORM, UPOS, HEAD, DEPREL) file, tokenised the way the project's
    segmenter tokenises, with jieba POS tags when ``feat='pos'`` (``feat=None`` trains on words
    only). No transformer and no pretrained embeddings: nothing is downloaded. ``fit_options``
    override the small defaults (``n_embed``, ``n_lstm_hidden``, ``n_lstm_layers``, ``lr`` ...).
    ``torch_threads`` (default 1) is set for the training and restored afterwards.
    Load the result with ``Rewriter(parser="hanlp", hanlp_model=save_dir)``.

    RR521 if the extra is missing, RR524 for a bad training file.
    """
    require_hanlp()
    src = Path(conll_path)
    rows = check_conll(src)
    dev = Path(dev_path) if dev_path is not None else src
    if dev_path is not None:
        check_conll(dev)
    if feat not in (None, "pos"):
        raise ParserError(f"[RR524] feat must be None or 'pos', got {feat!r}")
    out = Path(save_dir)
    out.mkdir(parents=True, exist_ok=True)
    options: dict[str, Any] = {
        "n_embed": 50,
        "n_lstm_hidden": 100,
        "n_lstm_layers": 1,
        "n_mlp_arc": 100,
        "n_mlp_rel": 50,
        "lr": 5e-3,
        "batch_size": 32,
        "word_dropout": 0.1,
        "embed_dropout": 0.2,
        "hidden_dropout": 0.2,
        "mlp_dropout": 0.2,
        "patience": epochs,
    }
    options.update(fit_options)
    if src.suffix == ".conllu" and feat == "pos":
        # HanLP reads tags from CPOS when training; a CoNLL-U file keeps them in UPOS
        tmp = out / "_train.conllx"
        tmp.write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
        src = tmp
        if dev_path is None:
            dev = tmp
        elif dev.suffix == ".conllu":
            tmp_dev = out / "_dev.conllx"
            tmp_dev.write_text(dev.read_text(encoding="utf-8"), encoding="utf-8")
            dev = tmp_dev
    import torch
    from hanlp.components.parsers.biaffine.biaffine_dep import BiaffineDependencyParser

    threads_before = torch.get_num_threads()
    if torch_threads is not None:
        torch.set_num_threads(torch_threads)
    logger = logging.getLogger("rulerewrite.hanlp.train")
    parser = BiaffineDependencyParser()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            parser.fit(
                str(src),
                str(dev),
                str(out),
                feat=feat,
                transformer=None,
                pretrained_embed=None,
                separate_optimizer=True,
                min_freq=1,
                epochs=epochs,
                tree=False,  # Eisner decoding at every evaluation slows training ~25 %
                punct=True,
                seed=seed,
                eval_trn=False,
                logger=logger,
                verbose=False,
                **options,
            )
    except Exception as e:
        raise ParserError(
            f"[RR524] training a HanLP parser on {conll_path} ({rows} sentences) failed: "
            f"{type(e).__name__}: {e}"
        ) from None
    finally:
        torch.set_num_threads(threads_before)
    # decode well-formed projective trees at prediction time
    config_path = out / "config.json"
    config = json.loads(config_path.read_text(encoding="utf-8"))
    config.update(tree=True, proj=True)
    config_path.write_text(json.dumps(config, indent=2, sort_keys=True), encoding="utf-8")
    return out


def check_conll(path: Path) -> int:
    """Validate a CoNLL-X/CoNLL-U training file; returns the number of sentences (RR524)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ParserError(f"[RR524] {path}: cannot read ({e.strerror})") from None
    sentences = 0
    size = 0
    heads: list[tuple[int, str]] = []

    def close() -> None:
        for h, where in heads:
            if h > size:
                raise ParserError(f"[RR524] {where}: head {h} is past the sentence end ({size})")
        if sum(1 for h, _w in heads if h == 0) != 1:
            raise ParserError(f"[RR524] {heads[0][1]}: a sentence needs exactly one root (head 0)")
        heads.clear()

    for lineno, line in enumerate(text.splitlines(), 1):
        if line.startswith("#"):
            continue
        if not line.strip():
            if size:
                close()
                sentences += 1
            size = 0
            continue
        cells = line.split("\t")
        where = f"{path}:{lineno}"
        if len(cells) != 10:
            raise ParserError(
                f"[RR524] {where}: expected 10 tab-separated columns, got {len(cells)}"
            )
        if "-" in cells[0] or "." in cells[0]:
            continue  # CoNLL-U multiword / empty nodes
        size += 1
        if cells[0] != str(size):
            raise ParserError(f"[RR524] {where}: token id {cells[0]!r}, expected {size}")
        if not cells[6].isdigit():
            raise ParserError(f"[RR524] {where}: head {cells[6]!r} is not a number")
        heads.append((int(cells[6]), where))
        if not cells[7] or cells[7] == "_":
            raise ParserError(f"[RR524] {where}: missing relation label")
    if size:
        close()
        sentences += 1
    if not sentences:
        raise ParserError(f"[RR524] {path}: no sentences")
    return sentences
