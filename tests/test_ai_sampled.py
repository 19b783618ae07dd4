"""The OpenSpiel games with sampled chance (``chance="sampled"``): no chance nodes, each
state's match dealt from the seeded generator, as ``new_match`` deals it."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (the ai extra) is not installed")

from families import by_family  # noqa: E402
from mariage import load_rules, new_match  # noqa: E402
from mariage.ai import openspiel_game  # noqa: E402
from mariage.ai.encoding import ActionSpace  # noqa: E402
from mariage.engine.phase import Phase  # noqa: E402


def sampled(ruleset: str, seed: int = 0, hands: int = 1) -> Any:
    return pyspiel.load_game(openspiel_game.game_name(ruleset),
                             {"chance": "sampled", "seed": seed, "hands": hands})


@pytest.mark.parametrize("name", by_family())
def test_random_simulation_test_passes_without_chance_nodes(name: str) -> None:
    game = sampled(name)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    # serialize=False: pyspiel serializes a sampled-chance game with the game's RNG
    # state, which a Python game cannot give (states and games pickle instead, below)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    rng = random.Random(2)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        assert not state.is_chance_node() and state.current_player() >= 0
        legal = state.legal_actions()
        assert legal == pyspiel.State.legal_actions(state)
        state.apply_action(rng.choice(legal))
        decisions += 1
    assert len(state.history()) == decisions  # every action a decision, no card dealt


def _deals_of_match(rules: Any, seed: int, hands: int, rng: random.Random,
                    choose: list[int]) -> list[tuple[int | None, tuple[int, ...], Any]]:
    """The library's match of ``seed`` played by the ids in ``choose`` (appended when
    short): each hand's dealer, hands and turned-up card, as dealt."""
    space = ActionSpace(rules)
    state = new_match(rules, seed)
    deals = [(state.dealer, tuple(state.hands), state.turn_up)]
    picked, k = 0, 0
    while not state.terminal and state.hand_no <= hands:
        legal = space.legal_ids(state, None, picked)
        if k == len(choose):
            choose.append(rng.randrange(len(legal)))
        hand_no = state.hand_no
        picked = space.play(state, legal[choose[k]], picked)
        k += 1
        if state.hand_no != hand_no and state.hand_no <= hands and state.phase != Phase.OVER:
            deals.append((state.dealer, tuple(state.hands), state.turn_up))
    return deals


@pytest.mark.parametrize("name", ["belote", "mariazza", "schnapsen", "thousand-2",
                                  "marjapussi-de", "marianna-3"])
def test_each_state_deals_the_library_match_of_its_seed(name: str) -> None:
    """State n of a game with seed S plays the match ``new_match(rules, S + n)``: the same
    first dealer and the same deck every hand (Belote's gathered and cut packs too), for
    the same decisions."""
    rules = load_rules(name)
    hands = 3
    game = sampled(name, seed=40, hands=hands)
    for n in range(3):
        state = game.new_initial_state()
        assert state.seed == 40 + n
        rng = random.Random(n)
        choose: list[int] = []
        library = _deals_of_match(rules, 40 + n, hands, rng, choose)
        seen = []
        k = 0
        while not state.is_terminal():
            gs = state.gs
            if not seen or gs.hand_no != len(seen):
                seen.append((gs.dealer, tuple(gs.hands), gs.turn_up))
            legal = state.legal_actions()
            state.apply_action(legal[choose[k]])
            k += 1
        assert k == len(choose)
        assert seen == library
        assert len(seen) == min(hands, state.gs.hand_no)


def test_same_seed_same_states_other_seed_other_deals() -> None:
    def first_hands(game: Any) -> list[tuple[int, ...]]:
        return [tuple(game.new_initial_state().gs.hands) for _ in range(4)]

    a = first_hands(sampled("marianna", seed=7))
    assert a == first_hands(sampled("marianna", seed=7))
    assert len(set(a)) == 4  # each new state another match
    assert a[1:] == first_hands(sampled("marianna", seed=8))[:3]
    # the explicit game is unchanged by a seed: chance nodes deal
    explicit = pyspiel.load_game("mariage_marianna", {"seed": 7})
    assert explicit.get_type().chance_mode == \
        pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert explicit.new_initial_state().is_chance_node()


def test_tensors_and_clones_take_no_seed() -> None:
    """pyspiel makes a new state for each tensor's shape and for each clone: those take
    no seed, so the next state the game deals is still the next match. A state observed
    before any other question shows the view before the deal."""
    game = sampled("schnapsen", seed=20)
    fresh = game.new_initial_state()
    assert not any(fresh.observation_tensor(0)) and not any(fresh.information_state_tensor(1))
    assert fresh.information_state_string(0) == "seat A"  # (no hand yet)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    for player in (0, 1):
        assert any(state.observation_tensor(player))
        assert any(state.information_state_tensor(player))
    clone = state.clone()
    assert (state.seed, clone.seed) == (20, 20)
    assert game.new_initial_state().seed == 21
    assert fresh.seed == 22  # (its first question other than an observation)
    assert fresh.information_state_string(0).startswith("seat A\nhand 1: dealt ")


def test_clones_and_pickles_continue_the_same_match() -> None:
    """A clone (pyspiel's: a new state, then the fields copied) and a pickled state deal
    the next hands of the same match; a pickled game goes on with the next seed."""
    game = sampled("mariazza", seed=3, hands=0)
    state = game.new_initial_state()
    rng = random.Random(5)
    while state.gs.hand_no < 2:
        state.apply_action(rng.choice(state.legal_actions()))
    clone = state.clone()
    copy = pickle.loads(pickle.dumps(state))
    assert clone.seed == copy.seed == 3
    for other in (clone, copy):
        assert other.history() == state.history() and str(other) == str(state)
    for _ in range(200):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        for s in (state, clone, copy):
            s.apply_action(action)
        assert str(clone) == str(copy) == str(state)
        assert clone.information_state_string(0) == state.information_state_string(0)
    made = game.new_initial_state().seed
    again = pickle.loads(pickle.dumps(game))
    assert again.get_parameters() == game.get_parameters()
    assert again.new_initial_state().seed == made + 1


@pytest.mark.parametrize(("params", "message"), [
    ({"chance": "sometimes"}, "chance='sometimes'.*'explicit'.*'sampled'"),
    ({"chance": "sampled", "seed": -1}, "seed=-1: a whole number"),
])
def test_bad_parameters_say_which_and_why(params: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pyspiel.load_game("mariage_schnapsen", params)


def test_rl_environment_episodes_deal_one_match_each() -> None:
    rl_environment = pytest.importorskip("open_spiel.python.rl_environment",
                                         reason="OpenSpiel's Python package is not installed")
    game = sampled("schnapsen", seed=11)
    env = rl_environment.Environment(game)
    rng = random.Random(1)
    hands = []
    for _ in range(3):
        step = env.reset()
        hands.append(tuple(env.get_state.gs.hands))
        while not step.last():
            player = step.observations["current_player"]
            step = env.step([rng.choice(step.observations["legal_actions"][player])])
        assert sorted(step.rewards) == [-1.0, 1.0]
    rules = load_rules("schnapsen")
    assert hands == [tuple(new_match(rules, 11 + n).hands) for n in range(3)]
