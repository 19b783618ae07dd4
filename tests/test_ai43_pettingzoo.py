"""The forty-third session's PettingZoo step: the card masks from the bytes of the bits,
the environment's own attributes in slots, the public names of the plain bots' filter."""

from __future__ import annotations

import random

import numpy as np
import pytest
from mariage import list_rulesets
from mariage.ai import policies
from mariage.ai.listed import mask_maker
from mariage.ai.pettingzoo_env import MariageEnv
from mariage.arena import plainbots
from pzkit import live_turns

#: rulesets of 20 to 40 cards: the bits of a hand in one digit of an int and in two
RULESETS = ["marjapussi-de", "marianna", "belote", "thousand", "schnapsen", "mariaggia",
            "thousand-2"]


def test_plain_bots_filter_has_public_names() -> None:
    """``policies`` imports the plain bots' filter and the kinds it leaves out by the
    state under public names, listed in ``plainbots.__all__``."""
    assert "sensible_actions" in plainbots.__all__
    assert "KINDS_BY_STATE" in plainbots.__all__
    assert policies.sensible_actions is plainbots.sensible_actions
    assert policies.KINDS_BY_STATE is plainbots.KINDS_BY_STATE
    assert not hasattr(plainbots, "_BY_STATE")  # (nothing else imported it)
    names = {"CallOut", "Claim", "Concede"}
    assert {kind.__name__ for kind in plainbots.KINDS_BY_STATE} == names


@pytest.mark.parametrize("ncards", [1, 7, 8, 9, 11, 12, 13, 20, 23, 24, 25, 30, 31, 32, 35,
                                    36, 37, 40, 48, 52])
def test_mask_maker_sets_a_byte_per_card(ncards: int) -> None:
    """The bytes of a mask of cards, made from the bits at once, are those set card by
    card, for hands whose bits need one int digit or two, on both sides of the edge of
    a group of twelve (the forty-fourth session's lookup), with ids before the cards and
    after them or not."""
    rng = random.Random(ncards)
    for base, tail in ((0, 0), (0, 9), (3, 5), (4, 0), (98, 76)):
        size = base + ncards + tail
        make = mask_maker(base, ncards, size)
        singles = [1 << c for c in range(ncards)]
        for m in [0, (1 << ncards) - 1, *singles,
                  *(rng.getrandbits(ncards) for _ in range(300))]:
            expected = bytearray(size)
            for card in range(ncards):
                if m >> card & 1:
                    expected[base + card] = 1
            made = make(m)
            assert type(made) is bytearray and made == expected, (base, ncards, m)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_step_masks_are_the_listing_ids(ruleset: str) -> None:
    """Every mask a step gives (the play phase's from the bits of the cards) holds the
    ids the action space lists for the state, over many seeds."""
    env = MariageEnv(ruleset, max_hands=2)
    space = env.space
    rng = random.Random(43)
    steps = 0
    for agent in live_turns(env, range(12)):
        obs, _, _, _, info = env.last()
        mask = obs["action_mask"]
        state = env.state_
        assert state is not None
        listing = space.set_listing(state) if env.picked or space.pick_size else None
        expected = space.legal_ids(state, None, env.picked, listing)
        assert mask.dtype == np.int8 and mask.flags.writeable
        assert info["action_mask"] is mask
        assert np.flatnonzero(mask).tolist() == expected, (ruleset, agent, steps)
        env.step(int(rng.choice(expected)))
        steps += 1
    assert steps > 100


@pytest.mark.parametrize("ruleset", RULESETS[:3])
def test_environment_dict_stays_within_shared_keys(ruleset: str) -> None:
    """What a step keeps of its own is in slots: the instance dict holds the attributes
    PettingZoo's API names, fewer than the 30 keys CPython shares between the
    instances of a class (past them each instance's dict is made whole)."""
    env = MariageEnv(ruleset, max_hands=1)
    for agent in live_turns(env, range(2)):
        mask = env.last()[0]["action_mask"]  # type: ignore[index]
        env.step(int(mask.nonzero()[0][0]))
        assert agent in env.possible_agents
    assert len(vars(env)) <= 30
    assert {"agents", "agent_selection", "infos", "rewards", "terminations",
            "truncations", "_cumulative_rewards"} <= set(vars(env))


def test_last_observation_is_unread_until_read() -> None:
    """``last()`` gives the observation as the dict of the mask alone until its vector
    is read, then the same items as ``observe()``."""
    env = MariageEnv("marjapussi-de", max_hands=1)
    env.reset(seed=5)
    obs = env.last()[0]
    assert obs is not None
    assert dict.__len__(obs) == 1 and obs["action_mask"] is env.infos[env.agent_selection][
        "action_mask"]
    seen = env.observe(env.agent_selection)
    assert list(obs) == ["observation", "action_mask"]
    assert np.array_equal(obs["observation"], seen["observation"])


def test_rulesets_listed_here_exist() -> None:
    """The rulesets walked above are the library's."""
    assert set(RULESETS) <= set(list_rulesets())
