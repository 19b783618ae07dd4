"""PettingZoo's observations read late: made from the match's actions replayed.

A step copies nothing for the observations still unread: each holds the environment's
:class:`~mariage.ai.lazyobs.ObservedMatch` and how many actions it had taken; one read after
later steps replays the match from its deal, once, whatever the order of the reads.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from mariage.ai.encoding import Encoder
from mariage.ai.lazyobs import LazyObservation, ObservedMatch
from mariage.ai.pettingzoo_env import MariageEnv

# (a set passed one card per step, an auction with questions; bids said and declared)
RULESETS = ["thousand-2", "marjapussi-de", "belote-contree"]


def _scratch(env: MariageEnv, agent: str) -> np.ndarray:
    """The agent's vector by an encoder that has kept nothing from earlier calls."""
    assert env.state_ is not None
    return Encoder(env.rules).vector(env.state_, env.possible_agents.index(agent), env.picked)


def _kept_unread(env: MariageEnv, seed: int | None, rng: random.Random, least: int = 10
                 ) -> list[tuple[LazyObservation, np.ndarray]]:
    """A match of random play (over ``least`` actions), every agent observed before
    every step and each observation kept unread, with its vector made from scratch
    then."""
    kept: list[tuple[LazyObservation, np.ndarray]] = []
    env.reset(seed=seed)
    match = env._match
    for agent in env.agent_iter(400):
        obs = env.last()[0]
        assert isinstance(obs, LazyObservation)
        kept.append((obs, _scratch(env, agent)))
        for other in env.agents:
            seen = env.observe(other)
            assert isinstance(seen, LazyObservation)
            kept.append((seen, _scratch(env, other)))
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        env.step(int(legal[rng.randrange(len(legal))]))
        # a step copies nothing: the same match, its state the live one, one more action
        # logged unless a card was picked before a set's last
        assert env._match is match and match.state is env.state_
        assert match._replayed is None and not match._snaps
    assert len(match.log) > least
    return kept


@pytest.mark.parametrize("name", RULESETS)
def test_late_reads_in_any_order_replay_the_match_once(name: str) -> None:
    """Observations read after the match went on, in a shuffled order: each is the vector
    made when it was observed; the match is replayed once, up to the latest read
    (a snapshot kept per number of actions on the way), never past it."""
    env = MariageEnv(name, max_hands=2)
    rng = random.Random(8)
    kept = _kept_unread(env, 4, rng)
    match = env._match
    assert match is not None
    rng.shuffle(kept)
    for obs, expected in kept:
        assert obs.unread and np.array_equal(obs["observation"], expected)
        assert not obs.unread
    latest = max(obs._at for obs, _ in kept if obs._at < len(match.log))
    assert len(match._snaps) == latest
    replayed = match._replayed
    assert replayed is not None and replayed is not match.state


def test_a_match_dealt_from_a_seed_of_its_own_replays_it() -> None:
    """``reset()`` without a seed deals from a seed drawn then: observations read late
    replay that one; those of the match before a reset keep theirs."""
    env = MariageEnv("schnapsen", max_hands=2)
    rng = random.Random(2)
    first = _kept_unread(env, None, rng, 1)  # (a deal of its own: at least one action)
    second = _kept_unread(env, None, rng, 1)
    for obs, expected in second[::-1] + first[::-1]:
        assert np.array_equal(obs["observation"], expected)


def test_a_match_without_a_seed_reads_its_state_as_it_is() -> None:
    """Without a match, an observation is of its state as it is when read
    (:meth:`LazyObservation.of`), or of the snapshot it holds; a match without a seed
    refuses to replay."""
    env = MariageEnv("sixty-six")
    env.reset(seed=3)
    state = env.state_
    assert state is not None
    enc = Encoder(env.rules)
    live = LazyObservation.of(enc, state, 0, 0, "mask")
    held = LazyObservation.of(enc, state, 1, 0, "mask")
    held.hold(enc.snapshot(state))
    before = enc.vector(state, 1)
    env.step(int(env.infos[env.agent_selection]["action_mask"].nonzero()[0][0]))
    assert np.array_equal(live["observation"], enc.vector(state, 0))
    assert np.array_equal(held["observation"], before)
    match = ObservedMatch(state, enc)
    match.log.append(state.legal_actions()[0])
    with pytest.raises(AssertionError, match="a match without a seed"):
        match.vector(0, 0, 0)


@pytest.mark.parametrize("name", ["marjapussi-de", "schnapsen"])
def test_once_one_was_read_late_the_unread_get_a_snapshot(name: str) -> None:
    """Observations read one step late: the first is replayed, and from then on (in
    the next match too) a step takes a snapshot where an observation of the state is
    unread, and none where all were read at once; no further replay."""
    env = MariageEnv(name, max_hands=2)
    rng = random.Random(6)
    for seed in (1, 2):
        env.reset(seed=seed)
        match = env._match
        assert match is not None and match.eager == (seed == 2)
        late: tuple[LazyObservation, np.ndarray] | None = None
        held = 0
        for agent in env.agent_iter(300):
            counted = match.eager  # (an observation made before it is not counted)
            obs = env.last()[0]
            assert isinstance(obs, LazyObservation)
            if late is not None:  # the observation before the step just taken
                assert np.array_equal(late[0]["observation"], late[1])
                late = None
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            read_now = rng.random() < 0.4
            if read_now:
                assert np.array_equal(obs["observation"], _scratch(env, agent))
            else:
                late = (obs, _scratch(env, agent))
            before = len(match.snapshots)
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            if counted and env.picked == 0:
                assert len(match.snapshots) - before == (not read_now)
            held += len(match.snapshots) > before
        assert match.eager and held > 5
        # replayed only up to the first late read of the first match
        assert len(match._snaps) <= (1 if seed == 1 else 0)
