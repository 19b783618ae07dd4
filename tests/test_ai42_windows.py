"""A space's windows (``ActionSpace.windows``, :class:`mariage.ai.listed.PhaseWindows`):
the masks and ids that Gymnasium, OpenSpiel and PettingZoo take from an auction's window
equal those of ``legal_actions()`` at every decision of random matches, and a random
opponent that keeps what the bots' filter leaves of a window draws as ``RandomBot``."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest
from mariage import load_rules, new_match
from mariage.ai import openspiel_game
from mariage.ai.encoding import ActionSpace
from mariage.ai.gym_env import MariageGymEnv
from mariage.ai.listed import WindowMasks
from mariage.ai.policies import random_chooser
from mariage.arena.plainbots import RandomBot
from mariage.engine.phase import Phase
from mariage.engine.state import GameState

#: the bundled rulesets with a phase listed as a window of a ladder
WINDOWED = ["marjapussi-de", "thousand", "thousand-2", "thousand-4"]


def _listed_ids(space: ActionSpace, state: GameState) -> list[int]:
    """The ids of the engine's listing for the seat to act, sorted."""
    return sorted(id_ for a in state.legal_actions() for id_ in space.action_ids(a))


def _mismatches(space: ActionSpace, seeds: range, rng: random.Random) -> tuple[int, int]:
    """(decisions in a window, those whose mask or ids differ from the listing's) over
    random matches of up to 2 hands, for every decision outside the play phase where no
    set is picked one card at a time."""
    windowed = wrong = 0
    for seed in seeds:
        state = new_match(space.rules, seed)
        while not state.terminal and state.hand_no <= 2:
            phase = state.phase
            if phase is not Phase.PLAY and not space._picking(state):
                if space.windows.legal_bytes(state, state.to_act) is not None:  # type: ignore[arg-type]
                    windowed += 1
                listed = _listed_ids(space, state)
                mask = space.mask(state)
                if np.flatnonzero(mask).tolist() != listed \
                        or space.listed_ids(state) != listed \
                        or space.legal_ids(state) != listed:
                    wrong += 1
            acts = state.legal_actions()
            state.apply(acts[rng.randrange(len(acts))])
    return windowed, wrong


@pytest.mark.parametrize("ruleset", WINDOWED)
def test_masks_and_ids_from_windows_equal_the_listing(ruleset: str) -> None:
    space = ActionSpace(load_rules(ruleset))
    windowed, wrong = _mismatches(space, range(12), random.Random(3))
    assert windowed > 20
    assert wrong == 0


def _broken(made: Callable[[GameState], dict[Phase, WindowMasks]]
            ) -> Callable[[GameState], dict[Phase, WindowMasks]]:
    """``made`` with every window one bid longer at its top (where the ladder has one)."""
    def broken(state: GameState) -> dict[Phase, WindowMasks]:
        out = {}
        for phase, (window, kept, ids, size) in made(state).items():
            def longer(st: GameState, seat: int, window: Callable[..., tuple[int, int, int]
                                                                  | None] = window,
                       top: int = len(ids)) -> tuple[int, int, int] | None:
                bounds = window(st, seat)
                if bounds is None:
                    return None
                head, start, stop = bounds
                return head, start, min(stop + 1, top)
            out[phase] = (longer, kept, ids, size)
        return out
    return broken


@pytest.mark.parametrize("ruleset", ["thousand", "marjapussi-de"])
def test_a_broken_window_is_caught(ruleset: str) -> None:
    space = ActionSpace(load_rules(ruleset))
    space.windows._made = _broken(space.phase_windows)
    windowed, wrong = _mismatches(space, range(12), random.Random(3))
    assert windowed > 20
    assert wrong > 0


@pytest.mark.parametrize("ruleset", WINDOWED)
def test_gymnasium_masks_equal_the_listing_at_every_decision(ruleset: str) -> None:
    env = MariageGymEnv(ruleset, opponents="random", max_hands=2)
    rng = random.Random(7)
    auctions = 0
    for seed in range(6):
        obs, _ = env.reset(seed=seed)
        terminated = truncated = False
        while not (terminated or truncated):
            state = env.state
            assert state is not None
            if not env.space._picking(state):  # (a set's picks: their own tests)
                listed = _listed_ids(env.space, state)
                assert np.flatnonzero(obs["action_mask"]).tolist() == listed
                assert np.flatnonzero(env.action_masks()).tolist() == listed
                auctions += state.phase is Phase.AUCTION
            legal = obs["action_mask"].nonzero()[0]
            obs, _, terminated, truncated, _ = env.step(int(legal[rng.randrange(len(legal))]))
    assert auctions > 5


@pytest.mark.parametrize("ruleset", WINDOWED)
def test_openspiel_legal_actions_equal_the_listing_at_every_decision(ruleset: str) -> None:
    import pyspiel

    # (sampled chance: each state deals its hands itself, no chance node to walk)
    game = pyspiel.load_game(openspiel_game.game_name(ruleset),
                             {"chance": "sampled", "seed": 4, "hands": 2})
    rng = random.Random(11)
    auctions = 0
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            gs = state.gs
            if not game.space._picking(gs):  # (a set's picks: their own tests)
                assert legal == _listed_ids(game.space, gs)
                assert legal == pyspiel.State.legal_actions(state)  # (C++'s road)
                auctions += gs.phase is Phase.AUCTION
            state.apply_action(legal[rng.randrange(len(legal))])
    assert auctions > 5


@pytest.mark.parametrize("ruleset", [*WINDOWED, "thousand-pl", "schnapsen", "belote"])
def test_the_random_chooser_draws_as_the_random_bot(ruleset: str) -> None:
    rules = load_rules(ruleset)
    rng = random.Random(5)
    for seed in range(4):
        choose, bot = random_chooser(RandomBot(seed)), RandomBot(seed)
        state = new_match(rules, seed)
        while not state.terminal and state.hand_no <= 2:
            if rng.random() < 0.5:  # (the chooser's seat and others in turn)
                action = choose(state)
                assert action == bot.choose(state)
            else:
                acts = state.legal_actions()
                action = acts[rng.randrange(len(acts))]
            state.apply(action)
