"""The long match steered to its brink finds Belote's "belote alone" and the rounding of
Coinche's written scores deciding the match (issue #22); and the rules the census found
unchecked under single house rules, now exercised by the search or argued unreachable
(fifteenth session): a contract failed (dedans) or tied (litige), the announcements
shown, the suit auction's end, a capot bid, the first dealer the rules fix, a deal
refused between hands where every scored hand ends the match, the pair alone where the
target is too low to stop at, one declaration a trick in a window at the trick's start."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from mariage import load_rules
from mariage.conformance.brink import _play_out, brink_hand, brink_rules, steered_rules
from mariage.conformance.configuration import make_configuration
from mariage.conformance.coverage import unreachable_under
from mariage.conformance.exercise import exercise_tests
from mariage.conformance.protocol import state_json
from mariage.conformance.ruleprobe import announcements_tie, offer_rules, rounding_tells
from mariage.engine.actions import SuitBid
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


def _expected_after(rules: Rules, test: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    expected = test["steps"][-1]["state"]
    got = state_json(_replay(rules, test))
    return expected, {k: got[k] for k in expected}


@pytest.mark.parametrize("ruleset,options", [
    ("belote-coinche", ["coinche_deal_packets=4-4"]),
    ("belote-coinche", ["coinche_deal_packets=2-3-3"]),  # its census row, in rulecover once
    ("belote-contree", ["undertrump=required"]),
])
def test_a_failed_contract_is_found_and_tells_an_engine_scoring_it_otherwise(
        ruleset: str, options: list[str]) -> None:
    config = make_configuration(ruleset, options)
    rule = "belote.score.dedans"
    found, why = exercise_tests(config, [rule])
    assert why == {}
    test = found[rule]
    assert test["rules"] == [rule]
    expected, got = _expected_after(config.rules, test)
    assert got == expected
    _, other = _expected_after(replace(config.rules, bid_failed_base=0), test)
    assert other["match_scores"] != expected["match_scores"]


def test_a_litige_and_the_shown_announcements_are_found() -> None:
    config = make_configuration("belote-coinche", ["coinche_deal_packets=2-3-3"])
    wanted = ["belote.score.litige", "belote.announce.show", "belote-coinche.auction"]
    found, why = exercise_tests(config, wanted)
    assert why == {} and sorted(found) == sorted(wanted)
    litige = found["belote.score.litige"]
    expected, got = _expected_after(config.rules, litige)
    assert got == expected and _replay(config.rules, litige).pot > 0


@pytest.mark.parametrize("seat", [0, 1, 3])
def test_the_first_dealer_the_rules_fix_is_found(seat: int) -> None:
    config = make_configuration("belote", [f"first_dealer=seat{seat}"])
    rule = "belote.deal.first-dealer"
    found, why = exercise_tests(config, [rule])
    assert why == {}
    test = found[rule]
    assert test["start"]["dealer"] == seat and test["initial"]["dealer"] == seat


def test_a_capot_bid_is_offered_under_its_own_rule() -> None:
    rules = load_rules("belote-coinche")
    state = GameState(rules, first_dealer=0)
    state.deal(list(rules.card_code))
    capot, plain = SuitBid(rules.sa_capot_value, 0), SuitBid(rules.sa_min, 0)
    assert capot in state.legal_actions()
    assert offer_rules(state, capot) == ("belote-coinche.auction.bids",
                                         "belote-coinche.auction.capot")
    assert offer_rules(state, plain) == ("belote-coinche.auction.bids",)


def test_equal_best_announcements_of_two_sides_are_a_tie() -> None:
    rules = load_rules("belote")
    state = GameState(rules, first_dealer=0)
    tierce = next(c.index for c in rules.combos if c.length == 3 and not c.same_rank)
    top = [rules.card_index[code] for code in ("AS", "AH", "KS")]
    # (seat, combo, top card, mask): a tierce to the ace for each side, then for one side
    state.announced = [(0, tierce, top[0], 0), (1, tierce, top[1], 0)]
    assert announcements_tie(state)
    state.announced = [(0, tierce, top[0], 0), (1, tierce, top[2], 0)]
    assert not announcements_tie(state)
    assert "belote.announce.tie" in steered_rules(rules)


def test_the_pair_alone_is_unreachable_only_under_a_target_too_low() -> None:
    rule = "belote.match.belote-alone"
    for ruleset in ("belote", "belote-coinche", "belote-contree"):
        assert rule in unreachable_under(load_rules(ruleset, {"target": 1}))
        assert rule not in unreachable_under(load_rules(ruleset))
    assert rule not in unreachable_under(load_rules("belote", {"target": 101}))


def test_one_declaration_a_trick_is_unreachable_only_in_a_window_at_the_trick_start() -> None:
    rule = "marianna.decl.per-trick"
    rules = load_rules("marianna", {"declare_when": "trick_start"})
    assert rule in unreachable_under(rules)
    assert rule not in unreachable_under(load_rules("marianna"))
    assert rule not in unreachable_under(load_rules(  # an ask uses the declaration up:
        "marianna-siciliana", {"declare_when": "trick_start"}))  # the limit refuses it there
    # every declaration tried at every step of seeded matches: never refused by the limit
    from mariage import new_match
    from mariage.conformance.ruleprobe import refusals
    from mariage.engine.actions import Declare
    from mariage.engine.prng import SplitMix64
    from mariage.engine.state import Phase
    every = [Declare(d, suit) for d in range(len(rules.declarations))
             for suit in range(len(rules.suits))]
    windows = 0
    for seed in (1, 2, 3):
        state, rng = new_match(rules, seed=seed), SplitMix64(seed)
        for _ in range(400):
            if state.phase in (Phase.DEAL, Phase.OVER):
                break
            windows += state.phase == Phase.WINDOW
            assert rule not in refusals(state, every)
            acts = state.legal_actions()
            state.apply(acts[rng.below(len(acts))])
    assert windows > 0


@pytest.mark.parametrize("ruleset", ["belote", "belote-coinche"])
def test_a_deal_between_hands_is_reached_where_every_scored_hand_ends_the_match(
        ruleset: str) -> None:
    config = make_configuration(ruleset, ["target=1"])
    found, why = exercise_tests(config, ["core.deal"])
    assert why == {}
    test = found["core.deal"]
    assert test["steps"][-1]["error"] == {"code": "illegal_action", "rule": "core.deal"}
    assert all(step.get("act") == "pass" for step in test["steps"][:-1])  # all passed
    state = _replay(config.rules, {**test, "steps": test["steps"][:-1]})
    assert state.phase == Phase.DEAL and state.match_scores == [0, 0]


def test_rounding_is_unreachable_where_the_first_hand_scored_ends_the_match() -> None:
    rule = "belote-coinche.match.rounded-totals"
    for ruleset in ("belote-coinche", "belote-contree"):
        assert rule in unreachable_under(load_rules(ruleset, {"target": 1}))
        assert rule not in unreachable_under(load_rules(ruleset))
    assert rule not in unreachable_under(load_rules(
        "belote-coinche", {"target": 1, "coinche_score_mode": "made_only"}))
    # seeded random matches under target=1: one hand scored, rounding never tells
    rules, rng = load_rules("belote-coinche", {"target": 1}), SplitMix64(9)
    for _ in range(200):
        state = GameState(rules, first_dealer=0)
        while state.phase != Phase.OVER:
            if state.phase == Phase.DEAL:
                cards = list(range(rules.ncards))
                rng.shuffle(cards)
                state.deal([rules.card_code[c] for c in cards])
                continue
            acts = state.legal_actions()
            state.apply(acts[rng.below(len(acts))])
        assert not rounding_tells(state)
