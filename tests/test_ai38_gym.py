"""The Gymnasium step's lighter answer: the info made when first read
(:class:`mariage.ai.stepinfo.StepInfo`), the legality kept as the mask's bytes, no ids
listed per step, the later picks of a set from the listing kept at its first pick; the
``random`` opponents seeded again in place and choosing from the engine's listing
(:func:`mariage.ai.policies.random_chooser`). Every answer as before."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import numpy as np
import pytest
from mariage import load_rules, new_match
from mariage.ai import policies
from mariage.ai.encoding import ActionSpace
from mariage.ai.gym_env import MariageGymEnv
from mariage.ai.stepinfo import StepInfo
from mariage.arena.plainbots import RandomBot
from mariage.engine.phase import Phase
from mariage.engine.state import GameState


def _episode(env: MariageGymEnv, seed: int, read: bool) -> list[Any]:
    """One episode at random from the mask: every info, each read at once (as a plain
    dict, its mask copied) or left unread."""
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    infos = []
    while True:
        infos.append({k: v.copy() if k == "action_mask" else v for k, v in info.items()}
                     if read else info)
        if not obs["action_mask"].any():
            return infos
        legal = obs["action_mask"].nonzero()[0]
        obs, *_, info = env.step(int(legal[rng.randrange(len(legal))]))


@pytest.mark.parametrize("ruleset", ["thousand-2", "marjapussi-de", "sixty-six"])
def test_an_info_read_late_holds_what_it_held_at_its_step(ruleset: str) -> None:
    now = _episode(MariageGymEnv(ruleset, opponents="random", max_hands=2), 3, read=True)
    late = _episode(MariageGymEnv(ruleset, opponents="random", max_hands=2), 3, read=False)
    assert len(now) == len(late) > 5
    assert all(isinstance(info, StepInfo) and info.unread and dict.__len__(info) == 0
               for info in late)
    for was, info in zip(now, late, strict=True):  # read after the episode
        assert list(info) == ["action_mask", "legal", "hand", "standing"] == list(was)
        assert info["action_mask"].tobytes() == was["action_mask"].tobytes()
        assert info["action_mask"].dtype == np.int8 and info["action_mask"].flags.writeable
        assert (info["legal"], info["hand"], info["standing"]) == (
            was["legal"], was["hand"], was["standing"])
    assert sum(len(info["legal"]) for info in late) > len(late)


def test_the_info_is_a_dict_of_its_items_to_every_reader() -> None:
    texts = ("AH", "KH", "pass")

    def made() -> StepInfo:
        return StepInfo.of(b"\x00\x01\x01", texts, 2, (10, 0))

    plain = {"action_mask": np.array([0, 1, 1], np.int8), "legal": ["KH", "pass"],
             "hand": 2, "standing": (10, 0)}
    assert made()["legal"] == ["KH", "pass"] and made().get("hand") == 2
    assert len(made()) == 4 and "legal" in made() and made() != {"hand": 2}
    assert repr(made()) == repr(plain) and str(dict(made())) == repr(plain)
    assert list(made().keys()) == list(plain) and list(reversed(made())) == list(plain)[::-1]
    for other in (pickle.loads(pickle.dumps(made())), copy.copy(made()),
                  copy.deepcopy(made()), made().copy(), {**made()}, made() | {}):
        assert repr(other) == repr(plain)
    info = made()
    info["illegal"] = True  # (what step adds after the four)
    assert list(info) == [*plain, "illegal"]
    with pytest.raises(KeyError):
        made()["nothing"]
    shared = made()
    first = shared["action_mask"]
    first[0] = 1  # an array of the info's own, read once: the bytes it was made from unchanged
    assert shared["action_mask"] is first and made()["action_mask"].tolist() == [0, 1, 1]


def test_a_mask_changed_by_the_agent_changes_neither_legality_nor_the_info() -> None:
    env = MariageGymEnv("thousand", opponents="random", max_hands=1)
    obs, info = env.reset(seed=4)
    legal = obs["action_mask"].tobytes()
    obs["action_mask"][:] = 1  # an agent writing into the mask it was given
    assert info["action_mask"].tobytes() == legal
    assert env.action_masks().tobytes() == legal and env.action_masks().dtype == np.bool_
    assert env._ids == [i for i, b in enumerate(legal) if b]
    illegal = legal.index(0)
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    with pytest.raises(ValueError, match="not an action id"):
        env.step(env.space.size)
    obs, _ = env.reset(seed=6)
    rng = random.Random(6)
    while not obs["action_mask"][-1]:  # (the last id legal: redeal, after a few steps)
        legal_ids = obs["action_mask"].nonzero()[0]
        obs, *_ = env.step(int(legal_ids[rng.randrange(len(legal_ids))]))
    with pytest.raises(ValueError, match="not an action id"):
        env.step(-1)  # never read from the end of the bytes
    replaced = MariageGymEnv("thousand", opponents="random", illegal_action="replace")
    obs, _ = replaced.reset(seed=4)
    first = int(obs["action_mask"].nonzero()[0][0])
    state = replaced.state
    assert state is not None
    before = len(state.actions)
    with pytest.raises(ValueError, match="not an action id"):  # no id of the space: refused
        replaced.step(-1)
    *_, info = replaced.step(int((obs["action_mask"] == 0).nonzero()[0][0]))
    assert info["illegal"] and state.actions[before][1] == replaced.space.actions[first]


def test_no_id_is_listed_per_step_until_an_info_is_read(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    listed: list[str] = []

    def counting(name: str) -> Any:
        original = getattr(ActionSpace, name)

        def counted(space: ActionSpace, *args: Any, **kw: Any) -> Any:
            listed.append(name)
            return original(space, *args, **kw)
        return counted

    for name in ("play_ids", "legal_ids", "listed_ids"):
        monkeypatch.setattr(ActionSpace, name, counting(name))
    env = MariageGymEnv("thousand", opponents="random", max_hands=2)
    infos = _episode(env, 7, read=False)
    assert len(infos) > 10 and listed == []  # (the masks from the engine's bits)
    assert infos[-1]["legal"] == [] and listed == []  # (none left: no id listed)
    read = infos[-2]
    assert read["legal"] == [env.space.text(i) for i in read["action_mask"].nonzero()[0]] != []


@pytest.mark.parametrize("ruleset", ["thousand-2", "marjapussi-de"])
def test_the_picks_of_a_set_list_nothing_again(ruleset: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    env = MariageGymEnv(ruleset, opponents="random", max_hands=3)
    space = env.space
    listings = 0
    legal_actions = GameState.legal_actions

    def counted(state: GameState, *args: Any) -> Any:
        nonlocal listings
        listings += 1
        return legal_actions(state, *args)

    picks = 0
    for seed in range(4):
        rng = random.Random(seed)
        obs, _ = env.reset(seed=seed)
        while obs["action_mask"].any():
            state = env.state
            assert state is not None
            picked = env.picked  # (after a pick or not: the mask a space makes anew)
            assert obs["action_mask"].tobytes() == space.mask(state, picked=picked).tobytes()
            legal = obs["action_mask"].nonzero()[0]
            action = int(legal[rng.randrange(len(legal))])
            monkeypatch.setattr(GameState, "legal_actions", counted)
            listings = 0
            obs, *_ = env.step(action)
            monkeypatch.setattr(GameState, "legal_actions", legal_actions)
            if env.picked:  # a pick, the set not complete: its mask from the listing kept
                picks += 1
                assert listings == 0
    assert picks > 3


@pytest.mark.parametrize("ruleset", ["thousand", "schnapsen", "mariaggia", "marjapussi-de"])
def test_random_chooses_as_the_bot_whatever_the_rules(ruleset: str) -> None:
    # running totals (thousand), claims (schnapsen), call-outs (mariaggia), none
    rules = load_rules(ruleset)
    for seed in (1, 2):
        state = new_match(rules, seed)
        bot, fast = RandomBot(seed), policies.random_chooser(RandomBot(seed))
        phases = set()
        while not state.terminal and state.hand_no <= 2:
            phases.add(state.phase)
            action = bot.choose(state)
            assert fast(state) == action
            state.apply(action)
        assert Phase.PLAY in phases


def test_random_seeded_again_in_place_draws_as_a_new_one() -> None:
    state = new_match(load_rules("thousand"), 5)
    for seed in (0, 7, 2**63 - 1, 2**64 + 3):
        policy = policies.make_policy("random", 123)
        bot, choose = policy.bot, policies.chooser(policy)  # type: ignore[attr-defined]
        policy.reseed(seed)  # type: ignore[attr-defined]
        fresh = RandomBot(int(seed))
        assert policy.bot.rng.getstate() == fresh.rng.getstate()  # type: ignore[attr-defined]
        if type(seed) is int:  # the same bot and chooser, seeded again
            assert policy.bot is bot and policies.chooser(policy) is choose  # type: ignore[attr-defined]
        assert policies.chooser(policy)(state) == fresh.choose(state)


def test_the_opponents_kept_across_resets_play_as_new_ones() -> None:
    kept = MariageGymEnv("thousand-4", opponents="random", max_hands=1)
    bots = None
    for seed in (5, 9, 5, 12, 0):
        _episode(kept, seed, read=False)
        state = kept.state
        assert state is not None
        fresh = MariageGymEnv("thousand-4", opponents="random", max_hands=1)
        _episode(fresh, seed, read=False)
        assert fresh.state is not None and state.actions == fresh.state.actions
        now = [p.bot for p in kept._opponents.values()]  # type: ignore[attr-defined]
        assert bots is None or all(a is b for a, b in zip(now, bots, strict=True))
        bots = now
