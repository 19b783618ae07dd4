"""The per-hand rewards hold the ranges and meanings ``docs/ai.rst`` gives them
(property tests over random matches of every ruleset)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mariage import list_rulesets, load_rules, new_match
from mariage.ai.gym_env import MariageGymEnv
from mariage.ai.rewards import hand_rewards, hand_scale, hand_score
from mariage.engine.rules import Rules

RULESETS = list_rulesets()
SETTINGS = settings(max_examples=8, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.differing_executors])


def _kinds(rules: Rules) -> list[str]:
    return ["hand"] + (["game_points"] if rules.score_kind == "game_points" else [])


@pytest.mark.parametrize("name", RULESETS)
@SETTINGS
@given(seed=st.integers(0, 2**31 - 1), hands=st.integers(1, 8))
def test_hand_rewards_hold_their_ranges(name: str, seed: int, hands: int) -> None:
    """Every per-hand reward lies in [-1, 1]; ``game_points`` needs no clipping (a
    hand's game points differ by at most 3); unclipped, the sides' ``hand`` rewards
    sum to 0 (the others' mean is subtracted) and add up over the match to the
    standing each side gained over the others' mean, over the scale (but for points
    scored at a deal, which no hand's record holds)."""
    rules = load_rules(name)
    rng = random.Random(seed)
    state = new_match(rules, seed)
    while not state.terminal and len(state.history) < hands:
        state.apply(rng.choice(state.legal_actions()))
    teams = len(rules.teams)
    seat_of = [rules.team_of.index(t) for t in range(teams)]
    gained = [0.0] * teams
    clipped = False
    for k, record in enumerate(state.history):
        for kind in _kinds(rules):
            values = hand_rewards(state, k, kind)
            assert all(-1.0 <= v <= 1.0 for v in values)
            assert all(values[s] == values[seat_of[rules.team_of[s]]]
                       for s in range(rules.nseats))  # a side's seats alike
            per_team = [values[s] for s in seat_of]
            if kind == "game_points":
                score = record.score
                for t in range(teams):
                    others = [score[u] for u in range(teams) if u != t]
                    assert abs(score[t] - sum(others) / len(others)) <= 3
            elif all(abs(v) < 1.0 for v in per_team):
                assert sum(per_team) == pytest.approx(0.0, abs=1e-9)
            else:
                clipped = True
        added = hand_score(rules, record.score, record.winner)
        for t in range(teams):
            others = [added[u] for u in range(teams) if u != t]
            gained[t] += added[t] - sum(others) / len(others)
    if clipped or not state.history:
        return
    standing = state.standing()
    for t in range(teams):
        others = [standing[u] for u in range(teams) if u != t]
        total = sum(hand_rewards(state, k, "hand")[seat_of[t]]
                    for k in range(len(state.history)))
        assert total == pytest.approx(gained[t] / hand_scale(rules))
        # (contract games count hands, not the standing; a turn-up bonus is scored at
        # the deal, outside the hands' records, and the reward leaves it out)
        if rules.match_measure != "hands_played" and not rules.turn_up_bonus:
            assert gained[t] == pytest.approx(standing[t] - sum(others) / len(others))


def test_a_hand_won_is_rewarded_where_hands_won_are_counted() -> None:
    """Mariazza counts hands won (segni): its hands record no score, and the ``hand``
    reward is +1 / -1 to the side that took the hand / the other (it was 0 always)."""
    rules = load_rules("mariazza")
    rng = random.Random(0)
    state = new_match(rules, 1)
    while not state.terminal and len(state.history) < 3:
        state.apply(rng.choice(state.legal_actions()))
    for k, record in enumerate(state.history):
        assert record.score == (0, 0) and record.winner in (0, 1)
        values = hand_rewards(state, k, "hand")
        assert values[rules.team_of.index(record.winner)] == 1.0
        assert values[rules.team_of.index(1 - record.winner)] == -1.0


@pytest.mark.parametrize("name", ["sixty-six-3", "thousand-4", "mariazza", "schnapsen",
                                  "marjapussi-de"])
@SETTINGS
@given(seed=st.integers(0, 2**31 - 1), seat=st.integers(0, 3))
def test_a_gym_step_rewards_the_hands_it_closes(name: str, seed: int, seat: int) -> None:
    """A step's reward is the sum of the rewards of the hands that ended during it
    (more than one where the learning seat sits a hand out; the first step's also those
    that reset() played through); ``match`` gives +1, -1 or 0 at the end only."""
    rules = load_rules(name)
    seat %= rules.nseats
    rng = np.random.default_rng(seed)
    for kind in ["match", *_kinds(rules)]:
        env = MariageGymEnv(name, seat=seat, opponents="random", reward=kind, max_hands=6)
        obs, _ = env.reset(seed=seed)
        done = False
        before = 0  # (the hands rewarded so far)
        while not done:
            state = env.state
            assert state is not None
            obs, reward, terminated, truncated, _ = env.step(
                int(rng.choice(obs["action_mask"].nonzero()[0])))
            done = terminated or truncated
            if kind == "match":
                assert reward == 0.0 or (terminated and reward in (-1.0, 1.0))
                continue
            closed = range(before, len(state.history))
            before = len(state.history)
            assert reward == pytest.approx(sum(hand_rewards(state, k, kind)[seat]
                                               for k in closed))
            assert abs(reward) <= max(1, len(closed))


def test_the_hand_rewards_scales_the_page_names() -> None:
    """The reward table's divisors: the target where the match is played to points
    (Thousand's auction included), 1 where hands won count, the highest contract where
    the match lasts a number of hands (German Marjapussi's, as the page quotes it)."""
    import re
    from pathlib import Path

    text = " ".join((Path(__file__).resolve().parent.parent / "docs" / "ai.rst")
                    .read_text(encoding="utf-8").split())
    quoted = re.search(r"fixed number of hands: German Marjapussi, (\d+)\)", text)
    assert quoted is not None
    german = load_rules("marjapussi-de")
    assert german.match_measure == "hands_played"
    assert hand_scale(german) == int(quoted.group(1)) == german.bid_max
    thousand = load_rules("thousand")
    assert thousand.match_measure == "points" and hand_scale(thousand) == thousand.match_target
    assert hand_scale(load_rules("mariazza")) == 1.0


@pytest.mark.parametrize(("name", "kind"), [("sixty-six-3", "game_points"),
                                            ("thousand-4", "hand")])
def test_a_pettingzoo_reward_sums_the_hands_since_the_agent_last_acted(
        name: str, kind: str) -> None:
    """``last()`` gives an agent the rewards of every hand that ended since it last
    acted (``docs/ai.rst``, Rewards): one hand's, in the table's range, or several
    where it sat a hand out, their sum."""
    from mariage.ai.pettingzoo_env import MariageEnv

    env = MariageEnv(name, reward=kind, max_hands=5)
    several = 0
    for seed in range(3):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        since = dict.fromkeys(env.possible_agents, 0)  # the hands ended when it acted
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            state = env.state_
            assert state is not None
            seat = env.possible_agents.index(agent)
            ended = range(since[agent], len(state.history))
            assert reward == pytest.approx(sum(hand_rewards(state, k, kind)[seat]
                                               for k in ended))
            assert abs(reward) <= max(1, len(ended))
            several += len(ended) > 1
            since[agent] = len(state.history)
            env.step(None if terminated or truncated
                     else int(rng.choice(obs["action_mask"].nonzero()[0])))
    assert several  # (the case met)
