"""A Marjapussi engine in plain Node.js, written from the user docs alone, against the suite.

``conformance/examples/marjapussi_engine.js`` plays ``marjapussi`` with every option of
``spec/marjapussi.yaml`` through the engine protocol. It must pass the stored Marjapussi
and protocol tests and the suite derived for the default rules, with every rule in
force checked; each of its planted faults (``--fault MODE``) must fail, charged to the
rule it breaks. Six of them passed every stored test before the scenarios named in
``KILLED_BY_SCENARIO``: ``ask-refused-as-declaration`` is the mistake the engine made
while it was written (an ask out of its moment refused under ``marjapussi.decl.who``, a
half-ask for a declared suit under ``marjapussi.decl.once``); ``one-answer``,
``beat-until-trumped``, ``tie-first-wins``, ``half-yes-names-suit`` and
``notrump-with-trump`` passed the derived suites too.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
from mariage.conformance.suite import load_suite
from nodekit import EXAMPLES, needs_nothing_but_node, run_engine

ENGINE = EXAMPLES / "marjapussi_engine.js"


run = partial(run_engine, ENGINE)  # (tmp_path, capsys, *args, fault=None)


def test_the_example_needs_nothing_but_node() -> None:
    assert needs_nothing_but_node(ENGINE)


def test_passes_every_stored_marjapussi_scenario(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, report = run(tmp_path, capsys, "--ruleset", "marjapussi", "--kind", "scenario")
    assert code == 0, out[-3000:]
    ran = report["tests"]
    assert len(ran) == len(load_suite(rulesets=["marjapussi"], kinds=["scenario"])) > 12
    assert all(t["status"] == "pass" for t in ran)
    assert report["refusals"]["named"] == report["refusals"]["expected"] > 8


#: a mistake of the engine's -> the stored scenario that alone kills it (every stored and
#: derived test passed it before the scenario was added)
KILLED_BY_SCENARIO = {
    "ask-refused-as-declaration": "marjapussi/ask/refused-under-its-own-rule",
    "one-answer": "marjapussi/ask/partner-two-marriages",
    "beat-until-trumped": "marjapussi/option/must-beat-after-a-trump",
    "tie-first-wins": "marjapussi/match/tie-plays-on",
    "half-yes-names-suit": "marjapussi/ask/half-answer-names-no-suit",
    "notrump-with-trump": "marjapussi/option/trump-choice-only-without-trump",
}


@pytest.mark.parametrize("fault", sorted(KILLED_BY_SCENARIO))
def test_planted_fault_is_killed_by_its_new_scenario(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fault: str) -> None:
    code, out, report = run(tmp_path, capsys, "--ruleset", "marjapussi", "--kind", "scenario",
                            "--kind", "option", fault=fault)
    assert code == 1, out[-3000:]
    failed = {t["id"] for t in report["tests"] if t["status"] == "fail"}
    assert KILLED_BY_SCENARIO[fault] in failed, failed


@pytest.mark.slow
def test_passes_the_whole_stored_suite_and_the_derived_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, report = run(tmp_path, capsys, "--ruleset", "marjapussi", "--ruleset", "*")
    assert code == 0, out[-3000:]
    ran = report["tests"]
    assert len(ran) == len(load_suite(rulesets=["marjapussi"])) + len(
        load_suite(kinds=["protocol"]))
    [coverage] = report["coverage"]
    assert coverage["percent"] == 100.0 and coverage["unchecked"] == []
    code, out, report = run(tmp_path, capsys, "--ruleset", "marjapussi", "--derived",
                            "--min-coverage", "100")
    assert code == 0, out[-3000:]
    kinds = {t["id"].split("/")[1] for t in report["tests"] if t["status"] == "pass"}
    assert {"golden", "fault"} <= kinds


#: fault -> (runner arguments, the rule a failing test is charged to)
FAULTS = {
    "no-trump-duty": (("--ruleset", "marjapussi", "--derived"), "marjapussi.play.trump"),
    "declare-first-trick": (("--ruleset", "marjapussi", "--derived"), "marjapussi.decl.who"),
    "ask-refused-as-declaration": (("--ruleset", "marjapussi", "--derived"),
                                   "marjapussi.ask.any"),
    # found by the derived suites' search since faulty_marjapussi.py
    "beat-until-trumped": (("--ruleset", "marjapussi", "-o", "must_beat=true"),
                           "marjapussi.play.beat"),
    "one-answer": (("--ruleset", "marjapussi", "--derived"), "marjapussi.ask.answer"),
    "half-yes-names-suit": (("--ruleset", "marjapussi", "--derived"),
                            "marjapussi.ask.half.answer"),
    "notrump-with-trump": (("--ruleset", "marjapussi", "-o", "trump_choice=true"),
                           "marjapussi.decl.trump"),
}


@pytest.mark.slow
@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_each_planted_fault_fails_the_derived_suite(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fault: str) -> None:
    args, rule = FAULTS[fault]
    code, out, report = run(tmp_path, capsys, *args, fault=fault)
    assert code == 1, out[-3000:]
    failed = [t for t in report["tests"] if t["status"] == "fail"]
    assert any(rule in t["charged"] for t in failed), [(t["id"], t["charged"]) for t in failed]
