"""The picks after a set's first from the listing kept since that first pick
(``mariage.ai.picking``, OpenSpiel's ``openspiel_picks``, PettingZoo's ``_picked_one``), and
the flags of PettingZoo's ``last()``, which are its dicts', whoever set them."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from mariage import load_rules, new_match
from mariage.ai import openspiel_game
from mariage.ai.encoding import ActionSpace, Pick
from mariage.ai.pettingzoo_env import MariageEnv
from mariage.ai.picking import cards_left, later_pick_ids, later_pick_mask
from mariage.engine.actions import Action, Give
from mariage.engine.phase import Phase
from mariage.engine.state import GameState

FACTORED = ["marjapussi-de", "thousand-2"]


def _picking(space: ActionSpace, state: GameState) -> bool:
    return bool(space.pick_size) and state.phase == Phase.PASSING and state.pass_step >= 0


def _states_picking(name: str, matches: int) -> list[GameState]:
    """States of random matches where the seat to act is to pick a set."""
    rules = load_rules(name)
    space = ActionSpace(rules)
    rng = random.Random(7)
    found = []
    for seed in range(matches):
        state = new_match(rules, seed)
        while not state.terminal and state.hand_no <= 2:
            if _picking(space, state):
                found.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    return found


def _left_by_sets(listing: list[Action], picked: int) -> int:
    """The cards that some set of ``listing`` holding ``picked`` adds to them."""
    out = 0
    for a in listing:
        if type(a) is Give and a.cards & picked == picked:
            out |= a.cards & ~picked
    return out


@pytest.mark.parametrize("name", FACTORED)
def test_cards_left_are_those_completing_a_listed_set(name: str) -> None:
    """For the engine's listing (and the same sets as a plain list, and a list of only
    some of them), the cards left after every subset of a set's cards picked so far are
    those of the sets holding the picks, less the picks."""
    rng = random.Random(3)
    space = ActionSpace(load_rules(name))
    states = _states_picking(name, 6)
    assert states
    for state in states:
        listing = space.set_listing(state)
        assert listing is not None
        sets = list(listing)
        some = [a for a in sets if rng.random() < 0.3]
        for _ in range(6):
            give = rng.choice([a for a in sets if type(a) is Give])
            cards = state.rules.cards_of(give.cards)
            picked = sum(1 << c for c in rng.sample(cards, rng.randrange(len(cards))))
            for kept in (listing, sets, some):
                assert cards_left(state, kept, picked) == _left_by_sets(list(kept), picked)
            if picked:  # the ids and the mask of a later pick: as the space's own
                want = space.legal_ids(state, None, picked, sets)
                assert later_pick_ids(space, state, picked, listing) == want
                mask = later_pick_mask(space, state, picked, listing)
                assert np.flatnonzero(mask).tolist() == want


def _to_first_pick_openspiel(name: str, seed: int) -> pyspiel.State:
    game = pyspiel.load_game(openspiel_game.game_name(name), {"chance": "sampled",
                                                             "seed": seed})
    state = game.new_initial_state()
    rng = random.Random(seed)
    space = game.space
    while not state.is_terminal() and not _picking(space, state.gs):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("name", FACTORED)
@pytest.mark.parametrize("ask_first", [True, False])
def test_openspiel_refuses_a_card_picked_again(name: str, ask_first: bool) -> None:
    """Within a set, a card picked already is not legal again: not in the legal ids,
    refused by ``apply_action`` (asked for the legal actions first or not) with nothing
    changed; the other picks of the set are the legal ids of a listing made anew."""
    tried = 0
    for seed in range(8):
        state = _to_first_pick_openspiel(name, seed)
        if state.is_terminal():
            continue
        space = state.game.space
        card_id = next(i for i in state.legal_actions() if type(space.action(i)) is Pick)
        state.apply_action(card_id)
        if not state.picked:  # (a set of one card: no later pick)
            continue
        picked = state.picked
        if ask_first:
            legal = state.legal_actions()
            assert card_id not in legal
            assert legal == space.legal_ids(state.gs, None, picked, None)
        with pytest.raises((ValueError, pyspiel.SpielError)):
            state.apply_action(card_id)
        assert state.picked == picked
        tried += 1
    assert tried


@pytest.mark.parametrize("name", FACTORED)
def test_pettingzoo_refuses_a_card_picked_again(name: str) -> None:
    """The same in PettingZoo: after a pick that is not the set's last, the mask (info
    and observation) is a fresh one of the state with the picks, without the card
    picked, and ``step`` of that card raises with nothing changed."""
    env = MariageEnv(name, max_hands=2)
    rng = random.Random(4)
    tried = 0
    for seed in range(4):
        env.reset(seed=seed)
        for _agent in env.agent_iter(400):
            obs, _, done, cut, info = env.last()
            if done or cut:
                env.step(None)
                continue
            state = env.state_
            assert state is not None and obs is not None
            want = env.space.mask(state, None, env.picked)
            assert (info["action_mask"] == want).all()
            assert (obs["action_mask"] == want).all()
            legal = np.flatnonzero(want)
            action = int(legal[rng.randrange(len(legal))])
            picking = type(env.space.action(action)) is Pick
            env.step(action)
            if picking and env.picked:
                picked = env.picked
                with pytest.raises(ValueError, match="not legal"):
                    env.step(action)
                assert env.picked == picked
                tried += 1
    assert tried


@pytest.mark.parametrize(("name", "max_hands"), [("schnapsen", 1), ("sixty-six", 100),
                                                 ("thousand-2", 1)])
@pytest.mark.parametrize("reward", ["match", "hand"])
def test_last_flags_are_the_dicts(name: str, max_hands: int, reward: str) -> None:
    """``last()``'s termination and truncation are ``env.terminations`` and
    ``env.truncations`` of the agent to act at every step, through the episode's end by
    the match (100 hands) or by truncation (1 hand), with both kinds of rewards; its
    reward is ``_cumulative_rewards``' of the agent."""
    env = MariageEnv(name, max_hands=max_hands, reward=reward)
    rng = random.Random(5)
    ends = 0
    for seed in range(3):
        env.reset(seed=seed)
        for agent in env.agent_iter(3000):
            for observe in (True, False):
                _, reward_now, done, cut, info = env.last(observe)
                assert (done, cut) == (env.terminations[agent], env.truncations[agent])
                assert reward_now == env._cumulative_rewards[agent]
            if done or cut:
                ends += 1
                env.step(None)
                continue
            legal = np.flatnonzero(info["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
    assert ends


def test_last_reports_an_episode_ended_from_outside() -> None:
    """PettingZoo's ``TerminateIllegalWrapper`` ends the episode on an illegal action by
    replacing the environment's ``terminations`` and ``truncations``: the wrapper's
    ``last()`` and the environment's own report them (the environment's end of a match
    is not the only end), and every agent then steps out with ``None``."""
    from pettingzoo.utils.wrappers import TerminateIllegalWrapper

    env = MariageEnv("schnapsen", max_hands=2)
    wrapped = TerminateIllegalWrapper(env, illegal_reward=-1)
    wrapped.reset(seed=1)
    _, _, done, cut, info = wrapped.last()
    assert not (done or cut)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    wrapped.step(illegal)  # (PettingZoo logs a warning)
    left = 0
    for agent in wrapped.agent_iter(10):
        _, _, done, cut, _ = wrapped.last()
        assert done and cut, agent
        assert env.last(observe=False)[2:4] == (True, True)  # the environment's own
        left += 1
        wrapped.step(None)
    assert left == 2 and not wrapped.agents


@pytest.mark.parametrize("name", FACTORED)
def test_openspiel_set_picked_without_asking_is_the_same(name: str) -> None:
    """A set picked by ``apply_action`` alone (the legal actions never asked: the
    listing made at the first pick) leaves the state that the same picks leave with the
    legal actions asked before each: the same history, engine state and what every
    player saw; a card of another hand is refused at any pick, with nothing changed."""
    rng = random.Random(9)
    tried = 0
    for seed in range(8):
        asked = _to_first_pick_openspiel(name, seed)
        if asked.is_terminal():
            continue
        gs = asked.gs
        seat = asked.current_player()
        sets = [a for a in gs.legal_actions() if type(a) is Give]
        cards = gs.rules.cards_of(sets[rng.randrange(len(sets))].cards)
        rng.shuffle(cards)
        alone = asked.clone()
        others = gs.hands[(seat + 1) % gs.rules.nseats]
        stranger = asked.game.space.pick_base + (others & -others).bit_length() - 1
        for card in cards:
            with pytest.raises((ValueError, pyspiel.SpielError)):
                alone.apply_action(stranger)  # (never legal: not in the picker's hand)
            action = asked.game.space.pick_base + card
            assert action in asked.legal_actions()
            asked.apply_action(action)
            alone.apply_action(action)
            assert alone.picked == asked.picked
        assert not asked.picked and asked._picks is None and alone._picks is None
        assert alone.history() == asked.history()
        assert repr(alone.gs) == repr(asked.gs)
        assert alone.gs.hands == asked.gs.hands and alone.gs.known == asked.gs.known
        for p in range(gs.rules.nseats):
            assert alone.information_state_string(p) == asked.information_state_string(p)
            assert alone.observation_string(p) == asked.observation_string(p)
        tried += 1
    assert tried
