"""The census's search takes what a seat not to act may take at any moment (eighteenth
session): in Thousand's golden round with its lowest bid at 120, the stored four-nines
scenario's bid of 100 is refused, so only the search's own play can reach the claim of
four nines, which the holder makes out of turn, and the hand dealt again after it; and a
running total reset to 0 at 555 is named from the totals before the hand."""

from __future__ import annotations

from dataclasses import replace

import pytest
from mariage.conformance.client import EngineClient, ThreadTransport
from mariage.conformance.configuration import Configuration, make_configuration
from mariage.conformance.engine import ReferenceEngine
from mariage.conformance.exercise import aside_rules, exercise_tests
from mariage.conformance.faultkit import Fault
from mariage.conformance.faulty import FaultyEngine
from mariage.conformance.generate import render_test
from mariage.conformance.ruleprobe import dump_rules
from mariage.conformance.runner import run_test
from mariage.conformance.suite import parse_test
from mariage.engine.actions import Redeal
from mariage.engine.actiontext import parse_action
from mariage.engine.state import GameState

CONFIG = ("thousand", ["golden_round=min_bid_120"])
NINES = "thousand.throw-in.four-nines"
REDEAL = "thousand.running.redeal"


@pytest.fixture(scope="module")
def found() -> dict[str, dict[str, object]]:
    config = make_configuration(*CONFIG)
    tests, why = exercise_tests(config, [NINES, REDEAL])
    assert why == {}
    return tests


def _before_last(test: dict[str, object], config: Configuration | None = None
                 ) -> GameState:
    """The reference's state before the test's last step."""
    config = config or make_configuration(*CONFIG)
    rules = config.rules
    start = test["start"]
    assert isinstance(start, dict)
    state = GameState(rules, first_dealer=start["dealer"])
    state.deal(list(start["deck"]), start.get("first_player"))
    steps = test["steps"]
    assert isinstance(steps, list)
    for step in steps[:-1]:
        if "deal" in step:
            state.deal(list(step["deal"]["deck"]), step["deal"].get("first_player"))
        else:
            state.apply(parse_action(rules, step["act"]), step.get("seat"))
    return state


@pytest.mark.parametrize("rule", [NINES, REDEAL])
def test_the_claim_out_of_turn_is_found_and_named(found: dict[str, dict[str, object]],
                                                  rule: str) -> None:
    test = found[rule]
    last = test["steps"][-1]  # type: ignore[index]
    assert last["act"] == "redeal" and last["rules"] == [rule]
    before = _before_last(test)
    assert before.to_act is not None and last["seat"] != before.to_act  # out of turn
    # the claim the search took is the one the reference allows by the four nines
    assert aside_rules(before, Redeal(), last["seat"]) >= {NINES}
    assert last["state"]["last_hand"]["ended"] == "redeal"


def _run(engine: ReferenceEngine, test: dict[str, object]) -> str:
    client = EngineClient(lambda: ThreadTransport(engine), timeout=60)
    try:
        return run_test(client, parse_test(render_test(test), "t.test")).status
    finally:
        client.close()


@pytest.mark.parametrize("rule", [NINES, REDEAL])
def test_the_found_test_passes_on_the_reference_and_fails_without_the_claim(
        found: dict[str, dict[str, object]], rule: str) -> None:
    assert _run(ReferenceEngine(), found[rule]) == "pass"
    no_nines = Fault("no-four-nines", NINES, ("thousand",), "four nines claim nothing",
                     patch=lambda rules: replace(rules, throw_four=()))
    assert _run(FaultyEngine(no_nines), found[rule]) == "fail"


DUMP = "thousand.running.dump"


@pytest.mark.parametrize("value", ["positive", "both"])
def test_a_total_reset_to_0_at_555_is_found_and_tells_an_engine_without_it(value: str
                                                                          ) -> None:
    """The reset leaves no trace in the state after it (the total is 0), so the search
    names it from the totals before the hand and what the hand added: the stored test of
    it holds a conceding award of its own, which no other configuration shares."""
    config = make_configuration("thousand", [f"dump_at_555={value}"])
    tests, why = exercise_tests(config, [DUMP])
    assert why == {}
    test = tests[DUMP]
    assert 0 in test["steps"][-1]["state"]["match_scores"]
    assert _run(ReferenceEngine(), test) == "pass"
    no_dump = Fault("no-dump", DUMP, ("thousand",), "555 stays",
                    patch=lambda rules: replace(rules, dump_rule=None))
    assert _run(FaultyEngine(no_dump), test) == "fail"

    # named from the totals before the hand and what it added, not from any hand's end
    before = _before_last(test, config)
    totals = list(before.match_scores)
    last = test["steps"][-1]
    before.apply(parse_action(config.rules, last["act"]), last.get("seat"))
    assert dump_rules(totals, before) == {DUMP}
    assert dump_rules([t + 10 for t in totals], before) == set()


@pytest.mark.parametrize("ruleset", ["thousand", "thousand-2", "thousand-4"])
def test_the_barrel_at_or_past_the_target_is_unreachable(ruleset: str) -> None:
    """A barrel at 880 under a target of 850: a total reaching it has won first (the
    census had counted a won 880 as the barrel in Thousand, and left it unchecked in
    Thousand for two)."""
    from mariage import load_rules
    from mariage.conformance.coverage import unreachable_under

    barrel = "thousand.running.barrel"
    assert barrel in unreachable_under(load_rules(ruleset, {"target": 850}))
    assert barrel not in unreachable_under(load_rules(ruleset))
    # at the target itself only where a total at the target wins
    at = load_rules(ruleset, {"target": 880})
    assert barrel in unreachable_under(at)
    assert barrel not in unreachable_under(load_rules(ruleset, {"target": 880,
                                                                "win_rule": "more_than"}))
