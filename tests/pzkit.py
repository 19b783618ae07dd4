"""The loop of a PettingZoo AEC environment, as the tests of the environments walk it.

:func:`live_turns` resets the environment for each seed and yields each agent to act;
the turn of an agent already terminated or truncated is passed with ``step(None)`` here,
so a test sees only the agents that choose (and steps each of them itself).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any


def live_turns(env: Any, seeds: Iterable[int]) -> Iterator[str]:
    """Each agent to act, match after match (one a seed), in ``env``'s ``agent_iter``
    order; the caller steps it before asking for the next."""
    for seed in seeds:
        env.reset(seed=seed)
        for agent in env.agent_iter():
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            yield agent
