"""The end of a hand, thirty-seventh session: the hand end of the hand points and of the
excess keeps each side's score in a local of its own (no list ``added`` made and read
item by item), a score without a hand's winner keeps no ``won``, and a trick's opening
tests the stock once."""

from __future__ import annotations

import dis
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


@pytest.mark.parametrize("name", ["mariglia", "marjapussi"])
def test_a_score_without_a_winner_keeps_no_winner(name: str) -> None:
    """The excess (Mariglia) and the table (Marjapussi) have no hand's winner: their hand
    end neither keeps a local ``won`` nor counts one; the excess is in locals, as the hand
    points are, and the record's tricks are read from the local of the tricks won."""
    rules = load_rules(name)
    code = GameState(rules, first_dealer=0)._appliers.end_hand.__code__
    assert "won" not in code.co_varnames and "segni" not in code.co_names
    if rules.score_kind == "excess":
        assert "added" not in code.co_varnames and {"a0", "a1", "wins"} <= set(code.co_varnames)


@pytest.mark.parametrize("name", ["schnapsen", "sixty-six", "sixty-six-4"])
def test_the_game_points_of_two_sides_are_in_locals(name: str) -> None:
    """The talon games of two sides (no seat out scoring) leave a hand's game points in
    ``a0`` and ``a1``: the hand end makes no list but the trick's two empty ones."""
    code = GameState(load_rules(name), first_dealer=0)._appliers.end_hand.__code__
    assert {"a0", "a1"} <= set(code.co_varnames)
    assert [i.arg for i in dis.get_instructions(code) if i.opname == "BUILD_LIST"] == [0, 0]


@pytest.mark.parametrize("name", ["marianna", "schnapsen"])
def test_a_tricks_opening_tests_the_stock_once(name: str) -> None:
    """The opening of a trick (the next one in the card play, the first in the deal)
    reads ``draw_tricks`` once for the duty and the declarations' window (Marianna), and
    opens an always open window without a local (Schnapsen)."""
    state = GameState(load_rules(name), first_dealer=0)
    table = state._appliers
    for fn in (table.start_trick, table.apply_play, state._deals[0]):
        code = fn.__code__
        reads = [i for i in dis.get_instructions(code)
                 if i.opname == "LOAD_ATTR" and i.argval == "draw_tricks"]
        assert len(reads) == 1, code.co_filename
        assert ("window_open" in code.co_varnames) == (name == "marianna")
