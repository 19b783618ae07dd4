"""The runner: the bundled suite passes against the reference; engine failures are contained."""

from __future__ import annotations

import json
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from mariage.cli import main
from mariage.conformance.client import EngineClient, ThreadTransport
from mariage.conformance.engine import ReferenceEngine
from mariage.conformance.reports import json_report, junit_xml, parse_expected, write_atomic
from mariage.conformance.runner import run_suite
from mariage.conformance.suite import SuiteError, load_suite, parse_test


def reference_client() -> EngineClient:
    return EngineClient(lambda: ThreadTransport(ReferenceEngine()), timeout=30)


@pytest.mark.slow
def test_whole_suite_passes_against_the_reference() -> None:
    tests = load_suite()
    assert len(tests) > 200
    client = reference_client()
    try:
        result = run_suite(client, tests)
    finally:
        client.close()
    bad = [f"{o.id}: {o.message}" for o in result.outcomes if o.status != "pass"]
    assert bad == []
    assert {t.kind for t in tests} == {"golden", "scenario", "option", "perft", "protocol"}


MISBEHAVE = textwrap.dedent("""
    import sys, time
    from mariage.conformance.engine import ReferenceEngine, serve
    MODE = sys.argv[1]
    class Bad(ReferenceEngine):
        def handle(self, msg):
            if msg["type"] == "apply" and msg.get("action") == "2S":
                if MODE == "crash":
                    sys.exit(3)
                if MODE == "hang":
                    time.sleep(60)
                if MODE == "garbage":
                    sys.stdout.write("I am not JSON\\n")
                    sys.stdout.flush()
            return super().handle(msg)
    serve(Bad(), sys.stdin, sys.stdout)
""")


@pytest.mark.parametrize("mode,kind", [("crash", "crash"), ("hang", "timeout"),
                                       ("garbage", "garbage")])
def test_misbehaving_engine_fails_those_tests_and_is_restarted(tmp_path: Path, mode: str,
                                                               kind: str) -> None:
    script = tmp_path / "bad_engine.py"
    script.write_text(MISBEHAVE)
    tests = load_suite(rulesets=["marianna"])
    victim = [t for t in tests if t.kind == "scenario"
              and any(s.get("act") == "2S" for s in t.steps)][:1]
    others = [t for t in tests if t.kind == "scenario"
              and not any(s.get("act") == "2S" for s in t.steps)][:3]
    assert victim and others
    # generous: a fresh engine must start Python and compile the rules within it
    client = EngineClient.for_command(f"{sys.executable} {script} {mode}", timeout=3.0)
    try:
        result = run_suite(client, victim + others + victim + others)
    finally:
        client.close()
    statuses = [o.status for o in result.outcomes]
    assert statuses == ["error", "pass", "pass", "pass"] * 2
    assert kind in result.outcomes[0].message
    assert result.restarts == 2 and not result.ok


def test_expected_failures_xfail_xpass_and_stale(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    tests = load_suite(rulesets=["mariglia"])
    ids = [t.id for t in tests if t.kind == "scenario"][:2]
    client = reference_client()
    try:
        result = run_suite(client, [t for t in tests if t.id in ids], expected=[ids[0]])
    finally:
        client.close()
    assert [o.status for o in result.outcomes] == ["xpass", "pass"] and not result.ok
    expect = tmp_path / "expect.txt"
    expect.write_text("# none of these fail\nno/such/test\n")
    code = main(["conformance", "--ruleset", "mariglia", "--rule", "mariglia.play.follow",
                 "--kind", "scenario", "--expect", str(expect)])
    assert code == 1
    assert "STALE expected failure: no/such/test" in capsys.readouterr().out


def test_faulty_engine_fails_the_cli_with_reports(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    junit, js = tmp_path / "r.xml", tmp_path / "r.json"
    cmd = f"{sys.executable} -m mariage.conformance.faulty mariglia-no-follow"
    code = main(["conformance", "--engine", cmd, "--ruleset", "mariglia", "--kind", "scenario",
                 "--junit",
                 str(junit), "--json", str(js)])
    out = capsys.readouterr().out
    assert code == 1
    line = next(x for x in out.splitlines() if x.strip().startswith("mariglia.play.follow:"))
    assert "mariglia/play/follow-and-head" in line
    report = json.loads(js.read_text())
    assert report["ok"] is False
    assert "mariglia/play/follow-and-head" in report["rules"]["mariglia.play.follow"]["failing"]
    root = ET.parse(junit).getroot()
    assert root.tag == "testsuites" and root.find("testsuite").get("name") == "mariglia"
    assert root.find(".//failure") is not None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json", "r.xml"]


def test_cli_reference_run_passes_and_filters(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "--ruleset", "mariazza", "--rule", "mariazza.decl.",
                 "--kind", "scenario"]) == 0
    out = capsys.readouterr().out
    assert "PASSED" in out and "mariazza" in out
    with pytest.raises(SystemExit):
        main(["conformance", "--bogus"])
    assert main(["conformance", "--rule", "no.such.rule"]) == 2
    assert main(["conformance", "--expect", "/no/such/file"]) == 2


def test_reports_shapes() -> None:
    tests = load_suite(rulesets=["mariglia"], rules=["mariglia.score.turn-up"])
    client = reference_client()
    try:
        result = run_suite(client, tests)
    finally:
        client.close()
    rep = json_report(result)
    assert rep["ok"] and rep["rulesets"]["mariglia"]["pass"] == len(tests)
    xml = junit_xml(result)
    assert ET.fromstring(xml.split("\n", 1)[1]).get("tests") == str(len(tests))


def test_write_atomic_replaces(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    write_atomic(target, "one")
    write_atomic(target, "two")
    assert target.read_text() == "two" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_bad_test_files_and_expect_files() -> None:
    with pytest.raises(SuiteError, match=r"x\.test:1:1"):
        parse_test("id: 1\n", "x.test")
    with pytest.raises(SuiteError, match=r"x\.test:4:1"):
        parse_test("---\nid: a\nrules: [\n---\n", "x.test")
    with pytest.raises(SuiteError, match="lacks 'kind'"):
        parse_test("---\nid: a\n---\n", "x.test")
    with pytest.raises(SuiteError, match=r"e\.txt:2:1"):
        parse_expected("a\nb c\n", "e.txt")
