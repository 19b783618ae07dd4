"""A card placed at an OpenSpiel chance node from Python (the state's own path, which
takes the card out of those left by one call): what is no card left is refused as before,
by the state or by pyspiel, with the deal and the history unchanged; the cards dealt and
the outcomes after each are those of the cards not yet placed."""

from __future__ import annotations

import random
from itertools import repeat

import pyspiel
import pytest
from mariage import load_rules
from mariage.ai import openspiel_game
from mariage.ai.spieldeal import stock_positions

#: what is applied at a card's chance node once card 5 is dealt, and how it is answered
#: (an exception's type; None: pyspiel takes it as the action id 1)
_BAD = [(5, ValueError), ("past", ValueError), (-1, pyspiel.SpielError),
        (2**70, TypeError), (3.0, TypeError), ("3", TypeError), (None, TypeError),
        (True, None)]


def _at_cards(name: str) -> pyspiel.State:
    game = pyspiel.load_game(openspiel_game.game_name(name))
    state = game.new_initial_state()
    while state._kind != "card":
        state.apply_action(state.chance_outcomes()[0][0])
    return state


@pytest.mark.parametrize("name", ["mariaggia", "schnapsen", "thousand"])
@pytest.mark.parametrize(("bad", "error"), _BAD)
def test_what_is_no_card_left_is_refused_and_changes_nothing(
        name: str, bad: object, error: type[Exception] | None) -> None:
    state = _at_cards(name)
    state.apply_action(5)
    if bad == "past":
        bad = load_rules(name).ncards
    before = (list(state.deck), list(state.rest), state.history())
    if error is None:  # (a bool: pyspiel's conversion, as the action id 1)
        state.apply_action(bad)
        assert state.deck == [5, 1] and state.history()[-1] == 1
        return
    with pytest.raises(error):
        state.apply_action(bad)
    assert (list(state.deck), list(state.rest), state.history()) == before
    state.apply_action(state.chance_outcomes()[0][0])  # (the deal goes on)
    assert state.deck == [5, 0]


@pytest.mark.parametrize("name", ["mariaggia", "sixty-six", "belote"])
def test_each_card_dealt_leaves_the_outcomes_of_the_cards_not_yet_placed(name: str) -> None:
    state = _at_cards(name)
    rules = load_rules(name)
    ncards = rules.ncards
    # (a stock drawn after the tricks is placed when drawn: mariaggia and sixty-six deal
    # the hands and the turned-up card, the cards left stay unplaced; fortieth session)
    ndeal = ncards - len(stock_positions(rules))
    rng = random.Random(3)
    for dealt in range(ndeal):
        cards = sorted(set(range(ncards)) - set(state.deck))
        assert len(cards) == ncards - dealt and state.rest == cards
        outs = state.chance_outcomes()
        assert outs == list(zip(cards, repeat(1.0 / len(cards), len(cards)), strict=True))
        state.apply_action(outs[rng.randrange(len(outs))][0])
    assert not state.is_chance_node() and state.gs is not None
    placed = state.history()[-ndeal:]
    assert sorted(placed + state.undrawn) == list(range(ncards))
