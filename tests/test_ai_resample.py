"""``resample_from_infostate`` of the OpenSpiel games: a state the player cannot tell
from the true one, for OpenSpiel's information-set MCTS."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (the ai extra) is not installed")

from mariage.ai import openspiel_game, spielresample  # noqa: E402


def game_of(ruleset: str, **params: Any) -> Any:
    return pyspiel.load_game(openspiel_game.game_name(ruleset), params)


def decision_points(game: Any, seed: int, every: int = 3) -> list[Any]:
    """Copies of the states of one random match, at every ``every``-th decision."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    found, k = [], 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(rng.choice(outcomes))
            continue
        if k % every == 0:
            found.append(state.clone())
        k += 1
        state.apply_action(rng.choice(state.legal_actions()))
    return found


# German Marjapussi passes sets that some players see only as passed, Thousand gives
# single cards face down; two hands: the hand before stays as it was
# ATTEMPTS 0: every state is the walk of swaps from the true deal (Mariglia: its
# strict rules leave few deals late in a hand)
@pytest.mark.parametrize(("ruleset", "hands", "attempts"),
                         [("schnapsen", 1, None), ("thousand", 1, None),
                          ("marjapussi-de", 1, None), ("sixty-six", 2, None),
                          ("mariglia", 1, None), ("schnapsen", 1, 0), ("mariglia", 1, 0)])
def test_a_resampled_state_looks_the_same_to_the_player(
        ruleset: str, hands: int, attempts: int | None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    if attempts is not None:
        monkeypatch.setattr(spielresample, "ATTEMPTS", attempts)
    game = game_of(ruleset, hands=hands)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differed = 0
    for state in decision_points(game, seed=5):
        to_act = state.current_player()
        for player in range(game.num_players()):
            new = state.resample_from_infostate(player, sampler)
            assert new.information_state_string(player) == \
                state.information_state_string(player)
            assert new.information_state_tensor(player) == \
                state.information_state_tensor(player)
            assert new.current_player() == to_act
            if player == to_act:
                assert new.legal_actions() == state.legal_actions()
            # the world itself (the deck, what the others saw) is drawn anew
            differed += new.history() != state.history() and any(
                new.information_state_string(q) != state.information_state_string(q)
                for q in range(game.num_players()) if q != player)
            # and goes on: a random action of the new state is legal there
            new.apply_action(new.legal_actions()[0])
    assert differed > 0


def test_the_unseen_cards_are_drawn_anew_at_random() -> None:
    game = game_of("schnapsen")
    state = decision_points(game, seed=1)[0]  # the first decision: 5 cards of 20 seen...
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    other = 1 - state.current_player()
    hands = {new.information_state_string(other)
             for new in (state.resample_from_infostate(state.current_player(), sampler)
                         for _ in range(20))}
    assert len(hands) > 10  # ...so the other's five cards are almost never drawn alike


def test_openspiel_ismcts_plays_the_games() -> None:
    mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
    ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
    import numpy as np

    game = game_of("schnapsen")
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 20,
                           random_state=rng)
    for state in decision_points(game, seed=2, every=4):
        assert bot.step(state) in state.legal_actions()


def test_sampled_chance_refuses_to_resample_and_says_why() -> None:
    game = game_of("schnapsen", chance="sampled")
    state = game.new_initial_state()
    state.legal_actions()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    with pytest.raises(pyspiel.SpielError, match='chance="explicit"'):
        state.resample_from_infostate(0, sampler)
    with pytest.raises(pyspiel.SpielError, match="no player 5"):
        game_of("schnapsen").new_initial_state().resample_from_infostate(5, sampler)
