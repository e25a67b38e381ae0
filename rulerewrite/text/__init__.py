"""Text utilities: normalisation, segmentation and parsing backends."""

from rulerewrite.text.normalize import Normalizer, NormText, clean_query

__all__ = ["NormText", "Normalizer", "clean_query"]
