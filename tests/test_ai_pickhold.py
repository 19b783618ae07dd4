"""PettingZoo's observations across the picks of a set passed one card per step.

A pick before a set's last card holds no snapshot of the state for the observations
still unread (the state does not change; each observation keeps its own picks): each is
checked against the vector a fresh encoder builds when the observation is made.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from mariage.ai.encoding import Encoder
from mariage.ai.lazyobs import LazyObservation
from mariage.ai.pettingzoo_env import MariageEnv


def _scratch(env: MariageEnv, agent: str) -> np.ndarray:
    """The agent's vector by an encoder that has kept nothing from earlier calls."""
    assert env.state_ is not None
    return Encoder(env.rules).vector(env.state_, env.possible_agents.index(agent), env.picked)


@pytest.mark.parametrize("name", ["marjapussi-de", "thousand-2"])
def test_a_pick_before_a_sets_last_holds_nothing(name: str) -> None:
    """Observations made at each pick of a set (every agent's, the picker's with the
    cards it picked so far), read once the set went to the engine: each is the vector of
    its own pick; the picks before the last take no snapshot (the source is the same),
    the set's last one does."""
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
            source = env._source
            env.step(int(legal[rng.randrange(len(legal))]))
            if env.picked:  # a pick before the set's last: nothing held
                assert env._source is source and source[0] is env.state_
                picks += 1
            elif env._source is not source and type(source[0]) is list \
                    and source[0][-1]:  # a set's last pick (held with its picks: the
                sets += 1                # last item of hold_unread's list)
    assert picks > 5 and sets > 2
    for obs, expected in later:
        assert np.array_equal(obs["observation"], expected)
