"""The end of a hand, thirty-seventh session: the hand points' hand end keeps each side's
points in a local of its own (no list ``added`` made and read item by item)."""

from __future__ import annotations

import random

import pytest
from mariage import CallOut, GameState, load_rules
from mariage.engine.deals import canonical_deck

#: the rulesets whose hand is scored by its points as they are (``score_kind: points``)
POINTS = ["marianna", "marianna-3", "cinquecento", "mariaggia"]


@pytest.mark.parametrize("name", POINTS)
def test_the_hand_points_are_scored_from_locals(name: str) -> None:
    """The generated hand end of the points games makes no list of the hand's scores, and
    the record it appends and the match scores are those of the hand points."""
    rules = load_rules(name)
    state = GameState(rules, first_dealer=0)
    end_hand = state._appliers.end_hand
    assert end_hand.__code__.co_filename == f"<hand end of {rules.ruleset}>"
    assert "added" not in end_hand.__code__.co_varnames
    assert [f"a{t}" for t in range(len(rules.teams))] == \
        [v for v in end_hand.__code__.co_varnames if v.startswith("a") and v[1:].isdigit()]
    rng = random.Random(name)
    for _ in range(3):
        deck = canonical_deck(rules)
        rng.shuffle(deck)
        state.deal(deck)
        while state.to_act is not None:
            # (a call out ends the hand by its mechanism's own scoring)
            state.apply(rng.choice([a for a in state.legal_actions() if type(a) is not CallOut]))
        if state.terminal:
            break
    totals = [0] * len(rules.teams)
    for record in state.history:
        assert record.score == record.points and type(record.score) is tuple
        totals = [a + b for a, b in zip(totals, record.score, strict=True)]
    assert totals == state.match_scores
