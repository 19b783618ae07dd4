"""The Belote family's litige and belote alone, which the census found unchecked under
single house rules (issue #22, seventeenth session): hands chosen for a litige
(:mod:`mariage.conformance.litige`), its argument of unreachability where the takers need
only reach their bid (:func:`mariage.conformance.unreachable.litige_unreachable`), and
hands for the pair alone whose trump the auction names to fit it
(``pairalone.pair_alone_hand(..., suited=True)``)."""

from __future__ import annotations

from typing import Any

from mariage import load_rules
from mariage.conformance.brink import BRINK_MATCHES, brink_rules, steered_rules
from mariage.conformance.configuration import make_configuration
from mariage.conformance.coverage import unreachable_under
from mariage.conformance.exercise import (
    LONG_MATCH_STEPS,
    PAIR_ALONE_MATCHES,
    _walk,
    between_hands_rules,
)
from mariage.conformance.litige import litige_hand, litige_rules
from mariage.conformance.pairalone import pair_alone_hand
from mariage.conformance.ruleprobe import ending_rules
from mariage.engine.actiontext import parse_action
from mariage.engine.prng import SplitMix64
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, Phase
from test_conformance_brink import _replay

LITIGE = "belote.score.litige"


def _played(rules: Rules, deal: dict[str, Any], actions: list[str]) -> GameState:
    state = GameState(rules, first_dealer=0)
    state.deal(list(deal["deck"]), deal["first_player"])
    for text in actions:
        state.apply(parse_action(rules, text))
    return state


def test_a_hand_chosen_for_a_litige_under_a_lowest_bid_of_160() -> None:
    """Under ``bid_min=160`` equal totals reach the bid only with 150 points or more of
    announcements and the pair: the hand found ends tied at 160 or over. Fails where
    the deals are not chosen by the announcements held or the trump by the pair's holder
    (no deal of the first seeds is found), or where the search of the last tricks is
    dropped."""
    rules = load_rules("belote-coinche", {"bid_min": 160})
    state = GameState(rules, first_dealer=0)
    hands = [litige_hand(state, SplitMix64(seed), {LITIGE}) for seed in range(1, 6)]
    assert any(hands)
    for hand in hands:
        if hand is None:
            continue
        played = _played(rules, *hand)
        assert played.phase in (Phase.DEAL, Phase.OVER)
        assert played.deal_outcome == "tied" and played.contract == 160
        mine, theirs = played.mech.takers.compared(played)
        assert mine == theirs >= 160
        assert played.announced  # only announcements lift the totals that high


def test_the_litige_matches_find_it_under_bid_min_160() -> None:
    """The match of hands chosen for a litige (``exercise._walk(..., litige=True)``)
    finds its test; without the hands chosen for it (``litige=False``: the rare ends'
    candidates of before) the same match does not. The test found replays on the
    reference to the litige: the takers' total held over."""
    config = make_configuration("belote-coinche", ["bid_min=160"])
    rules = config.rules
    rare = frozenset(steered_rules(rules) - {rules.pair_alone_rule, rules.round_game_rule}
                     | between_hands_rules(rules))
    seed = BRINK_MATCHES + 1
    for steered in (False, True):
        found: dict[str, dict[str, Any]] = {}
        _walk(config, seed, {LITIGE}, found, max_steps=LONG_MATCH_STEPS, probe=False,
              steer=rare, litige=steered)
        assert (LITIGE in found) == steered
    test = found[LITIGE]
    assert test["steps"][-1]["rules"] == [LITIGE]
    state = _replay(rules, test)
    assert state.deal_outcome == "tied" and state.pot > 0


def test_litige_unreachable_where_the_takers_need_only_their_bid() -> None:
    """Belote contrée (``must_beat_defence=false``): a hand with equal totals, found
    where they are a litige (``must_beat_defence=true``), played again under the
    defaults is made, not held over; so the rule is listed unreachable there, and no
    hand is chosen for it."""
    beat = load_rules("belote-contree", {"must_beat_defence": True})
    state = GameState(beat, first_dealer=0)
    hand = litige_hand(state, SplitMix64(1), {LITIGE})
    assert hand is not None
    assert _played(beat, *hand).deal_outcome == "tied"
    rules = load_rules("belote-contree")
    again = _played(rules, *hand)
    mine, theirs = again.mech.takers.compared(again)
    assert mine == theirs >= again.contract > 0
    assert again.deal_outcome == "made"
    assert LITIGE in unreachable_under(rules) and LITIGE not in unreachable_under(beat)
    assert litige_rules(rules) == set() and litige_rules(beat) == {LITIGE}
    assert litige_hand(GameState(rules, first_dealer=0), SplitMix64(1), {LITIGE}) is None


ALONE = "belote.match.belote-alone"


def test_a_suited_auction_finds_the_pair_alone_where_the_first_suit_did_not() -> None:
    """Contrée a side 5 below the target: with the trump named by the auction where that
    side's seat holds the pair and the other side 5 trumps (``suited=True``), hands for
    the pair alone are found from seeds where the lowest bid in the first suit finds
    none (``suited=False``: no seed of 1-5). Fails where ``_fitting`` or
    ``_suited_bid`` is dropped."""
    for options in ({}, {"coinche_timing": "any_time"}, {"bid_max": 80}):
        rules = load_rules("belote-contree", options)
        state = GameState(rules, first_dealer=0)
        state.match_scores = [rules.match_target - 5, 100]
        plain = [pair_alone_hand(state, SplitMix64(seed), {ALONE}) for seed in range(1, 6)]
        suited = [pair_alone_hand(state, SplitMix64(seed), {ALONE}, suited=True)
                  for seed in range(1, 6)]
        assert not any(plain) and sum(h is not None for h in suited) >= 2
        for hand in suited:
            if hand is not None:
                assert ALONE in ending_rules(_played_from(state, *hand), True)


def _played_from(state: GameState, deal: dict[str, Any], actions: list[str]) -> GameState:
    trial = state.clone()
    trial.deal(list(deal["deck"]), deal["first_player"])
    for text in actions:
        trial.apply(parse_action(state.rules, text))
    return trial


def test_the_suited_matches_find_the_pair_alone_under_any_time_doubling() -> None:
    """``belote-contree coinche_timing=any_time`` (unchecked in the census before): the
    first suited match (``exercise.SUITED_MATCHES``) finds the belote alone; the same
    match without ``suited`` does not. Its test replays on the reference to a side at
    the target that has not won."""
    config = make_configuration("belote-contree", ["coinche_timing=any_time"])
    rules = config.rules
    seed = BRINK_MATCHES + PAIR_ALONE_MATCHES + 1
    for suited in (False, True):
        found: dict[str, dict[str, Any]] = {}
        _walk(config, seed, {ALONE}, found, max_steps=LONG_MATCH_STEPS, probe=False,
              steer=frozenset(brink_rules(rules)), suited=suited)
        assert (ALONE in found) == suited
    state = _replay(rules, found[ALONE])
    assert state.phase == Phase.DEAL and max(state.match_scores) >= rules.match_target
