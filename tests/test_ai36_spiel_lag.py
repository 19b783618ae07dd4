"""pyspiel's history of an OpenSpiel game's state written when read (mariage.ai.spiellag).

``apply_action`` called from Python is answered in Python (no round trip through
pyspiel's C++); every way of reading pyspiel's history sees the actions in order."""

from __future__ import annotations

import pickle
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
import mariage.ai.openspiel_game  # noqa: E402,F401  (registers the games)

GAME = "mariage_mariazza"


def _played(steps: int, seed: int = 4) -> tuple[object, object, list[int]]:
    """A game, a state moved ``steps`` actions by Python's ``apply_action``, the actions."""
    game = pyspiel.load_game(GAME)
    state = game.new_initial_state()
    rng = random.Random(seed)
    actions = []
    for _ in range(steps):
        legal = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                 else state.legal_actions())
        actions.append(rng.choice(legal))
        state.apply_action(actions[-1])
    return game, state, actions


def _reference(game: object, actions: list[int]) -> object:
    """The same actions applied through pyspiel's own C++ ``apply_action``."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    for action in actions:
        pyspiel.State.apply_action(state, action)
    return state


def test_python_actions_skip_pyspiels_round_trip_until_the_history_is_read() -> None:
    game, state, actions = _played(40)
    assert pyspiel.State.history(state) == []  # nothing written to C++ yet
    ref = _reference(game, actions)
    assert state.history() == ref.history() == actions
    assert pyspiel.State.history(state) == actions  # written once read
    assert [(p.player, p.action) for p in state.full_history()] \
        == [(p.player, p.action) for p in ref.full_history()]
    assert state.move_number() == ref.move_number() == 40
    assert state.history_str() == ref.history_str()
    assert not state.is_initial_state()
    assert str(state) == str(ref)


@pytest.mark.parametrize("read", ["clone", "pyspiel_clone", "child", "serialize", "pickle",
                                  "cpp_apply"])
def test_every_reader_of_the_history_sees_the_python_actions(read: str) -> None:
    game, state, actions = _played(33)
    ref = _reference(game, actions)
    if read == "clone":
        other = state.clone()
    elif read == "pyspiel_clone":  # (C++ Clone reads the state's __dict__ first)
        other = pyspiel.State.clone(state)
    elif read == "child":
        action = ref.legal_actions()[0] if not ref.is_chance_node() \
            else ref.chance_outcomes()[0][0]
        other, ref = state.child(action), ref.child(action)
    elif read == "serialize":  # (C++ SerializeGameAndState, then a new state from it)
        other = pyspiel.deserialize_game_and_state(
            pyspiel.serialize_game_and_state(game, state))[1]
    elif read == "pickle":
        other = pickle.loads(pickle.dumps(state))
    else:  # pyspiel's own apply_action after Python's: written in order
        action = ref.legal_actions()[0] if not ref.is_chance_node() \
            else ref.chance_outcomes()[0][0]
        pyspiel.State.apply_action(state, action)
        pyspiel.State.apply_action(ref, action)
        other = state
    if read != "pickle":  # (made by C++ from the state's history: written before)
        assert pyspiel.State.history(other) == ref.history()
    assert other.history() == ref.history()
    assert other.move_number() == ref.move_number()
    assert str(other) == str(ref)


def test_a_refused_action_is_not_kept() -> None:
    _game, state, actions = _played(5)
    assert state.is_chance_node()
    with pytest.raises(ValueError, match="no card left to deal"):
        state.apply_action(actions[-1])  # a card placed already
    with pytest.raises(pyspiel.SpielError):
        state.apply_action(-1)  # pyspiel's own check (kInvalidAction)
    assert state.history() == actions
