"""The long match steered to its brink finds Belote's "belote alone" and the rounding of
Coinche's written scores deciding the match (issue #22)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from mariage import load_rules
from mariage.conformance.brink import _play_out, brink_hand, brink_rules
from mariage.conformance.configuration import make_configuration
from mariage.conformance.exercise import exercise_tests
from mariage.conformance.protocol import state_json
from mariage.conformance.ruleprobe import rounding_tells
from mariage.engine.actiontext import parse_action
from mariage.engine.prng import SplitMix64
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, Phase

RULE = "belote.match.belote-alone"


def _replay(rules: Rules, test: dict[str, Any]) -> GameState:
    start = test["start"]
    state = GameState(rules, first_dealer=start["dealer"])
    state.deal(list(start["deck"]), start.get("first_player"))
    for step in test["steps"]:
        if "deal" in step:
            state.deal(list(step["deal"]["deck"]), step["deal"].get("first_player"))
        else:
            state.apply(parse_action(rules, step["act"]))
    return state


@pytest.mark.parametrize("ruleset,options", [("belote", []), ("belote", ["target=10000"]),
                                             ("belote-coinche", []), ("belote-contree", [])])
def test_belote_alone_is_found_and_tells_an_engine_without_it(ruleset: str,
                                                              options: list[str]) -> None:
    config = make_configuration(ruleset, options)
    found, why = exercise_tests(config, [RULE])
    assert why == {} and RULE in found
    test = found[RULE]
    expected = test["steps"][-1]["state"]
    assert expected["phase"] == "deal" and expected["result"] is None
    assert max(expected["match_scores"]) >= config.rules.match_target
    # the reference ends at the expected state; an engine where the pair alone wins does not
    got = state_json(_replay(config.rules, test))
    assert {k: got[k] for k in expected} == expected
    lax = state_json(_replay(replace(config.rules, pair_alone_cannot_win=False), test))
    assert lax["phase"] == "over" and lax["result"]["reason"] == "target"


def test_a_steered_hand_is_a_hand_of_the_reference() -> None:
    rules = load_rules("belote")
    state = GameState(rules, first_dealer=1)
    hand = brink_hand(state, SplitMix64(7), brink_rules(rules))
    assert hand is not None
    deal, actions = hand
    assert sorted(deal["deck"]) == sorted(rules.card_code[c] for c in range(rules.ncards))
    state.deal(list(deal["deck"]), deal["first_player"])
    for text in actions:
        assert state.phase not in (Phase.DEAL, Phase.OVER)
        state.apply(parse_action(rules, text))
    assert state.phase in (Phase.DEAL, Phase.OVER)  # the hand ended with its last action


def test_no_brink_rules_where_the_pair_alone_may_win() -> None:
    assert brink_rules(load_rules("marianna")) == set()
    assert brink_rules(load_rules("thousand")) == set()
    assert brink_rules(load_rules("belote")) == {RULE}
    assert brink_rules(load_rules("belote-coinche")) == {RULE, ROUNDED}
    assert brink_rules(load_rules("belote-coinche", {"rounding": "none"})) == {RULE}


ROUNDED = "belote-coinche.match.rounded-totals"


@pytest.mark.parametrize("ruleset,options", [
    ("belote-coinche", []), ("belote-coinche", ["rounding_decides_game=false"]),
    ("belote-contree", []), ("belote-contree", ["rounding_decides_game=false"])])
def test_rounding_that_decides_is_found_and_tells_an_engine_judging_otherwise(
        ruleset: str, options: list[str]) -> None:
    config = make_configuration(ruleset, options)
    found, why = exercise_tests(config, [ROUNDED])
    assert why == {} and ROUNDED in found
    test = found[ROUNDED]
    expected = test["steps"][-1]["state"]
    rules = config.rules
    state = _replay(rules, test)
    assert rounding_tells(state)  # the written and the exact totals judge otherwise
    got = state_json(state)
    assert {k: got[k] for k in expected} == expected
    # an engine judging on the other totals ends the match otherwise, or names another winner
    other = state_json(_replay(replace(rules, round_decides_game=not rules.round_decides_game),
                               test))
    assert (other["phase"], other["result"]) != (got["phase"], got["result"])


def _capots(style: int, seed: int, hands: int = 300) -> int:
    """Hands of Belote contrée played out by the brink's ``style`` in which a side took
    no trick."""
    rules, rng, capots = load_rules("belote-contree"), SplitMix64(seed), 0
    for k in range(hands):
        state = GameState(rules, first_dealer=k % 4)
        cards = list(range(rules.ncards))
        rng.shuffle(cards)
        state.deal([rules.card_code[c] for c in cards])
        if _play_out(state, rng, style) is not None and state.hand_over_reason == "played_out":
            capots += 0 in state.tricks_won
    return capots


def test_lopsided_hands_end_in_a_capot_more_often_than_random_ones() -> None:
    # measured: 40 lopsided against 14-18 in the random styles; with the defenders
    # fighting for the trick instead of giving it away, 30
    lopsided = sum(_capots(3, seed) for seed in (5, 6))
    random_play = max(sum(_capots(style, seed) for seed in (5, 6)) for style in (0, 1, 2))
    assert lopsided >= 2 * random_play
