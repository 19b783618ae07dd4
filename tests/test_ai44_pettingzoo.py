"""The forty-fourth session's card masks: the bytes of a mask of cards looked up by
groups of twelve cards (a table per width, shared by every numbering); that they are
the bytes set card by card is ``test_ai43_pettingzoo``'s
``test_mask_maker_sets_a_byte_per_card``."""

from __future__ import annotations

import random

import numpy as np
import pytest
from mariage.ai import listed
from mariage.ai.listed import mask_maker
from mariage.ai.pettingzoo_env import MariageEnv


def test_group_tables_are_shared_by_width() -> None:
    """A table of twelve cards is made once and read by every maker that needs it (36
    cards in three groups, 24 in two), the last group of a hand by a table of its own
    width; each maker's groups are ``ceil(ncards / 12)`` lookups."""
    twelve = listed._group_bytes(12)
    assert len(twelve) == 4096 and twelve[0b1000_0000_0101] == bytes([1, 0, 1] + [0] * 8 + [1])
    for ncards, size, last in ((36, 210, 12), (24, 181, 12), (40, 65, 4), (32, 148, 8)):
        names = mask_maker(0, ncards, size).__globals__
        groups = sorted(k for k in names if k.startswith("_g"))
        assert len(groups) == -(-ncards // 12), ncards
        assert all(names[k] is twelve for k in groups[:-1])
        assert names[groups[-1]] is listed._group_bytes(last)


@pytest.mark.parametrize("ruleset", ["marjapussi-de", "marjapussi", "marianna"])
def test_step_masks_not_shared(ruleset: str) -> None:
    """Every play mask a step gives is its own array over its own bytes: an agent that
    writes into one changes no later mask, and the step's check reads the mask given."""
    env = MariageEnv(ruleset, max_hands=1)
    env.reset(seed=44)
    rng = random.Random(4)
    seen: list[np.ndarray] = []
    for _agent in env.agent_iter(200):
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert info["action_mask"] is mask and mask.flags.writeable
        assert all(not np.shares_memory(mask, other) for other in seen[-8:])
        legal = np.flatnonzero(mask)
        kept = mask.copy()
        mask[:] = 1  # (the agent's own array: nothing else sees this)
        mask[:] = kept
        seen.append(mask)
        env.step(int(legal[rng.randrange(len(legal))]))
    assert len(seen) > 20
