"""Text utilities: normalisation, segmentation and parsing backends."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulerewrite.text.normalize import Normalizer, NormText, clean_query

if TYPE_CHECKING:
    from rulerewrite.lexicon import Lexicon
    from rulerewrite.text.parse import Parser

PARSERS = ("builtin", "hanlp")


def make_parser(config: Any, lexicon: Lexicon) -> Parser:
    """The syntax backend ``config.parser`` names, over ``lexicon.segmenter``.

    What: ``builtin`` → :class:`~rulerewrite.text.builtin_parser.BuiltinParser`; ``hanlp`` →
    :class:`~rulerewrite.text.hanlp_backend.HanLPParser` with ``config.hanlp_model`` (loaded
    lazily on the first parse). Why: every mode gets the same instance per lexicon and backend,
    so a turn is parsed once and a HanLP model is loaded once. Example:
    ``make_parser(RewriterConfig(parser="builtin"), lexicon).parse("它支持防水吗")``.

    Raises :class:`~rulerewrite.errors.ParserError`: RR520 for an unknown backend, RR521 when
    ``parser="hanlp"`` and the extra is not installed.
    """
    from rulerewrite.errors import ParserError

    name = getattr(config, "parser", "builtin")
    model = getattr(config, "hanlp_model", None) if name == "hanlp" else None
    key = (name, None if model is None else str(model))
    shared: dict[tuple[str, str | None], Parser] = lexicon.__dict__.setdefault("_parsers", {})
    parser = shared.get(key)
    if parser is not None:
        return parser
    if name == "builtin":
        from rulerewrite.text.builtin_parser import BuiltinParser

        parser = BuiltinParser.for_lexicon(lexicon)
    elif name == "hanlp":
        from rulerewrite.text.hanlp_backend import HanLPParser

        parser = HanLPParser(model, segmenter=lexicon.segmenter)
    else:
        raise ParserError(f"[RR520] unknown parser {name!r}; choose one of {', '.join(PARSERS)}")
    shared[key] = parser
    return parser


__all__ = ["PARSERS", "NormText", "Normalizer", "clean_query", "make_parser"]
