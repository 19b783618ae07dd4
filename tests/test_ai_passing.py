"""Factored passing in the AI layer: a set of N cards is N decisions of one card each.

Where the rules pass sets of several cards (German Marjapussi four, Thousand for two
lays two away), the action ids hold one pick per card instead of one id per set; the
environments collect the picks and give the engine the whole set. These tests walk the
picks and check that they reach exactly the sets the engine allows, and that
PettingZoo, OpenSpiel, Gymnasium and the encoders agree on them.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import pyspiel
import pytest
from mariage import GameState, IllegalActionError, load_rules, new_match
from mariage.ai import openspiel_game
from mariage.ai.encoding import ActionSpace, Encoder, InfoStateEncoder, Pick
from mariage.ai.gym_env import MariageGymEnv
from mariage.ai.layout import action_list, pick_size
from mariage.ai.pettingzoo_env import MariageEnv
from mariage.engine.actions import Give
from mariage.engine.phase import Phase
from pzkit import live_turns

FACTORED = ["marjapussi-de", "thousand-2"]


def _at_passing(name: str, seed: int) -> GameState:
    """A state of ``name`` where the seat to act passes a set of cards (random play)."""
    rules = load_rules(name)
    rng = random.Random(seed)
    for match_seed in range(seed, seed + 200):
        state = new_match(rules, match_seed)
        while not state.terminal and state.hand_no <= 3:
            if state.phase == Phase.PASSING and state.pass_step >= 0:
                return state
            acts = state.legal_actions()
            state.apply(acts[rng.randrange(len(acts))])
    raise AssertionError(f"{name}: no passing reached")


def _complete_sets(space: ActionSpace, state: GameState, picked: int, count: int,
                   out: set[int]) -> None:
    """Every set the picks can complete from ``picked`` (each subset walked once)."""
    if picked.bit_count() == count:
        out.add(picked)
        return
    base = space.pick_base
    for i in space.legal_ids(state, picked=picked):
        if not base <= i < base + state.rules.ncards:
            assert not picked, "only picks once a set is begun"
            continue
        card = i - base
        if not picked >> card & 1 and (picked | 1 << card) not in out:
            _complete_sets(space, state, picked | 1 << card, count, out)


def test_only_sets_of_several_cards_are_factored() -> None:
    sizes = {n: pick_size(load_rules(n)) for n in ("marjapussi-de", "thousand-2",
                                                    "thousand", "marianna")}
    assert sizes == {"marjapussi-de": 4, "thousand-2": 2, "thousand": 0, "marianna": 0}
    de = action_list(load_rules("marjapussi-de"))
    assert not any(type(a) is Give for a in de)
    assert [a for a in de if type(a) is Pick] == [Pick(c) for c in range(36)]
    # single cards given in Thousand stay engine actions, one id each
    assert sum(type(a) is Give for a in action_list(load_rules("thousand"))) == 24
    # a slot per decision, each with a place per id: 48,731 values, not 10.9 million
    assert InfoStateEncoder(load_rules("marjapussi-de")).size == 48_731


@pytest.mark.parametrize("name", FACTORED)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_picks_reach_exactly_the_legal_sets(name: str, seed: int) -> None:
    state = _at_passing(name, seed)
    space = ActionSpace(state.rules)
    count = state.mech.passing.seats(state)[2]
    legal = state.legal_actions()
    sets = {a.cards for a in legal if type(a) is Give}
    others = sorted(space.id(a) for a in legal if type(a) is not Give)
    first = space.legal_ids(state)
    assert [i for i in first if i < space.pick_base or
            i >= space.pick_base + state.rules.ncards] == others
    reached: set[int] = set()
    _complete_sets(space, state, 0, count, reached)
    assert reached == sets and len(sets) > 1
    # a random walk over the ids applies one of those sets, and only then
    rng = random.Random(seed)
    for _ in range(20):
        trial = state.clone()
        seat, hand, picked = trial.to_act, trial.hands[trial.to_act], 0
        assert seat is not None
        for k in range(count):
            ids = [i for i in space.legal_ids(trial, picked=picked)
                   if type(space.action(i)) is Pick]
            picked = space.play(trial, rng.choice(ids), picked)
            assert (picked == 0) == (k == count - 1)
        given = hand & ~trial.hands[seat]
        assert given in sets and trial.actions[-1] == (seat, Give(given))


@pytest.mark.parametrize("name", [*FACTORED, "thousand", "marianna"])
@pytest.mark.parametrize("seed", [1, 2])
def test_pick_legal_agrees_with_the_legal_ids(name: str, seed: int) -> None:
    """After every step (and pick) of random play, a card may be picked exactly where its
    pick is among the legal ids (only while a set is passed one card at a time)."""
    rules = load_rules(name)
    space = ActionSpace(rules)
    rng = random.Random(seed)
    state, picked, checked = new_match(rules, seed), 0, 0
    while not state.terminal and state.hand_no <= 3:
        ids = space.legal_ids(state, picked=picked)
        for card in range(rules.ncards):
            legal = space.pick_base >= 0 and space.pick_base + card in ids
            assert space.pick_legal(state, card, picked) == legal, (card, picked)
            checked += legal
        picked = space.play(state, ids[rng.randrange(len(ids))], picked)
    assert (checked > 0) == (name in FACTORED)


def test_pettingzoo_and_the_encoder_agree_on_picks() -> None:
    env = MariageEnv("marjapussi-de", max_hands=2)
    rules = env.rules
    space, enc = env.space, env.encoder
    picked_part = next(f for f in enc.features if f.name == "picked")
    rng = random.Random(5)
    picks_seen = 0
    for agent in live_turns(env, range(3)):
        obs = env.last()[0]
        state, picked = env.state_, env.picked
        assert state is not None
        mask = obs["action_mask"]
        assert np.flatnonzero(mask).tolist() == space.legal_ids(state, picked=picked)
        part = obs["observation"][picked_part.offset:picked_part.offset + rules.ncards]
        assert np.flatnonzero(part).tolist() == rules.cards_of(picked)
        for other in env.agents:
            if other != agent:
                hidden = env.observe(other)["observation"]
                assert not hidden[picked_part.offset:][:rules.ncards].any()
        choice = int(rng.choice(np.flatnonzero(mask)))
        picks_seen += type(space.action(choice)) is Pick
        env.step(choice)
    assert picks_seen >= 8


@pytest.mark.parametrize("name", FACTORED)
def test_openspiel_picks_are_seen_by_their_picker_only(name: str) -> None:
    game = pyspiel.load_game(openspiel_game.game_name(name))
    rules = load_rules(name)
    space = ActionSpace(rules)
    rng = random.Random(3)
    for _ in range(30):
        state = game.new_initial_state()
        seen_pick = False
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            player = state.current_player()
            legal = state.legal_actions()
            assert legal == space.legal_ids(state.gs, picked=state.picked)
            action = rng.choice(legal)
            if type(space.action(action)) is Pick:
                seen_pick = True
                before = [state.information_state_string(p) for p in range(rules.nseats)]
                tensors = [state.information_state_tensor(p) for p in range(rules.nseats)]
                state.apply_action(action)
                other = next(p for p in range(rules.nseats) if p != player)
                assert state.information_state_string(other).endswith("pick:?")
                assert state.information_state_string(player).endswith(space.text(action))
                assert before[other] != state.information_state_string(other)
                assert tensors[other] != state.information_state_tensor(other)
            else:
                state.apply_action(action)
        if seen_pick:
            return
    raise AssertionError("no pick in 30 hands")


def test_gymnasium_seat_picks_and_seeding_reproduces_the_match() -> None:
    def episode(seed: int) -> list[int]:
        env = gymnasium.make("mariage.ai.gym_env:mariage/marjapussi-de-v0",
                             opponents="random", max_hands=2)
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        taken = []
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            taken.append(action)
            obs, _, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        env.close()
        return taken

    first = episode(11)
    assert first == episode(11)
    space = ActionSpace(load_rules("marjapussi-de"))
    picks = [a for a in first if type(space.action(a)) is Pick]
    assert len(picks) % 4 == 0


def test_gymnasium_picks_apply_one_set() -> None:
    env = MariageGymEnv("marjapussi-de", seat=0, opponents="random", max_hands=3)
    rng = np.random.default_rng(2)
    for seed in range(20):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            state = env.state
            assert state is not None
            ids = np.flatnonzero(obs["action_mask"]).tolist()
            assert ids == env.space.legal_ids(state, picked=env.picked)
            if any(type(env.space.action(i)) is Pick for i in ids):
                hand, picked = state.hands[0], 0
                for k in range(4):
                    pick = next(i for i in ids if type(env.space.action(i)) is Pick)
                    picked |= 1 << (pick - env.space.pick_base)
                    obs, _, _, _, _ = env.step(pick)
                    ids = np.flatnonzero(obs["action_mask"]).tolist()
                    if k < 3:
                        assert all(type(env.space.action(i)) is Pick for i in ids)
                        assert state.hands[0] == hand
                given = next(a.cards for s, a in state.actions if s == 0 and type(a) is Give)
                assert given == picked
                return
            obs, _, terminated, truncated, _ = env.step(int(rng.choice(ids)))
            done = terminated or truncated
    raise AssertionError("seat 0 never passed a set in 20 matches")


def test_encoder_marks_picks_for_the_picker_only() -> None:
    state = _at_passing("marjapussi-de", 4)
    rules = state.rules
    enc = Encoder(rules)
    seat = state.to_act
    assert seat is not None
    card = rules.cards_of(state.hands[seat])[0]
    names = enc.feature_names()
    mine = enc.vector(state, seat, 1 << card)
    assert [names[i] for i in np.flatnonzero(mine) if names[i].startswith("picked")] == \
        [f"picked[{rules.card_code[card]}]"]
    other = (seat + 1) % rules.nseats
    assert np.array_equal(enc.vector(state, other, 1 << card), enc.vector(state, other))


@pytest.mark.parametrize("name", FACTORED)
def test_decide_turns_picks_into_one_engine_action(name: str) -> None:
    state = _at_passing(name, 6)
    space = ActionSpace(state.rules)
    count = state.mech.passing.seats(state)[2]
    before = (list(state.hands), state.pass_step)
    rng = random.Random(1)
    asked: list[int] = []

    def choose(mask: npt.NDArray[np.int8], picked: int) -> int:
        asked.append(picked)
        return rng.choice([i for i in np.flatnonzero(mask).tolist()
                           if type(space.action(i)) is Pick])

    action = space.decide(state, choose)
    assert type(action) is Give and action in state.legal_actions()
    assert len(asked) == count and asked[0] == 0 and (list(state.hands), state.pass_step) == before
    with pytest.raises(ValueError, match="not legal"):
        space.decide(state, lambda mask, picked: int(np.flatnonzero(mask == 0)[0]))



def _fingerprint(state: Any) -> tuple[Any, ...]:
    """What an OpenSpiel state of ours holds between two actions."""
    return (list(state.deck), list(state.rest), state.first, dict(state.hidden_steps),
            list(state.steps_all), state.picked, None if state.gs is None else
            (list(state.gs.hands), len(state.gs.actions)))


@pytest.mark.parametrize("name", FACTORED)
def test_openspiel_refuses_an_illegal_action_and_changes_nothing(name: str) -> None:
    """An action OpenSpiel is not offered (a card already dealt, a seat that is none, a
    pick of a card not in hand) fails with a ValueError, one the rules forbid with the
    engine's IllegalActionError, and the state stays as it was: the deal and the record
    of who saw which step go on right after."""
    game = pyspiel.load_game(openspiel_game.game_name(name))
    rules = load_rules(name)
    space = ActionSpace(rules)
    rng = random.Random(5)
    refused = set()
    for _ in range(30):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.is_chance_node():
                wrong = [a for a in range(max(legal) + 2) if a not in legal]
            else:
                wrong = [a for a in range(space.size) if a not in legal]
                wrong = [a for a in wrong if type(space.action(a)) is Pick][:2] + wrong[:1]
            for action in wrong[:3]:
                before = _fingerprint(state)
                with pytest.raises((ValueError, IllegalActionError)):
                    state.apply_action(action)
                assert _fingerprint(state) == before
                refused.add(state._kind if state.is_chance_node()
                            else type(space.action(action)).__name__)
            state.apply_action(rng.choice(legal))
        if {"dealer", "card", "Pick"} <= refused:
            return
    raise AssertionError(f"refused only {refused}")
