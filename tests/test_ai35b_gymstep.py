"""The Gymnasium environment's step without its extra work: the other seats' bots called
as they are (:func:`mariage.ai.policies.chooser`), the standing asked once per hand, the
vector's values written into its array at once; every answer as before (the play
phase's ids listed no more: ``tests/test_ai38_gym.py``)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from mariage import load_rules, new_match
from mariage.ai import policies
from mariage.ai.encoding import Encoder
from mariage.ai.gym_env import MariageGymEnv
from mariage.engine.state import GameState


def _play(env: MariageGymEnv, seed: int, check: Any = None) -> int:
    """One episode at random from the mask; ``check(env, obs, info)`` after each answer;
    the steps taken."""
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    steps = 0
    while True:
        if check is not None:
            check(env, obs, info)
        legal = obs["action_mask"].nonzero()[0]
        obs, _, terminated, truncated, info = env.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
        if terminated or truncated:
            if check is not None:
                check(env, obs, info)
            return steps


def _same_as_the_space(env: MariageGymEnv, obs: Any, info: dict[str, Any]) -> None:
    """The mask and legal texts are the space's, the vector the encoder's."""
    state = env.state
    assert state is not None
    space, seat = env.space, env.seat
    if state.terminal or state.to_act != seat or state.hand_no > env.max_hands:
        assert not obs["action_mask"].any() and info["legal"] == []
    else:
        mask = space.mask(state, picked=env.picked)
        assert obs["action_mask"].tobytes() == mask.tobytes()
        assert info["action_mask"].tobytes() == mask.tobytes()
        ids = space.legal_ids(state, picked=env.picked)
        assert info["legal"] == [space.text(i) for i in ids]
    assert obs["action_mask"] is not info["action_mask"]
    assert obs["observation"].tobytes() == env.encoder.vector(state, seat, env.picked).tobytes()
    assert info["standing"] == state.standing()


@pytest.mark.parametrize(("ruleset", "seat"), [("thousand", 1), ("marjapussi-de", 0)])
def test_every_answer_is_the_space_and_encoders(ruleset: str, seat: int) -> None:
    # Thousand: an auction, a talon, cards given, then the play; German Marjapussi: a
    # set passed one pick per step, questions to the partner
    env = MariageGymEnv(ruleset, seat=seat, opponents="random", max_hands=2)
    assert _play(env, 4, _same_as_the_space) > 5


def test_the_bots_choose_without_the_policys_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    env = MariageGymEnv("thousand", opponents=["random", "greedy"], max_hands=1)
    _play(env, 2)  # the policies kept
    before = _play(MariageGymEnv("thousand", opponents=["random", "greedy"], max_hands=1), 3)
    checked: list[str] = []
    choose = policies._ViewPolicy.choose

    def counted(policy: Any, state: GameState) -> Any:
        checked.append(policy.name)
        return choose(policy, state)

    monkeypatch.setattr(policies._ViewPolicy, "choose", counted)
    assert _play(env, 3) == before  # the same episode as a new environment's
    # random reads no hidden card: its bot is called as it is; greedy decides on a
    # determinization, through the policy
    assert checked and set(checked) == {"greedy"}


@pytest.mark.parametrize("name", ["random", "greedy", "first", "ismcts"])
def test_a_chooser_chooses_as_its_policy(name: str) -> None:
    state = new_match(load_rules("marianna-siciliana"), 6)
    kw: dict[str, Any] = {"iterations": 5} if name == "ismcts" else {}
    fast = policies.chooser(policies.make_policy(name, 1, **kw))
    slow = policies.make_policy(name, 1, **kw)
    for _ in range(12):
        action = slow.choose(state)
        assert fast(state) == action
        state.apply(action)


def test_the_standing_is_asked_once_a_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = []
    standing = GameState.standing

    def counted(state: GameState) -> tuple[int, ...]:
        asked.append(state.hand_no)
        return standing(state)

    monkeypatch.setattr(GameState, "standing", counted)
    env = MariageGymEnv("marianna", opponents="random", max_hands=1)
    steps = _play(env, 5)
    assert steps > 5 and len(asked) <= 2  # (the hand, and the next one's deal)


def test_the_vectors_values_are_numpys_float32() -> None:
    # the values that are not 0 or 1 are written as float32 in the machine's byte
    # order: as numpy casts them (thirds, sevenths: rounded the same way)
    rules = load_rules("thousand")
    enc = Encoder(rules)
    state = new_match(rules, 9)
    rng = random.Random(1)
    for _ in range(30):
        vec = enc.vector(state, 2)
        assert vec.dtype == np.float32 and vec.shape == (enc.size,) and vec.flags.writeable
        names = enc.feature_names()
        at = names.index("hand_sizes[0]")
        hands = [state.hands[(2 + k) % 3].bit_count() / rules.ncards for k in range(3)]
        assert vec[at:at + 3].tolist() == np.array(hands, np.float32).tolist()
        passes = names.index("passes[0]")
        assert vec[passes] == np.float32(state.pass_step / 3)
        vec[:] = 7  # a new array each time: the next one is not this
        acts = state.legal_actions()
        state.apply(acts[rng.randrange(len(acts))])
        assert not (enc.vector(state, 2) == 7).all()
