"""The protocol tests of the suite (kind ``protocol``), refusals without our rule IDs, and
the runner's pipes: deadlines on writes, the engine's standard error quoted when it dies."""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from mariage.cli import main
from mariage.conformance.client import (
    EngineClient,
    EngineFailure,
    HandshakeError,
    ThreadTransport,
    Transport,
)
from mariage.conformance.engine import ReferenceEngine
from mariage.conformance.faulty_protocol import PROTOCOL_FAULTS, ProtocolFault, faulty_server
from mariage.conformance.protocheck import PROTOCOL_RULES, foreign_action
from mariage.conformance.reports import json_report, summary_text
from mariage.conformance.runner import run_suite
from mariage.conformance.suite import load_suite
from mariage.spec.rulesload import load_rules
from mariage.spec.specload import list_rulesets

DOCS = Path(__file__).resolve().parent.parent / "docs"
PROTOCOL_TESTS = load_suite(kinds=["protocol"])


def served(write: Any = None, read: Any = None, engine: Any = None) -> EngineClient:
    fault = ProtocolFault("x", "x", "x", read=read, write=write)
    return EngineClient(lambda: ThreadTransport(engine or ReferenceEngine(),
                                                faulty_server(fault)), timeout=10)


def run(client: EngineClient, tests: list[Any], **kw: Any) -> Any:
    try:
        return run_suite(client, tests, **kw)
    finally:
        client.close()


def test_the_reference_passes_every_protocol_test() -> None:
    result = run(EngineClient(lambda: ThreadTransport(ReferenceEngine()), timeout=10),
                 PROTOCOL_TESTS)
    assert [(o.id, o.message) for o in result.outcomes if o.status != "pass"] == []
    assert result.restarts == 0


@pytest.mark.parametrize("name", sorted(PROTOCOL_FAULTS))
def test_each_protocol_fault_fails_a_test_naming_its_rule(name: str) -> None:
    fault = PROTOCOL_FAULTS[name]
    client = EngineClient(lambda: ThreadTransport(ReferenceEngine(), faulty_server(fault)),
                          timeout=10)
    result = run(client, PROTOCOL_TESTS)
    naming = [o.id for o in result.outcomes if not o.ok and fault.rule in o.blamed]
    assert naming, f"{name} survives the protocol tests"


def test_an_engine_that_exits_on_a_bad_line_is_an_error_not_a_pass() -> None:
    fault = PROTOCOL_FAULTS["exit-on-bad-json"]
    client = EngineClient(lambda: ThreadTransport(ReferenceEngine(), faulty_server(fault)),
                          timeout=10)
    result = run(client, [t for t in PROTOCOL_TESTS if t.id == "protocol/framing/not-json"])
    [o] = result.outcomes
    assert o.status == "error" and "crash" in o.message
    assert not result.ok


def test_every_protocol_rule_is_tested_and_documented() -> None:
    named = {r for t in PROTOCOL_TESTS for r in t.rules}
    assert set(PROTOCOL_RULES) <= named
    ruleset_rules = set(load_rules("marianna").rule_ids)
    assert named - set(PROTOCOL_RULES) <= ruleset_rules  # core.deal and the like
    text = (DOCS / "protocol.rst").read_text(encoding="utf-8")
    for rule in PROTOCOL_RULES:
        assert f"``{rule}``" in text, rule
    assert all(t.ruleset == "*" for t in PROTOCOL_TESTS)


def test_the_protocol_fault_table_lists_every_fault() -> None:
    text = (DOCS / "conformance.rst").read_text(encoding="utf-8")
    rows = {line.split()[0]: line.split()[1] for line in text.splitlines()
            if line.split() and line.split()[0] in PROTOCOL_FAULTS}
    assert rows == {name: f.rule for name, f in PROTOCOL_FAULTS.items()}


def test_a_foreign_action_word_exists_for_every_ruleset() -> None:
    for name in list_rulesets():
        word = foreign_action(name)
        assert any(_parses(other, word) for other in list_rulesets() if other != name), name


def _parses(ruleset: str, text: str) -> bool:
    from mariage.engine.actiontext import parse_action

    try:
        parse_action(load_rules(ruleset), text)
    except ValueError:
        return False
    return True


def test_protocol_tests_needing_a_match_skip_an_engine_without_bundled_rulesets() -> None:
    class Elsewhere(ReferenceEngine):
        def hello(self) -> dict[str, Any]:
            return {**super().hello(), "rulesets": {"my-house-game": {"options": {}}}}

    result = run(EngineClient(lambda: ThreadTransport(Elsewhere()), timeout=10), PROTOCOL_TESTS)
    by_status = {o.id: o.status for o in result.outcomes}
    assert by_status["protocol/action/not-of-the-ruleset"] == "skip"
    assert by_status["protocol/framing/not-json"] == "pass"
    assert result.ok


# -- refusals without our rule IDs -------------------------------------------------------

SCENARIOS = load_suite(rulesets=["mariglia"], kinds=["scenario"])


def _without_rule(reply: dict[str, Any]) -> dict[str, Any]:
    reply.pop("rule", None)
    return reply


def _own_words(reply: dict[str, Any]) -> dict[str, Any]:
    if "rule" in reply:
        reply["rule"] = "house-rule-" + reply["rule"].replace(".", "-")
    return reply


def _wrong_rule(reply: dict[str, Any]) -> dict[str, Any]:
    if reply.get("rule") == "core.turn":  # the phase before the turn, a precedence mixed up
        reply["rule"] = "core.phase"
    return reply


@pytest.mark.parametrize("write", [_without_rule, _own_words])
def test_a_refusal_without_our_rule_id_passes_and_is_counted_apart(write: Any) -> None:
    result = run(served(write), SCENARIOS)
    assert [(o.id, o.message) for o in result.outcomes if o.status != "pass"] == []
    expected, refused, named = result.refusal_levels()
    assert expected == refused > 5 and named == 0
    assert f"refusals: {refused}/{expected} refused; rule named: 0/{expected}" in \
        summary_text(result)
    assert json_report(result)["refusals"] == {"expected": expected, "refused": refused,
                                               "named": 0}
    strict = run(served(write), SCENARIOS, require_rules=True)
    assert not strict.ok


def test_the_reference_names_every_rule() -> None:
    result = run(EngineClient(lambda: ThreadTransport(ReferenceEngine()), timeout=10),
                 SCENARIOS, require_rules=True)
    expected, refused, named = result.refusal_levels()
    assert result.ok and expected == refused == named > 5


def test_naming_a_wrong_rule_of_ours_still_fails() -> None:
    result = run(served(_wrong_rule), SCENARIOS)
    bad = [o for o in result.outcomes if not o.ok]
    assert bad and all("the engine said illegal_action [core.phase]" in o.message for o in bad)
    assert all(o.blamed == ("core.turn",) for o in bad)


def test_the_cli_reports_the_refusal_levels(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["conformance", "--ruleset", "mariglia", "--kind", "scenario",
                 "--require-rule-ids"])
    out = capsys.readouterr().out
    assert code == 0
    match = re.search(r"refusals: (\d+)/(\d+) refused; rule named: (\d+)/(\d+)", out)
    assert match and len(set(match.groups())) == 1


# -- pipes: deadlines and the engine's last words ---------------------------------------

def test_a_write_to_an_engine_that_stopped_reading_times_out() -> None:
    r, w = os.pipe()
    r2, w2 = os.pipe()
    try:
        transport = Transport(r2, w)  # nobody ever reads r
        t0 = time.monotonic()
        with pytest.raises(EngineFailure) as info:
            for _ in range(10_000):  # far more than a pipe holds
                transport.send("x" * 1000, time.monotonic() + 0.5, 0.5)
        assert info.value.kind == "timeout"
        assert "did not read its input" in info.value.message
        assert time.monotonic() - t0 < 5
    finally:
        for fd in (r, w, r2, w2):
            os.close(fd)


def test_an_engine_that_dies_at_hello_is_quoted_from_its_standard_error(
        tmp_path: Path) -> None:
    script = tmp_path / "dying.py"
    script.write_text("import sys\nsys.stdin.readline()\n"
                      "sys.stderr.write('starting...\\nfatal: no licence file found\\n')\n"
                      "sys.exit(4)\n")
    client = EngineClient.for_command(f"{sys.executable} {script}", timeout=10)
    try:
        with pytest.raises(HandshakeError) as info:
            client.hello()
    finally:
        client.close()
    assert "its standard error ends: starting... | fatal: no licence file found" in \
        info.value.message


def test_the_conformance_command_quotes_a_dying_engine(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "dying.py"
    script.write_text("import sys\nsys.stderr.write('Traceback: KeyError rulesets\\n')\n"
                      "sys.exit(1)\n")
    code = main(["conformance", "--engine", f"{sys.executable} {script}", "--kind",
                 "protocol"])
    err = capsys.readouterr().err
    assert code == 1
    assert "Traceback: KeyError rulesets" in err and len(err.strip().splitlines()) == 1
