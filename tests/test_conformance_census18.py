"""The census's search takes what a seat not to act may take at any moment (eighteenth
session): in Thousand's golden round with its lowest bid at 120, the stored four-nines
scenario's bid of 100 is refused, so only the search's own play can reach the claim of
four nines, which the holder makes out of turn, and the hand dealt again after it."""

from __future__ import annotations

from dataclasses import replace

import pytest
from mariage.conformance.client import EngineClient, ThreadTransport
from mariage.conformance.configuration import make_configuration
from mariage.conformance.engine import ReferenceEngine
from mariage.conformance.exercise import aside_rules, exercise_tests
from mariage.conformance.faultkit import Fault
from mariage.conformance.faulty import FaultyEngine
from mariage.conformance.generate import render_test
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


def _before_last(test: dict[str, object]) -> GameState:
    """The reference's state before the test's last step."""
    config = make_configuration(*CONFIG)
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
