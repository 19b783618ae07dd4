"""OpenSpiel's strings say what the tensors say: over random hands, two states a player
sees with equal observation strings have equal observation tensors and the other way
round; so too the information-state string and tensor (one hand: the game's default).
A tabular learner keyed by strings and a network fed tensors then tell the same states
apart."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from mariage.ai import openspiel_game


def _pairs(name: str, hands: int, seed: int) -> dict[str, list[tuple[str, bytes]]]:
    """Per kind (observation, info_state), the (string, tensor) pairs of every player
    at every decision of ``hands`` random hands (the player's number leads the string)."""
    game = pyspiel.load_game(openspiel_game.game_name(name))
    rng = random.Random(seed)
    out: dict[str, list[tuple[str, bytes]]] = {"observation": [], "info_state": []}
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            for p in range(game.num_players()):
                out["observation"].append((
                    f"{p}|{state.observation_string(p)}",
                    np.asarray(state.observation_tensor(p), np.float32).tobytes()))
                out["info_state"].append((
                    f"{p}|{state.information_state_string(p)}",
                    np.asarray(state.information_state_tensor(p), np.float32).tobytes()))
            state.apply_action(rng.choice(state.legal_actions()))
    return out


# the phase and the seat to act (Thousand's and Coinche's auctions, Sixty-six for
# three's reply to a close) were in the tensors and not in the strings; so is what was
# said (announcements, questions to the partner and their answers: Coinche's first two
# hands, Belote's hand of seed 5 and the Marjapussis' tell it, the string without it)
@pytest.mark.parametrize(("name", "hands", "seed"), [
    ("thousand", 2, 1), ("belote-coinche", 2, 1), ("sixty-six-3", 6, 1), ("schnapsen", 3, 1),
    ("belote", 1, 5), ("marjapussi", 2, 1), ("marjapussi-de", 1, 1)])
def test_equal_strings_exactly_where_equal_tensors(name: str, hands: int, seed: int) -> None:
    for kind, pairs in _pairs(name, hands, seed).items():
        tensor_of: dict[str, bytes] = {}
        string_of: dict[bytes, str] = {}
        for text, tensor in pairs:
            assert tensor_of.setdefault(text, tensor) == tensor, \
                f"{kind}: one string, two tensors: {text}"
            player = text.split("|", 1)[0].encode()
            assert string_of.setdefault(player + tensor, text) == text, \
                f"{kind}: one tensor, two strings: {text} / {string_of[player + tensor]}"
        assert len(tensor_of) > 10  # (states met)
