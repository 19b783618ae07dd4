"""PettingZoo's observations across the picks of a set passed one card per step.

A pick before a set's last card changes no state: the environment logs no action for it
(each observation keeps its own picks), and the set's last pick logs the set; each
observation, read once the set went to the engine (from the match replayed), is checked
against the vector a fresh encoder builds when the observation is made.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from mariage.ai.encoding import Encoder
from mariage.ai.lazyobs import LazyObservation
from mariage.ai.pettingzoo_env import MariageEnv
from mariage.engine.actions import Give


def _scratch(env: MariageEnv, agent: str) -> np.ndarray:
    """The agent's vector by an encoder that has kept nothing from earlier calls."""
    assert env.state_ is not None
    return Encoder(env.rules).vector(env.state_, env.possible_agents.index(agent), env.picked)


@pytest.mark.parametrize("name", ["marjapussi-de", "thousand-2"])
def test_a_pick_before_a_sets_last_holds_nothing(name: str) -> None:
    """Observations made at each pick of a set (every agent's, the picker's with the
    cards it picked so far), read once the set went to the engine: each is the vector of
    its own pick; the picks before the last log no action, the set's last one logs the
    set (a Give of the cards picked)."""
    env = MariageEnv(name, max_hands=2)
    rng = random.Random(5)
    later: list[tuple[LazyObservation, np.ndarray]] = []
    picks = sets = 0
    for seed in range(4):
        env.reset(seed=seed)
        for agent in env.agent_iter(300):
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            for other in env.agents:
                obs = env.observe(other)
                assert isinstance(obs, LazyObservation)
                later.append((obs, _scratch(env, other)))
            legal = np.flatnonzero(env.infos[agent]["action_mask"])
            logged, picked = len(env._log), env.picked
            env.step(int(legal[rng.randrange(len(legal))]))
            if env.picked:  # a pick before the set's last: nothing logged
                assert len(env._log) == logged
                picks += 1
            elif picked:  # a set's last pick: the set logged, with every card picked
                assert len(env._log) == logged + 1 and type(env._log[-1]) is Give
                assert env._log[-1].cards & picked == picked
                sets += 1
    assert picks > 5 and sets > 2
    for obs, expected in later:
        assert np.array_equal(obs["observation"], expected)
