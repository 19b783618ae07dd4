"""The documented install commands work as written, and the docs build from the docs extra
alone: ``sphinx-build -W`` with the API reference of every public module (the AI modules
too, without numpy and Gymnasium), counts computed at build time, never typed."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = {p.name: p.read_text(encoding="utf-8") for p in [*DOCS.glob("*.rst"), ROOT / "README.md"]}
EXTRAS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
    "project"]["optional-dependencies"]

# Run as a script: sphinx-build where the AI extra's frameworks cannot be imported.
WITHOUT_AI = '''
import sys
from importlib.abc import MetaPathFinder

class NotInstalled(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("numpy", "gymnasium", "pettingzoo", "pyspiel", "open_spiel"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NotInstalled())
from sphinx.cmd.build import main
sys.exit(main(sys.argv[1:]))
'''


def test_every_documented_install_names_a_real_extra_of_a_copy_of_the_source() -> None:
    found = []
    for name, text in PAGES.items():
        for target in re.findall(r"pip install\s+'([^']+)'", text):
            found.append(target)
            assert target.startswith(".["), f"{name}: pip install '{target}' (not from a clone)"
            extras = target[2:-1].split(",")
            assert all(e in EXTRAS for e in extras), f"{name}: no extra {target}"
    assert {"'.[ai]'", "'.[test]'", "'.[docs]'"} <= {f"'{t}'" for t in found}


def test_counts_are_substitutions_computed_at_build_time() -> None:
    from mariage.conformance.suite import load_suite

    for name, text in PAGES.items():
        typed = re.findall(r"(?<!-n )\b\d[\d,]* (?:[A-Z][a-z-]+ )?tests\b", text)
        assert not typed, f"{name}: typed counts {typed}"
    sys.path.insert(0, str(DOCS))
    try:
        import conf
    finally:
        sys.path.remove(str(DOCS))
    prolog = dict(re.findall(r"\|([\w-]+)\| replace:: (\d+)", conf.rst_prolog))
    assert int(prolog["suite-tests"]) == len(load_suite())
    assert int(prolog["mariglia-tests"]) == len(load_suite(rulesets=["mariglia"]))
    used = set(re.findall(r"\|([\w-]+-tests)\|", PAGES["conformance.rst"]))
    assert used and used <= set(prolog)


@pytest.mark.slow
def test_the_docs_build_with_warnings_as_errors_without_the_ai_extra(tmp_path: Path) -> None:
    import pkgutil

    import mariage

    script = tmp_path / "build.py"
    script.write_text(WITHOUT_AI)
    out = tmp_path / "html"
    done = subprocess.run([sys.executable, str(script), "-W", "-q", "-b", "html",
                           "-d", str(tmp_path / "doctrees"), str(DOCS), str(out)],
                          capture_output=True, text=True, timeout=1200, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    api = (out / "api.html").read_text(encoding="utf-8")
    for obj in ("mariage.ai.encoding.ActionSpace", "mariage.ai.pettingzoo_env.MariageEnv",
                "mariage.ai.openspiel_game.register"):
        assert f'id="{obj}"' in api
    every = (out / "api-modules.html").read_text(encoding="utf-8")
    public = [m.name for m in pkgutil.walk_packages(mariage.__path__, "mariage.")
              if not any(p.startswith("_") for p in m.name.split("."))]
    missing = [m for m in public if m not in every]
    assert not missing
    conformance = (out / "conformance.html").read_text(encoding="utf-8")
    from mariage.conformance.suite import load_suite

    assert f"all {len(load_suite(rulesets=['mariglia']))} Mariglia tests" in conformance
