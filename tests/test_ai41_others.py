"""PettingZoo's lists of the play phase's other actions (a lead's questions) kept by
their objects in the environment (``MariageEnv._others_seen``): the seats' lists in turn
are found again without a lookup, and a list found so is always the one listed."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from mariage.ai.pettingzoo_env import MariageEnv
from mariage.engine.mechanisms.questions import _asked
from mariage.engine.phase import Phase
from pzkit import live_turns


def test_each_list_of_questions_is_kept_once_and_its_masks_are_the_listing() -> None:
    """In random German Marjapussi, the environment keeps each list of a lead's questions
    (by its objects) once, however the seats' lists alternate, and every mask of the
    play phase is the ids of what the engine lists (fails where a list seen before, not
    the last one, is kept again: the seats' questions alternate lead after lead)."""
    env = MariageEnv("marjapussi-de", max_hands=3)
    kept: list[tuple[int, ...]] = []
    keep = env._keep_others

    def counted(others: Any) -> Any:
        kept.append(tuple(map(id, others)))
        return keep(others)

    env._keep_others = counted  # type: ignore[method-assign]
    rng = random.Random(2)
    leads = 0
    for agent in live_turns(env, range(8)):
        state = env.state_
        assert state is not None
        mask = env.infos[agent]["action_mask"]
        if state.phase == Phase.PLAY:
            ids = sorted(env.space.id(a) for a in state.legal_actions())
            assert np.flatnonzero(mask).tolist() == ids
            leads += not state.trick_cards
        legal = mask.nonzero()[0]
        env.step(int(legal[rng.randrange(len(legal))]))
    assert leads > 50 and len(kept) > 2
    assert len(kept) == len(set(kept)), "a list of questions kept again"


def test_lists_of_the_same_first_last_and_length_are_told_apart() -> None:
    """Two lists of questions with the same first and last objects and length but another
    between, alternating lead after lead: each lead's mask has the ids of its own list
    (fails if a list found by its first and last objects is not compared)."""
    env = MariageEnv("marjapussi-de", max_hands=1)
    env.reset(seed=1)
    state = env.state_
    assert state is not None
    rng = random.Random(1)
    while state.phase != Phase.PLAY:
        legal = env.infos[env.agent_selection]["action_mask"].nonzero()[0]
        env.step(int(legal[rng.randrange(len(legal))]))
    _, pair, halves = _asked(len(env.rules.suits))
    one, two = [pair, halves[0], halves[3]], [pair, halves[1], halves[3]]
    split = env.space._play_split(state)
    turn = 0

    def listing(st: Any, seat: int) -> tuple[int, list[Any]]:
        cards, _ = split(st, seat)
        return cards, [*(one if turn % 2 else two)]

    for turn in range(6):
        env._split, env._mech = listing, state.mech  # type: ignore[assignment]
        mask = env.infos[env.agent_selection]["action_mask"]
        legal = [i for i in mask.nonzero()[0] if i < env._cut]
        env.step(int(legal[0]))
        if state.phase != Phase.PLAY:
            break
        asked = one if turn % 2 else two
        others = [i for i in np.flatnonzero(env._mask_now) if i >= env._cut]
        assert others == sorted(env.space.id(a) for a in asked)
