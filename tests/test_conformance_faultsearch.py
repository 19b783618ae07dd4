"""Every rule checked (#22.3): focused tests found by searching seeded deals for the first
step where a faulty engine and the reference differ; the rule coverage of a run."""

from __future__ import annotations

import pytest
from mariage import load_rules
from mariage.cli import main
from mariage.conformance.client import EngineClient, ThreadTransport
from mariage.conformance.configuration import make_configuration
from mariage.conformance.faultsearch import faults_for, search_fault
from mariage.conformance.faulty import FAULTS, FaultyEngine
from mariage.conformance.faulty_generic import generic_faults
from mariage.conformance.generate import render_test
from mariage.conformance.measure import configurations, measure
from mariage.conformance.runner import run_test
from mariage.conformance.suite import parse_test
from mariage.spec.specload import list_rulesets

SCHNAPSEN_HOUSE = ["close_allowed=false", "claim_mode=auto", "marriage_lead=king",
                   "marriage_counting=next_trick_after_declaring"]


def test_the_schnapsen_house_suite_checks_every_rule_that_can_be_broken() -> None:
    m = measure(make_configuration("schnapsen", SCHNAPSEN_HOUSE))
    assert m.breakable >= 20
    assert m.breakable_checked == m.breakable
    assert m.killed == m.shown > 0
    # closing and claiming are gone in this house: their faults show nowhere
    assert any("no-close-on-first-lead" in n for n in m.not_killed)


@pytest.mark.parametrize("name", ["mariglia-no-follow", "wrong-seat-accepted",
                                  "card-not-in-hand", "play-after-end"])
def test_a_found_test_kills_its_fault_and_passes_on_the_reference(name: str) -> None:
    config = make_configuration("mariglia", ["turn_up_bonus=false"])
    found, why = search_fault(FAULTS[name], config)
    assert found is not None, why
    test = parse_test(render_test(found), "x.test")
    assert test.rules[0] == FAULTS[name].rule
    for engine, status in ((FaultyEngine(FAULTS[name]), "fail"), (None, "pass")):
        from mariage.conformance.engine import ReferenceEngine

        client = EngineClient(lambda e=engine: ThreadTransport(e or ReferenceEngine()),
                              timeout=30)
        try:
            out = run_test(client, test)
        finally:
            client.close()
        assert out.status == status, out.message
        if status == "fail":
            assert FAULTS[name].rule in out.blamed


def test_a_fault_whose_rule_is_turned_off_shows_no_difference() -> None:
    config = make_configuration("schnapsen", ["close_allowed=false"])
    test, why = search_fault(FAULTS["no-close-on-first-lead"], config)
    assert test is None and why


def test_the_search_is_reproducible() -> None:
    config = make_configuration("marianna", [])
    one, _ = search_fault(FAULTS["leader-draws-first"], config)
    two, _ = search_fault(FAULTS["leader-draws-first"], config)
    assert one is not None and render_test(one) == render_test(two or {})


@pytest.mark.parametrize("ruleset", list_rulesets())
def test_generic_faults_name_rules_of_the_ruleset(ruleset: str) -> None:
    rules = load_rules(ruleset)
    faults = generic_faults(rules)
    assert len(faults) >= 8
    assert all(f.rule in rules.rule_ids for f in faults)
    names = [f.name for f in faults_for(rules)]
    assert len(names) == len(set(names))


def test_three_multi_option_configurations_per_ruleset() -> None:
    for ruleset in list_rulesets():
        multi = [c for c in configurations(ruleset) if len(c.options) >= 2]
        assert len(multi) >= 3, ruleset


def test_min_coverage_passes_at_or_below_the_measured_figure(
        capsys: pytest.CaptureFixture[str]) -> None:
    args = ["conformance", "--ruleset", "mariglia", "-o", "turn_up_bonus=false"]
    assert main([*args, "--min-coverage", "80"]) == 0
    out = capsys.readouterr().out
    assert ("rules checked by a test that ran and names them, mariglia turn_up_bonus=false: "
            "17/17 (100.0%)") in out
