"""What PettingZoo's environment holds for the observations still unread when it steps.

A step before which an observation is unread holds the state for it (a card within
its trick taken back, else one list of what :meth:`Encoder.snapshot` holds, with the
match's standing kept by the environment since the hand began); each check here is
against a snapshot or a vector made from scratch at the time, in every ruleset.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest
from mariage import list_rulesets
from mariage.ai.encoding import Encoder
from mariage.ai.lazyobs import LazyObservation, _unpacked, hold_unread
from mariage.ai.pettingzoo_env import MariageEnv
from mariage.engine.state import GameState

RULESETS = list_rulesets()


def _scratch(env: MariageEnv, agent: str) -> np.ndarray:
    """The agent's vector by an encoder that has kept nothing from earlier calls."""
    assert env.state_ is not None
    return Encoder(env.rules).vector(env.state_, env.possible_agents.index(agent), env.picked)


def _random_play(env: MariageEnv, matches: int) -> Iterator[GameState]:
    """The state before each step of random play of ``matches`` matches (seeds 0 up),
    the end of each included; the step is taken once the caller has looked."""
    rng = random.Random(3)
    for seed in range(matches):
        env.reset(seed=seed)
        for agent in env.agent_iter(2000):
            assert env.state_ is not None
            yield env.state_
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
            else:
                legal = np.flatnonzero(env.infos[agent]["action_mask"])
                env.step(int(legal[rng.randrange(len(legal))]))


@pytest.mark.parametrize("name", RULESETS)
def test_the_held_list_is_the_snapshot(name: str) -> None:
    """At every step of random play (the cards picked so far of a set included), the list
    a hold makes, unpacked, equals the encoder's snapshot of the state, part by part."""
    env = MariageEnv(name, max_hands=3)
    enc = env.encoder
    checked = 0
    for state in _random_play(env, 3):
        source = [state, 1, enc]
        assert hold_unread(source, enc, state, env.picked) is not source
        assert type(source[0]) is list
        assert _unpacked(source[0], enc) == enc.snapshot(state, env.picked)
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("name", RULESETS)
def test_the_standing_kept_is_the_states(name: str) -> None:
    """The standing the environment keeps for its holds is the state's after every step
    (it changes only at a hand's end, where the environment takes it again)."""
    env = MariageEnv(name, max_hands=4)
    hands = 0  # the most hands ended in a match
    for state in _random_play(env, 3):
        assert env._standing == state.standing()
        hands = max(hands, len(state.history))
    assert hands >= 1


@pytest.mark.parametrize("name", RULESETS)
def test_the_loop_of_the_docs_keeps_every_observation_as_made(name: str) -> None:
    """PettingZoo's documented loop (``obs, ... = env.last()``, the mask read from the
    observation), every observation kept unread to the end of the match: each then
    reads as the vector made from scratch when it was handed out."""
    env = MariageEnv(name, max_hands=3)
    rng = random.Random(11)
    kept: list[tuple[LazyObservation, np.ndarray]] = []
    for seed in range(3):  # (the later matches' observations kept with the earlier ones)
        env.reset(seed=seed)
        for agent in env.agent_iter(1500):
            obs, _, terminated, truncated, _ = env.last()
            assert isinstance(obs, LazyObservation) and obs.unread
            kept.append((obs, _scratch(env, agent)))
            if terminated or truncated:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
    assert len(kept) > 50
    for obs, expected in kept:
        assert np.array_equal(obs["observation"], expected)
