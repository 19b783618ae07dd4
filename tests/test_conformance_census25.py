"""The census's gap of Thousand's exact target closed in the twenty-fifth session.

The offset-0 sample of the Thousand family, run again on the twenty-fourth session's
code, showed ``thousand win_rule=exactly`` at 44 of 47: the match's end, its tie and the
running totals' win unchecked. The rules are reachable (a total of 880 on the barrel
wins by a made contract of exactly 120), but the matches built to climb to the end
(:func:`~mariage.conformance.climb.climb_hand`) bid either the lowest bid or the
highest the deal makes: from the barrel the first leaves the total on it, the second
passes the target and leaves it unchanged, so such a match never ended. A deal is now
also tried bidding exactly what the target still needs
(``climb._exact_aim``). The other rulesets of the family had reached the end by
chance (the keen matches' lowest bid that reaches the target is exactly 120 from the
barrel).
"""

from __future__ import annotations

import pytest
from mariage import GameState, load_rules
from mariage.conformance.climb import climb_hand
from mariage.conformance.configuration import make_configuration
from mariage.conformance.exercise import exercise_tests, match_end_rules
from mariage.engine.actiontext import parse_action
from mariage.engine.prng import SplitMix64
from mariage.engine.state import Phase

RULESETS = ["thousand", "thousand-2", "thousand-4", "thousand-pl"]
END = "thousand.match.end"


def _climb(ruleset: str, first: int, seed: int, hands: int) -> GameState:
    """A match under ``win_rule=exactly`` from a total of ``first`` for the first seat's
    side (the others at 0), each hand built by
    :func:`climb_hand` and played on the reference, for at most ``hands`` hands."""
    rules = load_rules(ruleset, {"win_rule": "exactly"})
    state = GameState(rules, first_dealer=0)
    state.match_scores[0] = first
    rng = SplitMix64(seed)
    for _ in range(hands):
        built = climb_hand(state, rng, {END})
        assert built is not None
        deal, actions = built
        state.deal(list(deal["deck"]), deal.get("first_player"))
        for text in actions:
            state.apply(parse_action(rules, text))
        if state.phase == Phase.OVER:
            break
    return state


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_climb_from_the_barrel_lands_on_the_target(ruleset: str, seed: int) -> None:
    """Fails without the change: from the barrel the climber's total stayed at 880 for
    every one of 15 hands (lowest bid: back on the barrel; highest: past the target)."""
    rules = load_rules(ruleset, {"win_rule": "exactly"})
    state = _climb(ruleset, rules.barrel_at, seed, 3)
    assert state.phase == Phase.OVER
    assert max(state.match_scores) == rules.match_target == 1000


def test_a_climb_from_nothing_ends_the_match() -> None:
    """The whole climb of Thousand for three, from 0: within a handful of hands."""
    state = _climb("thousand", 0, 1, 8)
    assert state.phase == Phase.OVER and state.match_scores[0] == 1000


@pytest.mark.slow
def test_the_search_checks_the_match_end_under_an_exact_target() -> None:
    """The rules the census row left unchecked (44 of 47), and the rest of the match's
    end, each found by the search for them alone (about 9 CPU s; the whole census row, 20
    CPU s more, is left to the census of the family at its defaults in
    ``tests/test_conformance_rulecover.py``)."""
    config = make_configuration("thousand", ["win_rule=exactly"])
    wanted = sorted(match_end_rules(config.rules))
    assert {END, "thousand.match.tie", "thousand.running.win"} <= set(wanted)
    found, why = exercise_tests(config, wanted)
    assert why == {} and sorted(found) == wanted
    end = found[END]["steps"][-1]["state"]
    assert end["phase"] == "over" and config.rules.match_target in end["match_scores"]
