"""The masks outside the play phase (auction, passing, contract, talon, questions) kept
by the listing's objects, and the masks of passing one card from the hand made from its
bits (``ActionSpace.mask``, ``mariage.ai.listed``): a listing of the same objects again,
or one card passed, is answered without looking any action up, and the answer is always
the ids of the actions listed now, looked up by their hash."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest
from mariage import list_rulesets, load_rules, new_match
from mariage.ai.encoding import ActionSpace
from mariage.ai.listed import KeptListings
from mariage.ai.pettingzoo_env import MariageEnv
from mariage.engine.actions import Action, Answer, Bid, Pass
from mariage.engine.mechanisms.passing import CardSets
from mariage.engine.phase import Phase
from mariage.engine.state import GameState

#: what looks the actions of a listing up (one by one, or by the objects kept)
_LOOKUPS = ("_each_id", "_other_ids", "_ids_at_once")


def _looked_up(*_: object) -> list[int]:
    raise AssertionError("an action was looked up")


def _same_objects(state: GameState) -> bool:
    """Whether the engine lists the same objects again (or the sets of a hand)."""
    first, again = state.legal_actions(), state.legal_actions()
    return type(first) is CardSets or (
        type(first) is list and len(first) == len(again)
        and all(a is b for a, b in zip(first, again, strict=True)))


def _checked(space: ActionSpace, state: GameState) -> bool:
    """Check the masks of the seat to act outside the play phase: the ids by hash, the
    second time too (with the first one written over), and that time without an action
    looked up where the engine lists the same objects; whether it was so."""
    want = sorted({space.ids[a] for a in state.legal_actions()})
    first = space.mask(state)
    assert np.flatnonzero(first).tolist() == want
    first[:] = 1  # (the caller's own array: the one kept is not changed)
    same = _same_objects(state)
    if same:
        for name in _LOOKUPS:
            setattr(space, name, _looked_up)
    try:
        again = space.mask(state)
    finally:
        for name in _LOOKUPS:
            space.__dict__.pop(name, None)
    assert again.flags.writeable and np.flatnonzero(again).tolist() == want
    return same


def test_masks_outside_play_are_kept_and_are_the_legal_ids() -> None:
    """In every ruleset, at each decision outside the play phase of seeded random
    matches (no set picked one card at a time), the mask is the legal ids, and asked
    again it looks no action up where the listing is the same objects (a pass, an
    answer, a raise, a talon's packets, a bid ladder's slice; a card of the hand)."""
    kept = 0
    phases: set[Phase] = set()
    for name in list_rulesets():
        rules = load_rules(name)
        space = ActionSpace(rules)
        rng = random.Random(7)
        for seed in range(2):
            state = new_match(rules, seed)
            while not state.terminal and state.hand_no <= 2:
                picking = space.pick_size and state.phase == Phase.PASSING \
                    and state.pass_step >= 0
                if state.phase != Phase.PLAY and not picking:
                    kept += _checked(space, state)
                    phases.add(state.phase)
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
    assert kept > 200 and {Phase.AUCTION, Phase.PASSING, Phase.CONTRACT} <= phases


@pytest.mark.parametrize("name", ["thousand", "marjapussi-de"])
def test_pettingzoo_looks_up_a_listing_outside_play_once(name: str) -> None:
    """The PettingZoo environment's mask of the agent to act (its info) is the legal ids
    at every step of seeded random matches (picks of a set left to the tests of
    ``test_ai_listings``), and outside the play phase the actions of a listing of the
    same objects are looked up once (a forced pass, an answer, a raise...)."""
    env = MariageEnv(name, max_hands=2)
    env.space._listed._kept.clear()  # (the listings kept in the numbering's store: none)
    space = env.space
    seen: set[tuple[int, ...]] = set()
    looked = depth = 0

    def counted(lookup: Callable[[list[Action]], list[int]]
                ) -> Callable[[list[Action]], list[int]]:
        def ids(listing: list[Action]) -> list[int]:
            nonlocal looked, depth
            assert env.state_ is not None
            if env.state_.phase != Phase.PLAY and not depth:  # (one lookup in another)
                objects = tuple(map(id, listing))
                assert objects not in seen, f"{listing} looked up again"
                seen.add(objects)
                looked += 1
            depth += 1
            try:
                return lookup(listing)
            finally:
                depth -= 1
        return ids

    for name in ("_each_id", "_ids_at_once"):
        setattr(space, name, counted(getattr(space, name)))
    rng = random.Random(3)
    # (four matches: an auction's bids and an answer are made from their phase's window,
    # not looked up, so the listings looked up are a hand's first bids, raises, sets)
    for seed in range(4):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            state = env.state_
            assert state is not None
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            legal = np.flatnonzero(env.infos[agent]["action_mask"]).tolist()
            if not env.picked and not env._picks:
                assert legal == sorted({space.ids[a] for a in state.legal_actions()})
            env.step(legal[rng.randrange(len(legal))])
    assert looked > 3


def test_a_plain_last_action_is_found_by_its_kind_and_fresh_kinds_are_not_kept() -> None:
    """A listing whose last action has no fields is found again when made anew (by its
    kind, then by equality); a listing holding a kind made anew each time is answered
    but not kept (its objects would never be listed again); each mask is the caller's
    own."""
    kept = KeptListings(200)
    calls: list[int] = []

    def ids_of(listing: list[Action]) -> list[int]:
        calls.append(len(listing))
        return [a.value % 200 if type(a) is Bid else 0 for a in listing]

    for _ in range(3):
        mask = kept.mask([Pass(), Pass()], ids_of, {Pass: 0}, set())
        assert mask.flags.writeable and np.flatnonzero(mask).tolist() == [0]
        mask[1] = 1
    assert calls == [2]
    for yes in (True, True, False):
        mask = kept.mask([Bid(120), Answer(yes)], ids_of, {Pass: 0}, {Answer})
        assert mask.flags.writeable and np.flatnonzero(mask).tolist() == [0, 120]
    assert calls == [2, 2, 2, 2] and len(kept._kept) == 1
