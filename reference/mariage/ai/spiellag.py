"""pyspiel's history of an OpenSpiel game's state, written when it is read.

pyspiel's ``apply_action`` is C++: it asks the Python state for its current player,
calls the state's ``_apply_action`` and appends ``(player, action)`` to the history it
keeps in C++. Each of those two calls back into Python costs pyspiel several thousand
machine instructions (a lookup of the method by name, its call, its result's
conversion): more than the state's own work for a card dealt at a chance node, of which
a hand has 24 to 40. The states of :mod:`mariage.ai.openspiel_game` therefore answer
``apply_action`` from Python in Python: they apply the action and keep
``(player, action)`` in their field ``_lag`` (a card placed at a chance node is kept in
the deck being placed, a complete deck as one entry); pyspiel's history gets the actions kept
(:func:`sync`, each through pyspiel's own ``apply_action``, the state answering for the
player recorded and applying nothing) before anything reads it:

* each method of pyspiel's state that is not answered by the state itself and may read
  the history (``history()``, ``full_history()``, ``history_str()``, ``move_number()``,
  ``serialize()``, ``child()``, ``is_initial_state()``...): :func:`synced` wraps it;
* pyspiel's clone and serialization, from Python or C++ (``serialize_game_and_state``,
  C++ bots, which clone the state): they read the state's ``__dict__`` first, whose
  property syncs;
* pyspiel's ``apply_action`` called by C++ code (``random_sim_test``, C++ bots,
  ``apply_action_with_legality_check``): the state's ``_apply_action`` syncs before it
  applies.

Where C++ code reads the history of a state given to it without asking it anything
first, that history ends at the last sync (pyspiel exposes no such function for a
Python state in 2.0: its observation histories, which do, are not bound).

>>> import pyspiel
>>> import mariage.ai.openspiel_game
>>> state = pyspiel.load_game("mariage_mariazza").new_initial_state()
>>> for _ in range(3):
...     state.apply_action(state.chance_outcomes()[0][0])
>>> state._lag, state.deck, state._deck_lag  # the dealer drawn; two cards placed
([(-1, 0)], [0, 1], 0)
>>> state.history(), state._lag, state._deck_lag
([0, 0, 1], [], 2)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import pyspiel

__all__ = ["REPLAYING", "LaggingState", "sync", "synced", "synced_names"]

#: a state's ``_lag`` while its actions kept are written to pyspiel's history (a
#: non-empty list, told apart by identity: the state's ``_apply_action`` applies nothing)
REPLAYING: list[tuple[int, int] | list[int]] = [(0, 0)]
#: OpenSpiel's chance player (pyspiel.PlayerId.CHANCE; written out, as the games' module
#: imports where pyspiel is a stand-in; that module reads it from here)
_CHANCE = -1

#: the methods of pyspiel's state that read no history (asked on every step, or answered
#: by the state's own Python): left as they are
_NO_HISTORY = frozenset({
    "action_to_string", "apply_action", "chance_outcomes", "clone", "current_player",
    "distribution_support", "get_game", "get_type", "information_state_string",
    "information_state_tensor", "is_chance_node", "is_mean_field_node", "is_player_node",
    "is_simultaneous_node", "is_terminal", "legal_actions", "legal_actions_mask",
    "mean_field_population", "num_distinct_actions", "num_players", "observation_string",
    "observation_tensor", "player_return", "player_reward", "resample_from_infostate",
    "returns", "rewards", "string_to_action", "to_string", "update_distribution"})


class LaggingState(Protocol):
    """The fields of a state that :func:`sync` reads and sets."""

    _lag: list[tuple[int, int] | list[int]]
    _player: int
    deck: list[int]
    _deck_lag: int


def sync(state: LaggingState) -> None:
    """Write the actions ``state`` applied from Python since the last sync to pyspiel's
    history (each by pyspiel's ``apply_action``, which records ``current_player()``:
    the player kept with the action; the state's ``_apply_action`` applies nothing).

    ``_lag`` keeps a decision (or a seat drawn by lot) as ``(player, action)`` and a deck
    placed at chance nodes as the list of its cards (kept once complete: a card placed
    costs no entry); the cards of the deck being placed from ``deck[_deck_lag]`` on are
    written last."""
    lag = state._lag
    if lag is REPLAYING:
        return
    deck, kept = state.deck, state._deck_lag
    if not lag and kept == len(deck):
        return
    player = state._player
    state._lag = REPLAYING
    apply = pyspiel.State.apply_action
    try:
        for step in lag:
            if type(step) is tuple:
                state._player, action = step
                apply(state, action)
            else:  # a deck's cards, each a chance outcome
                state._player = _CHANCE
                for card in step:
                    apply(state, card)
        state._player = _CHANCE
        for card in deck[kept:]:
            apply(state, card)
        state._deck_lag = len(deck)
    finally:
        state._player = player
        state._lag = []


def synced(name: str) -> Callable[..., Any]:
    """pyspiel's method ``name`` of a state, called once the state's history is synced."""
    method = getattr(pyspiel.State, name)

    def call(self: LaggingState, *args: Any, **kwargs: Any) -> Any:
        sync(self)
        return method(self, *args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"pyspiel's ``{name}``, once the actions applied from Python are in its history."
    return call


def synced_names(own: set[str]) -> list[str]:
    """The methods of pyspiel's state to wrap by :func:`synced`: those that may read the
    history, less the state's own (``own``)."""
    return [name for name in dir(pyspiel.State)
            if not name.startswith("_") and name not in _NO_HISTORY and name not in own
            and callable(getattr(pyspiel.State, name))]
