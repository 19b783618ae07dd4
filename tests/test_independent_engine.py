"""The conformance runner against an engine written from the docs alone.

``conformance/examples/minimal_engine.py`` plays Marianna through the documented
protocol and imports nothing from ``mariage``. The clean engine must pass every
Marianna test and every protocol test; each ``--fault`` plants one mistake, and
the runner must fail the run (exit 1, never a traceback) with a message that
names the rule broken and the place: the step, the hand, the trick, the seat,
the action. The expectations below are written by hand from the rules
(``spec/marianna.yaml``) and the docs, not computed by the reference: the
runner, which uses the reference, is the thing checked.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mariage.cli import main

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "conformance" / "examples" / "minimal_engine.py"
TESTS = ROOT / "conformance" / "tests"
#: where a message says the match stood: ``(hand 1, trick 3, seat 2 to act)``, or
#: ``(hand 1, between hands)``
PLACE = re.compile(r"\(hand \d+, (trick \d+, seat \d to act|between hands)\)")


def run_conformance(tmp_path: Path, *args: str, fault: str | None = None
                    ) -> tuple[int, str, str, dict[str, Any]]:
    """``mariage conformance`` in a process of its own against the example engine: the
    exit code, standard output, standard error and the JSON report."""
    engine = f"{shlex.quote(sys.executable)} {shlex.quote(str(ENGINE))}"
    if fault:
        engine += f" --fault {fault}"
    report = tmp_path / "report.json"
    proc = subprocess.run(
        [sys.executable, "-m", "mariage", "conformance", "--engine", engine, "--no-progress",
         "--json", str(report), *args],
        capture_output=True, text=True, timeout=300, check=False)
    data = json.loads(report.read_text()) if report.exists() else {}
    return proc.returncode, proc.stdout, proc.stderr, data


def run_in_process(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str,
                   fault: str | None = None) -> tuple[int, str, str, dict[str, Any]]:
    """:func:`run_conformance` through ``mariage.cli.main`` in this process (the suite's
    files are parsed once per process), the engine still a process of its own."""
    engine = f"{shlex.quote(sys.executable)} {shlex.quote(str(ENGINE))}"
    if fault:
        engine += f" --fault {fault}"
    report = tmp_path / "report.json"
    capsys.readouterr()
    code = main(["conformance", "--engine", engine, "--no-progress", "--json", str(report),
                 *args])
    out, err = capsys.readouterr()
    return code, out, err, json.loads(report.read_text()) if report.exists() else {}


def no_traceback(out: str, err: str) -> None:
    """The runner never shows a traceback of its own (an engine's, quoted in a message on
    one line after 'its standard error ends:', is the engine's)."""
    assert "Traceback" not in err, err
    assert not any(line.startswith("Traceback") for line in out.splitlines()), out


def count_tests(folder: str) -> int:
    return len(list((TESTS / folder).rglob("*.test")))


def test_the_example_imports_nothing_from_mariage() -> None:
    source = ENGINE.read_text()
    assert not re.search(r"^\s*(from|import)\s+mariage\b", source, re.MULTILINE)
    proc = subprocess.run([sys.executable, "-I", str(ENGINE), "--list-faults"],
                          capture_output=True, text=True, timeout=60, check=True,
                          cwd="/")  # -I: no PYTHONPATH, no site-packages of the project
    assert len(proc.stdout.splitlines()) == len(FAULTS)


def test_clean_engine_passes_every_marianna_and_protocol_test(tmp_path: Path) -> None:
    code, out, err, report = run_conformance(tmp_path)
    no_traceback(out, err)
    assert code == 0, out[-3000:]
    assert report["ok"] is True and report["verdict"] == "PASSED"
    marianna = report["rulesets"]["marianna"]
    assert marianna["pass"] == count_tests("marianna") > 60
    assert marianna["fail"] == marianna["error"] == marianna["skip"] == 0
    protocol = [t for t in report["tests"] if t["kind"] == "protocol"]
    assert len(protocol) == count_tests("protocol") > 10
    assert all(t["status"] == "pass" for t in protocol)
    # every refusal names the rule the tests expect
    assert report["refusals"]["named"] == report["refusals"]["expected"] > 15
    # coverage is reported for the ruleset that ran only, not for those skipped
    assert [c["configuration"] for c in report["coverage"]] == ["marianna"]
    assert report["coverage"][0]["percent"] == 100.0
    assert "rules checked by a test that ran and names them, marianna: " in out
    assert "rules checked by a test that ran and names them, belote" not in out


#: fault -> (runner arguments, status, rule ID charged, what a message must say)
FAULTS: dict[str, tuple[tuple[str, ...], str, str | None, tuple[str, ...]]] = {
    "follow-suit": (("--rule", "marianna.play.free"), "fail", "marianna.play.free",
                    ("refused (illegal_action [marianna.play.free])",
                     "the test expects it accepted (legal under marianna.play.free)")),
    "trick-winner": (("--rule", "marianna.trick.winner", "--kind", "scenario"), "fail",
                     "marianna.trick.winner", ("leader: expected",)),
    "declaration-points": (("--rule", "marianna.decl.value", "--kind", "scenario"), "fail",
                           "marianna.decl.value",
                           ("after action 'marianna:H'", "hand_points: expected [0, 40], "
                            "engine says [0, 0]")),
    "mariannone-500-only": (("--rule", "marianna.decl.mariannone.value", "--kind", "scenario"),
                            "fail", "marianna.decl.mariannone.value",
                            ("after action 'mariannone:S' (hand 1, trick 2, seat 1 to act)",
                             "engine says {'winner': 1, 'reason': 'match_won', "
                             "'scores': [0, 500]}")),
    "draw-order": (("--rule", "marianna.draw", "--kind", "scenario"), "fail",
                   "marianna.draw", ("after action '5H'", "hands: expected")),
    "last-trick-bonus": (("--rule", "marianna.score.hand", "--kind", "scenario"), "fail",
                         "marianna.score.hand", ("trick 10", "engine says [26, 144]")),
    "target-exclusive": (("--rule", "marianna.match.end", "--kind", "option"), "fail",
                         "marianna.match.end",
                         ("after action 'JH' (hand 1, trick 10, seat 0 to act): terminal: "
                          "expected True, engine says False",)),
    "once-per-hand": (("--rule", "marianna.decl.once", "--kind", "scenario"), "fail",
                      "marianna.decl.once", ("(hand 1, trick 2, seat 1 to act)",
                                             "extra ['marianna:H'] (must not be legal)")),
    "once-per-match": (("--rule", "marianna.decl.once", "--kind", "scenario"), "fail",
                       "marianna.decl.once", ("(hand 2, trick 1, seat 2 to act)",
                                              "missing ['marianna:H']")),
    "resign-scores-hand": (("--rule", "core.resign", "--kind", "scenario"), "fail",
                           "core.resign",
                           ("after resignation of seat 1 (hand 2, trick 2, seat 2 to act)",
                            "match_scores: expected [26, 134]")),
    "refuse-legal": (("--rule", "marianna.decl.who", "--kind", "scenario"), "fail",
                     "marianna.decl.who",
                     ("refused (illegal_action [marianna.decl.who])",
                      "the test expects it accepted (legal under marianna.decl.marianna)")),
    "wrong-rule": (("--rule", "core.turn"), "fail", "core.turn",
                   ("action 'marianna:D' by seat 2", "must be refused with illegal_action "
                    "[core.turn], the engine said illegal_action [core.hand]")),
    "malformed-legal": (("--rule", "core.turn"), "fail", None,
                        ("the 'legal' answer is malformed: 'actions' must be a list of action "
                         "texts, the engine sent str",)),
    "wrong-seat": (("--rule", "core.turn"), "fail", "core.turn",
                   ("was asked for seat 2; the engine answered for seat 1",)),
    "seat-between-hands": (("--rule", "marianna.deal.rotation", "--kind", "scenario"), "fail",
                           None, ("'legal' before deal of the next hand (hand 1, between "
                                  "hands) must name no seat (null)", "answered for seat 0")),
    "python-repr": (("--rule", "marianna.draw", "--kind", "scenario"), "error", None,
                    ("engine garbage: step 4: action '5H' (hand 1, trick 1, seat 0 to act): "
                     "the answer to 'state': not JSON",)),
    "crash": (("--rule", "marianna.decl.combination-window", "--kind", "scenario"), "error",
              None,
              ("engine crash: step", "(hand 1, trick 3, seat", "the engine exited with "
               "code 1 during request", "('apply')", "RuntimeError: simulated crash at trick 3")),
    "hang": (("--rule", "marianna.decl.combination-window", "--kind", "scenario",
              "--timeout", "0.5"),
             "error", None, ("engine timeout: step", "(hand 1, trick 3, seat",
                             "the answer to 'apply': no response within 0.5 s")),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_each_fault_fails_naming_the_rule_and_the_place(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fault: str) -> None:
    args, status, rule, says = FAULTS[fault]
    code, out, err, report = run_in_process(tmp_path, capsys, "--ruleset", "marianna", *args,
                                            fault=fault)
    no_traceback(out, err)
    assert code == 1, out[-3000:]
    assert report["ok"] is False and report["verdict"].startswith("FAILED")
    bad = [t for t in report["tests"] if t["status"] == status]
    assert bad, out[-3000:]
    texts = ["\n".join([t["message"], *t["details"]]) for t in bad]
    assert any(all(s in text for s in says) for text in texts), texts[:3]
    assert all(PLACE.search(t["message"]) or t["message"].startswith("perft")
               for t in bad), [t["message"] for t in bad]
    if rule is not None:
        assert any(rule in t["charged"] for t in bad), [(t["id"], t["charged"]) for t in bad]
        assert rule in report["rules"] and report["rules"][rule]["fail"] > 0
    assert all(t["status"] in ("pass", "skip", status) for t in report["tests"])


def test_a_refusal_without_a_rule_passes_unless_rule_ids_are_required(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An engine that refuses in its own words (no rule ID of ours) still passes the
    refusal; ``--require-rule-ids`` fails it (docs/conformance.rst)."""
    engine = tmp_path / "no_rule_ids.py"
    engine.write_text(ENGINE.read_text().replace(
        '                reply["rule"] = exc.rule', '                pass'))
    assert '"rule"' not in engine.read_text().split("def main")[1]
    for require, want in (((), 0), (("--require-rule-ids",), 1)):
        report = tmp_path / "r.json"
        capsys.readouterr()
        code = main(["conformance", "--engine",
                     f"{shlex.quote(sys.executable)} {shlex.quote(str(engine))}",
                     "--no-progress", "--ruleset", "marianna", "--rule", "core.turn",
                     "--json", str(report), *require])
        out, err = capsys.readouterr()
        no_traceback(out, err)
        assert code == want, out[-2000:]
        data = json.loads(report.read_text())
        assert data["refusals"]["named"] == 0 < data["refusals"]["refused"]


@pytest.mark.slow
@pytest.mark.parametrize("fault", sorted(set(FAULTS) - {"hang"}))
def test_each_fault_fails_the_whole_marianna_suite(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fault: str) -> None:
    """In this process (the runner's output and exit code are those of the command:
    ``test_clean_engine_passes_every_marianna_and_protocol_test`` runs it as a process of
    its own); the engine with its fault is still a process of its own."""
    code, out, err, report = run_in_process(tmp_path, capsys, "--ruleset", "marianna",
                                            "--timeout", "2", fault=fault)
    no_traceback(out, err)
    assert code == 1
    assert report["rulesets"]["marianna"]["pass"] < count_tests("marianna")
