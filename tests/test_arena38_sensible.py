"""The random player's sensible actions of a long listing (an auction's ladder), kept
by its objects: what is kept is what would be worked out again, under the same rules
and the same ``cautious_bids``, and each caller gets a list of its own."""

from __future__ import annotations

import random

import pytest
from mariage import Bid, GameState, load_rules, new_match
from mariage.arena import plainbots
from mariage.arena.plainbots import sensible_actions


def _fresh(state: object, cautious: bool) -> list[object]:
    """``sensible_actions`` worked out with nothing kept."""
    plainbots._kept.clear()
    return list(sensible_actions(state, cautious))  # type: ignore[arg-type]


@pytest.mark.parametrize("ruleset", ["thousand", "thousand-2", "thousand-4", "thousand-pl",
                                     "marjapussi-de", "belote-coinche"])
def test_kept_sensible_actions_are_those_worked_out(ruleset: str) -> None:
    """Through random matches, each state's sensible actions (both ways of bidding,
    asked in turn so that a listing kept one way is asked the other) equal those
    worked out afresh."""
    rules = load_rules(ruleset)
    rng = random.Random(ruleset)
    long_seen = 0
    for seed in range(6):
        state = new_match(rules, seed)
        plainbots._kept.clear()
        while not state.terminal and state.hand_no <= 2:
            listed = state.legal_actions()
            long_seen += len(listed) > plainbots._KEPT_FROM
            for cautious in (rng.random() < 0.5, True, False, True):
                kept = list(sensible_actions(state, cautious))
                again = list(sensible_actions(state, cautious))
                copy = state.clone()
                assert kept == again == _fresh(copy, cautious), (seed, cautious, listed)
            state.apply(rng.choice(list(sensible_actions(state))))
    assert long_seen > 0  # (a long listing was met: the kept path ran)


def _at_a_ladder() -> GameState:
    """A Thousand match where the seat to act is listed a long ladder of bids."""
    state = new_match(load_rules("thousand"), 3)
    rng = random.Random(3)
    while True:
        listed = state.legal_actions()
        if type(listed) is list and len(listed) > plainbots._KEPT_FROM \
                and any(type(a) is Bid for a in listed):
            return state
        state.apply(rng.choice(list(sensible_actions(state))))


def test_each_caller_gets_a_list_of_its_own() -> None:
    """A caller that changes the list it was given changes nothing kept."""
    state = _at_a_ladder()
    plainbots._kept.clear()
    want = list(sensible_actions(state))
    assert plainbots._kept, "a long auction listing is kept"
    for _ in range(2):  # (given from what was kept, twice)
        given = sensible_actions(state)
        assert list(given) == want
        given.clear()  # type: ignore[attr-defined]
    assert list(sensible_actions(state)) == want


def test_a_kept_listing_is_not_used_under_other_rules() -> None:
    """What was kept under one ruleset's rules is not answered under another's, even
    for the very same objects listed."""
    state = _at_a_ladder()
    plainbots._kept.clear()
    sensible_actions(state)
    (key, (objects, left, rules)), = plainbots._kept.items()
    plainbots._kept[key] = (objects, [objects[0]], rules)  # (what the other rules kept)
    other = state.clone()
    other.rules = load_rules("thousand", {"target": 1200})  # (a distinct Rules)
    assert other.rules is not rules
    assert list(sensible_actions(other)) == left
