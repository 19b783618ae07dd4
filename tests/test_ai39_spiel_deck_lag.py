"""The cards placed at chance nodes from Python, kept for pyspiel's history as decks
(mariage.ai.spiellag, thirty-ninth session).

A card placed by Python's ``apply_action`` adds no entry of its own to the actions kept
(``_lag``): the deck being placed is written to pyspiel's history from ``deck`` itself,
from the first card not yet written (``_deck_lag``), and a complete deck is kept as one
entry. Whatever mix of Python's and pyspiel's own ``apply_action``, reads of the history
and clones, the history is every action in order."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
import mariage.ai.openspiel_game  # noqa: E402,F401  (registers the games)
from mariage import list_rulesets  # noqa: E402
from mariage.ai.openspiel_game import game_name  # noqa: E402


def _choice(state: object, rng: random.Random) -> int:
    if state.is_chance_node():  # type: ignore[attr-defined]
        return rng.choice([a for a, _ in state.chance_outcomes()])  # type: ignore[attr-defined]
    return rng.choice(state.legal_actions())  # type: ignore[attr-defined,no-any-return]


# mariazza: a first player drawn by lot before every deck (a seat drawn, then cards);
# mariaggia: a first dealer by lot, then 40 cards; schnapsen: 20 cards
@pytest.mark.parametrize("name", ["mariazza", "mariaggia", "schnapsen"])
@pytest.mark.parametrize("seed", range(4))
def test_any_mix_of_applies_reads_and_clones_keeps_the_history_in_order(name: str,
                                                                       seed: int) -> None:
    game = pyspiel.load_game(game_name(name), {"hands": 2})
    state = game.new_initial_state()
    rng = random.Random(seed)
    actions: list[int] = []
    while not state.is_terminal():
        action = _choice(state, rng)
        how = rng.random()
        if how < 0.6:
            state.apply_action(action)  # Python's: kept, not written
        elif how < 0.8:
            pyspiel.State.apply_action(state, action)  # pyspiel's C++: written at once
        else:  # read the history, or go on with a clone (C++'s, or the state's own)
            state.apply_action(action)
            if how < 0.87:
                assert state.history() == [*actions, action]
            else:
                state = state.clone() if how < 0.94 else pyspiel.State.clone(state)
        actions.append(action)
    assert state.history() == actions
    assert state.move_number() == len(actions)
    assert [p.player for p in state.full_history()] == _players(game, actions)


def _players(game: object, actions: list[int]) -> list[int]:
    """The player of each action, replayed by pyspiel's own ``apply_action``."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    players = []
    for action in actions:
        players.append(state.current_player())
        pyspiel.State.apply_action(state, action)
    return players


def test_a_card_placed_from_python_adds_no_entry_a_complete_deck_one() -> None:
    game = pyspiel.load_game(game_name("mariaggia"))
    state = game.new_initial_state()
    state.apply_action(1)  # the first dealer, by lot
    for card in range(39, 34, -1):
        state.apply_action(card)
    assert state._lag == [(-1, 1)] and state._deck_lag == 0
    assert state.history() == [1, *range(39, 34, -1)]  # written from the deck
    assert state._lag == [] and state._deck_lag == 5
    # the deal places 11 cards (the hands, the turned-up card; the stock's when drawn)
    for card in range(6):
        state.apply_action(card)
    assert not state.is_chance_node()  # dealt: the deck's last 6 cards, one entry
    assert state._lag == [list(range(6))] and state._deck_lag == 0
    assert state.history() == [1, *range(39, 34, -1), *range(6)]


@pytest.mark.parametrize("ruleset", list_rulesets())
def test_cards_left_only_at_a_chance_node_that_places_a_card(ruleset: str) -> None:
    """apply_action and chance_outcomes take a state with cards left for such a node."""
    game = pyspiel.load_game(game_name(ruleset), {"hands": 2})
    rng = random.Random(3)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            card_node = state.is_chance_node() and state._chance_kind() in ("card", "draw")
            assert bool(state.rest) == card_node
            state.apply_action(_choice(state, rng))
        assert not state.rest
