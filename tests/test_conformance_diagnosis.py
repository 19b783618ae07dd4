"""Failures that point at the cause (#17.4): every difference, charged to the step's rules;
missing/extra legal actions; perft divide to the first differing node."""

from __future__ import annotations

from mariage.conformance.client import EngineClient, ThreadTransport
from mariage.conformance.faulty import FAULTS, FaultyEngine
from mariage.conformance.reports import by_rule, json_report
from mariage.conformance.runner import MAX_DIFFERENCES, legal_difference, run_suite, run_test
from mariage.conformance.suite import Test as SuiteTest
from mariage.conformance.suite import load_suite


def faulty_client(name: str) -> EngineClient:
    return EngineClient(lambda: ThreadTransport(FaultyEngine(FAULTS[name])), timeout=30)


def test_legal_difference_text() -> None:
    assert legal_difference(["AH", "KH"], ["KH", "2S", "3S"]) == \
        "missing ['AH'] / extra ['2S', '3S']"
    assert legal_difference(["AH"], ["AH", "2S"]) == "extra ['2S']"


def test_golden_goes_on_past_its_first_difference() -> None:
    test = next(t for t in load_suite(rulesets=["mariglia"], kinds=["golden"]))
    client = faulty_client("mariglia-no-follow")
    try:
        out = run_test(client, test)
    finally:
        client.close()
    assert out.status == "fail"
    assert 1 < len(out.details) <= MAX_DIFFERENCES
    steps = [int(d.split(":")[0].split()[1]) for d in out.details if d.startswith("step ")]
    assert steps == sorted(steps) and len(set(steps)) > 1  # several steps, in order
    assert "extra [" in out.details[0]
    assert "more differences" in out.message
    # charged to the rules that govern what differed, not every rule the golden names
    assert "mariglia.play.follow" in out.charged
    assert set(out.charged) < set(test.rules)
    assert "mariglia.deal.rotation" not in out.charged


def test_failures_are_reported_under_the_charged_rules_only() -> None:
    tests = load_suite(rulesets=["mariglia"], kinds=["golden"])[:1]
    client = faulty_client("mariglia-no-follow")
    try:
        result = run_suite(client, tests)
    finally:
        client.close()
    rules = by_rule(result.outcomes)
    assert rules["mariglia.play.follow"]["failing"] == [tests[0].id]
    assert "mariglia.deal.rotation" not in rules
    report = json_report(result)
    assert report["tests"][0]["charged"] and len(report["tests"][0]["details"]) > 1


def test_a_refused_step_is_charged_to_its_error_rule() -> None:
    tests = [t for t in load_suite(rulesets=["marianna"]) if t.id == "marianna/decl/window"]
    client = faulty_client("declare-after-stock")
    try:
        out = run_test(client, tests[0])
    finally:
        client.close()
    assert out.status == "fail" and out.charged == ("marianna.decl.window",)


def test_perft_failure_shows_the_first_differing_node() -> None:
    test = next(t for t in load_suite(rulesets=["mariglia"], kinds=["perft"]))
    client = faulty_client("mariglia-no-follow")
    try:
        out = run_test(client, test)
    finally:
        client.close()
    assert out.status == "fail"
    assert "first differing node:" in out.message and "extra [" in out.message
    node = out.details[-1]
    path = node.split("first differing node: ", 1)[1].split(": legal actions")[0]
    assert len(path.split()) >= 1  # after the lead: the follower may throw any card


def test_perft_counts_wrong_but_no_node_differs() -> None:
    base = next(t for t in load_suite(rulesets=["marianna"], kinds=["perft"]))
    wrong = SuiteTest(**{**base.__dict__, "counts": (base.counts[0] + 1, *base.counts[1:])})
    client = EngineClient(lambda: ThreadTransport(FaultyEngine(FAULTS["card-not-in-hand"])),
                          timeout=30)
    try:
        out = run_test(client, wrong)
    finally:
        client.close()
    # the engine agrees with the reference everywhere: the counts were wrong
    assert out.status == "fail" and "first differing node" not in out.message
