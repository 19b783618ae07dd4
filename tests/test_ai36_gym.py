"""The Gymnasium environment's step with less around it: the random bot's filter by the
kinds listed (the sets after a concession not made one by one), the legal ids kept for a
step's legality, the texts made once per numbering, one helper for the masks of lists of
ids (:mod:`mariage.ai.legalinfo`), the lookup of ids moved to :mod:`mariage.ai.actionids`;
every answer as before."""

from __future__ import annotations

import pickle
import random
from collections.abc import Sequence

import numpy as np
import pytest
from mariage import load_rules, new_match
from mariage.ai import encoding, legalinfo, listed
from mariage.ai.actionids import ObjectIds
from mariage.ai.encoding import ActionSpace
from mariage.ai.gym_env import MariageGymEnv
from mariage.arena.plainbots import RandomBot, hand_value, sensible_actions
from mariage.engine.actions import Action, Bid, CallOut, Claim, Concede, Raise
from mariage.engine.mechanisms.passing import CardSets
from mariage.engine.state import GameState


def _plainly(state: GameState, cautious_bids: bool = True) -> list[Action]:
    """What the random bot's filter leaves, written plainly (the filter before it was
    made quicker): every legal action looked at."""
    acts = list(state.legal_actions())
    r = state.rules
    seat = state.to_act
    assert seat is not None
    team = r.team_of[seat]
    good = state.match_scores[team] + state.hand_points(team) >= r.match_target
    claim_good = r.claim_rule is not None and state.hand_points(team) >= r.claim_target
    out = [a for a in acts if (not isinstance(a, CallOut) or good)
           and (not isinstance(a, Claim) or claim_good)]
    if r.running_rule is not None and cautious_bids:
        low = next((a.value for a in out if isinstance(a, Bid)), None)
        out = [a for a in out if not ((isinstance(a, Bid) and a.value != low)
                                      or (isinstance(a, Raise) and a.value != 0))]
    if r.running_rule is not None and any(isinstance(a, Concede) for a in out):
        hopeless = hand_value(state, seat) < state.contract
        out = [a for a in out if isinstance(a, Concede) == hopeless] or out
    return out


@pytest.mark.parametrize("ruleset", ["thousand-2", "thousand", "schnapsen", "belote"])
def test_the_sensible_actions_are_those_of_the_plain_filter(ruleset: str) -> None:
    # Thousand for two: an auction, a concession before the sets of cards given, raises;
    # Schnapsen: claims; Belote: call-outs
    rules = load_rules(ruleset)
    rng = random.Random(3)
    seen_sets = 0
    for seed in range(2):
        state = new_match(rules, seed)
        while not state.terminal and state.hand_no <= 2:
            for cautious in (True, False):
                fast = sensible_actions(state, cautious)
                assert len(fast) == len(_plainly(state, cautious))
                assert list(fast) == _plainly(state, cautious)
                assert [fast[k] for k in range(len(fast))] == list(fast)
            seen_sets += type(state.legal_actions()) is CardSets
            acts = _plainly(state)
            state.apply(acts[rng.randrange(len(acts))])
    assert seen_sets or ruleset != "thousand-2"


def test_a_random_choice_among_sets_after_a_concession_makes_no_list_of_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_rules("thousand-2")
    chosen = 0
    for seed in range(12):
        state = new_match(rules, seed)
        bot, rng = RandomBot(seed), random.Random(seed)
        while state.hand_no == 1 and not state.terminal:
            acts = state.legal_actions()
            if type(acts) is CardSets and acts.head:
                plain = _plainly(state)
                expected = random.Random(seed).choice(plain)
                with monkeypatch.context() as m:  # the sets are never gone through
                    def refused(self: CardSets) -> None:
                        raise AssertionError("every set made")
                    m.setattr(CardSets, "__iter__", refused)
                    assert RandomBot(seed).choose(state) == expected
                chosen += len(plain) > 1
            state.apply(bot.choose(state) if rng.random() < 0.5 else acts[0])
    assert chosen  # (a contract not hopeless: a set chosen among many)


def test_the_sets_without_the_head_are_the_list_of_the_sets() -> None:
    sets = CardSets([1, 2, 4, 8], 2, (Concede(),))
    view = sets.sets()
    listed: Sequence[Action] = list(sets)[1:]
    assert len(view) == 6 and list(view) == listed and view[-1] == listed[-1]
    assert view[1:3] == listed[1:3] and listed[2] in view
    with pytest.raises(IndexError):
        view[6]


def _episode(env: MariageGymEnv, seed: int) -> int:
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    steps = 0
    while True:
        ids = np.flatnonzero(obs["action_mask"]).tolist()
        assert ids == env._ids and env.action_masks().tolist() == obs["action_mask"].astype(
            bool).tolist()
        assert info["legal"] == [env._texts[i] for i in ids]
        obs, _, terminated, truncated, info = env.step(ids[rng.randrange(len(ids))])
        steps += 1
        if terminated or truncated:
            assert env._ids == [] and not obs["action_mask"].any()
            return steps


def test_a_step_is_legal_by_the_ids_kept() -> None:
    env = MariageGymEnv("marjapussi-de", opponents="random", max_hands=1)
    assert _episode(env, 2) > 10  # (a set passed one pick per step)
    env.reset(seed=5)
    ids = list(env._ids)
    obs, *_ = env.step(ids[0])  # a mask changed by the learner changes no legality
    obs["action_mask"][:] = 1
    with pytest.raises(ValueError, match="not legal"):
        env.step(env.space.size - 1 if env.space.size - 1 not in env._ids else -1)
    replaced = MariageGymEnv("schnapsen", illegal_action="replace", illegal_penalty=-1.0)
    obs, _ = replaced.reset(seed=1)
    first = int(np.flatnonzero(obs["action_mask"])[0])
    unlisted = next(i for i in range(replaced.space.size) if not obs["action_mask"][i])
    state = replaced.state
    assert state is not None
    before = len(state.actions)
    _, reward, *_, info = replaced.step(unlisted)
    assert info["illegal"] and reward <= -1.0
    assert state.actions[before][1] == replaced.space.actions[first]  # the first legal


def test_the_texts_are_made_once_per_numbering() -> None:
    one = MariageGymEnv("thousand")
    other = MariageGymEnv("thousand", opponents="first")
    assert one._texts is other._texts  # (one rules object: one tuple)
    assert list(one._texts) == [one.space.text(i) for i in range(one.space.size)]
    unpickled = pickle.loads(pickle.dumps(one.space))
    assert legalinfo.texts_of(unpickled) == one._texts


def test_one_helper_makes_the_masks_of_lists_of_ids() -> None:
    # (the Gymnasium environment makes none: its masks are the space's, its info's a
    # copy of the bytes it keeps)
    assert vars(encoding)["mask_of"] is legalinfo.mask_of is vars(listed)["mask_of"]
    mask = legalinfo.mask_of([4, 1], 6)
    assert mask.dtype == np.int8 and mask.flags.writeable and mask.tolist() == [0, 1, 0, 0, 1, 0]


def test_the_space_looks_ids_up_by_its_base() -> None:
    space = ActionSpace(load_rules("thousand"))
    assert isinstance(space, ObjectIds) and space._kept_bound == encoding._KEPT_OBJECTS
    state = new_match(space.rules, 2)
    space.legal_ids(state)
    again = pickle.loads(pickle.dumps(space))
    assert again._by_object == {} and again._kept_bound == encoding._KEPT_OBJECTS
    assert again.legal_ids(state) == space.legal_ids(state)
