"""The built wheel works on its own: build it, install it into a fresh venv, run the CLI from
another folder, and check it uses the packs and rules bundled inside the wheel.

How (and why):
- the wheel is built with ``python -m build --wheel --no-isolation``: the build backend
  (hatchling, in the ``test`` extra) is taken from this environment, so building needs no network;
- the fresh venv is made ``--without-pip`` (fast) and this environment's pip installs into it
  (``pip --python``) from a local wheelhouse kept in the pytest cache: the first run fills it with
  ``pip wheel`` from the configured index, later runs install fully offline (``--no-index``).
  Installing straight from PyPI every run would be slow and fail without a network;
  ``--system-site-packages`` would not see this project's ``.venv`` and would hide missing deps.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulerewrite import available_domains

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


def _run(
    cmd: list[str], *, cwd: Path, env: dict[str, str] | None = None, timeout: int = 600
) -> str:
    p = subprocess.run(
        cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert p.returncode == 0, f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stdout}\n{p.stderr}"
    return p.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    """A fresh venv with the freshly built wheel installed; returns its bin/ folder."""
    tmp = tmp_path_factory.mktemp("wheel")
    dist = tmp / "dist"
    _run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "-o", str(dist), str(ROOT)],
        cwd=ROOT,
    )
    (wheel,) = dist.glob("rulerewrite-*.whl")
    house = Path(request.config.cache.mkdir("rulerewrite-wheelhouse"))
    pip = [sys.executable, "-m", "pip"]
    offline = [*pip, "wheel", "-q", "--no-index", "--find-links", str(house), "-w", str(house)]
    if subprocess.run([*offline, str(wheel)], capture_output=True, check=False).returncode != 0:
        _run(
            [*pip, "wheel", "-q", "--find-links", str(house), "-w", str(house), str(wheel)], cwd=tmp
        )
    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=tmp)
    py = venv / "bin" / "python"
    _run(
        [*pip, "--python", str(py), "install", "-q", "--no-index", "--find-links", str(house),
         str(wheel)],
        cwd=tmp,
    )  # fmt: skip
    return venv / "bin"


@pytest.fixture
def elsewhere(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A folder outside the checkout and an environment that cannot see the source tree."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["RULEREWRITE_CACHE_DIR"] = str(tmp_path / "cache")
    env["PYTHONWARNINGS"] = "ignore"
    return tmp_path, env


def test_installed_package_uses_its_bundled_data(
    installed: Path, elsewhere: tuple[Path, dict[str, str]]
) -> None:
    cwd, env = elsewhere
    out = _run(
        [
            str(installed / "python"),
            "-c",
            "import json, rulerewrite, rulerewrite.lexicon as lx; from importlib import resources;"
            "print(json.dumps({'pkg': rulerewrite.__file__, 'dicts': str(lx.data_dir('dictionaries')),"
            "'rules': str(lx.data_dir('rules')), 'domains': rulerewrite.available_domains(),"
            "'schema': resources.files('rulerewrite').joinpath('schema/result.json').is_file()}))",
        ],
        cwd=cwd,
        env=env,
    )
    info = json.loads(out)
    site = str(installed.parent / "lib")
    assert info["pkg"].startswith(site), info
    assert info["dicts"].startswith(site) and info["dicts"].endswith("_data/dictionaries")
    assert info["rules"].startswith(site) and info["rules"].endswith("_data/rules")
    assert info["domains"] == available_domains()
    assert info["schema"] is True


def test_cli_rewrite_json_from_another_folder(
    installed: Path, elsewhere: tuple[Path, dict[str, str]]
) -> None:
    cwd, env = elsewhere
    out = _run(
        [str(installed / "rulerewrite"), "rewrite", "k8s 怎么看 pod 日志", "--json"],
        cwd=cwd,
        env=env,
    )
    d = json.loads(out)
    assert d["standalone"] == "k8s 怎么看 pod 日志"
    assert "Kubernetes 怎么看 pod 日志" in [q["text"] for q in d["queries"]]
    rules = [s["rule"] for s in d["trace"] if s["mode"] == "expand"]
    assert rules and all(r.startswith("dictionaries/tech.yaml:") for r in rules), rules
    # a domain pack and the general pack both come from the wheel
    out = _run(
        [
            str(installed / "rulerewrite"),
            "rewrite",
            "保单怎么退",
            "--domain",
            "insurance",
            "--json",
        ],
        cwd=cwd,
        env=env,
    )
    assert "退保流程" in [q["text"] for q in json.loads(out)["queries"]]


def test_cli_check_and_domains_from_another_folder(
    installed: Path, elsewhere: tuple[Path, dict[str, str]]
) -> None:
    cwd, env = elsewhere
    data = Path(
        _run(
            [str(installed / "python"), "-c",
             "import rulerewrite.lexicon as lx; print(lx.data_dir('dictionaries').parent)"],
            cwd=cwd,
            env=env,
        ).strip()
    )  # fmt: skip
    out = _run(
        [str(installed / "rulerewrite"), "check", str(data / "dictionaries"), str(data / "rules")],
        cwd=cwd,
        env=env,
    )
    assert "no problems" in out
    bad = cwd / "bad.yaml"
    bad.write_text("pack: bad\nentities: [平安福, 平安福]\n", encoding="utf-8")
    p = subprocess.run(
        [str(installed / "rulerewrite"), "check", "bad.yaml"],
        cwd=cwd, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert p.returncode == 1
    assert "bad.yaml:2:17 RR102" in p.stdout
    out = _run([str(installed / "rulerewrite"), "domains"], cwd=cwd, env=env)
    assert out.split() == available_domains()
