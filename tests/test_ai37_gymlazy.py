"""The Gymnasium environment's observation vector made when first read.

``reset`` and ``step`` give a :class:`~mariage.ai.lazyobs.LazyObservation`: an agent
acting on the mask alone never pays for the vector; one read after later steps (or
another episode) is the vector of the state it was returned with, made from the
match's actions replayed, the opponents' included.
"""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest
from mariage.ai.encoding import Encoder
from mariage.ai.gym_env import MariageGymEnv
from mariage.ai.lazyobs import LazyObservation

# (a set passed one card a step; an auction with questions; a seat that is not the first)
CASES = [("thousand-2", 0), ("marjapussi-de", 1), ("belote-contree", 3), ("schnapsen", 1)]


def _episode(env: MariageGymEnv, seed: int, rng: random.Random, steps: int = 120
             ) -> list[tuple[LazyObservation, np.ndarray]]:
    """Random steps from ``reset(seed)``, each observation kept unread beside the vector
    an encoder that kept nothing makes of the state then."""
    obs, _ = env.reset(seed=seed)
    kept = []
    for _ in range(steps):
        assert isinstance(obs, LazyObservation) and obs.unread
        assert env.state is not None
        kept.append((obs, Encoder(env.rules).vector(env.state, env.seat, env.picked)))
        legal = obs["action_mask"].nonzero()[0]  # (the mask alone: the vector unread)
        obs, _, terminated, truncated, _ = env.step(int(legal[rng.randrange(len(legal))]))
        if terminated or truncated:
            break
    return kept


@pytest.mark.parametrize(("name", "seat"), CASES)
def test_vectors_read_late_are_those_of_their_step(name: str, seat: int) -> None:
    """Observations read after the episode went on, in a shuffled order, then after a
    new episode began: each is its step's vector; the next episode's, read at once,
    are the environment's vectors as before."""
    env = MariageGymEnv(name, seat=seat, opponents="random", max_hands=2)
    rng = random.Random(3)
    kept = _episode(env, 5, rng)
    assert len(kept) > 10
    rng.shuffle(kept)
    for obs, expected in kept[: len(kept) // 2]:
        assert np.array_equal(obs["observation"], expected)
        assert not obs.unread
    more = _episode(env, 6, rng, 20)  # (a new match: the old observations keep theirs)
    for obs, expected in kept[len(kept) // 2:] + more:
        assert np.array_equal(obs["observation"], expected)


def test_observation_reads_as_a_dict() -> None:
    """Every way of reading the dict sees both items, in the order of the observation
    space; copies and pickles are plain reads of the same values."""
    env = MariageGymEnv("thousand", opponents="random")
    obs, _ = env.reset(seed=2)
    assert env.observation_space.contains(obs)
    assert list(obs) == ["observation", "action_mask"]
    for made in (copy.deepcopy(obs), pickle.loads(pickle.dumps(obs)), dict(obs)):
        assert np.array_equal(made["observation"], obs["observation"])
        assert np.array_equal(made["action_mask"], obs["action_mask"])
    assert env.observation_space.contains(env.step(int(obs["action_mask"].argmax()))[0])
