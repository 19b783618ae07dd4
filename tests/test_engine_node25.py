"""A Schnapsen engine in plain Node.js, written from the user docs alone, against the suite.

``conformance/examples/schnapsen_engine.js`` plays ``schnapsen`` with every option of
``spec/schnapsen.yaml`` through the engine protocol. It must pass the stored Schnapsen
and protocol tests and the suite derived for a set of house rules, with every rule in
force and reachable checked; each of its planted faults (``--fault MODE``) must fail,
charged to the rule it breaks. Two of the faults are mistakes the engine made while it
was written (an exchange after a marriage, a claim between a marriage and its lead
under ``claim_on_declaration=false``) that the suite did not see before the scenarios
``schnapsen/exchange/not-after-a-marriage`` and ``schnapsen/claim/not-after-a-marriage``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import nodekit
import pytest
from mariage.cli import main
from mariage.conformance.suite import load_suite
from nodekit import node

ENGINE = nodekit.EXAMPLES / "schnapsen_engine.js"
HOUSE = ("-o", "close_allowed=false", "-o", "claim_mode=auto", "-o", "marriage_lead=king")


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str,
        fault: str | None = None) -> tuple[int, str, dict[str, Any]]:
    """``mariage conformance`` against the JS engine: exit code, output, JSON report."""
    return nodekit.run(ENGINE, tmp_path, capsys, *args, fault=fault)


def test_the_example_needs_nothing_but_node() -> None:
    source = ENGINE.read_text()
    assert not re.search(r"\brequire\(", source)  # no module, not even node's own
    assert "mariage conformance --engine" in source.split("'use strict'")[0]  # how to run it


def test_passes_every_stored_schnapsen_and_protocol_test(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, report = run(tmp_path, capsys, "--ruleset", "schnapsen", "--ruleset", "*")
    assert code == 0, out[-3000:]
    ran = report["tests"]
    schnapsen = [t for t in ran if t["ruleset"] == "schnapsen"]
    assert len(schnapsen) == len(load_suite(rulesets=["schnapsen"])) > 80
    assert len(ran) - len(schnapsen) == len(load_suite(kinds=["protocol"])) > 15
    assert all(t["status"] == "pass" for t in ran)
    assert report["refusals"]["named"] == report["refusals"]["expected"] > 15
    [coverage] = report["coverage"]
    assert coverage["percent"] == 100.0 and coverage["unchecked"] == []


def test_passes_the_suite_derived_for_house_rules(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, report = run(tmp_path, capsys, "--ruleset", "schnapsen", *HOUSE,
                            "--min-coverage", "100")
    assert code == 0, out[-3000:]
    [coverage] = report["coverage"]
    assert coverage["percent"] == 100.0 and "schnapsen.close" in coverage["not_in_force"]
    kinds = {t["id"].split("/")[1] for t in report["tests"] if t["status"] == "pass"}
    assert {"golden", "fault", "neighbour"} <= kinds
    assert all(t["status"] in ("pass", "skip") for t in report["tests"])


#: fault -> (runner arguments, the rule a failing test is charged to)
FAULTS = {
    "exchange-after-marriage": (("--ruleset", "schnapsen", "--kind", "scenario"),
                                "schnapsen.exchange"),
    "claim-after-marriage": (("--ruleset", "schnapsen", "-o", "claim_on_declaration=false"),
                             "schnapsen.claim.timing"),
    "no-head": (("--ruleset", "schnapsen", *HOUSE), "schnapsen.play.head"),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_each_planted_fault_fails_naming_its_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fault: str) -> None:
    args, rule = FAULTS[fault]
    code, out, report = run(tmp_path, capsys, *args, fault=fault)
    assert code == 1, out[-3000:]
    failed = [t for t in report["tests"] if t["status"] == "fail"]
    assert any(rule in t["charged"] for t in failed), [(t["id"], t["charged"]) for t in failed]
    assert report["rules"][rule]["fail"] > 0


@pytest.mark.slow
def test_declared_configurations_and_a_match_against_greedy(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    engine = f"{node()} {ENGINE} --house close_allowed=false --house claim_mode=auto"
    assert main(["conformance", "--engine", engine, "--declared", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert out.count("(100.0%)") == 2, out[-2000:]
    games = tmp_path / "games.txt"
    assert main(["match", "schnapsen", "--engine", f"A={node()} {ENGINE}", "--bot", "B=greedy",
                 "--games", "6", "--no-forfeits", "-q", "--out", str(games)]) == 0
    capsys.readouterr()
    assert main(["validate", str(games)]) == 0
