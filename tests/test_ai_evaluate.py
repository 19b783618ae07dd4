"""Paired-deal evaluation of policies: who is measured, in which seat, against whom."""

from __future__ import annotations

from mariage.ai.evaluate import evaluate, play_hand
from mariage.ai.policies import make_policy
from mariage.engine.deals import SeededDeals
from mariage.engine.state import GameState
from mariage.spec.rulesload import load_rules


def test_two_sides_give_two_hands_per_deal() -> None:
    e = evaluate("schnapsen", "greedy", "first", deals=5, seed=2)
    assert e.games == 10


def test_with_three_sides_the_policy_takes_each_seat_in_turn() -> None:
    e = evaluate("marianna-3", "greedy", "first", deals=4, seed=1)
    assert e.games == 12


def test_a_hand_the_policy_sits_out_is_not_counted() -> None:
    rules = load_rules("sixty-six-3")
    deals = 10
    e = evaluate("sixty-six-3", "greedy", "first", deals=deals, seed=1)
    assert e.games == 2 * deals  # three sides, one sitting out each hand
    # the seat sitting out shares the winner's score: counted, it would draw or lose
    # whatever it did; measured only where it plays, greedy never draws against first
    assert e.draws == 0 and e.wins > e.losses
    for seed in range(1, deals + 1):
        source = SeededDeals(rules, seed)
        state = GameState(rules, first_dealer=source.first_dealer)
        state.deal(*source.next_deal())
        assert len(state.sides_in_hand()) == 2


def test_play_hand_values_each_side_by_score_then_points() -> None:
    rules = load_rules("schnapsen")
    players = [make_policy("first", seed=s) for s in range(rules.nseats)]
    values = play_hand("schnapsen", 4, players)
    assert len(values) == 2 and max(values) >= 10000  # the winner scored game points
