"""Evaluate an agent on Mariazza through the PettingZoo environment.

The agent under test takes the legal action with the highest id (a plain
baseline: it prefers declarations and asks to card plays); its opponent plays
uniformly at random among the legal actions. Sides swap every game.
"""

from __future__ import annotations

import numpy as np
from mariage.ai.pettingzoo_env import MariageEnv


def highest_id(observation: dict[str, np.ndarray], rng: np.random.Generator) -> int:
    return int(np.flatnonzero(observation["action_mask"])[-1])


def uniform(observation: dict[str, np.ndarray], rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def evaluate(games: int = 20, seed: int = 0) -> float:
    """The agent's share of the games won (draws count half)."""
    env = MariageEnv("mariazza", options={"target": 20})
    rng = np.random.default_rng(seed)
    score = 0.0
    for game in range(games):
        env.reset(seed=seed + game // 2)
        tested = env.possible_agents[game % 2]  # the agent under test changes seat
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                if agent == tested:
                    score += (reward + 1) / 2
                env.step(None)
                continue
            policy = highest_id if agent == tested else uniform
            env.step(policy(obs, rng))
    return score / games


if __name__ == "__main__":
    print(f"score of the highest-id agent against uniform play: {evaluate():.2f}")
