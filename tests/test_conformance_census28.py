"""The three single-option gaps of the derived suites closed in the twenty-eighth session.

``thousand redeal_weak_prikup=1`` (47 of 48): the throw-in on a weak talon needs a talon
worth 0 points (three nines), which no seeded deal, stored deal or built hand brought;
:func:`~mariage.conformance.builthands.built_hand` now builds such deals from the claim's
threshold (:func:`~mariage.conformance.builthands.claim_rules`). ``belote-contree
target=666``: the steered matches climbed to 650 against 620, where the side taking every
trick against the pair alone reaches the target too; matches steered with room below the
target for the other side (:func:`~mariage.conformance.pairalone.pair_room`) follow.
``belote-coinche deal_limit=3``: a side held back by its pair alone at the target counts
in the last deal too, where the match ends by its limit (the held side, highest, would
have won at the target: ``ruleprobe._held_back``). ``belote-coinche deal_limit=1``: the
rounded totals are argued unreachable (one deal, whose lines written to the point never
come near the target: :func:`~mariage.conformance.coverage.most_exact_line`).
"""

from __future__ import annotations

import pytest
from mariage import GameState, load_rules
from mariage.conformance.brink import _lead
from mariage.conformance.builthands import built_hand, built_rules
from mariage.conformance.coverage import unreachable_under
from mariage.conformance.pairalone import pair_alone_hand, pair_room
from mariage.conformance.ruleprobe import ending_rules
from mariage.engine.actiontext import parse_action
from mariage.engine.outcomes import MatchResult
from mariage.engine.prng import SplitMix64
from mariage.engine.state import Phase

WEAK = "thousand.throw-in.weak-talon"
ALONE = "belote.match.belote-alone"
ROUNDED = "belote-coinche.match.rounded-totals"


@pytest.mark.parametrize("seed", [1, 2])
def test_a_hand_is_built_for_the_throw_in_on_a_talon_worth_nothing(seed: int) -> None:
    """Fails without the change: the claim was not among the built hands' rules."""
    rules = load_rules("thousand", {"redeal_weak_prikup": 1})
    assert WEAK in built_rules(rules)
    state = GameState(rules, first_dealer=0)
    built = built_hand(state, SplitMix64(seed), {WEAK})
    assert built is not None
    deal, actions = built
    state.deal(list(deal["deck"]), deal.get("first_player"))
    *before, last = actions
    for text in before:
        state.apply(parse_action(rules, text))
    talon = rules.cards_of(state.talon)
    assert len(talon) == 3 and sum(rules.points[c] for c in talon) == 0
    assert state.mech.talon.throw_in_claim(state, state.to_act) == WEAK
    state.apply(parse_action(rules, last))  # the claim taken: the hand thrown in
    assert state.hand_over_reason == "redeal"


def test_no_hand_is_built_for_a_threshold_nothing_falls_below() -> None:
    assert WEAK not in built_rules(load_rules("thousand"))  # 0: never


def test_the_rounded_totals_are_unreachable_in_a_match_of_one_deal() -> None:
    """Fails without the change (the rule was counted, and unchecked: 44 of 45)."""
    assert ROUNDED in unreachable_under(load_rules("belote-coinche", {"deal_limit": 1}))
    near = load_rules("belote-coinche", {"deal_limit": 1, "target": 1500})
    assert ROUNDED not in unreachable_under(near)  # a line may come near that target
    assert ROUNDED not in unreachable_under(load_rules("belote-coinche", {"deal_limit": 2}))


def test_a_side_held_back_in_the_last_deal_names_the_pair_alone() -> None:
    """Fails without the change: a match over by its limit of deals named nothing."""
    rules = load_rules("belote-coinche", {"deal_limit": 3})
    state = GameState(rules, first_dealer=0)
    state.match_scores[:] = [2000, 300]
    state.no_win = 1
    state.phase = Phase.OVER
    state.result = MatchResult(0, "hands", (2000, 300))  # the highest, by the limit
    assert ALONE in ending_rules(state, True)
    state.match_scores[:] = [2000, 2100]  # the other side has more: alike either way
    state.result = MatchResult(1, "hands", (2000, 2100))
    assert ALONE not in ending_rules(state, True)


def test_the_pair_alone_is_steered_with_room_for_the_other_side() -> None:
    """Fails without the change: no room was asked (650 against 620 counted as a brink)."""
    rules = load_rules("belote-contree", {"target": 666})
    room = pair_room(rules)
    assert room >= rules.bid_capot_base
    assert _lead([650, 620], 666, rules.pair_value) == (True, 30)
    assert _lead([650, 620], 666, rules.pair_value, room)[0] is False
    assert _lead([650, 300], 666, rules.pair_value, room)[0] is True
    state = GameState(rules, first_dealer=0)
    state.match_scores[:] = [650, 620]
    assert pair_alone_hand(state, SplitMix64(1), {ALONE}, True, room) is None
