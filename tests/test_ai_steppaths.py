"""The cheaper per-step paths of OpenSpiel's states (twenty-third session): the legal
ids of the phases other than play and picking by :meth:`ActionSpace.listed_ids`, the
decisions other than a card within its trick applied and recorded inline. Each must
answer as the general road does."""

from __future__ import annotations

import random

import pyspiel
import pytest
from mariage import load_rules, new_match
from mariage.ai import openspiel_game
from mariage.ai.encoding import ActionSpace
from mariage.ai.openspiel_observer import seen_steps
from mariage.ai.pettingzoo_env import MariageEnv
from mariage.engine.phase import Phase

RULESETS = ["marjapussi-de", "thousand-2", "schnapsen", "belote-coinche"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_listed_ids_are_the_legal_ids(ruleset: str) -> None:
    """Where no set is being picked, ``listed_ids`` is ``legal_ids`` for every seat, in
    random play through every phase (fails if the method is gone or lists otherwise)."""
    rules = load_rules(ruleset)
    space = ActionSpace(rules)
    rng = random.Random(3)
    phases = set()
    for seed in range(3):
        state = new_match(rules, seed)
        while not state.terminal and state.hand_no <= 2:
            if not (space.pick_size and state.phase == Phase.PASSING):
                phases.add(state.phase)
                for seat in (None, *range(rules.nseats)):
                    assert space.listed_ids(state, seat) == space.legal_ids(state, seat)
            acts = state.legal_actions()
            state.apply(acts[rng.randrange(len(acts))])
    assert Phase.PLAY in phases and len(phases) >= 2


@pytest.mark.parametrize("ruleset", RULESETS)
def test_openspiel_decisions_record_as_the_engine_changes(ruleset: str) -> None:
    """Every decision of random play through OpenSpiel (sampled chance) records what each
    player came to see as worked out from the hands and shown cards before and after it
    (the engine's state copied around each decision, the state's record compared), and
    its legal ids are the space's (the inline road of ``_apply_action`` against the
    general one)."""
    game = pyspiel.load_game(openspiel_game.game_name(ruleset),
                             {"chance": "sampled", "seed": 4, "hands": 2})
    rng = random.Random(4)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            gs = state.gs
            assert state.legal_actions() == game.space.legal_ids(gs, None, state.picked,
                                                                  state._picks)
            own, known = gs.hands[:], gs.known[:]
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            hand_no, picked_before = gs.hand_no, state.picked
            state.apply_action(action)
            if state.is_terminal() or state.gs.hand_no != hand_no or state.picked \
                    or picked_before:
                continue  # (a hand's end, or a pick: recorded otherwise)
            step = seen_steps(state.steps_all)[-1]
            want = seen_steps([(step[0], action, None, (own, known, state.gs.hands[:],
                                                        state.gs.known[:]))])[0]
            assert step[1] == action
            assert tuple(step[2]) == tuple(want[2]) and tuple(step[3]) == tuple(want[3])


@pytest.mark.parametrize("ruleset", ["marjapussi-de", "thousand-2", "marianna"])
def test_pettingzoo_step_checks_the_mask_as_the_agent_left_it(ruleset: str) -> None:
    """PettingZoo's ``step`` refuses an id whose byte the agent set to 0 in the mask it
    was handed (the check reads the mask's own memory: the bytes it was made over),
    and takes an id the agent did not touch, at every kind of step (a card, a pick, a
    bid, a hand's first step)."""
    env = MariageEnv(ruleset, max_hands=2)
    rng = random.Random(7)
    refused = 0
    for seed in range(2):
        env.reset(seed=seed)
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)  # (the episode's end: each agent is done in turn)
                continue
            mask = env.infos[agent]["action_mask"]
            legal = [int(i) for i in mask.nonzero()[0]]
            if len(legal) > 1:
                barred = legal[rng.randrange(len(legal))]
                mask[barred] = 0
                with pytest.raises(ValueError, match="not legal"):
                    env.step(barred)
                refused += 1
                mask[barred] = 1
            env.step(legal[rng.randrange(len(legal))])
    assert refused > 50


@pytest.mark.parametrize("ruleset", ["marjapussi-de", "thousand"])
def test_openspiel_decision_changing_no_hand_keeps_no_copies(ruleset: str) -> None:
    """A decision other than a card that changes no hand and no shown card (a bid, a
    question, a contract) is recorded as seen by nobody at once: no copies of the hands
    kept for :func:`seen_steps` to work out later (thirty-fourth session); one that
    changes some (cards passed, a trick's last card) keeps them."""
    game = pyspiel.load_game(openspiel_game.game_name(ruleset),
                             {"chance": "sampled", "seed": 2, "hands": 2})
    rng = random.Random(2)
    unchanged = changed = 0
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            gs = state.gs
            own, known = gs.hands[:], gs.known[:]
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            hand_no, count = gs.hand_no, len(state.steps_all)
            state.apply_action(action)
            if state.is_terminal() or state.gs.hand_no != hand_no or state.picked \
                    or len(state.steps_all) == count:
                continue
            step = state.steps_all[-1]
            if own == state.gs.hands and known == state.gs.known:
                assert step[2:] == (state._nothing, state._nothing)
                unchanged += 1
            elif step[2] is None:
                changed += 1
    assert unchanged > 10 and changed > 10


@pytest.mark.parametrize("chance", ["sampled", "explicit"])
def test_openspiel_state_fields_are_slots_and_clone_through_dict(chance: str) -> None:
    """A state keeps its fields in slots, no instance dict (thirty-fourth session: a
    pyspiel state's dict items cost several times a slot's), and its ``__dict__`` is
    the fields set, which pyspiel's C++ clone copies: the clone goes on as the state."""
    game = pyspiel.load_game(openspiel_game.game_name("thousand-2"),
                             {"chance": chance, "seed": 1, "hands": 1})
    state = game.new_initial_state()
    assert type(state).__dictoffset__ == 0
    rng = random.Random(1)
    # into the hand's play (with chance nodes, its 24 cards dealt first)
    for _ in range(36 if chance == "explicit" else 12):
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    fields = state.__dict__
    assert {"gs", "_player", "steps_all", "picked"} <= set(fields)
    assert fields["_player"] == state.current_player()
    clone = pyspiel.State.clone(state)  # (pyspiel's C++ copy of __dict__)
    while not state.is_terminal():
        assert clone.legal_actions() == state.legal_actions()
        assert clone.information_state_string(0) == state.information_state_string(0)
        action = (state.chance_outcomes()[0][0] if state.is_chance_node()
                  else state.legal_actions()[-1])
        state.apply_action(action)
        clone.apply_action(action)
    assert clone.is_terminal() and clone.returns() == state.returns()
