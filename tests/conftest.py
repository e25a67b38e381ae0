"""Shared fixtures. Rewriters are expensive to build, so tests share session-scoped ones."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session", autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Tests never read or write the user's real dictionary cache."""
    os.environ["RULEREWRITE_CACHE_DIR"] = str(tmp_path_factory.mktemp("rr-cache"))


@pytest.fixture(scope="session")
def rewriter():  # type: ignore[no-untyped-def]
    from rulerewrite import Rewriter

    return Rewriter()


def shared_data(*parts: str) -> Path:
    """A file under ../shared/data (development corpora); tests skip when it is absent."""
    p = SHARED_DATA.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"development data not present: {p}")
    return p
