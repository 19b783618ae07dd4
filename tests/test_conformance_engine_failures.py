"""An engine that crashes, writes garbage or hangs: the failure is charged precisely (to
the rule of the request being answered, else to no rule), and an engine that hangs on
test after test stops the run, saying how many tests were not run.

The engine is ``conformance/examples/minimal_engine.py`` (written from the docs alone) with
its ``--fault crash`` / ``--fault hang`` modes, or a small script; the expectations are
written by hand."""

from __future__ import annotations

import json
import shlex
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from mariage.cli import main
from mariage.conformance.client import EngineClient
from mariage.conformance.coverage import run_coverage
from mariage.conformance.reports import by_rule, json_report, junit_xml, summary_text
from mariage.conformance.results import Outcome, RunResult
from mariage.conformance.runner import run_suite, run_test
from mariage.conformance.suite import Test as MatchTest
from mariage.conformance.suite import load_suite

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "conformance" / "examples" / "minimal_engine.py"


def example(fault: str) -> str:
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(ENGINE))} --fault {fault}"


def reaching_trick_3(kind: str = "scenario") -> list[MatchTest]:
    """Marianna tests that play at least 12 actions (so reach the third trick); the
    scenarios among them whose steps name no rules of their own."""
    return [t for t in load_suite(rulesets=["marianna"], kinds=[kind])
            if sum(1 for s in t.steps if "act" in s) >= 12
            and (kind == "golden" or not any(s.get("rules") or "error" in s
                                             for s in t.steps))]


def test_a_crash_is_charged_to_no_rule_and_says_how_and_where() -> None:
    test = reaching_trick_3()[0]
    assert len(test.rules) >= 1
    client = EngineClient.for_command(example("crash"), timeout=10)
    client.start_log()
    try:
        out = run_test(client, test)
    finally:
        client.close()
    assert out.status == "error" and out.engine_failure == "crash"
    assert out.charged == () and out.blamed == ()
    assert "the engine exited with code 1 during request" in out.message, out.message
    assert "RuntimeError: simulated crash at trick 3" in out.message
    # request K is the K-th request of the test, as the trace numbers them
    assert out.request is not None and out.request == len(out.exchange)
    assert f"during request {out.request} ('apply')" in out.message
    assert out.exchange[-1][1] == ""  # the request the engine died on got no answer
    result = RunResult([out], None, 1.0, 1, 1)
    assert all(not e["failing"] for e in by_rule(result.outcomes).values())
    report = json_report(result)
    entry = report["tests"][0]
    assert entry["charged"] == [] and entry["engine_failure"] == "crash"
    assert entry["request"] == out.request and entry["rules"] == list(test.rules)
    assert report["engine_failures"] == {"crash": [test.id]}
    assert not any(r["failing"] for r in report["rules"].values())
    case = ET.fromstring(junit_xml(result)).find(".//testcase")
    assert case is not None
    error = case.find("error")
    assert error is not None and error.get("type") == "crash"
    assert "charged to no rule" in (error.text or "")
    text = summary_text(result)
    assert "engine failures charged to no rule" in text and f"crash: {test.id}" in text
    assert "rule IDs with failing tests" not in text


CRASH_ON_2S = textwrap.dedent("""
    import sys
    from mariage.conformance.engine import ReferenceEngine, serve
    class Bad(ReferenceEngine):
        def handle(self, msg):
            if msg["type"] == "apply" and msg.get("action") == "2S":
                if sys.argv[1] == "exit":
                    sys.exit(7)
                sys.stdout.write("not json\\n")
                sys.stdout.flush()
            return super().handle(msg)
    serve(Bad(), sys.stdin, sys.stdout)
""")


@pytest.mark.parametrize("mode,kind,says", [
    ("exit", "crash", "the engine exited with code 7 during request"),
    ("garbage", "garbage", "the answer to 'apply': not JSON"),
])
def test_a_failure_on_a_step_that_names_its_rules_is_charged_to_them(
        tmp_path: Path, mode: str, kind: str, says: str) -> None:
    script = tmp_path / "bad.py"
    script.write_text(CRASH_ON_2S)
    base = next(t for t in load_suite(rulesets=["marianna"], kinds=["scenario"])
                if any(s.get("act") == "2S" and not s.get("rules") and "error" not in s
                       for s in t.steps))
    n = next(i for i, s in enumerate(base.steps) if s.get("act") == "2S")
    assert not base.steps[n].get("rules") and "error" not in base.steps[n]
    steps = list(base.steps)
    steps[n] = {**steps[n], "rules": ["marianna.draw"]}
    named = MatchTest(**{**base.__dict__, "steps": tuple(steps)})
    client = EngineClient.for_command(f"{sys.executable} {script} {mode}", timeout=10)
    try:
        outs = [run_test(client, t) for t in (named, base)]
    finally:
        client.close()
    for out in outs:
        assert out.status == "error" and out.engine_failure == kind, out.message
        assert says in out.message and f"step {n + 1}: action '2S'" in out.message
    assert outs[0].blamed == ("marianna.draw",)
    assert outs[1].blamed == ()  # the plain test: no rule is charged, not all of its rules


def test_hanging_engine_stops_the_run_after_max_hangs(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    """Every test reaching the third trick hangs: after 2 in a row the run stops, with
    one line on standard error naming them and how many tests were not run."""
    selected = reaching_trick_3("golden")
    assert len(selected) >= 4
    assert selected == load_suite(rulesets=["marianna"], kinds=["golden"])
    report = tmp_path / "r.json"
    args = ["conformance", "--engine", example("hang"), "--ruleset", "marianna", "--kind",
            "golden", "--timeout", "0.5", "--max-hangs", "2", "--no-progress", "--json",
            str(report)]
    code = main(args)
    out, err = capsys.readouterr()
    assert code == 1
    assert "Traceback" not in out + err
    data = json.loads(report.read_text())
    errors = [t for t in data["tests"] if t["status"] == "error"]
    assert [t["engine_failure"] for t in errors[-2:]] == ["timeout", "timeout"]
    ran = len(data["tests"])
    assert data["not_run"] == len(selected) - ran > 0
    line = (f"mariage: error: the engine timed out 2 times in a row (in {errors[-2]['id']}, "
            f"{errors[-1]['id']}); {len(selected) - ran} tests were not run (--max-hangs 2)\n")
    assert err == line
    assert f"NOT RUN: {len(selected) - ran} tests" in out
    assert data["aborted"] and data["ok"] is False


def test_no_limit_and_a_pass_between_hangs_resets_the_count(tmp_path: Path) -> None:
    """--max-hangs 0 never stops; hangs that are not in a row do not add up."""
    hang = reaching_trick_3("golden")[:2]
    short = [t for t in load_suite(rulesets=["marianna"], kinds=["scenario"])
             if sum(1 for s in t.steps if "act" in s) <= 4][:1]
    assert len(hang) == 2 and short
    client = EngineClient.for_command(example("hang"), timeout=0.5)
    try:
        mixed = run_suite(client, [hang[0], short[0], hang[1], short[0]], max_hangs=2)
        endless = run_suite(client, hang + hang, max_hangs=0)
    finally:
        client.close()
    assert [o.status for o in mixed.outcomes] == ["error", "pass", "error", "pass"]
    assert not mixed.aborted and mixed.not_run == 0
    assert [o.engine_failure for o in endless.outcomes] == ["timeout"] * 4
    assert not endless.aborted and endless.not_run == 0


@pytest.mark.parametrize("value", ["-1", "x", "1.5", "1000001"])
def test_max_hangs_must_be_a_whole_number(value: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["conformance", "--max-hangs", value])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--max-hangs: a whole number from 0 to 1000000" in err and "Traceback" not in err


def test_a_test_the_engine_failed_in_checks_no_rule_for_coverage() -> None:
    """Coverage counts a test that passed or failed; one cut short by the engine checked
    nothing (an engine crashing on every test must not reach 100%)."""
    rules = ("marianna.draw", "core.hand")
    crashed = Outcome("t", "marianna", "scenario", rules, "error", engine_failure="crash")
    failed = Outcome("u", "marianna", "scenario", rules, "fail")
    assert run_coverage([crashed], "marianna", rules).percent == 0.0
    assert run_coverage([crashed, failed], "marianna", rules).checked == {
        "marianna.draw": ["u"], "core.hand": ["u"]}


def test_expect_parses_the_whole_suite_only_for_an_id_outside_the_selection(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from mariage.conformance import suite

    calls: list[bool] = []
    real = suite.load_suite

    def counting(*args: object, **kw: object) -> list[MatchTest]:
        calls.append(bool(kw.get("rulesets") or kw.get("rules") or kw.get("kinds")))
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(suite, "load_suite", counting)
    chosen = real(rulesets=["mariglia"], rules=["mariglia.play.follow"], kinds=["scenario"])
    expect = tmp_path / "expect.txt"
    args = ["conformance", "--ruleset", "mariglia", "--rule", "mariglia.play.follow", "--kind",
            "scenario", "--no-progress", "--expect", str(expect)]
    expect.write_text(f"{chosen[0].id}\n")
    assert main(args) == 1  # it passes: xpass
    assert calls == [True]
    expect.write_text(f"{chosen[0].id}\nno/such/test\n")
    calls.clear()
    assert main(args) == 1
    assert calls == [True, False]
    assert "STALE expected failure: no/such/test" in capsys.readouterr().out
