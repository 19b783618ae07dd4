"""The Gymnasium environment's episode end and reset (forty-third session): an episode
truncated at a hand's end (``max_hands``) does not deal the next hand until something
reads it (the observation's vector, the info, ``env.state``, ``render``), and what is
read is what the state with that hand dealt gives; the next reset is as a new
environment's. The oracle is the same environment with the hold off (``_hold``: the
next hand dealt at once, as before), stepped alongside with the same actions."""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import pytest
from mariage import load_rules, new_match
from mariage.ai.encoding import Encoder
from mariage.ai.gym_env import MariageGymEnv
from mariage.engine.deals import SeededDeals
from mariage.engine.freshhand import slots_of
from mariage.engine.phase import Phase
from mariage.engine.state import GameState
from mariage.spec.specload import list_rulesets

#: a family each: a talon and auction, one picking a set per step, sitting out, a
#: stock drawn, a trump answered, a turned-up card that scores at the deal (no hold)
RULESETS = ("thousand", "thousand-2", "thousand-4", "schnapsen", "marianna",
            "marjapussi-de", "belote", "sixty-six-3", "mariglia")


def _pair(ruleset: str, **kwargs: Any) -> tuple[MariageGymEnv, MariageGymEnv]:
    """The environment, and the same with the next hand dealt at once (the oracle)."""
    env, dealt = MariageGymEnv(ruleset, **kwargs), MariageGymEnv(ruleset, **kwargs)
    dealt._hold = False
    return env, dealt


def _saved(state: GameState) -> dict[str, Any]:
    """What the state holds (its deal source as the generator's place in its stream)."""
    saved = state.__getstate__()
    source = saved.pop("deal_source")
    return {**saved, "deals": None if source is None else source.rng.state}


def _same_state(a: GameState, b: GameState) -> None:
    assert _saved(a) == _saved(b)


def _info(info: dict[str, Any]) -> list[Any]:
    return [(k, v.tobytes() if isinstance(v, np.ndarray) else v) for k, v in info.items()]


def _play(env: MariageGymEnv, dealt: MariageGymEnv, seed: int, rng: random.Random,
          keep: list[Any]) -> tuple[Any, ...]:
    """One episode of both from ``seed``, random legal actions; each answer compared
    (the masks, rewards and ends at once; the vectors and infos of the oracle read at
    once, the environment's kept unread in ``keep`` with the oracle's, for later)."""
    obs, info = env.reset(seed=seed)
    want, want_info = dealt.reset(seed=seed)
    while True:
        assert (obs["action_mask"] == want["action_mask"]).all()
        keep.append((obs, want["observation"].copy(), info, _info(want_info)))
        legal = want["action_mask"].nonzero()[0]
        action = int(legal[rng.randrange(len(legal))])
        obs, reward, terminated, truncated, info = env.step(action)
        want, reward_w, terminated_w, truncated_w, want_info = dealt.step(action)
        assert (reward, terminated, truncated) == (reward_w, terminated_w, truncated_w)
        assert (env.action_masks() == dealt.action_masks()).all()
        if terminated or truncated:
            keep.append((obs, want["observation"].copy(), info, _info(want_info)))
            return terminated, truncated


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("max_hands", [1, 2])
def test_every_answer_is_the_oracles(ruleset: str, max_hands: int) -> None:
    nseats = load_rules(ruleset).nseats
    for seat, opponents, reward in ((0, "random", "hand"), (nseats - 1, "greedy", "match")):
        env, dealt = _pair(ruleset, seat=seat, opponents=opponents, reward=reward,
                           max_hands=max_hands)
        rng = random.Random(seat)
        keep: list[Any] = []
        for seed in (4, 8, 4, 15):
            _play(env, dealt, seed, rng, keep)
            if seed == 8:  # the state read at the episode's end (its held hand dealt)
                assert env.state is not None and dealt.state is not None
                _same_state(env.state, dealt.state)
                assert env.render() == dealt.render()
        # every observation and info read late, after later episodes: as the oracle's
        for obs, vector, info, items in reversed(keep):
            assert (obs["observation"] == vector).all()
            assert _info(info) == items


def _truncated_unread(env: MariageGymEnv, seed: int) -> tuple[Any, Any]:
    """An episode from ``seed`` played to its end, the learner taking its first legal id,
    nothing read but the masks; the last observation and info."""
    obs, info = env.reset(seed=seed)
    while True:
        obs, _, terminated, truncated, info = env.step(int(obs["action_mask"].argmax()))
        if terminated or truncated:
            return obs, info


def test_a_truncated_episode_deals_no_next_hand_until_read(monkeypatch: Any) -> None:
    deals = []
    deal_next = GameState._deal_next

    def counted(state: GameState) -> None:
        deals.append(state.hand_no)
        deal_next(state)

    monkeypatch.setattr(GameState, "_deal_next", counted)
    env = MariageGymEnv("thousand", opponents="random", max_hands=1)
    for seed in range(6):
        obs, info = _truncated_unread(env, seed)
    assert deals == [0] * 6  # the first hand of each match: no second deal
    # read at last: the vector, hand and standing of the match with its second hand
    # dealt, dealt once
    assert (obs["observation"] == obs["observation"]).all() and info["hand"] == 2
    assert deals == [0] * 6 + [1]
    monkeypatch.undo()
    state = new_match(env.rules, 5)  # (the last episode replayed: its deal made)
    assert env._match is not None
    for action in env._match.log:
        state.apply(action)
    assert state.hand_no == 2 and info["standing"] == state.standing()
    assert (obs["observation"] == Encoder(env.rules).vector(state, 0)).all()


@pytest.mark.parametrize("read", ["observation", "info", "state", "render"])
def test_the_held_hand_is_dealt_by_any_read(read: str) -> None:
    env = MariageGymEnv("schnapsen", opponents="random", max_hands=1, render_mode="ansi")
    obs, info = _truncated_unread(env, 3)
    held = env._state
    assert held is not None and held.phase is Phase.DEAL and held.hand_no == 1
    if read == "observation":
        obs["observation"]
    elif read == "info":
        info["legal"]
    elif read == "state":
        assert env.state is held
    else:
        env.render()
    assert held.phase is not Phase.DEAL and held.hand_no == 2
    with pytest.raises(RuntimeError, match="after the episode ended"):
        env.step(0)


def test_a_deal_that_may_score_is_not_held() -> None:
    # a card turned up that scores for the dealer may end the match at the deal: the
    # episode's end (terminated or truncated) needs the deal made
    env = MariageGymEnv("mariglia", opponents="random", max_hands=1)
    assert load_rules("mariglia").turn_up_bonus and not env._hold
    _truncated_unread(env, 1)
    assert env._state is not None and env._state.phase is not Phase.DEAL


def test_vector_environments_autoreset_as_the_oracle() -> None:
    def envs(hold: bool) -> gymnasium.vector.SyncVectorEnv:
        def make(seat: int) -> Any:
            def env() -> MariageGymEnv:
                made = MariageGymEnv("thousand-2", seat=seat, opponents="random",
                                     reward="hand", max_hands=1)
                made._hold = hold
                return made
            return env
        return gymnasium.vector.SyncVectorEnv([make(0), make(1)])

    held, dealt = envs(True), envs(False)
    obs, _ = held.reset(seed=11)
    want, _ = dealt.reset(seed=11)
    rng = random.Random(2)
    ends = 0
    for _ in range(150):
        for k in obs:
            assert (obs[k] == want[k]).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0
                            for m in want["action_mask"]])
        obs, reward, terminated, truncated, info = held.step(actions)
        want, reward_w, terminated_w, truncated_w, info_w = dealt.step(actions)
        assert (reward == reward_w).all() and (terminated == terminated_w).all()
        assert (truncated == truncated_w).all()
        assert sorted(info) == sorted(info_w)
        ends += int(truncated.sum() + terminated.sum())
    assert ends >= 4


# ------------------------------------------------------- a match's start, kept per rules
def _lists(state: GameState) -> list[list[Any]]:
    """Every list a state holds in a slot, and the lists in those lists."""
    out = []
    for name in slots_of(type(state)):
        value = getattr(state, name, None)
        if type(value) is list:
            out.append(value)
            out += [v for v in value if type(v) is list]
    return out


def test_new_match_makes_no_state_by_its_init(monkeypatch: Any) -> None:
    rules = load_rules("thousand")
    new_match(rules, 1)  # (the start made once per rules)
    made = []
    init = GameState.__init__

    def counted(state: GameState, *args: Any, **kwargs: Any) -> None:
        made.append(args)
        init(state, *args, **kwargs)

    monkeypatch.setattr(GameState, "__init__", counted)
    for seed in range(3):
        new_match(rules, seed)
    assert made == []


@pytest.mark.parametrize("ruleset", list_rulesets())
def test_a_match_starts_as_a_new_state_of_the_rules(ruleset: str) -> None:
    rules = load_rules(ruleset)
    for seed in (0, 1, 2, 2**64 - 1):
        deals = SeededDeals(rules, seed)
        made = GameState(rules, first_dealer=deals.first_dealer)
        made.deal_source = deals
        made._deal_next()
        started = new_match(rules, seed)
        _same_state(started, made)
        assert type(started) is GameState


def _replayed(rules: Any, seed: int, log: list[Any]) -> GameState:
    """The match of ``seed`` made again with the engine, ``log``'s actions applied."""
    state = new_match(rules, seed)
    for action in log:
        state.apply(action)
    return state


def test_matches_share_no_list_before_or_after_play() -> None:
    env = MariageGymEnv("thousand", opponents="random", max_hands=2, reward="hand")
    rng = random.Random(3)
    played = []
    for seed in (6, 6, 7):
        obs, _ = env.reset(seed=seed)
        state, match = env.state, env._match
        assert state is not None and match is not None
        _same_state(state, _replayed(env.rules, seed, match.log))  # after play: as new
        seen = {id(v) for s, _, _ in played for v in _lists(s)}
        assert not seen & {id(v) for v in _lists(state)}
        played.append((state, match, seed))
        for _ in range(8):  # the agent's moves and the opponents' on this match only
            legal = obs["action_mask"].nonzero()[0]
            obs, _, terminated, truncated, _ = env.step(int(legal[rng.randrange(len(legal))]))
            if terminated or truncated:
                break
    # each match, played on after the others started, is its seed's with its own actions
    for state, match, seed in played:
        assert len(match.log) >= 8
        _same_state(state, _replayed(env.rules, seed, match.log))


def test_a_kept_start_asks_the_dealing_as_it_is_now(monkeypatch: Any) -> None:
    # a dealing class changed after the start was kept (a test's patch, a subclass's
    # method): the new match keeps what GameState() would ask of it, no fresh deal
    from mariage.engine.mechanisms import Dealing

    rules = load_rules("marianna")
    assert new_match(rules, 1)._lays  # (the start kept, with the fresh deals of now)
    check = Dealing.check_deck
    monkeypatch.setattr(Dealing, "check_deck", lambda *args: check(*args))
    made = GameState(rules)
    started = new_match(rules, 2)
    assert made._deals == made._lays == () and (started._deals, started._lays) == ((), ())
