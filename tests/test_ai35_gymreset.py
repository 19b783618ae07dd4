"""The Gymnasium environment's reset keeps its policies and defers Gymnasium's generator:
the same seed still gives the same match, opponents' choices included, and Gymnasium's
generator is the one ``Env.reset(seed=...)`` would have made."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium import error
from gymnasium.utils import seeding
from mariage import load_rules, new_match
from mariage.ai.gym_env import MariageGymEnv
from mariage.ai.policies import RESEEDABLE, make_policy


def _episode(env: MariageGymEnv, seed: int | None) -> list[Any]:
    """Everything the environment answers in one episode, the learner taking its last
    legal id each step (another choice than the opponents' first ones)."""
    obs, info = env.reset(seed=seed)
    out: list[Any] = [obs["observation"].tobytes(), info["legal"], info["standing"]]
    for _ in range(200):
        action = int(obs["action_mask"].nonzero()[0][-1])
        obs, reward, terminated, truncated, info = env.step(action)
        out += [obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward,
                terminated, truncated, info["legal"], info["standing"]]
        if terminated or truncated:
            return out
    raise AssertionError("an episode of one hand longer than 200 steps")


def _make() -> MariageGymEnv:
    # Thousand: three seats, so two kept policies; greedy decides on determinizations
    # (its generator seeded again each match), random on the state
    return MariageGymEnv("thousand", seat=1, opponents=["greedy", "random"], max_hands=1)


def test_a_kept_environment_plays_each_seed_as_a_new_one() -> None:
    kept = _make()
    seeds = [5, 9, 5]
    played = [_episode(kept, s) for s in seeds]
    assert played[0] == played[2]  # the same seed again, after another match
    assert played[0] != played[1]
    for seed, episode in zip(seeds, played, strict=True):
        assert _episode(_make(), seed) == episode


def test_the_generator_is_gymnasiums_of_the_seed() -> None:
    env = _make()
    env.reset(seed=3)
    assert env.np_random_seed == 3
    expected, _ = seeding.np_random(3)
    assert env.np_random.bit_generator.state == expected.bit_generator.state
    # seeded again (the generator made when read), then resets without a seed: each
    # draws its match's seed from Gymnasium's generator of 3
    env.reset(seed=3)
    for _ in range(2):
        assert _episode(env, None) == _episode(_make(), int(expected.integers(2**63)))
    assert env.np_random_seed == 3


def test_a_seed_gymnasium_refuses_is_refused_as_before() -> None:
    env = _make()
    with pytest.raises(error.Error):
        env.reset(seed=-1)
    with pytest.raises(error.Error):
        env.reset(seed=np.int64(4))  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["random", "greedy", "first"])
def test_a_policy_seeded_again_is_a_new_one_of_the_seed(name: str) -> None:
    state = new_match(load_rules("marianna-siciliana"), 4)
    used = make_policy(name, seed=1)
    assert used.__class__ in RESEEDABLE
    for _ in range(6):  # its generators drawn from
        used.choose(state)
        if hasattr(used, "rng"):
            used.rng.random()
    used.reseed(8)  # type: ignore[attr-defined]
    new = make_policy(name, seed=8)
    if hasattr(new, "rng"):  # the generator of its determinizations
        assert used.rng.getstate() == new.rng.getstate()
    for _ in range(40):
        if state.terminal:
            break
        action = new.choose(state)
        assert used.choose(state) == action
        state.apply(action)
