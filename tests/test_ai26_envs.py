"""What ``docs/ai.rst`` promises of the environments' seeds: ``gymnasium.make`` of every
ruleset deals, from ``reset(seed=s)``, the match of ``mariage play --seed s``
(:func:`mariage.new_match`); copy k of a vector environment reset with seed s deals
that of s + k, the same in ``SyncVectorEnv`` and ``AsyncVectorEnv``."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from mariage import list_rulesets, load_rules, new_match
from mariage.ai.gym_env import env_id


def _replayed(name: str, seed: int, actions: list[tuple[int, object]]) -> list[int]:
    """The hands of ``mariage play --seed`` after ``actions``."""
    state = new_match(load_rules(name), seed)
    for _, action in actions:
        state.apply(action)  # type: ignore[arg-type]
    return list(state.hands)


@pytest.mark.parametrize("name", list_rulesets())
def test_a_seed_deals_the_match_of_mariage_play(name: str) -> None:
    deals = set()
    for seed in (1, 2, 3):
        compared = 0
        for seat in range(load_rules(name).nseats):
            env = gymnasium.make(env_id(name), seat=seat, opponents="random")
            env.reset(seed=seed)
            state = env.unwrapped.state
            if state.hand_no == 1:  # (not a seat sitting the first hand out)
                assert list(state.hands) == _replayed(name, seed, list(state.actions))
                compared += 1
            env.close()
        assert compared
        state = new_match(load_rules(name), seed)
        deals.add(tuple(state.hands))
    assert len(deals) == 3


@pytest.mark.parametrize("vector", ["sync", "async"])
def test_copy_k_of_a_vector_environment_deals_seed_plus_k(vector: str) -> None:
    name = "schnapsen"

    def make() -> gymnasium.Env:  # type: ignore[type-arg]
        return gymnasium.make(env_id(name), opponents="random", max_hands=1)

    cls = gymnasium.vector.SyncVectorEnv if vector == "sync" else gymnasium.vector.AsyncVectorEnv
    envs = cls([make for _ in range(3)])
    singles = [make() for _ in range(3)]
    obs, _ = envs.reset(seed=3)
    for k, single in enumerate(singles):
        one, _ = single.reset(seed=3 + k)
        assert np.array_equal(obs["observation"][k], one["observation"])
    rng = np.random.default_rng(0)
    done = [False] * 3
    for _ in range(40):  # the same actions give the same observations until an episode ends
        actions = [int(rng.choice(m.nonzero()[0])) if m.any() else 0
                   for m in obs["action_mask"]]
        obs, rewards, terminated, _, _ = envs.step(np.array(actions))
        for k, single in enumerate(singles):
            if done[k]:
                continue
            one, reward, term, trunc, _ = single.step(actions[k])
            assert np.array_equal(obs["observation"][k], one["observation"])
            assert rewards[k] == reward and terminated[k] == term
            done[k] = term or trunc
    assert all(done)
    envs.close()


@pytest.mark.parametrize("name", list_rulesets())
def test_pettingzoo_state_shows_every_hand_in_every_ruleset(name: str) -> None:
    """``state()`` (for centralised critics) lies in ``state_space`` and opens every
    hand: its first blocks are the seats' hands, as the engine holds them."""
    from mariage.ai.pettingzoo_env import MariageEnv

    env = MariageEnv(name, max_hands=1)
    env.reset(seed=4)
    rng = np.random.default_rng(1)
    for _ in range(3):
        state = env.state_
        assert state is not None
        vector = env.state()
        assert env.state_space.contains(vector)
        c = state.rules.ncards
        for seat in range(state.rules.nseats):
            block = vector[seat * c:(seat + 1) * c]
            assert set(np.flatnonzero(block).tolist()) == set(state.rules.cards_of(
                state.hands[seat]))
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        env.step(int(rng.choice(obs["action_mask"].nonzero()[0])))


@pytest.mark.parametrize("name", ["schnapsen", "sixty-six-3", "belote-coinche"])
def test_the_mask_is_all_zeros_once_a_truncated_episode_is_over(name: str) -> None:
    """``max_hands`` truncates the match where the next hand is dealt: the learning seat
    may be the one to act in it, yet the episode is over (the docs: an all-zero mask)."""
    truncated_with_seat_to_act = 0
    for seat in range(load_rules(name).nseats):
        env = gymnasium.make(env_id(name), seat=seat, opponents="random", max_hands=1)
        for seed in range(4):
            obs, _ = env.reset(seed=seed)
            rng = np.random.default_rng(seed)
            while True:
                assert obs["action_mask"].any()
                obs, _, terminated, truncated, info = env.step(
                    int(rng.choice(obs["action_mask"].nonzero()[0])))
                if terminated or truncated:
                    break
            state = env.unwrapped.state
            truncated_with_seat_to_act += truncated and state.to_act == seat
            assert not obs["action_mask"].any() and not info["action_mask"].any()
            assert not env.unwrapped.action_masks().any() and info["legal"] == []
        env.close()
    assert truncated_with_seat_to_act  # (the case met)


@pytest.mark.parametrize("name", ["sixty-six-3", "thousand-4"])
def test_an_episodes_rewards_add_up_to_its_hands(name: str) -> None:
    """With per-hand rewards the steps' rewards sum to those of every hand of the match,
    the hand that reset() plays through (the learning seat dealing and sitting it out)
    included: it comes with the first step."""
    from mariage.ai.rewards import hand_rewards

    sat_out_first = 0
    for seat in range(load_rules(name).nseats):
        env = gymnasium.make(env_id(name), seat=seat, opponents="random", reward="hand",
                             max_hands=2)
        for seed in range(2):
            obs, _ = env.reset(seed=seed)
            sat_out_first += env.unwrapped.state.hand_no > 1
            rng = np.random.default_rng(seed)
            total = 0.0
            while True:
                obs, reward, terminated, truncated, _ = env.step(
                    int(rng.choice(obs["action_mask"].nonzero()[0])))
                total += reward
                if terminated or truncated:
                    break
            state = env.unwrapped.state
            assert total == pytest.approx(sum(hand_rewards(state, k, "hand")[seat]
                                              for k in range(len(state.history))))
        env.close()
    assert sat_out_first  # (the case met)
