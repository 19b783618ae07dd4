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


def test_an_agent_of_ones_own_is_measured_by_its_factory_or_itself() -> None:
    """A factory (rules in, policy out: what the agent engine's ``--agent`` loads) is
    called once and its policy plays every seat of its side; a policy object plays as
    it is; the result names each after its ``name``; anything else is refused."""
    import pytest

    made = []

    def factory(rules: object) -> object:
        made.append(rules)
        return make_policy("greedy", seed=3)

    by_factory = evaluate("schnapsen", factory, "first", deals=3, seed=2)
    by_name = evaluate("schnapsen", "greedy", "first", deals=3, seed=2)
    assert len(made) == 1 and by_factory.a == "greedy" and by_factory.games == 6
    # greedy's choices on a determinization hardly turn on its seed: the same hands won
    assert by_factory.wins == by_name.wins
    first = make_policy("first")
    mirror = evaluate("schnapsen", first, "first", deals=2)  # the same play on both sides:
    assert (mirror.a, mirror.wins, mirror.losses) == ("first", 2, 2)  # each deal split
    with pytest.raises(TypeError, match="choose"):
        evaluate("schnapsen", lambda rules: 42, "first", deals=1)
    with pytest.raises(TypeError, match="a policy is a name"):
        evaluate("schnapsen", 42, "first", deals=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown policy"):
        evaluate("schnapsen", factory, "grandmaster", deals=1)
