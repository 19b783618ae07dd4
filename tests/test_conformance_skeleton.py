"""The engine skeleton of the docs, in JavaScript (Node.js), passes Mariglia's suite and
the protocol tests, and plays whole matches.

Node.js is on every machine of this project's kind (``docs/conformance.rst``
says how to install it elsewhere: ``apt-get install nodejs``); the test fails,
rather than skips, without it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from mariage.cli import main
from mariage.conformance.suite import load_suite

SKELETON = Path(__file__).resolve().parent.parent / "docs" / "examples" / "mariglia-engine.js"


def node() -> str:
    found = shutil.which("node") or shutil.which("nodejs")
    if found is None:
        pytest.fail("Node.js is needed for the engine skeleton (apt-get install nodejs)")
    return found


def test_skeleton_passes_every_mariglia_test(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "r.json"
    code = main(["conformance", "--engine", f"{node()} {SKELETON}", "--json", str(report)])
    out = capsys.readouterr().out
    assert code == 0, out
    data = json.loads(report.read_text())
    mariglia = [t for t in data["tests"] if t["ruleset"] == "mariglia"]
    assert len(mariglia) == len(load_suite(rulesets=["mariglia"])) >= 19
    assert all(t["status"] == "pass" for t in mariglia)
    assert {k for t in mariglia for k in [t["kind"]]} == {"scenario", "option", "golden", "perft"}
    protocol = [t for t in data["tests"] if t["kind"] == "protocol"]
    assert len(protocol) == len(load_suite(kinds=["protocol"])) >= 15
    assert all(t["status"] == "pass" for t in protocol), protocol
    others = [t for t in data["tests"] if t["ruleset"] not in ("mariglia", "*")]
    assert others and all(t["status"] == "skip" and t["skip_reason"] == "ruleset"
                          for t in others)
    # it names every rule it refuses with
    assert data["refusals"]["expected"] == data["refusals"]["named"] > 0


def test_skeleton_plays_a_whole_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    """It answers choose (the first of its legal cards): no game is forfeited."""
    out = tmp_path / "games.txt"
    engine = f"{node()} {SKELETON}"
    code = main(["match", "mariglia", "--engine", f"N={engine}", "--engine", f"E={engine}",
                 "--games", "4", "--time", "2", "--out", str(out), "-q"])
    table = capsys.readouterr().out
    assert code == 0
    assert "N:mariglia-skeleton.js" in table and "E:mariglia-skeleton.js" in table
    text = out.read_text()
    assert text.count("[Mariage ") == 4 and "forfeits" not in text
    assert main(["validate", str(out)]) == 0


def test_the_docs_include_the_skeleton() -> None:
    text = (SKELETON.parent.parent / "conformance.rst").read_text(encoding="utf-8")
    assert "literalinclude:: examples/mariglia-engine.js" in text
