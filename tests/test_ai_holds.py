"""PettingZoo's observations read after the environment stepped on, in every ruleset.

An observation read late is made from the match's actions replayed
(:class:`~mariage.ai.lazyobs.ObservedMatch`); each check here is against a vector made from
scratch at the time it was handed out.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from mariage import list_rulesets
from mariage.ai.encoding import Encoder
from mariage.ai.lazyobs import LazyObservation
from mariage.ai.pettingzoo_env import MariageEnv

RULESETS = list_rulesets()


def _scratch(env: MariageEnv, agent: str) -> np.ndarray:
    """The agent's vector by an encoder that has kept nothing from earlier calls."""
    assert env.state_ is not None
    return Encoder(env.rules).vector(env.state_, env.possible_agents.index(agent), env.picked)


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
