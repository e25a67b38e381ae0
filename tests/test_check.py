"""Pack and rule-file validation: one fixture per data-error code (tests/data_errors/<CODE>.yaml).

Each fixture states what it must produce in ``# expect: LINE:COL CODE`` comments; the test asserts
exactly that list (nothing missing, nothing extra), the same list from ``rulerewrite check`` (exit
status 1) and from loading the file (a LexiconError carrying the same messages, nothing cached).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulerewrite import LexiconError, Rewriter
from rulerewrite.cli import app
from rulerewrite.lexicon import Lexicon, check_paths

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "data_errors"
CODES = [f"RR{n}" for n in range(100, 113)]
# Fixtures that need another (valid) file loaded with them.
CONTEXT = {"RR103": ["tests/data_errors/_base.yaml"]}
RULE_FIXTURES = {"RR108", "RR109", "RR111", "RR112"}
_EXPECT = re.compile(r"^# expect: (\d+):(\d+) (RR\d{3})\s*$", re.M)


def expected(code: str) -> list[tuple[int, int, str]]:
    text = (FIXTURES / f"{code}.yaml").read_text(encoding="utf-8")
    return sorted((int(a), int(b), c) for a, b, c in _EXPECT.findall(text))


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # diagnostics show paths relative to the working directory


def test_every_code_has_a_fixture() -> None:
    for code in CODES:
        assert (FIXTURES / f"{code}.yaml").is_file(), code
        assert expected(code), f"{code}.yaml states no '# expect:' line"
        assert {c for _, _, c in expected(code)} == {code}


@pytest.mark.parametrize("code", CODES)
def test_fixture_gives_exactly_its_diagnostics(code: str) -> None:
    rel = f"tests/data_errors/{code}.yaml"
    diags = check_paths([*CONTEXT.get(code, []), rel])
    assert [(d.line, d.col, d.code) for d in diags] == expected(code)
    for d in diags:
        assert d.file == rel
        assert str(d).startswith(f"{rel}:{d.line}:{d.col} {code} ")
        assert d.message.strip()


@pytest.mark.parametrize("code", CODES)
def test_cli_check_lists_every_problem_and_exits_1(code: str) -> None:
    rel = f"tests/data_errors/{code}.yaml"
    res = CliRunner().invoke(app, ["check", *CONTEXT.get(code, []), rel])
    assert res.exit_code == 1, res.output
    for line, col, c in expected(code):
        assert f"{rel}:{line}:{col} {c} " in res.output
    assert f"{len(expected(code))} problem(s)" in res.output


@pytest.mark.parametrize("code", CODES)
def test_loading_an_invalid_file_raises_the_same_messages(code: str, tmp_path: Path) -> None:
    rel = f"tests/data_errors/{code}.yaml"
    cache = tmp_path / "cache"
    want = check_paths([*CONTEXT.get(code, []), rel])
    if code in RULE_FIXTURES:
        kwargs = {"dictionaries": [], "rules": [rel]}
    else:
        kwargs = {"dictionaries": [*CONTEXT.get(code, []), rel], "rules": []}
    with pytest.raises(LexiconError) as ei:
        Lexicon.load(domains=[], cache_dir=cache, **kwargs)  # type: ignore[arg-type]
    assert ei.value.diagnostics == want
    for d in want:
        assert str(d) in str(ei.value)
    # nothing half-loaded: no compiled form was cached for the bad file set
    assert not cache.exists() or not any(cache.iterdir())


def test_invalid_user_pack_fails_the_rewriter_and_nothing_is_cached(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    with pytest.raises(LexiconError) as ei:
        Rewriter(dictionaries=["tests/data_errors/RR102.yaml"], cache_dir=cache)
    assert [d.code for d in ei.value.diagnostics] == ["RR102"] * 3
    assert not cache.exists() or not any(cache.iterdir())
    # the same Rewriter without the bad file builds fine and knows nothing of it
    rw = Rewriter(cache_dir=cache)
    assert "rr102" not in rw.domains


def test_check_a_whole_folder_lists_every_file(tmp_path: Path) -> None:
    diags = check_paths(["tests/data_errors"])
    assert {d.code for d in diags} == set(CODES)
    assert len(diags) >= sum(len(expected(c)) for c in CODES)
    assert diags == sorted(diags)


def test_cli_check_missing_file() -> None:
    res = CliRunner().invoke(app, ["check", "tests/data_errors/no_such_file.yaml"])
    assert res.exit_code == 1
    assert "tests/data_errors/no_such_file.yaml:1:1 RR100" in res.output


def test_bundled_packs_and_rules_are_valid() -> None:
    assert [str(d) for d in check_paths(["dictionaries", "rules"])] == []
    res = CliRunner().invoke(app, ["check", "dictionaries", "rules"])
    assert res.exit_code == 0, res.output
    assert "no problems" in res.output


def test_declared_rule_keys_are_typed_and_located(tmp_path: Path) -> None:
    """A rule whose keys the schema declares (schema.RULE_KEYS: the ellipsis word lists) reports
    a word list that is no list, a mapping that is no mapping, a bad regular expression, an
    unknown key and a missing one, each with its code and position."""
    from rulerewrite.lexicon.schema import RULE_KEYS

    keys = RULE_KEYS[("completeness", "ellipsis_words")]
    good = {"words": "[甲, 乙]", "names": "{thing: 东西}", "regex": "'^是'"}
    lines = ["mode: completeness", "rules:", "  - id: ellipsis_words"]
    bad = {"how_degree": "很", "type_names": "[人]", "identity_question": "'(是'"}
    skip = "own"
    for k, kind in keys.items():
        if k != skip:
            lines.append(f"    {k}: {bad.get(k, good[kind])}")
    lines.append("    colour: [红]")
    f = tmp_path / "bad_words.yaml"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    got = [(d.line, d.col, d.code, d.message) for d in check_paths([str(f)])]
    at = {k: n for n, line in enumerate(lines, 1) for k in keys if line.startswith(f"    {k}:")}
    col = len("    how_degree: ") + 1
    assert (at["how_degree"], col, "RR101") in [g[:3] for g in got]
    assert any(g[0] == at["type_names"] and g[2] == "RR101" for g in got)
    assert any(g[0] == at["identity_question"] and g[2] == "RR108" for g in got)
    assert any(g[2] == "RR101" and "'colour'" in g[3] and g[0] == len(lines) for g in got)
    assert any(g[2] == "RR101" and f"missing required key {skip!r}" in g[3] for g in got)
    assert len(got) == 5, got


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        # a nested regex of a mode-read rule (typed_comment types.food.said)
        ("        said: '(?:吃|喝", "        said: '*(?:吃|喝", "types.food.said"),
        # a regex key no schema entry declares, read with rule_pattern (verb_object open_lead)
        ("    open_lead: '", "    open_lead: '*", "open_lead"),
    ],
)
def test_bad_regex_a_mode_reads_is_a_located_error(
    old: str, new: str, key: str, tmp_path: Path
) -> None:
    """A regular expression a mode compiles when it is built (not declared to the schema) that
    does not compile fails the Rewriter with RR108 at the rule's file and line, naming the key,
    not with a bare re.error from inside the mode."""
    rules = tmp_path / "rules"
    rules.mkdir()
    for f in Path("rules").glob("*.yaml"):
        (rules / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    target = rules / "completeness.yaml"
    text = target.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    target.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(LexiconError) as ei:
        Rewriter(rules=[rules], use_cache=False)
    (d,) = ei.value.diagnostics
    assert d.code == "RR108" and Path(d.file).name == "completeness.yaml"
    assert f"under {key!r}" in d.message
    line = text.splitlines()[d.line - 1]
    assert line.strip().startswith("- id:"), line
