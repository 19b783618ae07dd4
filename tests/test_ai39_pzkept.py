"""The PettingZoo environment's kept listings: a lead's other actions (questions, calls,
declarations) and the listings outside the play phase (an auction's bids, an answer)
are kept with the bytes of their masks, per numbering, shared by the environments of a
ruleset; a listing is found by the ``id()`` of its first and last actions and its
length, and is the one kept only if it equals the kept list."""

from __future__ import annotations

import random

import numpy as np
import pytest
from mariage.ai import pettingzoo_env
from mariage.ai.pettingzoo_env import MariageEnv
from mariage.engine.actions import Play
from mariage.engine.mechanisms.questions import _asked
from mariage.engine.phase import Phase

# (questions at a lead and an auction; declarations made anew and a talon; belote's
# announcements at a lead; a closing offered at a lead)
RULESETS = ["marjapussi-de", "thousand", "thousand-2", "belote-coinche", "sixty-six"]


def _legal_ids(env: MariageEnv) -> list[int]:
    """The legal ids of the agent to act, as the action space lists them."""
    assert env.state_ is not None
    return env.space.legal_ids(env.state_, picked=env.picked, listing=env._picks)


def _played(env: MariageEnv, seed: int, rng: random.Random) -> list[tuple[str, list[int]]]:
    """A match of random play: per step the phase and the ids the mask has."""
    out: list[tuple[str, list[int]]] = []
    env.reset(seed=seed)
    for _agent in env.agent_iter(600):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert obs is not None and env.state_ is not None
        ids = np.flatnonzero(obs["action_mask"]).tolist()
        out.append((env.state_.phase.name, ids))
        env.step(ids[rng.randrange(len(ids))])
    return out


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_mask_is_the_legal_ids_with_lists_kept(ruleset: str) -> None:
    """In random play of two environments of the ruleset at once (sharing what they
    keep) and one of another, every mask is the action space's legal ids, a new
    writeable array (a change to it changes no later mask)."""
    other = "thousand" if ruleset != "thousand" else "marjapussi-de"
    envs = [MariageEnv(ruleset, max_hands=2), MariageEnv(ruleset, max_hands=2),
            MariageEnv(other, max_hands=2)]
    rng = random.Random(ruleset)
    for seed in range(3):
        for env in envs:
            env.reset(seed=seed)
        while any(env.agents for env in envs):
            for env in envs:
                if not env.agents:
                    continue
                obs, _, terminated, truncated, info = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                assert obs is not None
                mask = obs["action_mask"]
                assert mask is info["action_mask"] and mask.flags.writeable
                ids = np.flatnonzero(mask).tolist()
                assert ids == _legal_ids(env)
                action = ids[rng.randrange(len(ids))]
                mask[:] = 1  # (the agent's own array: nothing kept changes)
                env.step(action)


def test_environments_of_a_numbering_share_what_they_keep() -> None:
    """Two environments of a ruleset keep their lists in the same dicts; one of
    another ruleset has its own; an environment made anew finds what was kept."""
    first, second = MariageEnv("thousand"), MariageEnv("thousand")
    other = MariageEnv("thousand-2")
    assert first._kept_masks is second._kept_masks
    assert first._kept_others is second._kept_others
    assert other._kept_masks is not first._kept_masks
    _played(first, 1, random.Random(1))
    assert first._kept_masks and MariageEnv("thousand")._kept_masks is first._kept_masks


@pytest.mark.parametrize("ruleset", ["thousand", "marjapussi-de"])
def test_a_kept_list_of_the_same_key_but_other_actions_is_not_taken(ruleset: str) -> None:
    """Every list kept replaced by one of the same key (first and last action, length)
    but of other objects, with a mask of every id: a match played again with the same
    ids gets the masks it got the first time (the kept list is compared, not trusted)."""
    env = MariageEnv(ruleset, max_hands=2)
    for kept in (env._kept_masks, env._kept_others):
        kept.clear()
    seen = _played(env, 4, random.Random(4))
    assert {phase for phase, _ in seen} >= {"AUCTION", "PLAY"}
    everything = np.ones(env.space.size, np.int8)
    everything.flags.writeable = False
    for key, (listing, _) in list(env._kept_masks.items()):
        env._kept_masks[key] = ([object()] * len(listing), everything)  # type: ignore[list-item]
    for key, (listing, _, _) in list(env._kept_others.items()):
        env._kept_others[key] = ([object()] * len(listing),  # type: ignore[list-item]
                                 list(range(env.space.size)), None)
    assert env._kept_masks and (ruleset != "marjapussi-de" or env._kept_others)
    again = _played(MariageEnv(ruleset, max_hands=2), 4, random.Random(4))
    assert again == seen


def test_questions_of_the_same_first_and_last_are_told_apart() -> None:
    """Two lead listings of questions with the same first and last question and length
    but another in the middle: each gets its own ids and the bytes of its mask."""
    env = MariageEnv("marjapussi-de")
    _, pair, halves = _asked(len(env.rules.suits))
    one, two = [pair, halves[0], halves[3]], [pair, halves[1], halves[3]]
    space, cut = env.space, env._cut
    for listing in (one, two, one):
        _, ids, tail = env._keep_others(listing)
        assert ids == [space.ids[a] for a in listing]
        assert tail is not None and len(tail) == space.size - cut
        assert [cut + i for i, b in enumerate(tail) if b] == sorted(ids)


def test_a_list_holding_a_card_is_set_id_by_id() -> None:
    """Where some id of the list is not past the cards' ids, no bytes are kept for its
    mask (the ids are set one by one)."""
    env = MariageEnv("marjapussi-de")
    _, pair, _ = _asked(len(env.rules.suits))
    _, ids, tail = env._keep_others([Play(3), pair])
    assert tail is None and ids == [env.space.ids[Play(3)], env.space.ids[pair]]
    assert env._tail_of([env._cut - 1, env._cut]) is None
    assert env._tail_of([env._cut + 1, env.space.size - 1]) == \
        bytes([0, 1] + [0] * (env.space.size - env._cut - 3) + [1])


def test_an_illegal_bid_is_refused_where_the_listing_was_kept() -> None:
    """In an auction whose listings were kept (a second match of the same deals), an
    id the mask refuses is refused by the step, and the match is unchanged; an id the
    agent set to 0 in its own mask too (the step checks the mask it handed out)."""
    env = MariageEnv("thousand", max_hands=1)
    refused = 0
    for seed in (0, 1, 0, 1):
        rng = random.Random(seed)
        env.reset(seed=seed)
        while env.agents:
            state = env.state_
            assert state is not None
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            assert obs is not None
            mask = obs["action_mask"]
            ids = np.flatnonzero(mask).tolist()
            if state.phase == Phase.AUCTION and len(ids) > 1 and not mask.all():
                before = (len(state.history), env.agent_selection, bytes(mask))
                for illegal in (int(np.flatnonzero(mask == 0)[-1]), ids[-1]):
                    mask[ids[-1]] = 0
                    with pytest.raises(ValueError, match="is not legal"):
                        env.step(illegal)
                    mask[ids[-1]] = 1
                    assert (len(state.history), env.agent_selection, bytes(mask)) == before
                    refused += 1
            env.step(ids[rng.randrange(len(ids))])
    assert refused >= 8


def test_numberings_kept_are_bounded() -> None:
    """The lists are kept for at most 64 numberings (a 65th clears them)."""
    saved = dict(pettingzoo_env._SHARED)
    try:
        pettingzoo_env._SHARED.clear()
        for k in range(64):
            pettingzoo_env._SHARED[-k - 1] = ((), {}, {}, {})
        MariageEnv("schnapsen")
        assert len(pettingzoo_env._SHARED) == 1
    finally:
        pettingzoo_env._SHARED.clear()
        pettingzoo_env._SHARED.update(saved)
